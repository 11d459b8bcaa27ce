package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.systemtype.RuleWitness;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.List;
import java.util.function.Supplier;

/**
 * The census's part of what a rule going away exposes: the systems it marks broken now ({@code broken_rule}) that the
 * census, judged again with the new rules, no longer calls broken.
 */
@ApplicationScoped
public class BrokenByRule implements RuleWitness {

    private static final int NAMED = 10;

    @Inject
    EntityManager em;

    @Override
    public Supplier<List<String>> exposedBy(SystemType type, int index) {
        @SuppressWarnings("unchecked")
        List<String> broken = em.createNativeQuery("select system_name from discovered_system where system_type_id = ?1"
                + " and broken_rule = ?2 order by system_name").setParameter(1, type.id).setParameter(2, index)
                .getResultList();
        if (broken.isEmpty()) {
            return List::of;
        }
        return () -> {
            @SuppressWarnings("unchecked")
            List<String> mended = em.createNativeQuery("select system_name from discovered_system where"
                    + " system_type_id = ?1 and broken is null and system_name in (?2) order by system_name")
                    .setParameter(1, type.id).setParameter(2, broken).getResultList();
            return mended.isEmpty() ? List.of() : List.of(names(mended) + " no longer "
                    + (mended.size() == 1 ? "counts" : "count") + " as broken (the census broke "
                    + (mended.size() == 1 ? "it" : "them") + " by this rule)");
        };
    }

    static String names(List<String> systems) {
        return systems.size() <= NAMED ? String.join(", ", systems)
                : String.join(", ", systems.subList(0, NAMED)) + " and " + (systems.size() - NAMED) + " more";
    }
}
