package dev.drainboard.ui.shell;

import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Mode;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ConnectionState;
import dev.drainboard.ui.model.Leadership;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/** "Reconnecting" in the status bar says why: which watch is down and what the API server or the network answered. */
@ExtendWith(ApplicationExtension.class)
class StatusBarTest {

    private final SimpleObjectProperty<ConnectionState> state = new SimpleObjectProperty<>(ConnectionState.LIVE);
    private final SimpleStringProperty reason = new SimpleStringProperty("");
    private StatusBar bar;

    @Start
    void start(Stage stage) {
        Session.Info info = new Session.Info("embedded", "drainboard", "https://127.0.0.1:6443", "v1.32.0", true, true,
                Mode.CONTROL, "", new ConnectTarget.Embedded("demo"), WebhookAddress.LOOPBACK);
        bar = new StatusBar(info, state, reason, new SimpleObjectProperty<>(Leadership.OBSERVING));
        stage.setScene(new Scene(bar, 1280, 40));
        stage.show();
    }

    @Test
    void reconnectingNamesTheWatchThatIsDownAndItsCause() {
        assertThat(text()).isEqualTo("Live");

        fx(() -> {
            reason.set("watch of Pod down (Pod: Connection refused)");
            state.set(ConnectionState.RECONNECTING);
            return null;
        });
        assertThat(text()).isEqualTo("Reconnecting: watch of Pod down (Pod: Connection refused)");
        assertThat(fx(() -> ((Label) bar.lookup("#connectionState")).getTooltip().getText()))
                .startsWith("Reconnecting: watch of Pod down (Pod: Connection refused). Retrying with back-off");

        fx(() -> {
            state.set(ConnectionState.LIVE);
            reason.set("");
            return null;
        });
        assertThat(text()).isEqualTo("Live");
    }

    @Test
    void theReasonIsWordedFromTheWatchesDownAndTheLastError() {
        assertThat(dev.drainboard.ui.model.ClusterModelReasons.reason(java.util.List.of("Pod"), "Pod: Connection refused"))
                .isEqualTo("watch of Pod down (Pod: Connection refused)");
        assertThat(dev.drainboard.ui.model.ClusterModelReasons.reason(java.util.List.of("Pod", "Node"), ""))
                .isEqualTo("watches of Pod, Node down");
        assertThat(dev.drainboard.ui.model.ClusterModelReasons.reason(java.util.List.of(), "")).isEqualTo("a watch dropped");
    }

    private String text() {
        return fx(() -> ((Label) bar.lookup("#connectionState")).getText());
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
