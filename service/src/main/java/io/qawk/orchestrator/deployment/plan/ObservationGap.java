package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.common.DatabaseUnreachable;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which stretch of a deployment's time nobody observed, and why: a device's order and verify timeouts and a system's
 * soak count only time for which Qawk held a fresh observation of it (issue 32). An observation is as old as the moment
 * its questions were sent to hawkBit. Between two observations, a gap longer than an observation stays fresh is not
 * counted, all of it, whatever kept the service from looking: a pass that could not ask hawkBit (marked as it
 * happened), hawkBit that hung and then answered, a pass held up, the service stopped, or another replica's process
 * frozen or killed while it held the deployment. Pure: the engine reads the stored observation and asks this.
 */
public final class ObservationGap {

    /** The cause of a stretch hawkBit's 429s held Qawk's requests: hawkBit busy, never a device failure. */
    public static final String RATE_LIMITED = "hawkBit's rate limit (429)";

    private ObservationGap() {
    }

    /** The deployment's last stored observation: when its questions were sent, and by which service process. */
    public record Last(Instant at, String observer) {
    }

    /** A stretch a pass marked as it happened: since when, and why in operators' words (hawkBit unreachable, paused). */
    public record Marked(Instant since, String cause) {
    }

    /**
     * The process asking: its id, when it started, how long hawkBit kept its passes waiting for answers since it last
     * observed this deployment (this deployment's and every other's: one pass asks for them one after the other; null
     * when it has not observed it before), and since when its passes found Qawk's database unreachable (null when they
     * did not since its last full pass).
     */
    public record Observer(String id, Instant startedAt, Duration hawkbitWait, Instant databaseAwaySince) {

        public Observer(String id, Instant startedAt, Duration hawkbitWait) {
            this(id, startedAt, hawkbitWait, null);
        }
    }

    /** The stretch not counted, and why (the words in brackets of {@code not observed 18:25:16–18:26:01 UTC (…)}). */
    public record Stretch(Instant from, Instant to, String cause) {

        /** Its length in whole seconds, rounded up: a timeout extended by a little too much, never too little. */
        public long seconds() {
            Duration d = Duration.between(from, to);
            return Math.max(0, d.getSeconds() + (d.getNano() > 0 ? 1 : 0));
        }
    }

    /**
     * The stretch to leave uncounted now that the deployment is observed again at {@code askedAt}: a marked one from
     * where it began, else a gap longer than {@code freshFor} since the last observation; empty when the time since
     * the last observation all counts (or there was none: a deployment observed for the first time).
     */
    public static Optional<Stretch> of(Last last, Marked marked, Instant askedAt, Duration freshFor, Observer me) {
        if (marked != null) {
            Instant from = marked.since().isAfter(askedAt) ? askedAt : marked.since();
            Stretch s = new Stretch(from, askedAt, marked.cause());
            return s.seconds() > 0 ? Optional.of(s) : Optional.empty();
        }
        if (last == null || !last.at().isBefore(askedAt)) {
            return Optional.empty();
        }
        Duration gap = Duration.between(last.at(), askedAt);
        if (gap.compareTo(freshFor) <= 0) {
            return Optional.empty();
        }
        return Optional.of(new Stretch(last.at(), askedAt, cause(last, gap, me)));
    }

    /**
     * Why a gap happened, as far as this process can tell: the last observation was another process's (it was not
     * running then, or it was another replica's that stopped observing), or Qawk's database was unreachable meanwhile
     * (its passes failed for it), or hawkBit kept this one's passes waiting
     * for most of the gap, or this one's passes were held up (a lock, a pause of the JVM, a slow database).
     */
    static String cause(Last last, Duration gap, Observer me) {
        if (!last.observer().equals(me.id())) {
            return last.at().isBefore(me.startedAt()) ? "Qawk was not running" : "the replica observing it stopped";
        }
        if (me.databaseAwaySince() != null) {
            return DatabaseUnreachable.CAUSE;
        }
        Duration wait = me.hawkbitWait();
        if (wait != null && wait.multipliedBy(2).compareTo(gap) >= 0) {
            return "hawkBit did not answer for " + wait.toSeconds() + " s";
        }
        return "Qawk's passes were held up for " + gap.toSeconds() + " s";
    }

    /**
     * The earliest a device may time out, or a soak end, after {@code stretch}: the first observation after it and
     * {@code grace} for the devices to report; none (null) without a stretch.
     */
    public static Instant notBefore(Stretch stretch, Duration grace) {
        return stretch == null ? null : stretch.to().plus(grace);
    }
}
