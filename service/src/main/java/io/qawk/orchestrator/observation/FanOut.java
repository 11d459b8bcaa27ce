package io.qawk.orchestrator.observation;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a pass's independent hawkBit questions (one per set and chunk of ids) side by side, at most
 * {@link EngineConfig#parallelRequests()} at once. A hawkBit busy with thousands of polling devices answers each in a
 * second or more; asked one after the other, a pass with a few chunks took as many seconds, and every order change
 * waited for it. The number of requests is the same; only their waiting overlaps.
 */
@ApplicationScoped
public class FanOut {

    @Inject
    EngineConfig config;

    private ExecutorService pool;

    /**
     * Runs every task and returns once all have ended; the first task's failure (in list order) is thrown as it was
     * thrown, after the others ended. One task, or one request at a time, runs on the caller's thread.
     */
    public void runAll(List<Runnable> tasks) {
        if (tasks.size() <= 1 || config.parallelRequests() <= 1) {
            tasks.forEach(Runnable::run);
            return;
        }
        List<Future<?>> futures = new ArrayList<>(tasks.size());
        for (Runnable task : tasks) {
            futures.add(pool().submit(task));
        }
        RuntimeException first = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(other -> other.cancel(true));
                throw new IllegalStateException("interrupted while asking hawkBit", e);
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            AtomicInteger n = new AtomicInteger();
            pool = Executors.newFixedThreadPool(config.parallelRequests(), r -> {
                Thread t = new Thread(r, "qawk-engine-hawkbit-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    @PreDestroy
    synchronized void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
