package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The tour's page (docs/tour.md) is one {@link TourIT} can run, checked in seconds without a demo: every command has
 * its answer, no unknown block, the failing, repeated and skipped steps say so; and the reading of answers as JSON
 * subsets, on made-up pages and answers.
 */
class TourDocumentTest {

    static final Path TOUR = Path.of(System.getProperty("qawk.project.dir", ".."), "docs", "tour.md");
    private static final ObjectMapper JSON = new ObjectMapper();

    static String tour() throws IOException {
        return Files.readString(TOUR, StandardCharsets.UTF_8);
    }

    @Test
    void theTourIsCommandsWithTheirAnswers() throws IOException {
        TourDocument doc = TourDocument.parse(tour());
        assertThat(doc.problems()).as("problems in %s", TOUR).isEmpty();
        assertThat(doc.start()).isEqualTo("./mvnw -Pdemo");
        assertThat(doc.env()).contains("Q=http://localhost:${QAWK_PORT:-8080}", "PW=${QAWK_ADMIN_PASSWORD:-admin}",
                "APW=${QAWK_APPROVER_PASSWORD:-approver}");
        assertThat(doc.steps()).hasSizeGreaterThan(30);
        assertThat(doc.steps()).allSatisfy(s -> assertThat(s.command()).as(s.name()).startsWith("curl "));
        assertThat(doc.steps()).filteredOn(TourDocument.Step::skip).extracting(s -> s.command())
                .as("the steps the demo cannot run").hasSize(2)
                .anySatisfy(c -> assertThat(c).contains("/threats/holds/1/release"))
                .anySatisfy(c -> assertThat(c).contains("metricGate"));
    }

    /** The story, in the tour: what a newcomer must see. */
    @Test
    void theTourTellsTheDemosStory() throws IOException {
        List<TourDocument.Step> steps = TourDocument.parse(tour()).steps();
        assertThat(steps).as("device-03 held").anySatisfy(s -> assertThat(s.answer().text())
                .contains("\"held\": true", "held: device-03 would run"));
        assertThat(steps).as("device-05's lane goes back as a whole, with its reason").anySatisfy(s ->
                assertThat(s.answer().text()).contains("\"device-05\"", "ROLLED_BACK",
                        "rolled back: 4 of 4 devices on their previous set again"));
        assertThat(steps).as("the guard lists the waiting rollout").anySatisfy(s ->
                assertThat(s.command()).endsWith("$Q/qawk/v1/threats"));
        assertThat(steps).as("the broken lane mended").anySatisfy(s ->
                assertThat(s.command()).contains("/systems/device-03/mend"));
        assertThat(steps).as("approved by the approver").anySatisfy(s -> assertThat(s.command())
                .contains("-u approver:$APW", "/approve"));
        assertThat(steps).as("rejected by the approver").anySatisfy(s -> assertThat(s.command())
                .contains("-u approver:$APW", "/reject"));
        assertThat(steps).as("never a whole system type PUT to change one field").noneSatisfy(s ->
                assertThat(s.command()).contains("-X PUT").contains("/systemtypes/"));
    }

