package dev.drainboard.app;

import picocli.CommandLine;

/** Entry point of the {@code drainboard} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (2 for usage errors, as picocli does). */
    public static int run(String... args) {
        return new CommandLine(new DrainboardCommand()).execute(args);
    }
}
