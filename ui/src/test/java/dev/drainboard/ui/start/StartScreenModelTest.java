package dev.drainboard.ui.start;

import dev.drainboard.ui.connect.ConnectError;
import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.Connector.MissingCrds;
import dev.drainboard.ui.connect.KubeContext;
import dev.drainboard.ui.connect.KubeconfigSource;
import dev.drainboard.ui.connect.ModeChoice;
import dev.drainboard.ui.start.StartScreenModel.Choice;
import dev.drainboard.ui.start.StartScreenModel.Phase;
import dev.drainboard.ui.start.StartScreenModel.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The start screen's choices and what they ask of the console, without the FX toolkit. */
class StartScreenModelTest {

    private static final Path STAGING = Path.of("/home/op/staging.yaml");

    record Connect(ConnectTarget target, ModeChoice mode, MissingCrds missingCrds) {
    }

    private final List<Connect> connects = new ArrayList<>();
    private final List<Path> added = new ArrayList<>();
    private int themeToggles;

    private final StartScreenModel.Actions actions = new StartScreenModel.Actions() {
        @Override
        public void connect(ConnectTarget target, ModeChoice mode, MissingCrds missingCrds) {
            connects.add(new Connect(target, mode, missingCrds));
        }

        @Override
        public void addKubeconfig(Path file) {
            added.add(file);
        }

        @Override
        public void toggleTheme() {
            themeToggles++;
        }
    };

    private StartScreenModel model() {
        return new StartScreenModel(actions, null);
    }

    // ---- opening, the embedded cluster

