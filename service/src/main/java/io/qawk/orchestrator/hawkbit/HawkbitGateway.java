package io.qawk.orchestrator.hawkbit;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The facade to hawkBit's Management API: the only class the rest of Qawk talks to hawkBit through. It asks domain
 * questions ("which of these devices run this set?") and answers in Qawk's types; the FIQL and hawkBit's field names
 * stay in here.
 * <p>
 * Layers: {@link HawkbitApi} (the Quarkus REST client) under {@link HawkbitClient} (timer per attempt, answers,
 * paging) under {@link HawkbitGuard} (retry, circuit breaker, attempt timeout through SmallRye Fault Tolerance);
 * version differences in {@link HawkbitVersions}; sets in {@link DistributionSets}; bulk assignment in
 * {@link Assignments}.
 * <p>
 * Errors: a transport error, timeout or 5xx is retried with backoff and jitter, behind a circuit breaker (a 429 is
 * waited out, see below); when
 * that gives up the caller gets {@link HawkbitUnavailableException}, as it does when hawkBit is not configured or
 * answers malformed JSON. A 404 on a target-scoped call is {@link TargetNotFoundException}; any other 4xx is
 * {@link HawkbitRequestException}. Nothing here is ever reported as a device failure.
 * <p>
 * Metrics: timer {@code qawk.hawkbit.requests} per HTTP attempt, tagged {@code operation} and {@code outcome}
 * (success, client_error, server_error, transport_error); counter {@code qawk.hawkbit.http.requests} per request
 * sent, tagged {@code kind} (read, write), {@code method}, {@code family} (the API path's) and {@code outcome}
 * (2xx, 3xx, 4xx, 429, 5xx, io-error); {@code qawk.hawkbit.waited} and {@code qawk.hawkbit.rate.limited} (seconds).
 * <p>
 * Budget: requests wait for their turn in a {@link RequestBudget} ({@code qawk.hawkbit.budget.*}); a 429 pauses its
 * kind for every caller for its {@code Retry-After} and the call is sent again, never counted as a failure.
 * <p>
 * One class: it is the package's whole public surface, so a caller injects one bean for one hawkBit.
 */
@ApplicationScoped
public class HawkbitGateway {

    static final String METRIC = HawkbitClient.METRIC;

    // target FIQL fields, the same on every hawkBit version
    private static final String CONTROLLER_ID = "controllerId";
    private static final String INSTALLED_NAME = "installedDS.name";
    private static final String INSTALLED_VERSION = "installedDS.version";
    private static final String ASSIGNED_NAME = "assignedDS.name";
    private static final String ASSIGNED_VERSION = "assignedDS.version";
    private static final String UPDATE_STATUS = "updateStatus";

    private final HawkbitClient client;
    private final DistributionSets sets;
    private final Assignments assignments;
    private final Reachability reachability;
    private final HawkbitWork work;
    private final String user;

    void warmUp(@Observes StartupEvent event) {
        client.warmUp();
    }

    @Inject
    public HawkbitGateway(HawkbitConfig config, MeterRegistry registry) {
        this.client = new HawkbitClient(config, registry);
        this.sets = new DistributionSets(client);
        this.assignments = new Assignments(client, config, sets::toAssign, this::knownAmong);
        this.reachability = new Reachability(client, config.hangAfter());
        this.work = new HawkbitWork(client);
        this.user = config.user().orElse(null);
    }

    /**
     * The Management API user Qawk sends as: hawkBit names it as the creator ({@code createdBy}) of every action Qawk
     * assigned. Null when not configured.
     */
    public String user() {
        return user;
    }

    /** Whether {@code qawk.hawkbit.url} is set. */
    public boolean isConfigured() {
        return client.isConfigured();
    }

    /** One GET of one target, without retries or breaker; false when not configured or not answering 2xx. */
    public boolean ping() {
        return client.ping();
    }

    /**
     * Whether hawkBit answers, for readiness: empty when it does, else why not in operators' words. Down also while
     * its calls hang unanswered longer than {@code qawk.hawkbit.hang-after}, not only once they fail; answers within
     * about that long ({@link Reachability}).
     */
    public Optional<String> unreachable() {
        return reachability.check().why();
    }

    /**
     * Whether hawkBit has left Qawk's requests unanswered for {@code qawk.hawkbit.hang-after} or longer. A request
     * merely under way (another pass's, answered within the second) is not silence.
     */
    public boolean hangs() {
        return reachability.hangs();
    }

    /**
     * How long hawkBit's 429s have paused Qawk's requests since this process started (each pause once, whoever
     * waited on it): time hawkBit was busy, which the engine does not count against an order's time.
     */
    public Duration rateLimited() {
        return client.rateLimited();
    }

    /**
     * Runs {@code work} with its requests to hawkBit after those of the work that moves devices (sends, cancels, the
     * observation of running orders), when a budget ({@code qawk.hawkbit.budget.*}) makes them wait: for the
     * inventory sync and the guard's reads.
     */
    public static <T> T later(Supplier<T> work) {
        return RequestBudget.later(work);
    }

    /** {@link #later(Supplier)} for work without a result. */
    public static void later(Runnable work) {
        RequestBudget.later(() -> {
            work.run();
            return null;
        });
    }

    /** Closes the REST client. */
    @PreDestroy
    public void close() {
        reachability.close();
        client.close();
    }

    // ---------------------------------------------------------------- targets by an operator's query

    /** All targets matching {@code fiql} (null/blank = all), sorted by controllerId, paged through to the end. */
    public List<HawkbitTarget> targets(String fiql) {
        Map<String, HawkbitTarget> byId = new LinkedHashMap<>();
        // offset paging can repeat a target when others are created meanwhile: keep the first
        forEachTargetPage(fiql, page -> page.forEach(t -> byId.putIfAbsent(t.controllerId(), t)));
        return List.copyOf(byId.values());
    }

    /** Hands each page of matching targets (sorted by controllerId) to {@code page}; pages are fetched lazily. */
    public void forEachTargetPage(String fiql, Consumer<List<HawkbitTarget>> page) {
        String q = blankToNull(fiql);
        client.pageThrough("targets", null, (api, offset, limit) -> api.targets(offset, limit, "controllerId:ASC", q),
                HawkbitShapes.Target.class, items -> page.accept(items.stream().map(HawkbitGateway::target).toList()));
    }

    // ---------------------------------------------------------------- domain questions about devices

    /** These targets as hawkBit lists them (ids it does not know are missing); one query, paged. */
    public List<HawkbitTarget> targetsById(Collection<String> controllerIds) {
        return controllerIds.isEmpty() ? List.of() : targets(Fiql.in(CONTROLLER_ID, List.copyOf(controllerIds)));
    }

    /** Which of these devices have {@code set} installed and nothing pending (update status in sync). */
    public Set<String> inSyncOn(DistributionSetRef set, Collection<String> controllerIds) {
        return idsOf(controllerIds, Fiql.eq(INSTALLED_NAME, set.name()), Fiql.eq(INSTALLED_VERSION, set.version()),
                Fiql.eq(UPDATE_STATUS, HawkbitTarget.IN_SYNC));
    }

    /** Which of these devices have {@code set} installed, whatever is pending on them. */
    public Set<String> installedOn(DistributionSetRef set, Collection<String> controllerIds) {
        return idsOf(controllerIds, Fiql.eq(INSTALLED_NAME, set.name()), Fiql.eq(INSTALLED_VERSION, set.version()));
    }

    /** Which of these devices have {@code set} assigned (as their newest assignment). */
    public Set<String> assignedTo(DistributionSetRef set, Collection<String> controllerIds) {
        return idsOf(controllerIds, Fiql.eq(ASSIGNED_NAME, set.name()), Fiql.eq(ASSIGNED_VERSION, set.version()));
    }

    /**
     * These devices that have {@code set} assigned (as their newest assignment), each with its update status: pending
     * while it installs, in sync once it installed the set (hawkBit is in sync only when installed and assigned agree).
     * One question per chunk, which tells the engine both who is done and who is still at it on its own set.
     */
    public Map<String, HawkbitTarget> assignedTargets(DistributionSetRef set, Collection<String> controllerIds) {
        if (controllerIds.isEmpty()) {
            return Map.of();
        }
        Map<String, HawkbitTarget> out = new HashMap<>();
        forEachTargetPage(Fiql.and(Fiql.in(CONTROLLER_ID, List.copyOf(controllerIds)),
                        Fiql.eq(ASSIGNED_NAME, set.name()), Fiql.eq(ASSIGNED_VERSION, set.version())),
                page -> page.forEach(t -> out.putIfAbsent(t.controllerId(), t)));
        return out;
    }

    /**
     * Which of these devices match {@code query} now, an operator's target query such as a verification or health
     * query ({@code attribute.app_version==2.0}): one question, {@code controllerId=in=(…);(query)}, paged; hawkBit
     * evaluates it exactly as it evaluates a component's match. Cut the ids with {@link #idChunks}, leaving room for
     * the query ({@link #encodedLength}).
     */
    public Set<String> matching(String query, Collection<String> controllerIds) {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("no query to match");
        }
        return idsOf(controllerIds, query);
    }

    /** How long {@code text} is once URL-encoded, as it goes into a request line. */
    public static int encodedLength(String text) {
        return HawkbitClient.encode(text).length();
    }

    /** Every device, in all of hawkBit, that has {@code set} assigned and its update still pending (paged). */
    public Set<String> pendingOn(DistributionSetRef set) {
        Set<String> pending = new HashSet<>();
        forEachTargetPage(Fiql.and(Fiql.eq(ASSIGNED_NAME, set.name()), Fiql.eq(ASSIGNED_VERSION, set.version()),
                Fiql.eq(UPDATE_STATUS, HawkbitTarget.PENDING)), page -> page.forEach(t -> pending.add(t.controllerId())));
        return pending;
    }

    /**
     * {@code items} cut into groups that fit one question by controller id ({@link #inSyncOn} and the like): at most
     * {@code maxCount} items and {@code maxEncodedChars} of encoded ids each (hawkBit refuses request lines over 8 KB).
     */
    public static <T> List<List<T>> idChunks(List<T> items, Function<T, String> id, int maxCount, int maxEncodedChars) {
        return Fiql.inChunks(items, id, maxCount, maxEncodedChars);
    }

    private Set<String> idsOf(Collection<String> controllerIds, String... conditions) {
        if (controllerIds.isEmpty()) {
            return Set.of();
        }
        String[] parts = new String[conditions.length + 1];
        parts[0] = Fiql.in(CONTROLLER_ID, List.copyOf(controllerIds));
        System.arraycopy(conditions, 0, parts, 1, conditions.length);
        Set<String> ids = new HashSet<>();
        forEachTargetPage(Fiql.and(parts), page -> page.forEach(t -> ids.add(t.controllerId())));
        return ids;
    }

    /** Which of {@code ids} hawkBit knows, lower case (hawkBit compares ids case-insensitively). */
    private Set<String> knownAmong(List<String> ids) {
        Set<String> known = new HashSet<>();
        forEachTargetPage(Fiql.in(CONTROLLER_ID, ids),
                page -> page.forEach(t -> known.add(t.controllerId().toLowerCase(Locale.ROOT))));
        return known;
    }

    // ---------------------------------------------------------------- one target

    /** The target's attributes (written by the device); empty when it has none (204). */
    public Map<String, String> attributes(String controllerId) {
        HawkbitClient.Reply reply = client.call("attributes", api -> api.attributes(segment(checked(controllerId))));
        client.failUnlessSuccess("attributes", reply, controllerId);
        if (!reply.hasBody()) {
            return Map.of();
        }
        JsonNode root = client.parse("attributes", reply);
        if (!root.isObject()) {
            throw HawkbitClient.malformed("attributes", "not an object");
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
        String id = segment(checked(controllerId));
        Map<String, String> metadata = new LinkedHashMap<>();
        client.pageThrough("metadata", controllerId, (api, offset, limit) -> api.metadata(id, offset, limit),
                HawkbitShapes.Metadata.class, page -> page.forEach(e -> {
                    if (e.key() == null) {
                        throw HawkbitClient.malformed("metadata", "entry without key");
                    }
                    metadata.put(e.key(), e.value() == null ? "" : text(e.value()));
                }));
        return Collections.unmodifiableMap(metadata);
    }

    /** The set installed on the target; empty when none (204). */
    public Optional<DistributionSetRef> installedSet(String controllerId) {
        String id = segment(checked(controllerId));
        return targetSet("installed_set", controllerId, client.call("installed_set", api -> api.installedSet(id)));
    }

    /** The set assigned to the target; empty when none (204). After a failed install hawkBit shows none here. */
    public Optional<DistributionSetRef> assignedSet(String controllerId) {
        String id = segment(checked(controllerId));
        return targetSet("assigned_set", controllerId, client.call("assigned_set", api -> api.assignedSet(id)));
    }

    private Optional<DistributionSetRef> targetSet(String operation, String controllerId, HawkbitClient.Reply reply) {
        return DistributionSets.read(client, operation, reply, controllerId);
    }

    // ---------------------------------------------------------------- distribution sets

    /** The set with this id; empty when hawkBit has none (404). */
    public Optional<DistributionSetRef> distributionSet(long id) {
        return sets.byId(id);
    }

    /**
     * {@link #distributionSet(long)}, remembered for a minute: the engine needs a set's name and version in every pass
     * and every pass is a round trip to a hawkBit that may be busy with thousands of polling devices. A deleted set is
     * noticed within that minute (an absent set is never remembered).
     */
    public Optional<DistributionSetRef> knownDistributionSet(long id) {
        return sets.known(id);
    }

    /** The set with exactly this name and version; empty when none. */
    public Optional<DistributionSetRef> distributionSet(String name, String version) {
        return sets.byNameAndVersion(name, version);
    }

    /** {@code name:version} (split at the first ':') or {@code name} alone (= its newest set). */
    public Optional<DistributionSetRef> resolveArtifactName(String artifact) {
        return sets.resolve(artifact);
    }

    /**
     * The first {@code limit} sets whose name contains {@code nameContains} (case-insensitive; null: every set), by
     * name and newest first within a name, with how many match in all.
     */
    public DistributionSetPage distributionSets(String nameContains, int limit) {
        return sets.search(nameContains, limit);
    }

    // ---------------------------------------------------------------- assignment

    /**
     * Assigns the set to the targets (duplicates removed), in calls of at most {@code assign-batch-size} targets,
     * with the configured assignment type. Checks first that the set exists and is complete (hawkBit answers 500
     * otherwise). hawkBit drops unknown targets silently, so the answers are checked: if assigned + alreadyAssigned
     * differs from the number sent, {@link AssignmentIncompleteException} says how many were dropped and which of
     * them hawkBit does not know; the others stay assigned. A batch hawkBit refuses is
     * {@link AssignmentRefusedException}, after the other batches were sent.
     */
    public AssignmentResult assign(long distributionSetId, Collection<String> controllerIds) {
        return assignments.assign(distributionSetId, controllerIds);
    }

    /** The controller id in an action link {@code …/targets/{controllerId}/actions/{id}}, when the link has that form. */
    static Optional<String> targetOfActionLink(String href) {
        return HawkbitVersions.targetOfActionLink(href);
    }

    // ---------------------------------------------------------------- actions

    /** The target's actions matching {@code fiql} (null/blank = all), newest first, paged through to the end. */
    public List<HawkbitAction> actions(String controllerId, String fiql) {
        String id = segment(checked(controllerId));
        String q = blankToNull(fiql);
        List<HawkbitAction> actions = new ArrayList<>();
        client.pageThrough("actions", controllerId, (api, offset, limit) -> api.actions(id, offset, limit, "id:DESC", q),
                HawkbitShapes.Action.class, page -> page.forEach(a -> actions.add(action(a))));
        return List.copyOf(actions);
    }

    /**
     * One action of the target, with its distribution set (which the listing leaves out). A 404 (target or action
     * unknown) is {@link TargetNotFoundException}.
     */
    public HawkbitAction action(String controllerId, long actionId) {
        String id = segment(checked(controllerId));
        HawkbitClient.Reply reply = client.call("actions", api -> api.action(id, actionId));
        if (reply.status() == 404) {
            throw new TargetNotFoundException(controllerId,
                    "hawkBit knows no target '" + controllerId + "' with action " + actionId);
        }
        return action(client.okValue("actions", reply, controllerId, HawkbitShapes.Action.class));
    }

    /**
     * Outcome of one action on any hawkBit version (see {@link HawkbitVersions#outcome}). A 404 (target or action
     * unknown) is {@link TargetNotFoundException}.
     */
    public ActionOutcome actionOutcome(String controllerId, long actionId) {
        String id = segment(checked(controllerId));
        HawkbitClient.Reply reply = client.call("actions", api -> api.action(id, actionId));
        if (reply.status() == 404) {
            throw new TargetNotFoundException(controllerId,
                    "hawkBit knows no target '" + controllerId + "' with action " + actionId);
        }
        HawkbitShapes.Action action = client.okValue("actions", reply, controllerId,
                HawkbitShapes.Action.class);
        return HawkbitVersions.outcome(action, () -> {
            List<HawkbitShapes.ActionStatus> history = new ArrayList<>();
            client.pageThrough("action_status", controllerId,
                    (api, offset, limit) -> api.actionStatus(id, actionId, offset, limit),
                    HawkbitShapes.ActionStatus.class, history::addAll);
            return HawkbitVersions.newestType(history);
        });
    }

    /** The target's open actions (not closed, not cancelled), newest first; on every version. */
    public List<HawkbitAction> openActions(String controllerId) {
        return actions(controllerId, null).stream()
                .filter(a -> a.active() != null ? a.active() : "pending".equalsIgnoreCase(a.status())).toList();
    }

    /** Cancels an open action of the target; false when hawkBit refuses (closed, or cancelling already). */
    public boolean cancelAction(String controllerId, long actionId) {
        return work.cancel(segment(checked(controllerId)), actionId);
    }

    // ---------------------------------------------------------------- what hawkBit does outside Qawk

    /** hawkBit's rollouts that are not finished (created, waiting for approval, scheduled, running, paused). */
    public List<HawkbitRollout> openRollouts() {
        return work.openRollouts();
    }

    /** hawkBit's target filters that have an auto-assigned set. */
    public List<HawkbitAutoAssignment> autoAssignments() {
        return work.autoAssignments();
    }

    /** Whether the tenant's rollout approval is on; empty when hawkBit does not say (its user may not read it). */
    public Optional<Boolean> rolloutApproval() {
        return work.rolloutApproval();
    }

    /**
     * Whether this hawkBit keeps auto-assignments as objects of their own beside target filters (newer than 1.1.0),
     * which the guard does not read; empty when it does not tell.
     */
    public Optional<Boolean> autoAssignmentObjects() {
        return work.autoAssignmentObjects();
    }

    /** The name of the rollout's deployment group that holds this target; empty when none does. */
    public Optional<String> rolloutGroupOf(long rolloutId, String controllerId) {
        return work.groupOf(rolloutId, checked(controllerId));
    }

    /** Pauses a running rollout; false when it is not running. */
    public boolean pauseRollout(long rolloutId) {
        return work.pause(rolloutId);
    }

    /** Resumes a paused rollout; false when it is not paused. */
    public boolean resumeRollout(long rolloutId) {
        return work.resume(rolloutId);
    }

    /** Refuses a rollout that waits for approval; false when it waits for none. */
    public boolean denyRollout(long rolloutId, String remark) {
        return work.deny(rolloutId, remark);
    }

    /** Takes a target filter's auto-assigned set off; false when the filter is gone. */
    public boolean switchOffAutoAssignment(long filterId) {
        return work.switchOff(filterId);
    }

    /** Gives a target filter its auto-assigned set again; false when the filter or the set is gone. */
    public boolean switchOnAutoAssignment(long filterId, long setId, String actionType) {
        return work.switchOn(filterId, setId, actionType);
    }

    // ---------------------------------------------------------------- shapes → Qawk's types

    private static HawkbitTarget target(HawkbitShapes.Target t) {
        if (t.controllerId() == null) {
            throw HawkbitClient.malformed("targets", "target without controllerId");
        }
        return new HawkbitTarget(t.controllerId(), t.name(), t.updateStatus(), instant(t.lastControllerRequestAt()),
                instant(t.installedAt()), instant(t.createdAt()));
    }

    private static HawkbitAction action(HawkbitShapes.Action a) {
        if (a.id() == null) {
            throw HawkbitClient.malformed("actions", "action without id");
        }
        return new HawkbitAction(a.id(), a.status(), a.active(), a.detailStatus(), instant(a.createdAt()),
                instant(a.lastModifiedAt()), HawkbitVersions.setIdOf(a), a.createdBy());
    }

    private static Instant instant(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }

    private static String text(JsonNode node) {
        return node.isValueNode() ? node.asText() : node.toString();
    }

    private static String blankToNull(String fiql) {
        return fiql == null || fiql.isBlank() ? null : fiql;
    }

    private static String checked(String controllerId) {
        if (controllerId == null || controllerId.isEmpty()) {
            throw new IllegalArgumentException("controllerId is empty");
        }
        return controllerId;
    }

    /**
     * Percent-encodes one path segment ('/' included; "." and ".." so they are not taken as path steps). An id of
     * letters, digits and {@code - _ . *} only, as most are, is its own encoding and is not copied: the first sync
     * encodes 300,000 of them.
     */
    static String segment(String value) {
        boolean plain = true;
        boolean dotsOnly = true;
        for (int i = 0; i < value.length() && plain; i++) {
            char c = value.charAt(i);
            plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == '*';
            dotsOnly &= c == '.';
        }
        if (plain && !dotsOnly) {
            return value;
        }
        String encoded = HawkbitClient.encode(value);
        return encoded.chars().allMatch(c -> c == '.') ? encoded.replace(".", "%2E") : encoded;
    }
}
