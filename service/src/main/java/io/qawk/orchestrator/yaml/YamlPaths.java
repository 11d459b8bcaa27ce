package io.qawk.orchestrator.yaml;

import java.util.regex.Pattern;

/** YAML paths as errors show them: {@code components[1].qawk_match}, {@code component_types.device2.artifact_name}. */
final class YamlPaths {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_\\-]+");

    private YamlPaths() {
    }

    /** The path of a key below {@code parent}; a key that is not plain is written {@code ["a.b"]}. */
    static String key(String parent, String key) {
        if (!PLAIN.matcher(key).matches()) {
            return parent + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
        }
        return parent.isEmpty() ? key : parent + "." + key;
    }
}
