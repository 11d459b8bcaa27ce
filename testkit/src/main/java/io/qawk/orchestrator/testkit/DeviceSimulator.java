package io.qawk.orchestrator.testkit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;

import org.jboss.logging.Logger;

/**
 * Simulated devices speaking real DDI to a hawkBit (0.3.0M7 checked): hundreds of devices on a few threads (one
 * small scheduler + an asynchronous {@link HttpClient} on a small pool).
 * <p>
 * Each device:
 * <ul>
 * <li>is created as a hawkBit target by {@link #addDevices(List)} (Management API, bulk, random per-device security
 * token) and then polls {@code GET /{tenant}/controller/v1/{controllerId}} with {@code Authorization: TargetToken},
 * honouring {@code config.polling.sleep} (never faster than {@link #setMinPollInterval(Duration)});</li>
 * <li>sends its attributes ({@code PUT …/configData}, mode merge) on its first poll, whenever the poll answer has a
 * {@code configData} link, and at once after {@link #setAttributes(String, Map)} — and after it installed a set
 * {@link #reportAfterInstall(String, String, Map)} names, with that set's attributes merged in (as a device reports
 * its new version once it runs it);</li>
 * <li>runs a {@code deploymentBase} action once per action id: reads it, looks up the action's distribution set through
 * the Management API ({@code GET /rest/v1/targets/{id}/actions/{aid}} → {@code _links.distributionset} → id, then
 * {@code GET /rest/v1/distributionsets/{id}} → name/version, cached), sends {@code proceeding} feedback, and after the
 * behaviour's delay {@code closed} with {@code success} or {@code failure} per its {@link Behaviour};</li>
 * <li>confirms {@code cancelAction}s (GET, then {@code closed/success} feedback);</li>
 * <li>when {@link Behaviour#silent()}: sends nothing at all until its behaviour changes;</li>
 * <li>when {@link Behaviour#hold()}: polls and reports {@code proceeding}, but closes no action until its behaviour
 * changes.</li>
 * </ul>
 * Per-device records of what happened are available from {@link #history(String)}.
 */
