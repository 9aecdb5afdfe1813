package dev.drainboard.pki;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** Writes the kubeconfig through which kubectl and fabric8 reach the embedded API server. */
public final class KubeconfigWriter {

    private static final String NAMESPACE = "default";
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            // Keeps the long base64 CA data on one line, as kubectl itself writes it.
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build();

    private KubeconfigWriter() {
    }

    /**
     * Writes a kubeconfig (YAML) with one cluster (server URL, certificate-authority-data base64 of caPem),
     * one user with a bearer {@code token}, and one context (set as current-context, namespace "default");
     * file permissions 0600 where the filesystem supports it; parent directories created.
     * The cluster and the user are named after the context.
     */
    public static void write(Path file, String contextName, String serverUrl, String caPem, String token)
            throws IOException {
        requireText(contextName, "contextName");
        requireText(serverUrl, "serverUrl");
        requireText(caPem, "caPem");
        requireText(token, "token");
        byte[] yaml = YAML.writeValueAsBytes(kubeconfig(contextName, serverUrl, caPem, token));
        writeOwnerOnly(file.toAbsolutePath(), yaml);
    }

    private static Map<String, Object> kubeconfig(String name, String serverUrl, String caPem, String token) {
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("server", serverUrl);
        cluster.put("certificate-authority-data",
                Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII)));

        Map<String, Object> context = new LinkedHashMap<>();
        context.put("cluster", name);
        context.put("user", name);
        context.put("namespace", NAMESPACE);

        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        config.put("clusters", List.of(Map.of("name", name, "cluster", cluster)));
        config.put("users", List.of(Map.of("name", name, "user", Map.of("token", token))));
        config.put("contexts", List.of(Map.of("name", name, "context", context)));
        config.put("current-context", name);
        config.put("preferences", Map.of());
        return config;
    }

    /**
     * The token grants full access, so the file is created 0600 from the start (never briefly readable
     * by others) and then moved over any previous version, which also spares readers a half-written file.
     */
    private static void writeOwnerOnly(Path file, byte[] content) throws IOException {
        Path directory = file.getParent();
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, "." + file.getFileName(), ".tmp", ownerOnlyAttributes(directory));
        try {
            Files.write(temporary, content);
            moveIntoPlace(temporary, file);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static FileAttribute<?>[] ownerOnlyAttributes(Path directory) {
        if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
        }
        return new FileAttribute<?>[0];
    }

    private static void moveIntoPlace(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
