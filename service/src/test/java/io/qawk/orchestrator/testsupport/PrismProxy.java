package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.BuildInstalls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Stoplight Prism's validating proxy ({@code prism proxy <document> <service> --errors}) on 127.0.0.1, in front of the
 * service under test: every request and answer through it is checked against the published document; with
 * {@code --errors} a request that breaks it is answered 422 and an answer that breaks it 500, instead of being passed
 * on, and every violation is logged. The CLI is the one the build npm-installs into {@code <checkout>/target/prism}
 * ({@code install-prism.sh}); {@code -Dqawk.prism.skip=true} leaves it out ({@link #skipped()}).
 */
public final class PrismProxy implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final URI uri;

    private PrismProxy(Process process, Path log, URI uri) {
        this.process = process;
        this.log = log;
        this.uri = uri;
    }

    /** True when the build was told to leave Prism out ({@code -Dqawk.prism.skip=true}). */
    public static boolean skipped() {
        return Boolean.getBoolean("qawk.prism.skip");
    }

    /** Starts the proxy for {@code service}, validating against {@code document} (a URL or a file); waits until up. */
    public static PrismProxy start(URI service, String document) throws IOException {
        Optional<String> installFailed = BuildInstalls.await("prism");
        Path cli = Path.of(System.getProperty("qawk.project.dir", ".."), "target/prism/node_modules/.bin/prism");
        if (!Files.isExecutable(cli)) {
            throw new IllegalStateException(cli + " is missing: the build installs it (service/src/test/scripts/"
                    + "install-prism.sh, needs node and npm) unless -Dqawk.prism.skip=true."
                    + installFailed.map(why -> " " + why).orElse(""));
        }
        int port;
        try (ServerSocket free = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path log = Path.of("target", "prism-" + port + ".log");
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(cli.toString(), "proxy", document, service.toString(),
                "--host", "127.0.0.1", "--port", String.valueOf(port), "--errors")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrismProxy proxy = new PrismProxy(process, log, URI.create("http://127.0.0.1:" + port));
        try {
            await("Prism listening on 127.0.0.1:" + port).atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(300)).until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("Prism stopped: " + proxy.output());
                        }
                        try (Socket s = new Socket()) {
                            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                            return true;
                        } catch (IOException notYet) {
                            return false;
                        }
                    });
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    /** The proxy's address: send the service's requests here. */
    public URI uri() {
        return uri;
    }

    /** What Prism logged. */
    public String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * What Prism found wrong, as it logged it: with {@code --errors} a request or answer that breaks the document is
     * an error line ({@code ✖ error Request terminated with error: …#UNPROCESSABLE_ENTITY} for a request,
     * {@code …#VIOLATIONS} for an answer); without, a {@code Violation:} line; warnings too.
     */
    public List<String> violations() throws IOException {
        return output().lines().filter(l -> l.contains("✖") || l.contains("⚠") || l.contains("Violation")).toList();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
