package dev.drainboard.app;

import dev.drainboard.ui.ConsoleApplication;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code drainboard ui}: the console window (also what plain {@code drainboard} runs). */
@Command(name = "ui", mixinStandardHelpOptions = true,
        description = "Open the console window on the embedded demo cluster.")
public final class UiCommand implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "demo|pressure|FILE|DIR", defaultValue = "demo",
            description = "Scenario for the embedded cluster (default: ${DEFAULT-VALUE}).")
    String scenario;

    public UiCommand() {
    }

    UiCommand(String scenario) {
        this.scenario = scenario;
    }

    @Override
    public Integer call() {
        ConsoleApplication.launchWith(scenario);
        return 0;
    }
}
