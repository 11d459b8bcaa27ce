package io.qawk.orchestrator.inventory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The configuration identity of a mix (what UNECE R156 calls a software identification number): a short id that
 * names the sets a system runs, the same for every system on the same mix and at every sync. Defined as the first 12
 * lower-case hex characters of the SHA-256 of the UTF-8 text made of one line {@code <component>=<set>} per set a
 * component runs ({@code <set>} as hawkBit names it, {@code name:version}; {@code -} for a device that runs nothing),
 * the lines sorted and each ended by {@code \n}. Pure.
 */
public final class ConfigurationId {

    /** How many hex characters of the digest: 48 bits, no clash to fear among the mixes of one fleet. */
    public static final int LENGTH = 12;

    private ConfigurationId() {
    }

    /** The id of the mix {@code versions} (component type → the sets its devices run). */
    public static String of(Map<String, List<String>> versions) {
        List<String> lines = new ArrayList<>();
        versions.forEach((component, sets) -> {
            if (sets == null || sets.isEmpty()) {
                lines.add(component + "=-");
            } else {
                sets.forEach(set -> lines.add(component + "=" + (set == null ? "-" : set)));
            }
        });
        lines.sort(null);
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l).append('\n'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
