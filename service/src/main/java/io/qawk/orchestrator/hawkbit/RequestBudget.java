package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How fast Qawk may send requests to hawkBit: a number of reads and of writes per second
 * ({@code qawk.hawkbit.budget.*}, off when 0), never exceeded, and the pauses hawkBit asks for with {@code 429}.
 * Shared by every caller of the process; a caller waits for its turn, it never fails for the budget.
 * <p>
 * Each kind is paced, not burst: its requests start at least {@code 1/rate} apart, so no second (of any start) holds
 * more than the rate, as hawkBit's DoS filter counts them. Two priorities: work that moves devices (sends, cancels,
 * the observation of running orders: everything by default) books the next free turn and waits for it, in the order
 * it asked; work marked {@link #later} (the inventory sync, the guard's reads) takes a turn only when the kind is idle,
 * so it never books ahead of the first and comes after it under a tight budget. A {@code 429} pauses its kind for
 * every caller until hawkBit's {@code Retry-After} is over.
 * <p>
 * Times are {@link System#nanoTime()} or a test's clock; waiting goes through a {@link Sleeper}, so a test drives it
 * with a fixed clock.
 */
final class RequestBudget {

    /** Which work a request serves: first the work that moves devices, later the rest. */
    enum Priority { FIRST, LATER }

    /** Waits; a test's sleeper moves its clock instead. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private static final ThreadLocal<Priority> PRIORITY = ThreadLocal.withInitial(() -> Priority.FIRST);

    private final LongSupplier nanos;
    private final Sleeper sleeper;
    private final Map<ApiCall.Kind, Lane> lanes = new EnumMap<>(ApiCall.Kind.class);

    RequestBudget(double readsPerSecond, double writesPerSecond) {
        this(readsPerSecond, writesPerSecond, System::nanoTime, RequestBudget::sleepNanos);
    }

    RequestBudget(double readsPerSecond, double writesPerSecond, LongSupplier nanos, Sleeper sleeper) {
        this.nanos = nanos;
        this.sleeper = sleeper;
        long now = nanos.getAsLong();
        lanes.put(ApiCall.Kind.READ, new Lane(interval(readsPerSecond), now));
        lanes.put(ApiCall.Kind.WRITE, new Lane(interval(writesPerSecond), now));
    }

    /** The priority of the calling thread's requests. */
    static Priority priority() {
        return PRIORITY.get();
    }

    /** Runs {@code work} with its requests to hawkBit after those of work that moves devices. */
    static <T> T later(Supplier<T> work) {
        Priority before = PRIORITY.get();
        PRIORITY.set(Priority.LATER);
        try {
            return work.get();
        } finally {
            PRIORITY.set(before);
        }
    }

    /** Waits for the kind's turn; returns how long it waited, in nanoseconds. */
    long acquire(ApiCall.Kind kind, Priority priority) throws InterruptedException {
        Lane lane = lanes.get(kind);
        long waited = 0;
        while (true) {
            long now = nanos.getAsLong();
            Turn turn = lane.take(now, priority);
            if (turn.waitNanos() > 0) {
                sleeper.sleep(turn.waitNanos());
                waited += turn.waitNanos();
            }
            // a turn booked before a 429 paused the kind is not taken while the pause lasts: ask again
            if (turn.taken() && !lane.pausedAt(nanos.getAsLong())) {
                return waited;
            }
        }
    }

    /** A turn asked for at {@code now}: taken (after {@code waitNanos}), or not yet (ask again after {@code waitNanos}). */
    record Turn(boolean taken, long waitNanos) {
    }

    /** One step of {@link #acquire}, for tests with a fixed clock. */
    Turn take(ApiCall.Kind kind, long now, Priority priority) {
        return lanes.get(kind).take(now, priority);
    }

    /**
     * hawkBit refused a request of this kind with 429 and asked Qawk to wait {@code retryAfter}: no request of the
     * kind starts before that is over. Returns how much longer the kind is paused than it was.
     */
    Duration pause(ApiCall.Kind kind, Duration retryAfter) {
        return Duration.ofNanos(lanes.get(kind).pauseUntil(nanos.getAsLong(), Math.max(0, retryAfter.toNanos())));
    }

    /** How long hawkBit's 429s have paused Qawk's requests in all (the kinds' pauses, each counted once). */
    Duration rateLimited() {
        long sum = 0;
        for (Lane lane : lanes.values()) {
            sum += lane.paused();
        }
        return Duration.ofNanos(sum);
    }

    /** Whether a budget is set for the kind. */
    boolean limits(ApiCall.Kind kind) {
        return lanes.get(kind).interval > 0;
    }

    /** How long a 429 without a usable {@code Retry-After} pauses its kind: hawkBit's DoS filter counts per second. */
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    /** The longest pause a {@code Retry-After} is honoured for; beyond it the call gives up as hawkBit unavailable. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(10);

    /**
     * What a 429's {@code Retry-After} asks for, as of {@code now}: delay-seconds or an HTTP-date (RFC 9110); absent
     * or unreadable: {@link #DEFAULT_RETRY_AFTER}; a date already past: nothing.
     */
    static Duration retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return DEFAULT_RETRY_AFTER;
        }
        String value = header.strip();
        if (value.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(value));
            } catch (NumberFormatException e) {
                return MAX_RETRY_AFTER.plusSeconds(1); // more digits than a long: longer than any pause honoured
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            return DEFAULT_RETRY_AFTER;
        }
    }

    private static long interval(double perSecond) {
        return perSecond > 0 ? (long) Math.ceil(1_000_000_000d / perSecond) : 0;
    }

    private static void sleepNanos(long n) throws InterruptedException {
        Thread.sleep(n / 1_000_000, (int) (n % 1_000_000));
    }

    /** One kind's turns: the earliest start of its next request, a 429's pause, and how long 429s paused it. */
    private static final class Lane {
        private final long interval;
        private long next;
        private long pausedUntil;
        private long pausedNanos;

        Lane(long interval, long now) {
            this.interval = interval;
            this.next = now;
            this.pausedUntil = now;
        }

        synchronized Turn take(long now, Priority priority) {
            if (pausedUntil - now > 0) {
                return new Turn(false, pausedUntil - now);
            }
            if (priority == Priority.FIRST) {
                long start = now - next >= 0 ? now : next;
                next = start + interval;
                return new Turn(true, start - now);
            }
            if (now - next >= 0) {
                next = now + interval;
                return new Turn(true, 0);
            }
            return new Turn(false, next - now);
        }

        synchronized boolean pausedAt(long now) {
            return pausedUntil - now > 0;
        }

        synchronized long pauseUntil(long now, long retryAfter) {
            long until = now + retryAfter;
            long from = pausedUntil - now > 0 ? pausedUntil : now;
            if (until - from <= 0) {
                return 0;
            }
            pausedUntil = until;
            if (until - next > 0) {
                next = until;
            }
            pausedNanos += until - from;
            return until - from;
        }

        synchronized long paused() {
            return pausedNanos;
        }
    }
}
