package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** {@link HawkbitGateway#segment}: a controller id as one encoded path segment, plain ids as they are. */
class SegmentTest {

    /** The encoding as it always was: percent-encoding of every id, then dots-only ids spelled as %2E. */
    private static String reference(String value) {
        String encoded = HawkbitClient.encode(value);
        return encoded.chars().allMatch(c -> c == '.') ? encoded.replace(".", "%2E") : encoded;
    }

    @Test
    void everyIdIsEncodedAsBefore() {
        List<String> ids = new ArrayList<>(List.of("lane-07-a", "term_2.b", "a*b", "ABCxyz019", ".", "..", "...", ".a",
                "a.", "a b", "a+b", "a/b", "a?b", "a#b", "a%b", "a~b", "ü", "dev 1?q=1#x%ü", "\uD83D\uDE00", "a\u0000b"));
        for (char c = 0; c < 0x180; c++) {
            ids.add(String.valueOf(c));
            ids.add("dev-" + c + "-01");
            ids.add(c + "..");
        }
        for (String id : ids) {
            assertThat(HawkbitGateway.segment(id)).as("segment of %s", id).isEqualTo(reference(id));
        }
    }

    @Test
    void aPlainIdIsNotCopied() {
        String id = "lane-07-a.term_2";
        assertThat(HawkbitGateway.segment(id)).isSameAs(id);
        assertThat(HawkbitGateway.segment("..")).isEqualTo("%2E%2E");
    }
}
