package dev.drainboard.scheduling.archfixture;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.archfixture.SomeController;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Instant;

/**
 * Fixture for CommonArchitectureRulesTest: marked pure, yet it reads the API server and the clock (in a nested
 * class too), and common code depending on a controller.
 */
@Pure
public final class ImpureDecision {

    private ImpureDecision() {
    }

    public static boolean nodeExists(KubernetesClient client, String name) {
        return client.nodes().withName(name).get() != null;
    }

    public static boolean expired(Instant deadline) {
        return Instant.now().isAfter(deadline);
    }

    public static int poke(SomeController controller) {
        return controller.reconcile(0);
    }

    static final class Timer {

        long elapsedSince(long start) {
            return System.nanoTime() - start;
        }
    }
}
