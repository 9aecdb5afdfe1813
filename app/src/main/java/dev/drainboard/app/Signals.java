package dev.drainboard.app;

import sun.misc.Signal;

import java.util.List;

/** SIGTERM and Ctrl-C as a normal stop, so a command exits 0 instead of the JVM's 143 or 130. */
final class Signals {

    private Signals() {
    }

    static void onStop(Runnable stop) {
        for (String name : List.of("TERM", "INT")) {
            try {
                Signal.handle(new Signal(name), signal -> stop.run());
            } catch (IllegalArgumentException e) {
                // This platform has no such signal (or the JVM reserves it): the shutdown hook covers it.
            }
        }
    }
}