    @ParameterizedTest(name = "[{index}] scenario {0}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            null             | DEMO | ''               | demo
            demo             | DEMO | ''               | demo
            /tmp/maint.yaml  | FILE | /tmp/maint.yaml  | /tmp/maint.yaml
            """)
    void opensOnAutoWithNothingSelectedAndTheEmbeddedClusterReady(String initial, Scenario scenario, String path, String started) {
        StartScreenModel model = new StartScreenModel(actions, initial);

        assertThat(model.mode().get()).isEqualTo(ModeChoice.AUTO);
        assertThat(model.phase().get()).isEqualTo(Phase.IDLE);
        assertThat(model.connectBlocked().get()).isEqualTo("Select a context first.");
        assertThat(model.webhookRowVisible().get()).isTrue();
        assertThat(model.scenario().get()).isEqualTo(scenario);
        assertThat(model.scenarioPath().get()).isEqualTo(path);
        assertThat(model.embeddedDisabled().get()).isFalse();

        model.connectSelected();
        model.startEmbedded();
        assertThat(connects).containsExactly(new Connect(new ConnectTarget.Embedded(started), ModeChoice.AUTO, MissingCrds.FAIL));
    }

    @Test
    void aScenarioFileMustBeChosenBeforeTheEmbeddedClusterStartsFromIt() {
        StartScreenModel model = model();
        model.scenario().set(Scenario.FILE);

        assertThat(model.embeddedDisabled().get()).isTrue();
        model.startEmbedded();
        assertThat(connects).isEmpty();

        model.useScenarioPath("/srv/scenarios/rack-b");
        assertThat(model.embeddedDisabled().get()).isFalse();
        model.startEmbedded();
        assertThat(connects).containsExactly(new Connect(new ConnectTarget.Embedded("/srv/scenarios/rack-b"), ModeChoice.AUTO, MissingCrds.FAIL));

        model.scenario().set(Scenario.DEMO);
        model.startEmbedded();
        assertThat(connects.getLast().target()).isEqualTo(new ConnectTarget.Embedded("demo"));
    }

    // ---- mode and webhook address

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            AUTO    | true  | Control on the embedded cluster and where no virt-controller runs
            CONTROL | true  | Drainboard runs KubeVirt's drain control plane for this cluster
            OBSERVE | false | Controllers stay off and this console changes nothing (read-only).
            """)
    void theModeSaysWhatItDoesAndOnlyObserveHasNoWebhookToPlace(ModeChoice mode, boolean webhookRow, String help) {
        StartScreenModel model = model();

        model.mode().set(mode);

        assertThat(model.modeHelp().get()).startsWith(help);
        assertThat(model.webhookRowVisible().get()).isEqualTo(webhookRow);
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            ''                  | null        | null
            '   '               | null        | null
            localhost           | localhost   | null
            ' 10.0.0.7 '        | 10.0.0.7    | null
            '[fd00::7]'         | '[fd00::7]' | null
            https://10.0.0.7    | https://10.0.0.7 | '"https://10.0.0.7" is a URL'
            10.0.0.7:8443       | 10.0.0.7:8443    | '"10.0.0.7:8443" has a port'
            'not a host'        | 'not a host'     | '"not a host" is not a host name or an IP address'
            """)
    void theWebhookAddressIsCheckedAsItIsTyped(String typed, String host, String problem) {
        StartScreenModel model = model();

        model.webhookHostText().set(typed);

        assertThat(model.webhookHost()).isEqualTo(Optional.ofNullable(host));
        assertThat(model.webhookHostBad().get()).isEqualTo(problem != null);
        if (problem == null) {
            assertThat(model.webhookHostProblem()).isEmpty();
        } else {
            assertThat(model.webhookHostProblem()).hasValueSatisfying(p -> assertThat(p).startsWith(problem));
        }
        assertThat(model.webhookHelp().get()).startsWith(problem == null ? "Where a remote cluster's API server calls"
                : "Not usable: " + problem);
    }

    // ---- contexts

    @Test
    void sourcesListTheirContextsAndProblemsAndTheCurrentContextIsSelected() {
        StartScreenModel model = model();

        model.setSources(List.of(defaultSource(context("dev", false), context("prod-east", true)),
                new KubeconfigSource("broken.yaml", List.of(Path.of("/home/op/broken.yaml")), false, List.of(),
                        Optional.of("broken.yaml is not valid YAML")),
                fileSource(context("staging", false))));

        assertThat(names(model.contexts())).containsExactly("dev", "prod-east", "staging");
        assertThat(model.sourceProblems()).containsExactly("broken.yaml is not valid YAML");
        assertThat(model.selected().get().context().name()).isEqualTo("prod-east");
        assertThat(model.connectBlocked().get()).isEmpty();
    }

    @ParameterizedTest(name = "[{index}] {0} selected, reloaded with {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            dev      | dev,prod-east | dev
            null     | dev,prod-east | prod-east
            staging  | dev,prod-east | null
            """)
    void reloadingKeepsTheSelectedContextAndDropsOneThatIsGone(String before, String after, String selected) {
        StartScreenModel model = model();
        model.setSources(List.of(defaultSource(context("dev", false), context("prod-east", true)), fileSource(context("staging", false))));
        model.selected().set(null);
        if (before != null) {
            assertThat(model.selectContext(before)).isTrue();
        }

        model.setSources(List.of(defaultSource(List.of(after.split(",")).stream()
                .map(n -> context(n, n.equals("prod-east"))).toArray(KubeContext[]::new))));

        assertThat(Optional.ofNullable(model.selected().get()).map(i -> i.context().name()).orElse(null)).isEqualTo(selected);
        assertThat(model.connectBlocked().get()).isEqualTo(selected == null ? "Select a context first." : "");
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', textBlock = """
            ''                 | dev,prod-east,staging
            prod               | prod-east
            'PROD   east'      | prod-east
            staging.yaml       | staging
            10.0.0.1           | dev
            'prod west'        | ''
            """)
    void theSearchMatchesEveryTermAgainstNamesServersAndSources(String search, String shown) {
        StartScreenModel model = model();
        model.setSources(List.of(defaultSource(context("dev", false), context("prod-east", true)), fileSource(context("staging", false))));

        model.search().set(search);

        assertThat(names(model.contexts())).containsExactlyElementsOf(shown.isEmpty() ? List.of() : List.of(shown.split(",")));
        assertThat(model.selectContext("staging")).isEqualTo(shown.contains("staging"));
    }

    @Test
    void onlyTheDefaultKubeconfigsCurrentContextIsCurrentAndItsAbsenceStopsMatteringOnceFilesAreAdded() {
        StartScreenModel model = model();
        KubeconfigSource missing = new KubeconfigSource("~/.kube/config", List.of(Path.of("/home/op/.kube/config")), true,
                List.of(), Optional.of("No kubeconfig found at /home/op/.kube/config"));
        model.setSources(List.of(missing));
        assertThat(model.sourceProblems()).containsExactly("No kubeconfig found at /home/op/.kube/config");

        KubeconfigSource other = new KubeconfigSource("prod.yaml", List.of(Path.of("/tmp/prod.yaml")), false,
                List.of(context("prod-east", true)), Optional.empty());
        model.setSources(List.of(missing, fileSource(context("staging", true)), other));
        assertThat(model.sourceProblems()).isEmpty();
        assertThat(model.contexts()).noneMatch(ContextItem::current);

        model.setSources(List.of(defaultSource(context("dev", false), context("prod-east", true)), fileSource(context("staging", true))));
        assertThat(model.contexts().stream().filter(ContextItem::current).map(i -> i.context().name()).toList())
                .containsExactly("prod-east");
    }

    @Test
    void connectAsksForTheSelectedContextThroughItsSourceInTheChosenMode() {
        StartScreenModel model = model();
        model.setSources(List.of(defaultSource(context("dev", true)), fileSource(context("staging", false))));
        model.mode().set(ModeChoice.CONTROL);

        model.connectSelected();
        model.selectContext("staging");
        model.connectSelected();

        assertThat(connects).containsExactly(
                new Connect(new ConnectTarget.Kubeconfig(Optional.empty(), "dev"), ModeChoice.CONTROL, MissingCrds.FAIL),
                new Connect(new ConnectTarget.Kubeconfig(Optional.of(STAGING), "staging"), ModeChoice.CONTROL, MissingCrds.FAIL));
    }

    @Test
    void recentConnectionsAndAddedFilesGoToTheConsole() {
        StartScreenModel model = model();
        ConnectTarget recent = new ConnectTarget.Kubeconfig(Optional.of(STAGING), "staging");
        model.setRecent(List.of(recent, new ConnectTarget.Embedded("demo")));
        model.mode().set(ModeChoice.OBSERVE);

        model.connectRecent(null);
        model.connectRecent(recent);
        model.addKubeconfig(STAGING);
        model.toggleTheme();

        assertThat(model.recent()).hasSize(2);
        assertThat(connects).containsExactly(new Connect(recent, ModeChoice.OBSERVE, MissingCrds.FAIL));
        assertThat(added).containsExactly(STAGING);
        assertThat(themeToggles).isEqualTo(1);
    }

    // ---- connecting and failing

    @Test
    void whileAConnectionIsOnItsWayNothingElseIsAsked() {
        StartScreenModel model = model();
        model.setSources(List.of(defaultSource(context("dev", true))));
        ConnectTarget recent = new ConnectTarget.Embedded("demo");

        model.showProgress("Connecting…");
        model.showProgress("Starting the controllers…");

        assertThat(model.phase().get()).isEqualTo(Phase.CONNECTING);
        assertThat(model.busy().get()).isTrue();
        assertThat(model.progressText().get()).isEqualTo("Starting the controllers…");
        assertThat(model.connectBlocked().get()).isEqualTo("A connection is on its way.");
        assertThat(model.embeddedDisabled().get()).isTrue();
        model.connectSelected();
        model.startEmbedded();
        model.connectRecent(recent);
        assertThat(connects).isEmpty();

        model.hideProgress();
        assertThat(model.phase().get()).isEqualTo(Phase.IDLE);
        model.connectRecent(recent);
        assertThat(connects).hasSize(1);
    }

    /** Each way forward connects again to what failed, in the mode it was tried in, or puts the error away. */
    @ParameterizedTest(name = "[{index}] {0}: {1} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            MISSING_CRDS | INSTALL_CRDS             | INSTALL_CRDS,CONNECT_WITHOUT_KUBEVIRT,DISMISS | INSTALL
            MISSING_CRDS | CONNECT_WITHOUT_KUBEVIRT | INSTALL_CRDS,CONNECT_WITHOUT_KUBEVIRT,DISMISS | IGNORE
            MISSING_CRDS | DISMISS                  | INSTALL_CRDS,CONNECT_WITHOUT_KUBEVIRT,DISMISS | null
            UNREACHABLE  | RETRY                    | RETRY,DISMISS                                 | FAIL
            TLS          | DISMISS                  | RETRY,DISMISS                                 | null
            """)
    void aFailedConnectionOffersItsWaysForward(ConnectError.Kind kind, Choice choice, String offered, MissingCrds missingCrds) {
        StartScreenModel model = model();
        ConnectTarget target = new ConnectTarget.Kubeconfig(Optional.of(STAGING), "staging");
        model.showProgress("Connecting…");

        model.showError(target, ModeChoice.CONTROL, new ConnectError(kind, "Cannot connect.", "because"));
        model.mode().set(ModeChoice.OBSERVE);

        assertThat(model.phase().get()).isEqualTo(Phase.FAILED);
        assertThat(model.busy().get()).isFalse();
        assertThat(model.failure().get().choices()).containsExactlyElementsOf(
                List.of(offered.split(",")).stream().map(Choice::valueOf).toList());
        model.choose(choice);
        if (missingCrds == null) {
            assertThat(connects).isEmpty();
            assertThat(model.phase().get()).isEqualTo(Phase.IDLE);
            assertThat(model.failure().get()).isNull();
        } else {
            assertThat(connects).containsExactly(new Connect(target, ModeChoice.CONTROL, missingCrds));
        }
    }

