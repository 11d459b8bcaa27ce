package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentUnobserved;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.ObservationGap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * When each deployment was last observed ({@code deployment_observation}), stretches marked as not observed while they
 * happened ({@code deployment_unobserved}), and the extension of timeouts and soaks by a stretch nobody observed: reads
 * and writes only, the stretch itself is {@link ObservationGap}'s decision.
 */
@ApplicationScoped
public class ObservationStore {

    @Inject
    TimelineWriter timeline;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    RunDeviceWriter deviceWriter;

    /** What the pass found stored: the last observation and a stretch marked as it happened, both locked. */
    public record Watched(ObservationGap.Last last, ObservationGap.Marked marked) {
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public Watched lock(long deploymentId) {
        EntityManager em = SystemRun.getEntityManager();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select observed_at, observer from deployment_observation"
                + " where deployment_id = :d for update").setParameter("d", deploymentId).getResultList();
        ObservationGap.Last last = rows.isEmpty() ? null
                : new ObservationGap.Last(instant(rows.get(0)[0]), (String) rows.get(0)[1]);
        DeploymentUnobserved u = DeploymentUnobserved.findById(deploymentId, LockModeType.PESSIMISTIC_WRITE);
        return new Watched(last, u == null ? null : new ObservationGap.Marked(u.since, u.cause));
    }

    /** The deployment was observed at {@code askedAt} by {@code observer}: any stretch marked before is over. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void observed(long deploymentId, Instant askedAt, String observer) {
        SystemRun.getEntityManager().createNativeQuery("insert into deployment_observation (deployment_id, observed_at,"
                        + " observer) values (:d, :at, :o) on conflict (deployment_id) do update"
                        + " set observed_at = excluded.observed_at, observer = excluded.observer")
                .setParameter("d", deploymentId).setParameter("at", Timestamp.from(askedAt))
                .setParameter("o", observer).executeUpdate();
        DeploymentUnobserved.delete("deploymentId", deploymentId);
    }

    /**
     * The deployment is not observed now ({@code cause}: {@code hawkBit unreachable}, {@code paused} …), since its
     * last observation (or {@code now} when it never was); a stretch already marked keeps its start, a new cause
     * added to the old.
     */
    @Transactional
    public void markUnobserved(long deploymentId, Instant now, String cause) {
        DeploymentUnobserved u = DeploymentUnobserved.findById(deploymentId, LockModeType.PESSIMISTIC_WRITE);
        if (u == null) {
            @SuppressWarnings("unchecked")
            List<Object> last = SystemRun.getEntityManager().createNativeQuery(
                            "select observed_at from deployment_observation where deployment_id = :d")
                    .setParameter("d", deploymentId).getResultList();
            u = new DeploymentUnobserved();
            u.deploymentId = deploymentId;
            u.since = last.isEmpty() ? now : instant(last.get(0));
            u.cause = cause;
            u.persist();
        } else if (!u.cause.contains(cause) && u.cause.length() < 200) {
            u.cause = u.cause + ", then " + cause;
        }
    }

    /**
     * {@code stretch} was not observed: it is added to the unobserved time of every device of the deployment whose
     * timeout runs, none of them due before {@code notBefore}, and to the soak of every run soaking, none ending on the
     * pass that found the stretch; each of their runs says so in its timeline. Returns the seconds added (0: nothing was under way to extend).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public long extend(long deploymentId, ObservationGap.Stretch stretch, Instant notBefore, Duration orderTimeout,
                       Duration verifyTimeout) {
        long seconds = stretch.seconds();
        Instant at = stretch.to();
        boolean soaks = extendSoaks(deploymentId, stretch, stretch.to().plusSeconds(1));
        EntityManager em = SystemRun.getEntityManager();
        @SuppressWarnings("unchecked")
        List<Number> runIds = em.createNativeQuery("select distinct d.run_id from run_device d join system_run r"
                        + " on r.id = d.run_id where r.deployment_id = :d and d.state in (:states) order by d.run_id")
                .setParameter("d", deploymentId).setParameter("states", RunDeviceWriter.TIMED.stream().map(Enum::name).toList())
                .getResultList();
        if (runIds.isEmpty()) {
            return soaks ? seconds : 0;
        }
        List<Long> runs = runIds.stream().map(Number::longValue).toList();
        deviceWriter.extendTimeouts(runs, seconds, notBefore, orderTimeout, verifyTimeout);
        TimelineEvent extended = ObservationGap.RATE_LIMITED.equals(stretch.cause())
                ? new TimelineEvent.RateLimited(stretch.from(), at, Duration.ofSeconds(seconds))
                : new TimelineEvent.TimeoutsExtended(stretch.cause(), stretch.from(), at, Duration.ofSeconds(seconds));
        for (Long runId : runs) {
            timeline.record(runId, at, extended, null);
        }
        return seconds;
    }

    /** Soaks under way end later by the stretch, and after {@code notBefore}: time not observed is not time healthy. */
    private boolean extendSoaks(long deploymentId, ObservationGap.Stretch stretch, Instant notBefore) {
        @SuppressWarnings("unchecked")
        List<Number> ids = SystemRun.getEntityManager().createNativeQuery("select id from system_run"
                        + " where deployment_id = :d and state = " + SqlEnums.literal(RunState.VERIFYING) + " order by id")
                .setParameter("d", deploymentId).getResultList();
        List<SystemRun> soaking = runWriter.lock(ids.stream().map(Number::longValue).toList());
        Duration extension = Duration.ofSeconds(stretch.seconds());
        for (SystemRun run : soaking) {
            if (run.soakEndsAt != null) {
                Instant moved = run.soakEndsAt.plus(extension);
                run.soakEndsAt = notBefore != null && moved.isBefore(notBefore) ? notBefore : moved;
                timeline.record(run.id, stretch.to(), new TimelineEvent.SoakExtended(stretch.cause(),
                        stretch.from(), stretch.to(), extension, run.soakEndsAt), null);
            }
        }
        runWriter.writeNow(); // the pass plans from what is stored
        return !soaking.isEmpty();
    }

    private static Instant instant(Object value) {
        if (value instanceof Timestamp t) {
            return t.toInstant();
        }
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        throw new IllegalStateException("not a time: " + value);
    }
}
