package dev.drainboard.cluster.e2e;

import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RBAC enforced as kube-apiserver enforces it, driven by the real kubectl: packaging/rbac.yaml applied, one service
 * account bound to drainboard-observe and one to drainboard-control, tokens from {@code kubectl create token}; the
 * observer reads but may not cordon (kube-apiserver's Forbidden message), the controller cordons; the reviews answer
 * for the token's user.
 */
@RequiresKubectl
class KubectlRbacTest {

    private static final Path MANIFEST = Path.of("..", "..", "packaging", "rbac.yaml");

    @TempDir
    static Path dir;

    private static E2eCluster cluster;
    private static Kubectl admin;
    private static Kubectl observer;
    private static Kubectl controller;

    @BeforeAll
    static void start() throws Exception {
        cluster = E2eCluster.startWithKubectl("demo", dir);
        admin = cluster.kubectl();
        admin.apply(Files.readString(MANIFEST));
        admin.succeed("create", "serviceaccount", "observer", "-n", "drainboard");
        admin.succeed("create", "serviceaccount", "operator", "-n", "drainboard");
        admin.succeed("create", "clusterrolebinding", "test-observe", "--clusterrole=drainboard-observe",
                "--serviceaccount=drainboard:observer");
        admin.succeed("create", "clusterrolebinding", "test-control", "--clusterrole=drainboard-control",
                "--serviceaccount=drainboard:operator");
        observer = withToken("observer");
        controller = withToken("operator");
    }

    /** A kubeconfig like the admin's, whose user holds a token of the service account. */
    private static Kubectl withToken(String account) throws Exception {
        return withToken(account, "drainboard");
    }

    private static Kubectl withToken(String account, String namespace) throws Exception {
        String token = admin.succeed("create", "token", account, "-n", namespace).stdout().trim();
        Path kubeconfig = dir.resolve(account + ".kubeconfig");
        Files.copy(cluster.cluster().kubeconfig(), kubeconfig);
        Kubectl kubectl = new Kubectl(kubeconfig, dir.resolve(account + "-cache"));
        kubectl.succeed("config", "set-credentials", account, "--token=" + token);
        kubectl.succeed("config", "set-context", "--current", "--user=" + account);
        return kubectl;
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void bothRolesReadNodes() {
        assertThat(observer.succeed("get", "nodes").stdout()).contains("node01");
        assertThat(controller.succeed("get", "nodes").stdout()).contains("node01");
    }

    @Test
    void theObserverMayNotCordonAndIsToldAsByKubeApiserver() {
        Kubectl.Result result = observer.run("cordon", "node01");

        // kubectl v1.32's cordon prints the refusal and still exits 0
        assertThat(result.stderr()).as(result.describe()).contains("error: unable to cordon node \"node01\": nodes \"node01\" is forbidden: User "
                + "\"system:serviceaccount:drainboard:observer\" cannot patch resource \"nodes\" in API group \"\" at the "
                + "cluster scope");
        assertThat(admin.succeed("get", "node", "node01", "-o", "jsonpath={.spec.unschedulable}").stdout()).isEmpty();
    }

    @Test
    void theControllerCordonsAndUncordons() {
        controller.succeed("cordon", "node02");
        assertThat(admin.succeed("get", "node", "node02", "-o", "jsonpath={.spec.unschedulable}").stdout()).isEqualTo("true");
        controller.succeed("uncordon", "node02");
    }

    /** virt-api's VM subresources are authorized as update on {@code virtualmachines/<action>} before they are served. */
    @Test
    void onlyTheControlRoleMayStopAVm() throws Exception {
        Path body = dir.resolve("stop.json");
        Files.writeString(body, "{\"dryRun\":[\"All\"]}");
        String path = "/apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/web-frontend/stop";

        Kubectl.Result refused = observer.run("replace", "--raw", path, "-f", body.toString());
        assertThat(refused.stderr()).as(refused.describe()).contains("Error from server (Forbidden): virtualmachines.subresources.kubevirt.io "
                + "\"web-frontend\" is forbidden: User \"system:serviceaccount:drainboard:observer\" cannot update resource "
                + "\"virtualmachines/stop\" in API group \"subresources.kubevirt.io\" in the namespace \"demo\"");
        Kubectl.Result allowed = controller.run("replace", "--raw", path, "-f", body.toString());
        assertThat(allowed.exitCode()).as(allowed.describe()).isZero();
    }

    @Test
    void onlyTheControlRoleMayCancelAnEvacuation() throws Exception {
        cluster.cluster().setKubeVirtVersion("v1.8.0"); // the first release that serves evacuate/cancel
        Path body = dir.resolve("cancel.json");
        Files.writeString(body, "{\"evacuationNodeName\":\"node01\"}");
        String path = "/apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachineinstances/web-frontend/evacuate/cancel";

        Kubectl.Result refused = observer.run("replace", "--raw", path, "-f", body.toString());
        assertThat(refused.stderr()).as(refused.describe()).contains("is forbidden: User \"system:serviceaccount:drainboard:observer\" "
                + "cannot update resource \"virtualmachineinstances/evacuate/cancel\" in API group \"subresources.kubevirt.io\" "
                + "in the namespace \"demo\"");
        // Past the authorization, virt-api's own answer: the VMI is not marked for that node (or is fine as it is).
        Kubectl.Result allowed = controller.run("replace", "--raw", path, "-f", body.toString());
        assertThat(allowed.stderr()).as(allowed.describe()).doesNotContain("forbidden");
    }

    @Test
    void secretsAreNotInTheControlRole() {
        assertThat(controller.run("get", "secrets", "-n", "default").stderr())
                .contains("secrets is forbidden: User \"system:serviceaccount:drainboard:operator\" cannot list resource "
                        + "\"secrets\" in API group \"\" in the namespace \"default\"");
    }

    @Test
    void whoamiNamesTheServiceAccount() {
        String out = observer.succeed("auth", "whoami").stdout();
        assertThat(out).contains("system:serviceaccount:drainboard:observer").contains("system:serviceaccounts:drainboard")
                .contains("system:authenticated");
    }

    @Test
    void canIAnswersByTheRoles() {
        assertThat(observer.run("auth", "can-i", "patch", "nodes").stdout()).isEqualTo("no\n");
        assertThat(observer.succeed("auth", "can-i", "list", "nodes").stdout()).isEqualTo("yes\n");
        assertThat(controller.succeed("auth", "can-i", "create", "pods/eviction", "-n", "demo").stdout()).isEqualTo("yes\n");
        assertThat(controller.run("auth", "can-i", "delete", "pods", "--all-namespaces").stdout()).isEqualTo("yes\n");
        assertThat(observer.succeed("auth", "can-i", "--list").stdout()).contains("nodes").contains("[get list watch]");
    }

    @Test
    void aBindingsRoleCannotChangeAndBadRulesAreRefused() {
        Kubectl.Result patched = admin.run("patch", "clusterrolebinding", "test-observe", "--type=merge",
                "-p", "{\"roleRef\":{\"name\":\"drainboard-control\"}}");
        assertThat(patched.stderr()).as(patched.describe()).contains("The ClusterRoleBinding \"test-observe\" is invalid: "
                + "roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", "
                + "Name:\"drainboard-control\"}: cannot change roleRef");

        Kubectl.Result role = admin.runWithInput("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata: {name: bad, namespace: default}
                rules:
                  - nonResourceURLs: ["/healthz"]
                    verbs: [get]
                """, "create", "-f", "-");
        assertThat(role.stderr()).as(role.describe()).contains("rules[0].nonResourceURLs: Invalid value: "
                + "[]string{\"/healthz\"}: namespaced rules cannot apply to non-resource URLs");
    }

    /**
     * RBAC refuses privilege escalation as kube-apiserver does: a user who may create RoleBindings in a namespace may
     * not bind cluster-admin there, nor write a Role granting what they do not hold; with {@code bind} or
     * {@code escalate} they may.
     */
    @Test
    void aTokenHolderCannotGrantWhatTheyDoNotHold() throws Exception {
        admin.succeed("create", "namespace", "team");
        admin.succeed("create", "serviceaccount", "lead", "-n", "team");
        admin.succeed("create", "role", "rbac-writer", "-n", "team", "--verb=create,update",
                "--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io");
        admin.succeed("create", "role", "pod-reader", "-n", "team", "--verb=get,list", "--resource=pods");
        admin.succeed("create", "rolebinding", "lead-rbac", "-n", "team", "--role=rbac-writer", "--serviceaccount=team:lead");
        Kubectl lead = withToken("lead", "team");

        Kubectl.Result bindAdmin = lead.run("create", "rolebinding", "grab", "-n", "team", "--clusterrole=cluster-admin",
                "--serviceaccount=team:lead");
        assertThat(bindAdmin.exitCode()).as(bindAdmin.describe()).isNotZero();
        assertThat(bindAdmin.stderr()).contains("rolebindings.rbac.authorization.k8s.io \"grab\" is forbidden: user "
                + "\"system:serviceaccount:team:lead\" (groups=[\"system:serviceaccounts\" \"system:serviceaccounts:team\" "
                + "\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:",
                "{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}");
        Kubectl.Result readerRole = lead.run("create", "role", "reader", "-n", "team", "--verb=get", "--resource=pods");
        assertThat(readerRole.stderr()).as(readerRole.describe()).contains("is attempting to grant RBAC permissions not currently held:",
                "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\"]}");
        assertThat(admin.run("get", "rolebinding", "grab", "-n", "team").exitCode()).as("nothing written").isNotZero();

        // Holding what the role grants is enough to bind it and to write such a role.
        admin.succeed("create", "rolebinding", "lead-pods", "-n", "team", "--role=pod-reader", "--serviceaccount=team:lead");
        lead.succeed("create", "rolebinding", "share-pods", "-n", "team", "--role=pod-reader", "--serviceaccount=team:default");
        lead.succeed("create", "role", "reader", "-n", "team", "--verb=get", "--resource=pods");
        // So is bind on the role, without holding its rules.
        admin.succeed("create", "role", "binder", "-n", "team", "--verb=bind", "--resource=clusterroles.rbac.authorization.k8s.io",
                "--resource-name=view");
        admin.succeed("create", "rolebinding", "lead-binder", "-n", "team", "--role=binder", "--serviceaccount=team:lead");
        lead.succeed("create", "rolebinding", "viewers", "-n", "team", "--clusterrole=view", "--serviceaccount=team:default");
    }

    @Test
    void anUnknownTokenIsUnauthorized() throws Exception {
        Path kubeconfig = dir.resolve("bogus.kubeconfig");
        Files.copy(cluster.cluster().kubeconfig(), kubeconfig);
        Kubectl bogus = new Kubectl(kubeconfig, dir.resolve("bogus-cache"));
        bogus.succeed("config", "set-credentials", "bogus", "--token=not-a-token");
        bogus.succeed("config", "set-context", "--current", "--user=bogus");

        assertThat(bogus.run("get", "nodes").stderr()).contains("error: You must be logged in to the server (the server has asked for the client to provide credentials)");
    }
}
