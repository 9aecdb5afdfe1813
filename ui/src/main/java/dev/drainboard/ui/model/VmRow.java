package dev.drainboard.ui.model;

/**
 * What the console shows of one VirtualMachine: how it is meant to run and how it runs.
 *
 * @param runStrategy     {@code spec.runStrategy}, or Always/Halted read from the deprecated {@code spec.running}
 * @param printableStatus KubeVirt's STATUS column ({@code status.printableStatus}): Stopped, Starting, Running, …
 * @param ready           {@code status.ready}
 * @param node            the node its VMI runs on, empty without one
 * @param pending         the state changes queued for the VM controller ({@code Stop, Start}), empty when none
 */
public record VmRow(String namespace, String name, String runStrategy, String printableStatus, boolean ready, String node,
                    String pending, String created) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VM, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, runStrategy, printableStatus, node);
    }

    /** Whether a VMI is running or on its way (what Stop and Restart act on). */
    public boolean running() {
        return switch (printableStatus) {
            case "Stopped", "" -> false;
            default -> true;
        };
    }
}
