package dev.drainboard.ui.connect;

import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Reads kubeconfig files into the contexts the connect screen lists. Blocking file I/O: call it off the FX thread. */
public final class KubeconfigCatalog {

    private KubeconfigCatalog() {
    }

    /** The files kubectl would read: {@code KUBECONFIG}'s list, else {@code ~/.kube/config}. */
    public static List<Path> defaultFiles(Map<String, String> env, Path home) {
        String kubeconfig = env.get("KUBECONFIG");
        if (kubeconfig != null && !kubeconfig.isBlank()) {
            List<Path> files = new ArrayList<>();
            for (String part : kubeconfig.split(File.pathSeparator)) {
                if (!part.isBlank()) {
                    files.add(Path.of(part));
                }
            }
            return files;
        }
        return List.of(home.resolve(".kube").resolve("config"));
    }

    /** The default source; its contexts merged from all files as kubectl does (the first file defining a name wins). */
    public static KubeconfigSource readDefault(Map<String, String> env, Path home) {
        List<Path> files = defaultFiles(env, home);
        Map<String, KubeContext> contexts = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        String current = null;
        for (Path file : files) {
            if (!Files.exists(file)) {
                continue; // kubectl skips missing files in KUBECONFIG
            }
            try {
                Config config = parse(file);
                if (current == null && config.getCurrentContext() != null && !config.getCurrentContext().isEmpty()) {
                    current = config.getCurrentContext();
                }
                for (KubeContext c : contexts(config, null)) {
                    contexts.putIfAbsent(c.name(), c);
                }
            } catch (UnreadableKubeconfigException e) {
                problems.add(e.getMessage());
            }
        }
        String currentName = current;
        List<KubeContext> list = contexts.values().stream()
                .map(c -> new KubeContext(c.name(), c.cluster(), c.user(), c.server(), c.namespace(), c.name().equals(currentName)))
                .toList();
        String label = env.containsKey("KUBECONFIG") ? "KUBECONFIG" : "~/.kube/config";
        Optional<String> problem = problems.isEmpty() ? (list.isEmpty() && files.stream().noneMatch(Files::exists)
                ? Optional.of("No kubeconfig found at " + files.stream().map(Path::toString).reduce((a, b) -> a + ", " + b).orElse(""))
                : Optional.empty()) : Optional.of(String.join("\n", problems));
        return new KubeconfigSource(label, files, true, list, problem);
    }

    /** One file the operator added. A file that cannot be read comes back with its problem, never as an exception. */
    public static KubeconfigSource readFile(Path file) {
        try {
            Config config = parse(file);
            return new KubeconfigSource(file.getFileName().toString(), List.of(file), false,
                    contexts(config, config.getCurrentContext()), Optional.empty());
        } catch (UnreadableKubeconfigException e) {
            return new KubeconfigSource(file.getFileName() == null ? file.toString() : file.getFileName().toString(),
                    List.of(file), false, List.of(), Optional.of(e.getMessage()));
        }
    }

    static Config parse(Path file) throws UnreadableKubeconfigException {
        if (!Files.exists(file)) {
            throw new UnreadableKubeconfigException("Cannot read kubeconfig " + file + ": the file does not exist.");
        }
        if (!Files.isReadable(file) || Files.isDirectory(file)) {
            throw new UnreadableKubeconfigException("Cannot read kubeconfig " + file + ": "
                    + (Files.isDirectory(file) ? "it is a folder." : "permission denied."));
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UnreadableKubeconfigException("Cannot read kubeconfig " + file + ": " + e.getMessage());
        }
        Config config;
        try {
            config = KubeConfigUtils.parseConfigFromString(text);
        } catch (RuntimeException e) {
            throw new UnreadableKubeconfigException("Kubeconfig " + file + " is not valid YAML: " + yamlProblem(e));
        }
        if (config == null || (config.getContexts() == null && config.getClusters() == null)) {
            throw new UnreadableKubeconfigException("Kubeconfig " + file + " has no contexts and no clusters: it is not a kubeconfig.");
        }
        return config;
    }

    private static List<KubeContext> contexts(Config config, String current) {
        Map<String, Cluster> clusters = new LinkedHashMap<>();
        if (config.getClusters() != null) {
            for (NamedCluster nc : config.getClusters()) {
                clusters.put(nc.getName(), nc.getCluster());
            }
        }
        List<KubeContext> result = new ArrayList<>();
        if (config.getContexts() != null) {
            for (NamedContext nc : config.getContexts()) {
                var ctx = nc.getContext();
                String clusterName = ctx == null ? "" : Objects.toString(ctx.getCluster(), "");
                Cluster cluster = clusters.get(clusterName);
                result.add(new KubeContext(nc.getName(), clusterName, ctx == null ? "" : Objects.toString(ctx.getUser(), ""),
                        cluster == null ? "" : Objects.toString(cluster.getServer(), ""),
                        ctx == null ? "" : Objects.toString(ctx.getNamespace(), ""),
                        nc.getName().equals(current)));
            }
        }
        return result;
    }

    static Throwable rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    static String rootMessage(Throwable t) {
        Throwable root = rootCause(t);
        String message = Objects.toString(root.getMessage(), root.getClass().getSimpleName());
        int newline = message.indexOf('\n');
        return newline > 0 ? message.substring(0, newline) : message;
    }

    /**
     * A YAML parser's complaint in one line with where it is: SnakeYAML's message spans lines ("while scanning…",
     * " in 'reader', line 3, column 1:", the source line, a caret, the problem, its own line and column); its
     * first line alone loses what and where. Kept: the description lines, then the last (the problem's) position.
     */
    static String yamlProblem(Throwable t) {
        Throwable root = rootCause(t);
        String message = Objects.toString(root.getMessage(), root.getClass().getSimpleName());
        List<String> said = new ArrayList<>();
        String where = null;
        java.util.regex.Matcher at = java.util.regex.Pattern.compile("line (\\d+), column (\\d+)").matcher("");
        for (String line : message.split("\\R")) {
            if (at.reset(line).find()) {
                where = "line " + at.group(1) + ", column " + at.group(2);
            } else if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                said.add(line.strip());
            }
        }
        String what = said.isEmpty() ? message.strip() : String.join(": ", said);
        return where == null ? what : what + " (" + where + ")";
    }

    /** A kubeconfig that cannot be used, with a message for the operator. */
    static final class UnreadableKubeconfigException extends Exception {
        UnreadableKubeconfigException(String message) {
            super(message);
        }
    }
}
