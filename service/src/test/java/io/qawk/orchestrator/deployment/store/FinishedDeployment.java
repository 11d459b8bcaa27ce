package io.qawk.orchestrator.deployment.store;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.EntityManager;

import java.util.UUID;

/**
 * A system type, a manifest and a finished deployment of it, made with native inserts for tests of the engine's
 * writers (the engine leaves a finished deployment alone), and removed with all its runs by {@link #remove}.
 */
record FinishedDeployment(long typeId, long manifestId, long deploymentId) {

    /** Made in a transaction of its own; {@code prefix} starts the names, which are new each time. */
    static FinishedDeployment create(EntityManager em, String prefix) {
        String name = prefix + "-" + UUID.randomUUID();
        return QuarkusTransaction.requiringNew().call(() -> {
            long typeId = id(em, "insert into system_type (name, system_key, created_at, updated_at)"
                    + " values (:n, 'attribute.device', now(), now()) returning id", name);
            long manifestId = id(em, "insert into manifest (name, system_type_id, created_at, updated_at)"
                    + " values (:n, " + typeId + ", now(), now()) returning id", name);
            long deploymentId = id(em, "insert into system_deployment (name, manifest_id, max_parallel, max_failed,"
                    + " by_centre, order_timeout_seconds, phase, created_at) values (:n, " + manifestId
                    + ", 1, 0, false, 60, 'FINISHED', now()) returning id", name);
            return new FinishedDeployment(typeId, manifestId, deploymentId);
        });
    }

    /** The deployment, its runs and what they refer to, in a transaction of its own. */
    void remove(EntityManager em) {
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("delete from system_deployment where id = " + deploymentId).executeUpdate();
            em.createNativeQuery("delete from manifest where id = " + manifestId).executeUpdate();
            em.createNativeQuery("delete from system_type where id = " + typeId).executeUpdate();
        });
    }

    /** The id a native insert returns; {@code :n} is the name. */
    static long id(EntityManager em, String sql, String name) {
        return ((Number) em.createNativeQuery(sql).setParameter("n", name).getSingleResult()).longValue();
    }
}
