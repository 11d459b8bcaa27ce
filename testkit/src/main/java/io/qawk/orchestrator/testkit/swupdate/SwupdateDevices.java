package io.qawk.orchestrator.testkit.swupdate;

import io.qawk.orchestrator.testkit.BuildInstalls;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.HawkbitServer;

import org.jboss.logging.Logger;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Real SWUpdate devices (Debian's {@code swupdate}, its suricatta hawkBit client) against a test hawkBit: one
 * {@code swupdate} process per device, each in its own folder with its own {@code TMPDIR} (SWUpdate's IPC sockets live
 * there), its own {@code swupdate.cfg} (suricatta settings, target token, {@code identify} attributes) and the test
 * kit's certificate ({@code -k}: Debian's build installs only CMS-signed images). The key and the self-signed
 * certificate are made per instance with {@code openssl}; {@link #createSet} makes a signed image and a distribution
 * set holding it.
 * <p>
 * A device reboots as SWUpdate expects of it: after a successful install SWUpdate runs its {@code postupdatecmd} (on a
 * real device {@code reboot}; here it leaves a mark in the device's folder), reports the action only as
 * {@code proceeding}, and waits; the kit then stops the process and starts it again with {@code -c 2}, and from that
 * start SWUpdate sends {@code closed/success} and its attributes (now those the image's post-install step wrote).
 * {@link #failNextBoot} makes that reboot fail as on a real A/B device whose new image does not come up: the
 * bootloader falls back, the device runs what it ran before (its {@code swupdate.cfg} as at its last good boot, so it
 * reports its old {@code identify}), and SWUpdate is started with {@code -c 3}, from which it sends
 * {@code closed/failure} ("Update Failed."). {@link #reboot(String, boolean)} does either by hand.
 * <p>
 * SWUpdate allows about a dozen processes on one machine; keep to 11 devices at a time. Check {@link #unavailable()}
 * first: where {@code swupdate} or {@code openssl} is missing the tests skip.
 */
public final class SwupdateDevices implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SwupdateDevices.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String REBOOT_MARK = "reboot-requested";

    private final HawkbitServer server;
    private final HawkbitFixtures hawkbit;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path root;
    private final Path key;
    private final Path cert;
    private final int pollSeconds;
    private final Map<String, Device> devices = new ConcurrentHashMap<>();
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "swupdate-reboots");
        t.setDaemon(true);
        return t;
    });

    /** Why real SWUpdate devices cannot run here ({@code swupdate} or {@code openssl} missing); empty when they can. */
    public static Optional<String> unavailable() {
        BuildInstalls.await("swupdate"); // its install says why it could not in its log, and exits 0 then
        for (String tool : List.of("swupdate", "openssl")) {
            if (onPath(tool).isEmpty()) {
                return Optional.of("no '" + tool + "' on the PATH: the SWUpdate device tests need Debian's swupdate"
                        + " package (the build installs it with apt-get where it can; -Dqawk.swupdate.skip=true skips"
                        + " that) and openssl");
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> onPath(String tool) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("") + File.pathSeparator + "/usr/bin"
                + File.pathSeparator + "/usr/sbin";
        return Stream.of(path.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(s -> Path.of(s, tool))
                .filter(Files::isExecutable).findFirst();
    }

    /** Devices polling every {@code pollSeconds} s; a key and certificate made afresh in a new temporary folder. */
    public SwupdateDevices(HawkbitServer server, int pollSeconds) {
        this.server = server;
        this.hawkbit = new HawkbitFixtures(server);
        this.pollSeconds = pollSeconds;
        try {
            // under the system's temporary folder: the IPC sockets' paths must stay short (108 bytes at most)
            this.root = Files.createTempDirectory("qawk-swu-");
            this.key = root.resolve("signing-key.pem");
            this.cert = root.resolve("signing-cert.pem");
            SwuImage.run(root, List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=qawk test kit images"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the SWUpdate devices' folder", e);
        }
        watcher.scheduleWithFixedDelay(this::rebootWhereAsked, 200, 200, TimeUnit.MILLISECONDS);
    }

    /** The folder holding every device's folder (kept after {@link #close()} only if a device's log is wanted). */
    public Path root() {
        return root;
    }

    // ----------------------------------------------------------------------------------------------- sets ------

    /** Makes {@code image} (signed) and a distribution set {@code name:version} (DS type os) holding it; its id. */
    public long createSet(String name, String version, SwuImage image) {
        Path work = root.resolve("images").resolve(name + "-" + version);
        byte[] swu = image.build(key, cert, work);
        long module = hawkbit.createSoftwareModule(name + "-os", version, "os");
        upload(module, name + "-" + version + ".swu", swu);
        Map<String, Object> ds = new LinkedHashMap<>();
        ds.put("name", name);
        ds.put("version", version);
        ds.put("type", "os");
        ds.put("modules", List.of(Map.of("id", module)));
        return hawkbit.post("/rest/v1/distributionsets", List.of(ds)).get(0).path("id").asLong();
    }

    private void upload(long module, String file, byte[] data) {
        String boundary = "qawk" + HexFormat.of().formatHex(bytes(12));
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + file
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + data.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(data, 0, body, head.length, data.length);
        System.arraycopy(tail, 0, body, head.length + data.length, tail.length);
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/rest/v1/softwaremodules/" + module
                        + "/artifacts"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (server.user() + ":" + server.password()).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("upload of " + file + " to module " + module + ": HTTP "
                        + r.statusCode() + " " + r.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("upload of " + file, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted uploading " + file, e);
        }
    }

    // -------------------------------------------------------------------------------------------- devices ------

    /**
     * A device: its hawkBit target (with a random target token), its folder and {@code swupdate.cfg} with these
     * {@code identify} attributes, and its {@code swupdate} process, started.
     */
    public void add(String controllerId, Map<String, String> identify) {
        if (!controllerId.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("plain controller ids only: " + controllerId);
        }
        String token = HexFormat.of().formatHex(bytes(16));
        hawkbit.post("/rest/v1/targets", List.of(Map.of("controllerId", controllerId, "name", controllerId,
                "securityToken", token)));
        Path dir = root.resolve(controllerId);
        try {
            Files.createDirectories(dir.resolve("tmp"));
            StringBuilder ids = new StringBuilder();
            identify.forEach((k, v) -> ids.append(ids.isEmpty() ? "" : ",\n").append("  { name = \"").append(k)
                    .append("\"; value = \"").append(v).append("\"; }"));
            Files.writeString(dir.resolve("swupdate.cfg"), """
                    globals : {
                      verbose = true;
                      loglevel = 6;
                      postupdatecmd = "touch %s";
                    };
                    identify : (
                    %s
                    );
                    suricatta : {
                      tenant = "%s";
                      id = "%s";
                      url = "%s";
                      targettoken = "%s";
                      polldelay = %d;
                      retry = 3;
                      retrywait = 1;
                      connection-timeout = 10;
                    };
                    """.formatted(dir.resolve(REBOOT_MARK), ids, server.tenant(), controllerId, server.baseUrl(),
                    token, pollSeconds));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the folder of " + controllerId, e);
        }
        Device d = new Device(controllerId, dir);
        devices.put(controllerId, d);
        d.bootedCfg = d.readCfg();
        d.start(null);
    }

    /**
     * Restarts the device as a reboot does: {@code healthy}, into what it installed last, with {@code -c 2} (confirm);
     * else back on what it ran before (the bootloader fell back: its {@code swupdate.cfg} as at its last good boot)
     * with {@code -c 3} (failure).
     */
    public void reboot(String controllerId, boolean healthy) {
        device(controllerId).reboot(healthy);
    }

    /**
     * The device's next reboot after an install fails (once; later ones come up well): the updated image does not
     * boot, the device comes back on what it ran before and SWUpdate, started with {@code -c 3}, reports the action
     * failed. Set it before the deployment reaches the device.
     */
    public void failNextBoot(String controllerId) {
        device(controllerId).failNextBoot.set(true);
    }

    /** The sets the device installed but could not boot (it came back on what it ran before), oldest first. */
    public List<String> failedBoots(String controllerId) {
        return List.copyOf(device(controllerId).failedBoots);
    }

    /** How many times the device rebooted (by the kit after an install, or by {@link #reboot}). */
    public int reboots(String controllerId) {
        return device(controllerId).reboots;
    }

    /** How many times its swupdate process exited on its own (and was started again, as a service manager would). */
    public int crashes(String controllerId) {
        return device(controllerId).crashes;
    }

    /**
     * The sets the device installed, oldest first, with when its image's post-install step ran (its own clock); also
     * one it then failed to boot ({@link #failedBoots}).
     */
    public List<Installed> installed(String controllerId) {
        Path f = device(controllerId).dir.resolve("installed");
        if (!Files.exists(f)) {
            return List.of();
        }
        try {
            List<Installed> out = new ArrayList<>();
            for (String line : Files.readAllLines(f)) {
                String[] p = line.trim().split(" ");
                if (p.length == 2) {
                    out.add(new Installed(p[0], Instant.parse(p[1])));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The set the device runs ({@code name:version}): the last it installed and then booted into, or {@code fallback}
     * when it booted into none (it runs what it ran when it was added).
     */
    public String running(String controllerId, String fallback) {
        String set = device(controllerId).runningSet;
        return set == null ? fallback : set;
    }

    /** What its {@code swupdate.cfg} says now in {@code identify}: what it reports from its next start. */
    public Map<String, String> identify(String controllerId) {
        try {
            String cfg = Files.readString(device(controllerId).dir.resolve("swupdate.cfg"));
            Map<String, String> out = new LinkedHashMap<>();
            Matcher m = Pattern.compile("name = \"([^\"]+)\"; value = \"([^\"]*)\"").matcher(cfg);
            while (m.find()) {
                out.put(m.group(1), m.group(2));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The device's log (every start's, in order), for assertion messages. */
    public String log(String controllerId) {
        Device d = device(controllerId);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i <= d.starts; i++) {
            Path f = d.dir.resolve("swupdate-" + i + ".log");
            if (Files.exists(f)) {
                try {
                    s.append("--- start ").append(i).append('\n').append(Files.readString(f));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return s.toString();
    }

    /** A set a device installed, as its image's post-install step wrote it. */
    public record Installed(String set, Instant at) {
    }

    private Device device(String controllerId) {
        Device d = devices.get(controllerId);
        if (d == null) {
            throw new IllegalArgumentException("no SWUpdate device " + controllerId);
        }
        return d;
    }

    private void rebootWhereAsked() {
        for (Device d : devices.values()) {
            Path mark = d.dir.resolve(REBOOT_MARK);
            try {
                Process p = d.process;
                if (p != null && !p.isAlive()) {
                    synchronized (d) {
                        if (d.process == p) { // not one the kit itself stopped meanwhile
                            // as systemd's Restart= would: a device's service manager starts a dead SWUpdate again
                            LOG.warnf("SWUpdate device %s: swupdate exited (code %d); started again",
                                    d.controllerId, p.exitValue());
                            d.crashes++;
                            d.process = null;
                            d.start(null);
                        }
                    }
                } else if (Files.deleteIfExists(mark)) {
                    boolean healthy = !d.failNextBoot.getAndSet(false);
                    LOG.infof(healthy ? "SWUpdate device %s reboots after its install"
                            : "SWUpdate device %s reboots after its install; its new image does not come up,"
                            + " it is back on its old one (-c 3)", d.controllerId);
                    d.reboot(healthy);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warnf("SWUpdate device %s: reboot failed: %s", d.controllerId, e.toString());
            }
        }
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Stops every device's process and removes their folders. */
    @Override
    public void close() {
        watcher.shutdownNow();
        devices.values().forEach(Device::stop);
        devices.clear();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warnf("could not remove %s: %s", root, e.toString());
        }
    }

    private final class Device {
        final String controllerId;
        final Path dir;
        volatile Process process;
        volatile int starts = -1;
        volatile int reboots;
        volatile int crashes;
        final AtomicBoolean failNextBoot = new AtomicBoolean();
        /** Its {@code swupdate.cfg} as at its last good boot: what a fallback to the image it ran brings back. */
        volatile String bootedCfg;
        /** The set it installed and booted into last; null: the one it had when added. */
        volatile String runningSet;
        /** How many lines of {@code installed} a reboot has already taken into account. */
        int installsBooted;
        final List<String> failedBoots = new CopyOnWriteArrayList<>();

        Device(String controllerId, Path dir) {
            this.controllerId = controllerId;
            this.dir = dir;
        }

        String readCfg() {
            try {
                return Files.readString(dir.resolve("swupdate.cfg"));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the swupdate.cfg of " + controllerId, e);
            }
        }

        /** Stops it and starts it as after a reboot: into its new install ({@code -c 2}) or back on its old one. */
        synchronized void reboot(boolean healthy) {
            stop();
            List<Installed> all = installed(controllerId);
            String installedNow = all.size() > installsBooted ? all.get(all.size() - 1).set() : null;
            installsBooted = all.size();
            if (healthy) {
                if (installedNow != null) {
                    runningSet = installedNow;
                }
                bootedCfg = readCfg();
            } else {
                if (installedNow != null) {
                    failedBoots.add(installedNow);
                }
                try {
                    Files.writeString(dir.resolve("swupdate.cfg"), bootedCfg);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the swupdate.cfg of " + controllerId, e);
                }
            }
            start(healthy ? 2 : 3);
        }

        synchronized void start(Integer confirm) {
            starts++;
            if (confirm != null) {
                reboots++;
            }
            // SIGPIPE ignored, as systemd starts a service (IgnoreSIGPIPE=yes): with the JVM's default disposition
            // swupdate was killed by it (exit 141) in the middle of an install, after its post-install step had run.
            // An ignored signal stays ignored across exec.
            List<String> cmd = new ArrayList<>(List.of("sh", "-c", "trap '' PIPE; exec \"$0\" \"$@\""));
            if (onPath("stdbuf").isPresent()) {
                cmd.addAll(List.of("stdbuf", "-oL", "-eL")); // a log line by line, also when swupdate dies
            }
            cmd.addAll(List.of("swupdate", "-v", "-f", dir.resolve("swupdate.cfg").toString(),
                    "-k", cert.toString(), "-H", "board:" + SwuImage.HARDWARE,
                    "-u", confirm == null ? "" : "-c " + confirm));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("swupdate-" + starts + ".log").toFile());
            pb.environment().put("TMPDIR", dir.resolve("tmp").toString());
            pb.environment().put("QAWK_DEVICE_DIR", dir.toString());
            try {
                process = pb.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start swupdate for " + controllerId, e);
            }
        }

        synchronized void stop() {
            Process p = process;
            if (p == null) {
                return;
            }
            List<ProcessHandle> children = p.descendants().toList();
            p.destroy();
            children.forEach(ProcessHandle::destroy);
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
                for (ProcessHandle c : children) {
                    c.onExit().get(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                children.forEach(ProcessHandle::destroyForcibly);
            }
            process = null;
        }
    }
}
