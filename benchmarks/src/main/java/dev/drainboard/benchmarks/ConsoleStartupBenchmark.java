package dev.drainboard.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console's start as an operator feels it: {@code ./drainboard} (the built launcher, with its AOT cache) opened on
 * the embedded demo cluster, run after run, each with a fresh home folder (no remembered theme, recent connections or
 * namespace). The console prints both milestones itself, timed from the start of its process
 * ({@code dev.drainboard.ui.StartupReport}):
 * <ul>
 *   <li><b>first frame</b>: the window's first pulse after {@code show()};</li>
 *   <li><b>demo populated</b>: a tile per node and a row per VMI of the demo (4 nodes, 12 VMIs: the VM's and the
 *       replica set's included, which their controllers create after the cluster is up), each VMI on a node;</li>
 *   <li><b>CPU</b>: what the process used until then, all threads (on a shared machine the least load-dependent of
 *       the three).</li>
 * </ul>
 * The window closes itself 300 ms after. Without {@code DISPLAY} each run goes through {@code xvfb-run -a}.
 * {@code --load} keeps one core busy (a spinning thread in this process) during the runs, as another build would.
 *
 * <p>Run from the repository root after {@code mvn -DskipTests package}:
 * {@code java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) dev.drainboard.benchmarks.ConsoleStartupBenchmark --runs=5}
 */
public final class ConsoleStartupBenchmark {

    static final Pattern FIRST_FRAME = Pattern.compile("drainboard: first frame after (\\d+) ms");
    static final Pattern POPULATED = Pattern.compile("drainboard: demo populated after (\\d+) ms \\((\\d+) nodes, (\\d+) VMIs(?:, CPU (\\d+) ms)?\\)");
    /** The demo's nodes and VMIs (controllers-embedded/cluster's scenarios/demo.yaml, with its VM and replica set). */
    static final int DEMO_NODES = 4;
    static final int DEMO_VMIS = 12;

    /** One start: milliseconds from the process's start. */
    record Run(long firstFrameMs, long populatedMs, long cpuMs, String loadAverage) {
    }

    private ConsoleStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = DrainBenchmark.intArg(args, "runs", 5);
        boolean load = List.of(args).contains("--load");
        Path drainboard = Path.of(DrainBenchmark.stringArg(args, "drainboard", "./drainboard")).toAbsolutePath().normalize();
        List<Run> results = run(runs, load, drainboard, System.out);
        if (results.isEmpty()) {
            System.exit(1);
        }
    }

    static List<Run> run(int runs, boolean load, Path drainboard, PrintStream out) throws IOException, InterruptedException {
        out.printf("console start-up on the embedded demo, %d runs, %s%n", runs,
                load ? "one core kept busy (--load)" : "no added load");
        AtomicBoolean spinning = new AtomicBoolean(load);
        Thread spinner = null;
        if (load) {
            spinner = Thread.ofPlatform().daemon().name("busy-core").start(() -> {
                long x = 0;
                while (spinning.get()) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
        }
        List<Run> results = new ArrayList<>();
        try {
            for (int i = 1; i <= runs; i++) {
                Run r = once(drainboard);
                results.add(r);
                out.printf("run %d: first frame %d ms, demo populated %d ms, CPU used until then %d ms (load average before: %s)%n",
                        i, r.firstFrameMs(), r.populatedMs(), r.cpuMs(), r.loadAverage());
            }
        } finally {
            spinning.set(false);
            if (spinner != null) {
                spinner.join();
            }
        }
        out.printf("median of %d: first frame %d ms, demo populated %d ms, CPU %d ms%n", results.size(),
                median(results.stream().map(Run::firstFrameMs).toList()),
                median(results.stream().map(Run::populatedMs).toList()),
                median(results.stream().map(Run::cpuMs).toList()));
        return results;
    }

    static Run once(Path drainboard) throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("drainboard-startup-");
        String loadAverage = loadAverage();
        List<String> command = new ArrayList<>();
        if (System.getenv("DISPLAY") == null || System.getenv("DISPLAY").isEmpty()) {
            command.addAll(List.of("xvfb-run", "-a", "-s", "-screen 0 1600x1000x24"));
        }
        command.add(drainboard.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        String extra = System.getenv().getOrDefault("DRAINBOARD_JAVA_OPTS", "");
        builder.environment().put("DRAINBOARD_JAVA_OPTS", (extra + " -Duser.home=" + home
                + " -Ddrainboard.exitAfterPopulatedMs=300 -Ddrainboard.startup.expect=" + DEMO_NODES + "," + DEMO_VMIS).trim());
        Process process = builder.start();
        OptionalLong firstFrame = OptionalLong.empty();
        OptionalLong populated = OptionalLong.empty();
        long cpu = -1;
        List<String> printed = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                printed.add(line);
                Matcher f = FIRST_FRAME.matcher(line);
                if (f.find()) {
                    firstFrame = OptionalLong.of(Long.parseLong(f.group(1)));
                }
                Matcher p = POPULATED.matcher(line);
                if (p.find()) {
                    populated = OptionalLong.of(Long.parseLong(p.group(1)));
                    cpu = p.group(4) == null ? -1 : Long.parseLong(p.group(4));
                }
            }
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        deleteQuietly(home);
        if (firstFrame.isEmpty() || populated.isEmpty()) {
            throw new IllegalStateException("the console did not report both milestones; it printed:\n"
                    + String.join("\n", printed.subList(Math.max(0, printed.size() - 40), printed.size())));
        }
        return new Run(firstFrame.getAsLong(), populated.getAsLong(), cpu, loadAverage);
    }

    static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder
        }
    }
}
