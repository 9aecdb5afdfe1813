package dev.drainboard.ui.migrations;

import dev.drainboard.ui.common.RevealRequest;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.ObjectRef;
import javafx.application.Platform;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.drainboard.ui.migrations.Rows.T0;
import static dev.drainboard.ui.migrations.Rows.migration;
import static org.assertj.core.api.Assertions.assertThat;

/** The timeline as a component: redraws once per burst of changes, and a click on a bar asks for its migration. */
@ExtendWith(ApplicationExtension.class)
class MigrationTimelineTest {

    private final ObservableList<MigrationRow> rows = FXCollections.observableArrayList();
    private final SimpleObjectProperty<Instant> clock = new SimpleObjectProperty<>(T0.plusSeconds(600));
    private final List<ObjectRef> revealed = new ArrayList<>();
    private final AtomicLong pulses = new AtomicLong();
    private MigrationTimeline timeline;

    @Start
    void start(Stage stage) {
        timeline = new MigrationTimeline(rows, clock, r -> "");
        timeline.windowMinutesProperty().set(5);
        StackPane root = new StackPane(timeline);
        root.addEventHandler(RevealRequest.REVEAL, e -> revealed.add(e.ref()));
        stage.setScene(new Scene(root, 900, 240));
        stage.getScene().addPostLayoutPulseListener(pulses::incrementAndGet);
        stage.show();
    }

    @Test
    void aBurstOfRowChangesCostsOneRedraw() {
        settle();
        long before = fx(timeline::redraws);

        // 200 changes arrive as separate FX events before the next pulse, as the model's batches would.
        fx(() -> {
            for (int i = 0; i < 200; i++) {
                rows.add(migration("m" + i, "vm" + i, "Running", "node" + (i % 5), 400 + i, null));
            }
            return null;
        });
        settle();
        long afterBurst = fx(timeline::redraws);
        // Nothing changes: no redraw, however many pulses pass.
        settle();

        assertThat(afterBurst - before).isBetween(1L, 2L); // one, plus at most one for the scroll bar appearing
        assertThat(fx(timeline::redraws)).isEqualTo(afterBurst);

        // The clock advancing redraws (bars grow towards the new now).
        fx(() -> {
            clock.set(clock.get().plusSeconds(1));
            return null;
        });
        settle();
        assertThat(fx(timeline::redraws)).isEqualTo(afterBurst + 1);
    }

    /**
     * Waits until three more pulses have run with no layout pending: the redraw for a change and the layout pass the
     * scroll bar's appearing asks for both happen on pulses, which a busy machine may run later than queued FX events.
     */
    private void settle() {
        long target = pulses.get() + 3;
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> fx(() -> {
            Platform.requestNextPulse();
            return pulses.get() >= target && !timeline.isNeedsLayout() && !timeline.getScene().getRoot().isNeedsLayout();
        }));
    }

    @Test
    void clickingABarAsksToRevealItsMigration(FxRobot robot) {
        fx(() -> {
            rows.setAll(migration("evac-1", "database", "Running", "node01", 300, null),
                    migration("evac-2", "cache", "Succeeded", "node02", 310, 500));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents(3);

        // node01's bar runs from 5 min ago to now: its middle is in the middle of the plot, on the first lane.
        Point2D onBar = fx(() -> timeline.localToScreen(150 + (timeline.getWidth() - 150 - 16) * 0.5, 26 + 20));
        robot.clickOn(onBar);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(revealed).containsExactly(new ObjectRef(ObjectRef.Kind.VMIM, "demo", "evac-1"));
    }

    private static <T> T fx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
