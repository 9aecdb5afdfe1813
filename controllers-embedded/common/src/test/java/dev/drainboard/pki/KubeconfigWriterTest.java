package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigWriterTest {

    private static final String SERVER = "https://127.0.0.1:6443";

    @TempDir
    Path tempDir;

    private final String caPem = CertificateAuthority.generate("drainboard-ca").certificatePem();
    private final String token = Tokens.newBearerToken();

    @Test
    void yamlParsesBackToOneClusterUserAndCurrentContext() throws Exception {
        Path file = tempDir.resolve("kubeconfig");

        KubeconfigWriter.write(file, "drainboard", SERVER, caPem, token);

        JsonNode config = new YAMLMapper().readTree(file.toFile());
        assertThat(config.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(config.path("kind").asText()).isEqualTo("Config");
        assertThat(config.path("current-context").asText()).isEqualTo("drainboard");

        assertThat(config.path("clusters")).hasSize(1);
        JsonNode cluster = config.path("clusters").get(0);
        assertThat(cluster.path("name").asText()).isEqualTo("drainboard");
        assertThat(cluster.path("cluster").path("server").asText()).isEqualTo(SERVER);
        String caData = cluster.path("cluster").path("certificate-authority-data").asText();
        assertThat(new String(Base64.getDecoder().decode(caData), StandardCharsets.US_ASCII)).isEqualTo(caPem);

        assertThat(config.path("users")).hasSize(1);
        JsonNode user = config.path("users").get(0);
        assertThat(user.path("name").asText()).isEqualTo("drainboard");
        assertThat(user.path("user").path("token").asText()).isEqualTo(token);

        assertThat(config.path("contexts")).hasSize(1);
        JsonNode context = config.path("contexts").get(0);
        assertThat(context.path("name").asText()).isEqualTo("drainboard");
        assertThat(context.path("context").path("cluster").asText()).isEqualTo("drainboard");
        assertThat(context.path("context").path("user").asText()).isEqualTo("drainboard");
        assertThat(context.path("context").path("namespace").asText()).isEqualTo("default");
    }

    @Test
    void createsParentDirectories() throws Exception {
        Path file = tempDir.resolve("home/.drainboard/kube/config");

        KubeconfigWriter.write(file, "drainboard", SERVER, caPem, token);

        assertThat(file).isRegularFile();
    }

    @Test
    void fileIsReadableByOwnerOnly() throws Exception {
        assumeTrue(tempDir.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Path file = tempDir.resolve("kubeconfig");

        KubeconfigWriter.write(file, "drainboard", SERVER, caPem, token);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void rewritingReplacesTheFileAndLeavesNoTemporaryFiles() throws Exception {
        Path file = tempDir.resolve("kubeconfig");
        KubeconfigWriter.write(file, "drainboard", SERVER, caPem, token);
        Files.writeString(file, "stale and longer than anything the writer produces ".repeat(100));

        KubeconfigWriter.write(file, "drainboard", "https://127.0.0.1:7443", caPem, token);

        JsonNode config = new YAMLMapper().readTree(file.toFile());
        assertThat(config.path("clusters").get(0).path("cluster").path("server").asText())
                .isEqualTo("https://127.0.0.1:7443");
        try (var files = Files.list(tempDir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void rejectsBlankArguments() {
        Path file = tempDir.resolve("kubeconfig");

        assertThatThrownBy(() -> KubeconfigWriter.write(file, " ", SERVER, caPem, token))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KubeconfigWriter.write(file, "drainboard", SERVER, caPem, ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(file).doesNotExist();
    }
}
