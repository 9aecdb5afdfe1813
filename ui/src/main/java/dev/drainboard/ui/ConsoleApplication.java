package dev.drainboard.ui;

import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;

/** The JavaFX application: one {@link Console} window. */
public final class ConsoleApplication extends Application {

    private static volatile ConsoleOptions options = ConsoleOptions.defaults();

    private Console console;

    /** Opens the window (blocking until it closes) connected to a fresh embedded cluster with this scenario. */
    public static void launchWith(String scenarioName) {
        launchWith(scenarioName, null);
    }

    /**
     * As {@link #launchWith(String)}; {@code webhookHost} (null: chosen per cluster) is where clusters connected to
     * later in Control mode call the eviction webhook.
     */
    public static void launchWith(String scenarioName, String webhookHost) {
        launchWith(scenarioName, webhookHost, dev.drainboard.admission.WebhookCallers.anyone());
    }

    /** As {@link #launchWith(String, String)}; {@code callers} is whom the webhook answers on those clusters. */
    public static void launchWith(String scenarioName, String webhookHost, dev.drainboard.admission.WebhookCallers callers) {
        launch(ConsoleOptions.defaults().withScenario(scenarioName).withWebhookHost(webhookHost).withWebhookCallers(callers)
                .withAutoConnect(new dev.drainboard.ui.connect.ConnectTarget.Embedded(scenarioName)));
    }

    /** Opens the window (blocking until it closes). */
    public static void launch(ConsoleOptions consoleOptions) {
        options = consoleOptions;
        Application.launch(ConsoleApplication.class);
    }

    @Override
    public void start(Stage stage) {
        stage.getIcons().setAll(AppIcon.images());
        console = new Console(options);
        console.show(stage);
        StartupReport.watch(console.scene(), console);
    }

    @Override
    public void stop() {
        if (console != null) {
            console.close();
        }
        Platform.exit();
    }
}
