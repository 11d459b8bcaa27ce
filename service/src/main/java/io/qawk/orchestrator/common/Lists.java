package io.qawk.orchestrator.common;

import java.util.ArrayList;
import java.util.List;

/** Lists cut into pieces: a query's ids, a transaction's runs. */
public final class Lists {

    private Lists() {
    }

    /** {@code all} cut into lists of at most {@code size}. */
    public static <T> List<List<T>> chunks(List<T> all, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += size) {
            out.add(all.subList(i, Math.min(all.size(), i + size)));
        }
        return out;
    }
}
