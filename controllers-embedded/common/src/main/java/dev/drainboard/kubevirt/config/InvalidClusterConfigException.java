package dev.drainboard.kubevirt.config;

/** A KubeVirt CR whose configuration KubeVirt would refuse; the last good configuration stays in force. */
public final class InvalidClusterConfigException extends Exception {

    public InvalidClusterConfigException(String message) {
        super(message);
    }
}
