package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.audit.AuditCommand;
import io.qawk.orchestrator.audit.AuditLog;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.RunRecords;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitAction;
import io.qawk.orchestrator.hawkbit.HawkbitAutoAssignment;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.HawkbitRollout;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.inventory.InventorySynced;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.GuardMode;
import io.qawk.orchestrator.systemtype.SystemType;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The guard: after every inventory sync, reads what hawkBit is about to do outside Qawk (rollouts that are not
 * finished, target filters with an auto-assigned set, open actions on members that no Qawk run made), works out which
 * system members each would move and what those systems would then run ({@link ThreatJudge}), stores the threats,
 * and, for a type with {@code guard: hold}, stops those that would break a rule or leave a system mixed as far as
 * hawkBit lets a client: a running rollout is paused once, a rollout waiting for approval is denied, an auto-assignment
 * is switched off (its set kept), and open actions on the members it would break are cancelled. Each hold is stored,
 * in the audit listing with its reason, and may be released by a person ({@link ThreatResource}).
 * <p>
 * hawkBit requests: the rollouts and the target filters (paged), one target query per rollout or filter (remembered
 * while its last-modified time stays, at most {@code qawk.guard.targets-max-age}), one action list per member with a
 * foreign assignment (at most {@code qawk.guard.max-assignments} a pass), and the holds' own calls. hawkBit being
 * down skips the pass and leaves the last threats as they were. Only one replica acts at a time (an advisory lock).
 * <p>
 * One class, long by the number of hawkBit's ways to move a device: reading, judging and holding share one pass's
 * request count, its advisory lock and its order; its pure judgement is ThreatJudge's, its tables ThreatStore's.
 */
@ApplicationScoped
public class GuardPass {

    private static final Logger LOG = Logger.getLogger(GuardPass.class);
    /** Who the audit listing says did what the guard did. */
    public static final String ACTOR = "qawk-guard";

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    ThreatStore store;

    @Inject
    AuditLog audit;

    @Inject
    GuardMetrics metrics;

    @Inject
    Clock clock;

    @Inject
    RunRecords runs;


    @ConfigProperty(name = "qawk.guard.enabled", defaultValue = "true")
    boolean enabled;

    @ConfigProperty(name = "qawk.guard.max-assignments", defaultValue = "100")
    int maxAssignments;

    @ConfigProperty(name = "qawk.guard.targets-max-age", defaultValue = "5m")
    Duration targetsMaxAge;

    /** The targets of a rollout or filter as hawkBit last answered its query, and when. */
    private record Targets(Instant lastModifiedAt, Instant readAt, Set<String> ids) {
    }

    private final Map<String, Targets> targets = new ConcurrentHashMap<>();
    private volatile Report last = new Report(null, 0, 0, 0, List.of(), null);

    /**
     * What the last pass did: when, threats found, holds made, hawkBit requests, what it could not see into
     * ({@code blindTo}: rollouts without a target query, whose groups were given by hand); {@code error} when it failed.
     */
    public record Report(Instant at, int threats, int holds, int requests, List<String> blindTo, String error) {
    }

    /**
     * What the guard sees of the connected hawkBit beyond its work: whether the tenant's rollout approval is on (null:
     * hawkBit did not say), read every pass; whether hawkBit keeps auto-assignments as objects of their own, which the
     * guard does not read (null: its answer did not tell), probed at most once per {@code qawk.guard.targets-max-age}.
     */
    public record Sight(Boolean rolloutApproval, Boolean autoAssignmentObjects, Instant probedAt) {

        /** The readiness details' words on auto-assignments. */
        public String autoAssignmentsInWords() {
            String read = "target filters' auto-assigned sets, read; ";
            if (autoAssignmentObjects == null) {
                return read + "whether this hawkBit keeps auto-assignment objects of its own is unknown (its answer to"
                        + " GET /rest/v1/autoassignments did not tell)";
            }
            return read + (autoAssignmentObjects
                    ? "this hawkBit's auto-assignment objects (/rest/v1/autoassignments) are not read: their work is"
                    + " seen only as open actions on members"
                    : "this hawkBit has no auto-assignment objects of its own (GET /rest/v1/autoassignments: not found,"
                    + " as on 0.3.0M7 and 1.1.0)");
        }

