#!/usr/bin/env python3
"""Generates the KubeVirt CustomResourceDefinitions the embedded cluster serves and `drainboard install-crds` installs.

Usage (needs python3 with PyYAML):

    git clone https://github.com/kubevirt/kubevirt && git -C kubevirt checkout v1.9.0
    scripts/generate-kubevirt-crds.py path/to/kubevirt [--release v1.9.0]

It writes one manifest per CRD to controllers-embedded/common/src/main/resources/kubevirt/crds/ (the YAML to read and
review), the list of names (install order) to crds.txt beside them, and the same manifests as one gzipped JSON array,
crds.json.gz, which KubeVirtCrds loads (parsing 4 MB of YAML takes seconds, the JSON a tenth of a second;
KubeVirtCrdsTest checks both say the same).

Where the facts come from (paths in the KubeVirt checkout):
- the structural openAPIV3Schema of every CRD: pkg/virt-operator/resource/generate/components/validations_generated.go
  (KubeVirt's map CRDsValidation, keyed by the CRD's singular name; the operator puts the same schema on every
  version, see patchValidationForAllVersions in crds.go);
- names, short names, categories, scope, versions (served, storage, deprecation warnings), subresources and printer
  columns: pkg/virt-operator/resource/generate/components/crds.go, whose Go builders are transcribed in CRDS below
  (the kubevirt.io versions are core/v1's ApiSupportedVersions, staging/src/kubevirt.io/api/core/v1/register.go);
- which CRDs an installation has: GenerateCurrentInstallStrategy in pkg/virt-operator/resource/generate/install/
  strategy.go, plus the KubeVirt CRD itself (kubevirt-operator.yaml).

The transcription is checked against crds.go, register.go and strategy.go: every builder, short name, printer column
path, deprecation warning and scale path below must appear there, or the script stops without writing anything.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "controllers-embedded", "common", "src", "main", "resources", "kubevirt", "crds")

COMPONENTS = "pkg/virt-operator/resource/generate/components"
AGE = {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
PHASE = {"name": "Phase", "type": "string", "jsonPath": ".status.phase"}
STATUS = {"status": {}}


def col(name, type_, path, description=None, priority=None):
    c = {"name": name, "type": type_, "jsonPath": path}
    if description:
        c["description"] = description
    if priority:
        c["priority"] = priority
    return c


def scale(status=True):
    s = {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas",
                   "labelSelectorPath": ".status.labelSelector"}}
    if status:
        s["status"] = {}
    return s


# core/v1 ApiSupportedVersions (staging/src/kubevirt.io/api/core/v1/register.go)
V1_ALPHA3_WARNING = "kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release."
CORE_VERSIONS = [
    {"name": "v1", "served": True, "storage": True},
    {"name": "v1alpha3", "served": True, "storage": False, "deprecated": True,
     "deprecationWarning": V1_ALPHA3_WARNING},
]


def versions(names_storage, **extra):
    return [dict({"name": n, "served": True, "storage": s}, **extra) for n, s in names_storage]


# One entry per builder in crds.go, in GenerateCurrentInstallStrategy's order, KubeVirt's own CRD last.
CRDS = [
    dict(builder="NewVirtualMachineInstanceCrd", group="kubevirt.io", plural="virtualmachineinstances",
         singular="virtualmachineinstance", kind="VirtualMachineInstance", short=["vmi", "vmis"], categories=["all"],
         versions=CORE_VERSIONS, columns=[
            AGE, PHASE,
            col("IP", "string", ".status.interfaces[0].ipAddress"),
            col("NodeName", "string", ".status.nodeName"),
            col("Ready", "string", ".status.conditions[?(@.type=='Ready')].status"),
            col("Live-Migratable", "string", ".status.conditions[?(@.type=='LiveMigratable')].status", priority=1),
            col("Paused", "string", ".status.conditions[?(@.type=='Paused')].status", priority=1)]),
    dict(builder="NewPresetCrd", group="kubevirt.io", plural="virtualmachineinstancepresets",
         singular="virtualmachineinstancepreset", kind="VirtualMachineInstancePreset",
         short=["vmipreset", "vmipresets"], categories=["all"], versions=[
            {"name": "v1", "served": True, "storage": False, "deprecated": True,
             "deprecationWarning": "kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated and will be removed in v2."},
            {"name": "v1alpha3", "served": True, "storage": True, "deprecated": True,
             "deprecationWarning": "kubevirt.io/v1alpha3 VirtualMachineInstancePresets is now deprecated and will be removed in v2."}]),
    dict(builder="NewReplicaSetCrd", group="kubevirt.io", plural="virtualmachineinstancereplicasets",
         singular="virtualmachineinstancereplicaset", kind="VirtualMachineInstanceReplicaSet",
         short=["vmirs", "vmirss"], categories=["all"], versions=CORE_VERSIONS, subresources=scale(), columns=[
            col("Desired", "integer", ".spec.replicas", "Number of desired VirtualMachineInstances"),
            col("Current", "integer", ".status.replicas",
                "Number of managed and not final or deleted VirtualMachineInstances"),
            col("Ready", "integer", ".status.readyReplicas",
                "Number of managed VirtualMachineInstances which are ready to receive traffic"),
            AGE]),
    dict(builder="NewVirtualMachineCrd", group="kubevirt.io", plural="virtualmachines", singular="virtualmachine",
         kind="VirtualMachine", short=["vm", "vms"], categories=["all"], versions=CORE_VERSIONS, subresources=STATUS,
         columns=[AGE, col("Status", "string", ".status.printableStatus", "Human Readable Status"),
                  col("Ready", "string", ".status.conditions[?(@.type=='Ready')].status")]),
    dict(builder="NewVirtualMachineInstanceMigrationCrd", group="kubevirt.io",
         plural="virtualmachineinstancemigrations", singular="virtualmachineinstancemigration",
         kind="VirtualMachineInstanceMigration", short=["vmim", "vmims"], categories=["all"], versions=CORE_VERSIONS,
         subresources=STATUS, columns=[
            col("Phase", "string", ".status.phase", "The current phase of VM instance migration"),
            col("VMI", "string", ".spec.vmiName", "The name of the VMI to perform the migration on")]),
    dict(builder="NewVirtualMachineSnapshotCrd", group="snapshot.kubevirt.io", plural="virtualmachinesnapshots",
         singular="virtualmachinesnapshot", kind="VirtualMachineSnapshot", short=["vmsnapshot", "vmsnapshots"],
         categories=["all"], conversion=True,
         versions=versions([("v1alpha1", False), ("v1beta1", True)], subresources=STATUS), columns=[
            col("SourceKind", "string", ".spec.source.kind"), col("SourceName", "string", ".spec.source.name"),
            PHASE, col("ReadyToUse", "boolean", ".status.readyToUse"),
            col("CreationTime", "date", ".status.creationTime"), col("Error", "string", ".status.error.message")]),
    dict(builder="NewVirtualMachineSnapshotContentCrd", group="snapshot.kubevirt.io",
         plural="virtualmachinesnapshotcontents", singular="virtualmachinesnapshotcontent",
         kind="VirtualMachineSnapshotContent", short=["vmsnapshotcontent", "vmsnapshotcontents"], categories=["all"],
         conversion=True, versions=versions([("v1alpha1", False), ("v1beta1", True)], subresources=STATUS),
         columns=[col("ReadyToUse", "boolean", ".status.readyToUse"),
                  col("CreationTime", "date", ".status.creationTime"),
                  col("Error", "string", ".status.error.message")]),
    dict(builder="NewVirtualMachineRestoreCrd", group="snapshot.kubevirt.io", plural="virtualmachinerestores",
         singular="virtualmachinerestore", kind="VirtualMachineRestore", short=["vmrestore", "vmrestores"],
         categories=["all"], conversion=True,
         versions=versions([("v1alpha1", False), ("v1beta1", True)], subresources=STATUS), columns=[
            col("TargetKind", "string", ".spec.target.kind"), col("TargetName", "string", ".spec.target.name"),
            col("Complete", "boolean", ".status.complete"), col("RestoreTime", "date", ".status.restoreTime")]),
    dict(builder="NewVirtualMachineInstancetypeCrd", group="instancetype.kubevirt.io",
         plural="virtualmachineinstancetypes", singular="virtualmachineinstancetype",
         kind="VirtualMachineInstancetype", short=["vminstancetype", "vminstancetypes", "vmf", "vmfs"],
         categories=["all"], conversion=True, versions=versions([("v1beta1", True)])),
    dict(builder="NewVirtualMachineClusterInstancetypeCrd", group="instancetype.kubevirt.io",
         plural="virtualmachineclusterinstancetypes", singular="virtualmachineclusterinstancetype",
         kind="VirtualMachineClusterInstancetype",
         short=["vmclusterinstancetype", "vmclusterinstancetypes", "vmcf", "vmcfs"], scope="Cluster",
         conversion=True, versions=versions([("v1beta1", True)])),
    dict(builder="NewVirtualMachinePoolCrd", group="pool.kubevirt.io", plural="virtualmachinepools",
         singular="virtualmachinepool", kind="VirtualMachinePool", short=["vmpool", "vmpools"], categories=["all"],
         versions=versions([("v1alpha1", False), ("v1beta1", True)]), subresources=scale(), columns=[
            col("Desired", "integer", ".spec.replicas", "Number of desired VirtualMachines"),
            col("Current", "integer", ".status.replicas", "Number of managed and not final or deleted VirtualMachines"),
            col("Ready", "integer", ".status.readyReplicas",
                "Number of managed VirtualMachines which are ready to receive traffic"),
            AGE]),
    dict(builder="NewMigrationPolicyCrd", group="migrations.kubevirt.io", plural="migrationpolicies",
         singular="migrationpolicy", kind="MigrationPolicy", scope="Cluster", versions=versions([("v1alpha1", True)]),
         subresources=STATUS),
    dict(builder="NewVirtualMachinePreferenceCrd", group="instancetype.kubevirt.io",
         plural="virtualmachinepreferences", singular="virtualmachinepreference", kind="VirtualMachinePreference",
         short=["vmpref", "vmprefs", "vmp", "vmps"], categories=["all"], conversion=True,
         versions=versions([("v1beta1", True)])),
    dict(builder="NewVirtualMachineClusterPreferenceCrd", group="instancetype.kubevirt.io",
         plural="virtualmachineclusterpreferences", singular="virtualmachineclusterpreference",
         kind="VirtualMachineClusterPreference", short=["vmcp", "vmcps"], scope="Cluster", conversion=True,
         versions=versions([("v1beta1", True)])),
    dict(builder="NewVirtualMachineExportCrd", group="export.kubevirt.io", plural="virtualmachineexports",
         singular="virtualmachineexport", kind="VirtualMachineExport", short=["vmexport", "vmexports"],
         categories=["all"], conversion=True, versions=[
            {"name": "v1beta1", "served": True, "storage": False, "deprecated": True,
             "deprecationWarning": "export.kubevirt.io/v1beta1 VirtualMachineExport is now deprecated and will be removed in a future version.",
             "subresources": STATUS},
            {"name": "v1", "served": True, "storage": True, "subresources": STATUS}],
         columns=[col("SourceKind", "string", ".spec.source.kind"), col("SourceName", "string", ".spec.source.name"),
                  PHASE]),
    dict(builder="NewVirtualMachineCloneCrd", group="clone.kubevirt.io", plural="virtualmachineclones",
         singular="virtualmachineclone", kind="VirtualMachineClone", short=["vmclone", "vmclones"],
         categories=["all"], versions=versions([("v1alpha1", False), ("v1beta1", True)]), subresources=STATUS,
         columns=[PHASE, col("SourceVirtualMachine", "string", ".spec.source.name"),
                  col("TargetVirtualMachine", "string", ".spec.target.name")]),
    dict(builder="NewVirtualMachineBackupCrd", group="backup.kubevirt.io", plural="virtualmachinebackups",
         singular="virtualmachinebackup", kind="VirtualMachineBackup", short=["vmbackup", "vmbackups"],
         categories=["all"], conversion=True, versions=versions([("v1alpha1", True)], subresources=STATUS),
         columns=[col("SourceKind", "string", ".spec.source.kind"), col("SourceName", "string", ".spec.source.name"),
                  col("Type", "string", ".status.type"), col("CheckpointName", "string", ".status.checkpointName")]),
    dict(builder="NewVirtualMachineBackupTrackerCrd", group="backup.kubevirt.io",
         plural="virtualmachinebackuptrackers", singular="virtualmachinebackuptracker",
         kind="VirtualMachineBackupTracker", short=["vmbackuptracker", "vmbackuptrackers"], categories=["all"],
         conversion=True, versions=versions([("v1alpha1", True)], subresources=STATUS),
         columns=[col("SourceKind", "string", ".spec.source.kind"), col("SourceName", "string", ".spec.source.name"),
                  col("LatestCheckpoint", "string", ".status.latestCheckpoint.name"),
                  col("CheckpointTime", "date", ".status.latestCheckpoint.creationTime")]),
    dict(builder="NewPluginCrd", group="plugin.kubevirt.io", plural="plugins", singular="plugin", kind="Plugin",
         list_kind="PluginList", scope="Cluster", versions=versions([("v1alpha1", True)])),
    dict(builder="NewKubeVirtCrd", group="kubevirt.io", plural="kubevirts", singular="kubevirt", kind="KubeVirt",
         short=["kv", "kvs"], categories=["all"], versions=CORE_VERSIONS, subresources=STATUS,
         labels={"operator.kubevirt.io": ""}, columns=[AGE, PHASE]),
]


def go_schemas(checkout):
    """CRDsValidation: singular name -> the YAML of a CustomResourceValidation (openAPIV3Schema: ...)."""
    with open(os.path.join(checkout, COMPONENTS, "validations_generated.go"), encoding="utf-8") as f:
        text = f.read()
    found = dict(re.findall(r'^\t"([a-z]+)": `(.*?)`,$', text, flags=re.S | re.M))
    if not found:
        sys.exit("no schemas found in validations_generated.go: has its layout changed?")
    return found


def check_transcription(checkout):
    """Stops if a fact transcribed in CRDS is not in KubeVirt's sources (they changed, or a typo here)."""
    def read(path):
        with open(os.path.join(checkout, path), encoding="utf-8") as f:
            return f.read()

    crds_go = read(COMPONENTS + "/crds.go")
    strategy = read("pkg/virt-operator/resource/generate/install/strategy.go")
    register = read("staging/src/kubevirt.io/api/core/v1/register.go")
    problems = []
    install_list = re.search(r"functions := \[\]func\(\).*?\{(.*?)\n\t\}", strategy, flags=re.S)
    installed = re.findall(r"components\.(New\w+Crd)", install_list.group(1)) if install_list else []
    listed = [c["builder"] for c in CRDS if c["builder"] != "NewKubeVirtCrd"]
    if installed != listed:
        problems.append(f"strategy.go installs {installed}, the table has {listed}")
    if V1_ALPHA3_WARNING not in register:
        problems.append("core/v1 register.go lacks the v1alpha3 deprecation warning")
    for c in CRDS:
        body = re.search(r"func " + c["builder"] + r"\(\).*?\n}\n", crds_go, flags=re.S)
        if not body:
            problems.append(f"crds.go has no {c['builder']}")
            continue
        body = body.group(0)
        for const, value in re.findall(r'^\t(\w+JSONPath)\s*=\s*("[^"]*")', crds_go, flags=re.M):
            body = body.replace(const, value)
        facts = [f'"{s}"' for s in c.get("short", [])]
        facts += [f'"{col_["jsonPath"]}"' for col_ in c.get("columns", []) if col_ not in (AGE, PHASE)]
        facts += [f'"{v["deprecationWarning"]}"' for v in c["versions"]
                  if "deprecationWarning" in v and v["deprecationWarning"] != V1_ALPHA3_WARNING]
        if "scale" in c.get("subresources", {}):
            facts.append('SpecReplicasPath:   ".spec.replicas"')
        if c["versions"] is CORE_VERSIONS:
            facts.append("newCRDVersions()")
        problems += [f"{c['builder']}: {fact} is not in crds.go" for fact in facts if fact not in body]
    if problems:
        sys.exit("the table no longer matches KubeVirt's sources:\n  " + "\n  ".join(problems))


