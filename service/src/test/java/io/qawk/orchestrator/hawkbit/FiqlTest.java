package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.query.Rsql;
import io.qawk.orchestrator.query.Rsql.Comparison;

class FiqlTest {

    static final String[] HOSTILE = { "a,b;c==d", "x\" ; name==*", "say \"hi\"", "back\\slash", "tail\\",
            "\\\"", "*", "dev_01", "(a)", "=in=(b)", "'single'", "spaces and\ttabs", "ümläut-ß", "", "%" };

    @Test
    void quoteWrapsAndEscapesQuotesAndBackslashes() {
        assertThat(Fiql.quote("plain")).isEqualTo("\"plain\"");
        assertThat(Fiql.quote("a,b;c==d")).isEqualTo("\"a,b;c==d\"");
        assertThat(Fiql.quote("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
        assertThat(Fiql.quote("back\\slash")).isEqualTo("\"back\\\\slash\"");
        assertThat(Fiql.quote("tail\\")).isEqualTo("\"tail\\\\\"");
    }

    @ParameterizedTest
    @ValueSource(strings = { "a,b;c==d", "x\" ; name==*", "say \"hi\"", "back\\slash", "tail\\", "\\\"", "*",
            "dev_01", "(a)", "=in=(b)", "'single'", "spaces and\ttabs", "ümläut-ß", "", "%" })
    void hostileValueStaysOneValueOfOneComparison(String value) {
        for (String query : List.of(Fiql.eq("attribute.device", value), Fiql.ne("name", value),
                Fiql.like("name", value), Fiql.gt("createdAt", value))) {
            List<Comparison> comparisons = Rsql.comparisons(Rsql.parse(query));
            assertThat(comparisons).as(query).hasSize(1);
            assertThat(comparisons.get(0).values()).as(query).containsExactly(value);
        }
    }

    @Test
    void hostileValuesInListsAndCombinationsKeepTheStructure() {
        String query = Fiql.and(Fiql.in("controllerId", List.of(HOSTILE)),
                Fiql.or(Fiql.eq("attribute.site", "a,b;c==d"), Fiql.eq("name", "x\" ; name==*")));

        // the values' own , ; ( ) are not read as logic: the tree is exactly in-list AND (eq OR in)
        assertThat(Rsql.parse(query)).isEqualTo(new Rsql.And(List.of(
                new Comparison("controllerId", "=in=", List.of(HOSTILE)),
                new Rsql.Or(List.of(new Comparison("attribute.site", "==", List.of("a,b;c==d")),
                        new Comparison("name", "=in=", List.of("x\" ; name==*")))))));
    }

    @Test
    void eqComparesExactlyEvenWhenTheValueHoldsLikeWildcards() {
        // hawkBit turns == into SQL LIKE with '*' as wildcard, unescapable; =in= compares exactly
        assertThat(Fiql.eq("name", "app")).isEqualTo("name==\"app\"");
        assertThat(Fiql.eq("name", "*")).isEqualTo("name=in=(\"*\")");
        assertThat(Fiql.eq("controllerId", "dev_01")).isEqualTo("controllerId=in=(\"dev_01\")");
        assertThat(Fiql.ne("name", "a*")).isEqualTo("name=out=(\"a*\")");
        assertThat(Fiql.like("name", "app-*")).isEqualTo("name==\"app-*\"");
    }

    @Test
    void andOrSkipEmptyPartsAndParenthesiseCompoundOnes() {
        assertThat(Fiql.and("a==\"1\"", null, " ", "b==\"2\"")).isEqualTo("(a==\"1\");(b==\"2\")");
        assertThat(Fiql.or("a==\"1\"")).isEqualTo("a==\"1\"");
        assertThat(Fiql.and()).isNull();
        assertThat(Fiql.and(Fiql.or("a==\"1\"", "b==\"2\""), "c==\"3\""))
                .isEqualTo("((a==\"1\"),(b==\"2\"));(c==\"3\")");
    }

    @Test
    void fieldNamesThatAreNotPlainSelectorsAreRejected() {
        assertThat(Fiql.field("attribute.hw_rev-2")).isEqualTo("attribute.hw_rev-2");
        for (String bad : new String[] { "attribute.a==b", "a;b", "a b", "a\"", "", "x(y)" }) {
            assertThatThrownBy(() -> Fiql.eq(bad, "v")).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Fiql.in("name", List.of())).isInstanceOf(IllegalArgumentException.class);
    }
    @Test
    void idListsAreCutByCountAndByTheirEncodedLength() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ids.add("sys-" + i + "-terminal");
        }

        List<List<String>> byCount = Fiql.inChunks(ids, s -> s, 300, 1_000_000);
        assertThat(byCount).extracting(List::size).containsExactly(300, 300, 300, 100);

        List<List<String>> byLength = Fiql.inChunks(ids, s -> s, 500, 6000);
        assertThat(byLength.stream().flatMap(List::stream).toList()).isEqualTo(ids);
        for (List<String> chunk : byLength) {
            String encoded = HawkbitClient.encode(Fiql.in("controllerId", chunk));
            assertThat(encoded.length()).isLessThanOrEqualTo(6000 + 40);
        }
        assertThat(byLength.get(0).size()).isGreaterThan(150);

        // an id that needs heavy encoding takes its encoded room, and a single too-long id still gets its own query
        List<List<String>> odd = Fiql.inChunks(List.of("ä".repeat(100), "b", "c"), s -> s, 500, 200);
        assertThat(odd).extracting(List::size).containsExactly(1, 2);
    }
}