        /** The readiness details' words on rollout approval. */
        public String rolloutApprovalInWords() {
            if (rolloutApproval == null) {
                return "unknown: hawkBit did not say (reading rollout.approval.enabled needs TENANT_CONFIGURATION), so"
                        + " a held rollout is paused once it runs";
            }
            return rolloutApproval ? "on: a rollout waiting for approval that would break a system of a type with"
                    + " guard: hold is denied" : "off: rollouts start without approval; a held one is paused once it"
                    + " runs";
        }

        /** What of this the guard cannot see, for {@code guardCannotSee}; empty when it sees all of it. */
        Optional<String> blind() {
            if (Boolean.FALSE.equals(autoAssignmentObjects)) {
                return Optional.empty();
            }
            return Optional.of(autoAssignmentObjects == null
                    ? "auto-assignment objects of hawkBit's own, if it keeps any: not read (GET /rest/v1/autoassignments"
                    + " did not tell)"
                    : "hawkBit's auto-assignment objects (/rest/v1/autoassignments): not read, their work is seen only"
                    + " as open actions on members");
        }
    }

    private volatile Sight sight = new Sight(null, null, null);

    /** What the last pass saw of hawkBit beyond its work. */
    public Sight sight() {
        return sight;
    }

    /** Reads the approval setting (each pass) and probes for auto-assignment objects (once per maximum age). */
    private void look(Instant now, int[] requests, List<String> blind) {
        Sight before = sight;
        Boolean objects = before.autoAssignmentObjects();
        Instant probedAt = before.probedAt();
        if (probedAt == null || !probedAt.plus(targetsMaxAge).isAfter(now)) {
            objects = hawkbit.autoAssignmentObjects().orElse(null);
            probedAt = now;
            requests[0]++;
        }
        Boolean approval = hawkbit.rolloutApproval().orElse(null);
        requests[0]++;
        Sight seen = new Sight(approval, objects, probedAt);
        sight = seen;
        seen.blind().ifPresent(blind::add);
    }

    void synced(@Observes InventorySynced synced) {
        if (!enabled || !hawkbit.isConfigured()) {
            return;
        }
        try {
            pass();
        } catch (HawkbitUnavailableException e) {
            last = new Report(clock.instant(), last.threats(), 0, 0, last.blindTo(),
                    "hawkBit is unavailable: " + e.getMessage());
            LOG.warnf("Guard pass skipped: hawkBit is unavailable (%s)", e.getMessage());
        } catch (RuntimeException e) {
            last = new Report(clock.instant(), last.threats(), 0, 0, last.blindTo(), e.getMessage());
            LOG.error("Guard pass failed", e);
        }
    }

    public Report last() {
        return last;
    }

    /** One pass: read hawkBit, judge, hold, store. */
    public Report pass() {
        // under a request budget, the engine's requests go first (HawkbitGateway#later)
        return HawkbitGateway.later(this::judge);
    }

