package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** One PolicyRule against one request, row by row as kube's RBAC authorizer's RuleAllows decides. */
class RbacRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} / {1} {2} {3}/{4} named {5} -> {6}")
    @CsvSource(delimiter = '|', value = {
            // rule                                                                                         | verb  | group | resource | sub      | name   | allowed
            "{'verbs':['patch'],'apiGroups':[''],'resources':['nodes']}                                      | patch | ''    | nodes    | ''       | node01 | true",
            "{'verbs':['get','list'],'apiGroups':[''],'resources':['nodes']}                                 | patch | ''    | nodes    | ''       | node01 | false",
            "{'verbs':['*'],'apiGroups':['*'],'resources':['*']}                                            | patch | apps  | deployments | scale | web    | true",
            "{'verbs':['create'],'apiGroups':[''],'resources':['pods']}                                      | create | ''   | pods     | eviction | web-1  | false",
            "{'verbs':['create'],'apiGroups':[''],'resources':['pods/eviction']}                             | create | ''   | pods     | eviction | web-1  | true",
            "{'verbs':['create'],'apiGroups':[''],'resources':['*/eviction']}                                | create | ''   | pods     | eviction | web-1  | true",
            "{'verbs':['get'],'apiGroups':[''],'resources':['pods/status']}                                  | get   | ''    | pods     | ''       | web-1  | false",
            "{'verbs':['get'],'apiGroups':['apps'],'resources':['pods']}                                     | get   | ''    | pods     | ''       | web-1  | false",
            "{'verbs':['get'],'apiGroups':[''],'resources':['leases'],'resourceNames':['a']}                 | get   | ''    | leases   | ''       | a      | true",
            "{'verbs':['get'],'apiGroups':[''],'resources':['leases'],'resourceNames':['a']}                 | get   | ''    | leases   | ''       | b      | false",
            "{'verbs':['list'],'apiGroups':[''],'resources':['leases'],'resourceNames':['a']}                | list  | ''    | leases   | ''       | ''     | false",
            "{'verbs':['get'],'nonResourceURLs':['*']}                                                       | get   | ''    | nodes    | ''       | ''     | false",
    })
    void resourceRequests(String rule, String verb, String group, String resource, String sub, String name, boolean allowed)
            throws Exception {
        JsonNode parsed = JSON.readTree(rule.replace('\'', '"'));

        assertThat(RbacRules.allows(Attributes.resource(verb, group, resource, sub, "", name), parsed)).isEqualTo(allowed);
    }

    @ParameterizedTest(name = "{0} / {1} {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            "{'verbs':['get'],'nonResourceURLs':['/apis/*']}   | get  | /apis/apps/v1 | true",
            "{'verbs':['get'],'nonResourceURLs':['/apis/*']}   | get  | /api          | false",
            "{'verbs':['get'],'nonResourceURLs':['/version']}  | get  | /version      | true",
            "{'verbs':['get'],'nonResourceURLs':['/version']}  | post | /version      | false",
            "{'verbs':['*'],'nonResourceURLs':['*']}           | put  | /anything     | true",
            "{'verbs':['get'],'apiGroups':['*'],'resources':['*']} | get | /version   | false",
    })
    void nonResourceRequests(String rule, String verb, String path, boolean allowed) throws Exception {
        JsonNode parsed = JSON.readTree(rule.replace('\'', '"'));

        assertThat(RbacRules.allows(Attributes.nonResource(verb, path), parsed)).isEqualTo(allowed);
    }

    @ParameterizedTest(name = "{0} in binding namespace {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "{'kind':'ServiceAccount','name':'observer','namespace':'drainboard'} | ''         | true",
            "{'kind':'ServiceAccount','name':'observer'}                          | drainboard | true",
            "{'kind':'ServiceAccount','name':'observer'}                          | ''         | false",
            "{'kind':'ServiceAccount','name':'observer','namespace':'other'}      | ''         | false",
            "{'kind':'Group','name':'system:serviceaccounts:drainboard'}          | ''         | true",
            "{'kind':'Group','name':'system:masters'}                             | ''         | false",
            "{'kind':'User','name':'system:serviceaccount:drainboard:observer'}   | ''         | true",
            "{'kind':'Robot','name':'observer'}                                   | drainboard | false",
    })
    void subjects(String subject, String bindingNamespace, boolean matches) throws Exception {
        UserInfo user = UserInfo.serviceAccount("drainboard", "observer");

        assertThat(RbacRules.subjectMatches(JSON.readTree(subject.replace('\'', '"')), user, bindingNamespace)).isEqualTo(matches);
    }
}
