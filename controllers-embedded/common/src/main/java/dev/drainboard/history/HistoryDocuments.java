package dev.drainboard.history;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Drain records as documents: JSON (as {@code kubectl get drainrecords -o json} prints them, so either can feed the
 * same tooling), Markdown for a change record, and the table the CLI lists. Times in UTC.
 */
@Pure
public final class HistoryDocuments {

    private static final ObjectMapper JSON = new ObjectMapper()
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private HistoryDocuments() {
    }

    /** One record as its API object. */
    public static String json(DrainRecord record) {
        return write(JSON.valueToTree(record));
    }

    /** Several records as kubectl prints a list ({@code kind: List}), in the order given. */
    public static String json(List<DrainRecord> records) {
        return jsonList(records.stream().map(r -> (JsonNode) JSON.valueToTree(r)).toList());
    }

    /** Several records already written by {@link #json(DrainRecord)}, as one list (the console's "export all"). */
    public static String jsonOfDocuments(List<String> documents) {
        List<JsonNode> items = new ArrayList<>();
        for (String document : documents) {
            try {
                items.add(JSON.readTree(document));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("not a drain record's JSON", e);
            }
        }
        return jsonList(items);
    }

    private static String jsonList(List<JsonNode> records) {
        ObjectNode list = JSON.createObjectNode();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        ArrayNode items = list.putArray("items");
        records.forEach(items::add);
        list.putObject("metadata").put("resourceVersion", "");
        return write(list);
    }

    private static String write(Object tree) {
        try {
            return JSON.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a drain record that cannot be written as JSON", e);
        }
    }

    /** Several records, one section each, in the order given. */
    public static String markdown(List<DrainRecord> records) {
        return markdownOfDocuments(records.stream().map(HistoryDocuments::markdown).toList());
    }

    /** Several records already written by {@link #markdown(DrainRecord)}, as one document, headings one level down. */
    public static String markdownOfDocuments(List<String> documents) {
        StringBuilder md = new StringBuilder("# Drain history\n\n");
        if (documents.isEmpty()) {
            return md.append("No drains recorded.\n").toString();
        }
        for (String document : documents) {
            md.append(document.replaceAll("(?m)^#", "##")).append('\n');
        }
        return md.toString();
    }

