package dev.drainboard.ui.dialogs;

import dev.drainboard.ui.actions.AccessCheck;
import javafx.scene.input.KeyCode;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.List;

/**
 * The operator's actions, with their key (pressed on a selected row), icon, and what the API must allow.
 */
public enum ConsoleAction {
    CORDON("Cordon", KeyCode.C, Material2MZ.PAUSE_CIRCLE_OUTLINE, "Mark the node unschedulable; running pods stay"),
    UNCORDON("Uncordon", KeyCode.U, Material2MZ.PLAY_CIRCLE_OUTLINE, "Mark the node schedulable again"),
    DRAIN("Drain…", KeyCode.D, Material2AL.ARROW_CIRCLE_DOWN, "Preview, then cordon and evict every pod (several selected nodes drain together)"),
    TAINT("Taints…", KeyCode.T, Material2AL.LABEL, "Add a taint (or kubevirt.io/drain:NoSchedule in one click), or remove one"),
    EVICT("Evict…", KeyCode.E, Material2AL.EJECT, "Evict the VMI's launcher pod through the eviction API"),
    MIGRATE("Migrate", KeyCode.M, Material2AL.COMPARE_ARROWS, "Live-migrate the VMI to another node"),
    CANCEL_EVACUATION("Cancel evacuation", KeyCode.X, Material2AL.BLOCK, "Clear the VMI's evacuation mark"),
    CANCEL_MIGRATION("Cancel migration", KeyCode.X, Material2AL.CANCEL, "Delete the migration: it is cancelled or aborted"),
    SCALE("Scale…", KeyCode.S, Material2MZ.UNFOLD_MORE, "Change the replica set's desired replicas"),
    MIGRATE_TO_NODE("Migrate to node…", KeyCode.N, Material2AL.CALL_SPLIT, "Live-migrate the VMI to a node you choose (KubeVirt 1.6+)"),
    START_VM("Start", KeyCode.S, Material2MZ.PLAY_ARROW, "Start the VM through virt-api (its run strategy decides)"),
    STOP_VM("Stop…", KeyCode.T, Material2MZ.STOP, "Stop the VM through virt-api: its VMI is shut down"),
    RESTART_VM("Restart…", KeyCode.R, Material2MZ.REPLAY, "Restart the VM through virt-api: its VMI is replaced by a new one");

    private final String label;
    private final KeyCode key;
    private final Ikon icon;
    private final String description;

    ConsoleAction(String label, KeyCode key, Ikon icon, String description) {
        this.label = label;
        this.key = key;
        this.icon = icon;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public KeyCode key() {
        return key;
    }

    public Ikon icon() {
        return icon;
    }

    public String description() {
        return description;
    }

    /** {@code Cordon (C)}: how tooltips and the palette name the key. */
    public String keyHint() {
        return key.getName();
    }

    /** What the API server must allow; {@code namespace} is the object's (empty for nodes). */
    public List<AccessCheck> checks(String namespace) {
        return switch (this) {
            case CORDON, UNCORDON, TAINT -> List.of(AccessCheck.patchNodes());
            case DRAIN -> List.of(AccessCheck.patchNodes(), AccessCheck.listPods(), AccessCheck.evictPods(""));
            case EVICT -> List.of(AccessCheck.evictPods(namespace));
            case MIGRATE -> List.of(AccessCheck.createMigrations(namespace));
            case CANCEL_EVACUATION -> List.of(AccessCheck.patchVmis(namespace));
            case CANCEL_MIGRATION -> List.of(AccessCheck.deleteMigrations(namespace));
            case SCALE -> List.of(new AccessCheck("update", "kubevirt.io", "virtualmachineinstancereplicasets", "scale", namespace));
            case MIGRATE_TO_NODE -> List.of(AccessCheck.createMigrations(namespace));
            case START_VM -> List.of(new AccessCheck("update", "subresources.kubevirt.io", "virtualmachines", "start", namespace));
            case STOP_VM -> List.of(new AccessCheck("update", "subresources.kubevirt.io", "virtualmachines", "stop", namespace));
            case RESTART_VM -> List.of(new AccessCheck("update", "subresources.kubevirt.io", "virtualmachines", "restart", namespace));
        };
    }
}
