package io.qawk.orchestrator.deployment.model;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "This run drives its system" is {@link RunState#drives}: its SQL, generated from it, and the unique index
 * {@code system_run_one_driver}, the referee between replicas, say the same of every state and rollback cause.
 */
@QuarkusTest
class DrivesTest {

    @Inject
    EntityManager em;

    @Test
    @Transactional
    void theOneDriverIndexAndTheGeneratedSqlSayWhatRunStateDrivesSays() {
        String index = (String) em.createNativeQuery("select pg_get_expr(i.indpred, i.indrelid) from pg_index i"
                + " where i.indexrelid = 'system_run_one_driver'::regclass").getSingleResult();
        List<String> disagree = new ArrayList<>();
        List<RollbackCause> causes = new ArrayList<>(Arrays.asList(RollbackCause.values()));
        causes.add(null);
        int driving = 0;
        for (RunState s : RunState.values()) {
            for (RollbackCause c : causes) {
                Object[] row = (Object[]) em.createNativeQuery("select coalesce(" + RunState.drivesSql("") + ", false),"
                                + " coalesce((" + index + "), false) from (select cast(:s as varchar) as state,"
                                + " cast(:c as varchar) as rollback_cause) t")
                        .setParameter("s", s.name()).setParameter("c", c == null ? null : c.name()).getSingleResult();
                boolean drives = s.drives(c);
                driving += drives ? 1 : 0;
                if (!row[0].equals(drives) || !row[1].equals(drives)) {
                    disagree.add(s + "/" + c + ": drives " + drives + ", its SQL " + row[0] + ", the index " + row[1]);
                }
            }
        }
        assertThat(disagree).isEmpty();
        assertThat(driving).as("running, verifying, rolling back (any cause) and succeeded to go back by hand")
                .isEqualTo(3 * causes.size() + 1);
    }
}
