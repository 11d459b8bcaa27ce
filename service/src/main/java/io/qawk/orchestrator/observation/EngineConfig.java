package io.qawk.orchestrator.observation;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How the engines run: the deployment engine and the release engine share these settings. */
@ConfigMapping(prefix = "qawk.engine")
public interface EngineConfig {

    /**
     * Longest time between two engine passes: what the release engine waits between its passes, and the deployment
     * engine while no device is due (it also passes at once after a start or a command).
     */
    @WithDefault("10s")
    Duration interval();

    /**
     * Time between two passes of the deployment engine while devices are due: sent an assignment or verifying. Each
     * such pass asks hawkBit about those devices only, in bulk, at most {@link #parallelRequests()} requests at once
     * (no more than {@link #interval()}). A quarter of a second makes an order follow its predecessor about as soon as a script
     * polling hawkBit would see it finish (docs/benchmarks.md, "Decisions the figures made").
     */
    @WithDefault("250ms")
    Duration busyInterval();

    /** Delay after start before the first pass. */
    @WithDefault("3s")
    Duration initialDelay();

    /** A device that has not finished within this time after its order was sent has failed (per deployment overridable). */
    @WithDefault("30m")
    Duration defaultOrderTimeout();

    /**
     * How many runs the engine plans or starts in one database transaction. Each transaction locks its runs; more per
     * transaction means fewer commits per pass, longer locks.
     */
    @WithDefault("500")
    int runsPerTransaction();

    /**
     * At most how many of a pass's hawkBit questions (one per set and chunk of ids, when observing or photographing)
     * are asked at once; 1 asks them one after the other. Each chunk is still one request.
     */
    @WithDefault("4")
    int parallelRequests();

    /** At most how many controller ids go into one hawkBit query when observing or photographing devices in bulk. */
    @WithDefault("500")
    int observeChunk();

    /**
     * At most how long such a query's id list may be once URL-encoded; hawkBit (Tomcat) refuses request lines over
     * 8 KB, so about 250 ids of 20 characters fit.
     */
    @WithDefault("6000")
    int observeQueryLength();

    /**
     * An observation of a deployment's devices is fresh for this long (at least the interval and 5 s): a longer gap
     * between two observations (hawkBit hung, a pass held up, Qawk stopped, a replica frozen) is not counted toward
     * their order or verify timeouts or a soak, all of it.
     */
    @WithDefault("20s")
    Duration unobservedAfter();

    /**
     * After a gap, no device times out and no soak ends before this long after the first observation that follows: a
     * device whose report was held up by the gap (it could not reach hawkBit either) reports at its next poll. One
     * minute covers the short polling times fleets that update systems use; set it to the tenant's polling time
     * (hawkBit's default is 5 min) if that is longer.
     */
    @WithDefault("60s")
    Duration graceAfterGap();

    /**
     * A pass under way for longer than this is stuck (a call without a deadline, a lock never released): liveness
     * says so, and the orchestrator restarts the service, which takes every deployment up where it stood.
     */
    @WithDefault("10m")
    Duration stuckAfter();
}
