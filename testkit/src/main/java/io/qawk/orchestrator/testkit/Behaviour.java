package io.qawk.orchestrator.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How a simulated device answers deployments. Immutable; change a device's behaviour at runtime with
 * {@link DeviceSimulator#setBehaviour(String, Behaviour)}.
 * <ul>
 * <li>{@link Mode#SUCCEED}: reports {@code proceeding}, then after {@link #delay()} {@code closed/success}.</li>
 * <li>{@link Mode#FAIL}: reports {@code proceeding}, then after the delay {@code closed/failure}.</li>
 * <li>{@link Mode#SILENT}: offline: stops polling entirely (no DDI request at all) until set to another behaviour;
 * a deployment it had started is not finished (it is re-run after the device comes back).</li>
 * <li>{@link Mode#HOLD}: online (polls, sends attributes, reports {@code proceeding}) but finishes no deployment until
 * set to another behaviour; a held deployment then finishes within a moment, as that behaviour says. For a device that
 * must stay under way until a test has seen what it needs, instead of a long {@link #succeedAfter(Duration)}.</li>
 * <li>{@link Mode#FAIL_FOR_SETS}: fails deployments of the given distribution sets (matched by hawkBit id
 * <em>or</em> by {@code "name:version"}), succeeds for every other set.</li>
 * </ul>
 * The decision is taken when the final feedback is due, with the behaviour current at that moment.
 */
public record Behaviour(Mode mode, Duration delay, Set<Long> failSetIds, Set<String> failSetNameVersions) {

    public enum Mode { SUCCEED, FAIL, SILENT, HOLD, FAIL_FOR_SETS }

    /**
     * How long a device of {@link #succeed()} or {@link #fail()} takes from {@code proceeding} to its final feedback:
     * short, since every order of every test waits for it (1 s before: the deployment room's tests N to Z took 13%
     * longer). A test that needs a device under way for a while says how long ({@link #succeedAfter(Duration)}) or
     * holds it ({@link #hold()}).
     */
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(300);

    public Behaviour {
        Objects.requireNonNull(mode, "mode");
        delay = delay == null ? DEFAULT_DELAY : delay;
        if (delay.isNegative()) {
            throw new IllegalArgumentException("negative delay");
        }
        failSetIds = failSetIds == null ? Set.of() : Set.copyOf(failSetIds);
        failSetNameVersions = failSetNameVersions == null ? Set.of() : Set.copyOf(failSetNameVersions);
    }

    public static Behaviour succeed() {
        return succeedAfter(DEFAULT_DELAY);
    }

    public static Behaviour succeedAfter(Duration delay) {
        return new Behaviour(Mode.SUCCEED, delay, null, null);
    }

    public static Behaviour fail() {
        return failAfter(DEFAULT_DELAY);
    }

    public static Behaviour failAfter(Duration delay) {
        return new Behaviour(Mode.FAIL, delay, null, null);
    }

    public static Behaviour silent() {
        return new Behaviour(Mode.SILENT, DEFAULT_DELAY, null, null);
    }

    /** Online but finishing nothing until the behaviour changes (see {@link Mode#HOLD}). */
    public static Behaviour hold() {
        return new Behaviour(Mode.HOLD, DEFAULT_DELAY, null, null);
    }

    /** Fails only for the distribution set with this hawkBit id. */
    public static Behaviour failFor(long distributionSetId) {
        return new Behaviour(Mode.FAIL_FOR_SETS, DEFAULT_DELAY, Set.of(distributionSetId), null);
    }

    /** Fails only for the distribution set with this name and version. */
    public static Behaviour failFor(String name, String version) {
        return new Behaviour(Mode.FAIL_FOR_SETS, DEFAULT_DELAY, null, Set.of(key(name, version)));
    }

    public Behaviour withDelay(Duration d) {
        return new Behaviour(mode, d, failSetIds, failSetNameVersions);
    }

    /** Whether a deployment of this set fails; {@code setId}/{@code name}/{@code version} may be null if unknown. */
    public boolean failsFor(Long setId, String name, String version) {
        return switch (mode) {
            case FAIL -> true;
            case SUCCEED, SILENT, HOLD -> false;
            case FAIL_FOR_SETS -> (setId != null && failSetIds.contains(setId))
                    || (name != null && version != null && failSetNameVersions.contains(key(name, version)));
        };
    }

    static String key(String name, String version) {
        return name + ":" + version;
    }
}
