package dev.drainboard.kubevirt.api;

import java.util.Map;

/**
 * {@code spec.template.metadata} of a VM or VMIRS: what a new VMI's metadata starts from. Its own class rather
 * than fabric8's ObjectMeta so that what KubeVirt writes there (such as {@code creationTimestamp: null}) is kept.
 */
public class TemplateMetadata extends ExtensibleObject {

    private String name;
    private String generateName;
    private Map<String, String> labels;
    private Map<String, String> annotations;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getGenerateName() { return generateName; }
    public void setGenerateName(String generateName) { this.generateName = generateName; }
    public Map<String, String> getLabels() { return labels; }
    public void setLabels(Map<String, String> labels) { this.labels = labels; }
    public Map<String, String> getAnnotations() { return annotations; }
    public void setAnnotations(Map<String, String> annotations) { this.annotations = annotations; }
}
