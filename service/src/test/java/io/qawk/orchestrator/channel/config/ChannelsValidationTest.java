package io.qawk.orchestrator.channel.config;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The channel configuration is checked as a whole before anything is applied, each problem naming its value. */
class ChannelsValidationTest {

    private static List<String> problems(String yaml) {
        return catchThrowableOfType(InvalidChannelsException.class, () -> ChannelsValidation.parse(yaml, "test")).problems();
    }

    @Test
    void aCompleteChannelListIsReadWithDefaultsForWhatIsLeftOut() {
        List<ChannelSpec> specs = ChannelsValidation.parse("""
                channels:
                  - name: beta
                    match: attribute.channel==beta
                    promotesTo: prod
                    orchestrator: {maxParallel: 2, maxFailed: 1, byCentre: true, centres: [c01, c02]}
                    devices: {maxFailed: 3, batchSize: 100}
                    soakSeconds: 3600
                  - name: prod
                    match: attribute.channel==prod
                """, "test");
        assertThat(specs).hasSize(2);
        ChannelSpec beta = specs.get(0);
        assertThat(beta).isEqualTo(new ChannelSpec(0, "beta", "attribute.channel==beta", "prod", 2, 1, true, List.of("c01", "c02"), 3, 100, 3600, ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS, ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS));
        assertThat(specs.get(1)).isEqualTo(new ChannelSpec(1, "prod", "attribute.channel==prod", null, 1, 0, false, List.of(), 0, 500, 0, ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS, ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS));
        assertThat(beta.toRequest().orchestrator().maxParallel()).isEqualTo(2);
        assertThat(beta.toRequest().devices().batchSize()).isEqualTo(100);
    }

    @Test
    void theOrchestratorsVerifyTimeoutAndSoakAreReadCheckedAndCarriedToItsRequest() {
        ChannelSpec spec = ChannelsValidation.parse("""
                channels:
                  - name: beta
                    match: attribute.channel==beta
                    orchestrator: {maxParallel: 2, verifyTimeoutSeconds: 120, soakSeconds: 600}
                """, "test").get(0);
        assertThat(spec.verifyTimeoutSeconds()).isEqualTo(120);
        assertThat(spec.systemSoakSeconds()).isEqualTo(600);
        assertThat(spec.soakSeconds()).as("the release's soak before promotion is another setting").isZero();
        assertThat(spec.toRequest().orchestrator().soakSeconds()).isEqualTo(600);
        assertThat(spec.toRequest().orchestrator().verifyTimeoutSeconds()).isEqualTo(120);
        assertThat(ChannelsValidation.parse("channels: [{name: a, match: tag==a}]", "test").get(0).toRequest()
                .orchestrator()).extracting("verifyTimeoutSeconds", "soakSeconds").containsExactly(300, 0);
        assertThat(problems("""
                channels:
                  - name: beta
                    match: attribute.channel==beta
                    orchestrator: {verifyTimeoutSeconds: 0, soakSeconds: 86401}
                """)).contains("qawk fleets: channels[0].orchestrator.verifyTimeoutSeconds must be ≥ 1 (got 0)",
                "qawk fleets: channels[0].orchestrator.soakSeconds must be ≤ 86400 (got 86401)");
    }

    @Test
    void emptyDocumentsAndJsonAreAccepted() {
        assertThat(ChannelsValidation.parse("", "test")).isEmpty();
        assertThat(ChannelsValidation.parse("channels: []", "test")).isEmpty();
        assertThat(ChannelsValidation.parse("{\"channels\": [{\"name\": \"a\", \"match\": \"tag==a\"}]}", "test"))
                .extracting(ChannelSpec::name).containsExactly("a");
    }

