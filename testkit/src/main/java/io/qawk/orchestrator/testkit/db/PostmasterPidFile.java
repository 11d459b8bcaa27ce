package io.qawk.orchestrator.testkit.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Postgres' lock file of a data folder, {@code postmaster.pid}: its first line is the PID of the postmaster that
 * holds the folder, its second the folder as that postmaster saw it. Postgres creates it when it starts and removes it
 * as the last step of a clean shutdown; a file whose PID is not running is stale (the server died with its machine).
 *
 * @param pid     the postmaster's process id
 * @param dataDir the data folder written by that postmaster
 */
record PostmasterPidFile(long pid, String dataDir) {

    static final String NAME = "postmaster.pid";

    /** The lock file of {@code dataDir}, if there is one with a postmaster PID in it. */
    static Optional<PostmasterPidFile> read(Path dataDir) {
        List<String> lines;
        try {
            lines = Files.readAllLines(dataDir.resolve(NAME), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + dataDir.resolve(NAME), e);
        }
        if (lines.isEmpty()) {
            return Optional.empty(); // being written by a starting postmaster, or cut short: Postgres decides
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        // a negative PID marks a single-user backend (postgres --single), positive the postmaster
        return Optional.of(new PostmasterPidFile(Math.abs(pid), lines.size() > 1 ? lines.get(1).trim() : ""));
    }
}
