package io.qawk.orchestrator.deployment.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a soaking system is still healthy, as one pass found it: {@code HEALTHY}, {@code UNHEALTHY} with the words
 * of why ({@code device-07-a stopped reporting attribute.lane_state==scoring}) and the devices concerned (may be
 * empty when no single device is to blame), or {@code UNKNOWN} (it could not be told, e.g. a source of the verdict
 * did not answer): an unknown pass neither fails the system nor lets its soak end.
 */
public record Health(Verdict verdict, String why, List<String> devices) {

    public enum Verdict { HEALTHY, UNKNOWN, UNHEALTHY }

    public static final Health HEALTHY = new Health(Verdict.HEALTHY, null, List.of());

    public Health {
        devices = devices == null ? List.of() : List.copyOf(devices);
        if (verdict != Verdict.HEALTHY && (why == null || why.isBlank())) {
            throw new IllegalArgumentException(verdict + " needs the words of why");
        }
    }

    public static Health unhealthy(String why, List<String> devices) {
        return new Health(Verdict.UNHEALTHY, why, devices);
    }

    public static Health unknown(String why) {
        return new Health(Verdict.UNKNOWN, why, List.of());
    }

    /** The worse of the two: unhealthy over unknown over healthy; of two unhealthy, both reasons. */
    public Health and(Health other) {
        if (other == null || other.verdict.ordinal() < verdict.ordinal()) {
            return this;
        }
        if (other.verdict.ordinal() > verdict.ordinal()) {
            return other;
        }
        if (verdict == Verdict.HEALTHY) {
            return this;
        }
        List<String> both = new ArrayList<>(devices);
        other.devices.stream().filter(d -> !both.contains(d)).forEach(both::add);
        return new Health(verdict, why + "; " + other.why, both);
    }
}
