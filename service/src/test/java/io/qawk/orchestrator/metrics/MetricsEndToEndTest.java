package io.qawk.orchestrator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.channel.config.ChartFiles;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real scenario against hawkBit with simulated lanes (a channel release whose deployment rolls one system back),
 * then {@code /q/metrics}: the meters move as they should, and every metric name that a dashboard panel or an alert
 * rule of the Helm chart queries is actually exposed, so no dashboard silently points at nothing.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class MetricsEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);
    /** Metric names in a PromQL expression: a selector's name before its label matchers, and any qawk_ name. */
    static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{");
    static final Pattern QAWK_NAME = Pattern.compile("\\bqawk_[a-z0-9_]+");

    @Test
    void aReleaseWithARollbackMovesTheMetersAndEveryDashboardAndAlertQueriesExposedMetrics() throws Exception {
        try (Lanes lanes = new Lanes("met-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "ch").system("lane-02", "c01", "ch");
            lanes.behaviour("lane-02", "lane", Behaviour.failFor(lanes.set("app:2")));
            int channel = lanes.channel("ch", "\"orchestrator\": {\"maxParallel\": 2, \"maxFailed\": 1}");
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.standalone("kiosk-1", "ch");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.findTargetIds("attribute.device_type==" + lanes.prefix + "solo")).hasSize(1));
            long solo = lanes.hawkbit.createDistributionSet(lanes.prefix + "solo", "2");
            int manifest = lanes.manifest("2.0", "2");

            Api.admin().body("{\"distributionSetId\": " + solo + ", \"manifestId\": " + manifest + "}")
                    .put("/qawk/v1/fleets/" + channel).then().statusCode(200);
            int deployment = channelView(channel).getInt("release.deploymentId");
            assertThat(Lanes.awaitState(deployment, "FINISHED", WITHIN).getString("summary"))
                    .isEqualTo("1 of 2 updated, 1 rolled back");
            Lanes.sync();

            String ch = "fleet=\"" + lanes.prefix + "ch\"";
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                String m = scrape();
                assertThat(value(m, "qawk_rollbacks_total", "cause=\"failure\"")).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "qawk_devices_assigned_total", "direction=\"forward\"")).isGreaterThanOrEqualTo(8);
                assertThat(value(m, "qawk_devices_assigned_total", "direction=\"rollback\"")).isGreaterThanOrEqualTo(3);
                assertThat(value(m, "qawk_run_duration_seconds_count", "outcome=\"succeeded\"")).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "qawk_run_duration_seconds_count", "outcome=\"rolled_back\"")).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "qawk_order_gap_seconds_count", "system_type=\"" + lanes.prefix + "lane\""))
                        .as("order 2 of both lanes, the one that failed too").isGreaterThanOrEqualTo(2);
                assertThat(value(m, "qawk_engine_pass_seconds_count")).isGreaterThan(0);
                assertThat(value(m, "qawk_engine_last_pass_age_seconds")).isLessThan(30);
                assertThat(value(m, "qawk_deployments", "phase=\"finished\"")).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "qawk_inventory_devices")).as("the lanes' devices; the kiosk fills no component").isGreaterThanOrEqualTo(8);
                assertThat(value(m, "qawk_inventory_systems")).isGreaterThanOrEqualTo(2);
                assertThat(value(m, "qawk_inventory_last_sync_age_seconds")).isLessThan(60);
                assertThat(value(m, "qawk_fleet_release_systems", ch, "state=\"updated\"")).isEqualTo(1);
                assertThat(value(m, "qawk_fleet_release_systems", ch, "state=\"rolled_back\"")).isEqualTo(1);
                assertThat(value(m, "qawk_hawkbit_requests_seconds_count", "outcome=\"success\"")).isGreaterThan(0);
            });
            String m = scrape();
            assertThat(m).contains("qawk_hawkbit_requests_seconds_bucket{").contains("qawk_run_duration_seconds_bucket{")
                    .contains("qawk_fleet_releases_halted ").contains("qawk_rollbacks_failed_total ");
            assertThat(m).doesNotContain(lanes.id("lane-01", "lane")).doesNotContain("system=\"");

            Set<String> exposed = exposedNames(m);
            Map<String, Set<String>> queried = queriedByChart();
            assertThat(queried.keySet()).anyMatch(k -> k.startsWith("dashboard ")).anyMatch(k -> k.startsWith("alert "));
            queried.forEach((where, names) -> assertThat(exposed).as("metrics queried by " + where).containsAll(names));
        }
    }

    // ----------------------------------------------------------------------------------------------------------

    private static String scrape() {
        return Api.anonymous().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** Sum of the samples of {@code name} whose labels contain every given {@code label="value"}. */
    static double value(String scrape, String name, String... labels) {
        double sum = 0;
        boolean found = false;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            String labelPart = line.startsWith(name + "{") ? line.substring(name.length(), line.lastIndexOf('}') + 1) : "";
            boolean all = true;
            for (String l : labels) {
                all &= labelPart.contains(l);
            }
            if (all) {
                found = true;
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertThat(found).as("a sample of %s with %s", name, List.of(labels)).isTrue();
        return sum;
    }

    static Set<String> exposedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            Matcher m = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]").matcher(line);
            if (!line.startsWith("#") && m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** Metric names in one PromQL expression (string literals removed first, so label values never count). */
    static Set<String> metricNames(String expr) {
        String bare = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
        Set<String> names = new TreeSet<>();
        Matcher s = SELECTOR.matcher(bare);
        while (s.find()) {
            names.add(s.group(1));
        }
        Matcher q = QAWK_NAME.matcher(bare);
        while (q.find()) {
            names.add(q.group());
        }
        return names;
    }

    /** Per dashboard panel / alert rule of the rendered chart, the metric names its queries use. */
    static Map<String, Set<String>> queriedByChart() throws Exception {
        List<JsonNode> docs = ChartFiles.render(List.of(ChartFiles.minimalValues()),
                Map.of("metrics.prometheusRule.enabled", true));
        Map<String, Set<String>> out = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (JsonNode cm : ChartFiles.ofKind(docs, "ConfigMap")) {
            if (!cm.path("metadata").path("name").asText().endsWith("-dashboards")) {
                continue;
            }
            List<String> files = new ArrayList<>();
            cm.path("data").fieldNames().forEachRemaining(files::add);
            assertThat(files).hasSize(3);
            for (String file : files) {
                JsonNode dashboard = json.readTree(cm.path("data").path(file).asText());
                List<JsonNode> panels = new ArrayList<>();
                collectPanels(dashboard.path("panels"), panels);
                assertThat(panels).as(file).isNotEmpty();
                for (JsonNode p : panels) {
                    String where = "dashboard " + file + " panel '" + p.path("title").asText() + "'";
                    assertThat(p.path("targets").size()).as(where + " has queries").isGreaterThan(0);
                    Set<String> names = new TreeSet<>();
                    for (JsonNode t : p.path("targets")) {
                        Set<String> inTarget = metricNames(t.path("expr").asText());
                        assertThat(inTarget).as(where + " query " + t.path("expr").asText()).isNotEmpty();
                        names.addAll(inTarget);
                    }
                    out.put(where, names);
                }
                for (JsonNode v : dashboard.path("templating").path("list")) {
                    JsonNode q = v.path("query");
                    String text = q.isTextual() ? q.asText() : q.path("query").asText("");
                    if ("query".equals(v.path("type").asText())) {
                        out.put("dashboard " + file + " variable " + v.path("name").asText(), metricNames(text));
                    }
                }
            }
        }
        JsonNode rules = ChartFiles.one(docs, "PrometheusRule").path("spec").path("groups");
        for (JsonNode group : rules) {
            for (JsonNode rule : group.path("rules")) {
                Set<String> names = metricNames(rule.path("expr").asText());
                assertThat(names).as(rule.path("alert").asText()).isNotEmpty();
                out.put("alert " + rule.path("alert").asText(), names);
            }
        }
        return out;
    }

    private static void collectPanels(JsonNode panels, List<JsonNode> out) {
        for (JsonNode p : panels) {
            if ("row".equals(p.path("type").asText())) {
                collectPanels(p.path("panels"), out);
            } else {
                out.add(p);
            }
        }
    }
}
