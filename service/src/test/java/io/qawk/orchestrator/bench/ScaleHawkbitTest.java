package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.qawk.orchestrator.hawkbit.ActionOutcome;
import io.qawk.orchestrator.hawkbit.AssignmentIncompleteException;
import io.qawk.orchestrator.hawkbit.AssignmentResult;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.Fiql;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The scale double of hawkBit must not lie: its paging, FIQL, assignment, completion and counting, through the real
 * gateway (a Quarkus test, because the gateway's REST client and Fault Tolerance need the Quarkus runtime).
 */
@QuarkusTest
class ScaleHawkbitTest {

    final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    final ObjectMapper json = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    ScaleHawkbit hawkbit;
    HawkbitGateway gateway;

    @BeforeEach
    void start() {
        hawkbit = ScaleHawkbit.start(4).clock(now::get);
        gateway = GatewayConfig.gateway(hawkbit.baseUrl(), Map.of());
    }

    @AfterEach
    void stop() {
        gateway.close();
        hawkbit.close();
    }

    JsonNode get(String pathAndQuery, int expectedStatus) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(hawkbit.baseUrl() + "/rest/v1" + pathAndQuery))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("u:p".getBytes()))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(pathAndQuery + " -> " + r.body()).isEqualTo(expectedStatus);
        return r.body().isEmpty() ? null : json.readTree(r.body());
    }

    static String q(String fiql) {
        return URLEncoder.encode(fiql, StandardCharsets.UTF_8);
    }

    /**
     * The JDK server writes an answer's headers and body in two writes; unless its sockets have TCP_NODELAY, the body
     * waits for the client's delayed ACK of the headers (~40 ms). {@code sun.net.httpserver.nodelay} is read once per
     * JVM, when the first JDK server starts: a test profile that started one during test discovery (the Prometheus
     * endpoint) left it off for the whole JVM, and the benchmark's first sync of 300,000 answers took 25 min instead of
     * 50 s (2026-12-06). Ten answers on one kept-alive connection, the time from each one's headers to the end of its
     * body: with TCP_NODELAY well under a millisecond, without it 30-43 ms.
     */
    @Test
    void anAnswersBodyFollowsItsHeadersWithoutWaitingForAnAck() throws Exception {
        hawkbit.populate(2, 1, List.of("solo"), 1, "");
        URI base = URI.create(hawkbit.baseUrl());
        List<Double> waits = new ArrayList<>();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(5000);
            var out = socket.getOutputStream();
            var in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < 10; i++) {
                out.write(("GET /rest/v1/targets?limit=1 HTTP/1.1\r\nHost: " + base.getAuthority()
                        + "\r\nAuthorization: Basic dTpw\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String headers = readHeaders(in);
                long headersAt = System.nanoTime();
                int length = Integer.parseInt(headers.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                        .findFirst().orElseThrow().substring("content-length:".length()).trim());
                assertThat(in.readNBytes(length)).hasSize(length);
                waits.add((System.nanoTime() - headersAt) / 1e6);
            }
        }
        List<Double> sorted = waits.stream().sorted().toList();
        assertThat(sorted.get(sorted.size() / 2)).as("median ms from headers to body's end, all: " + waits)
                .isLessThan(20.0);
    }

    private static String readHeaders(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        while (s.length() < 4 || !s.substring(s.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed after: " + s);
            }
            s.append((char) b);
        }
        return s.toString();
    }

    @Test
    void pagesAreCappedAt500WithTotalAndSizeAndTheGatewayPagesThrough() throws Exception {
        hawkbit.populate(1234, 1, List.of("solo"), 10, "");

        JsonNode capped = get("/targets?offset=0&limit=9999&sort=controllerId:ASC", 200);
        assertThat(capped.path("size").asInt()).isEqualTo(500);
        assertThat(capped.path("content")).hasSize(500);
        assertThat(capped.path("total").asInt()).isEqualTo(1234);
        assertThat(get("/targets", 200).path("size").asInt()).as("default limit").isEqualTo(50);
        JsonNode last = get("/targets?offset=1000&limit=500&sort=controllerId:DESC", 200);
        assertThat(last.path("size").asInt()).isEqualTo(234);
        assertThat(last.path("content").get(233).path("controllerId").asText()).isEqualTo("sys-000000-solo-0");
        assertThat(get("/targets?sort=nonsense:ASC", 400)).isNotNull();

        hawkbit.reset();
        List<HawkbitTarget> all = gateway.targets(null);
        assertThat(all).hasSize(1234);
        assertThat(all).extracting(HawkbitTarget::controllerId).isSorted();
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.TARGETS)).isEqualTo(3);
        assertThat(hawkbit.snapshot().total()).isEqualTo(3);
    }

    @Test
    void fiqlFiltersWithTheOperatorsAndFieldsTheServiceUses() throws Exception {
        hawkbit.populate(10, 4, List.of("lane", "terminal", "terminal", "display"), 3, "p-");
        long app1 = hawkbit.addDistributionSet("app", "1");
        hawkbit.preinstall(app1, List.of("sys-000001-lane-0", "sys-000002-lane-0"));
        hawkbit.setMetadata("sys-000003-lane-0", "site", "a,b;c==d");
        hawkbit.setAttribute("sys-000004-display-3", "device_type", "P-DISPLAY");

        assertThat(gateway.targets("attribute.device_type==p-lane")).hasSize(10);
        assertThat(gateway.targets("attribute.device_type==P-LANE")).as("case-insensitive").hasSize(10);
        assertThat(gateway.targets("attribute.device_type==p-*")).hasSize(40);
        assertThat(gateway.targets("attribute.device_type==*display")).hasSize(10);
        assertThat(gateway.targets("attribute.device_type!=p-terminal")).hasSize(20);
        assertThat(gateway.targets("attribute.nothing!=x")).as("!= matches an absent key").hasSize(40);
        assertThat(gateway.targets("attribute.device_type=in=(p-lane,\"p-display\")")).hasSize(20);
        assertThat(gateway.targets("attribute.device_type=out=(p-lane,p-display)")).hasSize(20);
        assertThat(gateway.targets("attribute.centerid==c0001;attribute.device_type==p-lane")).hasSize(3);
        assertThat(gateway.targets("attribute.centerid==c0001,attribute.device_type==p-lane")).hasSize(19);
        assertThat(gateway.targets("(attribute.centerid==c0001,attribute.centerid==c0002);attribute.device_type==p-lane"))
                .hasSize(6);
        assertThat(gateway.targets(Fiql.eq("metadata.site", "a,b;c==d"))).hasSize(1);
        assertThat(gateway.targets(Fiql.and(Fiql.eq("installedDS.name", "app"), Fiql.eq("installedDS.version", "1"))))
                .hasSize(2);
        assertThat(gateway.targets("assignedDS.name==app;assignedDS.version==1")).hasSize(2);
        assertThat(gateway.targets("updateStatus==in_sync")).hasSize(2);
        assertThat(gateway.targets("updateStatus==registered")).hasSize(38);
        assertThat(gateway.targets("name==sys-000001-*")).hasSize(4);
        assertThat(gateway.targets("tag==anything")).isEmpty();
        assertThat(gateway.targets(Fiql.in("controllerId", List.of("sys-000009-lane-0", "SYS-000001-LANE-0", "nope"))))
                .extracting(HawkbitTarget::controllerId).containsExactly("sys-000001-lane-0", "sys-000009-lane-0");
        assertThat(gateway.targets(Fiql.and(Fiql.in("controllerId", List.of("sys-000001-lane-0", "sys-000003-lane-0")),
                Fiql.eq("installedDS.name", "app")))).hasSize(1);
        assertThat(gateway.targets("(controllerId=in=(sys-000001-lane-0,sys-000002-lane-0);attribute.device==sys-000001),"
                + "(controllerId==sys-000003-lane-0)")).extracting(HawkbitTarget::controllerId)
                .containsExactly("sys-000001-lane-0", "sys-000003-lane-0");
        String tooLong = Fiql.in("controllerId", IntStream.range(0, 1000).mapToObj(i -> "device-" + i).toList());
        assertThatThrownBy(() -> gateway.targets(tooLong)).as("URL over Tomcat's 8 KB header limit")
                .isInstanceOf(HawkbitRequestException.class).hasMessageContaining("400");
        assertThatThrownBy(() -> gateway.targets("colour==red")).isInstanceOf(HawkbitRequestException.class)
                .hasMessageContaining("400");
        assertThatThrownBy(() -> gateway.targets("attribute.device_type=like=x"))
                .isInstanceOf(HawkbitRequestException.class);
    }

    @Test
    void attributesMetadataAndSetsOfOneTarget() throws Exception {
        hawkbit.addTarget("with", Map.of("device", "d1", "hw", "rev2"));
        hawkbit.addTarget("without", Map.of());
        hawkbit.setMetadata("with", "k", "v");

        assertThat(gateway.attributes("with")).containsEntry("device", "d1").containsEntry("hw", "rev2");
        assertThat(gateway.attributes("without")).isEmpty();
        get("/targets/without/attributes", 204);
        assertThat(gateway.metadata("with")).containsExactly(Map.entry("k", "v"));
        assertThat(gateway.metadata("without")).isEmpty();
        assertThat(gateway.installedSet("with")).isEmpty();
        assertThat(gateway.assignedSet("with")).isEmpty();
        assertThatThrownBy(() -> gateway.attributes("gone")).isInstanceOf(TargetNotFoundException.class);
        assertThatThrownBy(() -> gateway.installedSet("gone")).isInstanceOf(TargetNotFoundException.class);
        assertThat(get("/targets/with", 200).path("controllerId").asText()).isEqualTo("with");

        long a = hawkbit.addDistributionSet("app", "1");
        long b = hawkbit.addDistributionSet("app", "2");
        hawkbit.addDistributionSet("other", "1");
        assertThat(gateway.distributionSet(b)).contains(new DistributionSetRef(b, "app", "2", true));
        assertThat(gateway.distributionSet(99)).isEmpty();
        assertThat(gateway.distributionSet("app", "1")).contains(new DistributionSetRef(a, "app", "1", true));
        assertThat(gateway.resolveArtifactName("app")).map(DistributionSetRef::id).contains(b);
        assertThat(gateway.resolveArtifactName("app:1")).map(DistributionSetRef::id).contains(a);
    }

    @Test
    void assignmentDropsUnknownTargetsAndDevicesFinishOrFailAfterTheirDelay() throws Exception {
        hawkbit.populate(3, 1, List.of("solo"), 1, "");
        hawkbit.deviceRule(ScaleHawkbit.DeviceRule.of(Duration.ofSeconds(30),
                (id, set) -> id.startsWith("sys-000002")));
        long set = hawkbit.addDistributionSet("app", "2");
        List<String> ids = List.of("sys-000000-solo-0", "sys-000001-solo-0", "sys-000002-solo-0");

        List<String> withUnknown = new ArrayList<>(ids);
        withUnknown.add("unknown-device");
        AssignmentIncompleteException incomplete = Assertions.assertThrows(
                AssignmentIncompleteException.class, () -> gateway.assign(set, withUnknown));
        assertThat(incomplete.result().assigned()).isEqualTo(3);
        assertThat(incomplete.unknownTargets()).containsExactly("unknown-device");
        AssignmentResult result = incomplete.result();
        assertThat(result.actionByTarget()).containsOnlyKeys(ids);

        // nothing happens before the delay
        for (String id : ids) {
            assertThat(hawkbit.updateStatus(id)).isEqualTo("pending");
            assertThat(gateway.actionOutcome(id, result.actionByTarget().get(id))).isEqualTo(ActionOutcome.RUNNING);
        }
        assertThat(gateway.assign(set, ids).alreadyAssigned()).isEqualTo(3);
        assertThat(gateway.actions(ids.get(0), "status==pending")).hasSize(1);

        now.addAndGet(30_000);
        hawkbit.reset();
        assertThat(gateway.actionOutcome(ids.get(0), result.actionByTarget().get(ids.get(0))))
                .isEqualTo(ActionOutcome.SUCCEEDED);
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.ACTION_STATUS)).as("0.3: result from the status history")
                .isEqualTo(1);
        assertThat(gateway.installedSet(ids.get(0))).map(DistributionSetRef::id).contains(set);
        assertThat(gateway.targets("updateStatus==in_sync")).hasSize(2);
        assertThat(gateway.actionOutcome(ids.get(2), result.actionByTarget().get(ids.get(2))))
                .isEqualTo(ActionOutcome.FAILED);
        assertThat(gateway.targets("updateStatus==error")).extracting(HawkbitTarget::controllerId)
                .containsExactly(ids.get(2));
        assertThat(gateway.assignedSet(ids.get(2))).as("failed set no longer assigned").isEmpty();
        assertThat(gateway.installedSet(ids.get(2))).isEmpty();
        assertThat(gateway.actions(ids.get(0), "status==pending")).isEmpty();
        assertThat(gateway.actions(ids.get(0), null)).hasSize(1);

        // a failed device takes the set again: a new action
        assertThat(gateway.assign(set, List.of(ids.get(2))).assigned()).isEqualTo(1);

        // 0.10+: the outcome is in the action itself
        hawkbit.shape(ScaleHawkbit.Shape.V0_10);
        hawkbit.reset();
        assertThat(gateway.actionOutcome(ids.get(1), result.actionByTarget().get(ids.get(1))))
                .isEqualTo(ActionOutcome.SUCCEEDED);
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.ACTION_STATUS)).isZero();
    }

    @Test
    void aNewAssignmentCancelsTheOpenActionAndQuotaAndUnknownSetsAreRefused() throws Exception {
        hawkbit.addTarget("d", Map.of("device", "x"));
        hawkbit.deviceRule(ScaleHawkbit.DeviceRule.succeedAfter(Duration.ofMinutes(1)));
        long one = hawkbit.addDistributionSet("app", "1");
        long two = hawkbit.addDistributionSet("app", "2");
        long incomplete = hawkbit.addDistributionSet("app", "3", false);
        long first = gateway.assign(one, List.of("d")).actionIds().get(0);
        long second = gateway.assign(two, List.of("d")).actionIds().get(0);

        assertThat(hawkbit.actions("d")).extracting(ScaleHawkbit.ActionView::state).containsExactly("canceled", "running");
        assertThat(gateway.actionOutcome("d", first)).isEqualTo(ActionOutcome.CANCELED);
        now.addAndGet(60_000);
        assertThat(gateway.actionOutcome("d", second)).isEqualTo(ActionOutcome.SUCCEEDED);
        assertThat(hawkbit.installed("d")).map(ScaleHawkbit.SetInfo::id).contains(two);
        assertThatThrownBy(() -> gateway.assign(99, List.of("d"))).isInstanceOf(HawkbitRequestException.class);
        assertThatThrownBy(() -> gateway.assign(incomplete, List.of("d"))).isInstanceOf(HawkbitRequestException.class);

        String tooMany = IntStream.range(0, ScaleHawkbit.MAX_ASSIGN + 1).mapToObj(i -> "{\"id\":\"d" + i + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(hawkbit.baseUrl()
                        + "/rest/v1/distributionsets/" + one + "/assignedTargets"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("u:p".getBytes()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(tooMany)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(403);
        get("/targets/d/actions/" + first + "/status", 200);
        get("/targets/d/actions/424242", 404);
    }

    @Test
    void requestsAreCountedPerOperationAndResetAndUnavailabilityAnswers503() throws Exception {
        hawkbit.populate(2, 1, List.of("solo"), 1, "");
        long set = hawkbit.addDistributionSet("app", "1");
        gateway.targets(null);
        gateway.attributes("sys-000000-solo-0");
        gateway.metadata("sys-000000-solo-0");
        gateway.installedSet("sys-000000-solo-0");
        gateway.assignedSet("sys-000000-solo-0");
        gateway.distributionSet("app", "1");
        gateway.assign(set, List.of("sys-000000-solo-0")); // DS get + assign
        gateway.actions("sys-000000-solo-0", null);

        ScaleHawkbit.Counts c = hawkbit.snapshot();
        assertThat(c.get(ScaleHawkbit.Op.TARGETS)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.ATTRIBUTES)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.METADATA)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.INSTALLED_DS)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.ASSIGNED_DS)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.DS_SEARCH)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.DS_GET)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.ASSIGN)).isEqualTo(1);
        assertThat(c.get(ScaleHawkbit.Op.ACTIONS)).isEqualTo(1);
        assertThat(c.total()).isEqualTo(9);
        assertThat(c.minus(c).total()).isZero();

        hawkbit.reset();
        assertThat(hawkbit.snapshot().total()).isZero();
        hawkbit.unavailable(true);
        get("/targets", 503);
        hawkbit.unavailable(false);
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.TARGETS)).isEqualTo(1);
    }

    @Test
    void aChangedAttributeAndPollingMoveTheTargetAsOnHawkbit() throws Exception {
        hawkbit.populate(1, 1, List.of("solo"), 1, "");
        String id = "sys-000000-solo-0";
        long before = gateway.targets(null).get(0).lastControllerRequestAt().toEpochMilli();
        now.addAndGet(5_000);
        hawkbit.setAttribute(id, "device", "sys-000777");
        assertThat(gateway.attributes(id)).containsEntry("device", "sys-000777");
        assertThat(gateway.targets(null).get(0).lastControllerRequestAt().toEpochMilli()).isEqualTo(before + 5_000);
        assertThat(gateway.targets("attribute.device==sys-000777")).hasSize(1);

        hawkbit.pollInterval(Duration.ofSeconds(10));
        now.addAndGet(60_000);
        long polled = gateway.targets(null).get(0).lastControllerRequestAt().toEpochMilli();
        assertThat(polled).isGreaterThan(before + 50_000).isLessThanOrEqualTo(now.get());
    }

    @Test
    void oneHundredThousandTargetsArePagedQuickly() {
        long t0 = System.nanoTime();
        hawkbit.populate(25_000, 4, List.of("lane", "terminal", "terminal", "display"), 250, "");
        long populated = System.nanoTime();
        int[] seen = {0};
        gateway.forEachTargetPage("attribute.device_type==terminal", page -> seen[0] += page.size());
        long paged = System.nanoTime();
        assertThat(seen[0]).isEqualTo(50_000);
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.TARGETS)).isEqualTo(100);
        assertThat(Duration.ofNanos(populated - t0)).isLessThan(Duration.ofSeconds(20));
        assertThat(Duration.ofNanos(paged - populated)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void rolloutsAndTargetFiltersAreListedPagedAndStoppedAsTheGuardAsks() throws Exception {
        hawkbit.populate(4, 2, List.of("lane", "terminal"), 2, "");
        long set = hawkbit.addDistributionSet("app", "2");
        List<String> statuses = List.of("creating", "ready", "waiting_for_approval", "scheduled", "starting", "running",
                "paused", "finished", "stopped");
        for (int i = 0; i < 603; i++) {
            hawkbit.addRollout("r" + i, "attribute.device_type==terminal", set, statuses.get(i % statuses.size()));
            hawkbit.addTargetFilter("f" + i, "attribute.centerid==c0000", i % 3 == 0 ? null : set, "soft");
        }

        JsonNode page = get("/rollouts?offset=500&limit=9999&sort=id:ASC", 200);
        assertThat(page.path("total").asInt()).isEqualTo(603);
        assertThat(page.path("size").asInt()).isEqualTo(103);
        assertThat(page.path("content").get(0).path("id").asLong()).isEqualTo(501);
        assertThat(page.path("content").get(0).path("targetFilterQuery").asText())
                .isEqualTo("attribute.device_type==terminal");
        assertThat(get("/rollouts?sort=status:ASC", 400)).isNotNull();
        assertThat(get("/targetfilters?limit=2&q=" + q("name==f1"), 200).path("content").get(0).path("query").asText())
                .isEqualTo("attribute.centerid==c0000");

        hawkbit.reset();
        assertThat(gateway.openRollouts()).hasSize(603 - 2 * 67).allMatch(r -> r.distributionSetId() == set)
                .allMatch(r -> r.lastModifiedAt() != null);
        assertThat(gateway.autoAssignments()).hasSize(402).allMatch(a -> "soft".equals(a.actionType()));
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.ROLLOUTS)).as("two pages").isEqualTo(2);
        assertThat(hawkbit.snapshot().get(ScaleHawkbit.Op.TARGET_FILTERS)).isEqualTo(2);

        long running = 6;
        assertThat(gateway.rolloutGroupOf(running, "sys-000001-terminal-1")).contains("group-1");
        assertThat(gateway.rolloutGroupOf(running, "sys-000001-lane-0")).isEmpty();
        long before = hawkbit.rollout(running).lastModifiedAt();
        assertThat(gateway.pauseRollout(running)).isTrue();
        assertThat(hawkbit.rollout(running).status()).isEqualTo("paused");
        assertThat(hawkbit.rollout(running).lastModifiedAt()).isGreaterThan(before);
        assertThat(gateway.pauseRollout(running)).as("paused already").isFalse();
        assertThat(gateway.resumeRollout(running)).isTrue();
        assertThat(gateway.denyRollout(3, "breaks a rule")).isTrue();
        assertThat(hawkbit.rollout(3).status()).isEqualTo("approval_denied");
        assertThat(gateway.denyRollout(1, "no approval asked")).isFalse();

        assertThat(gateway.switchOffAutoAssignment(2)).isTrue();
        assertThat(hawkbit.targetFilter(2).autoAssignSetId()).isNull();
        assertThat(gateway.switchOnAutoAssignment(2, set, "forced")).isTrue();
        assertThat(hawkbit.targetFilter(2).autoAssignSetId()).isEqualTo(set);
        assertThat(gateway.switchOffAutoAssignment(9999)).as("no such filter").isFalse();

        hawkbit.deviceRule(ScaleHawkbit.DeviceRule.of(Duration.ofHours(1), (id, s) -> false));
        gateway.assign(set, List.of("sys-000000-lane-0"));
        long action = hawkbit.lastActionId();
        assertThat(gateway.openActions("sys-000000-lane-0")).hasSize(1);
        assertThat(gateway.cancelAction("sys-000000-lane-0", action)).isTrue();
        assertThat(gateway.openActions("sys-000000-lane-0")).isEmpty();
        assertThat(hawkbit.actions("sys-000000-lane-0").get(0).state()).isEqualTo("canceled");
        assertThat(gateway.cancelAction("sys-000000-lane-0", action)).as("closed").isFalse();
    }
}
