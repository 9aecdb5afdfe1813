package dev.drainboard.ui;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Views and view models read ClusterModel; only ui.model, ui.connect and ui.actions talk to fabric8; views act only
 * through ui.actions, which runs ops' blocking calls off the FX thread.
 */
@AnalyzeClasses(packages = "dev.drainboard.ui", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule viewsDoNotTouchFabric8 = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.model..", "dev.drainboard.ui.connect..", "dev.drainboard.ui.actions..")
            .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
            .because("views read ClusterModel rows; fabric8 objects stay in ui.model, ui.connect and ui.actions");

    @ArchTest
    static final ArchRule viewsDoNotCallBlockingOps = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.actions..")
            .should().accessClassesThat().belongToAnyOf(dev.drainboard.ops.Ops.class, dev.drainboard.ops.NodeOps.class,
                    dev.drainboard.ops.VmiOps.class, dev.drainboard.ops.PodEviction.class, dev.drainboard.ops.ReplicaSetOps.class)
            .because("ops' calls block on the API server: ClusterActions runs them off the FX thread");

    @ArchTest
    static final ArchRule viewsDoNotTouchTheEmbeddedCluster = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.connect..")
            .should().dependOnClassesThat().resideInAPackage("dev.drainboard.cluster..")
            .because("everything talks through the Kubernetes API");

    @ArchTest
    static final ArchRule theModelDoesNotKnowTheViews = noClasses()
            .that().resideInAnyPackage("dev.drainboard.ui.model..", "dev.drainboard.ui.connect..", "dev.drainboard.ui.actions..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.drainboard.ui.shell..", "dev.drainboard.ui.start..",
                    "dev.drainboard.ui.overview..", "dev.drainboard.ui.nodes..", "dev.drainboard.ui.vmis..",
                    "dev.drainboard.ui.events..", "dev.drainboard.ui.pdbs..", "dev.drainboard.ui.common..",
                    "dev.drainboard.ui.dialogs..", "dev.drainboard.ui.drain..", "dev.drainboard.ui.migrations..",
                    "dev.drainboard.ui.replicasets..");
}
