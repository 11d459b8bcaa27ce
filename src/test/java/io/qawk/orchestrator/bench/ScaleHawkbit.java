package io.qawk.orchestrator.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.qawk.orchestrator.query.Rsql;

/**
 * An in-memory double of hawkBit's Management API ({@code /rest/v1}) for benchmarks: 100,000 targets and more, on
 * 127.0.0.1 and a free port, answering the endpoints {@link io.qawk.orchestrator.hawkbit.HawkbitGateway} uses with
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
 * {@code _links.self.href} {@code …/targets/{cid}/actions/{aid}}.</li>
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
 */
public final class ScaleHawkbit implements AutoCloseable {

    /** hawkBit's maximum page size. */
    public static final int MAX_PAGE = 500;
    /** hawkBit's default quota of targets per manual assignment. */
    public static final int MAX_ASSIGN = 5000;
    /** Prefixes of the threads that serve requests (to leave them out of the service's CPU time). */
    public static final List<String> THREAD_PREFIXES = List.of("scale-hawkbit", "HTTP-Dispatcher");

    /** Kinds of request, as counted. */
    public enum Op {
        TARGETS, TARGET, ATTRIBUTES, METADATA, INSTALLED_DS, ASSIGNED_DS, DS_GET, DS_SEARCH, ASSIGN, ACTIONS, ACTION,
        ACTION_STATUS, OTHER
    }

    /** Which hawkBit's action representation to answer with. */
    public enum Shape {
        /** Up to 0.9 (checked against 0.3.0M7): status pending|finished, the result only in the status history. */
        V0_3,
        /** 0.10 and later: status running|finished|error|canceled, plus {@code active} and {@code detailStatus}. */
        V0_10
    }

    /** What a device does with an assigned set. */
    public enum Outcome {
        SUCCESS, FAILURE, NEVER
    }

    /** A distribution set as devices see it. */
    public record SetInfo(long id, String name, String version) {
        public String label() {
            return name + ":" + version;
        }
    }

    /** How a device answers an assignment: after {@link #delay}, with {@link #outcome}. */
    public interface DeviceRule {
        Duration delay(String controllerId, SetInfo set);

        Outcome outcome(String controllerId, SetInfo set);

        /** Every device succeeds after {@code delay}. */
        static DeviceRule succeedAfter(Duration delay) {
            return of(delay, (id, set) -> false);
        }

        /** Devices for which {@code fails} holds fail, the others succeed; all after {@code delay}. */
        static DeviceRule of(Duration delay, BiFunction<String, SetInfo, Boolean> fails) {
            return new DeviceRule() {
                @Override
                public Duration delay(String controllerId, SetInfo set) {
                    return delay;
                }

                @Override
                public Outcome outcome(String controllerId, SetInfo set) {
                    return fails.apply(controllerId, set) ? Outcome.FAILURE : Outcome.SUCCESS;
                }
            };
        }
    }

    /** Requests received per {@link Op}. */
    public record Counts(Map<Op, Long> byOp) {

        public long total() {
            return byOp.values().stream().mapToLong(Long::longValue).sum();
        }

        public long get(Op op) {
            return byOp.getOrDefault(op, 0L);
        }

        /** These counts minus an earlier snapshot. */
        public Counts minus(Counts earlier) {
            Map<Op, Long> out = new EnumMap<>(Op.class);
            for (Op op : Op.values()) {
                out.put(op, get(op) - earlier.get(op));
            }
            return new Counts(Collections.unmodifiableMap(out));
        }

        /** Non-zero counts, e.g. {@code targets 200, attributes 100000}. */
        public String perOperation() {
            StringBuilder sb = new StringBuilder();
            for (Op op : Op.values()) {
                long n = get(op);
                if (n != 0) {
                    sb.append(sb.length() == 0 ? "" : ", ").append(op.name().toLowerCase(Locale.ROOT)).append(' ')
                            .append(n);
                }
            }
            return sb.length() == 0 ? "none" : sb.toString();
        }

        @Override
        public String toString() {
            return total() + " (" + perOperation() + ")";
        }
    }

    /** A fleet made by {@link #populate}: system names in order, and each system's controller ids. */
    public record Fleet(List<String> systems, Map<String, List<String>> devicesBySystem, Map<String, String> typeOfDevice) {
        public int deviceCount() {
            return typeOfDevice.size();
        }
    }

    /**
     * One action as the double holds it: its target and set, when it was created and when the device finished it
     * (epoch millis of the double's clock; 0 while open), and its state (running, finished, error, canceled).
     */
    public record ActionView(long id, String controllerId, long setId, String state, boolean active, long createdAt,
            long finishedAt) {
    }

    // --------------------------------------------------------------------------------------------- state

    private static final class DSet {
        final long id;
        final String name;
        final String version;
        final boolean complete;
        final long createdAt;

        DSet(long id, String name, String version, boolean complete, long createdAt) {
            this.id = id;
            this.name = name;
            this.version = version;
            this.complete = complete;
            this.createdAt = createdAt;
        }

        SetInfo info() {
            return new SetInfo(id, name, version);
        }
    }

    private static final class Target {
        final String id;
        final long seq;
        final long createdAt;
        long lastModifiedAt;
        String name;
        Map<String, String> attributes = Map.of();
        Map<String, String> metadata = Map.of();
        Set<String> tags = Set.of();
        String updateStatus = "registered";
        long lastRequestAt; // 0 = never
        long installedAt; // 0 = never
        DSet installed;
        DSet assigned;
        final List<Action> actions = new ArrayList<>(1);

        Target(String id, long seq, long now) {
            this.id = id;
            this.name = id;
            this.seq = seq;
            this.createdAt = now;
            this.lastModifiedAt = now;
        }
    }

    private record StatusEntry(long id, String type, String message, long reportedAt) {
    }

    private static final class Action {
        final long id;
        final Target target;
        final DSet set;
        final long createdAt;
        final String forceType;
        String state = "running"; // running, finished, error, canceled
        boolean active = true;
        final List<StatusEntry> history = new ArrayList<>(4);
        long dueAt;
        long finishedAt;
        Outcome outcome;

        ActionView view() {
            return new ActionView(id, target.id, set.id, state, active, createdAt, finishedAt);
        }

        Action(long id, Target target, DSet set, long createdAt, String forceType) {
            this.id = id;
            this.target = target;
            this.set = set;
            this.createdAt = createdAt;
            this.forceType = forceType;
        }
    }

