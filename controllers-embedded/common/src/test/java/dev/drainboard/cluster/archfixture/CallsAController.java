package dev.drainboard.cluster.archfixture;

import dev.drainboard.controller.archfixture.SomeController;

/** Fixture for CommonArchitectureRulesTest: the embedded cluster calling a controller. */
public class CallsAController {

    public int poke(SomeController controller) {
        return controller.reconcile(1);
    }
}
