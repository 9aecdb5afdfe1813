package dev.drainboard.admission;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * What the eviction webhook reads and writes in the cluster. One implementation talks to the API (with informer
 * caches in front, {@link ApiAdmissionCluster}); tests put their own in its place.
 */
public interface AdmissionCluster {

    /** The pod, null when it does not exist. */
    Pod pod(String namespace, String name) throws Exception;

    /**
     * The VMI, read from a cache when {@code live} is false and one is there.
     *
     * @throws Exception with the text of the API error (a missing VMI is an error too)
     */
    Source<VirtualMachineInstance> vmi(String namespace, String name, boolean live) throws Exception;

    /** Writes the mark; throws with the API's error text when that fails. */
    void mark(MarkForEvacuation mark) throws Exception;

    /** An object and whether it came from a cache (which may lag the API by a few milliseconds). */
    record Source<T>(T object, boolean cached) {
    }
}
