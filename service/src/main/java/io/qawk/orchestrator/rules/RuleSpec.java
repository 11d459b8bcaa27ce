package io.qawk.orchestrator.rules;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * A compatibility rule as operators write it (the API's, the YAML's and the stored shape):
 * {@code {"if": {"device1": "app:[2.0,)"}, "then": {"device2": "device2-fw:[2.0,)"}, "why": "…"}}. When a device of
 * each component of {@code if} runs a set its pattern names, every device of each component of {@code then} must run
 * a set its pattern names. Read with {@link CompatibilityRules#parse}.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record RuleSpec(@JsonProperty("if") Map<String, String> when, Map<String, String> then, String why) {
}
