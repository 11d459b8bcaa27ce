package io.qawk.orchestrator.deployment.store;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A column's values go in a Java array of the column's own type (so the driver sends them in binary): a value of
 * another type, or a type the writers do not use, fails before anything is sent. The writers' tests round-trip every
 * column, nulls included, through the embedded Postgres.
 */
class ArrayColumnsTest {

    @Test
    void aValueOfAnotherTypeThanItsColumnsFailsBeforeAnythingIsSent() {
        ArrayColumns<Integer> columns = new ArrayColumns<>(null, List.of(1, 2), null);

        assertThatThrownBy(() -> columns.add("int8", n -> n)).isInstanceOf(ArrayStoreException.class);
        assertThatThrownBy(() -> columns.add("text", n -> n)).isInstanceOf(ArrayStoreException.class);
        assertThatThrownBy(() -> columns.add("bool", n -> n)).isInstanceOf(ArrayStoreException.class);
    }

    @Test
    void aColumnTypeTheWritersDoNotUseIsRefused() {
        ArrayColumns<Integer> columns = new ArrayColumns<>(null, List.of(1), null);

        assertThatThrownBy(() -> columns.add("numeric", n -> n)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("numeric");
    }
}
