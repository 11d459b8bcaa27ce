package io.qawk.orchestrator.testkit.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.qawk.orchestrator.testkit.scale.Entities.Action;
import io.qawk.orchestrator.testkit.scale.Entities.DSet;

/**
 * An in-memory double of hawkBit's Management API ({@code /rest/v1}) for benchmarks: 100,000 targets and more, on
 * 127.0.0.1 and a free port, answering the endpoints the service's hawkBit gateway uses with
 * hawkBit's rules and shapes (checked against a real 0.3.0M7):
 * <ul>
 * <li>paging {@code offset}/{@code limit} (default 50, silently capped at 500), {@code sort} ({@code field:ASC|DESC},
 * comma separated), {@code q} (FIQL, read by {@link Rsql}, evaluated by {@link RsqlEvaluator}); lists answer {@code {"content":[…],"total":N,"size":n}};
 * an unknown FIQL field or sort field answers 400;</li>
 * <li>{@code /targets}, {@code /targets/{id}}, {@code …/attributes} (204 when none), {@code …/metadata} (paged),
 * {@code …/installedDS} and {@code …/assignedDS} (204 when none), {@code …/actions} (paged, list items carry only a
 * {@code self} link as on 0.3.0M7), {@code …/actions/{aid}} (with {@code distributionset} link),
 * {@code …/actions/{aid}/status} (paged history); 404 for an unknown target or action;</li>
 * <li>{@code /distributionsets} (search) and {@code /distributionsets/{id}};</li>
 * <li>{@code POST /distributionsets/{id}/assignedTargets}: unknown targets silently dropped, "already assigned"
 * compares the assigned set, an open action is cancelled by a new assignment, more than 5,000 targets → 403 (quota),
 * unknown set → 404, incomplete set → 500; answer {@code assigned/alreadyAssigned/total/assignedActions} with
 * {@code _links.self.href} {@code …/targets/{cid}/actions/{aid}};</li>
 * <li>{@code DELETE /targets/{id}/actions/{aid}}: an open action cancelled at once (as if the device confirmed), 204;
 * a closed one 400;</li>
 * <li>{@code /rollouts} (paged; one; its single deployment group and the group's targets; {@code POST …/pause},
 * {@code resume}, {@code approve}, {@code deny}: 200, or 400 in another status) and {@code /targetfilters} (paged; one;
 * {@code DELETE …/autoAssignDS} 204, {@code POST …/autoAssignDS} 200): what the guard of issue 40 reads and stops;
 * a benchmark adds them with {@link #addRollout} and {@link #addTargetFilter}.</li>
 * </ul>
 * Action shape: {@link Shape#V0_3} ({@code status} pending|finished only, the result in the status history) or
 * {@link Shape#V0_10} ({@code status} running|finished|error|canceled and {@code active}).
 * <p>
 * Devices finish (or fail, or never answer) per {@link DeviceRule} after a delay; completions sit in a priority queue
 * and are applied lazily before each request (and by {@link #settle()}), so no thread per device is needed. On
 * success: installedDS := the set, updateStatus {@code in_sync}, history {@code finished}; on failure: updateStatus
 * {@code error}, assignedDS cleared (204, as on 0.3.0M7), history {@code error}; installedDS unchanged.
 * <p>
 * Every request is counted by {@link Op}: {@link #snapshot()}, {@link #reset()}.
 * Thread-safe; one read/write lock around the state.
 * <p>
 * This class is the public face; the work is split by concern: {@link HttpFront} (server, routing),
 * {@link Faults} (latency, 503, header limit), {@link RequestCounter}, {@link TargetStore} (state, fleet changes),
 * {@link TargetSearch} (FIQL on targets, order, indexes), {@link RsqlEvaluator} (hawkBit's semantics of a query
 * tree), {@link TargetEndpoints}, {@link DistributionSetEndpoints}, {@link ActionEndpoints}, {@link Assignments}
 * (assignment and the devices' side) and {@link JsonViews} (hawkBit's JSON shapes, via Jackson). It uses no class of
 * the service but the shared query grammar ({@code io.qawk.orchestrator.query}). Its vocabulary ({@code Op},
 * {@code Shape}, {@code DeviceRule}, {@code Counts} …) is declared in {@link ScaleHawkbitTypes} and reached as
 * {@code ScaleHawkbit.Op} and so on.
 */
public final class ScaleHawkbit implements ScaleHawkbitTypes, AutoCloseable {

    /** hawkBit's maximum page size. */
    public static final int MAX_PAGE = 500;
    /** hawkBit's default quota of targets per manual assignment. */
    public static final int MAX_ASSIGN = 5000;
    /** Prefixes of the threads that serve requests (to leave them out of the service's CPU time). */
    public static final List<String> THREAD_PREFIXES = List.of("scale-hawkbit", "HTTP-Dispatcher");

