package dev.drainboard.cluster.apiserver.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The scalar fields whose zero value belongs in the JSON form: Go pointer fields (where zero differs from unset) and
 * fields without {@code omitempty}. Go's protobuf marshaller writes every non-pointer field, set or not, so a zero on
 * the wire is left out of the JSON unless its field is listed here. The list is in explicit-zero-fields.txt.
 */
final class ExplicitZeroFields {

    private static final String RESOURCE = "explicit-zero-fields.txt";

    private static final Set<String> FIELDS = load();

    private ExplicitZeroFields() {
    }

    static boolean contains(FieldDescriptor field) {
        return FIELDS.contains(field.getContainingType().getFullName() + "." + field.getName());
    }

    /** Full names ("k8s.io.api.apps.v1.DeploymentSpec.replicas") of all listed fields. */
    static Set<String> all() {
        return FIELDS;
    }

    /** Lines are "[proto package]" or "Message: field field ..."; '#' starts a comment. */
    private static Set<String> load() {
        Set<String> fields = new HashSet<>();
        try (InputStream in = ExplicitZeroFields.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String protoPackage = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                line = line.replaceFirst("#.*", "").strip();
                if (line.startsWith("[")) {
                    protoPackage = line.substring(1, line.length() - 1);
                } else if (!line.isEmpty()) {
                    String[] messageAndFields = line.split(":", 2);
                    for (String field : messageAndFields[1].strip().split("\\s+")) {
                        fields.add(protoPackage + "." + messageAndFields[0].strip() + "." + field);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read resource " + RESOURCE, e);
        }
        return Set.copyOf(fields);
    }
}
