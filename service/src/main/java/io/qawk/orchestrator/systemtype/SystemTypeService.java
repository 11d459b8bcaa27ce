package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.common.AuditNote;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.quarkus.arc.Arc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import io.quarkus.arc.Arc;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Creates, changes and removes system types; every write is validated before anything is stored. */
@ApplicationScoped
public class SystemTypeService {

    @Inject
    Clock clock;

    @Inject
    EntityManager em;

    @Inject
    Event<SystemTypeChanged> changed;

    @Inject
    Instance<SystemTypeUsage> usages;

    @Inject
    Instance<RuleWitness> witnesses;

    @Inject
    Instance<AuditNote> note;

    public List<SystemType> list() {
        return SystemType.list("order by name");
    }

    public SystemType get(long id) {
        SystemType t = SystemType.findById(id);
        if (t == null) {
            throw new NotFoundException("system type", id);
        }
        return t;
    }

    @Transactional
    public SystemType create(SystemTypeRequest request) {
        SystemTypeValidator.validate(request);
        if (SystemType.findByName(request.name()).isPresent()) {
            throw new ConflictException("a system type named '" + request.name() + "' already exists");
        }
        SystemType t = new SystemType();
        Instant now = clock.instant();
        t.createdAt = now;
        apply(t, request, now);
        t.persist();
        em.flush();
        changed.fire(new SystemTypeChanged(t.id));
        return t;
    }

    @Transactional
    public SystemType replace(long id, SystemTypeRequest request) {
        return replace(get(id), request);
    }

    /**
     * An update ({@code PUT} or {@code PATCH}): {@code change} makes the whole request from what is stored (as a
     * request, {@link SystemTypeRequest#of}), read under a row lock so that no other update comes in between; then
     * validated and applied as a replace.
     */
    @Transactional
    public SystemType update(long id, UnaryOperator<SystemTypeRequest> change) {
        SystemType t = SystemType.findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (t == null) {
            throw new NotFoundException("system type", id);
        }
        return replace(t, change.apply(SystemTypeRequest.of(t)));
    }

    private SystemType replace(SystemType t, SystemTypeRequest request) {
        SystemTypeValidator.validate(request);
        SystemType.findByName(request.name()).filter(other -> !other.id.equals(t.id)).ifPresent(other -> {
            throw new ConflictException("a system type named '" + request.name() + "' already exists");
        });
        for (SystemTypeUsage usage : usages) {
            usage.checkReplace(t, request);
        }
        List<RuleGone> gone = RuleGone.between(t.rules, request.rules());
        List<List<Supplier<List<String>>>> exposed = gone.stream().map(g -> witnesses.stream()
                .map(w -> w.exposedBy(t, g.index())).toList()).toList();
        apply(t, request, clock.instant());
        em.flush();
        changed.fire(new SystemTypeChanged(t.id));
        if (!gone.isEmpty()) {
            List<String> words = new ArrayList<>();
            for (int i = 0; i < gone.size(); i++) {
                words.add(gone.get(i).words(exposed.get(i).stream().flatMap(s -> s.get().stream()).toList()));
            }
            noteForAudit(String.join(" | ", words));
        }
        return t;
    }

    /** Said beside the command in the audit listing, when the update came through the API. */
    private void noteForAudit(String detail) {
        if (Arc.container().requestContext().isActive()) {
            note.get().set(detail.length() > 4000 ? detail.substring(0, 3999) + "…" : detail);
        }
    }

    @Transactional
    public void delete(long id) {
        SystemType t = get(id);
        for (SystemTypeUsage usage : usages) {
            usage.checkDelete(t);
        }
        t.delete();
    }

    private static void apply(SystemType t, SystemTypeRequest r, Instant now) {
        t.name = r.name();
        t.systemKey = r.systemKey();
        t.groupKey = r.groupKey();
        t.components.clear();
        r.components().forEach(c -> t.components.add(new Component(c.componentType(), c.match(), c.health())));
        t.rules = r.rules() == null ? new ArrayList<>() : new ArrayList<>(r.rules());
        t.guard = r.guard() == null ? GuardMode.WATCH : GuardMode.parse(r.guard()).orElseThrow();
        t.approvalRequired = r.approval() != null && Approval.parse(r.approval()).orElseThrow() == Approval.REQUIRED;
        t.updatedAt = now;
        t.updatedBy = Actors.current();
    }

    /** Fired after a system type was created or changed, so discovery can refresh. */
    public record SystemTypeChanged(long systemTypeId) {
    }

    /** Implemented by domains that use system types (manifests) to refuse changes that would break them. */
    public interface SystemTypeUsage {
        /** Throws {@link ConflictException} when the type may not be deleted. */
        void checkDelete(SystemType type);

        /** Throws {@link ConflictException} when the type may not be changed like this. */
        default void checkReplace(SystemType type, SystemTypeRequest request) {
        }
    }
}