    private final Settings settings = new Settings();
    private final Faults faults = new Faults();
    private final RequestCounter counter = new RequestCounter();
    private final TargetStore store = new TargetStore(settings::now);
    private final HttpFront front;
    private final Assignments assignments;

    private ScaleHawkbit(int threads) throws IOException {
        front = new HttpFront(threads, store, faults, counter);
        ObjectMapper json = new ObjectMapper();
        TargetSearch search = new TargetSearch(store, settings);
        JsonViews views = new JsonViews(json, front.baseUrl(), settings, search);
        assignments = new Assignments(store, settings, views, json);
        front.start(new HttpFront.Endpoints(new TargetEndpoints(store, search, views),
                new ActionEndpoints(store, views), new DistributionSetEndpoints(store, views), assignments,
                new RolloutEndpoints(store, search, views, json)), views);
    }

    /** Starts an empty double with 8 request threads. */
    public static ScaleHawkbit start() {
        return start(8);
    }

    public static ScaleHawkbit start(int threads) {
        try {
            return new ScaleHawkbit(threads);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the hawkBit double", e);
        }
    }

    /** {@code http://127.0.0.1:<port>} (what {@code qawk.hawkbit.url} takes). */
    public String baseUrl() {
        return front.baseUrl();
    }

    @Override
    public void close() {
        front.close();
    }

    // --------------------------------------------------------------------------------------------- settings

    public ScaleHawkbit shape(Shape value) {
        settings.shape = value;
        return this;
    }

    public ScaleHawkbit deviceRule(DeviceRule value) {
        settings.rule = value;
        return this;
    }

    /** Time source in epoch millis (default: the system clock); tests may move it by hand. */
    public ScaleHawkbit clock(LongSupplier value) {
        settings.clock = value;
        return this;
    }

    /** Extra time each answer takes (default none), to imitate a real hawkBit's per-request cost. */
    public ScaleHawkbit latency(Duration value) {
        faults.latency(value);
        return this;
    }

    /**
     * Devices poll every {@code interval} (each at its own phase), which moves {@code lastControllerRequestAt} as on
     * a real hawkBit; null (default): only device activity (attributes, install feedback) moves it.
     */
    public ScaleHawkbit pollInterval(Duration interval) {
        settings.pollInterval = interval;
        return this;
    }

    /**
     * Largest request line + headers accepted (default 8192 bytes, Spring Boot/Tomcat's {@code max-http-header-size}
     * under hawkBit): a longer URL (a long FIQL query) answers 400 as on a real hawkBit.
     */
    public ScaleHawkbit maxHeaderBytes(int value) {
        faults.maxHeaderBytes(value);
        return this;
    }

    /** When true every request answers 503 (hawkBit down); used to cut a step short at its deadline. */
    public ScaleHawkbit unavailable(boolean value) {
        faults.unavailable(value);
        return this;
    }

    // --------------------------------------------------------------------------------------------- counting

    public Counts snapshot() {
        return counter.snapshot();
    }

    public void reset() {
        counter.reset();
    }

    /** Total time spent answering requests since the last {@link #reset()} (all threads summed). */
    public Duration handlingTime() {
        return counter.handlingTime();
    }

    // --------------------------------------------------------------------------------------------- fleet

    /** Adds a complete distribution set; returns its id. */
    public long addDistributionSet(String name, String version) {
        return addDistributionSet(name, version, true);
    }

    public long addDistributionSet(String name, String version, boolean complete) {
        return store.addDistributionSet(name, version, complete);
    }

    /** Deletes a set, as an operator in hawkBit would: assigning it answers 404 from now on. */
    public void deleteDistributionSet(long setId) {
        store.deleteDistributionSet(setId);
    }

    /**
     * The device reports now on its open action, installed ({@link Outcome#SUCCESS}) or failed
     * ({@link Outcome#FAILURE}), whatever its {@link DeviceRule} said: a silent device ({@link Outcome#NEVER}) speaks.
     */
    public void report(String controllerId, Outcome outcome) {
        assignments.report(controllerId, outcome);
    }

    /** Adds a target with the attributes its device reported (it polled once, now). */
    public void addTarget(String controllerId, Map<String, String> attributes) {
        store.addTarget(controllerId, attributes);
    }

    /** Removes a target (its actions stay unreachable). */
    public void removeTarget(String controllerId) {
        store.removeTarget(controllerId);
    }

