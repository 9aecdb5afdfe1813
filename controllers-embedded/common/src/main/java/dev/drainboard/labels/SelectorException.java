package dev.drainboard.labels;

/** A selector that kube-apiserver would reject; the message is the text kube-apiserver puts in its 400 response. */
public final class SelectorException extends Exception {
    public SelectorException(String message) {
        super(message);
    }
}