    private Report judge() {
        Instant now = clock.instant();
        Map<Long, TypeInfo> types = QuarkusTransaction.requiringNew().call(() -> SystemType.<SystemType>listAll()
                .stream().collect(Collectors.toMap(t -> t.id, t -> new TypeInfo(t.name, t.compatibility(), t.guard))));
        int[] requests = {0};
        List<PendingWork> work = new ArrayList<>();
        List<String> blind = new ArrayList<>();
        if (!types.isEmpty()) {
            look(now, requests, blind);
            List<HawkbitRollout> rollouts = hawkbit.openRollouts();
            List<HawkbitAutoAssignment> autos = hawkbit.autoAssignments();
            requests[0] += 2;
            Set<String> seen = new HashSet<>();
            for (HawkbitRollout r : rollouts) {
                if (r.distributionSetId() == null) {
                    continue;
                }
                if (r.targetQuery() == null || r.targetQuery().isBlank()) {
                    blind.add("rollout " + r.name() + " (#" + r.id() + "): no target query, its targets are not read");
                }
                Optional<Set<String>> ids = readable("rollout " + r.name() + " (#" + r.id() + ")", blind,
                        () -> targetsOf("r" + r.id(), r.lastModifiedAt(), r.targetQuery(), now, requests, seen));
                setLabel(r.distributionSetId()).ifPresent(set -> ids.ifPresent(t -> work.add(new PendingWork(
                        ThreatSource.ROLLOUT, r.id(), r.name(), r.status(), r.distributionSetId(), set, t))));
            }
            for (HawkbitAutoAssignment a : autos) {
                autoActionTypes.put(a.filterId(), a.actionType() == null ? "forced" : a.actionType());
                Optional<Set<String>> ids = readable("target filter " + a.name() + " (#" + a.filterId() + ")", blind,
                        () -> targetsOf("f" + a.filterId(), a.lastModifiedAt(), a.query(), now, requests, seen));
                setLabel(a.distributionSetId()).ifPresent(set -> ids.ifPresent(t -> work.add(new PendingWork(
                        ThreatSource.AUTO_ASSIGNMENT, a.filterId(), a.name(), "active", a.distributionSetId(), set, t))));
            }
            targets.keySet().retainAll(seen);
            work.addAll(foreignAssignments(work, requests));
        }
        Set<String> devices = new HashSet<>();
        work.forEach(w -> devices.addAll(w.targets()));
        Map<SystemNow.Key, List<SystemNow.Member>> members = store.systemsHolding(devices);
        Map<String, List<SystemNow>> systemsOf = new HashMap<>();
        members.forEach((key, list) -> {
            TypeInfo type = types.get(key.systemTypeId());
            if (type == null) {
                return;
            }
            SystemNow system = new SystemNow(key.systemTypeId(), type.name(), key.system(), type.rules(), type.guard(),
                    list);
            list.forEach(m -> systemsOf.computeIfAbsent(m.device(), k -> new ArrayList<>()).add(system));
        });
        List<Threat> threats = new ArrayList<>();
        for (PendingWork w : work) {
            Map<SystemNow.Key, SystemNow> touched = new LinkedHashMap<>();
            w.targets().forEach(d -> systemsOf.getOrDefault(d, List.of()).forEach(s -> touched.put(s.key(), s)));
            ThreatJudge.judge(w, touched.values()).ifPresent(threats::add);
        }
        int[] holds = {0};
        QuarkusTransaction.requiringNew().run(() -> {
            if (!store.tryLock()) {
                LOG.debug("Guard pass: another replica's guard is at work");
                return;
            }
            List<ThreatStore.Hold> known = store.holds();
            List<ThreatStore.StoredThreat> stored = new ArrayList<>();
            for (Threat t : threats) {
                stored.add(new ThreatStore.StoredThreat(t, act(t, known, now, holds, requests)));
            }
            stored.addAll(switchedOff(known, threats));
            store.replaceThreats(stored, now);
        });
        metrics.refresh();
        last = new Report(now, threats.size(), holds[0], requests[0], List.copyOf(blind), null);
        if (!threats.isEmpty()) {
            LOG.debugf("Guard pass: %d threats, %d holds, %d hawkBit requests", threats.size(), holds[0], requests[0]);
        }
        return last;
    }

    private record TypeInfo(String name, CompatibilityRules rules, GuardMode guard) {
    }

