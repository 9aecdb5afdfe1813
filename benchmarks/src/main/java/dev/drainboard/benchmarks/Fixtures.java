package dev.drainboard.benchmarks;

/** Request bodies of plausible size: a scheduled-looking pod, a labelled node, a small custom object. */
final class Fixtures {

    static final String GROUP = "bench.drainboard.dev";
    static final String WIDGETS = "/apis/" + GROUP + "/v1";

    private Fixtures() {
    }

    static String namespace(String name) {
        return """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"%s"}}""".formatted(name);
    }

    static String node(int index) {
        return """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-%1$d","labels":{\
                "kubernetes.io/hostname":"node-%1$d","kubernetes.io/os":"linux","topology.kubernetes.io/zone":"zone-%2$d"}},\
                "spec":{"podCIDR":"10.%3$d.%4$d.0/24"}}""".formatted(index, index % 3, index / 256, index % 256);
    }

    /**
     * A pod without a node and for a scheduler that does not exist, so neither the simulated scheduler nor the
     * kubelets act on it: the figures are the API server's own.
     */
    static String pod(int index) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-%1$d","labels":{"app":"bench","shard":"s%2$d"},\
                "annotations":{"bench.drainboard.dev/note":"created by the API server benchmark"}},\
                "spec":{"containers":[{"name":"app","image":"registry.example/bench/app:1.%2$d",\
                "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],\
                "env":[{"name":"MODE","value":"bench"},{"name":"INDEX","value":"%1$d"}],\
                "resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"memory":"256Mi"}}}],\
                "restartPolicy":"Always","terminationGracePeriodSeconds":30,"schedulerName":"not-scheduled-by-the-benchmark"}}""".formatted(index, index % 10);
    }

    static String widgetsCrd() {
        return """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",\
                "metadata":{"name":"widgets.%1$s"},\
                "spec":{"group":"%1$s","scope":"Namespaced",\
                "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},\
                "versions":[{"name":"v1","served":true,"storage":true,\
                "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},\
                "subresources":{"status":{}}}]}}""".formatted(GROUP);
    }

    static String widget(int index) {
        return """
                {"apiVersion":"%1$s/v1","kind":"Widget","metadata":{"name":"widget-%2$d","labels":{"tier":"t%3$d"}},\
                "spec":{"size":%2$d,"color":"blue","owner":"team-%3$d"}}""".formatted(GROUP, index, index % 7);
    }

    static String configMap(String name, String value) {
        return """
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s"},"data":{"seq":"%s"}}""".formatted(name, value);
    }
}
