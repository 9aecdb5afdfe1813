package dev.drainboard.benchmarks;

import com.tngtech.archunit.junit.AnalyzeClasses;
import dev.drainboard.architecture.CommonArchitectureTest;

/** The shared rules over the benchmarks' classes. */
@AnalyzeClasses(packages = "dev.drainboard", importOptions = CommonArchitectureTest.ThisModulesMainClasses.class)
class ArchitectureTest extends CommonArchitectureTest {
}