    /** The targets of one rollout or filter; one whose query hawkBit refuses is said, and the others still judged. */
    private static Optional<Set<String>> readable(String what, List<String> blind,
                                                  Supplier<Set<String>> read) {
        try {
            return Optional.of(read.get());
        } catch (HawkbitRequestException e) {
            blind.add(what + ": hawkBit refused its query (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    private Optional<String> setLabel(long setId) {
        return hawkbit.knownDistributionSet(setId).map(DistributionSetRef::label);
    }

    /** The query's targets, read again only when the object changed or the answer is older than the maximum age. */
    private Set<String> targetsOf(String key, Instant lastModifiedAt, String query, Instant now, int[] requests,
                                  Set<String> seen) {
        seen.add(key);
        if (query == null || query.isBlank()) {
            return Set.of();
        }
        Targets known = targets.get(key);
        if (known != null && Objects.equals(known.lastModifiedAt(), lastModifiedAt)
                && known.readAt().plus(targetsMaxAge).isAfter(now)) {
            return known.ids();
        }
        Set<String> ids = new HashSet<>();
        hawkbit.forEachTargetPage(query, page -> page.forEach(t -> ids.add(t.controllerId())));
        requests[0]++;
        targets.put(key, new Targets(lastModifiedAt, now, Set.copyOf(ids)));
        return ids;
    }

    /** Open actions on members that no Qawk run and no listed rollout or auto-assignment explains. */
    private List<PendingWork> foreignAssignments(List<PendingWork> explained, int[] requests) {
        List<PendingWork> out = new ArrayList<>();
        for (ThreatStore.ForeignAssignment f : store.foreignAssignments(maxAssignments)) {
            boolean byKnownWork = explained.stream().anyMatch(w -> w.setId() == f.setId()
                    && w.targets().contains(f.device()));
            if (byKnownWork) {
                continue;
            }
            List<HawkbitAction> open = hawkbit.openActions(f.device());
            requests[0]++;
            open.stream().filter(a -> a.distributionSetId() == null || a.distributionSetId() == f.setId())
                    .findFirst().ifPresent(a -> out.add(new PendingWork(ThreatSource.ASSIGNMENT, a.id(),
                            "assignment of " + f.set() + " to " + f.device(), "open", f.setId(), f.set(),
                            Set.of(f.device()))));
        }
        return out;
    }

    /** What to do about one threat; returns what it now is (watched, held, cancelled). */
    private ThreatAction act(Threat t, List<ThreatStore.Hold> known, Instant now, int[] holds, int[] requests) {
        PendingWork w = t.work();
        List<ThreatStore.Hold> mine = known.stream()
                .filter(h -> h.source() == w.source() && h.hawkbitId() == w.hawkbitId()).toList();
        if (!t.holdable() || mine.stream().anyMatch(ThreatStore.Hold::released)) {
            return ThreatAction.WATCHED;
        }
        List<Threat.AtSystem> held = t.heldSystems();
        String why = why(held);
        return switch (w.source()) {
            case ROLLOUT -> holdRollout(t, mine, held, why, now, holds, requests);
            case AUTO_ASSIGNMENT -> {
                boolean off = mine.stream().anyMatch(h -> h.what() == HoldKind.SWITCHED_OFF);
                if (!off) {
                    requests[0]++;
                    if (hawkbit.switchOffAutoAssignment(w.hawkbitId())) {
                        String reason = "switched off the auto-assignment of " + w.set() + " on hawkBit target filter "
                                + w.name() + ": " + why;
                        hold(w, HoldKind.SWITCHED_OFF, null, null, reason, held, t.systems(), now, "autoAssignDS",
                                "DELETE", "/rest/v1/targetfilters/" + w.hawkbitId() + "/autoAssignDS", 204);
                        holds[0]++;
                    }
                }
                cancelOpenActions(t, held, known, now, holds, requests);
                yield ThreatAction.HELD;
            }
            case ASSIGNMENT -> {
                String device = held.get(0).members().get(0);
                if (mine.stream().noneMatch(h -> h.what() == HoldKind.CANCELLED)) {
                    requests[0]++;
                    if (hawkbit.cancelAction(device, w.hawkbitId())) {
                        hold(w, HoldKind.CANCELLED, device, w.hawkbitId(), "cancelled hawkBit action " + w.hawkbitId()
                                + " (" + w.set() + ") on " + device + ": " + why, held, t.systems(), now, "cancel",
                                "DELETE",
                                "/rest/v1/targets/" + device + "/actions/" + w.hawkbitId(), 204);
                        holds[0]++;
                    }
                }
                yield ThreatAction.CANCELLED;
            }
        };
    }

    private ThreatAction holdRollout(Threat t, List<ThreatStore.Hold> mine, List<Threat.AtSystem> held, String why,
                                     Instant now, int[] holds, int[] requests) {
        PendingWork w = t.work();
        Optional<ThreatStore.Hold> paused = mine.stream().filter(h -> h.what() == HoldKind.PAUSED).findFirst();
        boolean denied = mine.stream().anyMatch(h -> h.what() == HoldKind.DENIED);
        if ("waiting_for_approval".equals(w.status()) && !denied) {
            String reason = "denied hawkBit rollout " + w.name() + ": " + why;
            requests[0]++;
            if (hawkbit.denyRollout(w.hawkbitId(), abbreviate(reason, 250))) {
                hold(w, HoldKind.DENIED, null, null, reason, held, t.systems(), now, "deny", "POST",
                        "/rest/v1/rollouts/" + w.hawkbitId() + "/deny", 200);
                holds[0]++;
            }
            return ThreatAction.HELD;
        }
        boolean moving = "running".equals(w.status()) || "starting".equals(w.status());
        if (moving && paused.isPresent()) {
            // paused once; someone resumed it in hawkBit since: theirs to answer for now
            store.release(paused.get().id(), "resumed in hawkBit", now);
            return ThreatAction.WATCHED;
        }
        if (moving) {
            String member = held.get(0).members().get(0);
            Optional<String> group = hawkbit.rolloutGroupOf(w.hawkbitId(), member);
            requests[0] += 2;
            String reason = "paused hawkBit rollout " + w.name() + ": " + group.map(g -> "its " + g + " holds ")
                    .orElse("it would move ") + member + " of " + held.get(0).system() + ", and then " + why;
            requests[0]++;
            if (!hawkbit.pauseRollout(w.hawkbitId())) {
                return ThreatAction.WATCHED;
            }
            hold(w, HoldKind.PAUSED, null, null, reason, held, t.systems(), now, "pause", "POST",
                    "/rest/v1/rollouts/" + w.hawkbitId() + "/pause", 200);
            holds[0]++;
            cancelOpenActions(t, held, List.of(), now, holds, requests);
            return ThreatAction.HELD;
        }
        if (paused.isPresent() && "paused".equals(w.status())) {
            cancelOpenActions(t, held, mine, now, holds, requests);
            return ThreatAction.HELD;
        }
        return denied ? ThreatAction.HELD : ThreatAction.WATCHED;
    }

    /**
     * Cancels the work's open actions on the members it would break (each once), while their devices have not finished;
     * each cancellation says what it keeps that device's own system from.
     */
    private void cancelOpenActions(Threat t, List<Threat.AtSystem> held, List<ThreatStore.Hold> known, Instant now,
                                   int[] holds, int[] requests) {
        PendingWork w = t.work();
        Set<Long> cancelled = known.stream().filter(h -> h.what() == HoldKind.CANCELLED && h.actionId() != null)
                .map(ThreatStore.Hold::actionId).collect(Collectors.toSet());
        Set<String> qawks = store.drivenByQawk(held.stream().flatMap(s -> s.members().stream()).toList());
        for (Threat.AtSystem s : held) {
            for (String device : s.members()) {
                if (qawks.contains(device)) {
                    continue;
                }
                requests[0]++;
                for (HawkbitAction a : hawkbit.openActions(device)) {
                    if (cancelled.contains(a.id())
                            || a.distributionSetId() != null && a.distributionSetId() != w.setId()) {
                        continue;
                    }
                    requests[0]++;
                    if (hawkbit.cancelAction(device, a.id())) {
                        hold(w, HoldKind.CANCELLED, device, a.id(), "cancelled hawkBit action " + a.id() + " ("
                                + w.set() + ") on " + device + " of " + label(w) + ": " + s.breaks().reason(), List.of(s),
                                List.of(only(s, device)), now, "cancel", "DELETE",
                                "/rest/v1/targets/" + device + "/actions/" + a.id(), 204);
                        holds[0]++;
                    }
                }
            }
        }
    }

    /** Auto-assignments the guard switched off are no longer hawkBit's threats but stay listed as held. */
    private List<ThreatStore.StoredThreat> switchedOff(List<ThreatStore.Hold> known, List<Threat> current) {
        Set<Long> listed = current.stream().filter(t -> t.work().source() == ThreatSource.AUTO_ASSIGNMENT)
                .map(t -> t.work().hawkbitId()).collect(Collectors.toSet());
        List<ThreatStore.StoredThreat> out = new ArrayList<>();
        for (ThreatStore.Hold h : known) {
            if (h.what() == HoldKind.SWITCHED_OFF && !h.released() && listed.add(h.hawkbitId())) {
                out.add(new ThreatStore.StoredThreat(new Threat(new PendingWork(ThreatSource.AUTO_ASSIGNMENT,
                        h.hawkbitId(), h.name(), "switched off", h.distributionSetId(), h.distributionSet(),
                        Set.of()), h.systems()), ThreatAction.HELD));
            }
        }
        return out;
    }

    /**
     * Stores a hold ({@code systems}: those it keeps from breaking), puts it in the audit listing, and on the timeline
     * of every run that drives one of the systems the work targets ({@code targeted}, with their members it targets).
     */
    private void hold(PendingWork w, HoldKind what, String device, Long actionId, String reason,
                      List<Threat.AtSystem> systems, List<Threat.AtSystem> targeted, Instant now, String verb,
                      String method, String path, int status) {
        long id = store.addHold(w.source(), w.hawkbitId(), w.name(), what, device, actionId, w.setId(), w.set(),
                actionTypeOf(w), reason, systems, now);
        audit.recordOwn(now, ACTOR, new AuditCommand(verb, "hawkbit/" + target(w)), method, path, status, reason);
        Map<Long, Map<String, List<String>>> byType = new LinkedHashMap<>();
        targeted.forEach(s -> byType.computeIfAbsent(s.systemTypeId(), k -> new LinkedHashMap<>())
                .put(s.system(), s.members()));
        String word = what.name().toLowerCase(Locale.ROOT);
        byType.forEach((typeId, members) -> runs.recordOnDrivers(typeId, members.keySet(), now,
                system -> new TimelineEvent.GuardHold(id, word, w.source().word(), w.hawkbitId(), w.name(),
                        members.get(system), reason), ACTOR));
        LOG.infof("Guard: %s", reason);
    }

    /** The system with only this one of its members. */
    private static Threat.AtSystem only(Threat.AtSystem s, String device) {
        return new Threat.AtSystem(s.systemTypeId(), s.systemType(), s.system(), s.guard(), List.of(device),
                s.wouldRun(), s.breaks());
    }

    private String actionTypeOf(PendingWork w) {
        return w.source() == ThreatSource.AUTO_ASSIGNMENT ? autoActionTypes.get(w.hawkbitId()) : null;
    }

    /** The action type of each auto-assignment last read, to give it back as it was. */
    private final Map<Long, String> autoActionTypes = new ConcurrentHashMap<>();

    private static String target(PendingWork w) {
        return switch (w.source()) {
            case ROLLOUT -> "rollouts/" + w.hawkbitId();
            case AUTO_ASSIGNMENT -> "targetfilters/" + w.hawkbitId();
            case ASSIGNMENT -> "actions/" + w.hawkbitId();
        };
    }

    private static String label(PendingWork w) {
        return switch (w.source()) {
            case ROLLOUT -> "rollout " + w.name();
            case AUTO_ASSIGNMENT -> "target filter " + w.name();
            case ASSIGNMENT -> "an assignment";
        };
    }

    /** Why the held systems may not take the work: the first one's reason, and how many more there are. */
    private static String why(List<Threat.AtSystem> held) {
        Threat.AtSystem first = held.get(0);
        String more = held.size() > 1 ? " (and " + (held.size() - 1) + " more system" + (held.size() > 2 ? "s" : "")
                + ")" : "";
        return first.breaks().reason() + more;
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
