package dev.drainboard.architecture;

import com.tngtech.archunit.junit.AnalyzeClasses;

/** The shared rules over drainboard-controllers' classes. */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ThisModulesMainClasses.class)
class DrainboardControllersArchitectureTest extends CommonArchitectureTest {
}
