package dev.drainboard.ui.events;

import dev.drainboard.ui.model.BatchList;
import dev.drainboard.ui.model.EventRow;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The Events screen as a maintenance log: ages that tick, the local time beside them, whole messages on hover. */
@ExtendWith(ApplicationExtension.class)
class EventsViewTest {

    private static final Instant T0 = Instant.parse("2026-11-28T09:00:00Z");
    private static final ZoneId ZONE = ZoneId.of("Europe/Berlin");
    private static final String LONG = "Evicting VMI demo/db-0 from node03: the launcher pod is refused by KubeVirt's "
            + "eviction webhook until its migration has handed over (migration kubevirt-evacuation-x7k2p, 63% transferred)";

    private final MovableClock clock = new MovableClock(T0.plusSeconds(5));
    private final BatchList<EventRow> rows = new BatchList<>();
    private EventsView view;

    @Start
    void start(Stage stage) {
        rows.addAll(List.of(new EventRow("demo", "e1", T0, "Warning", "EvictionBlocked", "VirtualMachineInstance/db-0",
                LONG, 12345, "drainboard-evacuation")));
        view = new EventsView(rows, clock);
        stage.setScene(new Scene(new StackPane(view.root()), 1280, 720));
        stage.show();
    }

    @Test
    void lastSeenTicksWithTheClockAndTheLocalTimeWithDateIsBesideIt() {
        assertThat(cellText("Last seen")).isEqualTo("5s");

        clock.advance(Duration.ofSeconds(60));
        fx(() -> {
            view.tick();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(cellText("Last seen")).isEqualTo("65s");

        clock.advance(Duration.ofMinutes(10));
        fx(() -> {
            view.tick();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(cellText("Last seen")).isEqualTo("11m");
        assertThat(cellText("Time")).isEqualTo("2026-11-28 10:00:00"); // Berlin is UTC+1 in November
        assertThat(fx(() -> cell("Last seen").getTooltip().getText())).isEqualTo("2026-11-28 10:00:00");
    }

    @Test
    void aLongMessageIsWholeOnHoverAndTheCountIsNotClipped() {
        assertThat(fx(() -> cell("Message").getTooltip().getText())).isEqualTo(LONG);
        assertThat(cellText("Count")).isEqualTo("12345");
        assertThat(fx(() -> cell("Count").isTextTruncated())).isFalse();
        TableView<?> table = fx(() -> (TableView<?>) view.root().lookup("#eventsTable"));
        List<Labeled> headers = fx(() -> table.lookupAll(".column-header .label").stream()
                .filter(Labeled.class::isInstance).map(Labeled.class::cast).toList());
        assertThat(headers).extracting(h -> fx(h::getText)).contains("Count", "Last seen", "Time");
        assertThat(headers).allSatisfy(h -> assertThat(fx(h::isTextTruncated)).as(fx(h::getText)).isFalse());
    }

    // ---- helpers

    private static <T> T fx(java.util.concurrent.Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String cellText(String column) {
        return fx(() -> cell(column).getText());
    }

    private TableCell<?, ?> cell(String column) {
        TableView<?> table = (TableView<?>) view.root().lookup("#eventsTable");
        table.layout();
        for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
            if (n instanceof TableCell<?, ?> c && c.getTableColumn() != null
                    && column.equals(c.getTableColumn().getText()) && !c.isEmpty() && c.getIndex() == 0) {
                return c;
            }
        }
        throw new AssertionError("no cell in column " + column);
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant start) {
            now = start;
        }

        synchronized void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZONE;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public synchronized Instant instant() {
            return now;
        }
    }
}
