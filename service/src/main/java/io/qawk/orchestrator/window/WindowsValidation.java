package io.qawk.orchestrator.window;

import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.UnstorableTextException;

import java.time.Instant;
import java.util.Map;

/**
 * Checks a request's {@code windows}, naming each field ({@code windows.centres.c01.schedule}), so that nothing is
 * stored that {@link MaintenanceWindow} could not read: a Quartz cron with seconds that still names a time after
 * {@code now}, a duration {@code HH:MM} from 00:01 to 168:00 (7 days), an IANA time zone id.
 */
public final class WindowsValidation {

    static final int MAX_CENTRES = 1000;
    static final String CRON_FORM = "second minute hour day-of-month month day-of-week [year], e.g. 0 0 2 * * ?";

    private WindowsValidation() {
    }

    /** Adds every problem of {@code windows} (null: none set) under {@code field} ({@code windows}, {@code orchestrator.windows}). */
    public static void check(Windows windows, String field, Instant now, FieldErrors errors) {
        if (windows == null) {
            return;
        }
        if (windows.defaultWindow() != null) {
            window(windows.defaultWindow(), field + ".default", now, errors);
        }
        Map<String, Windows.Window> centres = windows.centres();
        if (centres == null) {
            return;
        }
        if (!errors.check(centres.size() <= MAX_CENTRES, field + ".centres", "at most " + MAX_CENTRES + " centres")) {
            return;
        }
        centres.forEach((centre, w) -> {
            String at = field + ".centres." + centre;
            String unstorable = UnstorableTextException.whyUnstorable(centre);
            if (centre.isBlank() || centre.length() > 256) {
                errors.add(field + ".centres", "a centre's name must be 1 to 256 characters, not blank");
            } else if (unstorable != null) {
                errors.add(field + ".centres", "a centre's name " + unstorable);
            } else if (w == null) {
                errors.add(at, "is required: a window with schedule, duration and timezone");
            } else {
                window(w, at, now, errors);
            }
        });
    }

    private static void window(Windows.Window w, String at, Instant now, FieldErrors errors) {
        boolean scheduleOk = errors.text(w.schedule(), at + ".schedule", 256);
        if (scheduleOk) {
            String problem = scheduleProblem(w.schedule());
            scheduleOk = errors.check(problem == null, at + ".schedule",
                    "not a cron schedule: " + problem + " (" + CRON_FORM + ")");
        }
        boolean durationOk = errors.text(w.duration(), at + ".duration", 16);
        if (durationOk && !MaintenanceWindow.DURATION.matcher(w.duration()).matches()) {
            durationOk = false;
            errors.add(at + ".duration", "must be HH:MM, e.g. 03:00 (got '" + w.duration() + "')");
        } else if (durationOk) {
            try {
                MaintenanceWindow.duration(w.duration());
            } catch (IllegalArgumentException e) {
                durationOk = false;
                errors.add(at + ".duration", "must be longer than 00:00 and at most 168:00 (7 days)");
            }
        }
        boolean zoneOk = errors.text(w.timezone(), at + ".timezone", 64);
        if (zoneOk) {
            try {
                MaintenanceWindow.zone(w.timezone());
            } catch (IllegalArgumentException e) {
                zoneOk = false;
                errors.add(at + ".timezone", "unknown time zone '" + w.timezone()
                        + "': use an IANA time zone id such as Europe/Berlin or UTC");
            }
        }
        if (scheduleOk && durationOk && zoneOk) {
            MaintenanceWindow.State s = MaintenanceWindow.of(w).at(now);
            errors.check(s.open() || s.opensAt() != null, at + ".schedule",
                    "names no time after now: the window would never open again");
        }
    }

    /** Why cron-utils cannot read this Quartz schedule, or null when it can. */
    static String scheduleProblem(String cron) {
        try {
            MaintenanceWindow.schedule(cron);
            return null;
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return why.replace("Failed to parse cron expression. ", "");
        }
    }
}
