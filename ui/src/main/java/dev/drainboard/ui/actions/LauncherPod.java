package dev.drainboard.ui.actions;

/**
 * The virt-launcher pod running a VMI, found so that it can be evicted.
 *
 * @param whatHappens what the eviction will do and why, as a drain preview says it (empty if it could not be read)
 */
public record LauncherPod(String namespace, String name, String node, String vmi, String whatHappens) {

    public String key() {
        return namespace + "/" + name;
    }
}