    private static final Set<String> TARGET_FIELDS = Set.of("id", "controllerid", "name", "description",
            "updatestatus", "attribute", "metadata", "tag", "installedds.name", "installedds.version",
            "assignedds.name", "assignedds.version", "lastcontrollerrequestat", "lastmodifiedat", "createdat",
            "ipaddress");
    private static final Set<String> TARGET_SORT = Set.of("id", "controllerid", "name", "createdat",
            "lastmodifiedat", "updatestatus", "lastcontrollerrequestat");
    private static final Set<String> SET_FIELDS = Set.of("id", "name", "version", "description", "complete", "type");
    private static final Set<String> ACTION_FIELDS = Set.of("id", "status", "detailstatus");
    private static final Set<String> ASSIGN_TYPES = Set.of("forced", "soft", "timeforced", "downloadonly");

    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService pool;
    private final String base;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<String, Target> targets = new TreeMap<>();
    private final Map<String, Target> targetsLower = new HashMap<>();
    private final Map<Long, DSet> sets = new LinkedHashMap<>();
    private final Map<Long, Action> actions = new HashMap<>();
    private final PriorityBlockingQueue<Action> due = new PriorityBlockingQueue<>(1024,
            Comparator.comparingLong((Action a) -> a.dueAt).thenComparingLong(a -> a.id));
    private final Map<String, CachedList> queryCache = new ConcurrentHashMap<>();
    private final AtomicLongArray counts = new AtomicLongArray(Op.values().length);
    private final AtomicLong handlingNanos = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong statusIds = new AtomicLong();
    private long targetSeq;
    private long version; // bumped by every change of targets (guarded by the write lock)

    private volatile Shape shape = Shape.V0_3;
    private volatile DeviceRule rule = DeviceRule.succeedAfter(Duration.ZERO);
    private volatile LongSupplier clock = System::currentTimeMillis;
    private volatile Duration latency = Duration.ZERO;
    private volatile Duration pollInterval;
    private volatile boolean unavailable;
    private volatile int maxHeaderBytes = 8192;

    private record CachedList(long version, List<Target> list) {
    }