def manifest(c, schema, release):
    versions_ = []
    for v in c["versions"]:
        v = dict(v)
        v["schema"] = schema
        if c.get("subresources"):
            v["subresources"] = c["subresources"]
        if c.get("columns"):
            v["additionalPrinterColumns"] = c["columns"]
        versions_.append(v)
    names = {"kind": c["kind"], "listKind": c.get("list_kind", c["kind"] + "List"), "plural": c["plural"],
             "singular": c["singular"]}
    if c.get("short"):
        names["shortNames"] = c["short"]
    if c.get("categories"):
        names["categories"] = c["categories"]
    spec = {"group": c["group"], "names": names, "scope": c.get("scope", "Namespaced")}
    if c.get("conversion"):
        spec["conversion"] = {"strategy": "None"}
    spec["versions"] = versions_
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": c["plural"] + "." + c["group"], "labels": c.get("labels", {"kubevirt.io": ""})},
            "spec": spec}


class NoAliases(yaml.SafeDumper):
    """Every version carries the schema in full, as the operator writes it (no YAML anchors)."""

    def ignore_aliases(self, data):
        return True


def release_of(checkout):
    try:
        return subprocess.run(["git", "-C", checkout, "describe", "--tags"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a KubeVirt source tree (git checkout of a release tag)")
    parser.add_argument("--release", help="the release the tree is (default: git describe --tags)")
    parser.add_argument("--out", default=OUT, help="where the manifests go")
    args = parser.parse_args()
    release = args.release or release_of(args.checkout)
    if not release:
        sys.exit("cannot tell which KubeVirt release the checkout is: pass --release")

    check_transcription(args.checkout)
    schemas = go_schemas(args.checkout)
    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.endswith(".yaml"):
            os.remove(os.path.join(args.out, old))
    names = []
    manifests = []
    for c in CRDS:
        validation = yaml.safe_load(schemas[c["singular"]])
        m = manifest(c, validation, release)
        name = m["metadata"]["name"]
        names.append(name)
        manifests.append(m)
        with open(os.path.join(args.out, name + ".yaml"), "w", encoding="utf-8") as f:
            f.write(f"# Generated by scripts/generate-kubevirt-crds.py from KubeVirt {release}"
                    f" ({c['builder']} in {COMPONENTS}/crds.go,\n# schema CRDsValidation[\"{c['singular']}\"]"
                    f" in validations_generated.go). Do not edit: re-run the script.\n")
            yaml.dump(m, f, Dumper=NoAliases, sort_keys=False, width=120, allow_unicode=True)
    # mtime 0: the same input gives the same bytes, so a re-run changes nothing in git.
    with gzip.GzipFile(os.path.join(args.out, "crds.json.gz"), "wb", mtime=0) as f:
        f.write(json.dumps(manifests, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    with open(os.path.join(args.out, "crds.txt"), "w", encoding="utf-8") as f:
        f.write(f"# KubeVirt {release}: the CRDs an installation serves, in install order"
                " (generated by scripts/generate-kubevirt-crds.py)\n")
        f.write("\n".join(names) + "\n")
    print(f"wrote {len(names)} CRDs of KubeVirt {release} to {os.path.relpath(args.out)}")


if __name__ == "__main__":
    main()
