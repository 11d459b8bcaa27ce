package io.qawk.orchestrator.window;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A deployment's windows at one instant: which centres are open, and the words operators read about them. Pure (the
 * instant is given) and remembers each centre's answer, so a pass over thousands of systems reads each window once.
 * Not thread-safe: make one per pass or per request.
 *
 * <p>A window that cannot be read (it was stored before a rule existed, say) counts as closed: starting a system
 * while its centre is open is the one thing windows are there to prevent.
 */
public final class CentreWindows {

    /** No windows: every centre is always open. */
    public static final CentreWindows NONE = new CentreWindows(null, Instant.EPOCH);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");
    private static final DateTimeFormatter TIME_SECONDS = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd ");

    private final Windows windows;
    private final Instant now;
    /** Per window (the default is shared by many centres): read once, evaluated once. */
    private final Map<Windows.Window, CentreWindow> read = new IdentityHashMap<>();
    private final Map<String, CentreWindow> states = new HashMap<>();

    private CentreWindows(Windows windows, Instant now) {
        this.windows = windows;
        this.now = now;
    }

    /** The windows (null: none) as they stand at {@code now}. */
    public static CentreWindows of(Windows windows, Instant now) {
        return windows == null || windows.isEmpty() ? NONE : new CentreWindows(windows, now);
    }

    /** Whether any window is set. */
    public boolean any() {
        return this != NONE;
    }

    /**
     * One centre's window as the API shows it: {@code open} now or not, the stretch now open or the next one
     * ({@code opensAt}, {@code closesAt}; null when there is none, or no end is known), the time zone, and in words.
     */
    public record CentreWindow(String centre, boolean open, Instant opensAt, Instant closesAt, String timezone,
                               String words) {
    }

    /** Whether systems of this centre (null: a system without one) may not start now. */
    public boolean closed(String centre) {
        return !state(centre).open();
    }

    /** The pending system's reason while its centre is closed, e.g. {@code waiting for c03's window (opens 02:00 Europe/Berlin)}; null while open. */
    public String waitingReason(String centre) {
        CentreWindow w = state(centre);
        if (w.open()) {
            return null;
        }
        String whose = centre == null ? "its centre's window" : centre + "'s window";
        return "waiting for " + whose + " (" + w.words() + ")";
    }

    /** This centre's window now. */
    public CentreWindow state(String centre) {
        if (this == NONE) {
            return new CentreWindow(centre, true, null, null, null, "no window: always open");
        }
        return states.computeIfAbsent(centre, this::forCentre);
    }

    private CentreWindow forCentre(String centre) {
        Windows.Window w = windows.forCentre(centre);
        if (w == null) {
            return new CentreWindow(centre, true, null, null, null, "no window: always open");
        }
        CentreWindow state = read.computeIfAbsent(w, this::evaluate);
        return new CentreWindow(centre, state.open(), state.opensAt(), state.closesAt(), state.timezone(), state.words());
    }

    /** One window now, for no centre in particular. */
    private CentreWindow evaluate(Windows.Window w) {
        MaintenanceWindow mw;
        try {
            mw = MaintenanceWindow.of(w);
        } catch (RuntimeException e) {
            return new CentreWindow(null, false, null, null, w.timezone(), "its window cannot be read: " + e.getMessage());
        }
        MaintenanceWindow.State s = mw.at(now);
        String zone = mw.zone().getId();
        String words;
        if (s.open()) {
            words = s.closesAt() == null ? "open" : "open until " + when(s.closesAt(), mw.zone()) + " " + zone;
        } else {
            words = s.opensAt() == null ? "it does not open again" : "opens " + when(s.opensAt(), mw.zone()) + " " + zone;
        }
        return new CentreWindow(null, s.open(), s.opensAt(), s.closesAt(), zone, words);
    }

    /** {@code 02:00}, with seconds when it has them, and the date in front when it is not within a day from now. */
    private String when(Instant at, ZoneId zone) {
        ZonedDateTime local = at.atZone(zone);
        String time = (local.getSecond() == 0 ? TIME : TIME_SECONDS).format(local);
        Duration away = Duration.between(now, at).abs();
        return away.compareTo(Duration.ofHours(24)) < 0 ? time : DATE.format(local) + time;
    }
}
