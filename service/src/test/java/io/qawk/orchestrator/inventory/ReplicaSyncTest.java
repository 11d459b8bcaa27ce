package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 42: two replicas on one Postgres (a Helm rolling update) sync at the same moment. Each rebuilds the discovered
 * systems (delete, then insert); without a lock between them the later insert failed with {@code duplicate key value
 * violates unique constraint "discovered_system_pkey"}. Here two rebuilds start together, on two threads and two
 * connections, many times over, as two replicas' syncs would.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ReplicaSyncTest {

    static final int ROUNDS = 40;

    @Inject
    InventoryStore store;

    @Test
    void twoRebuildsAtOnceNeverFailEachOther() throws Exception {
        try (Lanes lanes = new Lanes("rsync-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c02").system("lane-03", "c01");
            lanes.discovered(3);
            ExecutorService two = Executors.newFixedThreadPool(2);
            List<String> failures = new ArrayList<>();
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    CyclicBarrier together = new CyclicBarrier(2);
                    List<CompletableFuture<Void>> both = new ArrayList<>();
                    for (int replica = 0; replica < 2; replica++) {
                        both.add(CompletableFuture.runAsync(() -> {
                            try {
                                together.await(30, TimeUnit.SECONDS);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            store.refreshSystems(Map.of());
                        }, two));
                    }
                    for (CompletableFuture<Void> f : both) {
                        try {
                            f.get(120, TimeUnit.SECONDS);
                        } catch (ExecutionException e) {
                            failures.add("round " + round + ": " + causes(e.getCause()));
                        }
                    }
                }
            } finally {
                two.shutdownNow();
            }
            assertThat(failures).as("rebuilds that failed the other's").isEmpty();
            Lanes.sync();
            lanes.discovered(3);
        }
    }

    private static String causes(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = t; c != null && s.length() < 600; c = c.getCause() == c ? null : c.getCause()) {
            s.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" / ");
        }
        return s.toString();
    }
}
