package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The canonical form the evidence digest is taken over, and the differences verify names. */
class CanonicalTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void keysAreSortedAtEveryLevelWithoutWhitespaceAndWithoutTheDigest() throws Exception {
        String text = Canonical.text(json.readTree("""
                {"systems": [{"state": "ROLLED_BACK", "devices": [{"to": "app:2", "actionId": 12}]}],
                 "digest": {"value": "x"}, "format": "qawk-evidence/1", "approvals": []}"""));
        assertThat(text).isEqualTo("{\"approvals\":[],\"format\":\"qawk-evidence/1\",\"systems\":[{\"devices\":"
                + "[{\"actionId\":12,\"to\":\"app:2\"}],\"state\":\"ROLLED_BACK\"}]}");
        assertThat(Canonical.sha256("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    /**
     * A record is sealed system by system (its head, then each system's text): the digest taken that way is the digest
     * of the whole record's canonical text, which is what an auditor computes with {@code jq -cS 'del(.digest)'}.
     */
    @Test
    void theDigestTakenSystemBySystemIsTheDigestOfTheWholeText() throws Exception {
        for (String whole : List.of(
                "{\"format\": \"qawk-evidence/1\", \"sealedAt\": \"t\", \"deployment\": {\"name\": \"é\"},"
                        + " \"systems\": [{\"system\": \"lane-01\", \"devices\": []}, {\"system\": \"lane-02\"}]}",
                "{\"format\": \"qawk-evidence/1\", \"systems\": []}",
                "{\"systems\": [{\"b\": 1, \"a\": 2}]}")) {
            ObjectNode record =
                    (ObjectNode) json.readTree(whole);
            JsonNode systems = record.remove("systems");
            Canonical.Digest digest = new Canonical.Digest(Canonical.head(record));
            systems.forEach(system -> digest.system(Canonical.text(system)));

            assertThat(digest.hex()).as(whole).isEqualTo(Canonical.sha256(Canonical.text(json.readTree(whole))));
        }
        assertThatThrownBy(() -> Canonical.head((ObjectNode) json.readTree(
                "{\"format\": 1, \"zones\": []}"))).hasMessageContaining("'zones' does not sort before 'systems'");
    }

    @Test
    void theSameRecordInAnotherKeyOrderHasTheSameText() throws Exception {
        assertThat(Canonical.text(json.readTree("{\"b\": 1, \"a\": {\"d\": null, \"c\": true}}")))
                .isEqualTo(Canonical.text(json.readTree("{\"a\": {\"c\": true, \"d\": null}, \"b\": 1}")));
    }

    @Test
    void differencesNameThePathAndBothValuesButNotThePartsOfTheirMoment() throws Exception {
        List<String> d = RecordDifferences.of(
                json.readTree("{\"sealedAt\": \"1\", \"systems\": [{\"census\": {\"x\": 1}, \"devices\": [{\"actionId\": 812}]}]}"),
                json.readTree("{\"sealedAt\": \"2\", \"systems\": [{\"census\": {\"x\": 2}, \"devices\": [{\"actionId\": 1812}]}]}"));
        assertThat(d).containsExactly("systems[0].devices[0].actionId: recorded 812, now 1812");
        assertThat(RecordDifferences.of(json.readTree("{\"systems\": [1, 2]}"), json.readTree("{\"systems\": [1]}")))
                .containsExactly("systems: recorded 2 entries, now 1");
        // a number read back from the stored text and one built from a row are the same number, whatever their type
        assertThat(RecordDifferences.of(json.readTree("{\"actionId\": 12}"),
                json.createObjectNode().put("actionId", Long.valueOf(12)))).isEmpty();
    }
}
