package dev.drainboard.ui;

import com.tngtech.archunit.junit.AnalyzeClasses;
import dev.drainboard.architecture.CommonArchitectureTest;

/**
 * The shared rules over the console's classes. Among them the console's own (viewsDoNotTouchFabric8,
 * viewsDoNotCallBlockingOps, viewsDoNotTouchTheEmbeddedCluster, theModelDoesNotKnowTheViews): views and view models
 * read ClusterModel; only ui.model, ui.connect and ui.actions talk to fabric8; views act only through ui.actions,
 * which runs ops' blocking calls off the FX thread.
 */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ThisModulesMainClasses.class)
class ArchitectureTest extends CommonArchitectureTest {
}
