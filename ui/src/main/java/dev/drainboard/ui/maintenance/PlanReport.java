package dev.drainboard.ui.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.drainboard.history.HistoryDocuments;
import dev.drainboard.ui.model.MaintenancePlanRow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/** A plan's report: predicted against actual, per node, with the VMs moved; as Markdown for people, JSON for tools. */
final class PlanReport {

    enum Format {
        JSON("json"), MARKDOWN("md");

        private final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        String extension() {
            return extension;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private PlanReport() {
    }

    static String render(MaintenancePlanRow plan, Format format) {
        return format == Format.JSON ? json(plan) : markdown(plan);
    }

    static String fileName(MaintenancePlanRow plan, Format format) {
        return (plan.name().isEmpty() ? "maintenance-plan-preview" : plan.name()) + "." + format.extension();
    }

    static String json(MaintenancePlanRow plan) {
        try {
            return JSON.writeValueAsString(plan) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String markdown(MaintenancePlanRow p) {
        StringBuilder md = new StringBuilder();
        md.append("# Maintenance plan ").append(p.name().isEmpty() ? "(preview)" : p.name()).append("\n\n");
        md.append("- Phase: ").append(p.phase()).append(p.message().isEmpty() ? "" : " — " + p.message()).append('\n');
        md.append("- Nodes: ").append(p.selector().isEmpty() ? String.join(", ", p.specNodes()) : "selector `" + p.selector() + "`")
                .append(" (").append(p.nodes().size()).append(" in the plan)\n");
        md.append("- Nodes at once: ").append(p.maxUnavailable()).append('\n');
        md.append("- After each drain: ").append(p.afterDrain()).append('\n');
        md.append("- Time: ").append(timeVsPredicted(p, null)).append('\n');
        md.append("- Migrations: ").append(migrations(p)).append('\n');
        if (p.timeScale() != 1) {
            md.append("- Rehearsed at time scale ").append(trim(p.timeScale())).append(": actual times are converted to real time\n");
        }
        if (p.startedAt() != null) {
            md.append("- Started: ").append(HistoryDocuments.when(p.startedAt().toString())).append('\n');
        }
        if (p.finishedAt() != null) {
            md.append("- Finished: ").append(HistoryDocuments.when(p.finishedAt().toString())).append('\n');
        }
        md.append("\n## Nodes\n\n| Batch | Node | Phase | Predicted start | Predicted | Actual | Migrations (made/predicted) | Message |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (var n : p.nodes()) {
            Double start = p.realSecondsAt(n.startedAt());
            Double end = p.realSecondsAt(n.finishedAt() != null ? n.finishedAt() : n.drainedAt());
            md.append("| ").append(n.batch()).append(" | ").append(n.name()).append(" | ").append(n.phase())
                    .append(" | ").append(GanttLayout.tick(n.predictedStartSeconds()))
                    .append(" | ").append(HistoryDocuments.duration(n.predictedSeconds()))
                    .append(" | ").append(start == null || end == null ? "—" : HistoryDocuments.duration(end - start))
                    .append(" | ").append(n.migrationsMade()).append('/').append(n.migrationsPredicted())
                    .append(" | ").append(n.message().replace("|", "\\|")).append(" |\n");
        }
        md.append("\n## VMs moved more than once\n\n");
        if (p.movedTwiceOrMore().isEmpty()) {
            md.append("None: every VM moves at most once.\n");
        }
        for (var m : p.movedTwiceOrMore()) {
            md.append("- ").append(m.vm()).append(": ").append(String.join(" → ", m.hops())).append(" (")
                    .append(m.times()).append(" moves) — ").append(m.why()).append('\n');
        }
        md.append("\n## Stranded VMs\n\n");
        if (p.stranded().isEmpty()) {
            md.append("None.\n");
        }
        for (var s : p.stranded()) {
            md.append("- ").append(s.vm()).append(": ").append(s.why()).append('\n');
        }
        return md.toString();
    }

    /** "12 min predicted", "12 min predicted, 13 min taken (+8 %)", "… 5 min so far". */
    static String timeVsPredicted(MaintenancePlanRow p, java.time.Instant now) {
        String predicted = HistoryDocuments.duration(p.predictedSeconds()) + " predicted";
        Double actual = p.actualSeconds(p.finishedAt() != null ? p.finishedAt() : now);
        if (actual == null) {
            return predicted;
        }
        if (p.finishedAt() == null) {
            return predicted + ", " + HistoryDocuments.duration(actual) + " so far";
        }
        String deviation = "Succeeded".equals(p.phase()) && p.predictedSeconds() > 0
                ? String.format(Locale.ROOT, " (%+d %%)", Math.round((actual - p.predictedSeconds()) * 100 / p.predictedSeconds())) : "";
        return predicted + ", " + HistoryDocuments.duration(actual) + " taken" + deviation;
    }

    /** "7 predicted", "5 made of 7 predicted". */
    static String migrations(MaintenancePlanRow p) {
        return p.startedAt() == null && p.migrationsMade() == 0 ? p.migrationsPredicted() + " predicted"
                : p.migrationsMade() + " made of " + p.migrationsPredicted() + " predicted";
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /** Writes an export; the file is replaced whole or not at all. */
    static void write(Path file, String document) throws IOException {
        Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), ".maintenance-plan-", ".tmp");
        try {
            Files.writeString(temp, document, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
