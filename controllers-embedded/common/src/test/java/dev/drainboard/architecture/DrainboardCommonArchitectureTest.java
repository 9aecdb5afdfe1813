package dev.drainboard.architecture;

import com.tngtech.archunit.junit.AnalyzeClasses;

/** The shared rules over drainboard-common's classes. */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ThisModulesMainClasses.class)
class DrainboardCommonArchitectureTest extends CommonArchitectureTest {
}
