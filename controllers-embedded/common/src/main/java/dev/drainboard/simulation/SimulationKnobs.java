package dev.drainboard.simulation;

/**
 * The embedded cluster's simulation knobs: annotations ({@code sim.drainboard.dev/*}) on nodes, pods and VMIs that
 * tell the simulated kubelets and hypervisors how to behave (README, "Simulation knobs"; docs/embedded-cluster.md,
 * "Node-pressure eviction"). A real cluster ignores them.
 *
 * <p>They live in drainboard-common, not with the embedded cluster, because the node handler reads some of them too:
 * it plays virt-handler on the simulated nodes, so it reports what {@link #LIVE_MIGRATABLE} says, moves migrations at
 * {@link #LINK_SPEED} against {@link #MEMORY_DIRTY_RATE}, and expects the kill after
 * {@link #EVICTION_MAX_POD_GRACE_PERIOD}; tests, benchmarks and scenarios set them. One class keeps the vocabulary
 * the README documents in one place.
 */
public final class SimulationKnobs {

    private SimulationKnobs() {
    }

    /** VMIs: {@code "false"} makes the node handler report {@code LiveMigratable=False}, reason NotMigratable. */
    public static final String LIVE_MIGRATABLE = "sim.drainboard.dev/live-migratable";
    /** The message of that {@code LiveMigratable=False}. */
    public static final String NOT_LIVE_MIGRATABLE_MESSAGE = "VMI is marked not live-migratable by the annotation " + LIVE_MIGRATABLE;
    /** VMIs: how long the simulated guest takes to boot (Go duration). */
    public static final String BOOT_DELAY = "sim.drainboard.dev/boot-delay";
    /** VMIs: how long the simulated guest takes to power off after an ACPI shutdown; {@code never} ignores ACPI. */
    public static final String GUEST_SHUTDOWN_DELAY = "sim.drainboard.dev/guest-shutdown-delay";
    /** Pods: time from creation until the simulated kubelet runs the pod. */
    public static final String POD_START_DELAY = "sim.drainboard.dev/start-delay";
    /** Pods: time the pod's process takes to exit after SIGTERM. */
    public static final String POD_SHUTDOWN_DELAY = "sim.drainboard.dev/shutdown-delay";
    /** Nodes: bytes per second a live migration out of this node moves (a quantity, e.g. {@code 512Mi}). */
    public static final String LINK_SPEED = "sim.drainboard.dev/link-speed";
    /** VMIs: bytes per second the guest dirties while it migrates (a quantity, e.g. {@code 64Mi}); default 0. */
    public static final String MEMORY_DIRTY_RATE = "sim.drainboard.dev/memory-dirty-rate";

    // Node-pressure eviction (docs/embedded-cluster.md): the simulated kubelet's eviction configuration per
    // node, in the kubelet's own flag syntax, and the memory the node's usage is made of.
    /** Nodes: {@code --eviction-soft}, e.g. {@code memory.available<3500Mi} (or a percentage of capacity). */
    public static final String EVICTION_SOFT = "sim.drainboard.dev/eviction-soft";
    /** Nodes: {@code --eviction-soft-grace-period}, e.g. {@code memory.available=5s}. */
    public static final String EVICTION_SOFT_GRACE_PERIOD = "sim.drainboard.dev/eviction-soft-grace-period";
    /** Nodes: {@code --eviction-max-pod-grace-period} in seconds, e.g. {@code 300}. */
    public static final String EVICTION_MAX_POD_GRACE_PERIOD = "sim.drainboard.dev/eviction-max-pod-grace-period";
    /** Nodes: {@code --eviction-hard}, e.g. {@code memory.available<10Mi}. */
    public static final String EVICTION_HARD = "sim.drainboard.dev/eviction-hard";
    /** Nodes: {@code --eviction-pressure-transition-period} (Go duration; the kubelet's default is 5m). */
    public static final String EVICTION_PRESSURE_TRANSITION_PERIOD = "sim.drainboard.dev/eviction-pressure-transition-period";
    /** Nodes: memory used outside pods (system daemons, a leak…), a quantity; raise it to push a node over. */
    public static final String SYSTEM_MEMORY_USAGE = "sim.drainboard.dev/system-memory-usage";
    /** Pods: the memory the pod uses, a quantity; default its memory request (a launcher: its guest + overhead). */
    public static final String POD_MEMORY_USAGE = "sim.drainboard.dev/memory-usage";
}
