package io.qawk.orchestrator.security;

import io.qawk.orchestrator.common.SecurityStartupCheck;
import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns Qawk's sign-in settings into the OIDC extension's: with an issuer ({@code qawk.oidc.issuer}, i.e.
 * {@code QAWK_OIDC_ISSUER}) the provider is the default tenant's server and the tenant is on; without one it is off,
 * and only basic auth signs in. The roles claim is written as operators write it ({@code realm_access.roles},
 * {@code groups}, {@code "https://example.com/roles"} quoted when its name holds dots) and handed to the extension in
 * its own path syntax ({@code realm_access/roles}). A production start with no way in at all is refused here.
 */
public class SignInSettings implements ConfigSourceFactory {

    public static final String ISSUER = "qawk.oidc.issuer";
    public static final String ROLES_CLAIM = "qawk.oidc.roles-claim";
    public static final String DEFAULT_ROLES_CLAIM = "realm_access.roles";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        String issuer = valueOf(context.getValue(ISSUER)).strip();
        refuseWithNoWayIn(context, !issuer.isEmpty());
        String claim = valueOf(context.getValue(ROLES_CLAIM)).strip();
        Map<String, String> props = new HashMap<>();
        props.put("quarkus.oidc.tenant-enabled", String.valueOf(!issuer.isEmpty()));
        if (!issuer.isEmpty()) {
            props.put("quarkus.oidc.auth-server-url", issuer);
        }
        props.put("quarkus.oidc.roles.role-claim-path", claimPath(claim.isEmpty() ? DEFAULT_ROLES_CLAIM : claim));
        // above application.properties (250), below system properties and env (300/400): explicit settings win
        return List.of(new PropertiesConfigSource(props, "qawk-sign-in", 275));
    }

    /**
     * A production start where nobody could sign in stops here, before the database and everything else start, as
     * {@code common/DatabaseRequired} does for a missing database. The test profile and the build are left alone.
     */
    private static void refuseWithNoWayIn(ConfigSourceContext context, boolean oidc) {
        if (ExecutionMode.current() == ExecutionMode.UNSET || context.getProfiles().contains("test")) {
            return;
        }
        boolean basicAuth = !"false".equalsIgnoreCase(valueOf(context.getValue("qawk.basic-auth")).strip());
        boolean plainText = Boolean.parseBoolean(valueOf(context.getValue("quarkus.security.users.embedded.plain-text")));
        boolean admin = !valueOf(context.getValue("quarkus.security.users.embedded.users.admin")).isBlank()
                || !valueOf(context.getValue("QAWK_ADMIN_PASSWORD_HASH")).isBlank()
                || !valueOf(context.getValue("QAWK_ADMIN_PASSWORD")).isBlank();
        Optional<String> problem = SecurityStartupCheck.noWayIn(admin, plainText, basicAuth, oidc);
        if (problem.isPresent()) {
            throw new IllegalStateException(problem.get());
        }
    }

    /** {@code realm_access.roles} as the OIDC extension's claim path, {@code realm_access/roles}; quoted parts kept. */
    public static String claimPath(String dotted) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (char c : dotted.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                part.append(c);
            } else if (c == '.' && !quoted) {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        parts.add(part.toString());
        return String.join("/", parts);
    }

    private static String valueOf(ConfigValue v) {
        return v == null || v.getValue() == null ? "" : v.getValue();
    }
}
