package io.qawk.orchestrator.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class UpdatesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> COMPONENTS = Map.of("components", "componentType");

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text.replace('\'', '"'));
    }

    /** RFC 7396, Appendix A: target, patch, result (single quotes for double). */
    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource(delimiter = '|', value = {
            "{'a':'b'}|{'a':'c'}|{'a':'c'}",
            "{'a':'b'}|{'b':'c'}|{'a':'b','b':'c'}",
            "{'a':'b'}|{'a':null}|{}",
            "{'a':'b','b':'c'}|{'a':null}|{'b':'c'}",
            "{'a':['b']}|{'a':'c'}|{'a':'c'}",
            "{'a':'c'}|{'a':['b']}|{'a':['b']}",
            "{'a':{'b':'c'}}|{'a':{'b':'d','c':null}}|{'a':{'b':'d'}}",
            "{'a':[{'b':'c'}]}|{'a':[1]}|{'a':[1]}",
            "{'e':null}|{'a':1}|{'e':null,'a':1}",
            "{}|{'a':{'bb':{'ccc':null}}}|{'a':{'bb':{}}}"
    })
    void mergesAsRfc7396Says(String target, String patch, String result) throws Exception {
        assertThat(Updates.merge(json(target), json(patch))).isEqualTo(json(result));
    }

    @Test
    void aPutKeepsWhatItLeavesOutAndTakesNullAsGiven() throws Exception {
        ObjectNode stored = (ObjectNode) json("{'name':'t','rules':[{'why':'w'}],'groupKey':'g','guard':'hold'}");
        assertThat(Updates.put(stored, (ObjectNode) json("{'name':'u','groupKey':null}"), Map.of()))
                .isEqualTo(json("{'name':'u','rules':[{'why':'w'}],'groupKey':null,'guard':'hold'}"));
    }

    @Test
    void aComponentGivenAgainKeepsTheFieldsItLeavesOutAndANewOneTakesNothing() throws Exception {
        ObjectNode stored = (ObjectNode) json("{'components':[{'componentType':'a','match':'m','health':'h'},"
                + "{'componentType':'b','match':'n','health':'i'}]}");
        ObjectNode body = (ObjectNode) json("{'components':[{'componentType':'b','health':null},"
                + "{'componentType':'a'},{'componentType':'c','match':'o'}]}");
        JsonNode expected = json("{'components':[{'componentType':'b','health':null,'match':'n'},"
                + "{'componentType':'a','match':'m','health':'h'},{'componentType':'c','match':'o'}]}");
        assertThat(Updates.put(stored, body, COMPONENTS)).isEqualTo(expected);
        assertThat(Updates.patch(stored, body, COMPONENTS)).isEqualTo(expected);
        assertThat(stored.get("components").get(0).get("health").asText()).as("the stored shape untouched").isEqualTo("h");
    }

    @Test
    void aPatchLeavesTheStoredListWhenItNamesNone() throws Exception {
        ObjectNode stored = (ObjectNode) json("{'guard':'watch','components':[{'componentType':'a','match':'m'}]}");
        assertThat(Updates.patch(stored, (ObjectNode) json("{'guard':'hold'}"), COMPONENTS))
                .isEqualTo(json("{'guard':'hold','components':[{'componentType':'a','match':'m'}]}"));
    }
}
