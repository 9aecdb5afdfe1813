package dev.drainboard.benchmarks;

/**
 * How big the control plane benchmark's cluster is.
 *
 * @param nodes             simulated nodes
 * @param vmis              VMIs in the scenario, created directly
 * @param vms               VMs in the scenario ({@code runStrategy: Always}); the VM controller creates one VMI each
 * @param namespaces        namespaces the VMIs and VMs are spread over
 * @param controllerHeapMiB the controllers' JVM's {@code -Xmx}: the benchmark fails if they need more
 * @param timeoutSeconds    how long to wait for every VMI to run before giving up
 */
public record ScaleSizes(int nodes, int vmis, int vms, int namespaces, int controllerHeapMiB, int timeoutSeconds) {

    /** The sizes of issue 3: 500 nodes, 5,000 VMIs (4,500 direct, 500 from VMs), 10 namespaces, 512 MiB. */
    public static ScaleSizes full() {
        return new ScaleSizes(500, 4_500, 500, 10, 512, 600);
    }

    /** Just enough to show the run works (the build's smoke test). */
    public static ScaleSizes smoke() {
        return new ScaleSizes(2, 4, 1, 1, 256, 60);
    }

    /** Every VMI the controllers must bring to Running. */
    public int totalVmis() {
        return vmis + vms;
    }

    /** Full sizes, or smoke sizes with {@code --smoke}; {@code --name=value} overrides one size. */
    public static ScaleSizes fromArgs(String[] args) {
        ScaleSizes sizes = full();
        for (String arg : args) {
            if (arg.equals("--smoke")) {
                sizes = smoke();
            }
        }
        for (String arg : args) {
            if (arg.equals("--smoke")) {
                continue;
            }
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("unknown argument " + arg + " (use --smoke or --name=value)");
            }
            String name = arg.substring(2, arg.indexOf('='));
            int v = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            sizes = switch (name) {
                case "nodes" -> new ScaleSizes(v, sizes.vmis, sizes.vms, sizes.namespaces, sizes.controllerHeapMiB, sizes.timeoutSeconds);
                case "vmis" -> new ScaleSizes(sizes.nodes, v, sizes.vms, sizes.namespaces, sizes.controllerHeapMiB, sizes.timeoutSeconds);
                case "vms" -> new ScaleSizes(sizes.nodes, sizes.vmis, v, sizes.namespaces, sizes.controllerHeapMiB, sizes.timeoutSeconds);
                case "namespaces" -> new ScaleSizes(sizes.nodes, sizes.vmis, sizes.vms, v, sizes.controllerHeapMiB, sizes.timeoutSeconds);
                case "controllerHeapMiB" -> new ScaleSizes(sizes.nodes, sizes.vmis, sizes.vms, sizes.namespaces, v, sizes.timeoutSeconds);
                case "timeoutSeconds" -> new ScaleSizes(sizes.nodes, sizes.vmis, sizes.vms, sizes.namespaces, sizes.controllerHeapMiB, v);
                default -> throw new IllegalArgumentException("unknown size " + name);
            };
        }
        return sizes;
    }
}
