package io.qawk.orchestrator.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a request did, as the audit lists it: read from its method and path. */
class AuditCommandTest {

    @Test
    void aCommandIsTheLastWordOfItsPathOnWhatComesBefore() {
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemdeployments/51/runs/700/rollback", null))
                .contains(new AuditCommand("rollback", "systemdeployments/51/runs/700"));
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemdeployments/51/start", null))
                .contains(new AuditCommand("start", "systemdeployments/51"));
        assertThat(AuditCommand.of("POST", "/qawk/v1/fleets/3/promote", null))
                .contains(new AuditCommand("promote", "fleets/3"));
        assertThat(AuditCommand.of("POST", "/qawk/v1/manifests/import", null))
                .contains(new AuditCommand("import", "manifests"));
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemtypes/1/systems/device-07/mend", 53L))
                .contains(new AuditCommand("mend", "systemtypes/1/systems/device-07"));
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemtypes/1/systems/0007/mend", 53L))
                .contains(new AuditCommand("mend", "systemtypes/1/systems/0007"));
    }

    @Test
    void createsUpdatesAndDeletesAreNamedByTheirMethod() {
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemdeployments", 52L))
                .contains(new AuditCommand("create", "systemdeployments/52"));
        assertThat(AuditCommand.of("PUT", "/qawk/v1/fleets/3", null)).contains(new AuditCommand("update", "fleets/3"));
        assertThat(AuditCommand.of("DELETE", "/qawk/v1/manifests/9", null))
                .contains(new AuditCommand("delete", "manifests/9"));
    }

    @Test
    void readsPreviewsAndOtherPathsAreNoCommands() {
        assertThat(AuditCommand.of("GET", "/qawk/v1/systemdeployments/51", null)).isEmpty();
        assertThat(AuditCommand.of("POST", "/qawk/v1/systemdeployments/plan", null)).isEmpty();
        assertThat(AuditCommand.of("POST", "/ui/logout", null)).isEmpty();
        assertThat(AuditCommand.of("POST", "/qawk/v1/", null)).isEmpty();
    }
}
