package dev.drainboard.cluster.apiserver.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.labels.SelectorException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorValidateTest {
    @ParameterizedTest(name = "{0}/{1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ``                    | pods                       | metadata.name=a,metadata.namespace=b                    | metadata.name=a,metadata.namespace=b
            ``                    | pods                       | spec.nodeName=n,status.phase!=Succeeded,status.phase!=Failed | spec.nodeName=n,status.phase!=Failed,status.phase!=Succeeded
            ``                    | pods                       | spec.host=n                                             | spec.nodeName=n
            ``                    | pods                       | spec.restartPolicy=Always,spec.schedulerName=s,spec.serviceAccountName=sa,spec.hostNetwork=true | spec.hostNetwork=true,spec.restartPolicy=Always,spec.schedulerName=s,spec.serviceAccountName=sa
            ``                    | pods                       | status.podIP=1.2.3.4,status.podIPs=1.2.3.4,status.nominatedNodeName=n | status.nominatedNodeName=n,status.podIP=1.2.3.4,status.podIPs=1.2.3.4
            ``                    | events                     | involvedObject.name=x,involvedObject.namespace=y,involvedObject.uid=z | involvedObject.name=x,involvedObject.namespace=y,involvedObject.uid=z
            ``                    | events                     | involvedObject.kind=Pod,involvedObject.apiVersion=v1,involvedObject.resourceVersion=1,involvedObject.fieldPath=f | involvedObject.apiVersion=v1,involvedObject.fieldPath=f,involvedObject.kind=Pod,involvedObject.resourceVersion=1
            ``                    | events                     | reason=Killing,reportingComponent=kubelet,source=kubelet,type=Normal | reason=Killing,reportingComponent=kubelet,source=kubelet,type=Normal
            events.k8s.io         | events                     | regarding.name=x,regarding.uid=u,reportingController=c | involvedObject.name=x,involvedObject.uid=u,reportingComponent=c
            events.k8s.io         | events                     | reason=r,type=Warning,source=s,metadata.namespace=n   | metadata.namespace=n,reason=r,source=s,type=Warning
            ``                    | nodes                      | metadata.name=n,spec.unschedulable=true                 | metadata.name=n,spec.unschedulable=true
            ``                    | namespaces                 | status.phase=Active                                     | status.phase=Active
            ``                    | secrets                    | type=kubernetes.io/tls                                  | type=kubernetes.io/tls
            ``                    | services                   | spec.clusterIP=None,spec.type=ClusterIP                 | spec.clusterIP=None,spec.type=ClusterIP
            ``                    | replicationcontrollers     | status.replicas=0                                       | status.replicas=0
            batch                 | jobs                       | status.successful=1                                     | status.successful=1
            certificates.k8s.io   | certificatesigningrequests | spec.signerName=kubernetes.io/kubelet-serving           | spec.signerName=kubernetes.io/kubelet-serving
            apps                  | deployments                | metadata.name=d,metadata.namespace=n                    | metadata.name=d,metadata.namespace=n
            rbac.authorization.k8s.io | clusterroles           | metadata.namespace=                                     | metadata.namespace=
            """)
    void acceptsSupportedFields(String group, String plural, String selector, String canonical) throws SelectorException {
        assertThat(FieldSelector.parse(selector).validateFor(group, plural, null).toString()).isEqualTo(canonical);
    }

    @ParameterizedTest(name = "{0}/{1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ``                  | pods                       | spec.containers=x                  | field label not supported: spec.containers
            ``                  | pods                       | status.phase=Running,metadata.uid=u | field label not supported: metadata.uid
            ``                  | nodes                      | metadata.namespace=default         | field label not supported: metadata.namespace
            ``                  | nodes                      | spec.nodeName=n                    | field label not supported: spec.nodeName
            ``                  | namespaces                 | metadata.namespace=x               | field label not supported: metadata.namespace
            ``                  | events                     | regarding.name=x                   | field label not supported: regarding.name
            ``                  | secrets                    | data.x=y                           | field label not supported: data.x
            events.k8s.io       | events                     | involvedObject.name=x              | field label not supported: involvedObject.name
            events.k8s.io       | events                     | deprecatedSource.component=x       | field label not supported: deprecatedSource.component
            batch               | jobs                       | status.active=1                    | field label "status.active" not supported for Job
            certificates.k8s.io | certificatesigningrequests | spec.username=u                    | field label not supported: spec.username
            apps                | replicasets                | status.replicas=1                  | "status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"
            apps                | deployments                | spec.replicas=1                    | "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"
            ``                  | configmaps                 | data=x                             | "data" is not a known field selector: only "metadata.name", "metadata.namespace"
            networking.k8s.io   | ingresses                  | foo.bar=baz                        | "foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"
            """)
    void rejectsUnsupportedFieldsWithKubeApiserverMessage(String group, String plural, String selector, String message)
            throws SelectorException {
        FieldSelector parsed = FieldSelector.parse(selector);
        assertThatThrownBy(() -> parsed.validateFor(group, plural, null))
                .isInstanceOf(SelectorException.class)
                .hasMessage(message);
    }

    @Test
    void fieldNamesAreTakenAsWrittenSpacesIncluded() throws SelectorException {
        FieldSelector spaced = FieldSelector.parse("spec.nodeName =n");
        assertThatThrownBy(() -> spaced.validateFor("", "pods", null))
                .hasMessage("field label not supported: spec.nodeName ");
    }

    @Test
    void customResourcesAcceptTheirSelectableFields() throws SelectorException {
        Set<String> selectable = Set.of("spec.color", ".spec.size");
        FieldSelector selector = FieldSelector.parse("spec.color=red,spec.size=3,metadata.namespace=n");
        assertThat(selector.validateFor("example.com", "widgets", selectable).toString())
                .isEqualTo("metadata.namespace=n,spec.color=red,spec.size=3");
        assertThatThrownBy(() -> FieldSelector.parse("spec.shape=round").validateFor("example.com", "widgets", selectable))
                .hasMessage("field label not supported: spec.shape");
        assertThatThrownBy(() -> FieldSelector.parse("spec.color=red").validateFor("example.com", "widgets", null))
                .hasMessage("field label not supported: spec.color");
    }

    @Test
    void clusterScopedCustomResourcesRejectNamespace() throws SelectorException {
        FieldSelector selector = FieldSelector.parse("metadata.namespace=n");
        assertThat(selector.validateFor("example.com", "widgets", Set.of(), true).toString()).isEqualTo("metadata.namespace=n");
        assertThatThrownBy(() -> selector.validateFor("example.com", "globals", Set.of(), false))
                .hasMessage("field label not supported: metadata.namespace");
    }

    @Test
    void everythingIsValidForAnyResource() throws SelectorException {
        assertThat(FieldSelector.parse("").validateFor("", "nodes", null).isEverything()).isTrue();
    }
}
