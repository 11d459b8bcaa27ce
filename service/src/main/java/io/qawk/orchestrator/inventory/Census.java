package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.apidoc.Nullable;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.SystemState;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * What a type's systems run, from the inventory alone (no hawkBit request): the distinct mixes of sets, how many
 * systems run each, the manifests each equals and the rule it breaks. The mixes are counted at each sync
 * ({@code discovered_mix}, written by {@link Drift}); the rules and manifests are judged here once per mix.
 */
@ApplicationScoped
public class Census {

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    Instance<ManifestTargets> manifests;

    /** One distinct mix: what each component runs, how many systems, the manifests it is fully on, the rule it breaks. */
    public record Mix(Map<String, List<@Nullable String>> versions, long systems, List<SystemsQuery.OnManifest> manifests,
                      MixBreach broken) {

        /** The mix's configuration identity ({@link ConfigurationId}): quoted as a system's approved configuration. */
        @JsonProperty("configurationId")
        public String configurationId() {
            return ConfigurationId.of(versions);
        }
    }

    /** The rule a mix breaks, with words naming components and sets. */
    public record MixBreach(int rule, String why, String reason) {
    }

    /** The census of one type: its systems, how many break a rule, and the mixes, most systems first. */
    public record Versions(long systems, long broken, List<Mix> content) {
    }

    /** The type's manifests as the census compares with them (none when no manifest module is there). */
    public List<ManifestTargets.Target> manifestsOf(long systemTypeId) {
        return manifests.isResolvable() ? manifests.get().of(systemTypeId) : List.of();
    }

    @Transactional
    public Versions versions(SystemType type) {
        CompatibilityRules rules = type.compatibility();
        List<ManifestTargets.Target> targets = manifestsOf(type.id);
        List<Mix> mixes = new ArrayList<>();
        long systems = 0;
        long broken = 0;
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select versions::text, systems, broken from discovered_mix"
                     + " where system_type_id = ? order by systems desc, versions::text")) {
            ps.setLong(1, type.id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, List<String>> versions = new TreeMap<>(json.readValue(rs.getString(1), Drift.VERSIONS));
                    long n = rs.getLong(2);
                    systems += n;
                    broken += rs.getLong(3);
                    List<SystemsQuery.OnManifest> on = targets.stream().filter(t -> t.heldBy(versions))
                            .map(t -> new SystemsQuery.OnManifest(t.id(), t.name(), t.revision())).toList();
                    MixBreach breach = rules.firstBreach(SystemState.ofSets(versions))
                            .map(b -> new MixBreach(b.rule(), b.why(), b.words())).orElse(null);
                    mixes.add(new Mix(versions, n, on, breach));
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("Could not read the census", e);
        }
        return new Versions(systems, broken, mixes);
    }
}
