package io.qawk.orchestrator.common;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses to start when nobody could sign in, saying how to configure a way in: neither an identity provider
 * ({@code QAWK_OIDC_ISSUER}) nor basic auth with an admin credential (basic auth on, the default, without one; or
 * switched off with {@code QAWK_BASIC_AUTH=false}). An open orchestrator could push firmware anywhere. It also refuses,
 * when passwords are configured hashed, an admin "hash" that is not one (most likely a plain password put where the
 * hash belongs; it would never match, and it would sit in the configuration in clear).
 */
@ApplicationScoped
public class SecurityStartupCheck {

    void check(@Observes StartupEvent ev) {
        Config config = ConfigProvider.getConfig();
        String admin = config.getOptionalValue("quarkus.security.users.embedded.users.admin", String.class).orElse("");
        boolean plainText = config.getOptionalValue("quarkus.security.users.embedded.plain-text", Boolean.class)
                .orElse(false);
        String algorithm = config.getOptionalValue("quarkus.security.users.embedded.algorithm", String.class)
                .orElse("digest-sha-512");
        boolean basicAuth = config.getOptionalValue("qawk.basic-auth", Boolean.class).orElse(true);
        boolean oidc = config.getOptionalValue("qawk.oidc.issuer", String.class).filter(s -> !s.isBlank()).isPresent();
        Optional<String> problem = problem(admin, plainText, algorithm, System.getenv(), basicAuth, oidc);
        if (problem.isPresent()) {
            throw new IllegalStateException(problem.get());
        }
    }

    /** As {@link #problem(String, boolean, String, Map, boolean, boolean)} with basic auth on and no provider. */
    public static Optional<String> problem(String admin, boolean plainText, String algorithm, Map<String, String> env) {
        return problem(admin, plainText, algorithm, env, true, false);
    }

    /**
     * Why nobody could sign in, or the admin credential is unusable; empty when it is fine. Never quotes the
     * configured value.
     */
    public static Optional<String> problem(String admin, boolean plainText, String algorithm, Map<String, String> env,
                                           boolean basicAuth, boolean oidc) {
        Optional<String> none = noWayIn(admin != null && !admin.isBlank(), plainText, basicAuth, oidc);
        if (none.isPresent() || !basicAuth || admin == null || admin.isBlank()) {
            return none;
        }
        if (!plainText) {
            int hexLength = hexLength(algorithm);
            String value = admin.strip();
            if (hexLength > 0 && (value.length() != hexLength || !value.matches("[0-9a-fA-F]+"))) {
                return Optional.of("The admin password hash (QAWK_ADMIN_PASSWORD_HASH) is not a " + hexLength
                        + " hexadecimal digit " + algorithm + " hash; is it a plain password? Compute it with "
                        + "printf '%s' 'admin:Quarkus:<password>' | sha512sum; see docs/security.md");
            }
        }
        return Optional.empty();
    }

    /**
     * Why nobody could sign in, or empty: neither an identity provider nor basic auth with an admin credential.
     * Also asked while the configuration is assembled ({@code security/SignInSettings}), before anything starts.
     */
    public static Optional<String> noWayIn(boolean adminCredential, boolean plainText, boolean basicAuth, boolean oidc) {
        if (oidc) {
            return Optional.empty(); // people sign in through the provider; basic auth may have no admin
        }
        if (!basicAuth) {
            return Optional.of("No way to sign in is configured: basic auth is switched "
                    + "off (QAWK_BASIC_AUTH=false) and no identity provider is set. Set QAWK_OIDC_ISSUER (with "
                    + "QAWK_OIDC_CLIENT_ID and QAWK_OIDC_ADMIN_ROLES), or turn basic auth on; see docs/security.md");
        }
        if (adminCredential) {
            return Optional.empty();
        }
        String provider = "; or sign in through an identity provider instead: set QAWK_OIDC_ISSUER "
                + "(docs/security.md)";
        if (plainText) {
            return Optional.of("No password is set for the admin user: set QAWK_ADMIN_PASSWORD "
                    + "(and QAWK_VIEWER_PASSWORD for the read-only viewer)" + provider);
        }
        return Optional.of("No way to sign in is configured: no password hash is set for the admin user: set "
                + "QAWK_ADMIN_PASSWORD_HASH to "
                + "the hex SHA-512 of 'admin:Quarkus:<password>', e.g. printf '%s' 'admin:Quarkus:<password>' "
                + "| sha512sum (and QAWK_VIEWER_PASSWORD_HASH for the read-only viewer), or QAWK_ADMIN_PASSWORD, which is "
                + "hashed at start-up; see docs/security.md" + provider);
    }

    /** Hex digits of a hash of this Quarkus digest algorithm; 0 when unknown. */
    private static int hexLength(String algorithm) {
        return switch (algorithm.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "digest-md5" -> 32;
            case "digest-sha" -> 40;
            case "digest-sha-256", "digest-sha-512-256" -> 64;
            case "digest-sha-384" -> 96;
            case "digest-sha-512" -> 128;
            default -> 0;
        };
    }
}
