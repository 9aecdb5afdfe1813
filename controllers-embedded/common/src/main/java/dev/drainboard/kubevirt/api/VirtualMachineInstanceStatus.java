package dev.drainboard.kubevirt.api;

import java.util.List;
import java.util.Map;

/**
 * {@code vmi.status}. The VMI CRD has no status subresource: controllers change these fields with patches on the
 * VMI itself (for example JSON patch {@code /status/evacuationNodeName}). Guest OS info, volume status, machine,
 * memory and the rest are kept as they are.
 */
public class VirtualMachineInstanceStatus extends ExtensibleObject {

    private String phase;
    private String reason;
    private String nodeName;
    private String evacuationNodeName;
    private List<Condition> conditions;
    private MigrationState migrationState;
    private String migrationMethod;
    private String migrationTransport;
    private List<PhaseTransitionTimestamp> phaseTransitionTimestamps;
    private Map<String, String> activePods;
    private String launcherContainerImageVersion;
    private List<NetworkInterface> interfaces;
    private String qosClass;

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public String getNodeName() { return nodeName; }
    public void setNodeName(String nodeName) { this.nodeName = nodeName; }
    public String getEvacuationNodeName() { return evacuationNodeName; }
    public void setEvacuationNodeName(String evacuationNodeName) { this.evacuationNodeName = evacuationNodeName; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
    public MigrationState getMigrationState() { return migrationState; }
    public void setMigrationState(MigrationState migrationState) { this.migrationState = migrationState; }
    public String getMigrationMethod() { return migrationMethod; }
    public void setMigrationMethod(String migrationMethod) { this.migrationMethod = migrationMethod; }
    public String getMigrationTransport() { return migrationTransport; }
    public void setMigrationTransport(String migrationTransport) { this.migrationTransport = migrationTransport; }
    public List<PhaseTransitionTimestamp> getPhaseTransitionTimestamps() { return phaseTransitionTimestamps; }
    public void setPhaseTransitionTimestamps(List<PhaseTransitionTimestamp> phaseTransitionTimestamps) { this.phaseTransitionTimestamps = phaseTransitionTimestamps; }
    public Map<String, String> getActivePods() { return activePods; }
    public void setActivePods(Map<String, String> activePods) { this.activePods = activePods; }
    public String getLauncherContainerImageVersion() { return launcherContainerImageVersion; }
    public void setLauncherContainerImageVersion(String launcherContainerImageVersion) { this.launcherContainerImageVersion = launcherContainerImageVersion; }
    public List<NetworkInterface> getInterfaces() { return interfaces; }
    public void setInterfaces(List<NetworkInterface> interfaces) { this.interfaces = interfaces; }
    public String getQosClass() { return qosClass; }
    public void setQosClass(String qosClass) { this.qosClass = qosClass; }

    /** {@code status.interfaces[]}: a guest network interface as the node reports it. */
    public static class NetworkInterface extends ExtensibleObject {
        private String name;
        private String interfaceName;
        private String ipAddress;
        private List<String> ipAddresses;
        private String mac;
        private String infoSource;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getInterfaceName() { return interfaceName; }
        public void setInterfaceName(String interfaceName) { this.interfaceName = interfaceName; }
        public String getIpAddress() { return ipAddress; }
        public void setIpAddress(String ipAddress) { this.ipAddress = ipAddress; }
        public List<String> getIpAddresses() { return ipAddresses; }
        public void setIpAddresses(List<String> ipAddresses) { this.ipAddresses = ipAddresses; }
        public String getMac() { return mac; }
        public void setMac(String mac) { this.mac = mac; }
        public String getInfoSource() { return infoSource; }
        public void setInfoSource(String infoSource) { this.infoSource = infoSource; }
    }
}
