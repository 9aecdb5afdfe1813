package dev.drainboard.ui.events;

import atlantafx.base.theme.Styles;
import dev.drainboard.kubevirt.DrainboardEvents;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.model.ClusterModel;
import dev.drainboard.ui.model.EventRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ConsoleView;
import javafx.scene.Node;
import javafx.scene.control.TableColumn;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;

/** The cluster's events, newest first, live; Warnings stand out. Filter by text (object, reason…) and type. */
public final class EventsView implements ConsoleView {

    private final TableScreen<EventRow> screen;

    public EventsView(ClusterModel model) {
        screen = new TableScreen<>("eventsTable", model.events(), "events", model::yaml);
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

        ToggleGroup types = new ToggleGroup();
        ToggleButton all = segment("All", types, Styles.LEFT_PILL);
        ToggleButton warnings = segment("Warnings", types, Styles.CENTER_PILL);
        ToggleButton normal = segment("Normal", types, Styles.RIGHT_PILL);
        warnings.setId("eventsWarningsOnly");
        all.setSelected(true);
        types.selectedToggleProperty().addListener((obs, old, now) -> {
            if (now == null) {
                old.setSelected(true);
                return;
            }
            screen.extraFilterProperty().set(now == warnings ? EventRow::warning
                    : now == normal ? r -> !r.warning() : r -> true);
        });
        screen.toolbar().getChildren().add(1, new HBox(all, warnings, normal));
    }

    private static ToggleButton segment(String text, ToggleGroup group, String style) {
        ToggleButton b = new ToggleButton(text);
        b.getStyleClass().add(style);
        b.setToggleGroup(group);
        return b;
    }

    @Override
    public Node root() {
        return screen.root();
    }

    @Override
    public boolean reveal(ObjectRef ref) {
        return screen.reveal(ref);
    }

    @Override
    public void focusFilter() {
        screen.filterField().requestFocus();
    }
}
