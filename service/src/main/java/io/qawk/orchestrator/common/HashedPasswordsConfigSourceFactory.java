package io.qawk.orchestrator.common;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Passwords are configured hashed ({@code quarkus.security.users.embedded.plain-text=false}, SHA-512 of
 * {@code <user>:Quarkus:<password>}), from {@code QAWK_ADMIN_PASSWORD_HASH} / {@code QAWK_VIEWER_PASSWORD_HASH} /
 * {@code QAWK_APPROVER_PASSWORD_HASH}.
 * For installations that still set the plain {@code QAWK_ADMIN_PASSWORD} / {@code QAWK_VIEWER_PASSWORD} (older Helm
 * values, compose files), this hashes them when the service starts, so the configuration the service holds is the
 * hash either way. A hash given explicitly wins; dev mode (plain-text) and tests are left alone.
 */
public class HashedPasswordsConfigSourceFactory implements ConfigSourceFactory {

    static final String REALM = "Quarkus";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (context.getProfiles().contains("test") || Boolean.parseBoolean(
                valueOf(context.getValue("quarkus.security.users.embedded.plain-text")))) {
            return List.of();
        }
        Map<String, String> props = new HashMap<>();
        for (String user : List.of("admin", "viewer", "approver")) {
            String prefix = "QAWK_" + user.toUpperCase(Locale.ROOT) + "_PASSWORD";
            String hash = valueOf(context.getValue(prefix + "_HASH"));
            String plain = valueOf(context.getValue(prefix));
            if (hash.isBlank() && !plain.isEmpty()) {
                props.put("quarkus.security.users.embedded.users." + user, sha512Hex(user + ":" + REALM + ":" + plain));
            } else if (!hash.isBlank()) {
                // the approver is optional, so application.properties names no approver user an empty hash would break
                props.put("quarkus.security.users.embedded.users." + user, hash);
            }
        }
        // above application.properties (250), below system properties and env (300/400): explicit settings win
        return props.isEmpty() ? List.of() : List.of(new PropertiesConfigSource(props, "qawk-hashed-passwords", 275));
    }

    private static String valueOf(ConfigValue v) {
        return v == null || v.getValue() == null ? "" : v.getValue();
    }

    static String sha512Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is not available", e);
        }
    }
}
