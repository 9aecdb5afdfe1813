package dev.drainboard.ui.maintenance;

import javafx.scene.Node;

import java.nio.file.Path;
import java.util.function.Function;

/** The Maintenance view's test hooks, for the console tests in other packages. */
public final class MaintenanceViewAccess {

    private final MaintenanceView view;

    public MaintenanceViewAccess(Node root) {
        this.view = (MaintenanceView) root.getProperties().get(MaintenanceView.class);
    }

    /** The view model behind the view (a screenshot test sets the draft up in one go). */
    public MaintenanceViewModel model() {
        return view.model();
    }

    /** Exports go to the file this names (from the suggested file name) instead of a file chooser. */
    public void setSaveTo(Function<String, Path> file) {
        view.setSaveTo((name, format) -> file.apply(name));
    }
}
