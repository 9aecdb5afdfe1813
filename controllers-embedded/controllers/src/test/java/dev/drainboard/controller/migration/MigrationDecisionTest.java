package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtFinalizers;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

@DisplayName("migration phase machine (with the PDB expansion of KubeVirt up to v1.5)")
class MigrationDecisionTest {

    static final Instant NOW = Instant.parse("2025-01-01T00:10:00Z");
    static final String UID = "vmim-uid";

    /** A test case: what the caches hold, built up row by row. */
    static final class Case {
        String phase;
        boolean deleting;
        boolean evacuation = true;
        boolean vmiExists = true;
        String vmiPhase = "Running";
        String stateUid;          // null: no migration state on the VMI
        String targetNode;
        String targetAddress;
        String start;
        boolean completed;
        boolean failed;
        String target;            // null, "pending", "unschedulable-400s", "unschedulable-100s", "ready", "down"
        String budget = "plain";  // null, "plain", "expanded", "observed"
        int running;
        int runningFromSource;
        int activePods = 1;
        boolean wantsBudget = true;
        List<VirtualMachineInstanceMigration> siblings = new ArrayList<>();
        String priority;                 // spec.priority, null: none
        MigrationSlots.Wait turn;        // the priority queue's verdict; null: the queue is off

        MigrationDecision.Plan decide() {
            VirtualMachineInstanceMigration vmim = vmim("mig", UID, phase, "2025-01-01T00:09:00Z", evacuation);
            vmim.getSpec().setPriority(priority);
            if (deleting) {
                vmim.getMetadata().setDeletionTimestamp("2025-01-01T00:09:30Z");
            }
            VirtualMachineInstance vmi = vmiExists ? vmi() : null;
            List<Pod> targets = target == null ? List.of() : List.of(targetPod(target));
            List<VirtualMachineInstanceMigration> all = new ArrayList<>(siblings);
            all.add(vmim);
            return MigrationDecision.decide(new MigrationDecision.Input(vmim, vmi, targets, sourcePod(), activePods,
                    budget == null ? null : pdb(budget), wantsBudget, all, new MigrationSlots.InFlight(running, runningFromSource),
                    MigrationConfig.defaults(),
                    MigrationTimings.defaults(), NOW,
                    turn == null ? null : new MigrationSlots.Turn(MigrationSlots.Queued.of(vmim, k -> "node01"), 0, turn, 0)));
        }

