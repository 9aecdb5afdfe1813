package dev.drainboard.ui.start;

import dev.drainboard.ui.common.Scrolling;
import dev.drainboard.ui.common.StepSpinner;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector;
import dev.drainboard.ui.connect.ModeChoice;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * While connecting, the start screen's spinner animates inside a scroll pane. JavaFX's ScrollPaneSkin caches its
 * viewport as a bitmap, so every frame of the spinner re-rendered the whole screen into that cache (at start-up the
 * render thread then used as much CPU as starting the embedded cluster). The start screen's viewport is uncached:
 * a frame redraws the spinner only.
 */
@ExtendWith(ApplicationExtension.class)
class StartScreenRepaintTest {

    private StartScreen screen;
    private ScrollPane plain;
    private ScrollPane uncached;

    @Start
    void start(Stage stage) {
        screen = new StartScreen(new StartScreenModel.Actions() {
            @Override
            public void connect(ConnectTarget target, ModeChoice mode, Connector.MissingCrds missingCrds) {
            }

            @Override
            public void addKubeconfig(Path file) {
            }

            @Override
            public void toggleTheme() {
            }
        }, "demo");
        plain = new ScrollPane(new Label("plain"));
        uncached = Scrolling.uncachedViewport(new ScrollPane(new Label("uncached")));
        stage.setScene(new Scene(new HBox((Parent) screen.root(), plain, uncached), 1600, 900));
        stage.show();
    }

    @Test
    void theSpinnersScrollViewportIsNotCachedWhileConnecting() {
        fx(() -> {
            screen.showProgress("Starting the embedded cluster (built-in demo scenario)…");
            return null;
        });
        assertThat(fx(() -> spinner().isVisible() && ((Parent) screen.root()).lookup(".progress-box").isVisible())).isTrue();
        assertThat(fx(() -> viewport((Parent) screen.root()).isCache())).isFalse();
    }

    @Test
    void theSpinnerTurnsInStepsWhileConnectingAndStopsAfter() {
        fx(() -> {
            screen.showProgress("Contacting https://127.0.0.1:6443…");
            return null;
        });
        assertThat(fx(() -> spinner().isTurning())).isTrue();
        double first = fx(() -> spinner().angle());
        await().atMost(Duration.ofSeconds(10)).until(() -> fx(() -> spinner().angle()) != first);
        // Whole steps only: the scene changes ten times a second, not at every pulse.
        for (int i = 0; i < 5; i++) {
            assertThat(fx(() -> spinner().angle()) % 36).isZero();
        }

        fx(() -> {
            screen.hideProgress();
            return null;
        });
        assertThat(fx(() -> spinner().isTurning())).isFalse();
        assertThat(fx(() -> ((Parent) screen.root()).lookup(".progress-box").isVisible())).isFalse();
    }

    private StepSpinner spinner() {
        return (StepSpinner) ((Parent) screen.root()).lookup("#connectSpinner");
    }

    @Test
    void uncachedViewportUndoesWhatTheSkinSets() {
        // JavaFX's default, which the start screen must not keep.
        assertThat(fx(() -> viewport(plain).isCache())).isTrue();
        assertThat(fx(() -> viewport(uncached).isCache())).isFalse();
        // A new skin (a theme change recreates none today, but a setSkin would) is uncached again.
        fx(() -> {
            uncached.setSkin(new javafx.scene.control.skin.ScrollPaneSkin(uncached));
            return null;
        });
        assertThat(fx(() -> viewport(uncached).isCache())).isFalse();
    }

    private static Node viewport(Parent parent) {
        Node viewport = parent.lookup(".viewport");
        assertThat(viewport).as("a scroll pane's viewport").isNotNull();
        return viewport;
    }

    private static <T> T fx(Callable<T> read) {
        try {
            WaitForAsyncUtils.waitForFxEvents();
            T value = WaitForAsyncUtils.asyncFx(read).get();
            WaitForAsyncUtils.waitForFxEvents();
            return value;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
