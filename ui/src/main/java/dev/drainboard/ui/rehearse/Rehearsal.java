package dev.drainboard.ui.rehearse;

import dev.drainboard.snapshot.ClusterSnapshot;
import dev.drainboard.ui.common.DialogHost;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.shell.CommandPalette;
import javafx.application.Platform;
import org.kordamp.ikonli.material2.Material2AL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/** Wires "Rehearse on a copy" into the console: its command-palette entry and what its dialog does. */
public final class Rehearsal {

    private Rehearsal() {
    }

    /**
     * The palette entry, offered when connected to a real cluster (a copy of an embedded cluster is pointless).
     *
     * @param background where the snapshot is read and written (off the FX thread)
     * @param open       disconnects and opens the copy
     */
    public static CommandPalette.Entry entry(Session session, DialogHost dialogs, Executor background,
                                             Consumer<ConnectTarget.Embedded> open) {
        return new CommandPalette.Entry("Rehearse on a copy…", "Snapshot " + session.info().server()
                + " into an embedded cluster, with a time scale", Material2AL.CONTENT_COPY,
                () -> show(session, dialogs, background, open));
    }

    static void show(Session session, DialogHost dialogs, Executor background, Consumer<ConnectTarget.Embedded> open) {
        RehearseDialog[] dialog = new RehearseDialog[1];
        RehearseModel model = new RehearseModel(session.info().server(), new RehearseModel.Actions() {
            @Override
            public CompletableFuture<RehearseModel.Snapshot> snapshot() {
                return CompletableFuture.supplyAsync(() -> take(session), background);
            }

            @Override
            public void open(ConnectTarget.Embedded copy) {
                dialogs.close(dialog[0]);
                open.accept(copy);
            }
        }, Platform::runLater);
        dialog[0] = new RehearseDialog(model, () -> dialogs.close(dialog[0]));
        dialogs.show(dialog[0]);
    }

    /** A snapshot of the session's cluster in a new folder under the temporary directory. */
    static RehearseModel.Snapshot take(Session session) {
        try {
            ClusterSnapshot snapshot = ClusterSnapshot.take(session.client(), Instant.now());
            Path folder = Files.createTempDirectory("drainboard-rehearsal-").resolve("snapshot");
            snapshot.write(folder, false);
            return new RehearseModel.Snapshot(folder, snapshot.unreadable());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
