package io.qawk.orchestrator.hostile;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.net.Socket;
import java.net.http.HttpHeaders;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9, hostile input: hundreds of generated hostile requests to every write endpoint and both YAML imports.
 * Every one is answered with a 4xx problem document that has a detail (never a 5xx), and a refused request leaves
 * the database exactly as it was.
 * <p>
 * {@code -Dqawk.fuzz.cases=N} (default 600) and {@code -Dqawk.fuzz.seed=S} (default fixed) choose how many and which.
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
class HostileInputTest {

    static final int CASES = Integer.getInteger("qawk.fuzz.cases", 600);
    static final long SEED = Long.getLong("qawk.fuzz.seed", 20261130L);
    static final String[] TABLES = {"system_type", "system_type_component", "manifest", "manifest_component",
            "system_deployment", "system_run", "run_device", "run_event", "fleet", "fleet_member", "fleet_release",
            "release_device"};
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Inject
    DataSource dataSource;


    static HostileCases.Ids ids;

    @BeforeEach
    void baseObjects() {
        if (ids != null) {
            return;
        }
        HawkbitProxy.heal();
        long set = new HawkbitFixtures(SharedHawkbit.get()).createDistributionSet("fz-set", "1");
        long type = create("/qawk/v1/systemtypes", """
                {"name": "fz-base-type", "systemKey": "attribute.device",
                 "components": [{"componentType": "device1", "match": "attribute.device_type==fz-device1"}]}""");
        long other = create("/qawk/v1/systemtypes", """
                {"name": "fz-other-type", "systemKey": "attribute.device",
                 "components": [{"componentType": "device1", "match": "attribute.device_type==fz-other"}]}""");
        long manifest = create("/qawk/v1/manifests", """
                {"name": "fz-manifest", "systemTypeId": %d,
                 "components": [{"componentType": "device1", "distributionSetId": %d, "order": 1}]}"""
                .formatted(type, set));
        long channel = create("/qawk/v1/fleets", "{\"name\": \"fz-channel\", \"match\": \"attribute.channel==fz\"}");
        long deployment = create("/qawk/v1/systemdeployments",
                "{\"name\": \"fz-draft\", \"manifestId\": " + manifest + "}");
        ids = new HostileCases.Ids(type, other, manifest, channel, deployment, set);
    }

    private static long create(String path, String json) {
        return Api.admin().body(json).post(path).then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private List<String> tables() {
        return Tables.dump(dataSource, TABLES);
    }

    static final Map<String, Integer> STATUS_COUNTS = new TreeMap<>();

    @TestFactory
    Stream<DynamicTest> generatedHostileRequestsAreRefusedWithProblemsAndChangeNothing() {
        HostileCases cases = new HostileCases(SEED, ids);
        List<HostileCases.Case> all = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            all.add(cases.next(i));
        }
        // whatever was accepted on the way (legal but odd names and queries), the inventory can still be read
        DynamicTest syncAfterwards = DynamicTest.dynamicTest("inventory sync after all cases", () ->
                Api.syncInventory());
        return Stream.concat(all.stream().map(c -> DynamicTest.dynamicTest(abbreviate(c.toString()), () -> check(c))),
                Stream.of(syncAfterwards));
    }

    private void check(HostileCases.Case c) throws Exception {
        List<String> before = tables();
        HttpResponse<String> r = send(c, "admin", Api.ADMIN_PASSWORD);
        synchronized (STATUS_COUNTS) {
            STATUS_COUNTS.merge(r.statusCode() / 100 + "xx " + r.statusCode(), 1, Integer::sum);
        }
        assertThat(r.statusCode()).as("status of %s; body %s", c, r.body()).isLessThan(500);
        if (c.mustRefuse()) {
            assertThat(r.statusCode()).as("status of %s; body %s", c, r.body()).isBetween(400, 499);
        }
        if (r.statusCode() >= 400) {
            assertThat(r.headers().firstValue("Content-Type").orElse("")).as("content type of %s", c)
                    .startsWith("application/problem+json");
            JsonNode problem = HostileCases.JSON.readTree(r.body());
            assertThat(problem.path("status").asInt()).isEqualTo(r.statusCode());
            assertThat(problem.path("detail").asText()).as("detail of %s", c).isNotBlank();
            assertThat(tables()).as("database after refused %s", c).isEqualTo(before);
        }
    }

    HttpResponse<String> send(HostileCases.Case c, String user, String password) throws Exception {
        HttpRequest.BodyPublisher body = c.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(c.body());
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + io.restassured.RestAssured.port + c.path()))
                .timeout(Duration.ofSeconds(30))
                .method(c.method(), body)
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        if (c.contentType() != null) {
            b.header("Content-Type", c.contentType());
        }
        if (c.body() != null && c.body().length > 1024 * 1024) {
            return oversized(c, user, password);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * A body over the limit: declared in full, but only its first 64 KB sent before the answer is read. The server
     * answers on the headers; streaming megabytes into a socket it is closing would lose that answer to a reset.
     */
    private static HttpResponse<String> oversized(HostileCases.Case c, String user, String password) throws Exception {
        try (Socket s = new Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            s.setSoTimeout(30_000);
            String head = c.method() + " " + c.path() + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic "
                    + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                    + "\r\nContent-Type: " + c.contentType() + "\r\nContent-Length: " + c.body().length + "\r\n\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(c.body(), 0, 64 * 1024);
            s.getOutputStream().flush();
            String raw = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = raw.indexOf("\r\n\r\n");
            String[] lines = raw.substring(0, split).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            String body = raw.substring(split + 4);
            return new RawResponse(status, HttpHeaders.of(headers, (a, b) -> true), body);
        }
    }

    private record RawResponse(int statusCode, HttpHeaders headers, String body)
            implements HttpResponse<String> {
        public HttpRequest request() {
            return null;
        }

        public Optional<HttpResponse<String>> previousResponse() {
            return Optional.empty();
        }

        public Optional<SSLSession> sslSession() {
            return Optional.empty();
        }

        public URI uri() {
            return null;
        }

        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }

    private static String abbreviate(String s) {
        String printable = s.replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 200 ? printable.substring(0, 200) + "…" : printable;
    }

    @Test
    void concurrentCreatesOfOneNameGiveOneCreatedAndConflictsNeverA500() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (String kind : List.of("systemtypes", "fleets")) {
                for (int round = 0; round < 3; round++) {
                    String name = "fz-race-" + kind + "-" + round;
                    String json = kind.equals("systemtypes") ? HostileCases.JSON.writeValueAsString(
                            new HostileCases(1, ids).systemType(name))
                            : "{\"name\": \"" + name + "\", \"match\": \"attribute.channel==race\"}";
                    HostileCases.Case c = new HostileCases.Case("race", "POST", "/qawk/v1/" + kind,
                            "application/json", json.getBytes(StandardCharsets.UTF_8), false);
                    List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        calls.add(() -> send(c, "admin", Api.ADMIN_PASSWORD));
                    }
                    List<Integer> statuses = new ArrayList<>();
                    for (Future<HttpResponse<String>> f : pool.invokeAll(calls)) {
                        HttpResponse<String> r = f.get();
                        statuses.add(r.statusCode());
                        if (r.statusCode() == 409) {
                            assertThat(r.headers().firstValue("Content-Type").orElse(""))
                                    .startsWith("application/problem+json");
                            assertThat(r.body()).contains("already exists");
                        }
                    }
                    assertThat(statuses).as(kind + " " + name).containsOnly(201, 409);
                    assertThat(statuses.stream().filter(s -> s == 201)).as(kind + " " + name).hasSize(1);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
