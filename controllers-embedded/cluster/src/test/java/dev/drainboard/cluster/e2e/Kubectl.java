package dev.drainboard.cluster.e2e;

import dev.drainboard.testing.KubectlRequirement;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real kubectl against one kubeconfig, with its own discovery cache so that runs never
 * share stale discovery, and a hard timeout so that a misbehaving server fails a test instead of
 * hanging the build.
 */
final class Kubectl {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Path kubeconfig;
    private final Path cacheDir;

    Kubectl(Path kubeconfig, Path cacheDir) {
        this.kubeconfig = kubeconfig;
        this.cacheDir = cacheDir;
    }

    /** What one kubectl run printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {

        /** Both streams, for messages kubectl may print on either. */
        String output() {
            return stdout + stderr;
        }

        /** A description for AssertJ's {@code as(...)}: everything kubectl printed. */
        String describe() {
            return "kubectl exited " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    Result run(String... arguments) {
        return runWithInput(null, arguments);
    }

    /** Runs kubectl with {@code input} on its standard input (for {@code -f -}). */
    Result runWithInput(String input, String... arguments) {
        return runWithEditor(null, input, arguments);
    }

    /** Runs kubectl with {@code KUBE_EDITOR} set (for {@code kubectl edit}), and {@code input} (may be null) on stdin. */
    Result runWithEditor(String editor, String input, String... arguments) {
        Process process = launch(editor, arguments);
        OutputCollector stdout = OutputCollector.of(process.getInputStream());
        OutputCollector stderr = OutputCollector.of(process.getErrorStream());
        try {
            try (var stdin = process.getOutputStream()) {
                if (input != null) {
                    stdin.write(input.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("kubectl " + String.join(" ", arguments) + " did not finish within " + TIMEOUT
                        + "\n--- stdout ---\n" + stdout.text() + "\n--- stderr ---\n" + stderr.text());
            }
            return new Result(process.exitValue(), stdout.awaitText(), stderr.awaitText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running kubectl", e);
        }
    }

    /** Runs kubectl and fails the test unless it exits 0. */
    Result succeed(String... arguments) {
        Result result = run(arguments);
        if (result.exitCode() != 0) {
            throw new AssertionError("kubectl " + String.join(" ", arguments) + " failed\n" + result.describe());
        }
        return result;
    }

    /** Applies a manifest given as text, failing the test unless kubectl accepts it. */
    Result apply(String yaml) {
        Result result = runWithInput(yaml, "apply", "-f", "-");
        if (result.exitCode() != 0) {
            throw new AssertionError("kubectl apply failed\n" + result.describe() + "\n--- manifest ---\n" + yaml);
        }
        return result;
    }

    /** Starts a long-running kubectl ({@code get -w}, {@code drain}) whose output the test reads as it comes. */
    BackgroundKubectl start(String... arguments) {
        Process process = launch(null, arguments);
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BackgroundKubectl(process, OutputCollector.of(process.getInputStream()),
                OutputCollector.of(process.getErrorStream()));
    }

    private Process launch(String editor, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(KubectlRequirement.binary().toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.add("--cache-dir=" + cacheDir);
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Keep the user's own kubectl configuration out of the picture.
        builder.environment().remove("KUBECONFIG");
        builder.environment().put("KUBECTL_INTERACTIVE_DELETE", "false");
        if (editor != null) {
            builder.environment().put("KUBE_EDITOR", editor);
        }
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + KubectlRequirement.binary(), e);
        }
    }

    /** A kubectl process running alongside the test; closing it kills it. */
    static final class BackgroundKubectl implements AutoCloseable {

        private final Process process;
        private final OutputCollector stdout;
        private final OutputCollector stderr;

        private BackgroundKubectl(Process process, OutputCollector stdout, OutputCollector stderr) {
            this.process = process;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** Everything printed so far, stdout then stderr. */
        String output() {
            return stdout.text() + stderr.text();
        }

        boolean isRunning() {
            return process.isAlive();
        }

        /** The exit code; only meaningful once {@link #isRunning()} is false. */
        int exitCode() {
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Drains one stream of a process on a daemon thread, so that a full pipe never blocks kubectl. */
    static final class OutputCollector {

        private final StringBuffer text = new StringBuffer();
        private final Thread reader;

        private OutputCollector(InputStream stream) {
            reader = Thread.ofPlatform().daemon().name("kubectl-output").start(() -> {
                byte[] buffer = new byte[8192];
                try (stream) {
                    // Decoding chunk by chunk can split a multi-byte character; kubectl's output is ASCII in these tests.
                    for (int n; (n = stream.read(buffer)) >= 0; ) {
                        text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    text.append("\n[output stream failed: ").append(e.getMessage()).append(']');
                }
            });
        }

        static OutputCollector of(InputStream stream) {
            return new OutputCollector(stream);
        }

        String text() {
            return text.toString();
        }

        /** The whole text once the process has closed the stream. */
        String awaitText() throws InterruptedException {
            reader.join(Duration.ofSeconds(10));
            return text.toString();
        }
    }
}
