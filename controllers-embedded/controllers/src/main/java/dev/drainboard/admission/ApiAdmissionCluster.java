package dev.drainboard.admission;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The webhook's reads and writes on the API. VMIs and pods come from informer caches when given and synced
 * (an eviction then costs no API round trip), else from a GET; a pod in the cache without a node is read
 * again, since its binding may not have reached the cache yet. Writes always go to the API.
 */
public final class ApiAdmissionCluster implements AdmissionCluster {

    private final KubernetesClient client;
    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<Pod> pods;

    /**
     * @param vmis informer over all VMIs, or null to GET every VMI
     * @param pods informer over (at least the launcher) pods, or null to GET every pod
     */
    public ApiAdmissionCluster(KubernetesClient client, SharedIndexInformer<VirtualMachineInstance> vmis,
                               SharedIndexInformer<Pod> pods) {
        this.client = client;
        this.vmis = vmis;
        this.pods = pods;
    }

    @Override
    public Pod pod(String namespace, String name) {
        if (pods != null && pods.hasSynced()) {
            Pod cached = pods.getIndexer().getByKey(Keys.of(namespace, name));
            if (cached != null && cached.getSpec() != null && cached.getSpec().getNodeName() != null
                    && !cached.getSpec().getNodeName().isEmpty()) {
                return cached;
            }
        }
        return client.pods().inNamespace(namespace).withName(name).get();
    }

    @Override
    public Source<VirtualMachineInstance> vmi(String namespace, String name, boolean live) throws Exception {
        if (!live && vmis != null && vmis.hasSynced()) {
            VirtualMachineInstance cached = vmis.getIndexer().getByKey(Keys.of(namespace, name));
            if (cached != null) {
                return new Source<>(cached, true);
            }
        }
        VirtualMachineInstance vmi;
        try {
            vmi = client.resources(VirtualMachineInstance.class).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new Exception(errorText(e), e);
        }
        if (vmi == null) {
            // The text the Go client gives a NotFound, which KubeVirt quotes in its denial.
            throw new Exception("virtualmachineinstances.kubevirt.io \"" + name + "\" not found");
        }
        return new Source<>(vmi, false);
    }

    @Override
    public void mark(MarkForEvacuation mark) throws Exception {
        var resource = client.resources(VirtualMachineInstance.class).inNamespace(mark.namespace()).withName(mark.vmiName());
        PatchContext json = PatchContext.of(PatchType.JSON);
        try {
            if (mark.dryRun()) {
                resource.dryRun().patch(json, mark.jsonPatch());
            } else {
                resource.patch(json, mark.jsonPatch());
            }
        } catch (KubernetesClientException e) {
            throw new Exception(errorText(e), e);
        }
    }

    /** The API's own message (as Go's {@code err.Error()} gives it), not fabric8's request dump. */
    static String errorText(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isEmpty()) {
            return e.getStatus().getMessage();
        }
        return e.getMessage();
    }
}
