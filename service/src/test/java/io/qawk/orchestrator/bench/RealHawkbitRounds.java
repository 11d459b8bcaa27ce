package io.qawk.orchestrator.bench;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;

/**
 * What the benchmarks against the real hawkBit share: counting targets by a query, waiting for a condition with a
 * deadline, the operator's side (one bulk assignment, then waiting until hawkBit shows it installed), the service's
 * side (a manifest and a deployment through the API), medians, and Qawk's requests to hawkBit read from its own
 * {@code /q/metrics}. Every wait polls hawkBit every {@link #POLL}, the same on both sides.
 */
final class RealHawkbitRounds {

    /** How often a waiting side asks hawkBit (or the service) whether it is there yet. */
    static final Duration POLL = Duration.ofMillis(250);

    private static final String[] LOAD_METRICS = {"qawk_engine_pass_seconds", "qawk_hawkbit_requests_seconds_count",
            "qawk_hawkbit_requests_seconds_sum"};
    private static final Pattern OPERATION = Pattern.compile("operation=\"([^\"]+)\"");

    private RealHawkbitRounds() {
    }

    /** Assigns {@code set} to all targets in one call; the time until all run it, or null at the timeout. */
    static Duration direct(HawkbitFixtures hawkbit, long set, List<String> ids, Duration timeout) {
        return direct(hawkbit, set, ids, timeout, new Instant[1]);
    }

    /** The same; {@code accepted[0]}: when hawkBit answered the assignment (its acceptance, for the gap between orders). */
    static Duration direct(HawkbitFixtures hawkbit, long set, List<String> ids, Duration timeout, Instant[] accepted) {
        return direct(hawkbit, set, ids, timeout, accepted, new long[1]);
    }

    /**
     * The same; {@code asked[0]} grows by the requests a script sends for it: the bulk assignment and each count while
     * it waits (the set's name, which the test looks up, a script would know).
     */
    static Duration direct(HawkbitFixtures hawkbit, long set, List<String> ids, Duration timeout, Instant[] accepted,
                           long[] asked) {
        String installed = installedQuery(hawkbit, set);
        long t0 = System.nanoTime();
        hawkbit.assign(set, ids);
        asked[0]++;
        accepted[0] = Instant.now();
        boolean done = await(timeout, () -> {
            asked[0]++;
            return count(hawkbit, installed) >= ids.size();
        });
        return done ? Duration.ofNanos(System.nanoTime() - t0) : null;
    }

    /** FIQL of the targets with {@code set} installed. */
    static String installedQuery(HawkbitFixtures hawkbit, long set) {
        JsonNode ds = hawkbit.distributionSet(set);
        return "installedDS.name==" + HawkbitFixtures.quote(ds.path("name").asText()) + ";installedDS.version=="
                + HawkbitFixtures.quote(ds.path("version").asText());
    }

    /** FIQL of the targets with {@code set} assigned. */
    static String assignedQuery(HawkbitFixtures hawkbit, long set) {
        return installedQuery(hawkbit, set).replace("installedDS.", "assignedDS.");
    }

    /** How many targets match {@code fiql} (one request of one item). */
    static long count(HawkbitFixtures hawkbit, String fiql) {
        return hawkbit.get("/rest/v1/targets?limit=1&q=" + URLEncoder.encode(fiql, StandardCharsets.UTF_8)
                .replace("+", "%20")).path("total").asLong();
    }

    /** Polls {@code condition} every {@link #POLL} until it holds (true) or {@code timeout} passed (false). */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    /** A manifest through the API: {@code components} are {@code componentType → {setId, order}}. */
    static int manifest(int systemType, String name, Map<String, long[]> components) {
        StringBuilder c = new StringBuilder();
        components.forEach((type, setAndOrder) -> c.append(c.isEmpty() ? "" : ", ")
                .append("{\"componentType\": \"").append(type).append("\", \"distributionSetId\": ")
                .append(setAndOrder[0]).append(", \"order\": ").append(setAndOrder[1]).append('}'));
        return Api.admin().body("{\"name\": \"" + name + "\", \"systemTypeId\": " + systemType + ", \"components\": ["
                + c + "]}").post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** A draft deployment of every system of the manifest's type, all at once; {@code extra} is more JSON fields. */
    static int deployment(int manifest, String name, int systems, String extra) {
        return Api.admin().body("{\"name\": \"" + name + "\", \"manifestId\": " + manifest + ", \"maxParallel\": "
                        + Math.min(10_000, systems) + ", \"maxFailed\": " + systems + extra + "}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
    }

    static void start(int deployment) {
        Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/start").then().statusCode(200);
    }

    /** The deployment's phase ({@code RUNNING}, {@code FINISHED} …). */
    static String state(int deployment) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment).then().statusCode(200).extract()
                .path("state");
    }