        VirtualMachineInstance vmi() {
            VirtualMachineInstance vmi = new VirtualMachineInstance();
            vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("vm").withUid("vmi-uid").build());
            VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
            spec.setEvictionStrategy("LiveMigrate");
            vmi.setSpec(spec);
            VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
            status.setPhase(vmiPhase);
            status.setNodeName("node01");
            status.setConditions(List.of(new Condition(KubeVirtConditions.LIVE_MIGRATABLE, "True", null, null)));
            if (stateUid != null) {
                MigrationState s = new MigrationState();
                s.setMigrationUid(stateUid);
                s.setSourceNode("node01");
                s.setTargetNode(targetNode);
                s.setTargetNodeAddress(targetAddress);
                s.setStartTimestamp(start);
                s.setCompleted(completed ? true : null);
                s.setFailed(failed ? true : null);
                status.setMigrationState(s);
            }
            vmi.setStatus(status);
            return vmi;
        }
    }

    static VirtualMachineInstanceMigration vmim(String name, String uid, String phase, String created, boolean evacuation) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        var meta = new ObjectMetaBuilder().withNamespace("default").withName(name).withUid(uid).withCreationTimestamp(created)
                .withFinalizers(KubeVirtFinalizers.MIGRATION_JOB)
                .addToLabels(KubeVirtLabels.MIGRATION_SELECTOR, "vm")
                .addToAnnotations(DrainboardAnnotations.MIGRATION_CAUSE, "API eviction");
        if (evacuation) {
            meta.addToAnnotations(KubeVirtAnnotations.EVACUATION_MIGRATION, "node01");
        }
        m.setMetadata(meta.build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec("vm"));
        if (phase != null) {
            VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
            status.setPhase(phase);
            status.setPhaseTransitionTimestamps(List.of(new PhaseTransitionTimestamp(phase, created)));
            m.setStatus(status);
        }
        return m;
    }

    static Pod sourcePod() {
        return new PodBuilder().withNewMetadata().withNamespace("default").withName("virt-launcher-vm-src").endMetadata()
                .withNewSpec().withNodeName("node01").endSpec().build();
    }

    static Pod targetPod(String kind) {
        PodBuilder b = new PodBuilder().withNewMetadata().withNamespace("default").withName("virt-launcher-vm-tgt")
                .withCreationTimestamp("2025-01-01T00:09:00Z")
                .addToLabels(KubeVirtLabels.MIGRATION_JOB_UID, UID).endMetadata()
                .withNewSpec().withNodeName(kind.equals("ready") || kind.equals("down") ? "node02" : null).endSpec();
        switch (kind) {
            case "ready" -> b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus();
            case "down" -> b.withNewStatus().withPhase("Failed").endStatus();
            case "unschedulable-400s" -> b.withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                    .withStatus("False").withReason("Unschedulable").withLastTransitionTime("2025-01-01T00:03:20Z").endCondition().endStatus();
            case "unschedulable-100s" -> b.withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                    .withStatus("False").withReason("Unschedulable").withLastTransitionTime("2025-01-01T00:08:20Z").endCondition().endStatus();
            default -> b.withNewStatus().withPhase("Pending").endStatus();
        }
        return b.build();
    }

    static PodDisruptionBudget pdb(String kind) {
        boolean expanded = !kind.equals("plain");
        var meta = new ObjectMetaBuilder().withNamespace("default").withName("kubevirt-disruption-budget-x").withGeneration(2L);
        if (expanded) {
            meta.addToLabels(KubeVirtLabels.MIGRATION_NAME, "mig");
        }
        return new PodDisruptionBudgetBuilder().withMetadata(meta.build())
                .withNewSpec().withMinAvailable(new IntOrString(expanded ? 2 : 1)).endSpec()
                .withNewStatus().withDesiredHealthy(kind.equals("observed") ? 2 : 1).withObservedGeneration(kind.equals("observed") ? 2L : 1L).endStatus()
                .build();
    }

    /**
     * The whole plan, one line per part, so a table row states all of it: the phases entered, every action in order
     * with what it writes, every event, and how the loop comes back.
     */
    record Rendered(String entered, String actions, String events, String then) {
    }

    static Rendered render(MigrationDecision.Plan plan) {
        String entered = plan.entered().isEmpty() ? "-"
                : String.join(" > ", plan.entered().stream().map(MigrationPhase::value).toList());
        String actions = plan.actions().isEmpty() ? "-"
                : String.join("; ", plan.actions().stream().map(MigrationDecisionTest::render).toList());
        String events = plan.events().isEmpty() ? "-"
                : String.join("; ", plan.events().stream().map(e -> (e.warning() ? "Warning " : "Normal ") + e.reason()
                        + (e.onVmi() ? " on VMI" : "") + ": " + e.message()).toList());
        List<String> then = new ArrayList<>();
        if (plan.waitingForCapacity()) {
            then.add("waits for a slot");
        }
        if (plan.abortRequested()) {
            then.add("abort requested");
        }
        if (plan.requeueAfter() != null) {
            then.add("again in " + plan.requeueAfter().toSeconds() + " s");
        }
        return new Rendered(entered, actions, events, then.isEmpty() ? "-" : String.join(", ", then));
    }

    static String render(MigrationAction action) {
        return switch (action) {
            case MigrationAction.EnsureMetadata m -> "EnsureMetadata(finalizer=%s, label=%s, cause=%s)"
                    .formatted(m.finalizer(), m.vmiNameLabel(), m.cause());
            case MigrationAction.RemoveFinalizer r -> "RemoveFinalizer";
            case MigrationAction.ExpandBudget b -> "ExpandBudget(%s for %s)".formatted(b.budgetName(), b.migrationName());
            case MigrationAction.CreateTargetPod c -> "CreateTargetPod(%s* for job %s)".formatted(
                    c.pod().getMetadata().getGenerateName(), c.pod().getMetadata().getLabels().get(KubeVirtLabels.MIGRATION_JOB_UID));
            case MigrationAction.DeleteTargetPod d -> "DeleteTargetPod(%s: %s)".formatted(d.podName(), d.message());
            case MigrationAction.HandOff h -> "HandOff(%s: %s/%s > %s/%s)".formatted(h.state().getMigrationUid(),
                    h.state().getSourceNode(), h.state().getSourcePod(), h.state().getTargetNode(), h.state().getTargetPod());
            case MigrationAction.MarkVmiMigrationFailed f -> "MarkVmiMigrationFailed(%s)".formatted(f.reason());
            case MigrationAction.RequestAbort r -> "RequestAbort";
            case MigrationAction.SourcePodEvictionInProgress e -> "EvictionInProgress(%s=%s)".formatted(e.podName(), e.inProgress());
        };
    }

    /**
     * Each row is one situation and the complete plan for it; a plan with one action more or less, or an action in
     * another order, fails its row. The behaviour is KubeVirt's migration controller
     * (kubevirt/kubevirt pkg/virt-controller/watch/migration/migration.go), as docs/controllers.md describes it.
     */
    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            # phase        | situation                        | phases entered    | actions | events | then
                           | new VMIM                         | Pending           | ExpandBudget(kubevirt-disruption-budget-x for mig) | - | again in 1 s
                           | new VMIM, cluster has 5 running  | Pending           | - | - | waits for a slot, again in 5 s
            Pending        | PDB not expanded                 | -                 | ExpandBudget(kubevirt-disruption-budget-x for mig) | - | again in 1 s
            Pending        | PDB expanded, not yet observed   | -                 | - | - | again in 1 s
            Pending        | PDB expanded and observed        | Scheduling        | CreateTargetPod(virt-launcher-vm-* for job vmim-uid); EvictionInProgress(virt-launcher-vm-src=true) | - | -
            Pending        | cluster has 5 running            | -                 | - | - | waits for a slot, again in 5 s
            Pending        | 2 running from the source node   | -                 | - | - | waits for a slot, again in 5 s
            Pending        | two active pods                  | -                 | - | - | again in 1 s
            Pending        | VMI not Running yet              | -                 | - | - | again in 1 s
            Pending        | target pod exists                | Scheduling        | - | - | -
            Scheduling     | target pod pending               | -                 | - | - | again in 840 s
            Scheduling     | target unschedulable for 400 s   | Failed            | DeleteTargetPod(virt-launcher-vm-tgt: unschedulable pod default/virt-launcher-vm-tgt timeout period exceeded) | Warning migrationTargetPodUnschedulable: Migration target pod for VMI [default/vm] is currently unschedulable.; Warning FailedMigration: unschedulable pod default/virt-launcher-vm-tgt timeout period exceeded | -
            Scheduling     | target unschedulable for 100 s   | -                 | - | Warning migrationTargetPodUnschedulable: Migration target pod for VMI [default/vm] is currently unschedulable. | again in 200 s
            Scheduling     | target pod Ready                 | Scheduled         | - | - | -
            Scheduled      | target Ready, not handed off     | -                 | HandOff(vmim-uid: node01/virt-launcher-vm-src > node02/virt-launcher-vm-tgt) | Normal SuccessfulHandOver: Migration target pod is ready for preparation by virt-handler. | -
            Scheduled      | handed off                       | PreparingTarget   | - | - | -
            PreparingTarget | target address reported         | TargetReady       | - | - | -
            TargetReady    | source reported start            | Running           | - | - | -
            Running        | source reported completion       | Succeeded         | - | Normal SuccessfulMigration: Source node reported migration succeeded | -
            Running        | source reported failure          | Failed            | - | Warning FailedMigration: source node reported migration failed | -
            Running        | target pod down                  | Failed            | MarkVmiMigrationFailed(Target pod is down) | Warning FailedMigration: Migration failed because target pod shutdown during migration | -
            Running        | target pod removed               | Failed            | MarkVmiMigrationFailed(Target pod is down) | Warning FailedMigration: Migration target pod was removed during active migration. | -
            Running        | VMI state cleared                | Failed            | - | Warning FailedMigration: VMI's migration state was cleared during the active migration. | -
            Running        | VMIM deleted after hand-off      | -                 | RequestAbort | Normal SuccessfulAbortMigration: Migration is ready to be canceled by virt-handler. | abort requested
            Scheduling     | VMIM deleted before hand-off     | Failed            | DeleteTargetPod(virt-launcher-vm-tgt: migration canceled and pod default/virt-launcher-vm-tgt is deleted) | Warning FailedMigration: Migration failed due to being canceled | abort requested
            Pending        | VMI gone                         | Failed            | - | Warning FailedMigration: Migration failed because vmi does not exist. | -
            Pending        | VMI final                        | Failed            | - | Warning FailedMigration: Migration failed vmi shutdown during migration. | -
            Failed         | final                            | -                 | RemoveFinalizer | - | -
            """)
    void phases(String phase, String situation, String entered, String actions, String events, String then) {
        Case c = new Case();
        c.phase = phase;
        switch (situation) {
            case "PDB not expanded" -> c.budget = "plain";
            case "PDB expanded, not yet observed" -> c.budget = "expanded";
            case "PDB expanded and observed" -> c.budget = "observed";
            case "cluster has 5 running" -> { c.budget = "observed"; c.running = 5; }
            case "new VMIM, cluster has 5 running" -> c.running = 5;
            case "2 running from the source node" -> { c.budget = "observed"; c.running = 2; c.runningFromSource = 2; }
            case "two active pods" -> { c.budget = "observed"; c.activePods = 2; }
            case "VMI not Running yet" -> { c.budget = "observed"; c.vmiPhase = "Scheduled"; }
            case "target pod exists", "target pod pending" -> c.target = "pending";
            case "target unschedulable for 400 s" -> c.target = "unschedulable-400s";
            case "target unschedulable for 100 s" -> c.target = "unschedulable-100s";
            case "target pod Ready", "target Ready, not handed off" -> c.target = "ready";
            case "handed off" -> handedOff(c);
            case "target address reported" -> { handedOff(c); c.targetAddress = "10.0.0.2"; }
            case "source reported start" -> { handedOff(c); c.targetAddress = "10.0.0.2"; c.start = "2025-01-01T00:09:50Z"; }
            case "source reported completion" -> { started(c); c.completed = true; }
            case "source reported failure" -> { started(c); c.failed = true; c.completed = true; }
            case "target pod down" -> { started(c); c.target = "down"; }
            case "target pod removed" -> { started(c); c.target = null; }
            case "VMI state cleared" -> { started(c); c.stateUid = null; }
            case "VMIM deleted after hand-off" -> { started(c); c.deleting = true; }
            case "VMIM deleted before hand-off" -> { c.target = "pending"; c.deleting = true; }
            case "VMI gone" -> c.vmiExists = false;
            case "VMI final" -> c.vmiPhase = "Succeeded";
            case "new VMIM", "final" -> { }
            default -> throw new IllegalArgumentException("no such situation: " + situation);
        }
        MigrationDecision.Plan plan = c.decide();

        assertThat(render(plan)).isEqualTo(new Rendered(entered, actions, events, then));
        assertThat(plan.phase()).as("the phase written is the last one entered")
                .isEqualTo(plan.entered().isEmpty() ? null : plan.entered().getLast());
    }

    /**
     * With the migration priority queue on, a Pending VMIM starts only on its turn ({@link MigrationSlots#turns});
     * held back, it looks again after KubeVirt's delay for its priority ({@code getRequeueDelayForPriority}: ≥ 100
     * 1 s, ≥ 50 3 s, else 5 s).
     */
    @ParameterizedTest(name = "[{index}] priority {0}, {1} running ({2} from the source), turn {3} → {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # priority         | running | from source | turn              | phases entered | then
            system-critical    | 0       | 0           | RUNS              | Scheduling     | -
            system-critical    | 0       | 0           | CLUSTER_LIMIT     | -              | waits for a slot, again in 1 s
            system-critical    | 1       | 0           | SOURCE_NODE_LIMIT | -              | waits for a slot, again in 1 s
            user-triggered     | 0       | 0           | CLUSTER_LIMIT     | -              | waits for a slot, again in 3 s
            system-maintenance | 0       | 0           | CLUSTER_LIMIT     | -              | waits for a slot, again in 5 s
            none               | 0       | 0           | CLUSTER_LIMIT     | -              | waits for a slot, again in 5 s
            system-critical    | 5       | 0           | RUNS              | -              | waits for a slot, again in 1 s
            system-maintenance | 2       | 2           | RUNS              | -              | waits for a slot, again in 5 s
            none               | 0       | 0           | none              | Scheduling     | -
            """)
    @DisplayName("priority queue: a Pending VMIM starts on its turn, else waits and looks again by its priority")
    void priorityQueue(String priority, int running, int fromSource, String turn, String entered, String then) {
        Case c = new Case();
        c.phase = "Pending";
        c.budget = "observed";
        c.priority = priority.equals("none") ? null : priority;
        c.running = running;
        c.runningFromSource = fromSource;
        c.turn = turn.equals("none") ? null : MigrationSlots.Wait.valueOf(turn);
        Rendered r = render(c.decide());
        assertThat(r.entered()).isEqualTo(entered);
        assertThat(r.then()).isEqualTo(then);
        assertThat(r.actions().startsWith("CreateTargetPod")).isEqualTo(entered.equals("Scheduling"));
    }

    private static void handedOff(Case c) {
        c.target = "ready";
        c.stateUid = UID;
        c.targetNode = "node02";
    }

    private static void started(Case c) {
        handedOff(c);
        c.targetAddress = "10.0.0.2";
        c.start = "2025-01-01T00:09:50Z";
    }

    @ParameterizedTest(name = "failed evacuations before this one: {0} → back-off {1} s from the last failure")
    @CsvSource({"0, 0", "1, 20", "2, 40", "3, 80"})
    @DisplayName("back-off: 20 s after a failed evacuation, doubling with each further failure since the last success")
    void backoff(int failures, long seconds) {
        Case c = new Case();
        c.phase = "Pending";
        c.budget = "observed";
        c.siblings.add(vmim("ok", "ok", "Succeeded", "2025-01-01T00:00:00Z", true));
        for (int i = 0; i < failures; i++) {
            c.siblings.add(vmim("f" + i, "f" + i, "Failed", "2025-01-01T00:09:0" + i + "Z", true));
        }
        // The newest failure happened just now, so the whole back-off is still ahead.
        VirtualMachineInstanceMigration self = vmim("mig", UID, "Pending", "2025-01-01T00:09:59Z", true);
        List<VirtualMachineInstanceMigration> all = new ArrayList<>(c.siblings);
        all.add(self);
        if (failures > 0) {
            all.getLast().getMetadata().setCreationTimestamp("2025-01-01T00:09:59Z");
            c.siblings.getLast().getStatus().setPhaseTransitionTimestamps(List.of(new PhaseTransitionTimestamp("Failed", NOW.toString())));
        }
        var input = new MigrationDecision.Input(self, c.vmi(), List.of(), sourcePod(), 1, pdb("observed"), true, all,
                new MigrationSlots.InFlight(0, 0), MigrationConfig.defaults(), MigrationTimings.defaults(), NOW);
        MigrationDecision.Plan plan = MigrationDecision.decide(input);
        if (seconds == 0) {
            assertThat(render(plan)).isEqualTo(new Rendered("Scheduling",
                    "CreateTargetPod(virt-launcher-vm-* for job vmim-uid); EvictionInProgress(virt-launcher-vm-src=true)", "-", "-"));
        } else {
            assertThat(render(plan)).isEqualTo(new Rendered("-", "-",
                    "Warning MigrationBackoff on VMI: backoff migrating vmi default/vm", "again in " + seconds + " s"));
        }
    }

    @Test
    @DisplayName("a new VMIM goes as far as it can in one pass, and every phase it passes gets its timestamp")
    void onePassThroughPending() {
        Case c = new Case();
        c.wantsBudget = false; // e.g. LiveMigrateIfPossible on a cluster without PDBs for it: nothing to expand
        MigrationDecision.Plan plan = c.decide();
        assertThat(plan.entered()).containsExactly(MigrationPhase.PENDING, MigrationPhase.SCHEDULING);
        assertThat(render(plan).actions())
                .isEqualTo("CreateTargetPod(virt-launcher-vm-* for job vmim-uid); EvictionInProgress(virt-launcher-vm-src=true)");

        c.wantsBudget = true; // the budget is expanded first; the target pod waits until that is observed
        plan = c.decide();
        assertThat(plan.entered()).containsExactly(MigrationPhase.PENDING);
        assertThat(render(plan).actions()).isEqualTo("ExpandBudget(kubevirt-disruption-budget-x for mig)");

        c.phase = "Pending";
        c.budget = "observed";
        assertThat(c.decide().entered()).containsExactly(MigrationPhase.SCHEDULING);

        c.phase = "Running";
        started(c);
        c.failed = true;
        c.completed = true;
        assertThat(c.decide().entered()).containsExactly(MigrationPhase.FAILED);
    }

    @Test
    @DisplayName("the target pod: same template, migration job label and annotation, never beside the source")
    void targetPod() {
        Case c = new Case();
        Pod pod = MigrationDecision.targetPod(vmim("mig", UID, "Pending", "2025-01-01T00:09:00Z", true), c.vmi());
        assertThat(pod.getMetadata().getGenerateName()).isEqualTo("virt-launcher-vm-");
        assertThat(pod.getMetadata().getLabels()).containsEntry("kubevirt.io/migrationJobUID", UID)
                .containsEntry("kubevirt.io/created-by", "vmi-uid").containsEntry("kubevirt.io", "virt-launcher");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("kubevirt.io/migrationJobName", "mig");
        var term = pod.getSpec().getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getFirst();
        assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(term.getLabelSelector().getMatchLabels()).containsEntry("kubevirt.io/created-by", "vmi-uid");
    }

    @Test
    @DisplayName("an evacuation VMIM marks its source pod eviction-in-progress when it creates the target")
    void deschedulerAnnotation() {
        Case c = new Case();
        c.phase = "Pending";
        c.budget = "observed";
        assertThat(c.decide().actions()).contains(new MigrationAction.SourcePodEvictionInProgress("virt-launcher-vm-src", true));
        c.evacuation = false;
        assertThat(c.decide().actions()).noneMatch(a -> a instanceof MigrationAction.SourcePodEvictionInProgress);
    }

    @Test
    @DisplayName("a VMIM without a cause is a user request; KubeVirt's webhook additions are made")
    void metadata() {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("m").withUid("u").build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec("vm"));
        assertThat(MigrationDecision.ensureMetadata(m))
                .contains(new MigrationAction.EnsureMetadata(true, "vm", DrainboardAnnotations.CAUSE_USER_REQUEST));
        assertThat(MigrationPhase.parse("Succeeded")).isPresent();
    }
}
