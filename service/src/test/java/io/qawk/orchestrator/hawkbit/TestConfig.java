package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.util.Optional;

/** A {@link HawkbitConfig} for plain JUnit tests; fast retries, short timeouts. */
record TestConfig(Optional<String> url, Optional<String> user, Optional<String> password, String tenant, AssignmentType assignmentType,
        int pageSize, int assignBatchSize, Duration connectTimeout, Duration readTimeout, int maxRetries,
        Duration retryDelay, Duration retryMaxDelay, int circuitBreakerThreshold, Duration circuitBreakerDelay,
        Duration hangAfter, Budget budget) implements HawkbitConfig {

    /** No budget, as by default. */
    static final Budget NO_BUDGET = budget(0, 0);

    static final String USER = "qawk-admin";
    static final String PASSWORD = "s3cr3t-Pa55word";

    static TestConfig forUrl(String url) {
        return new TestConfig(Optional.ofNullable(url), Optional.of(USER), Optional.of(PASSWORD), "DEFAULT", AssignmentType.FORCED, 500, 5000,
                Duration.ofSeconds(2), Duration.ofSeconds(5), 3, Duration.ofMillis(10), Duration.ofMillis(50), 100,
                Duration.ofSeconds(10), Duration.ofSeconds(10), NO_BUDGET);
    }

    TestConfig withoutCredentials() {
        return new TestConfig(url, Optional.empty(), Optional.empty(), tenant, assignmentType, pageSize,
                assignBatchSize, connectTimeout, readTimeout, maxRetries, retryDelay, retryMaxDelay,
                circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withPageSize(int value) {
        return new TestConfig(url, user, password, tenant, assignmentType, value, assignBatchSize, connectTimeout,
                readTimeout, maxRetries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withAssign(AssignmentType type, int batchSize) {
        return new TestConfig(url, user, password, tenant, type, pageSize, batchSize, connectTimeout, readTimeout,
                maxRetries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withReadTimeout(Duration value) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                value, maxRetries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withRetries(int retries) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                readTimeout, retries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withRetryDelays(Duration delay, Duration maxDelay) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                readTimeout, maxRetries, delay, maxDelay, circuitBreakerThreshold, circuitBreakerDelay, hangAfter, budget);
    }

    TestConfig withBreaker(int threshold, Duration delay) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                readTimeout, maxRetries, retryDelay, retryMaxDelay, threshold, delay, hangAfter, budget);
    }

    TestConfig withHangAfter(Duration value) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                readTimeout, maxRetries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay, value, budget);
    }

    TestConfig withBudget(double readsPerSecond, double writesPerSecond) {
        return new TestConfig(url, user, password, tenant, assignmentType, pageSize, assignBatchSize, connectTimeout,
                readTimeout, maxRetries, retryDelay, retryMaxDelay, circuitBreakerThreshold, circuitBreakerDelay,
                hangAfter, budget(readsPerSecond, writesPerSecond));
    }

    static Budget budget(double reads, double writes) {
        return new Budget() {
            @Override
            public double readsPerSecond() {
                return reads;
            }

            @Override
            public double writesPerSecond() {
                return writes;
            }
        };
    }
}
