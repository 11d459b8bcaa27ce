package io.qawk.orchestrator.window;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One window, read: open at {@code t} when some start {@code s} (a time its schedule names) has
 * {@code s <= t < s + duration}. Pure: the instant is always passed in.
 *
 * <p>The schedule is matched against the wall-clock time of the time zone (evaluated by cron-utils on local date-times,
 * so its own daylight-saving handling plays no part), and each wall-clock start is then placed on the time line:
 * <ul>
 * <li>a start in the hour the clocks skip in spring (02:30 in Europe/Berlin on the last Sunday of March) opens the
 *     window when the clocks jump (03:00), rather than not at all that night;</li>
 * <li>a start in the hour that repeats in autumn opens it once, the first time;</li>
 * <li>the duration is elapsed time: a 03:00 window opened at 01:00 on either night closes three real hours later.</li>
 * </ul>
 * Placed this way, later wall-clock starts never come earlier on the time line, which is what lets the latest start
 * at or before {@code t} be found by one search.
 */
public final class MaintenanceWindow {

    static final CronParser QUARTZ = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));
    static final Pattern DURATION = Pattern.compile("(\\d{1,3}):([0-5]\\d)");
    static final Duration LONGEST = Duration.ofDays(7);
    /** How many overlapping starts are followed to find where an open stretch ends; beyond it the end is unknown. */
    static final int CHAIN = 32;

    private final ExecutionTime schedule;
    private final Duration duration;
    private final ZoneId zone;
    private final ZoneRules rules;

    private MaintenanceWindow(ExecutionTime schedule, Duration duration, ZoneId zone) {
        this.schedule = schedule;
        this.duration = duration;
        this.zone = zone;
        this.rules = zone.getRules();
    }

    /** Reads a window; throws {@link IllegalArgumentException} saying what is wrong (validated windows never do). */
    public static MaintenanceWindow of(Windows.Window w) {
        if (w == null) {
            throw new IllegalArgumentException("no window");
        }
        return new MaintenanceWindow(schedule(w.schedule()), duration(w.duration()), zone(w.timezone()));
    }

    static ExecutionTime schedule(String cron) {
        if (cron == null) {
            throw new IllegalArgumentException("no schedule");
        }
        var parsed = QUARTZ.parse(cron.trim());
        parsed.validate();
        return ExecutionTime.forCron(parsed);
    }

    static Duration duration(String hhmm) {
        Matcher m = hhmm == null ? null : DURATION.matcher(hhmm);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("not HH:MM");
        }
        Duration d = Duration.ofHours(Integer.parseInt(m.group(1))).plusMinutes(Integer.parseInt(m.group(2)));
        if (d.isZero() || d.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("not between 00:01 and 168:00");
        }
        return d;
    }

    static ZoneId zone(String id) {
        if (id == null || !ZoneId.getAvailableZoneIds().contains(id)) {
            throw new IllegalArgumentException("unknown time zone");
        }
        return ZoneId.of(id);
    }

    public ZoneId zone() {
        return zone;
    }

    public Duration duration() {
        return duration;
    }

    /** Whether it is open at {@code t}, since when or from when, and until when ({@code closesAt} null: no end known). */
    public record State(boolean open, Instant opensAt, Instant closesAt) {
    }

    public State at(Instant t) {
        Optional<LocalDateTime> last = lastStartAtOrBefore(t);
        if (last.isPresent() && t.isBefore(place(last.get()).plus(duration))) {
            return new State(true, place(last.get()), closes(last.get()));
        }
        Optional<LocalDateTime> next = nextStartAfter(t);
        return new State(false, next.map(this::place).orElse(null), next.map(this::closes).orElse(null));
    }

    /**
     * The latest start placed at or before {@code t}, as wall-clock time: the last one strictly before the next second
     * (schedules name whole seconds; cron-utils' {@code isMatch} would cost as much as another search).
     */
    Optional<LocalDateTime> lastStartAtOrBefore(Instant t) {
        return schedule.lastExecution(frame(latestLocalAtOrBefore(t).plusSeconds(1))).map(ZonedDateTime::toLocalDateTime);
    }

    /** The first start placed after {@code t}, as wall-clock time. */
    Optional<LocalDateTime> nextStartAfter(Instant t) {
        return schedule.nextExecution(frame(latestLocalAtOrBefore(t))).map(ZonedDateTime::toLocalDateTime);
    }

    /**
     * The latest wall-clock second placed at or before {@code t}: {@code t}'s own wall-clock time, except in the
     * repeated hour's second pass, where the whole repeated hour (placed at its first pass) is already behind.
     */
    private LocalDateTime latestLocalAtOrBefore(Instant t) {
        Instant s = t.truncatedTo(ChronoUnit.SECONDS);
        LocalDateTime local = LocalDateTime.ofInstant(s, zone);
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition != null && transition.isOverlap() && rules.getOffset(s).equals(transition.getOffsetAfter())) {
            return transition.getDateTimeBefore().minusSeconds(1);
        }
        return local;
    }

    /** A wall-clock start on the time line: in a gap, when the clocks jump; in an overlap, the first pass. */
    Instant place(LocalDateTime local) {
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition != null && transition.isGap()) {
            return transition.getInstant();
        }
        return ZonedDateTime.ofLocal(local, zone, null).toInstant();
    }

    /**
     * When the stretch opened at {@code start} closes: its duration, extended by every start that comes before
     * the stretch ends (an hourly schedule with a two-hour window is open for good). Null when that is more than
     * {@value #CHAIN} extensions away.
     */
    private Instant closes(LocalDateTime start) {
        Instant end = place(start).plus(duration);
        for (int i = 0; i < CHAIN; i++) {
            Optional<LocalDateTime> latest = lastStartAtOrBefore(end);
            if (latest.isEmpty()) {
                return end;
            }
            Instant extended = place(latest.get()).plus(duration);
            if (!extended.isAfter(end)) {
                return end;
            }
            end = extended;
        }
        return null;
    }

    /** A wall-clock time as cron-utils reads it: in a zone without daylight saving, so nothing is shifted. */
    private static ZonedDateTime frame(LocalDateTime local) {
        return local.atZone(ZoneOffset.UTC);
    }
}
