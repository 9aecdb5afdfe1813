package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.WhyPendingDecision;

import dev.drainboard.ops.DrainListener;
import dev.drainboard.ops.Blocker;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ui.actions.AccessDecision;
import dev.drainboard.ui.drain.DrainDialogModel.Stage;
import dev.drainboard.ui.drain.DrainSummary.EndState;
import dev.drainboard.ui.model.WebhookStatus;
import javafx.beans.property.SimpleObjectProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The drain workflow's states and transitions, as the operator meets them in the dialog, without the FX toolkit: the
 * backend is answered by hand, the UI executor and the debounce run inline unless a test holds them.
 */
class DrainDialogModelTest {

    private static final String READY_TWO = "Ready: 2 pods to evict.";

    private final FakeBackend backend = new FakeBackend();
    private final SimpleObjectProperty<AccessDecision> access = new SimpleObjectProperty<>(AccessDecision.ALLOWED);
    private final List<EndState> ended = new ArrayList<>();
    private final List<List<DrainResult>> endedResults = new ArrayList<>();
    private WebhookStatus webhook = WebhookStatus.NOT_SERVING;

    private DrainDialogModel model(String nodes) {
        return model(nodes, Runnable::run, Runnable::run);
    }

    private DrainDialogModel model(String nodes, Executor ui, DrainDialogModel.Debounce debounce) {
        return new DrainDialogModel(List.of(nodes.split(",")), backend, access, () -> webhook, (state, results) -> {
            ended.add(state);
            endedResults.add(results);
        }, ui, debounce);
    }

