package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Quantity;

import java.util.List;
import java.util.Map;

/**
 * {@code spec.domain}: the parts the scheduler, the launcher pod and the migratability checks read. Disks,
 * interfaces, firmware, features, machine type and the rest are kept as they are.
 */
public class DomainSpec extends ExtensibleObject {

    private Resources resources;
    private Cpu cpu;
    private Memory memory;
    private Devices devices;

    public Resources getResources() { return resources; }
    public void setResources(Resources resources) { this.resources = resources; }
    public Cpu getCpu() { return cpu; }
    public void setCpu(Cpu cpu) { this.cpu = cpu; }
    public Memory getMemory() { return memory; }
    public void setMemory(Memory memory) { this.memory = memory; }
    public Devices getDevices() { return devices; }
    public void setDevices(Devices devices) { this.devices = devices; }

    /** {@code domain.resources}: what the launcher pod requests. */
    public static class Resources extends ExtensibleObject {
        private Map<String, Quantity> requests;
        private Map<String, Quantity> limits;

        public Map<String, Quantity> getRequests() { return requests; }
        public void setRequests(Map<String, Quantity> requests) { this.requests = requests; }
        public Map<String, Quantity> getLimits() { return limits; }
        public void setLimits(Map<String, Quantity> limits) { this.limits = limits; }
    }

    /** {@code domain.cpu}. */
    public static class Cpu extends ExtensibleObject {
        private Integer cores;
        private Integer sockets;
        private Integer threads;
        private String model;
        private Boolean dedicatedCpuPlacement;

        public Integer getCores() { return cores; }
        public void setCores(Integer cores) { this.cores = cores; }
        public Integer getSockets() { return sockets; }
        public void setSockets(Integer sockets) { this.sockets = sockets; }
        public Integer getThreads() { return threads; }
        public void setThreads(Integer threads) { this.threads = threads; }
        public String getModel() { return model; }
        public void setModel(String model) { this.model = model; }
        public Boolean getDedicatedCpuPlacement() { return dedicatedCpuPlacement; }
        public void setDedicatedCpuPlacement(Boolean dedicatedCpuPlacement) { this.dedicatedCpuPlacement = dedicatedCpuPlacement; }
    }

    /** {@code domain.memory}: {@code guest} is the memory the guest sees (and a migration copies). */
    public static class Memory extends ExtensibleObject {
        private Quantity guest;

        public Quantity getGuest() { return guest; }
        public void setGuest(Quantity guest) { this.guest = guest; }
    }

    /** {@code domain.devices}: host devices, GPUs and the pod network's interface decide live-migratability. */
    public static class Devices extends ExtensibleObject {
        private List<HostDevice> hostDevices;
        private List<HostDevice> gpus;
        private List<Interface> interfaces;

        public List<Interface> getInterfaces() { return interfaces; }
        public void setInterfaces(List<Interface> interfaces) { this.interfaces = interfaces; }

        public List<HostDevice> getHostDevices() { return hostDevices; }
        public void setHostDevices(List<HostDevice> hostDevices) { this.hostDevices = hostDevices; }
        public List<HostDevice> getGpus() { return gpus; }
        public void setGpus(List<HostDevice> gpus) { this.gpus = gpus; }
    }

    /** An entry of {@code hostDevices} or {@code gpus}: both have a name and a device name. */
    public static class HostDevice extends ExtensibleObject {
        private String name;
        private String deviceName;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getDeviceName() { return deviceName; }
        public void setDeviceName(String deviceName) { this.deviceName = deviceName; }
    }

    /**
     * An entry of {@code devices.interfaces}: its name (that of its network) and its binding, one of {@code bridge},
     * {@code masquerade}, {@code sriov}, {@code passtBinding} (empty objects when set) or a {@code binding} plugin.
     */
    public static class Interface extends ExtensibleObject {
        private String name;
        private Map<String, Object> bridge;
        private Map<String, Object> masquerade;
        private Map<String, Object> sriov;
        private Map<String, Object> passtBinding;
        private Map<String, Object> binding;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public Map<String, Object> getBridge() { return bridge; }
        public void setBridge(Map<String, Object> bridge) { this.bridge = bridge; }
        public Map<String, Object> getMasquerade() { return masquerade; }
        public void setMasquerade(Map<String, Object> masquerade) { this.masquerade = masquerade; }
        public Map<String, Object> getSriov() { return sriov; }
        public void setSriov(Map<String, Object> sriov) { this.sriov = sriov; }
        public Map<String, Object> getPasstBinding() { return passtBinding; }
        public void setPasstBinding(Map<String, Object> passtBinding) { this.passtBinding = passtBinding; }
        public Map<String, Object> getBinding() { return binding; }
        public void setBinding(Map<String, Object> binding) { this.binding = binding; }
    }
}
