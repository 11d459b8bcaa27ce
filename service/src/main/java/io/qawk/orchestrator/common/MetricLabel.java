package io.qawk.orchestrator.common;

import java.util.Locale;

/** How a state or kind is written as a Prometheus label value: its name in lower case ({@code rolled_back}). */
public final class MetricLabel {

    private MetricLabel() {
    }

    public static String of(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
