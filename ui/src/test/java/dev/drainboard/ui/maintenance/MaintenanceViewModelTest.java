package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenanceRequest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The view's logic without FX: the backend is a fake whose answers the test hands out. */
class MaintenanceViewModelTest {

    /** Keeps every request; answers only when told to. */
    static final class FakeBackend implements MaintenanceBackend {
        final List<MaintenanceRequest> previews = new ArrayList<>();
        final List<CompletableFuture<MaintenancePlanRow>> previewAnswers = new ArrayList<>();
        final List<MaintenanceRequest> created = new ArrayList<>();
        final List<String> actions = new ArrayList<>();
        List<MaintenancePlanRow> plans = List.of();
        String readOnly = "";
        String refuseCreate;

        @Override
        public CompletableFuture<List<MaintenancePlanRow>> plans() {
            return CompletableFuture.completedFuture(plans);
        }

        @Override
        public CompletableFuture<MaintenancePlanRow> preview(MaintenanceRequest request) {
            previews.add(request);
            CompletableFuture<MaintenancePlanRow> answer = new CompletableFuture<>();
            previewAnswers.add(answer);
            return answer;
        }

        @Override
        public CompletableFuture<String> create(MaintenanceRequest request) {
            if (refuseCreate != null) {
                return CompletableFuture.failedFuture(new IllegalStateException(refuseCreate));
            }
            created.add(request);
            plans = List.of(Plans.running("maintenance-x1"));
            return CompletableFuture.completedFuture("maintenance-x1");
        }

        @Override
        public CompletableFuture<Void> setAction(String plan, String action) {
            actions.add(plan + "=" + action);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String readOnlyReason() {
            return readOnly;
        }
    }

    private final FakeBackend backend = new FakeBackend();
    private final MaintenanceViewModel model = new MaintenanceViewModel(backend);

    @Test
    void anEmptyDraftAsksNothingAndSaysWhatIsMissing() {
        assertThat(backend.previews).isEmpty();
        assertThat(model.problems().get()).containsExactly("Pick the nodes to maintain, or give a label selector.");
        assertThat(model.shown().get()).isNull();
        assertThat(model.canRun().get()).isFalse();
    }

    @Test
    void everyChangeAsksThePlannerAndOnlyTheLatestAnswerIsShown() {
        model.draftNodes().setAll("node01", "node02");
        model.maxUnavailable().set(2);
        assertThat(backend.previews).hasSize(2);
        assertThat(backend.previews.getLast()).isEqualTo(new MaintenanceRequest(List.of("node01", "node02"), "", 2, "None", "10m", ""));
        backend.previewAnswers.getLast().complete(Plans.preview());
        backend.previewAnswers.getFirst().complete(Plans.running("stale")); // the older answer, late: ignored
        assertThat(model.shown().get()).isEqualTo(Plans.preview());
        assertThat(model.canRun().get()).isTrue();
    }

    @Test
    void theSelectorReplacesTheListAndThePlannersRefusalIsShownVerbatim() {
        model.draftNodes().setAll("node01");
        model.bySelector().set(true);
        assertThat(model.problems().get()).isNotEmpty(); // no selector yet
        model.selector().set(" pool in (a ");
        assertThat(backend.previews.getLast().nodes()).isEmpty();
        assertThat(backend.previews.getLast().selector()).isEqualTo("pool in (a");
        backend.previewAnswers.getLast().completeExceptionally(new IllegalStateException("invalid node selector \"pool in (a\": unable to parse"));
        assertThat(model.previewProblem().get()).isEqualTo("invalid node selector \"pool in (a\": unable to parse");
        assertThat(model.shown().get()).isNull();
        assertThat(model.canRun().get()).isFalse();
    }

    @Test
    void aBadPauseIsAProblemAndTheStalePreviewGoes() {
        model.draftNodes().setAll("node01");
        backend.previewAnswers.getLast().complete(Plans.preview());
        model.afterDrain().set("Pause");
        model.pause().set("ten minutes");
        assertThat(model.problems().get()).singleElement().asString().contains("not a duration");
        assertThat(model.preview().get()).isNull();
        assertThat(model.canRun().get()).isFalse();
    }

