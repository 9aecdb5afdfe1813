package dev.drainboard.ui.history;

import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.ui.model.HistoryRow;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What the History view shows and does: the records (newest first, refreshed in place so a selection survives),
 * why there are none when the cluster keeps no history, the details of one record, and its exports. Call it on the
 * FX thread; {@code loader} completes there.
 */
public final class HistoryViewModel {

    /** What an export writes. */
    public enum Format {
        JSON("json"), MARKDOWN("md");

        private final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        public String extension() {
            return extension;
        }
    }

    private final Supplier<CompletableFuture<List<HistoryRow>>> loader;
    private final ObservableList<HistoryRow> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();

    public HistoryViewModel(Supplier<CompletableFuture<List<HistoryRow>>> loader) {
        this.loader = Objects.requireNonNull(loader);
    }

    public ObservableList<HistoryRow> rows() {
        return rows;
    }

    /** Why the list is empty or stale (history not kept, cannot be read); empty when all is well. */
    public ReadOnlyStringProperty notice() {
        return notice.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loading() {
        return loading.getReadOnlyProperty();
    }

    /** Reads the records again; a refresh while one is under way is skipped. Completes when applied. */
    public CompletableFuture<Void> refresh() {
        if (loading.get()) {
            return CompletableFuture.completedFuture(null);
        }
        loading.set(true);
        return loader.get().handle((fresh, error) -> {
            loading.set(false);
            if (error != null) {
                notice.set(rootMessage(error));
            } else {
                notice.set("");
                apply(fresh);
            }
            return null;
        });
    }

    /** Replaces changed rows in place, adds new ones, drops the deleted: newest first, as given. */
    void apply(List<HistoryRow> fresh) {
        Map<String, HistoryRow> byName = new HashMap<>();
        fresh.forEach(r -> byName.put(r.name(), r));
        rows.removeIf(r -> !byName.containsKey(r.name()));
        for (int i = 0; i < fresh.size(); i++) {
            HistoryRow row = fresh.get(i);
            int at = indexOf(row.name());
            if (at < 0) {
                rows.add(Math.min(i, rows.size()), row);
            } else if (!rows.get(at).equals(row)) {
                rows.set(at, row);
            }
        }
    }

    private int indexOf(String name) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** One record as a document. */
    public static String export(HistoryRow row, Format format) {
        return format == Format.JSON ? row.json() : row.markdown();
    }

    /** Every record listed, newest first, as one document. */
    public String exportAll(Format format) {
        List<String> documents = rows.stream().map(r -> export(r, format)).toList();
        return format == Format.JSON ? HistoryDocuments.jsonOfDocuments(documents) : HistoryDocuments.markdownOfDocuments(documents);
    }

    /** The file name an export suggests: the record's name, or {@code drain-history} for all. */
    public static String fileName(HistoryRow row, Format format) {
        return (row == null ? "drain-history" : row.name()) + "." + format.extension();
    }

    /** Writes an export; the file is replaced whole or not at all. */
    public static void write(Path file, String document) throws IOException {
        Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), ".drain-history-", ".tmp");
        try {
            Files.writeString(temp, document, StandardCharsets.UTF_8);
            Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** "1 min 20 s expected, 1 min 32 s taken (+15 %)"; what is known of the two. */
    public static String estimateVsActual(HistoryRow row) {
        String estimate = row.estimateSeconds() == null ? null : HistoryDocuments.duration(row.estimateSeconds());
        String actual = row.durationSeconds() == null ? null : HistoryDocuments.duration(row.durationSeconds());
        if (estimate == null) {
            return actual == null ? "—" : actual + " taken, no estimate";
        }
        if (actual == null) {
            return estimate + " expected";
        }
        if (row.running()) {
            return estimate + " expected, " + actual + " so far";
        }
        // Against the estimate only when the drain ran to its end: a refused or cancelled one did not do the work.
        boolean ranToTheEnd = List.of("Drained", "Stranded").contains(row.result());
        String deviation = row.estimateSeconds() <= 0 || !ranToTheEnd ? "" : String.format(Locale.ROOT, " (%+d %%)",
                Math.round((row.durationSeconds() - row.estimateSeconds()) * 100 / row.estimateSeconds()));
        return estimate + " expected, " + actual + " taken" + deviation;
    }

    /** The facts of one record, for the details pane. */
    public static List<Map.Entry<String, String>> facts(HistoryRow r) {
        List<Map.Entry<String, String>> facts = new ArrayList<>();
        facts.add(entry("Kind", r.kind()));
        facts.add(entry("Nodes", String.join(", ", r.nodes())));
        facts.add(entry("Result", r.result()));
        facts.add(entry("Started", HistoryDocuments.when(r.started().toString())));
        facts.add(entry("Duration", estimateVsActual(r)));
        facts.add(entry("Started by", r.startedBy()));
        if (!r.message().isEmpty()) {
            facts.add(entry("Message", r.message()));
        }
        long gone = r.pods().stream().filter(p -> "GONE".equals(p.state()) || "MOVED".equals(p.state())).count();
        facts.add(entry("Pods", r.pods().isEmpty() ? "none" : gone + " of " + r.pods().size() + " gone"));
        long cancelled = r.migrations().stream().filter(m -> m.cancelled()).count();
        long failed = r.migrations().stream().filter(m -> m.failed()).count();
        facts.add(entry("Migrations", r.migrations().size() + (cancelled + failed == 0 ? ""
                : " (" + (cancelled > 0 ? cancelled + " cancelled" : "") + (cancelled > 0 && failed > 0 ? ", " : "")
                + (failed > 0 ? failed + " failed" : "") + ")")));
        for (var m : r.migrations()) {
            facts.add(entry("  " + m.vmi(), m.phase() + ", " + orDash(m.sourceNode()) + " → " + orDash(m.targetNode())
                    + (m.reason() == null || m.reason().isEmpty() ? "" : ": " + m.reason())));
        }
        for (var p : r.pods()) {
            facts.add(entry("  " + p.namespace() + "/" + p.name(), p.outcome() + " → " + p.state()));
        }
        facts.add(entry("Left behind", r.stranded().isEmpty() ? "nothing" : r.stranded().size() + ""));
        for (var s : r.stranded()) {
            facts.add(entry("  " + s.namespace() + "/" + s.name(), s.reason()));
        }
        return facts;
    }

    private static String orDash(String s) {
        return s == null || s.isEmpty() ? "—" : s;
    }

    private static Map.Entry<String, String> entry(String key, String value) {
        return new AbstractMap.SimpleImmutableEntry<>(key, value == null ? "" : value);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t instanceof java.util.concurrent.CompletionException
                || t.getMessage() == null)) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
