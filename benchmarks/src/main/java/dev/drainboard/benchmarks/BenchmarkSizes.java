package dev.drainboard.benchmarks;

/**
 * How much the API server benchmark stores and measures.
 *
 * @param nodes            nodes created
 * @param pods             pods created, over all namespaces
 * @param bigNamespacePods of those pods, how many go to the one namespace whose list is timed
 * @param podNamespaces    how many other namespaces share the rest of the pods
 * @param customObjects    custom objects (of a CRD created first)
 * @param threads          concurrent client threads for creates and GETs
 * @param gets             timed single-object GETs
 * @param listRuns         timed lists of the big namespace (the median is reported)
 * @param watchers         concurrent watch connections on one object
 * @param watchWrites      timed writes to that object
 * @param warmup           how much of each kind of work runs untimed first
 * @param churn            pod updates made at the end, to see what the watch log's old versions cost in heap
 */
public record BenchmarkSizes(int nodes, int pods, int bigNamespacePods, int podNamespaces, int customObjects,
                             int threads, int gets, int listRuns, int watchers, int watchWrites, int warmup, int churn) {

    /** The sizes of issue 2: 500 nodes, 10,000 pods, 5,000 custom objects, 8 threads, 20 watchers. */
    public static BenchmarkSizes full() {
        return new BenchmarkSizes(500, 10_000, 1_000, 45, 5_000, 8, 40_000, 30, 20, 1_000, 2_000, 20_000);
    }

    /** Just enough to show every phase works (the build's smoke test). */
    public static BenchmarkSizes smoke() {
        return new BenchmarkSizes(5, 60, 20, 2, 20, 4, 200, 3, 3, 20, 20, 20);
    }

    /** Full sizes, or smoke sizes with {@code --smoke}; {@code --name=value} overrides one size. */
    public static BenchmarkSizes fromArgs(String[] args) {
        BenchmarkSizes sizes = full();
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
            int value = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            sizes = sizes.with(name, value);
        }
        return sizes;
    }

    private BenchmarkSizes with(String name, int v) {
        return switch (name) {
            case "nodes" -> new BenchmarkSizes(v, pods, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, watchers, watchWrites, warmup, churn);
            case "pods" -> new BenchmarkSizes(nodes, v, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, watchers, watchWrites, warmup, churn);
            case "customObjects" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, v, threads, gets, listRuns, watchers, watchWrites, warmup, churn);
            case "threads" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, v, gets, listRuns, watchers, watchWrites, warmup, churn);
            case "gets" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, threads, v, listRuns, watchers, watchWrites, warmup, churn);
            case "watchers" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, v, watchWrites, warmup, churn);
            case "watchWrites" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, watchers, v, warmup, churn);
            case "warmup" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, watchers, watchWrites, v, churn);
            case "churn" -> new BenchmarkSizes(nodes, pods, bigNamespacePods, podNamespaces, customObjects, threads, gets, listRuns, watchers, watchWrites, warmup, v);
            default -> throw new IllegalArgumentException("unknown size " + name);
        };
    }
}
