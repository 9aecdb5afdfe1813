package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.testing.KubectlRequirement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

    private static final Duration FLUSH = Duration.ofSeconds(10);
    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterAll
    static void stopCluster() {
        client.close();
        cluster.close();
    }

    private static ConfigMap newObject(String ns, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).createOr(n -> n.update());
        return client.configMaps().inNamespace(ns)
                .resource(new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata().build())
                .create();
    }

    private static List<Event> eventsAbout(String ns, String name) {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .sorted(Comparator.comparing(e -> e.getMetadata().getName()))
                .toList();
    }

    @Test
    void writesAnEventWithTheInvolvedObjectSourceAndTimestamps() {
        ConfigMap cm = newObject("events-a", "vmi-a");
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.VIRTUAL_MACHINE, "alice@ws/pid-1-abc")) {
            recorder.normal(cm, "SuccessfulCreate", "Created virtual machine pod %s", "virt-launcher-vmi-a-x7k2p");
            assertThat(recorder.flush(FLUSH)).isTrue();
        }

        List<Event> events = eventsAbout("events-a", "vmi-a");
        assertThat(events).hasSize(1);
        Event e = events.getFirst();
        assertThat(e.getMetadata().getName()).matches("vmi-a\\.[0-9a-f]+");
        assertThat(e.getType()).isEqualTo("Normal");
        assertThat(e.getReason()).isEqualTo("SuccessfulCreate");
        assertThat(e.getMessage()).isEqualTo("Created virtual machine pod virt-launcher-vmi-a-x7k2p");
        assertThat(e.getCount()).isEqualTo(1);
        assertThat(e.getSource().getComponent()).isEqualTo("virtualmachine-controller");
        assertThat(e.getReportingComponent()).isEqualTo("virtualmachine-controller");
        assertThat(e.getReportingInstance()).isEqualTo("alice@ws/pid-1-abc");
        assertThat(e.getFirstTimestamp()).isNotNull().isEqualTo(e.getLastTimestamp());
        var ref = e.getInvolvedObject();
        assertThat(ref.getKind()).isEqualTo("ConfigMap");
        assertThat(ref.getApiVersion()).isEqualTo("v1");
        assertThat(ref.getNamespace()).isEqualTo("events-a");
        assertThat(ref.getUid()).isEqualTo(cm.getMetadata().getUid());
        assertThat(ref.getResourceVersion()).isEqualTo(cm.getMetadata().getResourceVersion());
    }

    @Test
    void repeatsAggregateIntoCountAndDifferentMessagesDoNot() throws Exception {
        ConfigMap cm = newObject("events-b", "vmi-b");
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T10:00:00Z"));
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.DISRUPTION_BUDGET, null, clock)) {
            recorder.warning(cm, "FailedCreate", "Error creating a Migration: %s", "quota exceeded");
            clock.advance(Duration.ofSeconds(30));
            recorder.warning(cm, "FailedCreate", "Error creating a Migration: %s", "quota exceeded");
            clock.advance(Duration.ofSeconds(30));
            recorder.warning(cm, "FailedCreate", "Error creating a Migration: %s", "quota exceeded");
            recorder.warning(cm, "FailedCreate", "Error creating a Migration: %s", "timeout");
            recorder.normal(cm, "FailedCreate", "Error creating a Migration: %s", "quota exceeded");
            assertThat(recorder.flush(FLUSH)).isTrue();
            assertThat(recorder.written()).isEqualTo(5);
        }

        List<Event> events = eventsAbout("events-b", "vmi-b");
        assertThat(events).hasSize(3);
        Event repeated = events.stream().filter(e -> e.getType().equals("Warning") && e.getMessage().endsWith("quota exceeded")).findFirst().orElseThrow();
        assertThat(repeated.getCount()).isEqualTo(3);
        assertThat(repeated.getFirstTimestamp()).isEqualTo("2030-01-01T10:00:00Z");
        assertThat(repeated.getLastTimestamp()).isEqualTo("2030-01-01T10:01:00Z");

        // As an operator sees it (where kubectl is installed; KubectlRequirement says when its absence fails the test).
        if (KubectlRequirement.ifInstalled().isPresent()) {
            String table = kubectl("get", "events", "-n", "events-b", "--sort-by=.metadata.name",
                    "-o", "custom-columns=TYPE:.type,REASON:.reason,COUNT:.count,MESSAGE:.message");
            assertThat(table).contains("Warning   FailedCreate   3       Error creating a Migration: quota exceeded");
        }
    }

    @Test
    void aBurstOfSimilarEventsWaitingTogetherIsWrittenAsOneCombinedEvent() {
        int burst = EventRecorder.COMBINE_AT + 15;
        List<ConfigMap> vmis = new java.util.ArrayList<>();
        for (int i = 0; i < burst; i++) {
            vmis.add(newObject("events-burst", "vmi-" + i));
        }
        ConfigMap quiet = newObject("events-burst", "quiet");
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T10:00:00Z"));
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.VMI, null, clock, false)) {
            for (ConfigMap vmi : vmis) {
                recorder.normal(vmi, "SuccessfulCreate", "Created virtual machine pod %s", "virt-launcher-" + vmi.getMetadata().getName());
            }
            recorder.normal(quiet, "Started", "VirtualMachineInstance started.");
            recorder.startWriting();
            assertThat(recorder.flush(FLUSH)).isTrue();
            assertThat(recorder.written()).isEqualTo(burst + 1);
            assertThat(recorder.combined()).isEqualTo(burst);

            // A later burst of the same kind counts on the same Event; a few events are written one by one again.
            clock.advance(Duration.ofSeconds(5));
            for (ConfigMap vmi : vmis) {
                recorder.normal(vmi, "SuccessfulCreate", "Created virtual machine pod %s", "again-" + vmi.getMetadata().getName());
            }
            assertThat(recorder.flush(FLUSH)).isTrue();
            recorder.normal(vmis.getFirst(), "SuccessfulCreate", "Created virtual machine pod %s", "alone");
            assertThat(recorder.flush(FLUSH)).isTrue();
        }

        List<Event> all = client.v1().events().inNamespace("events-burst").list().getItems();
        List<Event> combined = all.stream().filter(e -> e.getMessage().startsWith(EventRecorder.COMBINED_PREFIX)).toList();
        assertThat(combined).singleElement().satisfies(e -> {
            assertThat(e.getReason()).isEqualTo("SuccessfulCreate");
            assertThat(e.getCount()).isLessThanOrEqualTo(2 * burst).isGreaterThanOrEqualTo(burst);
            assertThat(e.getInvolvedObject().getName()).startsWith("vmi-");
            assertThat(e.getMessage()).startsWith("(combined from similar events): Created virtual machine pod ");
        });
        int total = all.stream().filter(e -> e.getReason().equals("SuccessfulCreate")).mapToInt(Event::getCount).sum();
        assertThat(total).as("every event is counted once").isEqualTo(2 * burst + 1);
        assertThat(eventsAbout("events-burst", "quiet")).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).isEqualTo("VirtualMachineInstance started."));
        assertThat(all).anySatisfy(e -> assertThat(e.getMessage()).isEqualTo("Created virtual machine pod alone"));
    }

    @Test
    void aRepeatAfterTheWindowStartsANewEvent() {
        ConfigMap cm = newObject("events-c", "vmi-c");
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T10:00:00Z"));
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.VIRTUAL_MACHINE, null, clock)) {
            recorder.normal(cm, "Started", "VirtualMachineInstance started.");
            clock.advance(EventRecorder.AGGREGATION_WINDOW.plusSeconds(1));
            recorder.normal(cm, "Started", "VirtualMachineInstance started.");
            assertThat(recorder.flush(FLUSH)).isTrue();
        }
        assertThat(eventsAbout("events-c", "vmi-c")).hasSize(2).allSatisfy(e -> assertThat(e.getCount()).isEqualTo(1));
    }

    @Test
    void eventsAboutClusterScopedObjectsGoToTheDefaultNamespace() {
        Node node = client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-ev").endMetadata().build()).create();
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.NODE, null)) {
            recorder.warning(node, "NodeNotReady", "node is not ready");
            assertThat(recorder.flush(FLUSH)).isTrue();
        }
        List<Event> events = eventsAbout("default", "node-ev");
        assertThat(events).hasSize(1);
        assertThat(events.getFirst().getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(events.getFirst().getInvolvedObject().getNamespace()).isNull();
    }

    @Test
    void failuresAreDroppedNeverThrown() {
        ConfigMap inMissingNamespace = new ConfigMapBuilder().withNewMetadata().withName("x").withNamespace("no-such-namespace").endMetadata().build();
        try (EventRecorder recorder = new EventRecorder(client, EventComponents.VIRTUAL_MACHINE, null)) {
            assertThatCode(() -> {
                recorder.normal(inMissingNamespace, "Reason", "message");
                recorder.normal(null, "Reason", "message");
                recorder.normal(inMissingNamespace, "Reason", "bad format %d", "not a number");
            }).doesNotThrowAnyException();
            assertThat(recorder.flush(FLUSH)).isTrue();
            assertThat(recorder.dropped()).isEqualTo(3);
        }
    }

    private static String kubectl(String... args) throws IOException, InterruptedException {
        var command = new java.util.ArrayList<>(List.of(KubectlRequirement.binary().toString(), "--kubeconfig", cluster.kubeconfig().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