    @Test
    void everyProblemIsReportedWithItsPathAndValue() {
        List<String> problems = problems("""
                channels:
                  - name: dev
                    match: attribute.channel==dev
                  - name: beta
                    match: attribute.channel==beta
                    orchestrator: {maxParallel: 0, maxFailed: -1, byCentre: "yes", centres: [c01, c01, ""]}
                    devices: {maxFailed: 1.5, batchSize: 6000}
                    soakSeconds: 9999999
                    colour: blue
                  - name: "-bad"
                  - name: dev
                    match: "attribute.channel=="
                """);
        assertThat(problems).contains(
                "qawk fleets: channels[1].orchestrator.maxParallel must be ≥ 1 (got 0)",
                "qawk fleets: channels[1].orchestrator.maxFailed must be ≥ 0 (got -1)",
                "qawk fleets: channels[1].orchestrator.byCentre must be true or false (got 'yes')",
                "qawk fleets: channels[1].orchestrator.centres[1] 'c01' appears more than once",
                "qawk fleets: channels[1].orchestrator.centres[2] must be a non-empty text (got '')",
                "qawk fleets: channels[1].devices.maxFailed must be a whole number between 0 and 1000000 (got 1.5)",
                "qawk fleets: channels[1].devices.batchSize must be ≤ 5000 (got 6000)",
                "qawk fleets: channels[1].soakSeconds must be ≤ 2592000 (got 9999999)",
                "qawk fleets: channels[2].match is required");
        assertThat(problems).anyMatch(p -> p.startsWith("qawk fleets: channels[1].colour is not a known setting"));
        assertThat(problems).anyMatch(p -> p.startsWith("qawk fleets: channels[2].name must start with a letter or digit")
                && p.endsWith("(got '-bad')"));
        assertThat(problems).anyMatch(p -> p.startsWith("qawk fleets: channels[3].match is not a valid target query"));
    }

    @Test
    void namesAreUniqueAndPromotionsMakeNoLoop() {
        assertThat(problems("""
                channels:
                  - {name: a, match: "tag==a"}
                  - {name: a, match: "tag==b"}
                """)).containsExactly("qawk fleets: channels[1].name 'a' is already declared by channels[0]");
        assertThat(problems("""
                channels:
                  - {name: a, match: "tag==a", promotesTo: a}
                """)).containsExactly("qawk fleets: channels[0].promotesTo must name another channel (got 'a')");
        assertThat(problems("""
                channels:
                  - {name: a, match: "tag==a", promotesTo: b}
                  - {name: b, match: "tag==b", promotesTo: c}
                  - {name: c, match: "tag==c", promotesTo: a}
                """)).contains("qawk fleets: channels[0].promotesTo makes a loop: a -> b -> c -> a");
    }

    @Test
    void theDocumentMustHaveTheRightShape() {
        assertThat(problems("- a\n- b\n")).singleElement().asString().contains("must be a mapping with a 'channels' list");
        assertThat(problems("channels: {a: 1}\n")).containsExactly("qawk fleets: channels must be a list (got a mapping)");
        assertThat(problems("chanels: []\n")).singleElement().asString().startsWith("qawk fleets: chanels is not a known setting");
        assertThatThrownBy(() -> ChannelsValidation.parse("channels: [\n", "f.yaml"))
                .hasMessageContaining("f.yaml").hasMessageContaining("not valid YAML or JSON");
    }

    @Test
    void promotionTargetsAreAppliedFirst() {
        List<ChannelSpec> specs = ChannelsValidation.parse("""
                channels:
                  - {name: dev, match: "tag==dev", promotesTo: beta}
                  - {name: beta, match: "tag==beta", promotesTo: prod}
                  - {name: prod, match: "tag==prod"}
                  - {name: lab, match: "tag==lab", promotesTo: elsewhere}
                """, "test");
        var declared = new LinkedHashMap<String, ChannelSpec>();
        specs.forEach(s -> declared.put(s.name(), s));
        assertThat(ChannelsFromConfiguration.promotionTargetsFirst(specs, declared)).extracting(ChannelSpec::name)
                .containsExactly("prod", "beta", "dev", "lab");
    }
}
