package dev.drainboard.ui.events;

import dev.drainboard.kubevirt.DrainboardEvents;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.EventRow;
import dev.drainboard.ui.model.Relations;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ObservableList;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static java.util.Map.entry;

/**
 * The cluster's events, newest first, live; Warnings stand out. Filter by text (object, reason…) and type. The
 * "Last seen" ages tick (once a second while the screen is shown); the absolute local time is beside them, as a
 * maintenance log needs it.
 */
public final class EventsView extends ListScreen<EventRow> {

    /** Local date and time, to the second: what an operator writes in a maintenance log. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final Clock clock;
    private final ObjectProperty<Instant> now;
    private final Timeline ticker = new Timeline(new KeyFrame(Duration.seconds(1), e -> tick()));

    public EventsView(ClusterModel model) {
        super(model, "eventsTable", model.events(), "events");
        this.clock = Clock.systemDefaultZone();
        this.now = new SimpleObjectProperty<>(clock.instant());
        build();
        // Ticks only while shown: a screen left behind by a disconnect is not kept alive by its timer.
        ticker.setCycleCount(Animation.INDEFINITE);
        root().sceneProperty().addListener((obs, was, scene) -> {
            if (scene == null) {
                ticker.stop();
            } else {
                tick();
                ticker.play();
            }
        });
    }

    /** Over given rows and a clock the test moves; ages change at {@link #tick()} only. */
    public EventsView(ObservableList<EventRow> rows, Clock clock) {
        super("eventsTable", rows, "events", ref -> CompletableFuture.completedFuture(""),
                new Relations(List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        this.clock = clock;
        this.now = new SimpleObjectProperty<>(clock.instant());
        build();
    }

    /** Reads the clock: every shown age follows. */
    public void tick() {
        now.set(clock.instant());
    }

    private void build() {
        var screen = screen();
        TableColumn<EventRow, EventRow> last = screen.rowColumn("Last seen", AgeCell::new,
                java.util.Comparator.comparing(EventRow::last), 90);
        last.setSortType(TableColumn.SortType.DESCENDING);
        TableColumn<EventRow, Long> time = screen.numberColumn("Time", r -> r.last().toEpochMilli(),
                ms -> absolute(Instant.ofEpochMilli(ms)), 160);
        time.setId("eventsTime");
        screen.badgeColumn("Type", EventRow::type, s -> "Warning".equals(s) ? Badge.Tone.DANGER : Badge.Tone.NEUTRAL, 95);
        screen.textColumn("Reason", EventRow::reason, 170);
        // Beside the reason, in view at 1280 wide (the table scrolls sideways past Message).
        screen.numberColumn("Count", r -> (long) r.count(), String::valueOf, 84).setId("eventsCount");
        screen.textColumn("Object", EventRow::object, 240);
        TableColumn<EventRow, String> message = screen.textColumn("Message", EventRow::message, 400);
        message.setCellFactory(c -> new MessageCell());
        screen.textColumn("Source", EventRow::source, 200);
        screen.table().getSortOrder().add(last);
        // A VM lost to a node-pressure eviction is worse than any other warning: it is the one row in red.
        screen.setRowStyle(r -> !r.warning() ? null
                : DrainboardEvents.LOST_TO_NODE_PRESSURE_REASON.equals(r.reason()) ? "row-danger" : "row-warning");
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("Type", r.type()), entry("Reason", r.reason()), entry("Object", r.object()),
                entry("Message", r.message()), entry("Count", String.valueOf(r.count())),
                entry("Last seen", absolute(r.last()) + " (" + Formats.age(java.time.Duration.between(r.last(), now.get())) + " ago)"),
                entry("Source", r.source())));

        ToggleButton warnings = new ToggleButton("Warnings");
        warnings.setId("eventsWarningsOnly");
        segments(0, new Segment<>(new ToggleButton("All"), r -> true), new Segment<>(warnings, EventRow::warning),
                new Segment<>(new ToggleButton("Normal"), r -> !r.warning()));
    }

    private String absolute(Instant t) {
        return TIME.format(t.atZone(clock.getZone()));
    }

    /** The age of the event's last occurrence, kept current by the view's clock; the local time on hover. */
    private final class AgeCell extends TableCell<EventRow, EventRow> {
        private final InvalidationListener onTick = o -> show();
        private final Tooltip tip = new Tooltip();

        AgeCell() {
            now.addListener(new WeakInvalidationListener(onTick));
            getStyleClass().add("event-age");
        }

        @Override
        protected void updateItem(EventRow item, boolean empty) {
            super.updateItem(item, empty);
            show();
        }

        private void show() {
            EventRow row = isEmpty() ? null : getItem();
            if (row == null) {
                setText(null);
                setTooltip(null);
                return;
            }
            setText(Formats.age(java.time.Duration.between(row.last(), now.get())));
            tip.setText(absolute(row.last()));
            setTooltip(tip);
        }
    }

    /** A message cut by the column shows whole on hover. */
    private static final class MessageCell extends TableCell<EventRow, String> {
        private final Tooltip tip = new Tooltip();

        MessageCell() {
            tip.setWrapText(true);
            tip.setMaxWidth(600);
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty ? null : item);
            if (empty || item == null || item.isEmpty()) {
                setTooltip(null);
            } else {
                tip.setText(item);
                setTooltip(tip);
            }
        }
    }
}
