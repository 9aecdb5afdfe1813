package dev.drainboard.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The benchmark's handle on a {@link ControllersProcess} JVM: launch, the moments it reported, questions, quit. */
final class ControllersChild implements AutoCloseable {

    /** Extra JVM options for the controllers' JVM (e.g. a JFR recording), split on spaces. */
    static final String JVM_ARGS_PROPERTY = "bench.controllersJvmArgs";

    /** What {@code heap} answered. */
    record Heap(long usedBytes, long committedBytes, long maxBytes, long gcCount, long gcMillis, long cpuNanos) {
    }

    private final Process process;
    private final PrintWriter in;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final CountDownLatch leading = new CountDownLatch(1);
    private final long launchedAt;
    private volatile long leaderAt;

    private ControllersChild(Process process, long launchedAt) {
        this.process = process;
        this.launchedAt = launchedAt;
        this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("controllers-stdout").start(this::readReplies);
    }

    /** Starts the controllers' JVM with this heap cap against the kubeconfig; its log goes to {@code log}. */
    static ControllersChild launch(Path kubeconfig, int maxHeapMiB, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeapMiB + "m");
        String extra = System.getProperty(JVM_ARGS_PROPERTY, "").trim();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split(" +")));
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ControllersProcess.class.getName());
        command.add(kubeconfig.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(log.toFile()));
        long at = System.nanoTime();
        return new ControllersChild(builder.start(), at);
    }

    private void readReplies() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (!line.startsWith(ControllersProcess.REPLY)) {
                    continue;
                }
                line = line.substring(ControllersProcess.REPLY.length());
                if (line.equals("leader")) {
                    leaderAt = System.nanoTime();
                    leading.countDown();
                } else if (!line.equals("started")) {
                    replies.add(line);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    long pid() {
        return process.pid();
    }

    long launchedAt() {
        return launchedAt;
    }

    /** When it reported leading; 0 if not yet. */
    long leaderAt() {
        return leaderAt;
    }

    void awaitLeader(long timeout, TimeUnit unit) throws InterruptedException {
        if (!leading.await(timeout, unit)) {
            throw new IllegalStateException("the controllers' process did not become leader within " + timeout + " " + unit
                    + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
        }
    }

    Heap heap() throws InterruptedException {
        String[] f = ask("heap").split(" ");
        return new Heap(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                Long.parseLong(f[5]), Long.parseLong(f[6]));
    }

    /** CPU by thread kind, as {@link ThreadCpu#describe} writes it. */
    String threadCpu() throws InterruptedException {
        return ask("threads").substring("threads ".length());
    }

    List<String> figures() throws InterruptedException {
        List<String> lines = new ArrayList<>();
        String line = ask("figures");
        while (!line.equals("end")) {
            lines.add(line.substring("figure ".length()));
            line = next();
        }
        return lines;
    }

    private String ask(String question) throws InterruptedException {
        in.println(question);
        return next();
    }

    private String next() throws InterruptedException {
        String line = replies.poll(60, TimeUnit.SECONDS);
        if (line == null) {
            throw new IllegalStateException("the controllers' process did not answer"
                    + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
        }
        return line;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            in.println("quit");
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
