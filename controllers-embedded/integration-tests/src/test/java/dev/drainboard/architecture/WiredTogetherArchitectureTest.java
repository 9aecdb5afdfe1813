package dev.drainboard.architecture;

import com.tngtech.archunit.junit.AnalyzeClasses;

/** The shared rules over common, the controllers and the embedded cluster together, the one place all three are on the class path (this module has no main classes of its own). */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ProductionClasses.class)
class WiredTogetherArchitectureTest extends CommonArchitectureTest {
}
