package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** RFC 7386, including the examples of its appendix A that apply to an object target. */
class MergePatchTest {

    static Stream<Arguments> merges() {
        return Stream.of(
                arguments("{'a':'b'}", "{'a':'c'}", "{'a':'c'}"),
                arguments("{'a':'b'}", "{'b':'c'}", "{'a':'b','b':'c'}"),
                arguments("{'a':'b'}", "{'a':null}", "{}"),
                arguments("{'a':'b','b':'c'}", "{'a':null}", "{'b':'c'}"),
                arguments("{'a':['b']}", "{'a':'c'}", "{'a':'c'}"),
                arguments("{'a':'c'}", "{'a':['b']}", "{'a':['b']}"),
                arguments("{'a':{'b':'c'}}", "{'a':{'b':'d','c':null}}", "{'a':{'b':'d'}}"),
                arguments("{'a':[{'b':'c'}]}", "{'a':[1]}", "{'a':[1]}"),
                arguments("{'e':null}", "{'a':1}", "{'e':null,'a':1}"),
                arguments("{}", "{'a':{'bb':{'ccc':null}}}", "{'a':{'bb':{}}}"),
                arguments("{'metadata':{'labels':{'foo':'bar','x':'y'}}}", "{'metadata':{'labels':{'foo':null}}}", "{'metadata':{'labels':{'x':'y'}}}"),
                arguments("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}", "{'spec':{'containers':[{'name':'c'}]}}", "{'spec':{'containers':[{'name':'c'}]}}"));
    }

    @ParameterizedTest(name = "{0} + {1}")
    @MethodSource("merges")
    void merges(String target, String patch, String expected) throws PatchException {
        ObjectNode targetNode = Json.object(target);
        JsonNode patchNode = Json.node(patch);
        assertThat(Patches.applyMergePatch(targetNode, patchNode)).isEqualTo(Json.node(expected));
        assertThat(targetNode).isEqualTo(Json.node(target));
        assertThat(patchNode).isEqualTo(Json.node(patch));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "['a']", "'a'", "1"})
    void rejectsAPatchThatIsNotAnObject(String patch) {
        assertThatThrownBy(() -> Patches.applyMergePatch(Json.object("{'a':1}"), Json.node(patch)))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("Invalid JSON Patch");
                });
    }
}
