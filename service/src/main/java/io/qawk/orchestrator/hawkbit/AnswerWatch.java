package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How long hawkBit has left Qawk's requests unanswered. A frozen or hung hawkBit fails no call for as long as the read
 * timeout (30 s, then a retry), and the calls may well succeed once it answers again; this is how the rest of Qawk
 * can tell, meanwhile, that it is waiting on a silent hawkBit (readiness, issue 32).
 * <p>
 * hawkBit is silent since the later of its last answer (any HTTP status) and the sending of the oldest request still
 * waiting; a request that ended without an answer (refused, reset, timed out) counts as waiting until an answer comes.
 * So one slow answer to a large request is not silence while other requests are answered. Times are
 * {@link System#nanoTime()} (or a test's clock), never the wall clock.
 */
final class AnswerWatch {

    private static final long NONE = Long.MIN_VALUE;

    private final LongSupplier nanos;
    private final AtomicLong tokens = new AtomicLong();
    private final Map<Long, Long> waiting = new ConcurrentHashMap<>();
    private final AtomicLong lastAnswer = new AtomicLong(NONE);
    /** The sending of the oldest request that ended without an answer since the last answer; NONE after an answer. */
    private final AtomicLong unansweredSince = new AtomicLong(NONE);

    AnswerWatch() {
        this(System::nanoTime);
    }

    AnswerWatch(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** A request goes out now; returns its token for {@link #answered} or {@link #unanswered}. */
    long sent() {
        long token = tokens.incrementAndGet();
        waiting.put(token, nanos.getAsLong());
        return token;
    }

    /** hawkBit answered the request (any status): whatever it left unanswered before is forgiven. */
    void answered(long token) {
        waiting.remove(token);
        lastAnswer.set(nanos.getAsLong());
        unansweredSince.set(NONE);
    }

    /** The request ended without an answer: hawkBit stays silent since it was sent (or since its last answer). */
    void unanswered(long token) {
        Long sentAt = waiting.remove(token);
        if (sentAt != null) {
            long from = Math.max(sentAt, lastAnswer.get());
            unansweredSince.accumulateAndGet(from, (current, candidate) -> current == NONE ? candidate
                    : Math.min(current, candidate));
        }
    }

    /** How long hawkBit has been silent; empty when nothing is waiting and everything sent was answered. */
    Optional<Duration> silentFor() {
        long since = unansweredSince.get();
        long last = lastAnswer.get();
        for (long sentAt : waiting.values()) {
            long from = Math.max(sentAt, last);
            since = since == NONE ? from : Math.min(since, from);
        }
        return since == NONE ? Optional.empty()
                : Optional.of(Duration.ofNanos(Math.max(0, nanos.getAsLong() - since)));
    }
}
