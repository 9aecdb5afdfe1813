package dev.drainboard.ui.dialogs;

import dev.drainboard.ui.actions.ActionResult;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A dialog's write: one at a time, a refusal shown word for word with the dialog left open, a success passed on. */
class DialogWriteTest {

    private final AtomicInteger refreshes = new AtomicInteger();
    private final List<ActionResult> done = new ArrayList<>();
    private Label serverError;
    private DialogWrite writes;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage(); // a Label needs the JavaFX toolkit
    }

    @BeforeEach
    void dialog() {
        serverError = new Label();
        writes = new DialogWrite(serverError, refreshes::incrementAndGet, done::add);
    }

    @Test
    void aRefusalIsShownAndTheDialogStaysOpen() {
        CompletableFuture<ActionResult> answer = new CompletableFuture<>();
        writes.start(() -> answer);
        assertThat(writes.busy()).isTrue();
        assertThat(serverError.isVisible()).isFalse();

        answer.complete(new ActionResult(ActionResult.Outcome.FAILED, "Scale", "replicasets.apps \"web\" is forbidden"));

        assertThat(writes.busy()).isFalse();
        assertThat(serverError.isVisible()).isTrue();
        assertThat(serverError.isManaged()).isTrue();
        assertThat(serverError.getText()).isEqualTo("replicasets.apps \"web\" is forbidden");
        assertThat(done).isEmpty();
        assertThat(refreshes.get()).isEqualTo(2); // busy, then not busy
    }

    @Test
    void aSecondWriteWhileOneIsUnderWayIsNotStarted() {
        CompletableFuture<ActionResult> answer = new CompletableFuture<>();
        AtomicInteger started = new AtomicInteger();
        writes.start(() -> {
            started.incrementAndGet();
            return answer;
        });
        writes.start(() -> {
            started.incrementAndGet();
            return answer;
        });
        assertThat(started.get()).isEqualTo(1);

        answer.complete(new ActionResult(ActionResult.Outcome.DONE, "Scale", "replicaset.apps/web scaled"));

        assertThat(done).extracting(ActionResult::message).containsExactly("replicaset.apps/web scaled");
        assertThat(writes.busy()).isFalse();
    }

    @Test
    void anEarlierRefusalIsClearedWhenTheNextWriteStarts() {
        writes.start(() -> CompletableFuture.completedFuture(new ActionResult(ActionResult.Outcome.FAILED, "Taint", "refused")));
        assertThat(serverError.isVisible()).isTrue();

        writes.start(CompletableFuture::new);

        assertThat(serverError.isVisible()).isFalse();
        assertThat(serverError.getText()).isEmpty();
    }
}
