package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RbacCoverageTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Held rules; a granted rule; the rights of it no held rule covers (kube's CompactString of each, joined by " "). */
    @ParameterizedTest(name = "[{index}] {3}")
    @CsvSource(delimiter = '|', textBlock = """
            [{'apiGroups':[''],'resources':['pods'],'verbs':['get','list']}] | {'apiGroups':[''],'resources':['pods'],'verbs':['get']} | '' | a held verb covers
            [{'apiGroups':[''],'resources':['pods'],'verbs':['get']}] | {'apiGroups':[''],'resources':['pods'],'verbs':['get','delete']} | {APIGroups:[""], Resources:["pods"], Verbs:["delete"]} | each right on its own
            [{'apiGroups':['*'],'resources':['*'],'verbs':['*']}] | {'apiGroups':['*'],'resources':['*'],'verbs':['*']} | '' | a held wildcard covers a granted one
            [{'apiGroups':[''],'resources':['pods'],'verbs':['get']}] | {'apiGroups':['*'],'resources':['*'],'verbs':['*']} | {APIGroups:["*"], Resources:["*"], Verbs:["*"]} | a granted wildcard needs a held one
            [{'apiGroups':[''],'resources':['pods'],'verbs':['get'],'resourceNames':['a']}] | {'apiGroups':[''],'resources':['pods'],'verbs':['get']} | {APIGroups:[""], Resources:["pods"], Verbs:["get"]} | names held do not cover all names
            [{'apiGroups':[''],'resources':['pods'],'verbs':['get']}] | {'apiGroups':[''],'resources':['pods'],'verbs':['get'],'resourceNames':['a','b']} | '' | all names cover some
            [{'apiGroups':[''],'resources':['*/scale'],'verbs':['update']}] | {'apiGroups':[''],'resources':['replicationcontrollers/scale'],'verbs':['update']} | '' | a subresource wildcard
            [{'apiGroups':['apps'],'resources':['deployments'],'verbs':['get']}] | {'apiGroups':[''],'resources':['deployments'],'verbs':['get']} | {APIGroups:[""], Resources:["deployments"], Verbs:["get"]} | the group counts
            [{'nonResourceURLs':['/healthz/*'],'verbs':['get']}] | {'nonResourceURLs':['/healthz/etcd','/metrics'],'verbs':['get']} | {NonResourceURLs:["/metrics"], Verbs:["get"]} | non-resource URL prefixes
            """)
    void grantedRightsMustBeHeld(String held, String granted, String missing, String description) throws Exception {
        List<JsonNode> heldRules = new ArrayList<>();
        JSON.readTree(held.replace('\'', '"')).forEach(heldRules::add);
        JsonNode grantedRule = JSON.readTree(granted.replace('\'', '"'));

        List<String> notHeld = RbacCoverage.notHeld(heldRules, List.of(grantedRule)).stream().map(RbacCoverage.Right::compact).toList();

        assertThat(String.join(" ", notHeld)).isEqualTo(missing);
    }
}
