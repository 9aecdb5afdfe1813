package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/**
 * Events of core/v1 and events.k8s.io/v1: LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE
 * FIRST SEEN COUNT NAME. kube-apiserver prints both through the core type, so events.k8s.io fields are
 * first mapped onto their core/v1 counterparts. Unlike other resources the name column comes last.
 */
final class EventPrinter {

    private static final List<ColumnDefinition> COLUMNS = List.of(
            column("Last Seen", "string", "Time since the event was last observed."),
            column("Type", "string", "The event type (Normal or Warning)."),
            column("Reason", "string", "A short machine-readable reason for the event."),
            column("Object", "string", "The object the event is about, as kind/name."),
            wideColumn("Subobject", "string", "The field path within the object, e.g. a container."),
            wideColumn("Source", "string", "The component (and host) that reported the event."),
            column("Message", "string", "The human-readable event message."),
            wideColumn("First Seen", "string", "Time since the event was first observed."),
            wideColumn("Count", "string", "How many times the event has occurred."),
            new ColumnDefinition("Name", "string", "name", "The event object's name.", 1));

    private EventPrinter() {
    }

    static ResourcePrinter coreEvents() {
        return new SimplePrinter(COLUMNS, (event, now) -> cells(EventFields.fromCoreV1(event), now));
    }

    static ResourcePrinter eventsApiEvents() {
        return new SimplePrinter(COLUMNS, (event, now) -> cells(EventFields.fromEventsV1(event), now));
    }

    private static Cells cells(EventFields event, Instant now) {
        String firstSeen = Ages.instant(event.firstTimestamp()).isPresent()
                ? Ages.since(event.firstTimestamp(), now)
                : Ages.since(event.eventTime(), now);
        String lastSeen = Ages.instant(event.lastTimestamp()).isPresent() ? Ages.since(event.lastTimestamp(), now) : firstSeen;
        long count = event.count() == 0 ? 1 : event.count(); // singleton events of the new API carry no count
        if (!event.series().isMissingNode()) {
            lastSeen = Ages.since(Fields.at(event.series(), "lastObservedTime"), now);
            count = Fields.integer(event.series(), "count");
        }
        return new Cells()
                .text(lastSeen)
                .text(event.type())
                .text(event.reason())
                .text(target(event.regarding()))
                .text(Fields.text(event.regarding(), "fieldPath"))
                .text(source(event))
                .text(event.message().strip())
                .text(firstSeen)
                .integer(count)
                .text(event.name());
    }

    private static String target(JsonNode regarding) {
        String kind = Fields.text(regarding, "kind").toLowerCase(Locale.ROOT);
        String name = Fields.text(regarding, "name");
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    /** "component, host", falling back to the reporting controller and instance when the legacy source is empty. */
    private static String source(EventFields event) {
        String component = Fields.textOr(event.reportingController(), event.source(), "component");
        String host = Fields.textOr(event.reportingInstance(), event.source(), "host");
        return host.isEmpty() ? component : component + ", " + host;
    }

    /** The fields the event printer reads, located in either event API version. */
    private record EventFields(String name, String type, String reason, JsonNode regarding, String message, JsonNode source,
                               String reportingController, String reportingInstance, JsonNode firstTimestamp,
                               JsonNode lastTimestamp, JsonNode eventTime, long count, JsonNode series) {

        static EventFields fromCoreV1(JsonNode event) {
            return new EventFields(Fields.text(event, "metadata", "name"), Fields.text(event, "type"),
                    Fields.text(event, "reason"), Fields.at(event, "involvedObject"), Fields.text(event, "message"),
                    Fields.at(event, "source"), Fields.text(event, "reportingComponent"),
                    Fields.text(event, "reportingInstance"), Fields.at(event, "firstTimestamp"),
                    Fields.at(event, "lastTimestamp"), Fields.at(event, "eventTime"), Fields.integer(event, "count"),
                    Fields.at(event, "series"));
        }

        static EventFields fromEventsV1(JsonNode event) {
            return new EventFields(Fields.text(event, "metadata", "name"), Fields.text(event, "type"),
                    Fields.text(event, "reason"), Fields.at(event, "regarding"), Fields.text(event, "note"),
                    Fields.at(event, "deprecatedSource"), Fields.text(event, "reportingController"),
                    Fields.text(event, "reportingInstance"), Fields.at(event, "deprecatedFirstTimestamp"),
                    Fields.at(event, "deprecatedLastTimestamp"), Fields.at(event, "eventTime"),
                    Fields.integer(event, "deprecatedCount"), Fields.at(event, "series"));
        }
    }
}