    @Test
    void runCreatesThePlanAndSelectsIt() {
        model.draftNodes().setAll("node01", "node02");
        model.afterDrain().set("WaitForAnnotation");
        model.annotation().set("example.com/upgraded");
        backend.previewAnswers.getLast().complete(Plans.preview());
        String name = model.run().join();
        assertThat(name).isEqualTo("maintenance-x1");
        assertThat(backend.created).containsExactly(new MaintenanceRequest(List.of("node01", "node02"), "", 1,
                "WaitForAnnotation", "10m", "example.com/upgraded"));
        assertThat(model.selected().get()).isEqualTo("maintenance-x1");
        assertThat(model.shown().get().name()).isEqualTo("maintenance-x1");
        assertThat(model.canPause().get()).isTrue();
        assertThat(model.canResume().get()).isFalse();
    }

    @Test
    void aRefusedRunSaysWhyAndKeepsTheDraft() {
        backend.refuseCreate = "maintenanceplans: forbidden";
        model.draftNodes().setAll("node01");
        backend.previewAnswers.getLast().complete(Plans.preview());
        assertThat(model.run().join()).isNull();
        assertThat(model.notice().get()).isEqualTo("The plan was not created: maintenanceplans: forbidden");
        assertThat(model.selected().get()).isNull();
        assertThat(model.draftNodes()).containsExactly("node01");
    }

    @Test
    void observeModeRunsNothing() {
        backend.readOnly = "Observe mode: this console changes nothing";
        model.draftNodes().setAll("node01");
        backend.previewAnswers.getLast().complete(Plans.preview());
        assertThat(model.canRun().get()).isFalse();
        assertThat(model.run().join()).isNull();
        backend.plans = List.of(Plans.running("p"));
        model.refresh().join();
        model.selected().set("p");
        assertThat(model.canPause().get()).isFalse();
        assertThat(model.canAbort().get()).isFalse();
        assertThat(backend.created).isEmpty();
    }

    @Test
    void pauseResumeAndAbortPatchTheActionTheirPhaseAllows() {
        backend.plans = List.of(Plans.running("p"));
        model.refresh().join();
        model.selected().set("p");
        assertThat(model.canResume().get()).isFalse();
        model.resume().join();
        assertThat(backend.actions).isEmpty(); // not paused: nothing to resume
        model.pausePlan().join();
        assertThat(backend.actions).containsExactly("p=Pause");

        backend.plans = List.of(Plans.plan("p", "Paused", "Pause", Plans.T0, null, 1, Plans.running("p").nodes()));
        model.refresh().join();
        assertThat(model.canPause().get()).isFalse();
        assertThat(model.canResume().get()).isTrue();
        model.resume().join();
        model.abort().join();
        assertThat(backend.actions).containsExactly("p=Pause", "p=Run", "p=Abort");

        backend.plans = List.of(Plans.plan("p", "Aborted", "Abort", Plans.T0, Plans.T0.plusSeconds(30), 1, Plans.running("p").nodes()));
        model.refresh().join();
        assertThat(model.canAbort().get()).isFalse();
        assertThat(model.canPause().get()).isFalse();
    }

    @Test
    void refreshKeepsTheSelectionAndADeletedPlanGoesBackToTheDraft() {
        backend.plans = List.of(Plans.running("old"), Plans.running("p"));
        model.refresh().join();
        model.selected().set("p");
        var before = model.shown().get();
        backend.plans = List.of(Plans.running("new"), Plans.running("old"), Plans.plan("p", "Paused", "Pause", Plans.T0, null, 1, List.of()));
        model.refresh().join();
        assertThat(model.plans()).extracting(MaintenancePlanRow::name).containsExactly("new", "old", "p");
        assertThat(model.selected().get()).isEqualTo("p");
        assertThat(model.shown().get()).isNotEqualTo(before);
        assertThat(model.shown().get().phase()).isEqualTo("Paused");
        backend.plans = List.of(Plans.running("new"));
        model.refresh().join();
        assertThat(model.selected().get()).isNull();
    }
}
