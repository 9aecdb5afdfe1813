package dev.drainboard.kubevirt.api;

/**
 * A VMI volume. Only the sources that decide migratability are modelled (shared PVCs and DataVolumes,
 * host disks, container disks); cloud-init, config maps, secrets and the rest are kept as they are.
 */
public class Volume extends ExtensibleObject {

    private String name;
    private ClaimVolumeSource persistentVolumeClaim;
    private DataVolumeSource dataVolume;
    private ContainerDiskSource containerDisk;
    private HostDiskSource hostDisk;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public ClaimVolumeSource getPersistentVolumeClaim() { return persistentVolumeClaim; }
    public void setPersistentVolumeClaim(ClaimVolumeSource persistentVolumeClaim) { this.persistentVolumeClaim = persistentVolumeClaim; }
    public DataVolumeSource getDataVolume() { return dataVolume; }
    public void setDataVolume(DataVolumeSource dataVolume) { this.dataVolume = dataVolume; }
    public ContainerDiskSource getContainerDisk() { return containerDisk; }
    public void setContainerDisk(ContainerDiskSource containerDisk) { this.containerDisk = containerDisk; }
    public HostDiskSource getHostDisk() { return hostDisk; }
    public void setHostDisk(HostDiskSource hostDisk) { this.hostDisk = hostDisk; }

    /** {@code persistentVolumeClaim}: a PVC in the VMI's namespace. */
    public static class ClaimVolumeSource extends ExtensibleObject {
        private String claimName;
        private Boolean readOnly;
        private Boolean hotpluggable;

        public String getClaimName() { return claimName; }
        public void setClaimName(String claimName) { this.claimName = claimName; }
        public Boolean getReadOnly() { return readOnly; }
        public void setReadOnly(Boolean readOnly) { this.readOnly = readOnly; }
        public Boolean getHotpluggable() { return hotpluggable; }
        public void setHotpluggable(Boolean hotpluggable) { this.hotpluggable = hotpluggable; }
    }

    /** {@code dataVolume}: a CDI DataVolume, backed by a PVC of the same name. */
    public static class DataVolumeSource extends ExtensibleObject {
        private String name;
        private Boolean hotpluggable;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public Boolean getHotpluggable() { return hotpluggable; }
        public void setHotpluggable(Boolean hotpluggable) { this.hotpluggable = hotpluggable; }
    }

    /** {@code containerDisk}: an ephemeral disk from an image; copied with the VM on migration. */
    public static class ContainerDiskSource extends ExtensibleObject {
        private String image;
        private String imagePullPolicy;

        public String getImage() { return image; }
        public void setImage(String image) { this.image = image; }
        public String getImagePullPolicy() { return imagePullPolicy; }
        public void setImagePullPolicy(String imagePullPolicy) { this.imagePullPolicy = imagePullPolicy; }
    }

    /** {@code hostDisk}: a disk image on the node; not live-migratable unless shared. */
    public static class HostDiskSource extends ExtensibleObject {
        private String path;
        private String type;
        private Boolean shared;

        public String getPath() { return path; }
        public void setPath(String path) { this.path = path; }
        public String getType() { return type; }
        public void setType(String type) { this.type = type; }
        public Boolean getShared() { return shared; }
        public void setShared(Boolean shared) { this.shared = shared; }
    }
}
