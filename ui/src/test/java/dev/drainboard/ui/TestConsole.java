package dev.drainboard.ui;

import javafx.stage.Stage;

import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * The console window of one TestFX test: its own throw-away preferences node (theme, recent connections) and no
 * kubeconfig files, so what the test sees does not depend on the machine or on another test.
 */
final class TestConsole implements AutoCloseable {

    private final Console console;
    private final Preferences prefs;

    private TestConsole(Console console, Preferences prefs) {
        this.console = console;
        this.prefs = prefs;
    }

    static TestConsole show(Stage stage) {
        return show(stage, options -> options);
    }

    /** With {@code options} adjusted further, e.g. another scenario for the embedded cluster. */
    static TestConsole show(Stage stage, UnaryOperator<ConsoleOptions> options) {
        Preferences prefs = Preferences.userRoot().node("dev/drainboard/ui-test/" + UUID.randomUUID());
        Console console = new Console(options.apply(ConsoleOptions.defaults().withPrefs(prefs).withKubeconfigs(List.of(), false)));
        console.show(stage);
        return new TestConsole(console, prefs);
    }

    Console console() {
        return console;
    }

    /** This window's own preferences node. */
    Preferences prefs() {
        return prefs;
    }

    @Override
    public void close() throws BackingStoreException {
        console.close();
        prefs.removeNode();
    }
}
