package dev.drainboard.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** What a failed write says about whether it happened. */
public final class WriteOutcomes {

    private WriteOutcomes() {
    }

    /**
     * A write answered with a timeout (504: kube-apiserver's "request did not complete within requested timeout") or
     * with no answer at all may have been done all the same: a controller that then lowers its expectations makes a
     * second object on its next sync. Other errors come before the write.
     */
    public static boolean mayHaveBeenWritten(KubernetesClientException e) {
        return e.getCode() == 504 || e.getCode() == 0;
    }
}
