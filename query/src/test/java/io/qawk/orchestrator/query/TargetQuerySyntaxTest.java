package io.qawk.orchestrator.query;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class TargetQuerySyntaxTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "attribute.device_type==device1",
            "attribute.device_type==device1;attribute.centerid==c01",
            "tag==beta,tag==prod",
            "(attribute.a==1,attribute.b==2);updateStatus!=error",
            "controllerId=in=(a,b,c)",
            "name==\"lane computer, left\"",
            "name=='lane 7'",
            "metadata.lane==7",
            "installedDS.name==app;installedDS.version==2.0",
            "lastControllerRequestAt=gt=1700000000000",
            "CONTROLLERID==x",
            "attribute.device==dev*"
    })
    void acceptsValidQueries(String query) {
        assertThat(TargetQuerySyntax.problem(query)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "attribute.device_type=device1|expected an operator (== != =in= =out= =lt= =le= =gt= =ge=) at position 22",
            "attribute.device_type==|expected a value at position 24",
            "==device1|expected a field name",
            "colour==red|unknown field 'colour' at position 1",
            "attribute.==x|needs a key after the dot",
            "(attribute.a==1|expected ')'",
            "attribute.a==1;|expected a field name",
            "attribute.a==\"open|not closed",
            "controllerId=in=a|needs a list of values",
            "attribute.a==1 attribute.b==2|unexpected 'a' at position 16",
            "attribute.a=foo=1|unknown operator '=foo='"
    })
    void reportsWhatAndWhere(String query, String expected) {
        assertThat(TargetQuerySyntax.problem(query)).hasValueSatisfying(p -> assertThat(p).contains(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void requiresAQuery(String query) {
        assertThat(TargetQuerySyntax.problem(query)).hasValue("is required");
    }

    @Test
    void refusesHugeAndDeeplyNestedQueries() {
        assertThat(TargetQuerySyntax.problem("attribute.a==" + "x".repeat(3000))).hasValueSatisfying(
                p -> assertThat(p).contains("at most"));
        String deep = "(".repeat(50) + "attribute.a==1" + ")".repeat(50);
        assertThat(TargetQuerySyntax.problem(deep)).hasValueSatisfying(p -> assertThat(p).contains("too deep"));
    }
}
