package dev.drainboard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The shared rules catch what they are written for: each is evaluated on a few fixture classes (src/test, in the
 * packages the rules name, under {@code archfixture}) that break it on purpose, next to ones that keep it.
 */
@DisplayName("the shared architecture rules report violations")
class CommonArchitectureRulesTest {

    private static final JavaClasses FIXTURES = new ClassFileImporter().importPackages(
            "dev.drainboard.controller.archfixture", "dev.drainboard.cluster.archfixture",
            "dev.drainboard.scheduling.archfixture", "dev.drainboard.ui.archfixture");

    private static List<String> violations(ArchRule rule) {
        EvaluationResult result = rule.evaluate(FIXTURES);
        return result.getFailureReport().getDetails();
    }

    @Test
    @DisplayName("the fixtures were imported")
    void fixturesImported() {
        assertThat(FIXTURES.contain("dev.drainboard.controller.archfixture.ReachesIntoTheCluster")).isTrue();
        assertThat(FIXTURES.contain("dev.drainboard.scheduling.archfixture.ImpureDecision$Timer")).isTrue();
    }

    @Test
    @DisplayName("a controller using the embedded cluster's classes")
    void controlPlaneUsingTheEmbeddedCluster() {
        assertThat(violations(CommonArchitectureTest.controlPlaneDoesNotUseTheEmbeddedCluster))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("ReachesIntoTheCluster").contains("ClusterInternals"));
    }

    @Test
    @DisplayName("the embedded cluster calling a controller")
    void embeddedClusterCallingTheControlPlane() {
        assertThat(violations(CommonArchitectureTest.embeddedClusterDoesNotCallTheControlPlane))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("CallsAController").contains("SomeController"));
    }

    @Test
    @DisplayName("common code depending on a controller")
    void commonDependingOnTheControlPlane() {
        assertThat(violations(CommonArchitectureTest.commonDependsOnNeitherSide))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("ImpureDecision").contains("SomeController"));
    }

    @Test
    @DisplayName("two top-level packages using each other")
    void packageCycle() {
        assertThat(violations(CommonArchitectureTest.topLevelPackagesAreFreeOfCycles))
                .singleElement().asString()
                .contains("Cycle detected").contains("Slice cluster").contains("Slice controller");
    }

    @Test
    @DisplayName("a @Pure class using the Kubernetes client")
    void pureClassUsingTheClient() {
        assertThat(violations(CommonArchitectureTest.pureClassesUseNoKubernetesClient))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("ImpureDecision").contains("io.fabric8.kubernetes.client"));
    }

    @Test
    @DisplayName("a @Pure class, or a class nested in one, reading the clock")
    void pureClassReadingTheClock() {
        assertThat(violations(CommonArchitectureTest.pureClassesReadNoClock))
                .anySatisfy(v -> assertThat(v).contains("ImpureDecision.expired").contains("Instant.now()"))
                .anySatisfy(v -> assertThat(v).contains("ImpureDecision$Timer").contains("System.nanoTime()"))
                .noneSatisfy(v -> assertThat(v).contains("GoodDecision"));
    }

    @Test
    @DisplayName("a *Decision class without @Pure")
    void decisionWithoutTheMark() {
        assertThat(violations(CommonArchitectureTest.decisionsArePure))
                .singleElement().asString().contains("UnmarkedDecision");
    }

    @Test
    @DisplayName("a view reading fabric8 objects")
    void viewUsingFabric8() {
        assertThat(violations(CommonArchitectureTest.viewsDoNotTouchFabric8))
                .isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("NodeTile").contains("io.fabric8.kubernetes.api.model.Node"));
    }

    @Test
    @DisplayName("rules whose subjects are absent have nothing to report")
    void absentSubjectsPass() {
        assertThat(CommonArchitectureTest.viewsDoNotCallBlockingOps.evaluate(FIXTURES).hasViolation()).isFalse();
        assertThat(CommonArchitectureTest.theModelDoesNotKnowTheViews.evaluate(FIXTURES).hasViolation()).isFalse();
    }
}
