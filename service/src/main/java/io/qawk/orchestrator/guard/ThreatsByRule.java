package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.systemtype.RuleWitness;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The guard's part of what a rule going away exposes: each threat of the last pass that breaks this rule on systems of
 * the type, and on how many (the next pass judges them by the new rules).
 */
@ApplicationScoped
public class ThreatsByRule implements RuleWitness {

    private static final int NAMED = 10;

    @Inject
    ThreatStore store;

    @Override
    public Supplier<List<String>> exposedBy(SystemType type, int index) {
        List<String> words = new ArrayList<>();
        for (ThreatStore.Row row : store.threats(type.id, null)) {
            List<String> systems = row.systems().stream()
                    .filter(s -> s.systemTypeId() == type.id && s.breaks() != null
                            && Objects.equals(s.breaks().rule(), index))
                    .map(Threat.AtSystem::system).sorted().toList();
            if (!systems.isEmpty()) {
                words.add("threat \"" + (row.name() == null ? row.source().word() + " " + row.hawkbitId() : row.name())
                        + "\" (" + row.source().word() + " " + row.hawkbitId() + ") no longer breaks a rule on "
                        + systems.size() + (systems.size() == 1 ? " system: " : " systems: ")
                        + (systems.size() <= NAMED ? String.join(", ", systems)
                        : String.join(", ", systems.subList(0, NAMED)) + " and " + (systems.size() - NAMED) + " more"));
            }
        }
        return () -> words;
    }
}
