package io.qawk.orchestrator.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a client that got 202 from {@code POST …/inventory/sync} knows its pass has ended, and how. */
class InventoryPassTest {

    private static final Instant ASKED = Instant.parse("2026-12-06T10:00:00.000001Z");

    @Test
    void aPassThatStartedBeforeTheRequestIsNotTheOneAskedFor() {
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T09:59:59Z", "2026-12-06T10:00:05Z", null)).isNull();
        assertThat(InventoryPass.endOf(ASKED, null, null, null)).isNull();
    }

    @Test
    void aPassStartedAtOrAfterTheRequestEndsWithItsCompletionOrItsFailure() {
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T10:00:00.000001Z", "2026-12-06T09:00:00Z", null))
                .as("under way: the last completion is an older pass's").isNull();
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T10:00:01Z", "2026-12-06T10:00:30Z", "2026-12-06T09:00:00Z"))
                .isEqualTo(InventoryPass.End.COMPLETED);
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T10:00:01Z", "2026-12-06T09:00:00Z", "2026-12-06T10:00:02Z"))
                .isEqualTo(InventoryPass.End.FAILED);
    }

    @Test
    void ofTwoEndsAfterTheStartTheLaterTells() {
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T10:00:01Z", "2026-12-06T10:00:03Z", "2026-12-06T10:00:02Z"))
                .isEqualTo(InventoryPass.End.COMPLETED);
        assertThat(InventoryPass.endOf(ASKED, "2026-12-06T10:00:01Z", "2026-12-06T10:00:02Z", "2026-12-06T10:00:03Z"))
                .isEqualTo(InventoryPass.End.FAILED);
    }
}
