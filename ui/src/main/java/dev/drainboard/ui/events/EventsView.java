package dev.drainboard.ui.events;

import dev.drainboard.kubevirt.DrainboardEvents;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.lists.ListScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.EventRow;
import javafx.scene.control.TableColumn;
import javafx.scene.control.ToggleButton;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/** The cluster's events, newest first, live; Warnings stand out. Filter by text (object, reason…) and type. */
public final class EventsView extends ListScreen<EventRow> {

    public EventsView(ClusterModel model) {
        super(model, "eventsTable", model.events(), "events");
        var screen = screen();
        TableColumn<EventRow, Long> last = screen.numberColumn("Last seen", r -> r.last().toEpochMilli(),
                ms -> Formats.age(java.time.Duration.between(Instant.ofEpochMilli(ms), Instant.now())), 90);
        last.setSortType(TableColumn.SortType.DESCENDING);
        screen.badgeColumn("Type", EventRow::type, s -> "Warning".equals(s) ? Badge.Tone.DANGER : Badge.Tone.NEUTRAL, 95);
        screen.textColumn("Reason", EventRow::reason, 170);
        screen.textColumn("Object", EventRow::object, 260);
        screen.textColumn("Message", EventRow::message, 440);
        screen.numberColumn("Count", r -> (long) r.count(), String::valueOf, 70);
        screen.textColumn("Source", EventRow::source, 220);
        screen.table().getSortOrder().add(last);
        // A VM lost to a node-pressure eviction is worse than any other warning: it is the one row in red.
        screen.setRowStyle(r -> !r.warning() ? null
                : DrainboardEvents.LOST_TO_NODE_PRESSURE_REASON.equals(r.reason()) ? "row-danger" : "row-warning");
        screen.setFacts(r -> List.<Map.Entry<String, String>>of(
                entry("Type", r.type()), entry("Reason", r.reason()), entry("Object", r.object()),
                entry("Message", r.message()), entry("Count", String.valueOf(r.count())),
                entry("Last seen", r.last().toString()), entry("Source", r.source())));

        ToggleButton warnings = new ToggleButton("Warnings");
        warnings.setId("eventsWarningsOnly");
        segments(0, new Segment<>(new ToggleButton("All"), r -> true), new Segment<>(warnings, EventRow::warning),
                new Segment<>(new ToggleButton("Normal"), r -> !r.warning()));
    }
}
