package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
        SystemTypeValidator.validate(request);
        SystemType t = get(id);
        SystemType.findByName(request.name()).filter(other -> !other.id.equals(t.id)).ifPresent(other -> {
            throw new ConflictException("a system type named '" + request.name() + "' already exists");
        });
        for (SystemTypeUsage usage : usages) {
            usage.checkReplace(t, request);
        }
        apply(t, request, clock.instant());
        em.flush();
        changed.fire(new SystemTypeChanged(t.id));
        return t;
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
