package dev.drainboard.ui.common;

import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.util.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Toasts go away by themselves, failures too (after longer), and stay in the history. */
@ExtendWith(ApplicationExtension.class)
class NotifierTest {

    private final Notifier notifier = new Notifier(Duration.millis(300), Duration.millis(900));

    @Start
    void start(Stage stage) {
        stage.setScene(new Scene(new StackPane(notifier.layer()), 800, 600));
        stage.show();
    }

    @Test
    void failuresAndWarningsGoAwayByThemselvesAfterSuccessesDo() {
        fx(() -> {
            notifier.show(Badge.Tone.SUCCESS, "Cordoned node01", "node/node01 cordoned");
            notifier.show(Badge.Tone.DANGER, "Cannot cordon node02", "nodes \"node02\" not found");
            notifier.show(Badge.Tone.WARNING, "Not done", "Observe mode: this console changes nothing");
            return null;
        });
        assertThat(shown()).isEqualTo(3);

        await().until(() -> shown() == 2); // the success first
        await().until(() -> shown() == 0);
        assertThat(fx(() -> notifier.history().stream().map(Notifier.Toast::title).toList()))
                .containsExactly("Cordoned node01", "Cannot cordon node02", "Not done");
    }

    private int shown() {
        return fx(() -> ((Parent) notifier.layer()).lookup("#toasts") instanceof Parent p ? p.getChildrenUnmodifiable().size() : -1);
    }

    private static <T> T fx(Callable<T> read) {
        try {
            T value = WaitForAsyncUtils.asyncFx(read).get();
            WaitForAsyncUtils.waitForFxEvents();
            return value;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