    @Test
    void aNewAttemptPutsTheLastErrorAway() {
        StartScreenModel model = model();
        model.showError(new ConnectTarget.Embedded("demo"), ModeChoice.AUTO,
                new ConnectError(ConnectError.Kind.EMBEDDED_FAILED, "The embedded cluster did not start.", "port in use"));

        model.hideProgress();
        assertThat(model.phase().get()).as("only a new attempt or Dismiss puts it away").isEqualTo(Phase.FAILED);

        model.showProgress("Connecting…");
        assertThat(model.phase().get()).isEqualTo(Phase.CONNECTING);
        assertThat(model.failure().get()).isNull();
    }

    // ---- fixtures

    private static KubeContext context(String name, boolean current) {
        String server = name.equals("dev") ? "https://10.0.0.1:6443" : "https://" + name + ".example.com:6443";
        return new KubeContext(name, name + "-cluster", "op", server, "", current);
    }

    private static KubeconfigSource defaultSource(KubeContext... contexts) {
        return new KubeconfigSource("~/.kube/config", List.of(Path.of("/home/op/.kube/config")), true, List.of(contexts), Optional.empty());
    }

    private static KubeconfigSource fileSource(KubeContext... contexts) {
        return new KubeconfigSource("staging.yaml", List.of(STAGING), false, List.of(contexts), Optional.empty());
    }

    private static List<String> names(List<ContextItem> items) {
        return items.stream().map(i -> i.context().name()).toList();
    }
}
