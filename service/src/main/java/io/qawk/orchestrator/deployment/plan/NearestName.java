package io.qawk.orchestrator.deployment.plan;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The one name an operator probably meant when a name they gave matches nothing. The measure is the Levenshtein
 * distance (insertions, deletions, substitutions; letters compared without case) relative to the longer name's length:
 * a name is close when at most a third of it differs ({@code lane-7} and {@code lane-07}: 1 of 7), so one slip in a
 * short name counts and a different name of the same shape does not ({@code no-such-system} and {@code device-07}). A
 * suggestion is made only when exactly one name is nearest: two equally close names ({@code c03}: {@code c01} and
 * {@code c02}) are a guess, not a suggestion.
 */
public final class NearestName {

    /** At most this share of the longer name may differ. */
    static final double CLOSE = 1.0 / 3;

    private NearestName() {
    }

    /** The single nearest close name among {@code known}, or empty. */
    public static Optional<String> in(String given, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean tie = false;
        for (String k : known) {
            int longer = Math.max(given.length(), k.length());
            int allowed = (int) Math.floor(longer * CLOSE);
            if (Math.abs(given.length() - k.length()) > allowed || allowed == 0) {
                continue; // too different in length to be close: not worth the distance
            }
            int d = distance(given.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d > allowed || d > bestDistance) {
                continue;
            }
            if (d == bestDistance) {
                tie = tie || !k.equals(best);
            } else {
                best = k;
                bestDistance = d;
                tie = false;
            }
        }
        return tie ? Optional.empty() : Optional.ofNullable(best);
    }

    /** Levenshtein distance, in two rows. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
