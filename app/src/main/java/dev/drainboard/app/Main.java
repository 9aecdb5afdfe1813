package dev.drainboard.app;

import dev.drainboard.admission.WebhookCallers;
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
        if (args.length == 0) {
            // `drainboard` alone opens the console with the root command's defaults. Building picocli's model of
            // every subcommand first cost ~0.4 s before the first frame (picocli's classes, compiled for Java 5,
            // cannot go into the AOT cache); DrainboardCommandTest checks these are the defaults picocli would give.
            return UiCommand.launch(DrainboardCommand.DEFAULT_SCENARIO, null, WebhookCallers.anyone());
        }
        return new CommandLine(new DrainboardCommand()).execute(args);
    }
}
