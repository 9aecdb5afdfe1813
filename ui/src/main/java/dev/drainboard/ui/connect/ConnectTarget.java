package dev.drainboard.ui.connect;

import java.nio.file.Path;
import java.util.Optional;

/** What to connect to: a context of a kubeconfig, or a fresh embedded cluster. */
public sealed interface ConnectTarget {

    /** A line for the recent-connections list. */
    String title();

    String subtitle();

    /** A one-line form for the preferences; {@link #decode} reads it back. */
    String encode();

    /**
     * A context of a kubeconfig.
     *
     * @param file the kubeconfig file; empty for the default source ({@code KUBECONFIG} merged / {@code ~/.kube/config})
     */
    record Kubeconfig(Optional<Path> file, String context) implements ConnectTarget {
        @Override
        public String title() {
            return context;
        }

        @Override
        public String subtitle() {
            return file.map(Path::toString).orElse("default kubeconfig");
        }

        @Override
        public String encode() {
            return "kubeconfig\t" + file.map(Path::toString).orElse("") + "\t" + context;
        }
    }

    /**
     * An embedded cluster seeded from a scenario: {@code demo} or a YAML file/folder (such as a snapshot of a real
     * cluster), running {@code timeScale} times faster than real time (docs/embedded-cluster.md, "Time scale").
     */
    record Embedded(String scenario, double timeScale) implements ConnectTarget {
        public Embedded {
            if (!(timeScale > 0)) {
                throw new IllegalArgumentException("time scale must be positive, got " + timeScale);
            }
        }

        public Embedded(String scenario) {
            this(scenario, 1.0);
        }

        @Override
        public String title() {
            return "Embedded cluster";
        }

        @Override
        public String subtitle() {
            String what = "demo".equals(scenario) ? "built-in demo scenario" : scenario;
            return timeScale == 1.0 ? what : what + " · time ×" + dev.drainboard.cluster.virtapi.KubeVirtTimeScale.format(timeScale);
        }

        @Override
        public String encode() {
            return timeScale == 1.0 ? "embedded\t" + scenario
                    : "embedded\t" + scenario + "\t" + dev.drainboard.cluster.virtapi.KubeVirtTimeScale.format(timeScale);
        }

        /** The key of a running cluster of this target: one per scenario and time scale. */
        public String key() {
            return encode();
        }
    }

    static Optional<ConnectTarget> decode(String line) {
        String[] parts = line.split("\t", -1);
        if (parts.length == 3 && parts[0].equals("kubeconfig") && !parts[2].isEmpty()) {
            return Optional.of(new Kubeconfig(parts[1].isEmpty() ? Optional.empty() : Optional.of(Path.of(parts[1])), parts[2]));
        }
        if (parts.length == 2 && parts[0].equals("embedded") && !parts[1].isEmpty()) {
            return Optional.of(new Embedded(parts[1]));
        }
        if (parts.length == 3 && parts[0].equals("embedded") && !parts[1].isEmpty()) {
            return dev.drainboard.kubevirt.config.ClusterConfig.parseTimeScale(parts[2]).map(scale -> new Embedded(parts[1], scale));
        }
        return Optional.empty();
    }
}
