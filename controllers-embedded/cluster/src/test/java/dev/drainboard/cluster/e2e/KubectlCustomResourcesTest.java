package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CustomResourceDefinition applied with kubectl is served at once, with its columns and subresources. */
@DisplayName("kubectl and custom resources")
@RequiresKubectl
class KubectlCustomResourcesTest {

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: maintenancewindows.ops.drainboard.dev
            spec:
              group: ops.drainboard.dev
              scope: Namespaced
              names:
                plural: maintenancewindows
                singular: maintenancewindow
                kind: MaintenanceWindow
                shortNames: [mw]
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          start: {type: string}
                          workers: {type: integer}
                      status:
                        type: object
                        properties:
                          phase: {type: string}
                          workers: {type: integer}
                subresources:
                  status: {}
                  scale:
                    specReplicasPath: .spec.workers
                    statusReplicasPath: .status.workers
                additionalPrinterColumns:
                - name: Start
                  type: string
                  jsonPath: .spec.start
                - name: Workers
                  type: integer
                  jsonPath: .spec.workers
                - name: Phase
                  type: string
                  jsonPath: .status.phase
            """;

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startClusterWithTheCrd() throws Exception {
        e2e = E2eCluster.startWithKubectl(null, workDir);
        kubectl = e2e.kubectl();
        kubectl.apply(CRD);
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("custom objects can be applied and listed at once, with the declared printer columns")
    void servedAtOnceWithPrinterColumns() {
        assertThat(kubectl.apply(window("night", "22:00", 2)).stdout())
                .isEqualTo("maintenancewindow.ops.drainboard.dev/night created\n");

        var result = kubectl.succeed("get", "maintenancewindows", "-n", "default");

        List<String> lines = result.stdout().lines().toList();
        assertThat(columns(lines.getFirst())).containsExactly("NAME", "START", "WORKERS", "PHASE");
        assertThat(lines).anySatisfy(line -> assertThat(line).matches("night\\s+22:00\\s+2\\s*"));
        assertThat(kubectl.succeed("get", "mw", "night", "-n", "default", "-o", "name").stdout())
                .isEqualTo("maintenancewindow.ops.drainboard.dev/night\n");
        assertThat(kubectl.succeed("api-resources", "--api-group=ops.drainboard.dev").stdout())
                .containsPattern("maintenancewindows\\s+mw\\s+ops.drainboard.dev/v1\\s+true\\s+MaintenanceWindow");
    }

    @Test
    @DisplayName("apply of a changed custom object reports configured")
    void applyConfigured() {
        kubectl.apply(window("weekend", "Sat 08:00", 1));

        assertThat(kubectl.apply(window("weekend", "Sat 08:00", 1)).stdout())
                .isEqualTo("maintenancewindow.ops.drainboard.dev/weekend unchanged\n");
        assertThat(kubectl.apply(window("weekend", "Sun 08:00", 1)).stdout())
                .isEqualTo("maintenancewindow.ops.drainboard.dev/weekend configured\n");
        assertThat(kubectl.succeed("get", "mw", "weekend", "-n", "default", "-o", "jsonpath={.spec.start}").stdout())
                .isEqualTo("Sun 08:00");
    }

    @Test
    @DisplayName("kubectl scale works through the scale subresource")
    void scale() {
        kubectl.apply(window("scaled", "01:00", 1));

        assertThat(kubectl.succeed("scale", "maintenancewindow", "scaled", "-n", "default", "--replicas=4").stdout())
                .isEqualTo("maintenancewindow.ops.drainboard.dev/scaled scaled\n");
        assertThat(kubectl.succeed("get", "mw", "scaled", "-n", "default", "-o", "jsonpath={.spec.workers}").stdout())
                .isEqualTo("4");
    }

    @Test
    @DisplayName("patch --subresource=status changes status only")
    void patchStatus() {
        kubectl.apply(window("status-patched", "02:00", 3));

        kubectl.succeed("patch", "maintenancewindow", "status-patched", "-n", "default", "--subresource=status",
                "--type=merge", "-p", "{\"status\":{\"phase\":\"Running\",\"workers\":3},\"spec\":{\"workers\":9}}");

        assertThat(kubectl.succeed("get", "mw", "status-patched", "-n", "default",
                "-o", "jsonpath={.status.phase} {.status.workers} {.spec.workers}").stdout()).isEqualTo("Running 3 3");
        assertThat(kubectl.succeed("get", "mw", "status-patched", "-n", "default").stdout())
                .containsPattern("status-patched\\s+02:00\\s+3\\s+Running");
    }

    @Test
    @DisplayName("a status change through the main resource is ignored, as with a status subresource")
    void mainResourceIgnoresStatus() {
        kubectl.apply(window("status-ignored", "03:00", 1));

        kubectl.succeed("patch", "maintenancewindow", "status-ignored", "-n", "default", "--type=merge",
                "-p", "{\"status\":{\"phase\":\"Done\"}}");

        assertThat(kubectl.succeed("get", "mw", "status-ignored", "-n", "default", "-o", "jsonpath={.status}").stdout()).isEmpty();
    }

    private static String window(String name, String start, int workers) {
        return """
                apiVersion: ops.drainboard.dev/v1
                kind: MaintenanceWindow
                metadata:
                  name: %s
                  namespace: default
                spec:
                  start: "%s"
                  workers: %d
                """.formatted(name, start, workers);
    }

    private static List<String> columns(String header) {
        return Arrays.asList(header.trim().split("\\s+"));
    }
}
