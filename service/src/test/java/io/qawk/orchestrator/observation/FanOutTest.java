package io.qawk.orchestrator.observation;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FanOutTest {

    private final FanOut fanOut = new FanOut();

    private static EngineConfig parallel(int n) {
        return (EngineConfig) Proxy.newProxyInstance(EngineConfig.class.getClassLoader(), new Class<?>[] {EngineConfig.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("parallelRequests")) {
                        return n;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @AfterEach
    void stop() {
        fanOut.stop();
    }

    /** Three tasks that each wait for the other two: they end only if they run at the same time. */
    @Test
    void tasksRunSideBySide() {
        fanOut.config = parallel(3);
        CyclicBarrier all = new CyclicBarrier(3);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Runnable meet = () -> {
            threads.add(Thread.currentThread().getName());
            try {
                all.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the tasks did not run side by side", e);
            }
        };
        fanOut.runAll(List.of(meet, meet, meet));
        assertThat(threads).hasSize(3).allMatch(t -> t.startsWith("qawk-engine-hawkbit-"));
    }

    @Test
    void theFirstFailureIsThrownAsItWasAfterTheOthersEnded() {
        fanOut.config = parallel(2);
        AtomicInteger ended = new AtomicInteger();
        IllegalArgumentException first = new IllegalArgumentException("first");
        assertThatThrownBy(() -> fanOut.runAll(List.of(
                () -> {
                    throw first;
                },
                ended::incrementAndGet,
                () -> {
                    throw new IllegalStateException("second");
                },
                ended::incrementAndGet))).isSameAs(first);
        assertThat(ended).hasValue(2);
    }

    @Test
    void oneTaskOrOneRequestAtATimeRunsOnTheCallersThread() {
        String caller = Thread.currentThread().getName();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        fanOut.config = parallel(4);
        fanOut.runAll(List.of(() -> threads.add(Thread.currentThread().getName())));
        fanOut.config = parallel(1);
        fanOut.runAll(List.of(() -> threads.add(Thread.currentThread().getName()),
                () -> threads.add(Thread.currentThread().getName())));
        assertThat(threads).containsExactly(caller);
    }
}
