package dev.drainboard.cluster.apiserver.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Runtime;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Builds and loads Kubernetes protobuf bodies for the tests. */
final class Envelopes {

    static final byte[] MAGIC = {'k', '8', 's', 0};

    private Envelopes() {
    }

    static byte[] envelope(String apiVersion, String kind, Message object) {
        return envelope(apiVersion, kind, object.toByteString());
    }

    static byte[] envelope(String apiVersion, String kind, ByteString raw) {
        Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(raw)
                .build();
        return ByteString.copyFrom(MAGIC).concat(unknown.toByteString()).toByteArray();
    }

    static byte[] resource(String name) {
        try (InputStream in = Envelopes.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("No test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
