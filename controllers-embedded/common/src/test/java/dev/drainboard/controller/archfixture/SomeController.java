package dev.drainboard.controller.archfixture;

/** Fixture for CommonArchitectureRulesTest: a control-plane class that keeps the rules. */
public class SomeController {

    public int reconcile(int key) {
        return key + 1;
    }
}
