package dev.drainboard.ui.connect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

@DisplayName("Connecting to a context whose cluster is not in its kubeconfig: refused, never sent to kubernetes.default.svc")
class ConnectorKubeconfigTest {

    @TempDir
    Path dir;

    @Test
    void aContextWhoseClusterIsMissingIsRefusedBeforeAnyRequest() throws Exception {
        Path file = dir.resolve("config");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: prod, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {token: s3cr3t}}]
                contexts: [{name: staging, context: {cluster: staging-eu, user: u}}]
                current-context: staging
                """);
        List<String> progress = new ArrayList<>();
        Connector.Failure failure = catchThrowableOfType(Connector.Failure.class,
                () -> new Connector(Map.of(), dir).connect(new ConnectTarget.Kubeconfig(Optional.of(file), "staging"),
                        ModeChoice.AUTO, Connector.MissingCrds.FAIL, progress::add));
        assertThat(failure.error().kind()).isEqualTo(ConnectError.Kind.UNREADABLE_KUBECONFIG);
        assertThat(failure.error().headline()).isEqualTo("Context \"staging\" cannot be used.");
        assertThat(failure.error().detail()).isEqualTo("context \"staging\" in " + file
                + " names cluster \"staging-eu\", which is not in the file (clusters: prod)");
        assertThat(progress).noneMatch(p -> p.startsWith("Contacting"));
    }
}
