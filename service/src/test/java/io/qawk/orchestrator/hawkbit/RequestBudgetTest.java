package io.qawk.orchestrator.hawkbit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.qawk.orchestrator.hawkbit.ApiCall.Kind.READ;
import static io.qawk.orchestrator.hawkbit.ApiCall.Kind.WRITE;
import static io.qawk.orchestrator.hawkbit.RequestBudget.Priority.FIRST;
import static io.qawk.orchestrator.hawkbit.RequestBudget.Priority.LATER;
import static org.assertj.core.api.Assertions.assertThat;

/** The request budget on a fixed clock: a sleeper that moves the clock instead of waiting. */
class RequestBudgetTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(5 * SECOND);

    private RequestBudget budget(double reads, double writes) {
        return new RequestBudget(reads, writes, clock::get, clock::addAndGet);
    }

    @Test
    void noSecondHoldsMoreRequestsThanTheBudgetWhenManyAskAtOnce() throws InterruptedException {
        RequestBudget budget = budget(16, 2);
        List<Long> starts = new ArrayList<>();
        long begin = clock.get();
        for (int i = 0; i < 100; i++) {
            budget.acquire(READ, FIRST);
            starts.add(clock.get());
        }
        for (long from : starts) {
            long inWindow = starts.stream().filter(t -> t >= from && t < from + SECOND).count();
            assertThat(inWindow).as("reads in the second from %d ms", (from - begin) / MS).isLessThanOrEqualTo(16);
        }
        assertThat(clock.get() - begin).as("100 reads at 16 a second").isBetween(99 * SECOND / 16, 100 * SECOND / 16);
        // the other kind has a budget of its own
        long before = clock.get();
        budget.acquire(WRITE, FIRST);
        budget.acquire(WRITE, FIRST);
        assertThat(clock.get() - before).isEqualTo(SECOND / 2);
    }

    @Test
    void workThatMovesDevicesGoesBeforeTheInventoryAndGuardReads() {
        RequestBudget budget = budget(10, 0);
        long t = clock.get();
        assertThat(budget.take(READ, t, FIRST)).isEqualTo(new RequestBudget.Turn(true, 0));
        assertThat(budget.take(READ, t, FIRST)).isEqualTo(new RequestBudget.Turn(true, 100 * MS));
        // a later read never books ahead: it is told when to ask again
        assertThat(budget.take(READ, t, LATER)).isEqualTo(new RequestBudget.Turn(false, 200 * MS));
        // meanwhile the engine asks again: it books the next turn, the later read waits on
        assertThat(budget.take(READ, t + 150 * MS, FIRST)).isEqualTo(new RequestBudget.Turn(true, 50 * MS));
        assertThat(budget.take(READ, t + 200 * MS, LATER)).isEqualTo(new RequestBudget.Turn(false, 100 * MS));
        // once the engine leaves the turns free, the later read takes one
        assertThat(budget.take(READ, t + 300 * MS, LATER)).isEqualTo(new RequestBudget.Turn(true, 0));
        assertThat(budget.take(READ, t + 300 * MS, FIRST)).isEqualTo(new RequestBudget.Turn(true, 100 * MS));
    }

    @Test
    void withoutABudgetNobodyWaits() throws InterruptedException {
        RequestBudget budget = budget(0, 0);
        long begin = clock.get();
        for (int i = 0; i < 1000; i++) {
            budget.acquire(i % 2 == 0 ? READ : WRITE, i % 3 == 0 ? LATER : FIRST);
        }
        assertThat(clock.get()).isEqualTo(begin);
        assertThat(budget.limits(READ)).isFalse();
    }

    @Test
    void a429PausesItsKindForEveryCallerIncludingTurnsBookedBefore() throws InterruptedException {
        RequestBudget budget = budget(10, 0);
        long t = clock.get();
        budget.acquire(READ, FIRST);
        // a turn booked for t + 100 ms, then hawkBit answers 429 with Retry-After: 2
        assertThat(budget.take(READ, t, FIRST)).isEqualTo(new RequestBudget.Turn(true, 100 * MS));
        assertThat(budget.pause(READ, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(budget.take(READ, t + 100 * MS, FIRST)).isEqualTo(new RequestBudget.Turn(false, 1900 * MS));
        assertThat(budget.take(READ, t + 100 * MS, LATER)).isEqualTo(new RequestBudget.Turn(false, 1900 * MS));
        // writes are not paused by a read's 429
        assertThat(budget.take(WRITE, t, FIRST)).isEqualTo(new RequestBudget.Turn(true, 0));
        // acquire waits the pause out and then its turn
        budget.acquire(READ, FIRST);
        assertThat(clock.get() - t).isEqualTo(2 * SECOND);
        // a second 429 inside the pause adds only what it asks for beyond it; each pause counted once
        assertThat(budget.pause(READ, Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
        clock.addAndGet(500 * MS);
        assertThat(budget.pause(READ, Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(500));
        assertThat(budget.rateLimited()).isEqualTo(Duration.ofMillis(3500));
    }

    @Test
    void aPauseAlsoHoldsWhenNoBudgetIsSet() throws InterruptedException {
        RequestBudget budget = budget(0, 0);
        long t = clock.get();
        budget.pause(WRITE, Duration.ofSeconds(3));
        budget.acquire(WRITE, FIRST);
        assertThat(clock.get() - t).isEqualTo(3 * SECOND);
        budget.acquire(READ, LATER);
        assertThat(clock.get() - t).isEqualTo(3 * SECOND);
    }

    @Test
    void retryAfterIsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-12-07T18:00:00Z");
        assertThat(RequestBudget.retryAfter("7", now)).isEqualTo(Duration.ofSeconds(7));
        assertThat(RequestBudget.retryAfter(" 0 ", now)).isEqualTo(Duration.ZERO);
        assertThat(RequestBudget.retryAfter("Mon, 07 Dec 2026 18:00:12 GMT", now)).isEqualTo(Duration.ofSeconds(12));
        assertThat(RequestBudget.retryAfter("Mon, 07 Dec 2026 17:59:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(RequestBudget.retryAfter(null, now)).isEqualTo(RequestBudget.DEFAULT_RETRY_AFTER);
        assertThat(RequestBudget.retryAfter("soon", now)).isEqualTo(RequestBudget.DEFAULT_RETRY_AFTER);
        assertThat(RequestBudget.retryAfter("99999999999999999999999", now))
                .isGreaterThan(RequestBudget.MAX_RETRY_AFTER);
    }

    @Test
    void requestsAreReadsOrWritesOfABoundedSetOfPathFamilies() {
        assertThat(ApiCall.endpoints().values()).extracting(ApiCall.Endpoint::family).containsOnly("targets",
                "actions", "distributionsets", "rollouts", "system", "autoassignments", "targetfilters");
        ApiCall assign = ApiCall.of(api -> api.assign(7, List.of()));
        assertThat(List.of(assign.kind(), assign.method(), assign.family()))
                .containsExactly(WRITE, "POST", "distributionsets");
        ApiCall cancel = ApiCall.of(api -> api.cancelAction("dev-1", 9));
        assertThat(List.of(cancel.kind(), cancel.method(), cancel.family())).containsExactly(WRITE, "DELETE", "actions");
        ApiCall status = ApiCall.of(api -> api.actionStatus("dev-1", 9, 0, 50));
        assertThat(List.of(status.kind(), status.method(), status.family())).containsExactly(READ, "GET", "actions");
        ApiCall attributes = ApiCall.of(api -> api.attributes("dev-1"));
        assertThat(List.of(attributes.kind(), attributes.family())).containsExactly(READ, "targets");
    }
}
