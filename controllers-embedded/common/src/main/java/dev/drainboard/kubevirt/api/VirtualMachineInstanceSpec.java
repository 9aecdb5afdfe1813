package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;
import java.util.Map;

/** {@code vmi.spec} (also the VM, VMIRS template spec). Hostname, probes and the rest are kept as they are. */
public class VirtualMachineInstanceSpec extends ExtensibleObject {

    private String evictionStrategy;
    private Long terminationGracePeriodSeconds;
    private DomainSpec domain;
    private List<Volume> volumes;
    private List<Network> networks;
    private Map<String, String> nodeSelector;
    private Affinity affinity;
    private List<Toleration> tolerations;
    private String priorityClassName;
    private String schedulerName;

    public String getEvictionStrategy() { return evictionStrategy; }
    public void setEvictionStrategy(String evictionStrategy) { this.evictionStrategy = evictionStrategy; }
    public Long getTerminationGracePeriodSeconds() { return terminationGracePeriodSeconds; }
    public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) { this.terminationGracePeriodSeconds = terminationGracePeriodSeconds; }
    public DomainSpec getDomain() { return domain; }
    public void setDomain(DomainSpec domain) { this.domain = domain; }
    public List<Volume> getVolumes() { return volumes; }
    public void setVolumes(List<Volume> volumes) { this.volumes = volumes; }
    public List<Network> getNetworks() { return networks; }
    public void setNetworks(List<Network> networks) { this.networks = networks; }
    public Map<String, String> getNodeSelector() { return nodeSelector; }
    public void setNodeSelector(Map<String, String> nodeSelector) { this.nodeSelector = nodeSelector; }
    public Affinity getAffinity() { return affinity; }
    public void setAffinity(Affinity affinity) { this.affinity = affinity; }
    public List<Toleration> getTolerations() { return tolerations; }
    public void setTolerations(List<Toleration> tolerations) { this.tolerations = tolerations; }
    public String getPriorityClassName() { return priorityClassName; }
    public void setPriorityClassName(String priorityClassName) { this.priorityClassName = priorityClassName; }
    public String getSchedulerName() { return schedulerName; }
    public void setSchedulerName(String schedulerName) { this.schedulerName = schedulerName; }
}
