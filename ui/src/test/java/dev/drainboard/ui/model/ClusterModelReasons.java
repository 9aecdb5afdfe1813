package dev.drainboard.ui.model;

import java.util.List;

/** Opens ClusterModel's package-private wording of "Reconnecting" to tests of other packages. */
public final class ClusterModelReasons {

    private ClusterModelReasons() {
    }

    public static String reason(List<String> down, String lastError) {
        return ClusterModel.reconnectReason(down, lastError);
    }
}
