package io.qawk.orchestrator.testkit.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The previous version of the service, taken from the project's git history and packaged once, for a rolling upgrade
 * beside the version under test (issue 57). "Previous" is the parent of the last commit that changed the migration
 * scripts, so the version under test migrates the previous one's schema when it starts;
 * {@code -Dqawk.previous.commit=<rev>} names another. The commit's files ({@code git archive}) are packaged with its
 * own Maven wrapper, tests skipped, into {@code target/previous-version/<commit>} and kept there: a second run with the
 * same commit reuses the jar.
 */
public final class PreviousVersion {

    static final String MIGRATIONS = "service/src/main/resources/db/migration";
    static final Duration BUILD_DEADLINE = Duration.ofMinutes(20);

    private final String commit;
    private final Path jar;
    private final Duration buildTime;

    private PreviousVersion(String commit, Path jar, Duration buildTime) {
        this.commit = commit;
        this.jar = jar;
        this.buildTime = buildTime;
    }

    /** The commit, packaged (or found packaged before). */
    public static synchronized PreviousVersion get(Path projectDir) {
        String rev = System.getProperty("qawk.previous.commit");
        String commit = rev != null && !rev.isBlank() ? git(projectDir, "rev-parse", rev + "^{commit}")
                : git(projectDir, "rev-parse", git(projectDir, "log", "-1", "--format=%H", "HEAD", "--", MIGRATIONS) + "^");
        Path home = projectDir.resolve("target").resolve("previous-version");
        Path done = home.resolve(commit);
        Path jar = done.resolve("service/target/quarkus-app/quarkus-run.jar");
        if (Files.isRegularFile(jar)) {
            return new PreviousVersion(commit, jar, Duration.ZERO);
        }
        Instant t0 = Instant.now();
        try {
            Files.createDirectories(home);
            Path work = Files.createTempDirectory(home, "building-");
            run(projectDir, home.resolve(commit + "-archive.log"), "bash", "-c",
                    "git archive --format=tar " + commit + " | tar -x -C '" + work + "'");
            run(work, home.resolve(commit + "-build.log"), "./mvnw", "-B", "-ntp", "-q", "-pl", "service", "-am",
                    "package", "-Dmaven.test.skip=true", "-Dqawk.openapi-lint.skip=true", "-Dqawk.prism.skip=true",
                    "-Dqawk.keycloak.skip=true", "-Dqawk.swupdate.skip=true", "-Dqawk.install-prometheus.skip=true",
                    "-Dqawk.browser.skip=true");
            Files.move(work, done, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not package the previous version " + commit, e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("packaging " + commit + " made no " + jar);
        }
        return new PreviousVersion(commit, jar, Duration.between(t0, Instant.now()));
    }

    public String commit() {
        return commit;
    }

    public Path jar() {
        return jar;
    }

    /** How long packaging took in this JVM; zero when the jar was found packaged. */
    public Duration buildTime() {
        return buildTime;
    }

    private static String git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out
                        + " (the previous version is taken from the git history: a clone with its history is needed)");
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void run(Path dir, Path log, String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(BUILD_DEADLINE.toMinutes(), TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " took longer than " + BUILD_DEADLINE
                        + "; log: " + log);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (" + p.exitValue() + "); log: " + log);
        }
    }
}