    // ---- opening and the preview

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            node01        | Drain node01                  | Drain node01  | Reading the node's pods…
            node01,node02 | Drain 2 nodes: node01, node02 | Drain 2 nodes | Reading the nodes' pods…
            """)
    void opensReadingThePreviewWithNothingToPressYet(String nodes, String title, String startLabel, String status) {
        DrainDialogModel model = model(nodes);

        assertThat(model.stage().get()).isEqualTo(Stage.PREVIEW);
        assertThat(model.title().get()).isEqualTo(title);
        assertThat(model.subtitle().get()).contains("Nothing is written until you confirm");
        assertThat(model.startLabel()).isEqualTo(startLabel);
        assertThat(model.status().get()).isEqualTo(status);
        assertThat(model.startDisabled().get()).isTrue();
        assertThat(model.endState().get()).isNull();
        assertThat(backend.previews).singleElement().satisfies(call -> {
            assertThat(call.nodes()).isEqualTo(List.of(nodes.split(",")));
            assertThat(call.options()).isEqualTo(DrainOptions.defaults());
        });
    }

    /** Blockers make the drain wait, they do not keep it from starting; kubectl's refusals and access do. */
    @ParameterizedTest(name = "[{index}] {0} / {1} / {2} -> enabled {3}")
    @CsvSource(delimiter = '|', textBlock = """
            EVICTED,LIVE_MIGRATION,SKIPPED_DAEMONSET | NONE       | ALLOWED  | true  | Ready: 2 pods to evict.
            EVICTED,BLOCKED_BY_PDB                   | NONE       | ALLOWED  | true  | 1 pod blocks the drain for now: it will wait (and time out if a timeout is set).
            BLOCKED_BY_PDB,BLOCKED_NOT_MIGRATABLE    | NONE       | ALLOWED  | true  | 2 pods block the drain for now: it will wait (and time out if a timeout is set).
            EVICTED,NEEDS_IGNORE_DAEMONSETS          | DAEMONSETS | ALLOWED  | false | The drain cannot start as the options stand.
            EVICTED,BLOCKED_BY_PDB                   | DAEMONSETS | ALLOWED  | false | The drain cannot start as the options stand.
            EVICTED,EVICTED                          | NONE       | DENIED   | false | Not allowed: your credentials may not patch nodes
            EVICTED,EVICTED                          | NONE       | CHECKING | false | Checking permission…
            EVICTED,EVICTED                          | NONE       | UNKNOWN  | true  | Ready: 2 pods to evict.
            """)
    void thePreviewDecidesWhetherDrainMayBePressed(String outcomes, String errors, AccessDecision.State access,
                                                  boolean enabled, String status) {
        this.access.set(decision(access));
        DrainDialogModel model = model("node01");

        backend.answerPreview(0, preview("node01", outcomes, errors));

        assertThat(model.startDisabled().get()).isEqualTo(!enabled);
        assertThat(model.status().get()).isEqualTo(status);
        assertThat(model.previewLines()).singleElement().asString().startsWith("node01: ");
        assertThat(model.previewRows()).extracting(PodLine::outcome)
                .containsExactlyElementsOf(Arrays.stream(outcomes.split(",")).map(PodOutcome::valueOf).toList());
        model.start();
        assertThat(backend.drains).hasSize(enabled ? 1 : 0);
    }

    /**
     * Blockers (nowhere to run, strategy External) keep the drain from starting until "Allow stranded VMs" is ticked;
     * the box shows only when there are blockers, and the drain is started with the choice.
     */
    @ParameterizedTest(name = "[{index}] {0} / {1} / allow {2} -> enabled {3}")
    @CsvSource(delimiter = '|', textBlock = """
            node01        | NONE     | false | false | true  | Ready: 1 pods to evict.
            node01        | NONE     | true  | false | true  | Ready: 1 pods to evict.
            node01        | STRANDED | false | true  | false | 1 blocker keeps the drain from starting: tick "Allow stranded VMs" to drain anyway.
            node01        | STRANDED | true  | true  | true  | Allowed: 1 stranded or waiting on something outside KubeVirt; the end will name them.
            node01        | EXTERNAL | false | true  | false | 1 blocker keeps the drain from starting: tick "Allow stranded VMs" to drain anyway.
            node01        | BOTH     | false | true  | false | 2 blockers keep the drain from starting: tick "Allow stranded VMs" to drain anyway.
            node01,node02 | STRANDED | false | true  | false | 1 blocker keeps the drain from starting: tick "Allow stranded VMs" to drain anyway.
            node01,node02 | STRANDED | true  | true  | true  | Allowed: 1 stranded or waiting on something outside KubeVirt; the end will name them.
            """)
    void blockersNeedAllowStrandedTicked(String nodes, String blockers, boolean allow, boolean blocked, boolean enabled, String status) {
        DrainDialogModel model = model(nodes);
        List<Blocker> list = switch (blockers) {
            case "NONE" -> List.of();
            case "STRANDED" -> List.of(WORKER);
            case "EXTERNAL" -> List.of(APPLIANCE);
            default -> List.of(WORKER, APPLIANCE);
        };
        List<DrainPreview> answer = new ArrayList<>();
        for (String node : nodes.split(",")) {
            // The last node carries the blockers.
            answer.add(new DrainPreview(node, List.of(new PodPreview("demo", "p0", "uid0", PodOutcome.EVICTED_VMI_REPLACED,
                    "because", null, null, null)), List.of(), nodes.endsWith(node) ? list : List.of()));
        }
        backend.answerPreview(0, answer.toArray(DrainPreview[]::new));
        model.allowStranded().set(allow);

        assertThat(model.blocked().get()).as("the box shows").isEqualTo(blocked);
        assertThat(model.startDisabled().get()).isEqualTo(!enabled);
        assertThat(model.status().get()).isEqualTo(status);
        String prefix = nodes.contains(",") ? "node02: " : "";
        if (blocked) {
            assertThat(model.problems().getFirst()).endsWith(": the drain does not start unless \"Allow stranded VMs\" is ticked.");
            assertThat(model.problems()).contains(prefix + "VirtualMachineInstance demo/" + list.getFirst().name() + ": "
                    + list.getFirst().reason());
        } else {
            assertThat(model.problems()).isEmpty();
        }
        model.start();
        assertThat(backend.drains).hasSize(enabled ? 1 : 0);
        if (enabled) {
            assertThat(backend.drains.getFirst().options().allowStranded()).isEqualTo(allow);
        }
    }

    private static final Blocker WORKER = new Blocker("VirtualMachineInstance", "demo", "workers-1",
            "its replacement has nowhere to run: 0/4 nodes are available: 1 node(s) were unschedulable, "
                    + "3 node(s) didn't match Pod's node affinity/selector.");
    private static final Blocker APPLIANCE = new Blocker("VirtualMachineInstance", "demo", "appliance",
            "eviction strategy External: the drain marks VMI appliance for evacuation and waits", Blocker.Cause.EXTERNAL);

    @Test
    void aDrainThatLeftVmsStrandedIsNeverADrainedEnd() {
        DrainDialogModel model = running("node03");
        FakeRun run = backend.started(0);
        DrainResult result = new DrainResult("node03", DrainResult.Status.DRAINED,
                "node node03 drained: all 4 evicted pods are gone; 1 VMI has nowhere to run: demo/workers-1", List.of(), List.of(WORKER));

        run.end(result);

        assertThat(model.endState().get()).isEqualTo(EndState.STRANDED);
        assertThat(DrainSummary.endTone(EndState.STRANDED)).isNotEqualTo(DrainSummary.endTone(EndState.DRAINED));
        assertThat(model.endText().get()).isEqualTo("Drained, but not everything has somewhere to run.\n"
                + "node03: node node03 drained: all 4 evicted pods are gone; 1 VMI has nowhere to run: demo/workers-1");
        assertThat(ended).containsExactly(EndState.STRANDED);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            node01        | ''
            node01,node02 | 'node02: '
            """)
    void kubectlsRefusalsAreListedWithTheBoxToTick(String nodes, String prefix) {
        DrainDialogModel model = model(nodes);
        List<DrainPreview> answer = new ArrayList<>();
        for (String node : nodes.split(",")) {
            answer.add(preview(node, "EVICTED", node.equals("node01") && nodes.contains(",") ? "NONE" : "DAEMONSETS"));
        }

        backend.answerPreview(0, answer.toArray(DrainPreview[]::new));

        String refusal = DrainPreview.DAEMONSET_FATAL + ": demo/p0";
        assertThat(model.problems()).containsExactly(prefix + refusal + "\nTick “Ignore DaemonSets” to leave these pods on the node.");
        assertThat(model.startDisabled().get()).isTrue();
    }

    @ParameterizedTest(name = "[{index}] wrapped {0}")
    @ValueSource(booleans = {false, true})
    void aPreviewThatCannotBeReadSaysSoInTheApiServersWords(boolean wrapped) {
        DrainDialogModel model = model("node01");
        String message = "nodes \"node01\" is forbidden: User \"dev\" cannot list pods";
        RuntimeException error = new IllegalStateException(message);

        backend.previews.getFirst().answer().completeExceptionally(wrapped ? new CompletionException(error) : error);

        assertThat(model.problems()).containsExactly(message);
        assertThat(model.status().get()).isEqualTo("The preview could not be read.");
        assertThat(model.startDisabled().get()).isTrue();
        assertThat(model.previewRows()).isEmpty();
    }

    @ParameterizedTest(name = "[{index}] {0} asks a new preview: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ignoreDaemonSets   | true
            deleteEmptyDirData | true
            force              | true
            podSelector        | true
            externalHandled    | true
            gracePeriod        | false
            timeout            | false
            allowStranded      | false
            """)
    void onlyTheOptionsThePreviewDependsOnAskItAgain(String option, boolean asks) {
        DrainDialogModel model = model("node01");
        backend.answerPreview(0, preview("node01", "EVICTED,EVICTED", "NONE"));

        switch (option) {
            case "ignoreDaemonSets" -> model.ignoreDaemonSets().set(true);
            case "deleteEmptyDirData" -> model.deleteEmptyDirData().set(true);
            case "force" -> model.force().set(true);
            case "podSelector" -> model.podSelector().set("app=web");
            case "gracePeriod" -> model.gracePeriod().set(30);
            case "timeout" -> model.timeout().set("5m");
            case "allowStranded" -> model.allowStranded().set(true);
            case "externalHandled" -> model.externalHandled().set(true);
            default -> throw new IllegalArgumentException(option);
        }

        assertThat(backend.previews).hasSize(asks ? 2 : 1);
        assertThat(model.startDisabled().get()).as("a new preview is being read").isEqualTo(asks);
        if (asks) {
            DrainOptions asked = backend.previews.getLast().options();
            assertThat(List.of(asked.ignoreDaemonSets(), asked.deleteEmptyDirData(), asked.force(), !asked.podSelector().isEmpty(),
                    asked.externalHandled()))
                    .containsOnlyOnce(true);
            assertThat(model.status().get()).isEqualTo("Reading the node's pods…");
        } else {
            assertThat(model.status().get()).isEqualTo(READY_TWO);
        }
    }

    @Test
    void changesInQuickSuccessionAskOnePreviewOnceTheOptionsStandStill() {
        List<Runnable> pending = new ArrayList<>();
        DrainDialogModel model = model("node01", Runnable::run, pending::add);
        backend.answerPreview(0, preview("node01", "EVICTED", "NONE"));

        model.ignoreDaemonSets().set(true);
        model.force().set(true);
        model.podSelector().set("app=web");
        assertThat(backend.previews).hasSize(1);

        pending.getLast().run();
        assertThat(backend.previews).hasSize(2);
        assertThat(backend.previews.getLast().options()).isEqualTo(DrainOptions.defaults()
                .withIgnoreDaemonSets(true).withForce(true).withPodSelector("app=web"));
    }

    @Test
    void aLateAnswerToAnOlderPreviewIsDropped() {
        DrainDialogModel model = model("node01");
        model.ignoreDaemonSets().set(true);

        backend.answerPreview(1, preview("node01", "EVICTED,SKIPPED_DAEMONSET", "NONE"));
        backend.answerPreview(0, preview("node01", "EVICTED,NEEDS_IGNORE_DAEMONSETS", "DAEMONSETS"));

        assertThat(model.problems()).isEmpty();
        assertThat(model.previewRows()).extracting(PodLine::outcome).containsExactly(PodOutcome.EVICTED, PodOutcome.SKIPPED_DAEMONSET);
        assertThat(model.status().get()).isEqualTo("Ready: 1 pods to evict.");
        assertThat(model.startDisabled().get()).isFalse();
    }

    @ParameterizedTest(name = "[{index}] ''{0}'' usable {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''     | true
            0      | true
            90s    | true
            1h30m  | true
            5 m    | false
            soon   | false
            -1s    | false
            """)
    void aTimeoutThatIsNotADurationKeepsDrainDisabledAndSaysWhy(String text, boolean usable) {
        DrainDialogModel model = model("node01");
        backend.answerPreview(0, preview("node01", "EVICTED,EVICTED", "NONE"));

        model.timeout().set(text);

        assertThat(model.timeoutProblem().get()).isEqualTo(usable ? "" : "not a duration (e.g. 90s, 5m)");
        assertThat(model.startDisabled().get()).isEqualTo(!usable);
        assertThat(model.options()).isEqualTo(usable ? Optional.of(DrainOptions.defaults()
                .withTimeout(DrainSummary.parseTimeout(text).orElseThrow())) : Optional.empty());
        model.start();
        assertThat(backend.drains).hasSize(usable ? 1 : 0);

        model.timeout().set("");
        assertThat(model.timeoutProblem().get()).isEmpty();
    }

    @Test
    void aTimeoutBeingTypedDoesNotUntickTheBoxesThePreviewIsReadWith() {
        DrainDialogModel model = model("node01");
        model.timeout().set("5 m");

        model.ignoreDaemonSets().set(true);

        assertThat(backend.previews.getLast().options()).isEqualTo(DrainOptions.defaults().withIgnoreDaemonSets(true));
    }

    @Test
    void losingAccessAfterThePreviewDisablesDrainAndSaysWhy() {
        DrainDialogModel model = model("node01");
        backend.answerPreview(0, preview("node01", "EVICTED,EVICTED", "NONE"));
        assertThat(model.startDisabled().get()).isFalse();

        access.set(decision(AccessDecision.State.DENIED));
        assertThat(model.startDisabled().get()).isTrue();
        assertThat(model.status().get()).isEqualTo("Not allowed: your credentials may not patch nodes");

        access.set(AccessDecision.ALLOWED);
        assertThat(model.startDisabled().get()).isFalse();
    }

    // ---- running

    @Test
    void drainingUsesTheOptionsAsChosenAndOffersCancelOnceItRuns() {
        DrainDialogModel model = model("node01,node02");
        model.ignoreDaemonSets().set(true);
        model.deleteEmptyDirData().set(true);
        model.gracePeriod().set(30);
        model.timeout().set("5m");
        backend.answerPreview(backend.previews.size() - 1, preview("node01", "EVICTED", "NONE"), preview("node02", "EVICTED", "NONE"));

        model.start();

        assertThat(backend.drains).singleElement().satisfies(call -> {
            assertThat(call.nodes()).containsExactly("node01", "node02");
            assertThat(call.options()).isEqualTo(DrainOptions.defaults().withIgnoreDaemonSets(true)
                    .withDeleteEmptyDirData(true).withGracePeriodSeconds(30).withTimeout(Duration.ofMinutes(5)));
        });
        assertThat(model.stage().get()).isEqualTo(Stage.RUNNING);
        assertThat(model.running()).isTrue();
        assertThat(model.subtitle().get()).startsWith("Draining: pods are evicted through the eviction API");
        assertThat(model.status().get()).isEqualTo("Starting…");
        assertThat(model.cancelRunDisabled().get()).as("nothing to cancel until the drains have started").isTrue();
        assertThat(model.nodeStatuses()).containsExactly(NodeStatus.starting("node01"), NodeStatus.starting("node02"));

        FakeRun run = backend.started(0);

        assertThat(model.cancelRunDisabled().get()).isFalse();
        assertThat(model.status().get()).isEqualTo("Draining. Hide keeps it running; you are told when it ends.");
        model.start();
        assertThat(backend.drains).as("a second press starts nothing").hasSize(1);
        assertThat(run.cancels).isZero();
    }

    @Test
    void progressHeardOnTheDrainsThreadsIsPostedToTheUiThreadNewestFirstOncePerTurn() {
        ArrayDeque<Runnable> uiTurn = new ArrayDeque<>();
        DrainDialogModel model = model("node01,node02", uiTurn::add, Runnable::run);
        runAll(uiTurn);
        backend.answerPreview(0, preview("node01", "EVICTED", "NONE"), preview("node02", "EVICTED", "NONE"));
        runAll(uiTurn);
        model.start();
        DrainListener listener = backend.drains.getFirst().listener();

        listener.onProgress(progress("node02", DrainProgress.Phase.EVICTING, PodState.EVICTING));
        listener.onProgress(progress("node02", DrainProgress.Phase.EVICTING, PodState.GONE));
        listener.onProgress(progress("node01", DrainProgress.Phase.CORDONING));

        assertThat(uiTurn).as("one repaint for three snapshots").hasSize(1);
        assertThat(model.progressRows()).as("nothing changes off the UI thread").isEmpty();
        runAll(uiTurn);
        assertThat(model.progressRows()).extracting(PodLine::node, PodLine::state)
                .containsExactly(tuple("node02", PodState.GONE));
        assertThat(model.nodeStatuses()).extracting(NodeStatus::state).containsExactly("Cordoning", "Draining");
        assertThat(model.nodeStatuses().get(1).fraction()).isEqualTo(1.0);
    }

    @Test
    void whileItRunsEachWaitingPodSaysWhyAndTheTimeLeftIsShown() {
        DrainDialogModel model = running("node01");
        backend.started(0);
        PodPreview migrating = new PodPreview("demo", "virt-launcher-db-x", "uid", PodOutcome.LIVE_MIGRATION, "migrates", "db", null, null);
        PodPreview external = new PodPreview("demo", "virt-launcher-app-y", "uid2", PodOutcome.EXTERNAL_EVACUATION, "external", "app", null, null);
        DrainPreview preview = new DrainPreview("node01", List.of(migrating, external), List.of());
        backend.drains.getFirst().listener().onProgress(new DrainProgress("node01", DrainProgress.Phase.EVICTING, preview, List.of(
                new PodProgress("demo", migrating.name(), "uid", PodState.WAITING_FOR_MIGRATION, 2, 429, "Eviction triggered evacuation", migrating, Instant.now()),
                new PodProgress("demo", external.name(), "uid2", PodState.WAITING_FOR_MIGRATION, 2, 429, "Eviction triggered evacuation", external, Instant.now())),
                Instant.now(), Optional.empty()));
        assertThat(model.timeLeft().get()).isEmpty();

        model.refreshWaits();
        model.refreshWaits();
        assertThat(backend.waits).as("one question out at a time").hasSize(1);
        assertThat(backend.waits.getFirst().previews()).containsExactly(preview);
        backend.waits.getFirst().answer().complete(new DrainWaits(Map.of("demo/db",
                new WhyPendingDecision.Why(WhyPendingDecision.Kind.CLUSTER_LIMIT, "5 of 5 migrations in the cluster in use", null)), 160));

        assertThat(model.timeLeft().get()).isEqualTo("Live migrations: ~2 min 40 s left");
        assertThat(model.progressRows()).extracting(PodLine::pod, PodLine::lastAnswer).containsExactly(
                tuple("demo/virt-launcher-db-x", "Migration waits: 5 of 5 migrations in the cluster in use"),
                tuple("demo/virt-launcher-app-y", "waiting for something outside KubeVirt to remove VMI app (strategy External)"));
    }

    @Test
    void afterACancelTheMarksLeftAreListedAndClearedWithOneAction() {
        DrainDialogModel model = running("node01");
        FakeRun run = backend.started(0);
        backend.marked = List.of("demo/db", "demo/web");
        model.cancelDrain();
        run.end(result("node01", DrainResult.Status.CANCELLED));

        assertThat(model.marked()).containsExactly("demo/db", "demo/web");
        assertThat(model.marksText().get()).isEqualTo("2 VMIs are still marked for evacuation (KubeVirt keeps migrating "
                + "them while marked): demo/db, demo/web");
        model.clearEvacuationMarks();
        assertThat(backend.cleared).containsExactly(List.of("node01"));
        assertThat(model.marked()).isEmpty();
        assertThat(model.marksText().get()).isEqualTo("virtualmachineinstance/db evacuation from node node01 cancelled\n"
                + "virtualmachineinstance/web evacuation from node node01 cancelled");
    }

    @Test
    void anEndAfterTheConnectionClosedStillEnds() {
        DrainDialogModel model = running("node01");
        backend.closed = true;
        backend.started(0).end(result("node01", DrainResult.Status.CANCELLED));
        assertThat(model.endState().get()).isEqualTo(EndState.CANCELLED);
        assertThat(model.marked()).isEmpty();
        assertThat(ended).containsExactly(EndState.CANCELLED);
    }

    @Test
    void aDrainedEndAsksForNoMarks() {
        DrainDialogModel model = running("node01");
        backend.marked = List.of("demo/db");
        backend.started(0).end(result("node01", DrainResult.Status.DRAINED));
        assertThat(model.marked()).isEmpty();
        assertThat(model.marksText().get()).isEmpty();
    }

    @Test
    void cancelAsksEveryDrainToStopAndTheEndSaysTheNodesStayCordoned() {
        DrainDialogModel model = running("node01,node02");
        FakeRun run = backend.started(0);

        model.cancelDrain();

        assertThat(run.cancels).isEqualTo(1);
        assertThat(model.cancelRunDisabled().get()).isTrue();
        assertThat(model.status().get()).isEqualTo("Cancelling… evictions already accepted stand; the nodes stay cordoned.");
        run.end(result("node01", DrainResult.Status.CANCELLED), result("node02", DrainResult.Status.CANCELLED));
        assertThat(model.endState().get()).isEqualTo(EndState.CANCELLED);
        assertThat(model.endText().get()).startsWith("Drain cancelled: the nodes stay cordoned.");
    }

    @Test
    void closingTheConnectionCancelsOnlyADrainThatRuns() {
        DrainDialogModel model = model("node01");
        backend.answerPreview(0, preview("node01", "EVICTED", "NONE"));
        model.cancelRunning();
        model.start();
        FakeRun run = backend.started(0);

        model.cancelRunning();
        assertThat(run.cancels).isEqualTo(1);

        run.end(result("node01", DrainResult.Status.CANCELLED));
        model.cancelRunning();
        assertThat(run.cancels).isEqualTo(1);
        assertThat(model.running()).isFalse();
    }

    // ---- end states

    /** Several nodes end as the worst of them; the banner names each node that did not drain, and why. */
    @ParameterizedTest(name = "[{index}] {0}: {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            node01        | DRAINED            | DRAINED   | node01 drained: every evicted pod is gone.
            node01        | DRY_RUN            | DRAINED   | node01 drained: every evicted pod is gone.
            node01,node02 | DRAINED,DRAINED    | DRAINED   | All 2 nodes drained.
            node01        | FAILED             | FAILED    | Drain failed.\\nnode01: why node01
            node01        | TIMED_OUT          | TIMED_OUT | Drain timed out.\\nnode01: why node01
            node01        | CANCELLED          | CANCELLED | Drain cancelled: the node stays cordoned.\\nnode01: why node01
            node01,node02 | DRAINED,FAILED     | FAILED    | Drain failed.\\nnode02: why node02
            node01,node02 | CANCELLED,TIMED_OUT| TIMED_OUT | Drain timed out.\\nnode01: why node01\\nnode02: why node02
            node01,node02 | DRAINED,CANCELLED  | CANCELLED | Drain cancelled: the nodes stay cordoned.\\nnode02: why node02
            """)
    void theEndSaysHowItEndedAndNeverDrainedAfterAFailure(String nodes, String statuses, EndState state, String text) {
        DrainDialogModel model = running(nodes);
        FakeRun run = backend.started(0);
        String[] names = nodes.split(",");
        String[] each = statuses.split(",");
        DrainResult[] results = new DrainResult[names.length];
        for (int i = 0; i < names.length; i++) {
            results[i] = result(names[i], DrainResult.Status.valueOf(each[i]));
        }

        run.end(results);

        assertThat(model.stage().get()).isEqualTo(Stage.ENDED);
        assertThat(model.endState().get()).isEqualTo(state);
        assertThat(model.endText().get()).isEqualTo(text.replace("\\n", "\n"));
        assertThat(model.title().get()).isEqualTo(DrainDialogModel.title(List.of(names)) + " — " + state.label().toLowerCase());
        assertThat(model.status().get()).isEmpty();
        assertThat(model.running()).isFalse();
        assertThat(ended).containsExactly(state);
        assertThat(endedResults).containsExactly(List.of(results));
    }

    @Test
    void aDrainThatCannotStartEndsFailedWithTheApiServersMessageForEachNode() {
        DrainDialogModel model = running("node01,node02");

        backend.drains.getFirst().started().completeExceptionally(
                new CompletionException(new IllegalStateException("nodes \"node02\" not found")));

        assertThat(model.endState().get()).isEqualTo(EndState.FAILED);
        assertThat(model.endText().get()).isEqualTo("Drain failed.\nnode01: could not start: nodes \"node02\" not found"
                + "\nnode02: could not start: nodes \"node02\" not found");
        assertThat(ended).containsExactly(EndState.FAILED);
        assertThat(endedResults.getFirst()).extracting(DrainResult::node, DrainResult::status).containsExactly(
                tuple("node01", DrainResult.Status.FAILED),
                tuple("node02", DrainResult.Status.FAILED));
    }

    @Test
    void anUnreachableWebhookIsToldWhileItRunsAndStaysAfterTheEnd() {
        webhook = new WebhookStatus(true, "https://198.51.100.7:40123/launcher-eviction-validate", 0, 0, true, "");
        DrainDialogModel model = running("node01");
        FakeRun run = backend.started(0);
        assertThat(model.webhookHint().get()).isEmpty();

        PodPreview launcher = new PodPreview("demo", "virt-launcher-db-x", "uid", PodOutcome.LIVE_MIGRATION, "migrates", "db", "demo/db", null);
        PodProgress held = new PodProgress("demo", "virt-launcher-db-x", "uid", PodState.BLOCKED, 3, 429,
                DrainPreview.BUDGET_VIOLATION + " The disruption budget db needs 1 healthy pods", launcher, Instant.now());
        backend.drains.getFirst().listener().onProgress(new DrainProgress("node01", DrainProgress.Phase.EVICTING, null,
                List.of(held), Instant.now(), Optional.empty()));

        assertThat(model.webhookHint().get()).contains("https://198.51.100.7:40123", "has answered no eviction");
        assertThat(model.progressRows()).singleElement().satisfies(row ->
                assertThat(row.lastAnswer()).startsWith("429 · Cannot evict pod"));
        run.end(result("node01", DrainResult.Status.CANCELLED));
        assertThat(model.webhookHint().get()).as("it says why the drain did not get on").isNotEmpty();
    }

    // ---- fixtures

    private DrainDialogModel running(String nodes) {
        DrainDialogModel model = model(nodes);
        backend.answerPreview(0, Arrays.stream(nodes.split(",")).map(n -> preview(n, "EVICTED", "NONE")).toArray(DrainPreview[]::new));
        model.start();
        assertThat(model.running()).isTrue();
        return model;
    }

    private static void runAll(ArrayDeque<Runnable> queue) {
        while (!queue.isEmpty()) {
            queue.poll().run();
        }
    }

    private static AccessDecision decision(AccessDecision.State state) {
        return switch (state) {
            case ALLOWED -> AccessDecision.ALLOWED;
            case CHECKING -> AccessDecision.CHECKING;
            case DENIED -> new AccessDecision(state, "Not allowed: your credentials may not patch nodes");
            case UNKNOWN -> new AccessDecision(state, "Could not check whether you may patch nodes: 404");
        };
    }

    /** Pods p0, p1… with these outcomes; errors NONE, or DAEMONSETS (kubectl's refusal naming p0). */
    private static DrainPreview preview(String node, String outcomes, String errors) {
        List<PodPreview> pods = new ArrayList<>();
        String[] each = outcomes.split(",");
        for (int i = 0; i < each.length; i++) {
            pods.add(new PodPreview("demo", "p" + i, "uid" + i, PodOutcome.valueOf(each[i]), "because " + i, null, null, null));
        }
        return new DrainPreview(node, pods, errors.equals("NONE") ? List.of() : List.of(DrainPreview.DAEMONSET_FATAL + ": demo/p0"));
    }

    private static DrainProgress progress(String node, DrainProgress.Phase phase, PodState... states) {
        List<PodProgress> pods = new ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            PodPreview preview = new PodPreview("demo", "p" + i, "uid" + i, PodOutcome.EVICTED, "evicted", null, null, null);
            pods.add(new PodProgress("demo", "p" + i, "uid" + i, states[i], 1, 201, "", preview, Instant.now()));
        }
        return new DrainProgress(node, phase, null, pods, Instant.now(), Optional.empty());
    }

    private static DrainResult result(String node, DrainResult.Status status) {
        return new DrainResult(node, status, "why " + node, List.of());
    }

    /** Records every call; a test answers them by hand, on its own thread. */
    static final class FakeBackend implements DrainBackend {
        record PreviewCall(List<String> nodes, DrainOptions options, CompletableFuture<List<DrainPreview>> answer) {
        }

        record DrainCall(List<String> nodes, DrainOptions options, DrainListener listener, CompletableFuture<Run> started) {
        }

        record WaitsCall(List<DrainPreview> previews, CompletableFuture<DrainWaits> answer) {
        }

        final List<PreviewCall> previews = new ArrayList<>();
        final List<DrainCall> drains = new ArrayList<>();
        final List<WaitsCall> waits = new ArrayList<>();
        final List<List<String>> cleared = new ArrayList<>();
        List<String> marked = List.of();
        boolean closed;

        @Override
        public CompletableFuture<DrainWaits> waits(List<DrainPreview> previews) {
            WaitsCall call = new WaitsCall(previews, new CompletableFuture<>());
            waits.add(call);
            return call.answer();
        }

        @Override
        public CompletableFuture<List<String>> markedForEvacuation(List<String> nodes) {
            if (closed) {
                throw new java.util.concurrent.RejectedExecutionException("executor terminated");
            }
            return CompletableFuture.completedFuture(marked);
        }

        @Override
        public CompletableFuture<List<String>> clearEvacuationMarks(List<String> nodes) {
            cleared.add(nodes);
            return CompletableFuture.completedFuture(marked.stream().map(k -> "virtualmachineinstance/" + k.substring(k.indexOf('/') + 1)
                    + " evacuation from node " + nodes.getFirst() + " cancelled").toList());
        }

        @Override
        public CompletableFuture<List<DrainPreview>> preview(List<String> nodes, DrainOptions options) {
            PreviewCall call = new PreviewCall(nodes, options, new CompletableFuture<>());
            previews.add(call);
            return call.answer();
        }

        @Override
        public CompletableFuture<Run> drain(List<String> nodes, DrainOptions options, DrainListener listener) {
            DrainCall call = new DrainCall(nodes, options, listener, new CompletableFuture<>());
            drains.add(call);
            return call.started();
        }

        void answerPreview(int call, DrainPreview... previews) {
            this.previews.get(call).answer().complete(List.of(previews));
        }

        FakeRun started(int call) {
            FakeRun run = new FakeRun();
            drains.get(call).started().complete(run);
            return run;
        }
    }

    static final class FakeRun implements DrainBackend.Run {
        final CompletableFuture<List<DrainResult>> ended = new CompletableFuture<>();
        int cancels;

        @Override
        public void cancel() {
            cancels++;
        }

        @Override
        public CompletableFuture<List<DrainResult>> ended() {
            return ended;
        }

        void end(DrainResult... results) {
            ended.complete(List.of(results));
        }
    }
}