    /**
     * Creates {@code systems} systems of {@code devicesPerSystem} devices each: device {@code j} of system {@code i}
     * is {@code sys-<i>-<type>-<j>} with attributes {@code device=sys-<i>}, {@code device_type=<typePrefix><type>}
     * ({@code type = componentTypes[j % size]}) and {@code centerid=c<i % centres>}.
     */
    public Population populate(int systems, int devicesPerSystem, List<String> componentTypes, int centres,
            String typePrefix) {
        return store.populate(systems, devicesPerSystem, componentTypes, centres, typePrefix);
    }

    /** Marks {@code setId} installed (and assigned, in sync) on the targets, as if a past update had run. */
    public void preinstall(long setId, Iterable<String> controllerIds) {
        store.preinstall(setId, controllerIds);
    }

    /** The device reports a changed attribute (configData): it polled now. */
    public void setAttribute(String controllerId, String key, String value) {
        store.setAttribute(controllerId, key, value);
    }

    /** Metadata written through the Management API (moves lastModifiedAt). */
    public void setMetadata(String controllerId, String key, String value) {
        store.setMetadata(controllerId, key, value);
    }

    public void setTags(String controllerId, Set<String> tags) {
        store.setTags(controllerId, tags);
    }

    public int targetCount() {
        return store.read(store.targets::size);
    }

    public Map<String, String> attributes(String controllerId) {
        return store.read(() -> store.requireTarget(controllerId).attributes);
    }

    public String updateStatus(String controllerId) {
        settle();
        return store.read(() -> store.requireTarget(controllerId).updateStatus);
    }

    public Optional<SetInfo> installed(String controllerId) {
        settle();
        return store.read(() -> Optional.ofNullable(store.requireTarget(controllerId).installed).map(DSet::info));
    }

    public Optional<SetInfo> assigned(String controllerId) {
        settle();
        return store.read(() -> Optional.ofNullable(store.requireTarget(controllerId).assigned).map(DSet::info));
    }

    /** The target's actions, oldest first. */
    public List<ActionView> actions(String controllerId) {
        settle();
        return store.read(() -> store.requireTarget(controllerId).actions.stream().map(Action::view).toList());
    }

    /** Id of the newest action (0 when none): actions are numbered 1, 2, 3, … in creation order. */
    public long lastActionId() {
        return store.actionIds.get();
    }

    /** Actions with an id above {@code actionId}, oldest first. */
    public List<ActionView> actionsAfter(long actionId) {
        settle();
        return store.read(() -> {
            List<ActionView> out = new ArrayList<>();
            for (long id = actionId + 1; id <= store.actionIds.get(); id++) {
                Action a = store.actions.get(id);
                if (a != null) {
                    out.add(a.view());
                }
            }
            return out;
        });
    }

    /** Number of targets with an open action. */
    public int openActions() {
        settle();
        return store.read(() -> (int) store.actions.values().stream().filter(a -> a.active).count());
    }

    // --------------------------------------------------------------------------------------------- rollouts, filters

    /**
     * Adds a rollout over the targets {@code query} matches, assigning {@code setId}, in {@code status} (hawkBit's
     * lower-case word: creating, ready, waiting_for_approval, scheduled, starting, running, paused, finished, …);
     * returns its id (1, 2, 3, … in creation order).
     */
    public long addRollout(String name, String query, long setId, String status) {
        return store.addRollout(name, query, setId, status);
    }

    /** Adds a target filter, auto-assigning {@code autoAssignSetId} (null: none) with {@code actionType}; its id. */
    public long addTargetFilter(String name, String query, Long autoAssignSetId, String actionType) {
        return store.addTargetFilter(name, query, autoAssignSetId, actionType);
    }

    /** Changes a rollout's status as hawkBit would (its {@code lastModifiedAt} moves). */
    public void setRolloutStatus(long rolloutId, String status) {
        store.setRolloutStatus(rolloutId, status);
    }

    /** Changes a target filter's query as an operator would (its {@code lastModifiedAt} moves). */
    public void setFilterQuery(long filterId, String query) {
        store.setFilterQuery(filterId, query);
    }

    public RolloutView rollout(long id) {
        return store.read(() -> {
            Entities.Rollout r = store.rollouts.get(id);
            if (r == null) {
                throw new IllegalArgumentException("no such rollout: " + id);
            }
            return r.view();
        });
    }

    public FilterView targetFilter(long id) {
        return store.read(() -> {
            Entities.TargetFilter f = store.filters.get(id);
            if (f == null) {
                throw new IllegalArgumentException("no such target filter: " + id);
            }
            return f.view();
        });
    }

    /** Applies every completion that is due now. */
    public void settle() {
        assignments.settle();
    }

    /** Waits until no completion is queued before {@code within} passes (for tests). */
    public boolean awaitCompletions(Duration within) throws InterruptedException {
        return assignments.awaitCompletions(within);
    }
}
