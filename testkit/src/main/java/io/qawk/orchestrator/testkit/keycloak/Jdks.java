package io.qawk.orchestrator.testkit.keycloak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a JDK of at least a given feature version for a child process (Keycloak 26 needs 21, the build runs on 17):
 * the one named by the system property {@value #PROPERTY} or the environment variable {@value #ENV}, else this JVM's
 * own when it is new enough, else the newest under {@code /usr/lib/jvm} (where Debian and Temurin's packages put
 * theirs). When none is found it fails saying what is missing, where it looked and how to name one.
 */
public final class Jdks {

    public static final String PROPERTY = "qawk.testkit.keycloak-java-home";
    public static final String ENV = "QAWK_KEYCLOAK_JAVA_HOME";
    static final Path SYSTEM_JVMS = Path.of("/usr/lib/jvm");

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private Jdks() {
    }

    /** The home of a JDK of at least {@code feature}, for {@code purpose} (said in the error when there is none). */
    public static Path atLeast(int feature, String purpose) {
        String named = Optional.ofNullable(System.getProperty(PROPERTY)).filter(s -> !s.isBlank())
                .orElse(System.getenv(ENV));
        if (named != null && !named.isBlank()) {
            Path home = Path.of(named);
            int v = featureOf(home);
            if (v < feature) {
                throw new IllegalStateException(purpose + " needs a JDK " + feature + " or newer; " + PROPERTY + "/"
                        + ENV + " names " + home + (v < 0 ? ", which is not a JDK (no bin/java and release file)"
                        : ", which is Java " + v));
            }
            return home;
        }
        Path own = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() >= feature && Files.isExecutable(own.resolve("bin/java"))) {
            return own;
        }
        List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(SYSTEM_JVMS)) {
            try (Stream<Path> s = Files.list(SYSTEM_JVMS)) {
                s.filter(p -> featureOf(p) >= feature).forEach(candidates::add);
            } catch (IOException e) {
                // nothing found there; said below
            }
        }
        return candidates.stream().max(Comparator.comparingInt(Jdks::featureOf).thenComparing(Path::toString))
                .orElseThrow(() -> new IllegalStateException(purpose + " needs a JDK " + feature + " or newer, and "
                        + "none was found: this JVM is Java " + Runtime.version().feature() + " and " + SYSTEM_JVMS
                        + " holds none that new. Install one (e.g. Temurin 25 under " + SYSTEM_JVMS + ") or name its"
                        + " home with -D" + PROPERTY + "=<jdk> or the environment variable " + ENV + "."));
    }

    /** The feature version of the JDK at {@code home} (from its {@code release} file), or -1 when it is not one. */
    static int featureOf(Path home) {
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(home.resolve("release"))) {
            return -1;
        }
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
