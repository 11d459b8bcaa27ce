package io.qawk.orchestrator.testkit.keycloak;

import java.nio.file.Path;
import java.security.Security;
import java.util.Optional;

/**
 * One real Keycloak per test JVM, started by the first {@link #get()} and stopped when the JVM exits, as
 * {@code SharedHawkbit} does for hawkBit: Quarkus loads the test kit afresh for every application it starts, so the
 * running Keycloak is noted JVM-wide ({@code "pid port clientSecret password log"} in a security property, in memory
 * only) and a later load adopts it while its process lives. Tests sharing it only read its realm: they create nothing
 * in it.
 */
public final class SharedKeycloak {

    static final String JVM_NOTE = "io.qawk.orchestrator.testkit.shared-keycloak";

    private static KeycloakServer server;

    private SharedKeycloak() {
    }

    /** The running Keycloak with the test realms, started on first use in this JVM. */
    public static synchronized KeycloakServer get() {
        if (server == null || !server.isAlive()) {
            if (server != null) {
                server.close();
            }
            server = noted().orElse(null);
            if (server == null) {
                server = KeycloakServer.start();
                Security.setProperty(JVM_NOTE, server.pid() + " " + server.port() + " " + server.clientSecret() + " "
                        + server.password() + " " + server.logFile());
            }
        }
        return server;
    }

    private static Optional<KeycloakServer> noted() {
        String note = Security.getProperty(JVM_NOTE);
        if (note == null || note.isBlank()) {
            return Optional.empty();
        }
        String[] f = note.split(" ", 5);
        return KeycloakServer.adopt(Long.parseLong(f[0]), Integer.parseInt(f[1]), f[2], f[3], Path.of(f[4]));
    }
}
