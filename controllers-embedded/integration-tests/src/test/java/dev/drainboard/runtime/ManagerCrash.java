package dev.drainboard.runtime;

/** For tests in other packages: makes a manager die as a killed process would (its Lease is not released). */
public final class ManagerCrash {

    private ManagerCrash() {
    }

    public static void crash(ControllerManager manager) {
        manager.crash();
    }
}