public final class DeviceSimulator implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DeviceSimulator.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int CREATE_CHUNK = 250;
    private static final Duration ERROR_BACKOFF = Duration.ofSeconds(2);
    /** How often a held deployment ({@link Behaviour#hold()}) looks whether its device was let go. */
    private static final Duration HOLD_CHECK = Duration.ofMillis(250);

    private final String baseUrl;
    private final String tenant;
    private final MgmtHttp mgmt;
    private final HttpClient http;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService httpExecutor;
    private final Map<String, Device> devices = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<JsonNode>> setCache = new ConcurrentHashMap<>();
    private volatile Duration minPollInterval = Duration.ZERO;
    private volatile boolean closed;

    public DeviceSimulator(String baseUrl, String user, String password, String tenant) {
        this.baseUrl = MgmtHttp.stripSlash(Objects.requireNonNull(baseUrl, "baseUrl"));
        this.tenant = Objects.requireNonNull(tenant, "tenant");
        this.scheduler = Executors.newScheduledThreadPool(2, daemonThreads("ddi-sim-sched"));
        this.httpExecutor = Executors.newFixedThreadPool(3, daemonThreads("ddi-sim-http"));
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(httpExecutor)
                .build();
        this.mgmt = new MgmtHttp(this.baseUrl, user, password, http);
    }

    /** A simulator for the given server, tenant {@code DEFAULT}. */
    public DeviceSimulator(HawkbitServer server) {
        this(server.baseUrl(), server.user(), server.password(), server.tenant());
    }

    /** Lower bound for the poll interval (default 0: only hawkBit's {@code config.polling.sleep} counts). */
    public void setMinPollInterval(Duration min) {
        this.minPollInterval = Objects.requireNonNull(min);
    }

    // ------------------------------------------------------------------------------------------------ API -------

    /**
     * Creates the devices' targets in hawkBit (bulk {@code POST /rest/v1/targets}; a target that already exists
     * gets a new security token by {@code PUT /rest/v1/targets/{id}}) and starts them polling. Blocks until the
     * targets exist; polling starts spread over the first second.
     *
     * @throws IllegalArgumentException if a controller id is already simulated or given twice
     */
    public void addDevices(List<DeviceSpec> specs) {
        checkOpen();
        Set<String> seen = new HashSet<>();
        for (DeviceSpec s : specs) {
            if (!seen.add(s.controllerId()) || devices.containsKey(s.controllerId())) {
                throw new IllegalArgumentException("device already simulated: " + s.controllerId());
            }
        }
        List<Device> created = new ArrayList<>(specs.size());
        for (DeviceSpec s : specs) {
            created.add(new Device(s.controllerId(), newToken(), s.attributes(), s.behaviour()));
        }
        for (int i = 0; i < created.size(); i += CREATE_CHUNK) {
            createTargets(created.subList(i, Math.min(created.size(), i + CREATE_CHUNK)));
        }
        for (Device d : created) {
            devices.put(d.id, d);
        }
        for (Device d : created) {
            synchronized (d) {
                d.active = true;
            }
            schedulePoll(d, ThreadLocalRandom.current().nextLong(0, 1000));
        }
        LOG.infof("simulating %d more device(s), %d in all", created.size(), devices.size());
    }

    /** Changes a device's behaviour; a silent device set to another behaviour starts polling again at once. */
    public void setBehaviour(String controllerId, Behaviour behaviour) {
        Objects.requireNonNull(behaviour, "behaviour");
        Device d = device(controllerId);
        boolean wake;
        synchronized (d) {
            d.behaviour = behaviour;
            wake = behaviour.mode() != Behaviour.Mode.SILENT && !d.active && !closed;
            if (wake) {
                d.active = true;
            }
        }
        if (wake) {
            LOG.debugf("%s back online", controllerId);
            schedulePoll(d, 0);
        }
    }

    public Behaviour behaviour(String controllerId) {
        return device(controllerId).behaviour;
    }

    /**
     * Merges {@code changes} into the device's attributes and pushes them to hawkBit right away ({@code PUT configData},
     * mode merge) — unless the device is silent, then they are sent on its first poll after it comes back. Returns
     * when the push was answered (or at once for a silent device).
     *
     * @throws IllegalStateException if hawkBit refuses the attributes
     */
    public void setAttributes(String controllerId, Map<String, String> changes) {
        Device d = device(controllerId);
        synchronized (d) {
            d.attributes.putAll(changes);
            d.attributesDirty = true;
        }
        if (d.behaviour.mode() == Behaviour.Mode.SILENT) {
            return;
        }
        Integer status = pushAttributes(d).join();
        if (status == null || status / 100 != 2) {
            throw new IllegalStateException("hawkBit refused attributes of " + controllerId + ": HTTP " + status);
        }
    }

    /**
     * From now on, each time the device installs {@code setNameVersion} ({@code "name:version"}) successfully it merges
     * {@code attributes} into the attributes it reports and pushes them, right after its success feedback was taken;
     * a failed install reports nothing new. Given again for the same set, the newer attributes replace the older.
     * Change attributes at any other moment with {@link #setAttributes(String, Map)}.
     */
    public void reportAfterInstall(String controllerId, String setNameVersion, Map<String, String> attributes) {
        Objects.requireNonNull(setNameVersion, "setNameVersion");
        Device d = device(controllerId);
        synchronized (d) {
            d.afterInstall.put(setNameVersion, Map.copyOf(attributes));
        }
    }

    /** The attributes the device reports (a copy). */
    public Map<String, String> attributes(String controllerId) {
        Device d = device(controllerId);
        synchronized (d) {
            return Map.copyOf(d.attributes);
        }
    }

    /** What the device did, one record per action id, in the order the device first saw them. */
    public List<ActionRecord> history(String controllerId) {
        Device d = device(controllerId);
        synchronized (d) {
            return List.copyOf(d.history.values());
        }
    }

    /** The newest record of the device, if any. */
    public Optional<ActionRecord> lastAction(String controllerId) {
        List<ActionRecord> h = history(controllerId);
        return h.isEmpty() ? Optional.empty() : Optional.of(h.get(h.size() - 1));
    }

    public Set<String> controllerIds() {
        return Set.copyOf(devices.keySet());
    }

    /** Number of answered polls (any HTTP status) of the device. */
    public long pollCount(String controllerId) {
        return device(controllerId).polls.get();
    }

    public Optional<Instant> lastPoll(String controllerId) {
        return Optional.ofNullable(device(controllerId).lastPoll);
    }

    /** Failed DDI requests of the device (I/O errors and unexpected HTTP statuses). */
    public long errorCount(String controllerId) {
        return device(controllerId).errors.get();
    }

    /** The device's last error (see {@link #errorCount(String)}), if any. */
    public Optional<String> lastError(String controllerId) {
        return Optional.ofNullable(device(controllerId).lastError);
    }

    private static void error(Device d, String what) {
        d.errors.incrementAndGet();
        d.lastError = Instant.now() + " " + what;
        LOG.debugf("%s: %s", d.id, what);
    }

    /** Stops all devices (no further requests; hawkBit targets are left as they are). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.shutdownNow();
        httpExecutor.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
            httpExecutor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.infof("device simulator stopped (%d devices)", devices.size());
    }

    // ----------------------------------------------------------------------------------------- targets ----------

    private void createTargets(List<Device> chunk) {
        List<Map<String, String>> body = new ArrayList<>(chunk.size());
        for (Device d : chunk) {
            body.add(Map.of("controllerId", d.id, "name", d.id, "securityToken", d.token));
        }
        MgmtHttp.Response r = mgmt.post("/rest/v1/targets", body);
        if (r.status() == 201) {
            return;
        }
        if (r.status() != 409) {
            r.requireOk("POST /rest/v1/targets (" + chunk.size() + " targets)");
            return;
        }
        // some exist already: one by one, re-keying existing targets with our token
        for (Device d : chunk) {
            MgmtHttp.Response one = mgmt.post("/rest/v1/targets",
                    List.of(Map.of("controllerId", d.id, "name", d.id, "securityToken", d.token)));
            if (one.status() == 409) {
                mgmt.put("/rest/v1/targets/" + MgmtHttp.enc(d.id), Map.of("securityToken", d.token))
                        .requireOk("PUT /rest/v1/targets/" + d.id);
            } else {
                one.requireOk("POST /rest/v1/targets (" + d.id + ")");
            }
        }
    }

    // ------------------------------------------------------------------------------------------- polling --------

    private void schedulePoll(Device d, long delayMs) {
        if (closed) {
            return;
        }
        try {
            scheduler.schedule(() -> poll(d), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private void poll(Device d) {
        if (closed) {
            return;
        }
        synchronized (d) {
            if (d.behaviour.mode() == Behaviour.Mode.SILENT) {
                d.active = false; // parked until setBehaviour wakes it
                LOG.debugf("%s is silent", d.id);
                return;
            }
        }
        ddi(d, "GET", controllerUrl(d), null).whenComplete((resp, err) -> {
            long nextMs;
            try {
                nextMs = onPollAnswer(d, resp, err);
            } catch (RuntimeException e) {
                LOG.warnf(e, "%s: poll answer handling failed", d.id);
                error(d, "poll answer handling failed: " + e);
                nextMs = ERROR_BACKOFF.toMillis();
            }
            schedulePoll(d, Math.max(nextMs, minPollInterval.toMillis()));
        });
    }

    private long onPollAnswer(Device d, HttpResponse<String> resp, Throwable err) {
        if (err != null) {
            error(d, "poll failed: " + err);
            return ERROR_BACKOFF.toMillis();
        }
        d.polls.incrementAndGet();
        d.lastPoll = Instant.now();
        if (resp.statusCode() != 200) {
            error(d, "poll answered HTTP " + resp.statusCode() + ": " + MgmtHttp.abbreviate(resp.body()));
            return ERROR_BACKOFF.toMillis();
        }
        JsonNode body = MgmtHttp.parse(resp.body());
        Duration sleep = parseSleep(body.path("config").path("polling").path("sleep").asText(null));
        d.sleep = sleep;
        JsonNode links = body.path("_links");

        boolean sendAttributes;
        synchronized (d) {
            sendAttributes = !d.attributesSent || d.attributesDirty || links.has("configData");
        }
        if (sendAttributes) {
            pushAttributes(d);
        }
        String cancel = links.path("cancelAction").path("href").asText(null);
        if (cancel != null) {
            handleCancel(d, cancel);
        }
        String deployment = links.path("deploymentBase").path("href").asText(null);
        if (deployment != null) {
            handleDeployment(d, deployment);
        }
        return sleep.toMillis();
    }

    private CompletableFuture<Integer> pushAttributes(Device d) {
        Map<String, Object> body;
        synchronized (d) {
            d.attributesDirty = false;
            d.attributesSent = true;
            body = Map.of("mode", "merge", "data", new LinkedHashMap<>(d.attributes));
        }
        return ddi(d, "PUT", controllerUrl(d) + "/configData", body).handle((r, e) -> {
            if (e != null || r.statusCode() / 100 != 2) {
                error(d, "configData failed: " + (e != null ? e.toString()
                        : "HTTP " + r.statusCode() + ": " + MgmtHttp.abbreviate(r.body())));
                synchronized (d) {
                    d.attributesDirty = true; // retry on next poll
                }
                return e != null ? null : r.statusCode();
            }
            return r.statusCode();
        });
    }

    // --------------------------------------------------------------------------------------- deployments --------

    private void handleDeployment(Device d, String href) {
        long aid = MgmtHttp.lastId(href);
        Instant now = Instant.now();
        Behaviour behaviour;
        synchronized (d) {
            if (!d.handled.add(aid)) {
                return; // already running or done
            }
            ActionRecord previous = d.history.get(aid);
            if (previous != null && previous.outcome() == ActionRecord.Outcome.CANCELED) {
                return;
            }
            d.history.put(aid, new ActionRecord(aid, ActionRecord.Kind.DEPLOYMENT, null, null, null, List.of(), now,
                    null, ActionRecord.Outcome.RUNNING, null));
            behaviour = d.behaviour;
        }
        LOG.debugf("%s: deployment action %d", d.id, aid);
        CompletableFuture<List<String>> modules = ddi(d, "GET", href, null).thenApply(r -> {
            if (r.statusCode() != 200) {
                throw new IllegalStateException("deploymentBase answered HTTP " + r.statusCode());
            }
            List<String> m = new ArrayList<>();
            for (JsonNode c : MgmtHttp.parse(r.body()).path("deployment").path("chunks")) {
                m.add(c.path("part").asText() + "/" + c.path("name").asText() + ":" + c.path("version").asText());
            }
            return m;
        });
        CompletableFuture<JsonNode> set = lookupSet(d.id, aid);
        modules.thenCombine(set, (m, s) -> {
            update(d, aid, rec -> new ActionRecord(rec.actionId(), rec.kind(), s.path("id").asLong(),
                    s.path("name").asText(null), s.path("version").asText(null), List.copyOf(m), rec.receivedAt(),
                    rec.finishedAt(), rec.outcome(), rec.detail()));
            return s;
        }).thenCompose(s -> feedback(d, "deploymentBase", aid, "proceeding", "none",
                "qawk simulator: installing " + s.path("name").asText() + ":" + s.path("version").asText()))
                .whenComplete((r, e) -> {
                    if (e != null || r.statusCode() != 200) {
                        String why = e != null ? String.valueOf(e.getCause() != null ? e.getCause() : e)
                                : "proceeding feedback answered HTTP " + r.statusCode() + ": "
                                        + MgmtHttp.abbreviate(r.body());
                        error(d, "action " + aid + " start failed: " + why);
                        boolean gone = e == null && r.statusCode() == 410;
                        synchronized (d) {
                            ActionRecord rec = d.history.get(aid);
                            if (rec != null && rec.outcome() == ActionRecord.Outcome.RUNNING) {
                                d.history.put(aid, rec.with(gone ? ActionRecord.Outcome.FEEDBACK_REJECTED
                                        : ActionRecord.Outcome.RUNNING, null, why));
                            }
                            if (!gone) {
                                d.handled.remove(aid); // retry on a later poll
                            }
                        }
                        return;
                    }
                    try {
                        scheduler.schedule(() -> finishDeployment(d, aid), behaviour.delay().toMillis(),
                                TimeUnit.MILLISECONDS);
                    } catch (RejectedExecutionException closing) {
                        // closed
                    }
                });
    }

    private void finishDeployment(Device d, long aid) {
        if (closed) {
            return;
        }
        ActionRecord rec;
        Behaviour b;
        synchronized (d) {
            rec = d.history.get(aid);
            b = d.behaviour;
            if (rec == null || rec.outcome() != ActionRecord.Outcome.RUNNING) {
                return; // canceled meanwhile
            }
            if (b.mode() == Behaviour.Mode.SILENT) {
                d.history.put(aid, rec.with(ActionRecord.Outcome.ABANDONED, null, "device went silent"));
                d.handled.remove(aid); // re-run once it is back
                return;
            }
            if (b.mode() == Behaviour.Mode.HOLD) {
                try {
                    scheduler.schedule(() -> finishDeployment(d, aid), HOLD_CHECK.toMillis(), TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException closing) {
                    // closed
                }
                return;
            }
        }
        boolean fail = b.failsFor(rec.distributionSetId(), rec.distributionSetName(), rec.distributionSetVersion());
        String set = rec.distributionSet() + " (id " + rec.distributionSetId() + ")";
        feedback(d, "deploymentBase", aid, "closed", fail ? "failure" : "success",
                fail ? "qawk simulator: installation of " + set + " failed (behaviour " + b.mode() + ")"
                        : "qawk simulator: " + set + " installed")
                .whenComplete((r, e) -> {
                    synchronized (d) {
                        ActionRecord cur = d.history.get(aid);
                        if (cur == null || cur.outcome() != ActionRecord.Outcome.RUNNING) {
                            return;
                        }
                        if (e == null && r.statusCode() == 200) {
                            d.history.put(aid, cur.with(fail ? ActionRecord.Outcome.FAILURE
                                    : ActionRecord.Outcome.SUCCESS, Instant.now(), null));
                            Map<String, String> report = fail ? null
                                    : d.afterInstall.get(Behaviour.key(cur.distributionSetName(), cur.distributionSetVersion()));
                            if (report != null) {
                                d.attributes.putAll(report);
                                d.attributesDirty = true;
                                pushAttributes(d); // asynchronous; a failed push is retried on the next poll
                            }
                        } else if (e == null && r.statusCode() == 410) {
                            d.history.put(aid, cur.with(ActionRecord.Outcome.FEEDBACK_REJECTED, null,
                                    "final feedback answered HTTP 410 (action closed)"));
                        } else {
                            String why = "final feedback failed: " + (e != null ? e.toString()
                                    : "HTTP " + r.statusCode() + ": " + MgmtHttp.abbreviate(r.body()));
                            error(d, "action " + aid + " " + why);
                            d.history.put(aid, cur.with(ActionRecord.Outcome.RUNNING, null, why));
                            d.handled.remove(aid); // a later poll retries the whole action
                        }
                    }
                });
        LOG.debugf("%s: action %d -> %s", d.id, aid, fail ? "failure" : "success");
    }

    private void handleCancel(Device d, String href) {
        long cid = MgmtHttp.lastId(href);
        synchronized (d) {
            if (!d.handledCancels.add(cid)) {
                return;
            }
        }
        LOG.debugf("%s: cancel action %d", d.id, cid);
        ddi(d, "GET", href, null).thenCompose(r -> {
            if (r.statusCode() != 200) {
                throw new IllegalStateException("cancelAction answered HTTP " + r.statusCode());
            }
            long stopId = MgmtHttp.parse(r.body()).path("cancelAction").path("stopId").asLong(cid);
            return lookupSet(d.id, cid).handle((s, e) -> s).thenCompose(s -> feedback(d, "cancelAction", cid, "closed",
                    "success", "qawk simulator: canceled action " + stopId).thenApply(fr -> {
                        if (fr.statusCode() != 200) {
                            throw new IllegalStateException("cancel feedback answered HTTP " + fr.statusCode());
                        }
                        synchronized (d) {
                            ActionRecord rec = d.history.get(stopId);
                            if (rec == null) {
                                rec = new ActionRecord(stopId, ActionRecord.Kind.CANCEL, null, null, null, List.of(),
                                        Instant.now(), null, ActionRecord.Outcome.RUNNING, null);
                            }
                            if (rec.distributionSetId() == null && s != null) {
                                rec = rec.withSet(s.path("id").asLong(), s.path("name").asText(null),
                                        s.path("version").asText(null));
                            }
                            d.history.put(stopId, rec.with(ActionRecord.Outcome.CANCELED, Instant.now(), null));
                            d.handled.add(stopId);
                        }
                        return fr;
                    }));
        }).whenComplete((r, e) -> {
            if (e != null) {
                error(d, "cancel " + cid + " failed: " + e);
                synchronized (d) {
                    d.handledCancels.remove(cid); // retry on a later poll
                }
            }
        });
    }

    /** The action's distribution set (Management API), cached per set id. */
    private CompletableFuture<JsonNode> lookupSet(String controllerId, long actionId) {
        return mgmt.getAsync("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/actions/" + actionId)
                .thenCompose(r -> {
                    r.requireOk("GET action " + actionId + " of " + controllerId);
                    String href = r.body().path("_links").path("distributionset").path("href").asText(null);
                    if (href == null) {
                        throw new IllegalStateException("action " + actionId + " has no distributionset link");
                    }
                    long setId = MgmtHttp.lastId(href);
                    CompletableFuture<JsonNode> cached = setCache.computeIfAbsent(setId,
                            id -> mgmt.getAsync("/rest/v1/distributionsets/" + id)
                                    .thenApply(sr -> sr.requireOk("GET distribution set " + id).body()));
                    return cached.whenComplete((s, e) -> {
                        if (e != null) {
                            setCache.remove(setId, cached);
                        }
                    });
                });
    }

    private CompletableFuture<HttpResponse<String>> feedback(Device d, String kind, long actionId, String execution,
            String finished, String detail) {
        Map<String, Object> status = Map.of("execution", execution, "result", Map.of("finished", finished),
                "details", List.of(detail));
        return ddi(d, "POST", controllerUrl(d) + "/" + kind + "/" + actionId + "/feedback",
                Map.of("id", actionId, "status", status));
    }

    // ------------------------------------------------------------------------------------------- helpers --------

    private CompletableFuture<HttpResponse<String>> ddi(Device d, String method, String url, Object body) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("simulator closed"));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "TargetToken " + d.token)
                .header("Accept", "application/hal+json, application/json");
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, MgmtHttp.json(body));
        }
        try {
            return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private String controllerUrl(Device d) {
        return baseUrl + "/" + MgmtHttp.enc(tenant) + "/controller/v1/" + MgmtHttp.enc(d.id);
    }

    private Device device(String controllerId) {
        Device d = devices.get(controllerId);
        if (d == null) {
            throw new IllegalArgumentException("unknown device: " + controllerId);
        }
        return d;
    }

    private void update(Device d, long aid, UnaryOperator<ActionRecord> f) {
        synchronized (d) {
            ActionRecord rec = d.history.get(aid);
            if (rec != null) {
                d.history.put(aid, f.apply(rec));
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("simulator closed");
        }
    }

    /** hawkBit's {@code HH:MM:SS}; 1 s floor. */
    static Duration parseSleep(String hhmmss) {
        if (hhmmss == null) {
            return Duration.ofSeconds(1);
        }
        try {
            String[] p = hhmmss.split(":");
            Duration d = Duration.ofHours(Long.parseLong(p[0])).plusMinutes(Long.parseLong(p[1]))
                    .plusSeconds(Long.parseLong(p[2]));
            return d.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : d;
        } catch (RuntimeException e) {
            return Duration.ofSeconds(1);
        }
    }

    private static String newToken() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Mutable state of one simulated device; guarded by its own monitor unless volatile/atomic. */
    private static final class Device {
        final String id;
        final String token;
        final Map<String, String> attributes;
        /** Attributes to report once a set ({@code name:version}) is installed. */
        final Map<String, Map<String, String>> afterInstall = new HashMap<>();
        volatile Behaviour behaviour;
        boolean active; // a poll is scheduled or in flight
        boolean attributesSent;
        boolean attributesDirty = true;
        final Map<Long, ActionRecord> history = new LinkedHashMap<>();
        final Set<Long> handled = new HashSet<>();
        final Set<Long> handledCancels = new HashSet<>();
        final AtomicLong polls = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        volatile Instant lastPoll;
        volatile String lastError;
        volatile Duration sleep = Duration.ofSeconds(1);

        Device(String id, String token, Map<String, String> attributes, Behaviour behaviour) {
            this.id = id;
            this.token = token;
            this.attributes = new LinkedHashMap<>(attributes);
            this.behaviour = behaviour;
        }
    }
}
