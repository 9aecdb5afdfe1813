package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class JsonPatchTest {

    private static final String DOC = "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z']}}";

    static Stream<Arguments> applies() {
        return Stream.of(
                arguments("add a member", "[{'op':'add','path':'/metadata/labels/b','value':'2'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1','b':'2'}},'spec':{'replicas':2,'list':['x','y','z']}}"),
                arguments("add replaces an existing member", "[{'op':'add','path':'/spec/replicas','value':5}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':5,'list':['x','y','z']}}"),
                arguments("add inserts into a list", "[{'op':'add','path':'/spec/list/1','value':'new'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','new','y','z']}}"),
                arguments("add appends with -", "[{'op':'add','path':'/spec/list/-','value':'end'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z','end']}}"),
                arguments("add at the list's length appends", "[{'op':'add','path':'/spec/list/3','value':'end'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z','end']}}"),
                arguments("a negative index counts from the end", "[{'op':'remove','path':'/spec/list/-1'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y']}}"),
                arguments("remove a member", "[{'op':'remove','path':'/metadata/labels/a'}]",
                        "{'metadata':{'name':'p','labels':{}},'spec':{'replicas':2,'list':['x','y','z']}}"),
                arguments("replace a list element", "[{'op':'replace','path':'/spec/list/0','value':'X'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['X','y','z']}}"),
                arguments("move a member", "[{'op':'move','from':'/metadata/labels','path':'/spec/labels'}]",
                        "{'metadata':{'name':'p'},'spec':{'replicas':2,'list':['x','y','z'],'labels':{'a':'1'}}}"),
                arguments("copy a member", "[{'op':'copy','from':'/metadata/name','path':'/spec/name'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z'],'name':'p'}}"),
                arguments("test then replace", "[{'op':'test','path':'/spec/replicas','value':2.0},{'op':'replace','path':'/spec/replicas','value':3}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':3,'list':['x','y','z']}}"),
                arguments("replace of an absent object member adds it, as evanphx/json-patch v4 does",
                        "[{'op':'replace','path':'/spec/paused','value':true}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z'],'paused':true}}"),
                arguments("copy of an absent object member copies a null, as evanphx/json-patch v4 does",
                        "[{'op':'copy','from':'/metadata/uid','path':'/spec/uid'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1'}},'spec':{'replicas':2,'list':['x','y','z'],'uid':null}}"),
                arguments("test of an absent member against null passes", "[{'op':'test','path':'/metadata/uid','value':null}]",
                        DOC),
                arguments("~1 and ~0 escape / and ~ in keys", "[{'op':'add','path':'/metadata/labels/app.kubernetes.io~1name','value':'web'},{'op':'add','path':'/metadata/labels/a~0b','value':'t'}]",
                        "{'metadata':{'name':'p','labels':{'a':'1','app.kubernetes.io/name':'web','a~b':'t'}},'spec':{'replicas':2,'list':['x','y','z']}}"),
                arguments("an empty patch", "[]", DOC),
                arguments("a null patch", "null", DOC));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applies")
    void applies(String description, String patch, String expected) throws PatchException {
        assertThat(Patches.applyJsonPatch(Json.object(DOC), Json.node(patch))).isEqualTo(Json.node(expected));
    }

    static Stream<Arguments> operationFailures() {
        return Stream.of(
                arguments("a failing test", "[{'op':'test','path':'/spec/replicas','value':3}]",
                        "testing value /spec/replicas failed: test failed"),
                arguments("a test of an absent member", "[{'op':'test','path':'/metadata/uid','value':'u'}]",
                        "testing value /metadata/uid failed: test failed"),
                arguments("a test whose parent is missing", "[{'op':'test','path':'/status/phase','value':'Running'}]",
                        "test operation does not apply: is missing path: /status/phase: missing value"),
                arguments("an add whose parent is missing", "[{'op':'add','path':'/metadata/annotations/a','value':'1'}]",
                        "add operation does not apply: doc is missing path: \"/metadata/annotations/a\": missing value"),
                arguments("an add past the end of a list", "[{'op':'add','path':'/spec/list/9','value':'v'}]",
                        "error in add for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced"),
                arguments("an add with a bad list index", "[{'op':'add','path':'/spec/list/x','value':'v'}]",
                        "error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"),
                arguments("a remove of an absent member", "[{'op':'remove','path':'/metadata/labels/zzz'}]",
                        "error in remove for path: '/metadata/labels/zzz': Unable to remove nonexistent key: zzz: missing value"),
                arguments("a remove past the end of a list", "[{'op':'remove','path':'/spec/list/3'}]",
                        "error in remove for path: '/spec/list/3': Unable to access invalid index: 3: invalid index referenced"),
                arguments("a replace past the end of a list", "[{'op':'replace','path':'/spec/list/5','value':'v'}]",
                        "replace operation does not apply: doc is missing key: /spec/list/5: missing value"),
                arguments("a move of an absent member", "[{'op':'move','from':'/metadata/labels/zz','path':'/spec/x'}]",
                        "error in move for path: 'zz': Unable to remove nonexistent key: zz: missing value"),
                arguments("a replace whose parent is missing", "[{'op':'replace','path':'/status/phase','value':'x'}]",
                        "replace operation does not apply: doc is missing path: /status/phase: missing value"),
                arguments("a move from a missing parent", "[{'op':'move','from':'/status/a','path':'/spec/a'}]",
                        "move operation does not apply: doc is missing from path: /status/a: missing value"),
                arguments("a copy to a missing parent", "[{'op':'copy','from':'/metadata/name','path':'/status/name'}]",
                        "copy operation does not apply: doc is missing destination path: /status/name: missing value"),
                arguments("the whole document as path", "[{'op':'replace','path':'','value':{}}]",
                        "replace operation does not apply: doc is missing path: : missing value"),
                arguments("an unknown op", "[{'op':'merge','path':'/spec'}]", "Unexpected kind: merge"),
                arguments("an op without path", "[{'op':'add','value':1}]", "add operation failed to decode path: missing value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operationFailures")
    void answersLikeKubeApiserverWhenAnOperationFails(String description, String patch, String detail) {
        assertThatThrownBy(() -> Patches.applyJsonPatch(Json.object(DOC), Json.node(patch)))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.reason()).isEqualTo("Invalid");
                    assertThat(e.getMessage()).isEqualTo("the server rejected our request due to an error in our request");
                    assertThat(e.detail()).isEqualTo(detail);
                });
    }

    static Stream<Arguments> malformedPatches() {
        return Stream.of(
                arguments("{'op':'add'}", "json: cannot unmarshal object into Go value of type jsonpatch.Patch"),
                arguments("'add'", "json: cannot unmarshal string into Go value of type jsonpatch.Patch"),
                arguments("[1]", "json: cannot unmarshal number into Go value of type jsonpatch.Operation"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedPatches")
    void rejectsAPatchThatIsNotAListOfOperations(String patch, String message) {
        assertThatThrownBy(() -> Patches.applyJsonPatch(Json.object(DOC), Json.node(patch)))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.reason()).isEqualTo("BadRequest");
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void appliesAllOrNothingAndNeverChangesItsInputs() {
        ObjectNode target = Json.object(DOC);
        JsonNode patch = Json.node("[{'op':'replace','path':'/spec/replicas','value':9},{'op':'test','path':'/spec/replicas','value':2}]");
        assertThatThrownBy(() -> Patches.applyJsonPatch(target, patch)).isInstanceOf(PatchException.class);
        assertThat(target).isEqualTo(Json.node(DOC));
        assertThat(patch).isEqualTo(Json.node("[{'op':'replace','path':'/spec/replicas','value':9},{'op':'test','path':'/spec/replicas','value':2}]"));
    }

    @Test
    void theResultSharesNoNodesWithThePatch() throws PatchException {
        JsonNode patch = Json.node("[{'op':'add','path':'/spec/extra','value':{'deep':{'x':1}}}]");
        ObjectNode result = Patches.applyJsonPatch(Json.object(DOC), patch);
        ((ObjectNode) result.path("spec").path("extra").path("deep")).put("x", 2);
        assertThat(patch.path(0).path("value").path("deep").path("x").asInt()).isEqualTo(1);
    }
}
