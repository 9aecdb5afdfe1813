package dev.drainboard.ui.bench;

import atlantafx.base.theme.PrimerLight;
import dev.drainboard.ui.Console;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.model.BatchList;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.model.VmiRow;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The VMI table alone (no cluster): 10,000 rows, 200 row replacements a second in per-frame batches as ClusterModel
 * sends them, then filtering. Seconds instead of minutes per run, to find where the table's time goes; the figures
 * that count are {@link ConsoleBenchmark}'s.
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "drainboard.uibench", matches = "true")
class TableScreenBenchmark {

    private static final int ROWS = 10_000;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @Test
    void tenThousandRows() throws Exception {
        // The list ClusterModel's tables use: a pulse's changes reach the table as one change.
        BatchList<VmiRow> rows = new BatchList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(row(i, false));
        }
        TableScreen<VmiRow> screen = fx(() -> {
            Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
            TableScreen<VmiRow> s = new TableScreen<>("vmisTable", rows, "VMIs", r -> CompletableFuture.completedFuture(""));
            s.textColumn("Name", VmiRow::name, 120);
            s.textColumn("Namespace", VmiRow::namespace, 105);
            s.badgeColumn("Phase", VmiRow::phase, p -> Badge.Tone.SUCCESS, 95);
            s.textColumn("Node", VmiRow::node, 80);
            s.textColumn("Eviction strategy", VmiRow::evictionStrategy, 200);
            s.badgeColumn("Live-migratable", VmiRow::liveMigratable, p -> Badge.Tone.SUCCESS, 130);
            s.badgeColumn("Evacuation", r -> r.markedForEvacuation() ? "from " + r.evacuationNode() : "", p -> Badge.Tone.WARNING, 115);
            s.textColumn("PDB", VmiRow::pdbs, 230);
            s.textColumn("Migration", VmiRow::migration, 90);
            s.setRowStyle(r -> r.markedForEvacuation() ? "row-warning" : null);
            StackPane root = new StackPane(s.root());
            root.getStyleClass().add("console-root");
            Scene scene = new Scene(root, 1360, 860);
            scene.getStylesheets().add(Objects.requireNonNull(Console.class.getResource("console.css")).toExternalForm());
            stage.setScene(scene);
            stage.show();
            return s;
        });
        WaitForAsyncUtils.waitForFxEvents(10);
        ConsoleBenchmark.FrameClock frames = fx(() -> ConsoleBenchmark.FrameClock.install(stage.getScene()));
        for (String sort : List.of("unsorted", "sorted")) {
            if (sort.equals("sorted")) {
                fx(() -> {
                    TableColumn<VmiRow, ?> node = screen.table().getColumns().get(3);
                    screen.table().getSortOrder().setAll(node);
                    return null;
                });
                WaitForAsyncUtils.waitForFxEvents(5);
            }
            frames.reset();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            while (System.nanoTime() < end) {
                Platform.runLater(() -> rows.batch(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int k = 0; k < 4; k++) { // 4 per 20 ms: 200 a second
                        int i = random.nextInt(ROWS);
                        rows.set(i, row(i, !rows.get(i).markedForEvacuation()));
                    }
                }));
                Thread.sleep(20);
            }
            frames.report("table alone, " + sort + ", 200 replacements/s");
        }
        for (String term : List.of("vmi-0421", "scale-3", "LiveMigrate", "", "vmi-09", "")) {
            WaitForAsyncUtils.waitForFxEvents(3);
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long[] t = fx(() -> {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                screen.filterField().setText(term);
                long t1 = System.nanoTime();
                frames.markNow(); // the next pulse lays the filtered table out
                return new long[] {t0, t1, threads.getCurrentThreadCpuTime() - c0};
            });
            await().pollInterval(java.time.Duration.ofMillis(5)).atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> frames.firstPulseEndAfterMark() > 0);
            System.out.printf(Locale.ROOT, "uibench: table alone, filter %-14s applied in %6.1f ms (FX CPU %5.1f ms), laid out after %6.1f ms; %s%n",
                    "\"" + term + "\"", (t[1] - t[0]) / 1e6, t[2] / 1e6, (frames.firstPulseEndAfterMark() - t[0]) / 1e6,
                    frames.firstPulseAfterMark());
        }
    }

    private static VmiRow row(int i, boolean evacuating) {
        String node = "node-%04d".formatted(i % 500);
        return new VmiRow("scale-" + (i % 10), "vmi-%05d".formatted(i), "Running", node, "LiveMigrate", "VMI", "True", "",
                evacuating ? node : "", "kubevirt-disruption-budget-%05d".formatted(i), "", "2026-11-22T03:00:00Z",
                new ObjectRef(ObjectRef.Kind.VM, "scale-" + (i % 10), "vm"));
    }

    private static <T> T fx(java.util.concurrent.Callable<T> call) {
        try {
            return WaitForAsyncUtils.asyncFx(call).get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
