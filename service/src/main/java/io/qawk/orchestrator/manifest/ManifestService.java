package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Creates, changes and removes manifests. Every write is validated completely (against the system type and against
 * hawkBit) before anything is stored; if hawkBit cannot be asked, nothing is stored and the caller gets
 * {@link io.qawk.orchestrator.hawkbit.HawkbitUnavailableException}.
 */
@ApplicationScoped
public class ManifestService {

    @Inject
    Clock clock;

    @Inject
    EntityManager em;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    Instance<ManifestUsage> usages;

    /** All manifests by name; only those of one system type when {@code systemTypeId} is given. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Manifest> list(Long systemTypeId) {
        return systemTypeId == null ? Manifest.list("order by name")
                : Manifest.list("systemTypeId = ?1 order by name", systemTypeId);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Manifest get(long id) {
        Manifest m = Manifest.findById(id);
        if (m == null) {
            throw new NotFoundException("manifest", id);
        }
        return m;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Manifest> findByName(String name) {
        return Manifest.findByName(name);
    }

    @Transactional
    public Manifest create(ManifestRequest request) {
        ManifestValidator.Validated sets = validate(request);
        if (Manifest.findByName(request.name()).isPresent()) {
            throw new ConflictException("a manifest named '" + request.name() + "' already exists");
        }
        Manifest m = new Manifest();
        Instant now = clock.instant();
        m.createdAt = now;
        apply(m, request, sets, now);
        m.persist();
        em.flush();
        return m;
    }

    @Transactional
    public Manifest replace(long id, ManifestRequest request) {
        return replace(get(id), request);
    }

    /**
     * An update ({@code PUT} or {@code PATCH}): {@code change} makes the whole request from what is stored (as a
     * request, {@link ManifestRequest#of}), read under a row lock so that no other update comes in between; then
     * validated and applied as a replace.
     */
    @Transactional
    public Manifest update(long id, UnaryOperator<ManifestRequest> change) {
        Manifest m = Manifest.findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (m == null) {
            throw new NotFoundException("manifest", id);
        }
        return replace(m, change.apply(ManifestRequest.of(m)));
    }

    private Manifest replace(Manifest m, ManifestRequest request) {
        ManifestValidator.Validated sets = validate(request);
        Manifest.findByName(request.name()).filter(other -> !other.id.equals(m.id)).ifPresent(other -> {
            throw new ConflictException("a manifest named '" + request.name() + "' already exists");
        });
        for (ManifestUsage usage : usages) {
            usage.checkChange(m);
        }
        apply(m, request, sets, clock.instant());
        em.flush();
        return m;
    }

    @Transactional
    public void delete(long id) {
        Manifest m = get(id);
        for (ManifestUsage usage : usages) {
            usage.checkChange(m);
        }
        m.delete();
    }

    /**
     * True when storing the request would change nothing: same name, system type, and per component type the same
     * set (id and {@code name:version}), order and verification query. The position of a component in the list does not count.
     */
    public static boolean sameAs(Manifest m, ManifestRequest request, Map<Long, String> labels) {
        if (!Objects.equals(m.name, request.name()) || request.systemTypeId() == null
                || m.systemTypeId != request.systemTypeId() || request.components() == null
                || request.components().size() != m.components.size()) {
            return false;
        }
        Map<String, ManifestComponent> stored = new HashMap<>();
        m.components.forEach(c -> stored.put(c.componentType, c));
        for (ManifestRequest.ComponentRequest c : request.components()) {
            ManifestComponent s = c == null ? null : stored.remove(c.componentType());
            if (s == null || !Objects.equals(c.distributionSetId(), s.distributionSetId)
                    || !Objects.equals(c.order(), s.order) || !Objects.equals(c.verify(), s.verify)
                    || !Objects.equals(labels.get(s.distributionSetId), s.distributionSet)) {
                return false;
            }
        }
        return stored.isEmpty();
    }

    /**
     * The request with the orders its system type's rules imply when it gives none (what storing it would store);
     * otherwise, or when it is not valid (storing it will say why), the request as it is.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public ManifestRequest withOrders(ManifestRequest request) {
        if (request == null || request.components() == null
                || request.components().stream().anyMatch(c -> c == null || c.order() != null)) {
            return request;
        }
        try {
            Map<String, Integer> orders = validate(request).orders();
            return new ManifestRequest(request.name(), request.systemTypeId(), request.components().stream()
                    .map(c -> new ManifestRequest.ComponentRequest(c.componentType(), c.distributionSetId(),
                            orders.get(c.componentType()), c.verify())).toList());
        } catch (InvalidRequestException e) {
            return request;
        }
    }

    private ManifestValidator.Validated validate(ManifestRequest request) {
        return ManifestValidator.validate(request, id -> SystemType.<SystemType>findByIdOptional(id),
                hawkbit::distributionSet);
    }

    private static void apply(Manifest m, ManifestRequest r, ManifestValidator.Validated valid, Instant now) {
        m.name = r.name();
        m.systemTypeId = r.systemTypeId();
        m.components.clear();
        r.components().forEach(c -> m.components.add(new ManifestComponent(c.componentType(), c.distributionSetId(),
                valid.sets().get(c.distributionSetId()).label(), valid.orders().get(c.componentType()), c.verify())));
        m.updatedAt = now;
        m.updatedBy = Actors.current();
    }
}
