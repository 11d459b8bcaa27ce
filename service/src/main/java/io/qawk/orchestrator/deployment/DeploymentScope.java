package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.plan.NearestName;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.systemtype.SystemType;
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
    public enum Exclusion { MIXED, OTHER_CHANNEL, NOT_NAMED, OTHER_CENTRE, NO_COMPONENT }

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
        for (SystemsQuery.SystemSummary s : all) {
            if (d.channelId != null && s.mixed()) {
                out.add(new OutOfScope(s.system(), s.group(), "mixed: its devices are not all in one channel",
                        Exclusion.MIXED));
            } else if (d.channelId != null && !d.channelId.equals(s.channelId())) {
                out.add(new OutOfScope(s.system(), s.group(), s.channel() == null ? "its devices are in no channel"
                        : "its devices are in channel " + s.channel(), Exclusion.OTHER_CHANNEL));
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
        in.sort(Comparator.comparingInt((InScope s) -> centreRank(d.groups, s.group()))
                .thenComparing(s -> s.group() == null ? "\uffff" : s.group())
                .thenComparing(InScope::system));
    }

    /**
     * A system or centre the deployment names ({@code field}: {@code systems} or {@code groups}) that no system of the
     * manifest's type has, in words, with the one close name there is ({@link NearestName}), or null.
     */
    public record UnknownName(String field, String name, String why, String suggestion) {
    }

    /** Suggestions are looked for only for this many unknown names: each compares with every known name. */
    static final int SUGGESTIONS = 20;

    /** The names the deployment gives that match nothing, systems first, each in the order given. */
    public List<UnknownName> unknownNames(SystemDeployment d, Manifest manifest) {
        if (d.systems.isEmpty() && d.groups.isEmpty()) {
            return List.of();
        }
        String type = typeName(manifest);
        List<SystemsQuery.SystemSummary> all = systems.allSystems(manifest.systemTypeId);
        Set<String> names = new HashSet<>();
        Set<String> centres = new HashSet<>();
        for (SystemsQuery.SystemSummary s : all) {
            names.add(s.system());
            if (s.group() != null) {
                centres.add(s.group());
            }
        }
        List<UnknownName> unknown = new ArrayList<>();
        unknownOf(d.systems, names, "systems", "no system of " + type + " is called so", unknown);
        unknownOf(d.groups, centres, "groups", "no system of " + type + " is in a centre called so", unknown);
        return unknown;
    }

    private static void unknownOf(List<String> given, Set<String> known, String field, String why,
                                  List<UnknownName> unknown) {
        for (String n : given) {
            if (!known.contains(n)) {
                String near = unknown.size() < SUGGESTIONS ? NearestName.in(n, known).orElse(null) : null;
                unknown.add(new UnknownName(field, n, near == null ? why : why + "; did you mean " + near + "?", near));
            }
        }
    }

    /**
     * Why a deployment would take nothing, for a person: {@code nothing to do: no system of device-system is in scope
     * — unknown names: no-such-system} (or how many systems its scope leaves out).
     */
    public String nothingInScope(SystemDeployment d, Manifest manifest) {
        String words = "nothing to do: no system of " + typeName(manifest) + " is in scope";
        List<UnknownName> unknown = unknownNames(d, manifest);
        if (!unknown.isEmpty()) {
            List<String> names = unknown.stream().limit(10).map(UnknownName::name).toList();
            return words + " — unknown names: " + String.join(", ", names)
                    + (unknown.size() > names.size() ? " and " + (unknown.size() - names.size()) + " more" : "");
        }
        int out = outOfScope(d, manifest).size();
        return out == 0 ? words + " — the type has no systems yet"
                : words + " — its scope leaves out all " + out + " of its systems (see the plan)";
    }

    private static String typeName(Manifest manifest) {
        SystemType t = SystemType.findById(manifest.systemTypeId);
        return t == null ? "system type " + manifest.systemTypeId : t.name;
    }

    private static int centreRank(List<String> groups, String group) {
        int i = groups.indexOf(group);
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
