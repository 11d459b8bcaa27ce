package io.qawk.orchestrator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.qawk.orchestrator.query.Rsql.And;
import io.qawk.orchestrator.query.Rsql.Comparison;
import io.qawk.orchestrator.query.Rsql.Node;
import io.qawk.orchestrator.query.Rsql.Or;

class RsqlTest {

    static Comparison cmp(String selector, String operator, String... values) {
        return new Comparison(selector, operator, List.of(values));
    }

    static Stream<Arguments> trees() {
        return Stream.of(
                // one comparison per operator; operators are kept lower-cased, selectors as written
                Arguments.of("name==app", cmp("name", "==", "app")),
                Arguments.of("name!=app", cmp("name", "!=", "app")),
                Arguments.of("createdAt=gt=17", cmp("createdAt", "=gt=", "17")),
                Arguments.of("createdAt=GE=17", cmp("createdAt", "=ge=", "17")),
                Arguments.of("a=lt=1;a=le=2", new And(List.of(cmp("a", "=lt=", "1"), cmp("a", "=le=", "2")))),
                Arguments.of("Attribute.Dev_Type==x", cmp("Attribute.Dev_Type", "==", "x")),
                Arguments.of("name=like=a*", cmp("name", "=like=", "a*")),
                Arguments.of("name=notlike=a*", cmp("name", "=notlike=", "a*")),
                Arguments.of("name=is=null", cmp("name", "=is=", "null")),
                Arguments.of("name=not=null", cmp("name", "=not=", "null")),
                // lists
                Arguments.of("controllerId=in=(a,b,c)", cmp("controllerId", "=in=", "a", "b", "c")),
                Arguments.of("controllerId=out=(a)", cmp("controllerId", "=out=", "a")),
                Arguments.of("controllerId=in=a", cmp("controllerId", "=in=", "a")),
                Arguments.of("id=in=(\"a,b\",'c)',d)", cmp("id", "=in=", "a,b", "c)", "d")),
                // quoting and escapes: backslash takes the next character as it is, in either quote
                Arguments.of("name==\"lane computer, left\"", cmp("name", "==", "lane computer, left")),
                Arguments.of("name=='lane 7'", cmp("name", "==", "lane 7")),
                Arguments.of("name==\"say \\\"hi\\\"\"", cmp("name", "==", "say \"hi\"")),
                Arguments.of("name=='it\\'s'", cmp("name", "==", "it's")),
                Arguments.of("name==\"back\\\\slash\"", cmp("name", "==", "back\\slash")),
                Arguments.of("name==\"\\x\"", cmp("name", "==", "x")),
                Arguments.of("name==\"it's\"", cmp("name", "==", "it's")),
                Arguments.of("name=='say \"hi\"'", cmp("name", "==", "say \"hi\"")),
                Arguments.of("name==\"\"", cmp("name", "==", "")),
                Arguments.of("name==\"a;b,c==(d)!~<>\"", cmp("name", "==", "a;b,c==(d)!~<>")),
                Arguments.of("name==\"tab\there\"", cmp("name", "==", "tab\there")),
                Arguments.of("name==ümläut-ß_*.%", cmp("name", "==", "ümläut-ß_*.%")),
                // precedence: ; binds tighter than , ; parentheses regroup and are not kept when redundant
                Arguments.of("a==1;b==2,c==3", new Or(List.of(
                        new And(List.of(cmp("a", "==", "1"), cmp("b", "==", "2"))), cmp("c", "==", "3")))),
                Arguments.of("a==1;(b==2,c==3)", new And(List.of(cmp("a", "==", "1"),
                        new Or(List.of(cmp("b", "==", "2"), cmp("c", "==", "3")))))),
                Arguments.of("a==1,b==2,c==3", new Or(List.of(cmp("a", "==", "1"), cmp("b", "==", "2"),
                        cmp("c", "==", "3")))),
                Arguments.of("((a==1))", cmp("a", "==", "1")),
                Arguments.of("(a==1);((b==2),(c==3))", new And(List.of(cmp("a", "==", "1"),
                        new Or(List.of(cmp("b", "==", "2"), cmp("c", "==", "3")))))),
                // white space before a term, before ')' and at the end
                Arguments.of("  a==1; b==2 ", new And(List.of(cmp("a", "==", "1"), cmp("b", "==", "2")))),
                Arguments.of("( a==1, b==2 )", new Or(List.of(cmp("a", "==", "1"), cmp("b", "==", "2")))),
                Arguments.of("(".repeat(20) + "a==1" + ")".repeat(20), cmp("a", "==", "1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void readsTheTree(String query, Node expected) {
        assertThat(Rsql.parse(query)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "name=app|expected an operator (== != =in= =out= =lt= =le= =gt= =ge=) at position 5",
            "name==|expected a value at position 7",
            "name== x|expected a value at position 7",
            "name ==x|expected an operator (== != =in= =out= =lt= =le= =gt= =ge=) at position 5",
            "==x|expected a field name before '=' at position 1",
            "``|expected a field name at position 1",
            "a==1;|expected a field name at position 6",
            "(a==1|expected ')' at position 6",
            "a==1)|unexpected ')' at position 5",
            "a==1 b==2|unexpected 'b' at position 6",
            "(a==1 ,b==2)|expected ')' at position 7",
            "a==x!y|unexpected '!' (a value holding = < > ! or ~ must be quoted, e.g. \"a!b\") at position 5",
            "a==\"open|a quoted value is not closed at position 9",
            "a=in=(x,y|expected ')' to close the list of values at position 10",
            "a=in=(x, y)|expected a value at position 9",
            "a=in=()|expected a value at position 7",
            "a=foo=1|unknown operator '=foo=' at position 2; use == != =lt= =le= =gt= =ge= =in= =out=",
            "a<5|expected an operator (== != =in= =out= =lt= =le= =gt= =ge=) at position 2"
    })
    void saysWhatIsWrongAndWhere(String query, String message) {
        assertThatThrownBy(() -> Rsql.parse(query)).isInstanceOf(Rsql.SyntaxException.class).hasMessage(message);
    }

    @Test
    void refusesNestingDeeperThanTheLimit() {
        String deep = "(".repeat(Rsql.MAX_DEPTH + 1) + "a==1" + ")".repeat(Rsql.MAX_DEPTH + 1);
        assertThatThrownBy(() -> Rsql.parse(deep)).hasMessage("nesting is too deep at position 22");
    }

    @Test
    void checksRunAsThePartsAreReadSoTheLeftmostProblemWins() {
        Rsql.Checks noColour = new Rsql.Checks() {
            @Override
            public void selector(String selector, int index) {
                if (selector.equals("colour")) {
                    throw Rsql.SyntaxException.at("no colours", index);
                }
            }

            @Override
            public void argument(String operator, boolean list, int index) {
                if (operator.equals("=in=") && !list) {
                    throw Rsql.SyntaxException.at("list please", index);
                }
            }
        };
        assertThatThrownBy(() -> Rsql.parse("a==1;colour==red;b==", noColour)).hasMessage("no colours at position 6");
        assertThatThrownBy(() -> Rsql.parse("a==;colour==red", noColour)).hasMessage("expected a value at position 4");
        assertThatThrownBy(() -> Rsql.parse("a=in=", noColour)).hasMessage("list please at position 6");
        assertThat(Rsql.parse("a=in=(1)", noColour)).isEqualTo(cmp("a", "=in=", "1"));
    }

    @Test
    void listsTheComparisonsLeftToRight() {
        assertThat(Rsql.comparisons(Rsql.parse("a==1;(b==2,c=in=(3,4))"))).containsExactly(cmp("a", "==", "1"),
                cmp("b", "==", "2"), cmp("c", "=in=", "3", "4"));
    }
}
