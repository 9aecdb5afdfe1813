package dev.drainboard.controller.replicaset;

import static dev.drainboard.controller.replicaset.ReplicaSets.created;
import static dev.drainboard.controller.replicaset.ReplicaSets.migrating;
import static dev.drainboard.controller.replicaset.ReplicaSets.names;
import static dev.drainboard.controller.replicaset.ReplicaSets.running;
import static dev.drainboard.controller.replicaset.ReplicaSets.unscheduled;
import static dev.drainboard.controller.replicaset.ReplicaSets.vmi;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The scale-down order of KubeVirt's {@code docs/replica-sets.md} (not ready, migrating, ready) and the ReplicaSet
 * tie-breaks, pair by pair.
 */
class ScaleDownOrderTest {

    /**
     * A VMI from a short description: phase ({@code none} for unset), readiness ({@code R} Ready=True, {@code NR}
     * Ready=False, {@code -} no Ready condition), then any of {@code mig} (migration under way), {@code unsched}
     * (no node), {@code new} (created an hour after the others).
     */
    static VirtualMachineInstance described(String name, String description) {
        String[] words = description.trim().split("\\s+");
        String phase = words[0].equals("none") ? null : words[0];
        Boolean ready = switch (words[1]) {
            case "R" -> true;
            case "NR" -> false;
            default -> null;
        };
        VirtualMachineInstance vmi = vmi(name, phase, ready);
        for (int i = 2; i < words.length; i++) {
            switch (words[i]) {
                case "mig" -> migrating(vmi);
                case "unsched" -> unscheduled(vmi);
                case "new" -> created(vmi, "2025-01-01T01:00:00Z");
                default -> throw new IllegalArgumentException(words[i]);
            }
        }
        return vmi;
    }

    @ParameterizedTest(name = "[{index}] {0} vs {1}: delete {2} first")
    @CsvSource({
            // a                    b                    first
            "Running R,             Running NR,          b",
            "Running R mig,         Running R,           a",
            "Running NR,            Running R mig,       a",
            "Running NR mig,        Running R mig,       a",
            "Scheduled -,           Running -,           a",   // no Ready condition: running counts as ready
            "Running -,             Running R mig,       b",
            "Pending - unsched,     Scheduled NR,        a",   // not scheduled before scheduled
            "Running NR unsched,    Running NR,          a",
            "none -,                Scheduling -,        a",   // same rank: newer (equal) then name
            "Scheduled NR,          Running NR,          a",   // not yet running before running
            "Unknown NR,            Running NR,          a",
            "Scheduled NR,          Unknown NR,          a",
            "Running R,             Running R new,       b",   // newer before older
            "Running R mig new,     Running R mig,       a",
            "Running R new,         Running NR,          b",   // readiness beats age
            "Running NR,            Scheduled NR new,    b",
    })
    void pairs(String a, String b, String first) {
        VirtualMachineInstance vmiA = described("a", a);
        VirtualMachineInstance vmiB = described("b", b);
        assertThat(names(ScaleDownOrder.victims(List.of(vmiA, vmiB), 1))).containsExactly(first);
        assertThat(names(ScaleDownOrder.victims(List.of(vmiB, vmiA), 1))).as("whatever the cache order").containsExactly(first);
    }

    @Test
    @DisplayName("scaling 6 down to 1: not ready first, then migrating, then the newest ready; the oldest ready stays")
    void wholeOrder() {
        List<VirtualMachineInstance> vmis = new ArrayList<>(List.of(
                running("ready-old"),
                created(running("ready-new"), "2025-01-01T02:00:00Z"),
                migrating(running("migrating")),
                vmi("not-ready", "Running", false),
                unscheduled(vmi("pending", "Pending", null)),
                vmi("booting", "Scheduled", null)));
        Collections.shuffle(vmis, new java.util.Random(7));
        assertThat(names(ScaleDownOrder.victims(vmis, 5)))
                .containsExactly("pending", "booting", "not-ready", "migrating", "ready-new");
    }

    @Test
    void noMoreVictimsThanAskedOrPresent() {
        List<VirtualMachineInstance> vmis = List.of(running("a"), running("b"));
        assertThat(ScaleDownOrder.victims(vmis, 0)).isEmpty();
        assertThat(ScaleDownOrder.victims(vmis, 5)).hasSize(2);
    }
}
