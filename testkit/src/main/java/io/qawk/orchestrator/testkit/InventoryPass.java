package io.qawk.orchestrator.testkit;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;

/**
 * Whether the inventory sync asked for at some moment has ended, read from {@code GET /qawk/v1/inventory}: what a
 * client does after {@code POST …/inventory/sync} answered 202 (the pass outlasted half the HTTP idle timeout and goes
 * on). A pass that started at or after the request has ended once a completion or a failure is dated at or after its
 * start.
 */
public final class InventoryPass {

    /** How it ended. */
    public enum End { COMPLETED, FAILED }

    private InventoryPass() {
    }

    /**
     * The end of the last pass started at or after {@code requestedAt}, from the status' {@code lastStartedAt},
     * {@code lastCompletedAt} and {@code lastFailedAt} (ISO instants, or null); null while none has ended.
     */
    public static End endOf(Instant requestedAt, String lastStartedAt, String lastCompletedAt, String lastFailedAt) {
        Instant started = instant(lastStartedAt);
        if (started == null || started.isBefore(requestedAt)) {
            return null;
        }
        Instant completed = instant(lastCompletedAt);
        Instant failed = instant(lastFailedAt);
        boolean didComplete = completed != null && !completed.isBefore(started);
        boolean didFail = failed != null && !failed.isBefore(started);
        if (didComplete && didFail) {
            return failed.isAfter(completed) ? End.FAILED : End.COMPLETED;
        }
        return didComplete ? End.COMPLETED : didFail ? End.FAILED : null;
    }

    /**
     * After {@code answer} to {@code POST …/inventory/sync}: returns at once on a 200, and on a 202 once
     * {@code status} ({@code GET /qawk/v1/inventory}) says the pass completed; any other answer, a failed pass, or
     * none within {@code atMost} fails the caller.
     */
    public static void awaitCompleted(Response answer, Supplier<JsonPath> status, Duration atMost) {
        if (answer.statusCode() == 200) {
            return;
        }
        if (answer.statusCode() != 202) {
            throw new AssertionError("POST /qawk/v1/inventory/sync answered " + answer.statusCode() + ": "
                    + answer.asString());
        }
        Instant requestedAt = Instant.parse(answer.jsonPath().getString("requestedAt"));
        JsonPath last = await().atMost(atMost).pollInterval(Duration.ofMillis(500)).until(status::get,
                s -> endOf(requestedAt, s) != null);
        if (endOf(requestedAt, last) == End.FAILED) {
            throw new AssertionError("the inventory sync asked for at " + requestedAt + " failed: "
                    + last.getString("lastError"));
        }
    }

    /** {@link #endOf(Instant, String, String, String)} of a {@code GET /qawk/v1/inventory} answer. */
    public static End endOf(Instant requestedAt, JsonPath status) {
        return endOf(requestedAt, status.getString("lastStartedAt"), status.getString("lastCompletedAt"),
                status.getString("lastFailedAt"));
    }

    private static Instant instant(String text) {
        return text == null || text.isBlank() || "null".equals(text) ? null : Instant.parse(text);
    }
}
