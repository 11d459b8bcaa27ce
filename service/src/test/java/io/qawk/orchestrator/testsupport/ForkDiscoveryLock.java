package io.qawk.orchestrator.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;

/**
 * Lets one test JVM at a time discover test classes.
 *
 * <p>
 * The suite runs in two surefire forks that share {@code target/test-classes}. When Quarkus 3.33 discovers a
 * {@code @QuarkusTest} class it writes {@code test-classes/test-classes.idx} (truncating it first) and reads it back
 * at once; a fork reading while the other writes fails its class with "Not a jandex index" (quarkusio/quarkus#54579,
 * fixed after 3.33: the write there goes to a temporary file and is moved into place). This listener holds an
 * exclusive file lock beside {@code test-classes} from the start of a discovery to its end, so the write and the read
 * of one fork never overlap the other's. Tests run in parallel as before; only discoveries (a Quarkus build for a new
 * profile, milliseconds otherwise) wait for each other. The operating system drops the lock when a fork dies.
 *
 * <p>
 * Registered through {@code META-INF/services/org.junit.platform.launcher.LauncherDiscoveryListener}.
 */
public final class ForkDiscoveryLock implements LauncherDiscoveryListener {

    static final String LOCK_FILE = "test-classes.idx.lock";

    /** One lock per JVM, however many launchers or class loaders create this listener. */
    private static final Object MONITOR = new Object();
    private static FileChannel channel;
    private static FileLock held;
    private static int depth;

    @Override
    public void launcherDiscoveryStarted(LauncherDiscoveryRequest request) {
        acquire(lockFile());
    }

    @Override
    public void launcherDiscoveryFinished(LauncherDiscoveryRequest request) {
        release();
    }

    static void acquire(Path file) {
        synchronized (MONITOR) {
            if (depth++ > 0) {
                return;
            }
            try {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                held = channel.lock();
            } catch (IOException e) {
                depth--;
                closeQuietly();
                throw new UncheckedIOException("cannot lock " + file + " for test discovery", e);
            }
        }
    }

    static void release() {
        synchronized (MONITOR) {
            if (depth == 0 || --depth > 0) {
                return;
            }
            closeQuietly();
        }
    }

    private static void closeQuietly() {
        try {
            if (held != null) {
                held.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // closing the channel releases the lock; the process exiting would too
        } finally {
            held = null;
            channel = null;
        }
    }

    /** Beside the test-classes directory this class was loaded from, which both forks share. */
    static Path lockFile() {
        try {
            Path classes = Path.of(ForkDiscoveryLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.resolveSibling(LOCK_FILE);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Holds the lock on the file named by the first argument until standard input closes (for the test). */
    public static void main(String[] args) throws IOException {
        acquire(Path.of(args[0]));
        System.out.println("held");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the parent to close our input
        }
        release();
    }
}