    @Test
    void aCommandWithoutAnAnswerAnUnknownBlockAndUnsaidFailuresAreProblems() {
        String page = """
                ```bash start
                ./mvnw -Pdemo
                ```
                ```bash env
                Q=x
                ```
                ## One
                This answers 404.
                ```bash
                curl -si $Q/a
                ```
                ```http
                HTTP/1.1 404 Not Found
                ```
                Again.
                ```bash
                curl -si $Q/b
                ```
                ```http repeat
                HTTP/1.1 200 OK
                {"a": 1}
                ```
                ```bash skip
                curl -si $Q/c
                ```
                ```http
                HTTP/1.1 200 OK
                ```
                ```json
                {}
                ```
                ```bash
                curl -si $Q/d
                ```
                ```http
                200 OK
                ```
                ```bash
                curl -si $Q/e
                ```
                """;
        TourDocument doc = TourDocument.parse(page);
        assertThat(doc.problems()).hasSize(6).anySatisfy(p -> assertThat(p).contains("step 1", "answers 404",
                        "does not say that it fails"))
                .anySatisfy(p -> assertThat(p).contains("step 2", "repeat until"))
                .anySatisfy(p -> assertThat(p).contains("step 3", "Not in the demo"))
                .anySatisfy(p -> assertThat(p).contains("unknown block ```json"))
                .anySatisfy(p -> assertThat(p).contains("status line", "'200 OK'"))
                .anySatisfy(p -> assertThat(p).contains("line 38", "a command without its answer"));
        assertThat(doc.steps()).extracting(TourDocument.Step::command)
                .containsExactly("curl -si $Q/a", "curl -si $Q/b", "curl -si $Q/c");
    }

    @Test
    void aPageWithoutItsVariablesIsAProblem() {
        TourDocument doc = TourDocument.parse("```bash\ncurl -si x\n```\n```http\nHTTP/1.1 200 OK\n```\n");
        assertThat(doc.problems()).anySatisfy(p -> assertThat(p).contains("no ```bash env block"));
    }

    @Test
    void anAnswerIsReadAsASubset() throws IOException {
        JsonNode actual = JSON.readTree("""
                {"id": 3, "state": "RUNNING", "summary": "2 of 3 updated, 0 rolled back, 1 held", "extra": [1, 2],
                 "runs": [{"system": "b", "state": "PENDING"}, {"system": "a", "state": "SUCCEEDED"}], "gate": null}
                """);
        assertThat(TourDocument.mismatches(JSON.readTree("""
                {"id": 3, "summary": "2 of 3 updated…1 held", "gate": null, "missing": null,
                 "runs": [{"system": "a", "state": "SUCCEEDED"}, {"system": "b"}]}
                """), actual)).isEmpty();
        assertThat(TourDocument.mismatches(JSON.readTree("""
                {"id": 3.0, "state": "FINISHED", "summary": "… 2 held", "runs": [{"system": "a"}], "gate": 1,
                 "extra": [2, 2], "absent": "x"}
                """), actual)).containsExactlyInAnyOrder(
                "$.state: expected \"FINISHED\", got \"RUNNING\"",
                "$.summary: expected \"… 2 held\", got \"2 of 3 updated, 0 rolled back, 1 held\"",
                "$.runs: expected 1 entries, got 2: " + actual.get("runs"),
                "$.gate: expected 1, got null",
                "$.extra[1]: no entry matches 2 (entries: [1,2])",
                "$.absent: missing (expected \"x\")");
    }

    @Test
    void anEllipsisStandsForAnyTextAndOnlyThere() {
        assertThat(TourDocument.textMatches("a…c", "abc")).isTrue();
        assertThat(TourDocument.textMatches("a…c", "ac")).isTrue();
        assertThat(TourDocument.textMatches("…", "")).isTrue();
        assertThat(TourDocument.textMatches("a…b…c", "a-b-c")).isTrue();
        assertThat(TourDocument.textMatches("a…b…c", "a-c-b")).isFalse();
        assertThat(TourDocument.textMatches("ab…ba", "aba")).isFalse();
        assertThat(TourDocument.textMatches("abc", "abcd")).isFalse();
    }

    @Test
    void curlsOutputIsItsLastStatusAndItsBody() {
        TourDocument.Output out = TourDocument.Output.of("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
                + "Content-Type: application/json\r\n\r\n{\"id\": 1}");
        assertThat(out.status()).isEqualTo(201);
        assertThat(out.json().path("id").asInt()).isEqualTo(1);
        TourDocument.Output none = TourDocument.Output.of("curl: (7) Failed to connect");
        assertThat(none.status()).isEqualTo(-1);
        assertThat(none.json()).isNull();
    }
}
