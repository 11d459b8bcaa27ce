package io.qawk.orchestrator.security;

import io.qawk.orchestrator.common.HashedPasswordsConfigSourceFactory;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How the admin and viewer credentials end up in the configuration: always as SHA-512 hashes outside dev mode. */
class HashedPasswordsConfigTest {

    static final String ADMIN = "quarkus.security.users.embedded.users.admin";

    private static SmallRyeConfig config(Map<String, String> settings) {
        Map<String, String> props = new HashMap<>(Map.of(
                "quarkus.security.users.embedded.plain-text", "false",
                ADMIN, "${QAWK_ADMIN_PASSWORD_HASH:}",
                "quarkus.security.users.embedded.users.viewer", "${QAWK_VIEWER_PASSWORD_HASH:}"));
        props.putAll(settings);
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withSources(new PropertiesConfigSource(props, "app", 250))
                .withSources(new HashedPasswordsConfigSourceFactory()).build();
    }

    static String sha512(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aHashIsTakenAsItIs() throws Exception {
        String hash = sha512("admin:Quarkus:s3cret");
        assertThat(config(Map.of("QAWK_ADMIN_PASSWORD_HASH", hash, "QAWK_ADMIN_PASSWORD", "other"))
                .getValue(ADMIN, String.class)).isEqualTo(hash);
    }

    @Test
    void aPlainPasswordFromTheEnvironmentIsHashedAtStartUp() throws Exception {
        SmallRyeConfig c = config(Map.of("QAWK_ADMIN_PASSWORD", "s3cret", "QAWK_VIEWER_PASSWORD", "look"));
        assertThat(c.getValue(ADMIN, String.class)).isEqualTo(sha512("admin:Quarkus:s3cret"));
        assertThat(c.getValue("quarkus.security.users.embedded.users.viewer", String.class))
                .isEqualTo(sha512("viewer:Quarkus:look"));
    }

    @Test
    void nothingSetStaysEmptySoTheStartUpCheckRefuses() {
        assertThat(config(Map.of()).getOptionalValue(ADMIN, String.class)).isEmpty();
    }

    @Test
    void plainTextModeIsLeftAlone() {
        assertThat(config(Map.of("quarkus.security.users.embedded.plain-text", "true", ADMIN, "admin",
                "QAWK_ADMIN_PASSWORD", "s3cret")).getValue(ADMIN, String.class)).isEqualTo("admin");
    }
}
