package dev.drainboard.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The architecture rules every module checks, after JabRef's {@code CommonArchitectureTest}
 * (https://github.com/JabRef/jabref): each module has a small test class that extends this one and says which
 * classes to analyse, normally its own main classes ({@link ThisModulesMainClasses}). A rule whose subject is not in
 * a module (the UI rules in the controllers, say) has nothing to check there and passes. The layout the rules keep
 * is described in docs/architecture.md; {@code CommonArchitectureRulesTest} shows each rule reporting a violation.
 */
public abstract class CommonArchitectureTest {

    /** What the controllers and the embedded cluster share (module drainboard-common). */
    static final String[] COMMON = {"dev.drainboard.kubevirt..", "dev.drainboard.hypervisor..", "dev.drainboard.pki..",
            "dev.drainboard.units..", "dev.drainboard.scheduling..", "dev.drainboard.simulation..", "dev.drainboard.labels..",
            "dev.drainboard.admissionreview..", "dev.drainboard.validation..", "dev.drainboard.architecture.."};
    /** The KubeVirt drain control plane (module drainboard-controllers). */
    static final String[] CONTROL_PLANE = {"dev.drainboard.runtime..", "dev.drainboard.controller..",
            "dev.drainboard.admission..", "dev.drainboard.handler..", "dev.drainboard.ops..", "dev.drainboard.controlplane.."};
    /** The embedded cluster (module embedded-cluster). */
    static final String EMBEDDED_CLUSTER = "dev.drainboard.cluster..";
    /** What runs on top: the console, the command line, the benchmarks. */
    static final String[] FRONT_ENDS = {"dev.drainboard.ui..", "dev.drainboard.app..", "dev.drainboard.benchmarks.."};

    static final String PURE = "dev.drainboard.architecture.Pure";

    /** The UI's packages that may hold fabric8 objects: the cluster model, the connection, the actions. */
    static final String[] UI_MODEL = {"dev.drainboard.ui.model..", "dev.drainboard.ui.connect..", "dev.drainboard.ui.actions.."};
    /** ops' entry points that block on the API server. */
    static final String BLOCKING_OPS = "dev\\.drainboard\\.ops\\.(Ops|NodeOps|VmiOps|PodEviction|ReplicaSetOps)(\\$.*)?";

    // --- modules -------------------------------------------------------------------------------------------------

    @ArchTest
    public static final ArchRule controlPlaneDoesNotUseTheEmbeddedCluster = noClasses()
            .that().resideInAnyPackage(concat(CONTROL_PLANE, COMMON))
            .should().dependOnClassesThat().resideInAPackage(EMBEDDED_CLUSTER)
            .because("everything talks through the Kubernetes API: swap the embedded cluster for a real one and"
                    + " nothing else changes")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule embeddedClusterDoesNotCallTheControlPlane = noClasses()
            .that().resideInAPackage(EMBEDDED_CLUSTER)
            .should().dependOnClassesThat().resideInAnyPackage(CONTROL_PLANE)
            .because("the embedded cluster never calls a controller; the node handler reaches its simulated nodes"
                    + " through the hypervisor SPI in dev.drainboard.hypervisor")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule commonDependsOnNeitherSide = noClasses()
            .that().resideInAnyPackage(COMMON)
            .should().dependOnClassesThat().resideInAnyPackage(concat(CONTROL_PLANE, new String[] {EMBEDDED_CLUSTER}, FRONT_ENDS))
            .because("common is what the controllers and the embedded cluster share; what it used would tie them together")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule kubernetesLogicHasNoUi = noClasses()
            .that().resideInAnyPackage(concat(CONTROL_PLANE, COMMON, new String[] {EMBEDDED_CLUSTER}))
            .should().dependOnClassesThat().resideInAnyPackage(concat(FRONT_ENDS, new String[] {"javafx.."}))
            .because("the control plane and the embedded cluster run headless too (drainboard controllers, serve)")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule topLevelPackagesAreFreeOfCycles = slices()
            .matching("dev.drainboard.(*)..")
            .should().beFreeOfCycles()
            .because("packages depend on each other one way only, as the modules they sit in do")
            .allowEmptyShould(true);

    // --- pure decisions ------------------------------------------------------------------------------------------

    @ArchTest
    public static final ArchRule pureClassesUseNoKubernetesClient = noClasses()
            .that(arePure())
            .should().dependOnClassesThat().resideInAPackage("io.fabric8.kubernetes.client..")
            .because("decisions are pure functions: objects in, actions out; the reconcile loop around them reads the"
                    + " caches and writes")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule pureClassesReadNoClock = noClasses()
            .that(arePure())
            .should().callMethod(Instant.class, "now")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(LocalDate.class, "now")
            .orShould().callMethod(LocalTime.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().callMethod(OffsetDateTime.class, "now")
            .orShould().callMethod(ZonedDateTime.class, "now")
            .because("a decision is given \"now\", so its table rows give the same answer every time they run")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule decisionsArePure = classes()
            .that().haveSimpleNameEndingWith("Decision")
            .and().areTopLevelClasses()
            .and().resideInAnyPackage(concat(CONTROL_PLANE, COMMON, new String[] {EMBEDDED_CLUSTER}))
            .should().beAnnotatedWith(PURE)
            .because("each controller splits into a pure decision, tested by tables, and a thin reconcile loop;"
                    + " @Pure lets the two rules above hold the decision to that")
            .allowEmptyShould(true);

    // --- the console ---------------------------------------------------------------------------------------------

    @ArchTest
    public static final ArchRule viewsDoNotTouchFabric8 = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages(UI_MODEL)
            .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
            .because("views read ClusterModel rows; fabric8 objects stay in ui.model, ui.connect and ui.actions")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule viewsDoNotCallBlockingOps = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.actions..")
            .should().accessClassesThat().haveNameMatching(BLOCKING_OPS)
            .because("ops' calls block on the API server: ClusterActions runs them off the FX thread")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule viewsDoNotTouchTheEmbeddedCluster = noClasses()
            .that().resideInAPackage("dev.drainboard.ui..")
            .and().resideOutsideOfPackages("dev.drainboard.ui.connect..")
            .should().dependOnClassesThat().resideInAPackage(EMBEDDED_CLUSTER)
            .because("everything talks through the Kubernetes API")
            .allowEmptyShould(true);

    @ArchTest
    public static final ArchRule theModelDoesNotKnowTheViews = noClasses()
            .that().resideInAnyPackage(UI_MODEL)
            .should().dependOnClassesThat().resideInAnyPackage("dev.drainboard.ui.shell..", "dev.drainboard.ui.start..",
                    "dev.drainboard.ui.overview..", "dev.drainboard.ui.nodes..", "dev.drainboard.ui.vmis..",
                    "dev.drainboard.ui.events..", "dev.drainboard.ui.pdbs..", "dev.drainboard.ui.common..",
                    "dev.drainboard.ui.dialogs..", "dev.drainboard.ui.drain..", "dev.drainboard.ui.migrations..",
                    "dev.drainboard.ui.replicasets..", "dev.drainboard.ui.lists..")
            .because("the model, the connection and the actions serve every view and know none")
            .allowEmptyShould(true);

    // --- the analysis itself -------------------------------------------------------------------------------------

    /** Guards against a module checking nothing (a wrong import option or working directory). */
    @ArchTest
    public static void analysesSomeClasses(JavaClasses classes) {
        if (classes.isEmpty()) {
            throw new AssertionError("no classes to analyse; the module's own classes are expected in "
                    + ThisModulesMainClasses.OUTPUT);
        }
    }

    /** Classes annotated {@link Pure}, and the classes nested in them (records, lambdas' hosts, helpers). */
    static DescribedPredicate<JavaClass> arePure() {
        return DescribedPredicate.describe("are @Pure or nested in a @Pure class", c -> {
            for (Optional<JavaClass> k = Optional.of(c); k.isPresent(); k = k.get().getEnclosingClass()) {
                if (k.get().isAnnotatedWith(PURE)) {
                    return true;
                }
            }
            return false;
        });
    }

    private static String[] concat(String[]... groups) {
        return Stream.of(groups).flatMap(Stream::of).toArray(String[]::new);
    }

    /**
     * The main classes of the module under test: {@code target/classes} under the working directory, which Maven
     * Surefire sets to the module's base directory. Its dependencies are checked in their own modules.
     */
    public static final class ThisModulesMainClasses implements ImportOption {

        static final Path OUTPUT = Path.of("target", "classes").toAbsolutePath().normalize();

        @Override
        public boolean includes(Location location) {
            return location.asURI().getScheme().equals("file") && Path.of(location.asURI()).startsWith(OUTPUT);
        }
    }

    /**
     * Every module's main classes on the class path (directories in a reactor build, jars after packaging), but no
     * test classes and no test-jars: for a module that wires several others together.
     */
    public static final class ProductionClasses implements ImportOption {

        @Override
        public boolean includes(Location location) {
            String uri = location.asURI().toString();
            return !uri.contains("/test-classes/") && !uri.contains("-tests.jar!");
        }
    }
}