    /** The deployment's {@code summary} in the operators' words (how many systems are where). */
    static String summary(int deployment) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment).then().statusCode(200).extract()
                .path("summary");
    }

    static boolean ended(String state) {
        return "FINISHED".equals(state) || "FAILED".equals(state);
    }

    /** The service's engine passes and hawkBit requests so far, from its {@code /q/metrics}. */
    static Map<String, Double> load(String app) {
        return Scrape.metrics(app, LOAD_METRICS);
    }

    /** What the service asked of hawkBit between two {@link #load} readings. */
    record Load(double requests, double passes, double passSeconds, Map<String, String> perOperation) {

        static Load between(Map<String, Double> before, Map<String, Double> after) {
            Map<String, Double> d = Scrape.delta(before, after);
            Map<String, String> perOperation = new TreeMap<>();
            d.forEach((k, v) -> {
                Matcher m = OPERATION.matcher(k);
                if (k.startsWith("qawk_hawkbit_requests_seconds_count") && v > 0 && m.find()) {
                    double sum = Scrape.sum(d, k.replace("_count", "_sum"));
                    perOperation.merge(m.group(1), String.format(Locale.ROOT, "%.0f× avg %.0f ms", v,
                            sum * 1000 / v), (a, b) -> a + " + " + b);
                }
            });
            return new Load(Scrape.sum(d, "qawk_hawkbit_requests_seconds_count"),
                    Scrape.sum(d, "qawk_engine_pass_seconds_count"), Scrape.sum(d, "qawk_engine_pass_seconds_sum"),
                    perOperation);
        }

        Load plus(Load o) {
            Map<String, String> ops = new TreeMap<>(perOperation);
            o.perOperation.forEach((k, v) -> ops.merge(k, v, (a, b) -> a + " + " + b));
            return new Load(requests + o.requests, passes + o.passes, passSeconds + o.passSeconds, ops);
        }
    }

    /** When hawkBit says each target with {@code set} installed installed it ({@code installedAt}), 500 a request. */
    static Map<String, Instant> installedAt(HawkbitFixtures hawkbit, long set) {
        String q = URLEncoder.encode(installedQuery(hawkbit, set), StandardCharsets.UTF_8).replace("+", "%20");
        Map<String, Instant> out = new HashMap<>();
        for (int offset = 0; ; offset += 500) {
            JsonNode page = hawkbit.get("/rest/v1/targets?limit=500&offset=" + offset + "&q=" + q);
            for (JsonNode t : page.path("content")) {
                if (t.hasNonNull("installedAt")) {
                    out.put(t.path("controllerId").asText(), Instant.ofEpochMilli(t.path("installedAt").asLong()));
                }
            }
            if (page.path("content").size() < 500) {
                return out;
            }
        }
    }

    /**
     * What a deployment's runs' timelines say, read after the round (one request per run): the gaps between orders
     * ({@code ORDER_GAP}), and per run when it was photographed ({@code SNAPSHOT}) and when hawkBit took its first
     * assignment ({@code ASSIGNED}): the steps between the start and order 1's devices being at it.
     */
    record Timelines(List<Duration> gaps, List<Instant> photographed, List<Instant> firstAssigned) {

        /** The latest of {@code at}, from {@code start}, in seconds (NaN when none). */
        static double lastAfter(List<Instant> at, Instant start) {
            return at.stream().max(Instant::compareTo).map(i -> Duration.between(start, i).toMillis() / 1e3)
                    .orElse(Double.NaN);
        }
    }

    static Timelines qawkTimelines(int deployment) {
        List<Integer> runIds = Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs").then()
                .statusCode(200).extract().jsonPath().getList("id", Integer.class);
        Timelines out = new Timelines(new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>());
        for (int runId : runIds) {
            io.restassured.path.json.JsonPath events = Api.viewer().get("/qawk/v1/systemdeployments/" + deployment
                    + "/runs/" + runId + "/events").then().statusCode(200).extract().jsonPath();
            events.getList("findAll { it.type == 'ORDER_GAP' }.data.gap", String.class)
                    .forEach(g -> out.gaps().add(Duration.parse(g)));
            String snapshot = events.getString("find { it.type == 'SNAPSHOT' }.at");
            String assigned = events.getString("find { it.type == 'ASSIGNED' }.at");
            if (snapshot != null) {
                out.photographed().add(Instant.parse(snapshot));
            }
            if (assigned != null) {
                out.firstAssigned().add(Instant.parse(assigned));
            }
        }
        return out;
    }

    /** The {@code q}-quantile (0–1) of {@code all}, nearest rank. */
    static double quantile(List<Duration> all, double q) {
        double[] v = all.stream().mapToDouble(d -> d.toNanos() / 1e9).sorted().toArray();
        return v.length == 0 ? Double.NaN : v[Math.min(v.length - 1, Math.max(0, (int) Math.ceil(q * v.length) - 1))];
    }

    static double median(List<Duration> all) {
        double[] v = all.stream().mapToDouble(d -> d.toNanos() / 1e9).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static String seconds(List<Duration> all) {
        return all.isEmpty() ? "none" : String.join(", ", all.stream().map(ScaleBenchmark::seconds).toList());
    }
}
