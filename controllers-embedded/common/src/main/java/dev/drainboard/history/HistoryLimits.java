package dev.drainboard.history;

/**
 * How much history the cluster keeps: etcd refuses objects over 1.5 MiB ({@code --max-request-bytes}), and a list
 * that grows with every drain would slow every console that reads it.
 */
public final class HistoryLimits {

    /** Records kept; the oldest beyond are deleted. */
    public static final int RECORDS_KEPT = 100;
    /** Pods and migrations per record. */
    public static final int ENTRIES_PER_LIST = 400;
    /** Characters per message. */
    public static final int MESSAGE_CHARS = 500;

    private HistoryLimits() {
    }

    public static String cut(String text) {
        if (text == null || text.length() <= MESSAGE_CHARS) {
            return text;
        }
        return text.substring(0, MESSAGE_CHARS - 1) + "…";
    }
}
