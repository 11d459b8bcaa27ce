package io.qawk.orchestrator.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * {@link Machine.Allocation} counts what threads that end during the span allocated. The old counting (live threads'
 * sum at the end minus live threads' sum at the start) lost all of it: a thread that had ended was in neither sum,
 * or only in the first one.
 */
class AllocationCountingTest {

    private static final long MB = 1024 * 1024;
    private static volatile byte[] sink;

    @Test
    void aThreadBornAndEndedInTheSpanIsCounted() throws InterruptedException {
        Machine.Allocation a = Machine.startCounting();
        Thread t = new Thread(() -> {
            allocate(50);
            pause(200); // one sampler interval and more: it is seen before it ends
        }, "alloc-test-born-inside");
        t.start();
        t.join();
        pause(100);
        long bytes = a.bytes();
        assertTrue(bytes >= 45 * MB, () -> "counted " + bytes / MB + " MB, expected at least 45 MB");
    }

    @Test
    void aThreadBornBeforeTheSpanIsCountedFromTheStartOnly() throws InterruptedException {
        CountDownLatch before = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            allocate(30); // before the span: not counted
            before.countDown();
            await(go);
            allocate(50);
            pause(200);
        }, "alloc-test-born-before");
        t.start();
        before.await();
        Machine.Allocation a = Machine.startCounting();
        go.countDown();
        t.join();
        pause(100);
        long bytes = a.bytes();
        assertTrue(bytes >= 45 * MB && bytes < 75 * MB, () -> "counted " + bytes / MB + " MB, expected about 50 MB");
    }

    private static void allocate(int megabytes) {
        for (int i = 0; i < megabytes; i++) {
            sink = new byte[(int) MB];
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
