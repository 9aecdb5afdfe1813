package dev.drainboard.cluster.apiserver.protobuf;

/** A Kubernetes protobuf body could not be turned into JSON: not an envelope, cut short, or of a kind we have no schema for. */
public final class ProtobufDecodeException extends Exception {

    public ProtobufDecodeException(String message) {
        super(message);
    }

    public ProtobufDecodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
