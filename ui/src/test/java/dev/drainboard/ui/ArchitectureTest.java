package dev.drainboard.ui;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Views and view models read ClusterModel; only ui.model and ui.connect talk to fabric8. */
@AnalyzeClasses(packages = "dev.drainboard.ui", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule viewsDoNotTouchFabric8 = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.model..", "dev.drainboard.ui.connect..")
            .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
            .because("views read ClusterModel rows; fabric8 objects stay in ui.model and ui.connect");

    @ArchTest
    static final ArchRule viewsDoNotTouchTheEmbeddedCluster = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.connect..")
            .should().dependOnClassesThat().resideInAPackage("dev.drainboard.cluster..")
            .because("everything talks through the Kubernetes API");

    @ArchTest
    static final ArchRule theModelDoesNotKnowTheViews = noClasses()
            .that().resideInAnyPackage("dev.drainboard.ui.model..", "dev.drainboard.ui.connect..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.drainboard.ui.shell..", "dev.drainboard.ui.start..",
                    "dev.drainboard.ui.overview..", "dev.drainboard.ui.nodes..", "dev.drainboard.ui.vmis..",
                    "dev.drainboard.ui.events..", "dev.drainboard.ui.pdbs..", "dev.drainboard.ui.common..");
}
