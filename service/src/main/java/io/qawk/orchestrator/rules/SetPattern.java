package io.qawk.orchestrator.rules;

import org.apache.maven.artifact.versioning.ComparableVersion;
import org.apache.maven.artifact.versioning.DefaultArtifactVersion;
import org.apache.maven.artifact.versioning.InvalidVersionSpecificationException;
import org.apache.maven.artifact.versioning.VersionRange;

import java.util.Objects;

/**
 * Which distribution sets a rule speaks of: a set name and a version ({@code app:2.0}, exactly that version as Maven
 * compares versions, so {@code 2} is {@code 2.0}) or a version range in Maven's syntax ({@code app:[2.0,)},
 * {@code app:[1.0,2.0)}, {@code app:[1.0],[3.0,)}). A set is written {@code name:version}; the version is what follows
 * the last colon, the range what follows the colon before its first bracket.
 */
public final class SetPattern {

    private final String text;
    private final String name;
    private final ComparableVersion exact;
    private final VersionRange range;

    private SetPattern(String text, String name, ComparableVersion exact, VersionRange range) {
        this.text = text;
        this.name = name;
        this.exact = exact;
        this.range = range;
    }

    /** Thrown for a pattern that cannot be read; the message says what is wrong, for the operator. */
    public static final class Unreadable extends IllegalArgumentException {
        Unreadable(String message) {
            super(message);
        }
    }

    /** Reads {@code name:version} or {@code name:range}. */
    public static SetPattern parse(String text) {
        if (text == null || text.isBlank()) {
            throw new Unreadable("must be a set name and a version or range, e.g. app:[2.0,)");
        }
        String t = text.strip();
        int bracket = firstBracket(t);
        int colon = bracket >= 0 ? t.lastIndexOf(':', bracket) : t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1 || (bracket >= 0 && colon != bracket - 1)) {
            throw new Unreadable("'" + t + "' must be a set name, ':' and a version or Maven range, e.g. app:2.0 or "
                    + "app:[2.0,)");
        }
        String name = t.substring(0, colon);
        String version = t.substring(colon + 1);
        if (bracket < 0) {
            if (version.contains(",")) {
                throw new Unreadable("'" + version + "' is neither a version nor a range: a range is written in "
                        + "brackets, e.g. [1.0,2.0)");
            }
            return new SetPattern(t, name, new ComparableVersion(version), null);
        }
        try {
            VersionRange range = VersionRange.createFromVersionSpec(version);
            if (range.getRestrictions().isEmpty()) {
                throw new Unreadable("'" + version + "' is an empty range");
            }
            return new SetPattern(t, name, null, range);
        } catch (InvalidVersionSpecificationException e) {
            throw new Unreadable("'" + version + "' is not a Maven version range: " + e.getMessage()
                    + " (write e.g. [2.0,), [1.0,2.0) or [1.5])");
        }
    }

    private static int firstBracket(String t) {
        int square = t.indexOf('[');
        int round = t.indexOf('(');
        if (square < 0) {
            return round;
        }
        return round < 0 ? square : Math.min(square, round);
    }

    /** True when the set {@code name:version} is one this pattern speaks of; false for null (a device running nothing). */
    public boolean matches(String set) {
        if (set == null) {
            return false;
        }
        int colon = set.lastIndexOf(':');
        if (colon <= 0 || !set.substring(0, colon).equals(name)) {
            return false;
        }
        String version = set.substring(colon + 1);
        if (range == null) {
            return exact.equals(new ComparableVersion(version));
        }
        return range.containsVersion(new DefaultArtifactVersion(version));
    }

    /**
     * True when no set can match both patterns: different names, or versions and ranges with nothing in common.
     */
    public boolean disjointFrom(SetPattern other) {
        if (!name.equals(other.name)) {
            return true;
        }
        if (range == null && other.range == null) {
            return !exact.equals(other.exact);
        }
        if (range == null || other.range == null) {
            SetPattern single = range == null ? this : other;
            SetPattern ranged = range == null ? other : this;
            return !ranged.range.containsVersion(new DefaultArtifactVersion(single.exact.toString()));
        }
        return range.restrict(other.range).getRestrictions().isEmpty();
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SetPattern p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text);
    }
}
