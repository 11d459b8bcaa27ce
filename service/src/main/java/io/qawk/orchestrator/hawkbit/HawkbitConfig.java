package io.qawk.orchestrator.hawkbit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How Qawk reaches hawkBit's Management API ({@code qawk.hawkbit.*}).
 * <p>
 * The password is a secret: set it with {@code QAWK_HAWKBIT_PASSWORD}, never in a committed file. Nothing in this
 * package logs it or puts it (or the Authorization header) into an exception message.
 */
@ConfigMapping(prefix = "qawk.hawkbit")
public interface HawkbitConfig {

    /** Base URL of hawkBit, e.g. {@code http://hawkbit:8080} (without {@code /rest/v1}); unset = hawkBit not configured. */
    Optional<String> url();

    /** Management API user (HTTP Basic); required when {@code url} is set. */
    Optional<String> user();

    /** Management API password (HTTP Basic), from {@code QAWK_HAWKBIT_PASSWORD}; required when {@code url} is set. */
    Optional<String> password();

    /** hawkBit tenant; the Management API takes it from the user, device (DDI) paths need it. */
    @WithDefault("DEFAULT")
    String tenant();

    /** Assignment type sent with every assignment: forced, soft or downloadonly. */
    @WithDefault("forced")
    AssignmentType assignmentType();

    /** Page size for list calls; hawkBit caps it at 500 silently, so larger values are capped here too. */
    @WithDefault("500")
    int pageSize();

    /** Most targets sent in one bulk assignment call (hawkBit's own default limit is 5000). */
    @WithDefault("5000")
    int assignBatchSize();

    /** TCP connect timeout per request. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** Time allowed for hawkBit's answer per request (one attempt). */
    @WithDefault("30s")
    Duration readTimeout();

    /**
     * How long hawkBit may leave Qawk's requests unanswered before readiness says it is down: a hung hawkBit fails no
     * call for the read timeout and its retries. Also the longest the readiness check's own ping waits.
     */
    @WithDefault("10s")
    Duration hangAfter();

    /** Retries after a transport error, timeout or 5xx (0 = try once); a 429 is waited out, not retried. */
    @WithDefault("3")
    int maxRetries();

    /** Delay before the first retry; doubles per retry, with +/-50 % jitter. */
    @WithDefault("200ms")
    Duration retryDelay();

    /** Upper bound of one retry delay. */
    @WithDefault("5s")
    Duration retryMaxDelay();

    /** Consecutive failed calls (after their retries) that open the circuit breaker. */
    @WithDefault("5")
    int circuitBreakerThreshold();

    /** How long an open circuit breaker fails calls at once before it lets one trial call through. */
    @WithDefault("10s")
    Duration circuitBreakerDelay();

    /** How fast Qawk may send requests to hawkBit ({@code qawk.hawkbit.budget.*}); off by default. */
    Budget budget();

    /**
     * A request budget: at most this many reads (GET) and writes (POST, PUT, DELETE) a second, in the whole process,
     * as hawkBit's DoS filter counts them ({@code hawkbit.server.security.dos.filter.max-read}/{@code max-write}) or
     * a hosted hawkBit's quota. 0 (the default) sets no budget. Callers wait for their turn; the work that moves
     * devices goes before the inventory sync and the guard's reads.
     */
    interface Budget {
        /** Reads a second at most ({@code QAWK_HAWKBIT_BUDGET_READS_PER_SECOND}); 0 = no budget. */
        @WithDefault("0")
        double readsPerSecond();

        /** Writes a second at most ({@code QAWK_HAWKBIT_BUDGET_WRITES_PER_SECOND}); 0 = no budget. */
        @WithDefault("0")
        double writesPerSecond();
    }

    /** The assignment types Qawk uses (hawkBit's {@code timeforced} needs a force time and is not offered). */
    enum AssignmentType {
        FORCED, SOFT, DOWNLOADONLY;

        /** The value hawkBit expects in the {@code type} field. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
