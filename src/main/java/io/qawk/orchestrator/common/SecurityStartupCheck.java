package io.qawk.orchestrator.common;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.ConfigProvider;

/** Refuses to start with an admin user that has no password: an open orchestrator could push firmware anywhere. */
@ApplicationScoped
public class SecurityStartupCheck {

    void check(@Observes StartupEvent ev) {
        String admin = ConfigProvider.getConfig()
                .getOptionalValue("quarkus.security.users.embedded.users.admin", String.class).orElse("");
        if (admin.isBlank()) {
            throw new IllegalStateException("No password is set for the admin user: set QAWK_ADMIN_PASSWORD "
                    + "(and QAWK_VIEWER_PASSWORD for the read-only viewer)");
        }
    }
}
