package dev.drainboard.architecture;

import com.tngtech.archunit.junit.AnalyzeClasses;

/** The shared rules over embedded-cluster's classes. */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ThisModulesMainClasses.class)
class EmbeddedClusterArchitectureTest extends CommonArchitectureTest {
}
