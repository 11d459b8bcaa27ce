package io.qawk.orchestrator.common;

import io.qawk.orchestrator.deployment.model.RunState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlEnumsTest {

    @Test
    void anEnumIsWrittenAsItsStoredName() {
        assertThat(SqlEnums.literal(RunState.ROLLING_BACK)).isEqualTo("'ROLLING_BACK'");
        assertThat(SqlEnums.list(RunState.RUNNING, RunState.VERIFYING)).isEqualTo("('RUNNING', 'VERIFYING')");
    }

    @Test
    void anEmptyListIsRefusedRatherThanWrittenAsInvalidSql() {
        assertThatThrownBy(SqlEnums::list).isInstanceOf(IllegalArgumentException.class);
    }
}
