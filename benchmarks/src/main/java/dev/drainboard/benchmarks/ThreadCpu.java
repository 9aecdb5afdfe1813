package dev.drainboard.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU time of this JVM's threads by kind (JIT compilers, GC, HTTP event loops, controller workers…), read from
 * Linux's {@code /proc/self/task/<tid>/stat}, which, unlike the thread MXBean, also counts the JVM's own threads.
 * Threads of one kind are grouped by their name without digits. Empty where there is no {@code /proc}.
 */
final class ThreadCpu {

    /** Linux reports thread times in clock ticks of 10 ms (USER_HZ 100). */
    private static final long MILLIS_PER_TICK = 10;

    private ThreadCpu() {
    }

    /** Milliseconds of CPU (user + system) by thread kind, so far. */
    static Map<String, Long> byKind() {
        Map<String, Long> millis = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(open + 1, close);
                    String[] fields = stat.substring(close + 2).split(" ");
                    // After "(comm) ": state is field 3 of stat(5), utime 14 and stime 15.
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    millis.merge(kind(name), ticks * MILLIS_PER_TICK, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return millis;
    }

    /** {@code "vmi-controller-w"} and {@code "C2 CompilerThre"} stay; digits and separators around them go. */
    static String kind(String threadName) {
        String kind = threadName.replaceAll("[0-9]+", "#").replaceAll("#(-?#)+", "#");
        return kind.isBlank() ? threadName : kind;
    }

    /** The kinds using most CPU first, as {@code kind=seconds} pairs, the rest summed as {@code other}. */
    static String describe(Map<String, Long> millis, int top) {
        Map<String, Long> sorted = millis.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        StringBuilder out = new StringBuilder();
        long other = 0;
        int shown = 0;
        for (var e : sorted.entrySet()) {
            if (shown++ < top) {
                out.append(String.format(java.util.Locale.ROOT, "%s=%.1fs; ", e.getKey(), e.getValue() / 1000.0));
            } else {
                other += e.getValue();
            }
        }
        out.append(String.format(java.util.Locale.ROOT, "other=%.1fs", other / 1000.0));
        return out.toString();
    }

    /** What was used between two snapshots. */
    static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> used = new HashMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0) {
                used.put(k, d);
            }
        });
        return used;
    }
}
