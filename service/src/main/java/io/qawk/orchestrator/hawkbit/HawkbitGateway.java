package io.qawk.orchestrator.hawkbit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The typed gateway to hawkBit's Management API ({@code /rest/v1}); the only class the rest of Qawk talks to hawkBit
 * through.
 * <p>
 * Errors: a transport error, timeout, 5xx or 429 is retried with backoff and jitter, and behind a circuit breaker
 * (see {@link Resilience}); when that gives up the caller gets {@link HawkbitUnavailableException}, as it does when
 * hawkBit is not configured or answers malformed JSON. A 404 on a target-scoped call is
 * {@link TargetNotFoundException}; any other 4xx is {@link HawkbitRequestException}. Nothing here is ever reported
 * as a device failure.
 * <p>
 * Metrics: timer {@code qawk.hawkbit.requests} per HTTP attempt, tagged {@code operation} and {@code outcome}
 * (success, client_error, server_error, transport_error).
 */
@ApplicationScoped
public class HawkbitGateway {

    private static final Logger LOG = Logger.getLogger(HawkbitGateway.class);

    /** hawkBit silently caps {@code limit} at this. */
    static final int HAWKBIT_MAX_PAGE = 500;
    /** Controller ids per existence query when finding dropped targets (keeps the URL short). */
    static final int EXISTENCE_CHUNK = 100;
    static final String METRIC = "qawk.hawkbit.requests";

    private final HawkbitConfig config;
    private final MeterRegistry registry;
    private final Resilience resilience;
    private final Supplier<HawkbitHttp> httpFactory;
    private final ObjectMapper json = new ObjectMapper();
    private volatile HawkbitHttp http;

    @Inject
    public HawkbitGateway(HawkbitConfig config, MeterRegistry registry) {
        this(config, registry, Resilience.of(config), () -> jdkHttp(config));
    }

    /** For tests: any transport and resilience settings, no CDI. {@code httpFactory} returning null = not configured. */
    HawkbitGateway(HawkbitConfig config, MeterRegistry registry, Resilience resilience,
            Supplier<HawkbitHttp> httpFactory) {
        this.config = config;
        this.registry = registry;
        this.resilience = resilience;
        this.httpFactory = httpFactory;
    }

    private static HawkbitHttp jdkHttp(HawkbitConfig config) {
        Optional<String> url = config.url().filter(u -> !u.isBlank());
        if (url.isEmpty()) {
            return null;
        }
        if (config.user().isEmpty() || config.password().isEmpty()) {
            throw new HawkbitUnavailableException(
                    "hawkBit is configured without credentials (set qawk.hawkbit.user and QAWK_HAWKBIT_PASSWORD)");
        }
        return new JdkHawkbitHttp(url.get(), config.user().get(), config.password().get(), config.connectTimeout(),
                config.readTimeout());
    }

    /** Whether {@code qawk.hawkbit.url} is set. */
    public boolean isConfigured() {
        return config.url().filter(url -> !url.isBlank()).isPresent();
    }

    // ---------------------------------------------------------------- targets

    /** All targets matching {@code fiql} (null/blank = all), sorted by controllerId, paged through to the end. */
    public List<HawkbitTarget> targets(String fiql) {
        Map<String, HawkbitTarget> byId = new LinkedHashMap<>();
        // offset paging can repeat a target when others are created meanwhile: keep the first
        forEachTargetPage(fiql, page -> page.forEach(t -> byId.putIfAbsent(t.controllerId(), t)));
        return List.copyOf(byId.values());
    }

    /** Hands each page of matching targets (sorted by controllerId) to {@code page}; pages are fetched lazily. */
    public void forEachTargetPage(String fiql, Consumer<List<HawkbitTarget>> page) {
        pageThrough("targets", "/targets", fiql, "controllerId:ASC", null, this::parseTarget, page);
    }

