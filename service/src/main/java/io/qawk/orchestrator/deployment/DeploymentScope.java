package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Which discovered systems a deployment takes, in which sequence, and why the others are left out. */
@ApplicationScoped
public class DeploymentScope {

    @Inject
    SystemsQuery systems;

    /** A system taken, with its centre. */
    public record InScope(String system, String group) {
    }

    /** Why a system is left out, as a kind (the words are in {@link OutOfScope#why}). */
    public enum Exclusion { MIXED, OTHER_CHANNEL, NOT_NAMED, OTHER_CENTRE, NO_COMPONENT, NOT_FOUND }

    /** A system left out, why in words, and which kind of why. */
    public record OutOfScope(String system, String group, String why, Exclusion exclusion) {

        /** Its devices are not all in one channel: it may come in once they are. */
        public boolean mixed() {
            return exclusion == Exclusion.MIXED;
        }
    }

    /** The systems in scope, in sequence: centres in the deployment's order (or by name), then system name. */
    public List<InScope> inScope(SystemDeployment d, Manifest manifest) {
        List<InScope> in = new ArrayList<>();
        evaluate(d, manifest, in, new ArrayList<>());
        return in;
    }

    public List<OutOfScope> outOfScope(SystemDeployment d, Manifest manifest) {
        List<OutOfScope> out = new ArrayList<>();
        evaluate(d, manifest, new ArrayList<>(), out);
        return out;
    }

    private void evaluate(SystemDeployment d, Manifest manifest, List<InScope> in, List<OutOfScope> out) {
        Set<String> named = new HashSet<>(d.systems);
        Set<String> components = new HashSet<>();
        manifest.components.forEach(c -> components.add(c.componentType));
        List<SystemsQuery.SystemSummary> all = systems.allSystems(manifest.systemTypeId);
        Set<String> found = new HashSet<>();
        for (SystemsQuery.SystemSummary s : all) {
            found.add(s.system());
            if (d.fleetId != null && s.mixed()) {
                out.add(new OutOfScope(s.system(), s.group(), "mixed: its devices are not all in one channel",
                        Exclusion.MIXED));
            } else if (d.fleetId != null && !d.fleetId.equals(s.fleetId())) {
                out.add(new OutOfScope(s.system(), s.group(), s.fleet() == null ? "its devices are in no channel"
                        : "its devices are in channel " + s.fleet(), Exclusion.OTHER_CHANNEL));
            } else if (!named.isEmpty() && !named.contains(s.system())) {
                out.add(new OutOfScope(s.system(), s.group(), "not among the systems named by the deployment",
                        Exclusion.NOT_NAMED));
            } else if (!d.groups.isEmpty() && !d.groups.contains(s.group())) {
                out.add(new OutOfScope(s.system(), s.group(), "its centre " + s.group() + " is not among the deployment's groups",
                        Exclusion.OTHER_CENTRE));
            } else if (s.components().keySet().stream().noneMatch(components::contains)) {
                out.add(new OutOfScope(s.system(), s.group(), "none of its components is in the manifest",
                        Exclusion.NO_COMPONENT));
            } else {
                in.add(new InScope(s.system(), s.group()));
            }
        }
        for (String n : d.systems) {
            if (!found.contains(n)) {
                out.add(new OutOfScope(n, null, "no devices of this system were found in the inventory",
                        Exclusion.NOT_FOUND));
            }
        }
        in.sort(Comparator.comparingInt((InScope s) -> centreRank(d.groups, s.group()))
                .thenComparing(s -> s.group() == null ? "\uffff" : s.group())
                .thenComparing(InScope::system));
    }

    private static int centreRank(List<String> groups, String group) {
        int i = groups.indexOf(group);
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
