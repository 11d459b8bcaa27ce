package io.qawk.orchestrator.common;

import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failures are Qawk's database being away (503), and which are not (a refusal or a bug). */
class DatabaseUnreachableTest {

    @Test
    void aLostOrRefusedConnectionOrAPoolThatGaveUpIsTheDatabaseAway() {
        assertThat(DatabaseUnreachable.in(new PersistenceException("could not prepare",
                new SQLException("Connection to 127.0.0.1:5432 refused", "08001")))).isTrue();
        assertThat(DatabaseUnreachable.in(new SQLException("An I/O error occurred while sending", "08006"))).isTrue();
        assertThat(DatabaseUnreachable.in(new SQLException("terminating connection due to administrator command",
                "57P01"))).isTrue();
        assertThat(DatabaseUnreachable.in(new IllegalStateException("Could not read",
                new SQLException("Acquisition timeout while waiting for new connection")))).isTrue();
        assertThat(DatabaseUnreachable.in(new RuntimeException(new ConnectException("Connection refused")))).isTrue();
    }

    @Test
    void aRefusalOrABugIsNot() {
        assertThat(DatabaseUnreachable.in(new SQLException("duplicate key value", "23505"))).isFalse();
        assertThat(DatabaseUnreachable.in(new SQLException("value too long", "22001"))).isFalse();
        assertThat(DatabaseUnreachable.in(new NullPointerException())).isFalse();
        assertThat(DatabaseUnreachable.in(null)).isFalse();
    }
}