    /** Number of targets matching {@code fiql} (one call with limit=1). */
    public long countTargets(String fiql) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("offset", "0");
        query.put("limit", "1");
        putFilter(query, fiql);
        JsonNode root = okJson("targets", get("targets", "/targets", query), null);
        JsonNode total = root.get("total");
        if (total == null || !total.canConvertToLong()) {
            throw malformed("targets", "no total");
        }
        return total.asLong();
    }

    /** The target's attributes (written by the device); empty when it has none (204). */
    public Map<String, String> attributes(String controllerId) {
        HawkbitHttp.Reply reply = get("attributes", target(controllerId) + "/attributes", Map.of());
        failUnlessSuccess("attributes", reply, controllerId);
        if (!reply.hasBody()) {
            return Map.of();
        }
        JsonNode root = parse("attributes", reply);
        if (!root.isObject()) {
            throw malformed("attributes", "not an object");
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        root.fields().forEachRemaining(e -> {
            if (!e.getValue().isNull()) {
                attributes.put(e.getKey(), text(e.getValue()));
            }
        });
        return Collections.unmodifiableMap(attributes);
    }

    /** The target's metadata (written through the Management API) as key → value. */
    public Map<String, String> metadata(String controllerId) {
        Map<String, String> metadata = new LinkedHashMap<>();
        pageThrough("metadata", target(controllerId) + "/metadata", null, null, controllerId, node -> {
            JsonNode key = node.get("key");
            if (key == null || !key.isTextual()) {
                throw malformed("metadata", "entry without key");
            }
            return Map.entry(key.asText(), text(node.path("value")));
        }, page -> page.forEach(e -> metadata.put(e.getKey(), e.getValue())));
        return Collections.unmodifiableMap(metadata);
    }

    /** The set installed on the target; empty when none (204). */
    public Optional<DistributionSetRef> installedSet(String controllerId) {
        return targetSet("installed_set", controllerId, "/installedDS");
    }

    /** The set assigned to the target; empty when none (204). After a failed install hawkBit shows none here. */
    public Optional<DistributionSetRef> assignedSet(String controllerId) {
        return targetSet("assigned_set", controllerId, "/assignedDS");
    }

    private Optional<DistributionSetRef> targetSet(String operation, String controllerId, String suffix) {
        HawkbitHttp.Reply reply = get(operation, target(controllerId) + suffix, Map.of());
        failUnlessSuccess(operation, reply, controllerId);
        if (!reply.hasBody()) {
            return Optional.empty();
        }
        return Optional.of(parseSet(operation, parse(operation, reply)));
    }

    // ---------------------------------------------------------------- distribution sets

    /** The set with this id; empty when hawkBit has none (404). */
    public Optional<DistributionSetRef> distributionSet(long id) {
        HawkbitHttp.Reply reply = get("distribution_set", "/distributionsets/" + id, Map.of());
        if (reply.status() == 404) {
            return Optional.empty();
        }
        failUnlessSuccess("distribution_set", reply, null);
        if (!reply.hasBody()) {
            throw malformed("distribution_set", "empty answer");
        }
        return Optional.of(parseSet("distribution_set", parse("distribution_set", reply)));
    }

    private record Remembered(DistributionSetRef set, long until) {
    }

    private final java.util.concurrent.ConcurrentHashMap<Long, Remembered> knownSets =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * {@link #distributionSet(long)}, remembered for a minute: the engine needs a set's name and version in every pass
     * and every pass is a round trip to a hawkBit that may be busy with thousands of polling devices. A deleted set is
     * noticed within that minute (an absent set is never remembered).
     */
    public Optional<DistributionSetRef> knownDistributionSet(long id) {
        long now = System.nanoTime();
        Remembered r = knownSets.get(id);
        if (r != null && r.until() - now > 0) {
            return Optional.of(r.set());
        }
        Optional<DistributionSetRef> set = distributionSet(id);
        set.ifPresentOrElse(s -> knownSets.put(id, new Remembered(s, now + 60_000_000_000L)), () -> knownSets.remove(id));
        return set;
    }

    /** The set with exactly this name and version; empty when none. */
    public Optional<DistributionSetRef> distributionSet(String name, String version) {
        return findSets(Fiql.and(Fiql.eq("name", name), Fiql.eq("version", version)), null).stream()
                .filter(ds -> ds.name().equals(name) && ds.version().equals(version))
                .findFirst();
    }

    /** The newest set (highest id) with exactly this name; empty when none. */
    public Optional<DistributionSetRef> newestDistributionSet(String name) {
        return findSets(Fiql.eq("name", name), "id:DESC").stream()
                .filter(ds -> ds.name().equals(name))
                .findFirst();
    }

    /** {@code name:version} (split at the first ':') or {@code name} alone (= its newest set). */
    public Optional<DistributionSetRef> resolveArtifactName(String artifact) {
        if (artifact == null || artifact.isBlank()) {
            throw new IllegalArgumentException("artifact name is empty");
        }
        String trimmed = artifact.strip();
        int colon = trimmed.indexOf(':');
        if (colon < 0 || colon == trimmed.length() - 1) {
            return newestDistributionSet(colon < 0 ? trimmed : trimmed.substring(0, colon));
        }
        return distributionSet(trimmed.substring(0, colon), trimmed.substring(colon + 1));
    }

    private List<DistributionSetRef> findSets(String fiql, String sort) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("offset", "0");
        query.put("limit", String.valueOf(pageLimit()));
        if (sort != null) {
            query.put("sort", sort);
        }
        putFilter(query, fiql);
        JsonNode root = okJson("distribution_set", get("distribution_set", "/distributionsets", query), null);
        List<DistributionSetRef> sets = new ArrayList<>();
        for (JsonNode node : content("distribution_set", root)) {
            sets.add(parseSet("distribution_set", node));
        }
        return sets;
    }

    // ---------------------------------------------------------------- assignment

    /**
     * Assigns the set to the targets (duplicates removed), in calls of at most {@code assign-batch-size} targets,
     * with the configured assignment type. Checks first that the set exists and is complete (hawkBit answers 500
     * otherwise). hawkBit drops unknown targets silently, so the answers are checked: if assigned + alreadyAssigned
     * differs from the number sent, {@link AssignmentIncompleteException} says how many were dropped and which of
     * them hawkBit does not know; the others stay assigned.
     */
    public AssignmentResult assign(long distributionSetId, Collection<String> controllerIds) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String id : controllerIds) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("blank controllerId in assignment");
            }
            distinct.add(id);
        }
        if (distinct.isEmpty()) {
            return AssignmentResult.empty();
        }
        List<String> ids = List.copyOf(distinct);
        DistributionSetRef set = distributionSet(distributionSetId).orElseThrow(() -> new AssignmentRefusedException(
                "set " + distributionSetId, AssignmentResult.empty(),
                List.of(new AssignmentRefusedException.Refusal(ids, 404, "404 distribution set not found"))));
        if (!set.complete()) {
            throw new AssignmentRefusedException(set.label(), AssignmentResult.empty(),
                    List.of(new AssignmentRefusedException.Refusal(ids, 409, "409 distribution set is incomplete")));
        }
        int batchSize = Math.max(1, config.assignBatchSize());
        AssignmentResult sum = AssignmentResult.empty();
        List<AssignmentRefusedException.Refusal> refusals = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += batchSize) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + batchSize));
            try {
                sum = sum.plus(assignBatch(set, batch));
            } catch (HawkbitRequestException e) {
                if (e.answer() != HawkbitAnswer.REFUSED) {
                    throw e;
                }
                refusals.add(new AssignmentRefusedException.Refusal(batch, e.status(), e.statusAndReason()));
            }
        }
        if (!refusals.isEmpty()) {
            throw new AssignmentRefusedException(set.label(), sum, refusals);
        }
        if (sum.accountedFor() != ids.size()) {
            List<String> unknown = unknownTargetsAmong(ids);
            int dropped = ids.size() - sum.accountedFor();
            throw new AssignmentIncompleteException("hawkBit accounted for " + sum.accountedFor() + " of "
                    + ids.size() + " targets assigned to " + set.label() + ": " + dropped + " dropped"
                    + (unknown.isEmpty() ? "" : "; unknown to hawkBit: " + preview(unknown)),
                    sum, ids.size(), unknown);
        }
        return sum;
    }

    private AssignmentResult assignBatch(DistributionSetRef set, List<String> ids) {
        ArrayNode body = json.createArrayNode();
        String type = config.assignmentType().wireName();
        ids.forEach(id -> body.addObject().put("id", id).put("type", type));
        String operation = "assign";
        HawkbitHttp.Reply reply = post(operation, "/distributionsets/" + set.id() + "/assignedTargets",
                body.toString());
        JsonNode root = okJson(operation, reply, null);
        if (!root.isObject() || !root.path("assigned").canConvertToInt()
                || !root.path("alreadyAssigned").canConvertToInt()) {
            throw malformed(operation, "no assigned/alreadyAssigned counts");
        }
        List<Long> actionIds = new ArrayList<>();
        Map<String, Long> byTarget = new java.util.HashMap<>();
        for (JsonNode action : root.path("assignedActions")) {
            if (action.path("id").canConvertToLong()) {
                long actionId = action.path("id").asLong();
                actionIds.add(actionId);
                targetOfActionLink(action.path("_links").path("self").path("href").asText(""))
                        .ifPresent(target -> byTarget.put(target, actionId));
            }
        }
        return new AssignmentResult(root.get("assigned").asInt(), root.get("alreadyAssigned").asInt(),
                root.path("total").asInt(root.get("assigned").asInt() + root.get("alreadyAssigned").asInt()),
                actionIds, byTarget);
    }

    /** The controller id in an action link {@code …/targets/{controllerId}/actions/{id}}, when the link has that form. */
    static Optional<String> targetOfActionLink(String href) {
        int t = href.lastIndexOf("/targets/");
        int a = href.lastIndexOf("/actions/");
        if (t < 0 || a <= t) {
            return Optional.empty();
        }
        String encoded = href.substring(t + "/targets/".length(), a);
        return Optional.of(java.net.URLDecoder.decode(encoded, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Which of {@code ids} hawkBit does not know; empty if that cannot be found out now. */
    private List<String> unknownTargetsAmong(List<String> ids) {
        try {
            Set<String> existing = new HashSet<>();
            for (int from = 0; from < ids.size(); from += EXISTENCE_CHUNK) {
                List<String> chunk = ids.subList(from, Math.min(ids.size(), from + EXISTENCE_CHUNK));
                forEachTargetPage(Fiql.in("controllerId", chunk),
                        page -> page.forEach(t -> existing.add(t.controllerId().toLowerCase(Locale.ROOT))));
            }
            return ids.stream().filter(id -> !existing.contains(id.toLowerCase(Locale.ROOT))).toList();
        } catch (HawkbitException e) {
            LOG.warnf("could not find out which assigned targets hawkBit dropped: %s", e.getMessage());
            return List.of();
        }
    }

    // ---------------------------------------------------------------- actions

    /** The target's actions matching {@code fiql} (null/blank = all), newest first, paged through to the end. */
    public List<HawkbitAction> actions(String controllerId, String fiql) {
        List<HawkbitAction> actions = new ArrayList<>();
        pageThrough("actions", target(controllerId) + "/actions", fiql, "id:DESC", controllerId, this::parseAction,
                actions::addAll);
        return List.copyOf(actions);
    }

    /**
     * Outcome of one action on any hawkBit version. From 0.10 the action has {@code active} and a real
     * {@code status}. Before, {@code status} is only pending|finished: then {@code detailStatus} (0.3.0M8+) or else
     * the newest entry of the status history ({@code …/actions/{id}/status}) tells finished, error or canceled.
     * A 404 (target or action unknown) is {@link TargetNotFoundException}.
     */
    public ActionOutcome actionOutcome(String controllerId, long actionId) {
        String path = target(controllerId) + "/actions/" + actionId;
        HawkbitHttp.Reply reply = get("actions", path, Map.of());
        if (reply.status() == 404) {
            throw new TargetNotFoundException(controllerId,
                    "hawkBit knows no target '" + controllerId + "' with action " + actionId);
        }
        JsonNode action = okJson("actions", reply, controllerId);
        JsonNode status = action.get("status");
        if (status == null || !status.isTextual()) {
            throw malformed("actions", "action without status");
        }
        String statusText = status.asText().toLowerCase(Locale.ROOT);
        JsonNode active = action.get("active");
        if (active != null && active.isBoolean()) { // 0.10+
            return active.asBoolean() ? ActionOutcome.RUNNING : closedOutcome(statusText);
        }
        if (!"finished".equals(statusText)) { // <= 0.9: pending = still open
            return ActionOutcome.RUNNING;
        }
        JsonNode detail = action.get("detailStatus");
        if (detail != null && detail.isTextual()) { // 0.3.0M8 .. 0.9
            return closedOutcome(detail.asText().toLowerCase(Locale.ROOT));
        }
        return closedOutcome(newestStatusType(controllerId, path)); // 0.3.0M7
    }

    private String newestStatusType(String controllerId, String actionPath) {
        JsonNode[] newest = new JsonNode[1];
        pageThrough("action_status", actionPath + "/status", null, null, controllerId, node -> node, page -> {
            for (JsonNode entry : page) {
                if (newest[0] == null || isNewer(entry, newest[0])) {
                    newest[0] = entry;
                }
            }
        });
        if (newest[0] == null || !newest[0].path("type").isTextual()) {
            throw malformed("action_status", "closed action without status history");
        }
        return newest[0].get("type").asText().toLowerCase(Locale.ROOT);
    }

    private static boolean isNewer(JsonNode a, JsonNode b) {
        long at = a.path("reportedAt").asLong(0);
        long bt = b.path("reportedAt").asLong(0);
        return at != bt ? at > bt : a.path("id").asLong(0) > b.path("id").asLong(0);
    }

    private static ActionOutcome closedOutcome(String status) {
        switch (status) {
            case "finished":
            case "downloaded":
                return ActionOutcome.SUCCEEDED;
            case "canceled":
                return ActionOutcome.CANCELED;
            case "error":
                return ActionOutcome.FAILED;
            default:
                // closed without a recognisable result: never report it as success
                LOG.debugf("closed hawkBit action with unexpected status %s counted as failed", status);
                return ActionOutcome.FAILED;
        }
    }

    // ---------------------------------------------------------------- readiness

    /** One GET of one target, without retries or breaker; false when not configured or not answering 2xx. */
    public boolean ping() {
        try {
            if (!isConfigured()) {
                return false;
            }
            HawkbitHttp transport = http();
            Map<String, String> query = new LinkedHashMap<>();
            query.put("offset", "0");
            query.put("limit", "1");
            long start = System.nanoTime();
            HawkbitHttp.Reply reply;
            try {
                reply = transport.get("/targets", query);
            } catch (HawkbitHttp.TransportFailure e) {
                record("ping", "transport_error", start);
                LOG.debugf("hawkBit ping failed: %s", e.getMessage());
                return false;
            }
            record("ping", outcomeOf(reply.status()), start);
            return reply.isSuccess();
        } catch (RuntimeException e) {
            LOG.debugf("hawkBit ping failed: %s", e.getMessage());
            return false;
        }
    }

    // ---------------------------------------------------------------- HTTP, retries, metrics

    private HawkbitHttp.Reply get(String operation, String path, Map<String, String> query) {
        HawkbitHttp transport = http();
        return resilience.call(operation, () -> attempt(operation, () -> transport.get(path, query)));
    }

    private HawkbitHttp.Reply post(String operation, String path, String body) {
        HawkbitHttp transport = http();
        return resilience.call(operation, () -> attempt(operation, () -> transport.post(path, body)));
    }

    /** One HTTP exchange, timed; 5xx, 429 and transport failures become {@link Resilience.Transient}. */
    private HawkbitHttp.Reply attempt(String operation, Supplier<HawkbitHttp.Reply> exchange) {
        long start = System.nanoTime();
        HawkbitHttp.Reply reply;
        try {
            reply = exchange.get();
        } catch (HawkbitHttp.TransportFailure e) {
            record(operation, "transport_error", start);
            throw new Resilience.Transient(e.getMessage(), e);
        }
        record(operation, outcomeOf(reply.status()), start);
        if (HawkbitAnswer.of(reply.status(), errorCode(reply)).retry()) {
            throw new Resilience.Transient(operation + ": HTTP " + reply.status() + hawkbitMessage(reply), null);
        }
        return reply;
    }

    private HawkbitHttp http() {
        HawkbitHttp current = http;
        if (current == null) {
            synchronized (this) {
                if (http == null) {
                    try {
                        http = httpFactory.get();
                    } catch (IllegalArgumentException e) {
                        throw new HawkbitUnavailableException("qawk.hawkbit.url is not a usable URL", e);
                    }
                }
                current = http;
            }
        }
        if (current == null) {
            throw new HawkbitUnavailableException("hawkBit is not configured (set qawk.hawkbit.url)");
        }
        return current;
    }

    private void record(String operation, String outcome, long startNanos) {
        Timer.builder(METRIC)
                .description("HTTP requests to hawkBit's Management API")
                .tag("operation", operation)
                .tag("outcome", outcome)
                .register(registry)
                .record(Duration.ofNanos(System.nanoTime() - startNanos));
    }

    private static String outcomeOf(int status) {
        if (status >= 500) {
            return "server_error";
        }
        return status >= 400 ? "client_error" : "success";
    }

    // ---------------------------------------------------------------- answers

    private <T> void pageThrough(String operation, String path, String fiql, String sort, String controllerId,
            Function<JsonNode, T> mapper, Consumer<List<T>> consumer) {
        int limit = pageLimit();
        long offset = 0;
        while (true) {
            Map<String, String> query = new LinkedHashMap<>();
            query.put("offset", String.valueOf(offset));
            query.put("limit", String.valueOf(limit));
            if (sort != null) {
                query.put("sort", sort);
            }
            putFilter(query, fiql);
            HawkbitHttp.Reply reply = get(operation, path, query);
            if (reply.status() == 204) {
                return;
            }
            JsonNode root = okJson(operation, reply, controllerId);
            List<T> items = new ArrayList<>();
            for (JsonNode node : content(operation, root)) {
                items.add(mapper.apply(node));
            }
            if (!items.isEmpty()) {
                consumer.accept(Collections.unmodifiableList(items));
            }
            offset += items.size();
            JsonNode total = root.get("total");
            boolean done = items.isEmpty() || root.isArray()
                    || (total != null && total.canConvertToLong() ? offset >= total.asLong() : items.size() < limit);
            if (done) {
                return;
            }
        }
    }

    /** A list answer's items: {@code content} of a paged answer, or the answer itself when it is an array. */
    private JsonNode content(String operation, JsonNode root) {
        if (root.isArray()) {
            return root;
        }
        JsonNode content = root.get("content");
        if (content == null || content.isNull()) {
            return json.createArrayNode();
        }
        if (!content.isArray()) {
            throw malformed(operation, "content is not a list");
        }
        return content;
    }

    private JsonNode okJson(String operation, HawkbitHttp.Reply reply, String controllerId) {
        failUnlessSuccess(operation, reply, controllerId);
        if (!reply.hasBody()) {
            throw malformed(operation, "empty answer");
        }
        return parse(operation, reply);
    }

    private void failUnlessSuccess(String operation, HawkbitHttp.Reply reply, String controllerId) {
        if (reply.isSuccess()) {
            return;
        }
        if (reply.status() == 404 && controllerId != null) {
            throw new TargetNotFoundException(controllerId, "hawkBit knows no target '" + controllerId + "'");
        }
        String message = hawkbitMessage(reply);
        throw new HawkbitRequestException(reply.status(), errorCode(reply),
                message.isEmpty() ? null : message.substring(2, message.length() - 1),
                "hawkBit refused " + operation + ": HTTP " + reply.status() + message);
    }

    private JsonNode parse(String operation, HawkbitHttp.Reply reply) {
        try {
            JsonNode node = json.readTree(reply.body());
            if (node == null || node.isMissingNode()) {
                throw malformed(operation, "empty answer");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new HawkbitUnavailableException("hawkBit answered malformed JSON to " + operation, e);
        }
    }

    private static HawkbitUnavailableException malformed(String operation, String what) {
        return new HawkbitUnavailableException("hawkBit answered malformed " + operation + " (" + what + ")");
    }

    /** hawkBit's {@code errorCode} of an error answer, or null when it sent none (or no JSON). */
    private String errorCode(HawkbitHttp.Reply reply) {
        if (reply.isSuccess() || !reply.hasBody()) {
            return null;
        }
        try {
            JsonNode node = json.readTree(reply.body());
            return node != null && node.path("errorCode").isTextual() ? node.get("errorCode").asText() : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** hawkBit's own error message, shortened, with anything that could be a credential removed. */
    private String hawkbitMessage(HawkbitHttp.Reply reply) {
        if (!reply.hasBody()) {
            return "";
        }
        String message;
        try {
            JsonNode node = json.readTree(reply.body());
            message = node != null && node.path("message").isTextual() ? node.get("message").asText() : null;
        } catch (JsonProcessingException e) {
            message = null; // HTML error pages of proxies and the like are not worth quoting
        }
        if (message == null || message.isBlank()) {
            return "";
        }
        return " (" + redact(message.length() > 300 ? message.substring(0, 300) + "…" : message) + ")";
    }

    private String redact(String text) {
        String out = text.replaceAll("(?i)(basic|bearer|targettoken|gatewaytoken)\\s+\\S+", "$1 ****");
        String password = config.password().orElse(null);
        if (password != null && password.length() >= 3) {
            out = out.replace(password, "****");
            String encoded = java.util.Base64.getEncoder().encodeToString(
                    (config.user().orElse("") + ":" + password).getBytes(StandardCharsets.UTF_8));
            out = out.replace(encoded, "****");
        }
        return out;
    }

    private HawkbitTarget parseTarget(JsonNode node) {
        JsonNode id = node.get("controllerId");
        if (id == null || !id.isTextual()) {
            throw malformed("targets", "target without controllerId");
        }
        return new HawkbitTarget(id.asText(), textOrNull(node.get("name")), textOrNull(node.get("updateStatus")),
                instant(node.get("lastControllerRequestAt")), instant(node.get("installedAt")),
                instant(node.get("createdAt")));
    }

    private DistributionSetRef parseSet(String operation, JsonNode node) {
        if (!node.path("id").canConvertToLong() || !node.path("name").isTextual()
                || !node.path("version").isTextual()) {
            throw malformed(operation, "distribution set without id, name or version");
        }
        // every hawkBit version sends "complete"; if one did not, hawkBit itself still refuses incomplete sets
        return new DistributionSetRef(node.get("id").asLong(), node.get("name").asText(),
                node.get("version").asText(), node.path("complete").asBoolean(true));
    }

    private HawkbitAction parseAction(JsonNode node) {
        if (!node.path("id").canConvertToLong()) {
            throw malformed("actions", "action without id");
        }
        JsonNode active = node.get("active");
        return new HawkbitAction(node.get("id").asLong(), textOrNull(node.get("status")),
                active != null && active.isBoolean() ? active.asBoolean() : null,
                textOrNull(node.get("detailStatus")), instant(node.get("createdAt")),
                instant(node.get("lastModifiedAt")), lastSegmentId(node.path("_links").path("distributionset")));
    }

    private static Long lastSegmentId(JsonNode link) {
        String href = link.path("href").asText("");
        int slash = href.lastIndexOf('/');
        if (slash < 0 || slash == href.length() - 1) {
            return null;
        }
        String last = href.substring(slash + 1);
        int end = 0;
        while (end < last.length() && Character.isDigit(last.charAt(end))) {
            end++;
        }
        try {
            return end == 0 ? null : Long.valueOf(last.substring(0, end));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Instant instant(JsonNode node) {
        return node != null && node.canConvertToLong() && !node.isNull() ? Instant.ofEpochMilli(node.asLong()) : null;
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : text(node);
    }

    private static String text(JsonNode node) {
        return node.isValueNode() ? node.asText() : node.toString();
    }

    private int pageLimit() {
        return Math.max(1, Math.min(config.pageSize(), HAWKBIT_MAX_PAGE));
    }

    private static void putFilter(Map<String, String> query, String fiql) {
        if (fiql != null && !fiql.isBlank()) {
            query.put("q", fiql);
        }
    }

    /** {@code /targets/<encoded id>}; the id is one path segment whatever characters it holds. */
    private static String target(String controllerId) {
        if (controllerId == null || controllerId.isEmpty()) {
            throw new IllegalArgumentException("controllerId is empty");
        }
        return "/targets/" + segment(controllerId);
    }

    /** Percent-encodes one path segment ('/' included; "." and ".." so they are not taken as path steps). */
    static String segment(String value) {
        String encoded = JdkHawkbitHttp.encode(value);
        return encoded.chars().allMatch(c -> c == '.') ? encoded.replace(".", "%2E") : encoded;
    }

    private static String preview(List<String> ids) {
        return ids.size() <= 20 ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, 20)) + " … (" + ids.size() + " in all)";
    }
}