    /** One record as a change-record document: title, times, nodes, result, pods, migrations, what was left behind. */
    public static String markdown(DrainRecord record) {
        DrainRecordSpec spec = spec(record);
        DrainRecordStatus status = status(record);
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title(record)).append("\n\n");
        md.append("| | |\n|---|---|\n");
        row(md, "Record", record.name());
        row(md, "Kind", spec.kind() == null ? "" : spec.kind().name());
        row(md, "Nodes", String.join(", ", spec.nodes()));
        row(md, "Started by", nz(spec.startedBy()));
        row(md, "Started", when(status.startedAt()));
        row(md, "Ended", status.endedAt() == null ? "(running)" : when(status.endedAt()));
        row(md, "Duration", status.durationSeconds() == null ? "" : duration(status.durationSeconds()));
        row(md, "Estimate", spec.estimateSeconds() == null ? "none" : duration(spec.estimateSeconds()));
        row(md, "Result", result(status));
        md.append('\n');
        if (status.message() != null && !status.message().isBlank()) {
            md.append("> ").append(status.message().replace("\n", "\n> ")).append("\n\n");
        }
        md.append("## Pods\n\n");
        if (status.pods().isEmpty()) {
            md.append("None.\n\n");
        } else {
            md.append("| Pod | Node | VMI | Expected | End state | Attempts | Last answer |\n|---|---|---|---|---|---|---|\n");
            for (DrainRecordStatus.PodEntry p : status.pods()) {
                md.append(cells(p.namespace() + "/" + p.name(), p.node(), p.vmi(), p.outcome(), p.state(),
                        p.attempts() == null ? "" : p.attempts().toString(), p.message()));
            }
            md.append('\n');
        }
        md.append("## Migrations\n\n");
        if (status.migrations().isEmpty()) {
            md.append("None.\n\n");
        } else {
            md.append("| Migration | VMI | Source → target | Phase | Started | Ended | Data | Reason |\n|---|---|---|---|---|---|---|---|\n");
            for (DrainRecordStatus.MigrationEntry m : status.migrations()) {
                md.append(cells(m.namespace() + "/" + m.name(), m.vmi(), nz(m.sourceNode()) + " → " + nz(m.targetNode()),
                        m.phase(), when(m.startedAt()), when(m.endedAt()), m.bytes() == null ? "" : bytes(m.bytes()),
                        m.reason()));
            }
            md.append('\n');
        }
        md.append("## Left behind\n\n");
        if (status.stranded().isEmpty()) {
            md.append("Nothing was left with nowhere to run.\n");
        } else {
            for (DrainRecordStatus.StrandedEntry s : status.stranded()) {
                md.append("- ").append(s.kind()).append(' ').append(s.namespace()).append('/').append(s.name())
                        .append(": ").append(oneLine(s.reason())).append('\n');
            }
        }
        if (status.omitted() != null && status.omitted() > 0) {
            md.append("\n").append(status.omitted()).append(" more entries were left out to keep the record small.\n");
        }
        return md.toString();
    }

    /** "Drain of node03: Stranded", "Cancelled migration of demo/cache", "Evacuation of node02: Running". */
    public static String title(DrainRecord record) {
        DrainRecordSpec spec = spec(record);
        String nodes = String.join(", ", spec.nodes());
        String result = result(status(record));
        if (spec.kind() == RecordKind.MigrationCancel) {
            List<DrainRecordStatus.MigrationEntry> m = status(record).migrations();
            return "Cancelled migration" + (m.isEmpty() ? "" : " of " + m.getFirst().namespace() + "/" + m.getFirst().vmi())
                    + (nodes.isEmpty() ? "" : " from " + nodes);
        }
        String what = spec.kind() == RecordKind.Evacuation ? "Evacuation" : "Drain";
        return what + " of " + nodes + ": " + result;
    }

    /** The CLI's listing: one line per record, in the order given. */
    public static String table(List<DrainRecord> records) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"NAME", "KIND", "NODES", "RESULT", "STARTED", "DURATION", "ESTIMATE", "BY"});
        for (DrainRecord r : records) {
            DrainRecordSpec spec = spec(r);
            DrainRecordStatus status = status(r);
            rows.add(new String[]{r.name(), spec.kind() == null ? "" : spec.kind().name(), String.join(",", spec.nodes()),
                    result(status), when(status.startedAt()),
                    status.durationSeconds() == null ? "" : duration(status.durationSeconds()),
                    spec.estimateSeconds() == null ? "-" : duration(spec.estimateSeconds()), nz(spec.startedBy())});
        }
        int[] widths = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format(Locale.ROOT, "%-" + (widths[i] + 3) + "s", row[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** "45 s", "2 min 5 s", "1 h 3 min": whole seconds, rounded up. */
    public static String duration(double seconds) {
        long s = (long) Math.ceil(Math.max(0, seconds));
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        return s / 3600 + " h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + " min");
    }

    /** The result word, "Running" for a record without status. */
    public static String result(DrainRecordStatus status) {
        return status.result() == null ? RecordResult.Running.name() : status.result().name();
    }

    /** "2026-11-28 13:34:12 UTC"; empty for none; the text itself when it is not a time. */
    public static String when(String rfc3339) {
        if (rfc3339 == null || rfc3339.isBlank()) {
            return "";
        }
        Instant t = HistoryTimes.parse(rfc3339);
        return t.equals(Instant.EPOCH) ? rfc3339 : WHEN.format(t);
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static DrainRecordSpec spec(DrainRecord r) {
        return r.getSpec() != null ? r.getSpec() : new DrainRecordSpec(null, List.of(), null, null);
    }

    private static DrainRecordStatus status(DrainRecord r) {
        return r.getStatus() != null ? r.getStatus()
                : new DrainRecordStatus(null, null, null, null, null, null, null, null, null);
    }

    private static void row(StringBuilder md, String key, String value) {
        md.append("| ").append(key).append(" | ").append(cell(value)).append(" |\n");
    }

    private static String cells(String... values) {
        StringBuilder line = new StringBuilder("|");
        for (String v : values) {
            line.append(' ').append(cell(v)).append(" |");
        }
        return line.append('\n').toString();
    }

    /** A table cell: one line, pipes escaped (GitHub-flavoured Markdown). */
    private static String cell(String v) {
        return v == null ? "" : oneLine(v).replace("|", "\\|");
    }

    private static String oneLine(String v) {
        return v == null ? "" : v.replace("\r", "").replace('\n', ' ');
    }

    private static String nz(String v) {
        return v == null ? "" : v;
    }
}
