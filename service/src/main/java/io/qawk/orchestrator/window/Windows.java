package io.qawk.orchestrator.window;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * When a deployment may start systems, per centre: {@code {"default": {…}, "centres": {"c01": {…}}}}, both parts
 * optional. A centre listed under {@code centres} has its own window; any other centre has the default one; with
 * neither, a centre is always open. The API shape of a deployment's and a channel's {@code windows}, and what is
 * stored with them (JSON). {@link WindowsValidation} checks it; {@link CentreWindows} evaluates it at an instant.
 *
 * @param defaultWindow the window of every centre not listed (JSON {@code default}); null: those are always open
 * @param centres       windows of the centres named, by centre (the system's group); null or empty: none
 */
public record Windows(@JsonProperty("default") Window defaultWindow, Map<String, Window> centres) {

    /**
     * One maintenance window: it opens at every time {@code schedule} names (a Quartz cron with seconds, read in
     * {@code timezone}) and stays open for {@code duration} ({@code HH:MM}, elapsed time).
     */
    public record Window(String schedule, String duration, String timezone) {
    }

    /** The window that applies to this centre (null for a system without a centre: the default), or null: always open. */
    public Window forCentre(String centre) {
        if (centre != null && centres != null && centres.containsKey(centre)) {
            return centres.get(centre);
        }
        return defaultWindow;
    }

    /** No window at all: every centre is always open, as without {@code windows}. */
    @JsonIgnore
    public boolean isEmpty() {
        return defaultWindow == null && (centres == null || centres.isEmpty());
    }

    /** What to store for a request's {@code windows}: null when it sets no window. */
    public static Windows orNull(Windows w) {
        return w == null || w.isEmpty() ? null : w;
    }
}
