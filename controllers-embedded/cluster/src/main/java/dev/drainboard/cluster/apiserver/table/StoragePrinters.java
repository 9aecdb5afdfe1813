package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/** PersistentVolumeClaim, PersistentVolume and StorageClass printers. */
final class StoragePrinters {
    // The storage class annotation that predates spec.storageClassName and still takes precedence over it.
    private static final String BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
    private static final List<Map.Entry<String, String>> ACCESS_MODE_ABBREVIATIONS = List.of(
            Map.entry("ReadWriteOnce", "RWO"), Map.entry("ReadOnlyMany", "ROX"),
            Map.entry("ReadWriteMany", "RWX"), Map.entry("ReadWriteOncePod", "RWOP"));
    private static final List<String> DEFAULT_CLASS_ANNOTATIONS = List.of(
            "storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class");

    private StoragePrinters() {
    }

    /** NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE, wide VOLUMEMODE. */
    static ResourcePrinter persistentVolumeClaims() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Status", "string", "The claim's phase, or Terminating while it is being deleted."),
                column("Volume", "string", "The persistent volume bound to the claim."),
                column("Capacity", "string", "The storage capacity of the bound volume."),
                column("Access Modes", "string", "The access modes of the bound volume."),
                column("StorageClass", "string", "The storage class of the claim."),
                column("VolumeAttributesClass", "string", "The volume attributes class of the claim."),
                ageColumn(),
                wideColumn("VolumeMode", "string", "Filesystem or Block.")),
                (claim, now) -> {
                    String volumeName = Fields.text(claim, "spec", "volumeName");
                    boolean bound = !volumeName.isEmpty(); // capacity and modes are only shown once bound
                    return new Cells()
                            .text(Fields.text(claim, "metadata", "name"))
                            .text(phase(claim))
                            .text(volumeName)
                            .text(bound ? quantity(Fields.at(claim, "status", "capacity", "storage")) : "")
                            .text(bound ? accessModes(Fields.at(claim, "status", "accessModes")) : "")
                            .text(storageClass(claim))
                            .text(Fields.textOr("<unset>", claim, "spec", "volumeAttributesClassName"))
                            .text(Ages.since(Fields.at(claim, "metadata", "creationTimestamp"), now))
                            .text(Fields.textOr("<unset>", claim, "spec", "volumeMode"));
                });
    }

    /** NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE, wide VOLUMEMODE. */
    static ResourcePrinter persistentVolumes() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Capacity", "string", "The volume's storage capacity."),
                column("Access Modes", "string", "The volume's access modes."),
                column("Reclaim Policy", "string", "What happens to the volume when its claim is released."),
                column("Status", "string", "The volume's phase, or Terminating while it is being deleted."),
                column("Claim", "string", "The claim bound to the volume, as namespace/name."),
                column("StorageClass", "string", "The storage class of the volume."),
                column("VolumeAttributesClass", "string", "The volume attributes class of the volume."),
                column("Reason", "string", "Why the volume is in its phase, if it failed."),
                ageColumn(),
                wideColumn("VolumeMode", "string", "Filesystem or Block.")),
                (volume, now) -> {
                    JsonNode claimRef = Fields.at(volume, "spec", "claimRef");
                    String claim = claimRef.isMissingNode()
                            ? "" : Fields.text(claimRef, "namespace") + "/" + Fields.text(claimRef, "name");
                    return new Cells()
                            .text(Fields.text(volume, "metadata", "name"))
                            .text(quantity(Fields.at(volume, "spec", "capacity", "storage")))
                            .text(accessModes(Fields.at(volume, "spec", "accessModes")))
                            .text(Fields.text(volume, "spec", "persistentVolumeReclaimPolicy"))
                            .text(phase(volume))
                            .text(claim)
                            .text(storageClass(volume))
                            .text(Fields.textOr("<unset>", volume, "spec", "volumeAttributesClassName"))
                            .text(Fields.text(volume, "status", "reason"))
                            .text(Ages.since(Fields.at(volume, "metadata", "creationTimestamp"), now))
                            .text(Fields.textOr("<unset>", volume, "spec", "volumeMode"));
                });
    }

    /** NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE; the default class is marked in NAME. */
    static ResourcePrinter storageClasses() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Provisioner", "string", "The volume plugin that provisions volumes of this class."),
                column("ReclaimPolicy", "string", "The reclaim policy of volumes provisioned for this class."),
                column("VolumeBindingMode", "string", "When volumes are bound and provisioned."),
                column("AllowVolumeExpansion", "string", "Whether volumes of this class can be expanded."),
                ageColumn()),
                (storageClass, now) -> {
                    String name = Fields.text(storageClass, "metadata", "name");
                    return new Cells()
                            .text(isDefaultClass(storageClass) ? name + " (default)" : name)
                            .text(Fields.text(storageClass, "provisioner"))
                            .text(Fields.textOr("Delete", storageClass, "reclaimPolicy"))
                            .text(Fields.textOr("Immediate", storageClass, "volumeBindingMode"))
                            .bool(Fields.bool(storageClass, "allowVolumeExpansion"))
                            .text(Ages.since(Fields.at(storageClass, "metadata", "creationTimestamp"), now));
                });
    }

    private static String phase(JsonNode object) {
        return Fields.has(object, "metadata", "deletionTimestamp") ? "Terminating" : Fields.text(object, "status", "phase");
    }

    private static String storageClass(JsonNode object) {
        JsonNode annotations = Fields.at(object, "metadata", "annotations");
        return annotations.has(BETA_STORAGE_CLASS_ANNOTATION)
                ? Fields.text(annotations, BETA_STORAGE_CLASS_ANNOTATION)
                : Fields.text(object, "spec", "storageClassName");
    }

    private static boolean isDefaultClass(JsonNode storageClass) {
        JsonNode annotations = Fields.at(storageClass, "metadata", "annotations");
        return DEFAULT_CLASS_ANNOTATIONS.stream().anyMatch(key -> "true".equals(Fields.text(annotations, key)));
    }

    /** A stored quantity string; an absent one is the zero quantity "0". */
    private static String quantity(JsonNode quantity) {
        return quantity.isMissingNode() ? "0" : quantity.asText();
    }

    /** Access modes abbreviated in a fixed order, duplicates dropped. */
    private static String accessModes(JsonNode modes) {
        Set<String> present = Fields.list(modes).stream().map(JsonNode::asText).collect(Collectors.toSet());
        return ACCESS_MODE_ABBREVIATIONS.stream()
                .filter(mode -> present.contains(mode.getKey()))
                .map(Map.Entry::getValue)
                .collect(Collectors.joining(","));
    }
}
