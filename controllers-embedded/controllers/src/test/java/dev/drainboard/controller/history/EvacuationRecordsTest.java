package dev.drainboard.controller.history;

import dev.drainboard.history.DrainRecordStatus;
import dev.drainboard.history.RecordResult;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class EvacuationRecordsTest {

    static final Instant START = Instant.parse("2026-11-28T10:00:00.700Z");

    static VirtualMachineInstance vmi(String name, String node, String evacuating) {
        VirtualMachineInstance v = new VirtualMachineInstance();
        v.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName(name).build());
        VirtualMachineInstanceStatus s = new VirtualMachineInstanceStatus();
        s.setNodeName(node);
        s.setEvacuationNodeName(evacuating);
        v.setStatus(s);
        return v;
    }

    static VirtualMachineInstanceMigration vmim(String vmi, String created) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName("m-" + vmi).withCreationTimestamp(created).build());
        VirtualMachineInstanceMigrationSpec spec = new VirtualMachineInstanceMigrationSpec();
        spec.setVmiName(vmi);
        m.setSpec(spec);
        return m;
    }

    @Test
    void marksGroupedByNode() {
        var byNode = EvacuationRecords.markedByNode(List.of(vmi("a", "node01", "node01"), vmi("b", "node01", "node01"),
                vmi("c", "node02", "node02"), vmi("d", "node03", null), vmi("e", "node03", "")));
        assertThat(byNode).containsExactly(Map.entry("node01", new TreeSet<>(Set.of("demo/a", "demo/b"))),
                Map.entry("node02", new TreeSet<>(Set.of("demo/c"))));
    }

    @ParameterizedTest
    @CsvSource({
            "a, 2026-11-28T10:00:00Z, Succeeded, true",   // same second as the start: creation times have whole seconds
            "a, 2026-11-28T10:00:05Z, Running,   true",
            "a, 2026-11-28T09:59:59Z, Succeeded, false",  // an older migration of the same VMI, ended
            "a, 2026-11-28T09:59:59Z, Running,   true",   // created just before the loop saw the mark, under way
            "z, 2026-11-28T10:00:05Z, Running,   false"}) // another VMI
    void belongs(String vmi, String created, String phase, boolean belongs) {
        VirtualMachineInstanceMigration m = vmim(vmi, created);
        m.setStatus(new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus());
        m.getStatus().setPhase(phase);
        assertThat(EvacuationRecords.belongs(m, Set.of("demo/a"), START)).isEqualTo(belongs);
    }

    @ParameterizedTest(name = "still marked={0}, migration {1} -> ended={2}")
    @CsvSource(nullValues = "none", value = {
            "true,  Succeeded, false",
            "false, Running,   false",  // the mark cleared at the switch-over, the migration's end not yet seen
            "false, Succeeded, true",
            "false, Failed,    true",
            "false, gone,      true",   // deleted: nothing more to learn about it
            "false, none,      true"})  // no migration followed
    void ended(boolean stillMarked, String phase, boolean ended) {
        List<VirtualMachineInstanceMigration> followed = new java.util.ArrayList<>();
        if ("gone".equals(phase)) {
            followed.add(null);
        } else if (phase != null) {
            VirtualMachineInstanceMigration m = vmim("a", "2026-11-28T10:00:05Z");
            m.setStatus(new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus());
            m.getStatus().setPhase(phase);
            followed.add(m);
        }
        assertThat(EvacuationRecords.ended(stillMarked, followed)).isEqualTo(ended);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "moved away             | node02 |      | Drained   | MOVED",
            "gone                   |        |      | Drained   | GONE",
            "mark cleared, stays    | node01 |      | Cancelled | UNMARKED"})
    void end(String what, String nodeNow, String unused, RecordResult result, String state) {
        Map<String, VirtualMachineInstance> now = nodeNow == null ? Map.of() : Map.of("demo/a", vmi("a", nodeNow, null));
        assertThat(EvacuationRecords.end("node01", Set.of("demo/a"), now)).isEqualTo(result);
        assertThat(EvacuationRecords.vmis("node01", Set.of("demo/a"), now)).singleElement()
                .satisfies(p -> assertThat(p.state()).isEqualTo(state));
    }

    @Test
    void statusWhileRunningAndAtTheEnd() {
        Map<String, VirtualMachineInstance> now = Map.of("demo/a", vmi("a", "node01", "node01"));
        DrainRecordStatus running = EvacuationRecords.status("node01", START, START.plusSeconds(3), null, Set.of("demo/a"), now, List.of());
        assertThat(running.result()).isEqualTo(RecordResult.Running);
        assertThat(running.endedAt()).isNull();
        assertThat(running.durationSeconds()).isEqualTo(3.0);
        assertThat(running.pods()).singleElement().satisfies(p -> assertThat(p.state()).isEqualTo("MARKED"));
        DrainRecordStatus ended = EvacuationRecords.status("node01", START, START.plusSeconds(9), RecordResult.Drained,
                Set.of("demo/a"), Map.of("demo/a", vmi("a", "node02", null)), List.of());
        assertThat(ended.message()).isEqualTo("1 VMI(s) evacuated from node/node01");
        assertThat(ended.endedAt()).isEqualTo("2026-11-28T10:00:09Z");
        assertThat(ended.startedAt()).isEqualTo("2026-11-28T10:00:00Z");
    }
}