    private ScaleHawkbit(int threads) throws IOException {
        // without TCP_NODELAY the JDK server's header and body writes meet Nagle + delayed ACK: ~40 ms per answer
        System.setProperty("sun.net.httpserver.nodelay", "true");
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "scale-hawkbit-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Starts an empty double with 8 request threads. */
    public static ScaleHawkbit start() {
        return start(8);
    }

    public static ScaleHawkbit start(int threads) {
        try {
            return new ScaleHawkbit(threads);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot start the hawkBit double", e);
        }
    }

    /** {@code http://127.0.0.1:<port>} (what {@code qawk.hawkbit.url} takes). */
    public String baseUrl() {
        return base;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    // --------------------------------------------------------------------------------------------- settings

    public ScaleHawkbit shape(Shape value) {
        shape = value;
        return this;
    }

    public ScaleHawkbit deviceRule(DeviceRule value) {
        rule = value;
        return this;
    }

    /** Time source in epoch millis (default: the system clock); tests may move it by hand. */
    public ScaleHawkbit clock(LongSupplier value) {
        clock = value;
        return this;
    }

    /** Extra time each answer takes (default none), to imitate a real hawkBit's per-request cost. */
    public ScaleHawkbit latency(Duration value) {
        latency = value;
        return this;
    }

    /**
     * Devices poll every {@code interval} (each at its own phase), which moves {@code lastControllerRequestAt} as on
     * a real hawkBit; null (default): only device activity (attributes, install feedback) moves it.
     */
    public ScaleHawkbit pollInterval(Duration interval) {
        pollInterval = interval;
        return this;
    }

    /**
     * Largest request line + headers accepted (default 8192 bytes, Spring Boot/Tomcat's {@code max-http-header-size}
     * under hawkBit): a longer URL (a long FIQL query) answers 400 as on a real hawkBit.
     */
    public ScaleHawkbit maxHeaderBytes(int value) {
        maxHeaderBytes = value;
        return this;
    }

    /** When true every request answers 503 (hawkBit down); used to cut a step short at its deadline. */
    public ScaleHawkbit unavailable(boolean value) {
        unavailable = value;
        return this;
    }

    // --------------------------------------------------------------------------------------------- counting

    public Counts snapshot() {
        Map<Op, Long> out = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            out.put(op, counts.get(op.ordinal()));
        }
        return new Counts(Collections.unmodifiableMap(out));
    }

    public void reset() {
        for (int i = 0; i < counts.length(); i++) {
            counts.set(i, 0);
        }
        handlingNanos.set(0);
    }

    /** Total time spent answering requests since the last {@link #reset()} (all threads summed). */
    public Duration handlingTime() {
        return Duration.ofNanos(handlingNanos.get());
    }

    // --------------------------------------------------------------------------------------------- fleet

    /** Adds a complete distribution set; returns its id. */
    public long addDistributionSet(String name, String version) {
        return addDistributionSet(name, version, true);
    }

    public long addDistributionSet(String name, String version, boolean complete) {
        lock.writeLock().lock();
        try {
            long id = sets.size() + 1L;
            sets.put(id, new DSet(id, name, version, complete, clock.getAsLong()));
            return id;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds a target with the attributes its device reported (it polled once, now). */
    public void addTarget(String controllerId, Map<String, String> attributes) {
        lock.writeLock().lock();
        try {
            putTarget(controllerId, attributes, clock.getAsLong());
        } finally {
            lock.writeLock().unlock();
        }
    }

    private Target putTarget(String controllerId, Map<String, String> attributes, long now) {
        if (targets.containsKey(controllerId)) {
            throw new IllegalArgumentException("target exists: " + controllerId);
        }
        Target t = new Target(controllerId, ++targetSeq, now);
        t.attributes = Map.copyOf(attributes);
        t.lastRequestAt = attributes.isEmpty() ? 0 : now;
        targets.put(controllerId, t);
        targetsLower.put(controllerId.toLowerCase(Locale.ROOT), t);
        version++;
        return t;
    }

    /** Removes a target (its actions stay unreachable). */
    public void removeTarget(String controllerId) {
        lock.writeLock().lock();
        try {
            Target t = targets.remove(controllerId);
            if (t != null) {
                targetsLower.remove(controllerId.toLowerCase(Locale.ROOT));
                version++;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Creates {@code systems} systems of {@code devicesPerSystem} devices each: device {@code j} of system {@code i}
     * is {@code sys-<i>-<type>-<j>} with attributes {@code device=sys-<i>}, {@code device_type=<typePrefix><type>}
     * ({@code type = componentTypes[j % size]}) and {@code centerid=c<i % centres>}.
     */
    public Fleet populate(int systems, int devicesPerSystem, List<String> componentTypes, int centres,
            String typePrefix) {
        List<String> names = new ArrayList<>(systems);
        Map<String, List<String>> bySystem = new LinkedHashMap<>();
        Map<String, String> typeOf = new LinkedHashMap<>();
        lock.writeLock().lock();
        try {
            long now = clock.getAsLong();
            for (int i = 0; i < systems; i++) {
                String system = String.format("sys-%06d", i);
                String centre = String.format("c%04d", i % Math.max(1, centres));
                names.add(system);
                List<String> devices = new ArrayList<>(devicesPerSystem);
                for (int j = 0; j < devicesPerSystem; j++) {
                    String type = componentTypes.get(j % componentTypes.size());
                    String id = system + "-" + type + "-" + j;
                    putTarget(id, Map.of("device", system, "device_type", typePrefix + type, "centerid", centre), now);
                    devices.add(id);
                    typeOf.put(id, type);
                }
                bySystem.put(system, List.copyOf(devices));
            }
        } finally {
            lock.writeLock().unlock();
        }
        return new Fleet(List.copyOf(names), Collections.unmodifiableMap(bySystem), Collections.unmodifiableMap(typeOf));
    }

    /** Marks {@code setId} installed (and assigned, in sync) on the targets, as if a past update had run. */
    public void preinstall(long setId, Iterable<String> controllerIds) {
        lock.writeLock().lock();
        try {
            DSet set = requireSet(setId);
            long now = clock.getAsLong();
            for (String id : controllerIds) {
                Target t = requireTarget(id);
                t.installed = set;
                t.assigned = set;
                t.installedAt = now;
                t.updateStatus = "in_sync";
            }
            version++;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The device reports a changed attribute (configData): it polled now. */
    public void setAttribute(String controllerId, String key, String value) {
        lock.writeLock().lock();
        try {
            Target t = requireTarget(controllerId);
            Map<String, String> a = new LinkedHashMap<>(t.attributes);
            if (value == null) {
                a.remove(key);
            } else {
                a.put(key, value);
            }
            t.attributes = Collections.unmodifiableMap(a);
            t.lastRequestAt = clock.getAsLong();
            version++;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Metadata written through the Management API (moves lastModifiedAt). */
    public void setMetadata(String controllerId, String key, String value) {
        lock.writeLock().lock();
        try {
            Target t = requireTarget(controllerId);
            Map<String, String> m = new LinkedHashMap<>(t.metadata);
            if (value == null) {
                m.remove(key);
            } else {
                m.put(key, value);
            }
            t.metadata = Collections.unmodifiableMap(m);
            t.lastModifiedAt = clock.getAsLong();
            version++;
        } finally {
            lock.writeLock().unlock();
        }
    }

    public void setTags(String controllerId, Set<String> tags) {
        lock.writeLock().lock();
        try {
            requireTarget(controllerId).tags = Set.copyOf(tags);
            version++;
        } finally {
            lock.writeLock().unlock();
        }
    }

    public int targetCount() {
        lock.readLock().lock();
        try {
            return targets.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    public Map<String, String> attributes(String controllerId) {
        return read(() -> requireTarget(controllerId).attributes);
    }

    public String updateStatus(String controllerId) {
        settle();
        return read(() -> requireTarget(controllerId).updateStatus);
    }

    public Optional<SetInfo> installed(String controllerId) {
        settle();
        return read(() -> Optional.ofNullable(requireTarget(controllerId).installed).map(DSet::info));
    }

    public Optional<SetInfo> assigned(String controllerId) {
        settle();
        return read(() -> Optional.ofNullable(requireTarget(controllerId).assigned).map(DSet::info));
    }

    /** The target's actions, oldest first. */
    public List<ActionView> actions(String controllerId) {
        settle();
        return read(() -> requireTarget(controllerId).actions.stream().map(Action::view).toList());
    }

    /** Id of the newest action (0 when none): actions are numbered 1, 2, 3, … in creation order. */
    public long lastActionId() {
        return ids.get();
    }

    /** Actions with an id above {@code actionId}, oldest first. */
    public List<ActionView> actionsAfter(long actionId) {
        settle();
        return read(() -> {
            List<ActionView> out = new ArrayList<>();
            for (long id = actionId + 1; id <= ids.get(); id++) {
                Action a = actions.get(id);
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
        return read(() -> (int) actions.values().stream().filter(a -> a.active).count());
    }

    /** Applies every completion that is due now. */
    public void settle() {
        Action head = due.peek();
        if (head == null || head.dueAt > clock.getAsLong()) {
            return;
        }
        lock.writeLock().lock();
        try {
            long now = clock.getAsLong();
            while ((head = due.peek()) != null && head.dueAt <= now) {
                Action a = due.poll();
                complete(a, a.dueAt); // at the moment the device finished, not when it is noticed
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private <T> T read(java.util.function.Supplier<T> what) {
        lock.readLock().lock();
        try {
            return what.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    private Target requireTarget(String id) {
        Target t = targets.get(id);
        if (t == null) {
            throw new IllegalArgumentException("no such target: " + id);
        }
        return t;
    }

    private DSet requireSet(long id) {
        DSet s = sets.get(id);
        if (s == null) {
            throw new IllegalArgumentException("no such set: " + id);
        }
        return s;
    }

    // --------------------------------------------------------------------------------------------- device side

    private void complete(Action a, long now) {
        if (!a.active) {
            return; // cancelled meanwhile
        }
        Target t = a.target;
        a.active = false;
        a.finishedAt = now;
        add(a, "retrieved", "Update Server: Target retrieved update action and should start now the download.",
                now);
        add(a, "running", "scale double: installing " + a.set.name + ":" + a.set.version, now);
        if (a.outcome == Outcome.SUCCESS) {
            a.state = "finished";
            add(a, "finished", "scale double: installed", now);
            t.installed = a.set;
            t.installedAt = now;
            t.updateStatus = "in_sync";
        } else {
            a.state = "error";
            add(a, "error", "scale double: installation failed", now);
            t.updateStatus = "error";
            t.assigned = null; // hawkBit 0.3.0M7: the failed set is no longer the assigned one
        }
        t.lastRequestAt = now;
        version++;
    }

    private void add(Action a, String type, String message, long at) {
        a.history.add(new StatusEntry(statusIds.incrementAndGet(), type, message, at));
    }

    // --------------------------------------------------------------------------------------------- HTTP

    private static final class Reply {
        final int status;
        final String body;

        Reply(int status, String body) {
            this.status = status;
            this.body = body;
        }
    }

    private static final class HttpError extends RuntimeException {
        final int status;
        final String errorCode;

        HttpError(int status, String errorCode, String message) {
            super(message);
            this.status = status;
            this.errorCode = errorCode;
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        long start = System.nanoTime();
        Reply reply;
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readAllBytes();
            int headerBytes = ex.getRequestMethod().length() + ex.getRequestURI().toString().length() + 12;
            for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                for (String v : h.getValue()) {
                    headerBytes += h.getKey().length() + v.length() + 4;
                }
            }
            if (headerBytes > maxHeaderBytes) {
                counts.incrementAndGet(Op.OTHER.ordinal());
                throw new HttpError(400, "scale.double.headerTooLarge", "Request header is too large (" + headerBytes
                        + " bytes; Tomcat's limit is " + maxHeaderBytes + ")");
            }
            reply = route(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), ex.getRequestURI().getRawQuery(),
                    ex.getRequestHeaders().getFirst("Authorization"), body);
            Duration extra = latency;
            if (!extra.isZero()) {
                try {
                    Thread.sleep(extra.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } catch (HttpError e) {
            reply = error(e.status, e.errorCode, e.getMessage());
        } catch (RuntimeException e) {
            reply = error(500, "scale.double.internal", String.valueOf(e));
        }
        try {
            if (reply.body == null) {
                ex.sendResponseHeaders(reply.status, -1);
            } else {
                byte[] bytes = reply.body.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/hal+json;charset=UTF-8");
                ex.sendResponseHeaders(reply.status, bytes.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } finally {
            ex.close();
            handlingNanos.addAndGet(System.nanoTime() - start);
        }
    }

    private Reply error(int status, String code, String message) {
        StringBuilder sb = new StringBuilder("{\"exceptionClass\":\"scale.double\",\"errorCode\":");
        Json.str(sb, code).append(",\"message\":");
        Json.str(sb, message).append('}');
        return new Reply(status, sb.toString());
    }

    private Reply route(String method, String rawPath, String rawQuery, String authorization, byte[] body) {
        String prefix = "/rest/v1/";
        List<String> seg = new ArrayList<>();
        if (rawPath.startsWith(prefix)) {
            for (String s : rawPath.substring(prefix.length()).split("/", -1)) {
                seg.add(decodePath(s));
            }
        }
        Op op = classify(method, seg);
        counts.incrementAndGet(op.ordinal());
        if (unavailable) {
            return error(503, "scale.double.unavailable", "hawkBit double is unavailable");
        }
        if (authorization == null || !authorization.startsWith("Basic ")
                || !new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
                        .contains(":")) {
            return new Reply(401, null);
        }
        settle();
        Map<String, String> query = parseQuery(rawQuery);
        switch (op) {
            case TARGETS:
                return read(() -> targetList(query));
            case TARGET:
                return read(() -> new Reply(200, targetJson(new StringBuilder(), target(seg.get(1)), true).toString()));
            case ATTRIBUTES:
                return read(() -> attributesOf(target(seg.get(1))));
            case METADATA:
                return read(() -> metadataOf(target(seg.get(1)), query));
            case INSTALLED_DS:
                return read(() -> setOrNoContent(target(seg.get(1)).installed));
            case ASSIGNED_DS:
                return read(() -> setOrNoContent(target(seg.get(1)).assigned));
            case ACTIONS:
                return read(() -> actionList(target(seg.get(1)), query));
            case ACTION:
                return read(() -> new Reply(200, actionJson(new StringBuilder(), action(seg), true).toString()));
            case ACTION_STATUS:
                return read(() -> statusList(action(seg), query));
            case DS_GET:
                return read(() -> new Reply(200, setJson(new StringBuilder(), set(seg.get(1))).toString()));
            case DS_SEARCH:
                return read(() -> setList(query));
            case ASSIGN:
                return assign(seg.get(1), body);
            default:
                return error(404, "scale.double.notFound", "no such resource: " + method + " " + rawPath);
        }
    }

    private static Op classify(String method, List<String> s) {
        boolean get = "GET".equals(method);
        int n = s.size();
        if (n == 0) {
            return Op.OTHER;
        }
        if ("targets".equals(s.get(0)) && get) {
            if (n == 1) {
                return Op.TARGETS;
            }
            if (n == 2) {
                return Op.TARGET;
            }
            String what = s.get(2);
            if (n == 3) {
                switch (what) {
                    case "attributes":
                        return Op.ATTRIBUTES;
                    case "metadata":
                        return Op.METADATA;
                    case "installedDS":
                        return Op.INSTALLED_DS;
                    case "assignedDS":
                        return Op.ASSIGNED_DS;
                    case "actions":
                        return Op.ACTIONS;
                    default:
                        return Op.OTHER;
                }
            }
            if ("actions".equals(what) && n == 4) {
                return Op.ACTION;
            }
            if ("actions".equals(what) && n == 5 && "status".equals(s.get(4))) {
                return Op.ACTION_STATUS;
            }
            return Op.OTHER;
        }
        if ("distributionsets".equals(s.get(0))) {
            if (n == 1 && get) {
                return Op.DS_SEARCH;
            }
            if (n == 2 && get) {
                return Op.DS_GET;
            }
            if (n == 3 && "assignedTargets".equals(s.get(2)) && "POST".equals(method)) {
                return Op.ASSIGN;
            }
        }
        return Op.OTHER;
    }

    private Target target(String controllerId) {
        Target t = targets.get(controllerId);
        if (t == null) {
            throw new HttpError(404, "hawkbit.server.error.repo.entitiyNotFound",
                    "Target with given identifier {" + controllerId + "} does not exist.");
        }
        return t;
    }

    private Action action(List<String> seg) {
        Target t = target(seg.get(1));
        Action a;
        try {
            a = actions.get(Long.parseLong(seg.get(3)));
        } catch (NumberFormatException e) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.typeMismatch", "not a number: " + seg.get(3));
        }
        if (a == null || a.target != t) {
            throw new HttpError(404, "hawkbit.server.error.repo.entitiyNotFound",
                    "Action with given identifier {" + seg.get(3) + "} does not exist.");
        }
        return a;
    }

    private DSet set(String id) {
        DSet s;
        try {
            s = sets.get(Long.parseLong(id));
        } catch (NumberFormatException e) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.typeMismatch", "not a number: " + id);
        }
        if (s == null) {
            throw new HttpError(404, "hawkbit.server.error.repo.entitiyNotFound",
                    "DistributionSet with given identifier {" + id + "} does not exist.");
        }
        return s;
    }

    // --------------------------------------------------------------------------------------------- targets

    private Reply targetList(Map<String, String> query) {
        String q = query.get("q");
        String sort = query.get("sort");
        List<Target> all = matchingTargets(q, sort);
        int offset = offset(query);
        int limit = limit(query);
        StringBuilder sb = new StringBuilder(256 + Math.min(limit, all.size()) * 420).append("{\"content\":[");
        int end = (int) Math.min(all.size(), (long) offset + limit);
        for (int i = offset; i < end; i++) {
            if (i > offset) {
                sb.append(',');
            }
            targetJson(sb, all.get(i), false);
        }
        sb.append("],\"total\":").append(all.size()).append(",\"size\":").append(Math.max(0, end - offset))
                .append('}');
        return new Reply(200, sb.toString());
    }

    private List<Target> matchingTargets(String q, String sort) {
        Comparator<Target> order = targetOrder(sort);
        Rsql.Node node = null;
        if (q != null && !q.isBlank()) {
            node = parse(q);
            checkFields(node, TARGET_FIELDS, "target");
        }
        String key = q + "\u0000" + sort;
        boolean timeDependent = q != null && q.toLowerCase(Locale.ROOT).contains("lastcontrollerrequestat")
                || sort != null && sort.toLowerCase(Locale.ROOT).contains("lastcontrollerrequestat");
        List<String> direct = node == null ? null : directIds(node);
        if (direct == null && !timeDependent) {
            CachedList cached = queryCache.get(key);
            if (cached != null && cached.version == version) {
                return cached.list;
            }
        }
        long now = clock.getAsLong();
        List<Target> out = new ArrayList<>();
        Rsql.Node filter = node;
        Predicate<Target> test = filter == null ? t -> true
                : t -> RsqlEvaluator.matches(filter, c -> targetComparison(t, c, now));
        List<Target> byValue = direct == null && node != null ? attributeCandidates(node) : null;
        if (direct != null) {
            Set<Target> seen = new LinkedHashSet<>();
            for (String id : direct) {
                Target t = targetsLower.get(id.toLowerCase(Locale.ROOT));
                if (t != null && seen.add(t) && test.test(t)) {
                    out.add(t);
                }
            }
        } else if (byValue != null) {
            // a database answers these from an index too; scanning 100,000 targets per query would make the double,
            // not the service, the cost being measured
            Set<Target> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Target t : byValue) {
                if (seen.add(t) && test.test(t)) {
                    out.add(t);
                }
            }
        } else {
            for (Target t : targets.values()) {
                if (test.test(t)) {
                    out.add(t);
                }
            }
        }
        if (order != null) {
            out.sort(order);
        } else if (direct != null) {
            out.sort(Comparator.comparingLong(t -> t.seq));
        } else {
            out.sort(Comparator.comparingLong(t -> t.seq));
        }
        List<Target> result = Collections.unmodifiableList(out);
        if (direct == null && !timeDependent) {
            if (queryCache.size() > 64) {
                queryCache.clear();
            }
            queryCache.put(key, new CachedList(version, result));
        }
        return result;
    }

    /** attribute key -> upper-cased value -> targets, valid for one {@link #version}. */
    private record AttributeIndex(long version, Map<String, Map<String, List<Target>>> byKey) {
    }

    private volatile AttributeIndex attributeIndex = new AttributeIndex(-1, Map.of());

    /**
     * Targets that may match a query restricted by exact attribute values ({@code attribute.x=in=(…)} or
     * {@code attribute.x==v} without wildcard, possibly AND-ed with more), from an index per attribute key; null when
     * the query is not restricted that way. Still a superset: the caller tests every candidate.
     */
    private List<Target> attributeCandidates(Rsql.Node node) {
        return restriction(node, c -> {
            String f = RsqlEvaluator.normalise(c.selector());
            if (!f.startsWith("attribute.") || !exact(c)) {
                return null;
            }
            Map<String, List<Target>> byValue = attributeValues(f.substring("attribute.".length()));
            List<Target> out = new ArrayList<>();
            for (String v : c.values()) {
                out.addAll(byValue.getOrDefault(v.toUpperCase(Locale.ROOT), List.of()));
            }
            return out;
        });
    }

    /** {@code =in=}, or {@code ==} without wildcard: the values are exact. */
    private static boolean exact(Rsql.Comparison c) {
        return c.operator().equals("=in=") || c.operator().equals("==") && c.values().get(0).indexOf('*') < 0;
    }

    /**
     * What a query is restricted to, from what {@code leaf} says of single comparisons (null: not restricted): the
     * first restricted part of an AND, the union of an OR whose every branch is restricted.
     */
    private static <T> List<T> restriction(Rsql.Node node, java.util.function.Function<Rsql.Comparison, List<T>> leaf) {
        if (node instanceof Rsql.Comparison c) {
            return leaf.apply(c);
        }
        if (node instanceof Rsql.And a) {
            for (Rsql.Node child : a.children()) {
                List<T> r = restriction(child, leaf);
                if (r != null) {
                    return r;
                }
            }
        }
        if (node instanceof Rsql.Or o) {
            List<T> union = new ArrayList<>();
            for (Rsql.Node child : o.children()) {
                List<T> r = restriction(child, leaf);
                if (r == null) {
                    return null; // one branch is not restricted: scan everything
                }
                union.addAll(r);
            }
            return union;
        }
        return null;
    }

    private Map<String, List<Target>> attributeValues(String key) {
        synchronized (this) {
            AttributeIndex index = attributeIndex;
            if (index.version() != version) {
                index = new AttributeIndex(version, new java.util.concurrent.ConcurrentHashMap<>());
                attributeIndex = index;
            }
            return index.byKey().computeIfAbsent(key, k -> {
                Map<String, List<Target>> byValue = new HashMap<>();
                for (Target t : targets.values()) {
                    String v = t.attributes.get(k);
                    if (v != null) {
                        byValue.computeIfAbsent(v.toUpperCase(Locale.ROOT), x -> new ArrayList<>(4)).add(t);
                    }
                }
                return byValue;
            });
        }
    }

    /** Controller ids a query is restricted to ({@code controllerId==x} without wildcard, {@code =in=}), if any. */
    private static List<String> directIds(Rsql.Node node) {
        return restriction(node, c -> {
            String f = RsqlEvaluator.normalise(c.selector());
            if (!f.equals("controllerid") && !f.equals("id")) {
                return null;
            }
            return exact(c) ? c.values() : null;
        });
    }

    private boolean targetComparison(Target t, Rsql.Comparison c, long now) {
        String f = RsqlEvaluator.normalise(c.selector());
        if (f.startsWith("attribute.")) {
            return RsqlEvaluator.compare(t.attributes.get(f.substring(10)), c);
        }
        if (f.startsWith("metadata.")) {
            return RsqlEvaluator.compare(t.metadata.get(f.substring(9)), c);
        }
        switch (f) {
            case "id":
            case "controllerid":
                return RsqlEvaluator.compare(t.id, c);
            case "name":
                return RsqlEvaluator.compare(t.name, c);
            case "description":
                return RsqlEvaluator.compare(null, c);
            case "ipaddress":
                return RsqlEvaluator.compare("127.0.0.1", c);
            case "updatestatus":
                return RsqlEvaluator.compare(t.updateStatus, c);
            case "installedds.name":
                return RsqlEvaluator.compare(t.installed == null ? null : t.installed.name, c);
            case "installedds.version":
                return RsqlEvaluator.compare(t.installed == null ? null : t.installed.version, c);
            case "assignedds.name":
                return RsqlEvaluator.compare(t.assigned == null ? null : t.assigned.name, c);
            case "assignedds.version":
                return RsqlEvaluator.compare(t.assigned == null ? null : t.assigned.version, c);
            case "lastcontrollerrequestat":
                long last = lastRequest(t, now);
                return RsqlEvaluator.compare(last == 0 ? null : String.valueOf(last), c);
            case "lastmodifiedat":
                return RsqlEvaluator.compare(String.valueOf(t.lastModifiedAt), c);
            case "createdat":
                return RsqlEvaluator.compare(String.valueOf(t.createdAt), c);
            case "tag":
                boolean negative = c.operator().equals("!=") || c.operator().equals("=out=");
                if (t.tags.isEmpty()) {
                    return RsqlEvaluator.compare(null, c);
                }
                return negative ? t.tags.stream().allMatch(tag -> RsqlEvaluator.compare(tag, c))
                        : t.tags.stream().anyMatch(tag -> RsqlEvaluator.compare(tag, c));
            default:
                throw new HttpError(400, "hawkbit.server.error.rest.param.rsqlInvalidField", "unknown field " + f);
        }
    }

    private long lastRequest(Target t, long now) {
        Duration every = pollInterval;
        if (every == null || every.isZero()) {
            return t.lastRequestAt;
        }
        long interval = every.toMillis();
        long phase = Math.floorMod(t.seq * 7919L, interval);
        long tick = now - Math.floorMod(now - phase, interval);
        return Math.max(t.lastRequestAt, tick);
    }

    private Comparator<Target> targetOrder(String sort) {
        if (sort == null || sort.isBlank()) {
            return null;
        }
        Comparator<Target> out = null;
        for (String part : sort.split(",")) {
            String[] fd = part.trim().split(":");
            String field = fd[0].trim().toLowerCase(Locale.ROOT);
            boolean desc = fd.length > 1 && fd[1].trim().equalsIgnoreCase("DESC");
            if (!TARGET_SORT.contains(field) || fd.length > 1 && !fd[1].trim().matches("(?i)ASC|DESC")) {
                throw new HttpError(400, "hawkbit.server.error.rest.param.sortParamInvalidField",
                        "The given sort parameter field {" + fd[0] + "} does not exist, must be one of " + TARGET_SORT);
            }
            long now = clock.getAsLong();
            Comparator<Target> c;
            switch (field) {
                case "id":
                case "controllerid":
                    c = Comparator.comparing(t -> t.id);
                    break;
                case "name":
                    c = Comparator.comparing(t -> t.name);
                    break;
                case "createdat":
                    c = Comparator.comparingLong(t -> t.createdAt);
                    break;
                case "lastmodifiedat":
                    c = Comparator.comparingLong(t -> t.lastModifiedAt);
                    break;
                case "updatestatus":
                    c = Comparator.comparing(t -> t.updateStatus);
                    break;
                default:
                    c = Comparator.comparingLong(t -> lastRequest(t, now));
            }
            if (desc) {
                c = c.reversed();
            }
            out = out == null ? c : out.thenComparing(c);
        }
        return out.thenComparingLong(t -> t.seq);
    }

    private StringBuilder targetJson(StringBuilder sb, Target t, boolean single) {
        long now = clock.getAsLong();
        sb.append("{\"createdBy\":\"bench\",\"createdAt\":").append(t.createdAt)
                .append(",\"lastModifiedBy\":\"bench\",\"lastModifiedAt\":").append(t.lastModifiedAt)
                .append(",\"name\":");
        Json.str(sb, t.name).append(",\"controllerId\":");
        Json.str(sb, t.id).append(",\"updateStatus\":\"").append(t.updateStatus).append('"');
        long last = lastRequest(t, now);
        if (last != 0) {
            sb.append(",\"lastControllerRequestAt\":").append(last);
        }
        if (t.installedAt != 0) {
            sb.append(",\"installedAt\":").append(t.installedAt);
        }
        sb.append(",\"ipAddress\":\"127.0.0.1\",\"address\":\"http://127.0.0.1\"");
        if (single && last != 0) {
            sb.append(",\"pollStatus\":{\"lastRequestAt\":").append(last).append(",\"nextExpectedRequestAt\":")
                    .append(last + 300_000).append(",\"overdue\":false}");
        }
        sb.append(",\"securityToken\":\"0000\",\"requestAttributes\":false,\"_links\":{\"self\":{\"href\":");
        Json.str(sb, base + "/rest/v1/targets/" + encode(t.id)).append("}}}");
        return sb;
    }

    private Reply attributesOf(Target t) {
        if (t.attributes.isEmpty()) {
            return new Reply(204, null);
        }
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : t.attributes.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            Json.str(sb, e.getKey()).append(':');
            Json.str(sb, e.getValue());
        }
        return new Reply(200, sb.append('}').toString());
    }

    private Reply metadataOf(Target t, Map<String, String> query) {
        List<Map.Entry<String, String>> all = new ArrayList<>(t.metadata.entrySet());
        all.sort(Map.Entry.comparingByKey());
        int offset = offset(query);
        int limit = limit(query);
        int end = (int) Math.min(all.size(), (long) offset + limit);
        StringBuilder sb = new StringBuilder("{\"content\":[");
        for (int i = offset; i < end; i++) {
            if (i > offset) {
                sb.append(',');
            }
            sb.append("{\"key\":");
            Json.str(sb, all.get(i).getKey()).append(",\"value\":");
            Json.str(sb, all.get(i).getValue()).append('}');
        }
        return new Reply(200, sb.append("],\"total\":").append(all.size()).append(",\"size\":")
                .append(Math.max(0, end - offset)).append('}').toString());
    }

    private Reply setOrNoContent(DSet set) {
        return set == null ? new Reply(204, null) : new Reply(200, setJson(new StringBuilder(), set).toString());
    }

    // --------------------------------------------------------------------------------------------- sets

    private StringBuilder setJson(StringBuilder sb, DSet s) {
        sb.append("{\"createdBy\":\"bench\",\"createdAt\":").append(s.createdAt)
                .append(",\"lastModifiedBy\":\"bench\",\"lastModifiedAt\":").append(s.createdAt).append(",\"name\":");
        Json.str(sb, s.name).append(",\"description\":\"\",\"version\":");
        Json.str(sb, s.version).append(",\"modules\":[],\"requiredMigrationStep\":false,\"type\":\"os\",\"complete\":")
                .append(s.complete).append(",\"deleted\":false,\"_links\":{\"self\":{\"href\":\"").append(base)
                .append("/rest/v1/distributionsets/").append(s.id).append("\"}},\"id\":").append(s.id).append('}');
        return sb;
    }

    private Reply setList(Map<String, String> query) {
        Rsql.Node node = null;
        String q = query.get("q");
        if (q != null && !q.isBlank()) {
            node = parse(q);
            checkFields(node, SET_FIELDS, "distribution set");
        }
        List<DSet> all = new ArrayList<>();
        for (DSet s : sets.values()) {
            if (node == null || RsqlEvaluator.matches(node, c -> setComparison(s, c))) {
                all.add(s);
            }
        }
        String sort = query.get("sort");
        if (sort != null && !sort.isBlank()) {
            Comparator<DSet> order = null;
            for (String part : sort.split(",")) {
                String[] fd = part.trim().split(":");
                String field = fd[0].trim().toLowerCase(Locale.ROOT);
                Comparator<DSet> c;
                switch (field) {
                    case "id":
                        c = Comparator.comparingLong(s -> s.id);
                        break;
                    case "name":
                        c = Comparator.comparing(s -> s.name);
                        break;
                    case "version":
                        c = Comparator.comparing(s -> s.version);
                        break;
                    case "createdat":
                    case "lastmodifiedat":
                        c = Comparator.<DSet>comparingLong(s -> s.createdAt).thenComparingLong(s -> s.id);
                        break;
                    default:
                        throw new HttpError(400, "hawkbit.server.error.rest.param.sortParamInvalidField",
                                "unknown sort field " + fd[0]);
                }
                if (fd.length > 1 && fd[1].trim().equalsIgnoreCase("DESC")) {
                    c = c.reversed();
                }
                order = order == null ? c : order.thenComparing(c);
            }
            all.sort(order);
        }
        int offset = offset(query);
        int limit = limit(query);
        int end = (int) Math.min(all.size(), (long) offset + limit);
        StringBuilder sb = new StringBuilder("{\"content\":[");
        for (int i = offset; i < end; i++) {
            if (i > offset) {
                sb.append(',');
            }
            setJson(sb, all.get(i));
        }
        return new Reply(200, sb.append("],\"total\":").append(all.size()).append(",\"size\":")
                .append(Math.max(0, end - offset)).append('}').toString());
    }

    private static boolean setComparison(DSet s, Rsql.Comparison c) {
        switch (RsqlEvaluator.normalise(c.selector())) {
            case "id":
                return RsqlEvaluator.compare(String.valueOf(s.id), c);
            case "name":
                return RsqlEvaluator.compare(s.name, c);
            case "version":
                return RsqlEvaluator.compare(s.version, c);
            case "description":
                return RsqlEvaluator.compare("", c);
            case "complete":
                return RsqlEvaluator.compare(String.valueOf(s.complete), c);
            case "type":
                return RsqlEvaluator.compare("os", c);
            default:
                throw new HttpError(400, "hawkbit.server.error.rest.param.rsqlInvalidField", c.selector());
        }
    }

    // --------------------------------------------------------------------------------------------- assignment

    private Reply assign(String setId, byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new HttpError(400, "hawkbit.server.error.rest.body.notReadable", "body is not JSON");
        }
        if (root == null || !root.isArray()) {
            throw new HttpError(400, "hawkbit.server.error.rest.body.notReadable", "body is not a JSON array");
        }
        List<String> wanted = new ArrayList<>(root.size());
        String type = "forced";
        for (JsonNode n : root) {
            if (!n.path("id").isTextual()) {
                throw new HttpError(400, "hawkbit.server.error.rest.body.notReadable", "entry without id");
            }
            String t = n.path("type").asText("forced").toLowerCase(Locale.ROOT);
            if (!ASSIGN_TYPES.contains(t)) {
                throw new HttpError(400, "hawkbit.server.error.rest.body.notReadable", "unknown type " + t);
            }
            type = t;
            wanted.add(n.get("id").asText());
        }
        lock.writeLock().lock();
        try {
            DSet set = set(setId);
            if (!set.complete) {
                throw new HttpError(500, "hawkbit.server.error.repo.incompleteDistributionSet",
                        "Distribution set of type os is incomplete: " + set.id);
            }
            if (wanted.size() > MAX_ASSIGN) {
                throw new HttpError(403, "hawkbit.server.error.quota.tooManyEntries",
                        "Quota exceeded: cannot assign more than " + MAX_ASSIGN + " targets at once");
            }
            long now = clock.getAsLong();
            int assigned = 0;
            int already = 0;
            StringBuilder actionsJson = new StringBuilder();
            Set<Target> seen = new LinkedHashSet<>();
            DeviceRule r = rule;
            for (String id : wanted) {
                Target t = targetsLower.get(id.toLowerCase(Locale.ROOT));
                if (t == null || !seen.add(t)) {
                    continue; // unknown targets are dropped silently
                }
                if (t.assigned == set) {
                    already++;
                    continue;
                }
                for (Action open : t.actions) {
                    if (open.active) {
                        open.active = false;
                        open.finishedAt = now;
                        open.state = "canceled";
                        add(open, "canceled", "cancelled by a new assignment", now);
                    }
                }
                Action a = new Action(ids.incrementAndGet(), t, set, now, type);
                add(a, "running", null, now);
                t.actions.add(a);
                actions.put(a.id, a);
                t.assigned = set;
                t.updateStatus = "pending";
                t.lastModifiedAt = now;
                a.outcome = r.outcome(t.id, set.info());
                if (a.outcome != Outcome.NEVER) {
                    Duration delay = r.delay(t.id, set.info());
                    a.dueAt = now + Math.max(0, delay.toMillis());
                    due.add(a);
                }
                assigned++;
                if (actionsJson.length() > 0) {
                    actionsJson.append(',');
                }
                actionsJson.append("{\"_links\":{\"self\":{\"href\":");
                Json.str(actionsJson, base + "/rest/v1/targets/" + encode(t.id) + "/actions/" + a.id)
                        .append("}},\"id\":").append(a.id).append('}');
            }
            version++;
            return new Reply(200, "{\"alreadyAssigned\":" + already + ",\"assignedActions\":[" + actionsJson
                    + "],\"assigned\":" + assigned + ",\"total\":" + (assigned + already) + "}");
        } finally {
            lock.writeLock().unlock();
        }
    }

    // --------------------------------------------------------------------------------------------- actions

    private Reply actionList(Target t, Map<String, String> query) {
        Rsql.Node node = null;
        String q = query.get("q");
        if (q != null && !q.isBlank()) {
            node = parse(q);
            checkFields(node, ACTION_FIELDS, "action");
        }
        List<Action> all = new ArrayList<>();
        for (Action a : t.actions) {
            if (node == null || RsqlEvaluator.matches(node, c -> actionComparison(a, c))) {
                all.add(a);
            }
        }
        String sort = query.get("sort");
        if (sort != null && sort.toLowerCase(Locale.ROOT).startsWith("id:desc")) {
            all.sort(Comparator.comparingLong((Action a) -> a.id).reversed());
        } else if (sort != null && !sort.isBlank() && !sort.toLowerCase(Locale.ROOT).startsWith("id")) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.sortParamInvalidField", "unknown sort " + sort);
        }
        int offset = offset(query);
        int limit = limit(query);
        int end = (int) Math.min(all.size(), (long) offset + limit);
        StringBuilder sb = new StringBuilder("{\"content\":[");
        for (int i = offset; i < end; i++) {
            if (i > offset) {
                sb.append(',');
            }
            actionJson(sb, all.get(i), false);
        }
        return new Reply(200, sb.append("],\"total\":").append(all.size()).append(",\"size\":")
                .append(Math.max(0, end - offset)).append('}').toString());
    }

    private static boolean actionComparison(Action a, Rsql.Comparison c) {
        switch (RsqlEvaluator.normalise(c.selector())) {
            case "id":
                return RsqlEvaluator.compare(String.valueOf(a.id), c);
            case "status":
                return RsqlEvaluator.compare(a.active ? "pending" : "finished", c);
            case "detailstatus":
                return RsqlEvaluator.compare(a.state, c);
            default:
                throw new HttpError(400, "hawkbit.server.error.rest.param.rsqlInvalidField", c.selector());
        }
    }

    private StringBuilder actionJson(StringBuilder sb, Action a, boolean single) {
        Shape s = shape;
        String self = base + "/rest/v1/targets/" + encode(a.target.id) + "/actions/" + a.id;
        sb.append("{\"createdBy\":\"bench\",\"createdAt\":").append(a.createdAt)
                .append(",\"lastModifiedBy\":\"bench\",\"lastModifiedAt\":")
                .append(s == Shape.V0_3 ? a.createdAt : a.history.get(a.history.size() - 1).reportedAt)
                .append(",\"type\":\"update\",\"status\":\"");
        if (s == Shape.V0_3) {
            sb.append(a.active ? "pending" : "finished").append('"');
        } else {
            sb.append(a.state).append("\",\"detailStatus\":\"").append(a.state).append("\",\"active\":")
                    .append(a.active);
        }
        sb.append(",\"_links\":{\"self\":{\"href\":");
        Json.str(sb, self).append('}');
        if (single) {
            sb.append(",\"distributionset\":{\"href\":\"").append(base).append("/rest/v1/distributionsets/")
                    .append(a.set.id).append("\"},\"status\":{\"href\":");
            Json.str(sb, self + "/status?offset=0&limit=50&sort=id:DESC").append('}');
        }
        sb.append("},\"id\":").append(a.id).append(",\"forceType\":\"").append(a.forceType).append("\"}");
        return sb;
    }

    private Reply statusList(Action a, Map<String, String> query) {
        List<StatusEntry> all = new ArrayList<>(a.history);
        Collections.reverse(all); // newest first, as hawkBit's own link asks (sort=id:DESC)
        int offset = offset(query);
        int limit = limit(query);
        int end = (int) Math.min(all.size(), (long) offset + limit);
        StringBuilder sb = new StringBuilder("{\"content\":[");
        for (int i = offset; i < end; i++) {
            StatusEntry e = all.get(i);
            if (i > offset) {
                sb.append(',');
            }
            sb.append("{\"type\":\"").append(e.type).append("\",\"messages\":[");
            if (e.message == null) {
                sb.append("null");
            } else {
                Json.str(sb, e.message);
            }
            sb.append("],\"reportedAt\":").append(e.reportedAt).append(",\"id\":").append(e.id).append('}');
        }
        return new Reply(200, sb.append("],\"total\":").append(all.size()).append(",\"size\":")
                .append(Math.max(0, end - offset)).append('}').toString());
    }

    // --------------------------------------------------------------------------------------------- helpers

    private static Rsql.Node parse(String q) {
        try {
            return RsqlEvaluator.parse(q);
        } catch (RsqlEvaluator.BadQuery e) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.rsqlSearchSyntax", e.getMessage());
        }
    }

    private static void checkFields(Rsql.Node node, Set<String> allowed, String what) {
        for (Rsql.Comparison c : Rsql.comparisons(node)) {
            String f = RsqlEvaluator.normalise(c.selector());
            int dot = f.indexOf('.');
            String head = dot < 0 ? f : f.substring(0, dot);
            boolean ok = allowed.contains(f)
                    || (head.equals("attribute") || head.equals("metadata")) && allowed.contains(head) && dot > 0;
            if (!ok) {
                throw new HttpError(400, "hawkbit.server.error.rest.param.rsqlInvalidField",
                        "The given search parameter field {" + c.selector() + "} does not exist, must be one of the"
                                + " following fields " + allowed + " (" + what + ")");
            }
        }
    }

    private static int offset(Map<String, String> query) {
        String v = query.get("offset");
        if (v == null) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.typeMismatch", "offset: " + v);
        }
    }

    /** hawkBit: default 50, below 1 → the default, above 500 → 500 (silently). */
    private static int limit(Map<String, String> query) {
        String v = query.get("limit");
        if (v == null) {
            return 50;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new HttpError(400, "hawkbit.server.error.rest.param.typeMismatch", "limit: " + v);
        }
        return n < 1 ? 50 : Math.min(n, MAX_PAGE);
    }

    private static Map<String, String> parseQuery(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Percent-decoding of a path segment ('+' stays '+'). */
    static String decodePath(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Minimal JSON string writing. */
    static final class Json {
        private Json() {
        }

        static StringBuilder str(StringBuilder sb, String s) {
            if (s == null) {
                return sb.append("null");
            }
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"':
                        sb.append("\\\"");
                        break;
                    case '\\':
                        sb.append("\\\\");
                        break;
                    case '\n':
                        sb.append("\\n");
                        break;
                    case '\r':
                        sb.append("\\r");
                        break;
                    case '\t':
                        sb.append("\\t");
                        break;
                    default:
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                }
            }
            return sb.append('"');
        }
    }

    /** Waits until no completion is queued before {@code within} passes (for tests). */
    public boolean awaitCompletions(Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            settle();
            if (due.isEmpty()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return due.isEmpty();
    }
}
