package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The guard's listings and its one command.
 * <ul>
 *   <li>{@code GET /qawk/v1/threats?systemTypeId=&source=}: what hawkBit is about to do outside Qawk to system members,
 *       oldest first: each with the systems it would move, what they would then run and the rule it would break;</li>
 *   <li>{@code GET /qawk/v1/threats/holds?systemTypeId=&system=}: what the guard did (newest first);</li>
 *   <li>{@code POST /qawk/v1/threats/holds/{id}/release}: a person takes a hold back: a paused rollout is resumed, a
 *       switched-off auto-assignment gets its set again; the guard leaves that hawkBit object alone from then on.</li>
 * </ul>
 */
@Path("/qawk/v1/threats")
@Produces(MediaType.APPLICATION_JSON)
public class ThreatResource {

    @Inject
    ThreatStore store;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    GuardPass guard;

    @Inject
    SecurityIdentity identity;

    @Inject
    Clock clock;

    /** A threat as the API shows it. */
    public record ThreatView(String source, long hawkbitId, String name, String status, DistributionSet distributionSet,
                             List<SystemView> systems, String action, Instant seenAt, Instant updatedAt) {
    }

    public record DistributionSet(Long id, String name) {
    }

    /** One system the threat would move: its members that would move, what it would then run, and why not. */
    public record SystemView(String system, long systemTypeId, String systemType, String guard, List<String> members,
                             Map<String, List<String>> wouldRun, Threat.Breaks breaks) {
    }

    public record ThreatPage(long total, List<ThreatView> content, GuardPass.Report lastPass) {
    }

    /** A hold as the API shows it. */
    public record HoldView(long id, String source, long hawkbitId, String name, String what, String device,
                           Long actionId, DistributionSet distributionSet, String reason, List<SystemView> systems,
                           Instant heldAt, Instant releasedAt, String releasedBy) {
    }

    public record HoldPage(long total, List<HoldView> content) {
    }

    @GET
    public ThreatPage threats(@QueryParam("systemTypeId") String systemTypeText, @QueryParam("source") String sourceText) {
        FieldErrors errors = new FieldErrors();
        Long typeId = typeId(systemTypeText, errors);
        ThreatSource source = null;
        if (sourceText != null && !sourceText.isBlank()) {
            source = ThreatSource.parse(sourceText.strip()).orElse(null);
            errors.check(source != null, "source", "must be rollout, autoAssignment or assignment (got \""
                    + shorten(sourceText) + "\")");
        }
        errors.throwIfAny();
        List<ThreatView> content = store.threats(typeId, source).stream().map(r -> new ThreatView(r.source().word(),
                r.hawkbitId(), r.name(), r.status(), new DistributionSet(r.distributionSetId(), r.distributionSet()),
                systems(r.systems(), typeId), r.action().word(), r.seenAt(), r.updatedAt())).toList();
        return new ThreatPage(content.size(), content, guard.last());
    }

    @GET
    @Path("holds")
    public HoldPage holds(@QueryParam("systemTypeId") String systemTypeText, @QueryParam("system") String system) {
        FieldErrors errors = new FieldErrors();
        Long typeId = typeId(systemTypeText, errors);
        errors.check(system == null || typeId != null, "system", "needs systemTypeId too");
        errors.throwIfAny();
        List<HoldView> content = store.holds(typeId, system).stream().map(ThreatResource::view).toList();
        return new HoldPage(content.size(), content);
    }

    @POST
    @Path("holds/{id}/release")
    public HoldView release(@PathParam("id") long id) {
        ThreatStore.Hold h = store.hold(id).orElseThrow(() -> new NotFoundException("hold", id));
        if (h.released()) {
            throw new ConflictException("hold " + id + " was released already (" + h.releasedBy() + ")");
        }
        switch (h.what()) {
            case PAUSED -> {
                if (!hawkbit.resumeRollout(h.hawkbitId())) {
                    throw new ConflictException("hawkBit did not resume rollout " + h.name() + " (#" + h.hawkbitId()
                            + "): it is no longer paused");
                }
            }
            case SWITCHED_OFF -> {
                if (!hawkbit.switchOnAutoAssignment(h.hawkbitId(), h.distributionSetId(),
                        h.actionType() == null ? "forced" : h.actionType())) {
                    throw new ConflictException("hawkBit did not give target filter " + h.name() + " (#"
                            + h.hawkbitId() + ") its set " + h.distributionSet() + " again: the filter or the set is gone");
                }
            }
            case DENIED -> throw new ConflictException("hawkBit cannot approve a denied rollout again: create "
                    + h.name() + " anew in hawkBit if it should run");
            case CANCELLED -> throw new ConflictException("a cancelled action cannot be taken back: assign "
                    + h.distributionSet() + " to " + h.controllerId() + " again if it should run");
        }
        store.release(id, Actors.of(identity), clock.instant());
        return view(store.hold(id).orElseThrow());
    }

    private static HoldView view(ThreatStore.Hold h) {
        return new HoldView(h.id(), h.source().word(), h.hawkbitId(), h.name(),
                h.what().name().toLowerCase(Locale.ROOT),
                h.controllerId(), h.actionId(), new DistributionSet(h.distributionSetId(), h.distributionSet()),
                h.reason(), systems(h.systems(), null), h.heldAt(), h.releasedAt(), h.releasedBy());
    }

    private static List<SystemView> systems(List<Threat.AtSystem> systems, Long typeId) {
        return systems.stream().filter(s -> typeId == null || s.systemTypeId() == typeId)
                .map(s -> new SystemView(s.system(), s.systemTypeId(), s.systemType(),
                        s.guard() == null ? null : s.guard().word(), s.members(), s.wouldRun(), s.breaks())).toList();
    }

    private static Long typeId(String text, FieldErrors errors) {
        if (text == null || text.isBlank()) {
            return null;
        }
        int id = errors.whole(text, "systemTypeId", -1);
        return id < 0 ? null : (long) id;
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
