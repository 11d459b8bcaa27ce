package io.qawk.orchestrator.testkit.swupdate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An SWUpdate image ({@code .swu}) as the test kit makes it: a cpio archive (newc with CRC, what SWUpdate reads) of a
 * {@code sw-description}, its CMS signature ({@code sw-description.sig}, made with {@code openssl cms}: Debian's build
 * accepts only signed images) and one shell script, the image's whole payload.
 * <p>
 * What the script does on the device stands for a real update: one that installs appends {@code "<set> <time>"} to
 * {@code $QAWK_DEVICE_DIR/installed} and rewrites the {@code identify} values it names in the device's
 * {@code swupdate.cfg} (as a real update's post-install step rewrites what the device reports after its reboot); one
 * that fails exits 1 in its pre-install step and changes nothing.
 *
 * @param set        the distribution set it stands for ({@code name:version}), written to {@code installed}
 * @param identify   the {@code identify} values the device reports once it runs it (empty: none change)
 * @param failure    null: it installs; else the words its script prints before failing
 */
public record SwuImage(String set, Map<String, String> identify, String failure) {

    /** The hardware revision the images accept and the devices are started with ({@code -H board:1.0}). */
    public static final String HARDWARE = "1.0";

    public SwuImage {
        identify = Map.copyOf(new LinkedHashMap<>(identify));
        if (!set.matches("[A-Za-z0-9._:-]+")) {
            throw new IllegalArgumentException("set label must be plain: " + set);
        }
        identify.forEach((k, v) -> {
            if (!k.matches("[A-Za-z0-9_]+") || !v.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("identify names and values must be plain: " + k + "=" + v);
            }
        });
    }

    /** An image that installs and makes the device report {@code identify} from its next start. */
    public static SwuImage installs(String set, Map<String, String> identify) {
        return new SwuImage(set, identify, null);
    }

    /** An image whose install fails in its pre-install step, saying {@code why}; the device keeps what it runs. */
    public static SwuImage fails(String set, String why) {
        return new SwuImage(set, Map.of(), why.replaceAll("[^A-Za-z0-9 ._-]", ""));
    }

    /** The script the image runs ({@code preinst} then {@code postinst}). */
    String script() {
        StringBuilder s = new StringBuilder("#!/bin/sh\n# made by the qawk test kit for ").append(set).append('\n');
        if (failure != null) {
            s.append("if [ \"$1\" = preinst ]; then\n  echo '").append(failure).append("' >&2\n  exit 1\nfi\nexit 0\n");
            return s.toString();
        }
        s.append("[ \"$1\" = postinst ] || exit 0\n");
        s.append("echo \"").append(set).append(" $(date -u +%Y-%m-%dT%H:%M:%S.%NZ)\" >> \"$QAWK_DEVICE_DIR/installed\"\n");
        identify.forEach((k, v) -> s.append("sed -i 's/\\(name = \"").append(k)
                .append("\"; value = \"\\)[^\"]*\"/\\1").append(v).append("\"/' \"$QAWK_DEVICE_DIR/swupdate.cfg\"\n"));
        return s.append("exit 0\n").toString();
    }

    /** The signed {@code .swu}, signed with {@code key}/{@code cert} (PEM), made in {@code work}. */
    byte[] build(Path key, Path cert, Path work) {
        try {
            Files.createDirectories(work);
            byte[] script = script().getBytes(StandardCharsets.UTF_8);
            String description = """
                    software = {
                      version = "%s";
                      hardware-compatibility: [ "%s" ];
                      scripts: ( { filename = "update.sh"; type = "shellscript"; sha256 = "%s"; } );
                    };
                    """.formatted(set.substring(set.lastIndexOf(':') + 1), HARDWARE, sha256(script));
            Path desc = work.resolve("sw-description");
            Path sig = work.resolve("sw-description.sig");
            Files.writeString(desc, description);
            run(work, List.of("openssl", "cms", "-sign", "-in", desc.toString(), "-out", sig.toString(),
                    "-signer", cert.toString(), "-inkey", key.toString(), "-outform", "DER", "-nosmimecap",
                    "-binary"));
            Cpio cpio = new Cpio();
            cpio.add("sw-description", description.getBytes(StandardCharsets.UTF_8));
            cpio.add("sw-description.sig", Files.readAllBytes(sig));
            cpio.add("update.sh", script);
            return cpio.finish();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the image for " + set, e);
        }
    }

    /** Runs a tool (openssl) and fails with its output when it does not succeed. */
    static void run(Path dir, List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(cmd.get(0) + " failed: " + String.join(" ", cmd) + "\n"
                        + new String(out, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + cmd.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + cmd.get(0), e);
        }
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A cpio archive in the "new ASCII with CRC" format (magic 070702), the one SWUpdate reads. */
    static final class Cpio {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private int inode = 1;

        void add(String name, byte[] data) {
            long crc = 0;
            for (byte b : data) {
                crc = (crc + (b & 0xff)) & 0xffffffffL;
            }
            entry(name, data, inode++, 0100644, crc);
        }

        byte[] finish() {
            entry("TRAILER!!!", new byte[0], 0, 0, 0);
            pad(512);
            return out.toByteArray();
        }

        private void entry(String name, byte[] data, int ino, int mode, long crc) {
            byte[] n = (name + "\0").getBytes(StandardCharsets.US_ASCII);
            String header = "070702" + hex(ino) + hex(mode) + hex(0) + hex(0) + hex(1) + hex(0) + hex(data.length)
                    + hex(0) + hex(0) + hex(0) + hex(0) + hex(n.length) + hex(crc);
            out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(n);
            pad(4);
            out.writeBytes(data);
            pad(4);
        }

        private void pad(int to) {
            while (out.size() % to != 0) {
                out.write(0);
            }
        }

        private static String hex(long v) {
            return String.format("%08x", v);
        }
    }
}
