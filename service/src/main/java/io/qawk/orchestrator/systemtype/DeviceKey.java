package io.qawk.orchestrator.systemtype;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a device says something about itself: {@code attribute.<key>} (reported by the device) or
 * {@code metadata.<key>} (set by an operator in hawkBit).
 */
public record DeviceKey(Source source, String key) {

    public enum Source { ATTRIBUTE, METADATA }

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:\\-]{1,128}");

    /** Parses {@code attribute.device} or {@code metadata.lane}; empty when the text has another form. */
    public static Optional<DeviceKey> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Source source : Source.values()) {
            String prefix = source.name().toLowerCase() + ".";
            if (text.startsWith(prefix) && KEY.matcher(text.substring(prefix.length())).matches()) {
                return Optional.of(new DeviceKey(source, text.substring(prefix.length())));
            }
        }
        return Optional.empty();
    }

    public static String formHint() {
        return "must be attribute.<key> or metadata.<key>, the key made of letters, digits, '_', '-', '.', ':' (at most 128)";
    }

    /** The value this device has for the key, from its attributes or metadata. */
    public String valueIn(Map<String, String> attributes, Map<String, String> metadata) {
        Map<String, String> from = source == Source.ATTRIBUTE ? attributes : metadata;
        if (from == null) {
            return null;
        }
        String value = from.get(key);
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public String toString() {
        return source.name().toLowerCase() + "." + key;
    }
}
