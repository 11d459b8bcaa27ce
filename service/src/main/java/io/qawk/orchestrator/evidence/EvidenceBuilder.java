package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.audit.AuditEntry;
import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.deployment.RunRecords;
import io.qawk.orchestrator.deployment.model.DeploymentEvent;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.RunEventKind;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.inventory.ConfigurationId;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Builds a deployment's evidence record from what Qawk stored of it: the deployment and who steered it (its fields and
 * the audit listing), the manifest revision it ran, the rules in force, and per system the photograph before, every
 * device with hawkBit's action ids, times and results, the verification and soak verdicts, the state after and the
 * census row it is in. In two parts, so that no deployment is ever held whole: the head ({@link #head}), then the
 * systems one by one ({@link #systems}). Reads only; call inside a transaction. Building it twice from the same rows
 * gives the same record, which is how {@code …/evidence/verify} finds rows edited since the end.
 * <p>
 * One class: the record's fields in the order the record has them, read in one place; the digest of a rebuilt
 * record depends on that order staying exactly so.
 */
@ApplicationScoped
public class EvidenceBuilder {

    static final String FORMAT = "qawk-evidence/1";

    /**
     * The parts of the record that are a picture of their moment, not of the deployment's own rows: left out of
     * verify's comparison (the stored record's digest covers them). {@code commands}: the audit listing, written just
     * after each command's commit, so the command that ended a deployment may land just after its record was sealed.
     */
    static final List<String> OF_THEIR_MOMENT = List.of("sealedAt", "rulesInForce", "census", "commands");

    private static final Set<RunEventKind> VERIFICATION = EnumSet.of(RunEventKind.DEVICE_VERIFIED,
            RunEventKind.DEVICE_NOT_VERIFIED);
    private static final Set<RunEventKind> SOAK = EnumSet.of(RunEventKind.SOAK_STARTED, RunEventKind.SYSTEM_UNHEALTHY,
            RunEventKind.SOAK_EXTENDED);
    /** A device whose run established the set it ends on: its new one, or its photographed one. */
    private static final Set<DeviceState> ON_NEW = EnumSet.of(DeviceState.SUCCEEDED, DeviceState.ALREADY_ON_SET,
            DeviceState.KEPT, DeviceState.LEFT_AS_IS);
    private static final Set<DeviceState> ON_OLD = EnumSet.of(DeviceState.ROLLED_BACK, DeviceState.NOT_SENT,
            DeviceState.WAITING);

    @Inject
    RunRecords repository;

    @Inject
    ObjectMapper json;

    @Inject
    DataSource dataSource;

    /** Runs read at once when the systems of a record are built: what memory holds of a deployment at a time. */
    static final int PAGE = 250;

    /** A record's head (all of it but {@code systems}) and the system type whose rules and census it names. */
    public record Head(ObjectNode node, SystemType type) {
    }

    /** The head of {@code d}'s record as its rows are now, sealed at {@code sealedAt}: all of it but its systems. */
    public Head head(SystemDeployment d, Instant sealedAt) {
        ObjectNode r = json.createObjectNode();
        r.put("format", FORMAT);
        r.put("sealedAt", time(sealedAt));
        r.set("deployment", deployment(d));
        ArrayNode commands = commands(d.id);
        ObjectNode people = r.putObject("people");
        people.put("createdBy", d.createdBy);
        people.put("startedBy", d.startedBy);
        // the deployment forgets who paused it once resumed; the record does not
        people.put("pausedBy", d.pausedBy != null ? d.pausedBy : lastActor(commands, "pause"));
        people.put("abortedBy", d.abortedBy);
        r.set("approvals", approvals(d.id));
        r.set("commands", commands);
        ManifestRevision revision = d.manifestRevisionId == null ? null : ManifestRevision.findById(d.manifestRevisionId);
        r.set("manifest", manifest(d, revision));
        long typeId = revision != null ? revision.systemTypeId : manifestType(d.manifestId);
        SystemType type = typeId < 0 ? null : SystemType.findById(typeId);
        ObjectNode rules = r.putObject("rulesInForce");
        rules.put("systemTypeId", type == null ? null : type.id);
        rules.put("systemType", type == null ? null : type.name);
        rules.set("rules", type == null ? json.createArrayNode() : json.valueToTree(type.rules));
        return new Head(r, type);
    }

    /** The runs of {@code d}'s record, one system each, in the deployment's sequence. */
    public List<Long> runIds(SystemDeployment d) {
        return repository.runIdsOf(d.id);
    }

    /**
     * Each system of a record as its rows are now, one per run of {@code runIds} ({@link #runIds}), to {@code each}:
     * read {@link #PAGE} runs at a time, and the persistence context cleared after each page (it only reads), so that a
     * deployment of any size holds one page in memory. {@code type}: the head's.
     */
    public void systems(List<Long> runIds, SystemType type, Consumer<ObjectNode> each) {
        for (List<Long> page : Lists.chunks(runIds, PAGE)) {
            List<SystemRun> runs = repository.runs(page);
            Map<Long, List<RunDevice>> devices = repository.devicesOf(page);
            Map<Long, List<RunEvent>> events = repository.eventsOf(page);
            Map<String, ObjectNode> census = type == null ? Map.of() : census(type.id, runs);
            for (SystemRun run : runs) {
                each.accept(system(run, devices.getOrDefault(run.id, List.of()), events.getOrDefault(run.id, List.of()),
                        census.get(run.system)));
            }
            SystemRun.getEntityManager().clear();
        }
    }

    private ObjectNode deployment(SystemDeployment d) {
        ObjectNode n = json.createObjectNode();
        n.put("id", d.id);
        n.put("name", d.name);
        n.put("state", d.phase.name());
        n.put("createdAt", time(d.createdAt));
        n.put("startedAt", time(d.startedAt));
        n.put("endedAt", time(d.endedAt));
        n.put("channelId", d.channelId);
        n.put("followsChannel", d.followsChannel);
        n.set("groups", json.valueToTree(d.groups));
        n.set("systems", json.valueToTree(d.systems));
        n.put("maxParallel", d.maxParallel);
        n.put("maxFailed", d.maxFailed);
        n.put("byCentre", d.byCentre);
        n.put("orderTimeoutSeconds", d.orderTimeoutSeconds);
        n.put("verifyTimeoutSeconds", d.verifyTimeoutSeconds);
        n.put("soakSeconds", d.soakSeconds);
        n.put("metricGateQuery", d.metricGateQuery);
        n.put("metricGateCondition", d.metricGateCondition);
        n.set("windows", d.windows == null ? NullNode.instance : json.valueToTree(d.windows));
        return n;
    }

    /** Four eyes: the deployment's own timeline (approval asked, given, taken back, refused), who, when, the comment. */
    private ArrayNode approvals(long id) {
        ArrayNode out = json.createArrayNode();
        for (DeploymentEvent e : DeploymentEvent.of(id)) {
            ObjectNode n = out.addObject();
            n.put("at", time(e.at));
            n.put("kind", e.kind.name());
            n.put("actor", e.actor);
            n.put("comment", e.comment);
        }
        return out;
    }

    /** Every command of the audit listing on the deployment or its runs, in order. */
    private ArrayNode commands(long id) {
        ArrayNode out = json.createArrayNode();
        List<AuditEntry> entries = AuditEntry.list("target = ?1 or target like ?2 order by at, id",
                "systemdeployments/" + id, "systemdeployments/" + id + "/%");
        for (AuditEntry e : entries) {
            ObjectNode n = out.addObject();
            n.put("at", time(e.at));
            n.put("actor", e.actor);
            n.put("action", e.action);
            n.put("target", e.target);
        }
        return out;
    }

    /** Who gave the last {@code action} of these commands (null: nobody). */
    private static String lastActor(ArrayNode commands, String action) {
        String actor = null;
        for (JsonNode c : commands) {
            if (action.equals(c.path("action").asText())) {
                actor = c.path("actor").isNull() ? null : c.path("actor").asText();
            }
        }
        return actor;
    }

    private ObjectNode manifest(SystemDeployment d, ManifestRevision revision) {
        ObjectNode n = json.createObjectNode();
        n.put("id", d.manifestId);
        Manifest content = revision != null ? revision.content() : Manifest.findById(d.manifestId);
        n.put("name", revision != null ? revision.name : content == null ? null : content.name);
        n.put("revision", revision == null ? null : revision.revision);
        ArrayNode components = n.putArray("components");
        if (content != null) {
            content.components.stream()
                    .sorted((a, b) -> a.order != b.order ? Integer.compare(a.order, b.order)
                            : a.componentType.compareTo(b.componentType))
                    .forEach(c -> component(components.addObject(), c));
        }
        return n;
    }

    private static void component(ObjectNode n, ManifestComponent c) {
        n.put("componentType", c.componentType);
        n.put("distributionSetId", c.distributionSetId);
        n.put("distributionSet", c.distributionSet);
        n.put("order", c.order);
        n.put("verify", c.verify);
    }

    private static long manifestType(long manifestId) {
        Manifest m = Manifest.findById(manifestId);
        return m == null ? -1 : m.systemTypeId;
    }

    private ObjectNode system(SystemRun run, List<RunDevice> devices, List<RunEvent> events, ObjectNode census) {
        ObjectNode n = json.createObjectNode();
        n.put("system", run.system);
        n.put("group", run.group);
        n.put("state", run.state.name());
        n.put("attempt", run.attempt);
        n.put("reason", run.reason);
        n.put("rollbackCause", run.rollbackCause == null ? null : run.rollbackCause.name());
        n.put("rollbackReason", run.rollbackReason);
        n.put("failedOrder", run.failedOrder);
        n.put("startedAt", time(run.startedAt));
        n.put("endedAt", time(run.endedAt));
        n.put("soakStartedAt", time(run.soakStartedAt));
        n.put("soakEndsAt", time(run.soakEndsAt));
        List<ObjectNode> timeline = events.stream().map(this::event).toList();
        ArrayNode devs = n.putArray("devices");
        for (RunDevice dev : devices) {
            devs.add(device(dev, timeline));
        }
        n.putArray("verification").addAll(timeline.stream()
                .filter(e -> VERIFICATION.contains(RunEventKind.valueOf(e.path("type").asText()))).toList());
        n.putArray("soak").addAll(timeline.stream()
                .filter(e -> SOAK.contains(RunEventKind.valueOf(e.path("type").asText()))).toList());
        n.putArray("timeline").addAll(timeline);
        n.set("census", census);
        return n;
    }

    private ObjectNode device(RunDevice dev, List<ObjectNode> timeline) {
        ObjectNode n = json.createObjectNode();
        n.put("controllerId", dev.controllerId);
        n.put("componentType", dev.componentType);
        n.put("order", dev.order);
        n.put("before", dev.fromSet);
        n.put("beforeSetId", dev.fromSetId);
        n.put("to", dev.toSet);
        n.put("toSetId", dev.toSetId);
        n.put("state", dev.state.name());
        n.put("failed", dev.failed);
        n.put("after", ON_NEW.contains(dev.state) ? dev.toSet : ON_OLD.contains(dev.state) ? dev.fromSet : null);
        n.put("actionId", dev.actionId);
        n.put("intentAt", time(dev.intentAt));
        n.put("assignedAt", time(dev.assignedAt));
        n.put("finishedAt", time(dev.finishedAt));
        n.put("detail", dev.detail);
        n.put("failure", dev.failure);
        n.put("verifyQuery", dev.verifyQuery);
        ArrayNode actions = n.putArray("actions");
        ArrayNode results = n.putArray("results");
        for (ObjectNode e : timeline) {
            JsonNode data = e.path("data");
            RunEventKind kind = RunEventKind.valueOf(e.path("type").asText());
            if (kind == RunEventKind.ASSIGNED) {
                for (JsonNode a : data.path("devices")) {
                    if (dev.controllerId.equals(a.path("controllerId").asText())) {
                        action(actions.addObject(), e, a.path("actionId"), data.path("setId"), dev);
                    }
                }
            } else if (kind == RunEventKind.RECOVERED) {
                if (dev.controllerId.equals(data.path("controllerId").asText())) {
                    action(actions.addObject(), e, data.path("actionId"), NullNode.instance, dev);
                }
            } else if (dev.controllerId.equals(data.path("controllerId").asText())) {
                ObjectNode result = results.addObject();
                result.put("at", e.path("at").asText());
                result.put("type", kind.name());
                result.put("message", e.path("message").asText());
            }
        }
        return n;
    }

    private static void action(ObjectNode n, ObjectNode event, JsonNode actionId, JsonNode setId, RunDevice dev) {
        n.put("at", event.path("at").asText());
        n.put("type", event.path("type").asText());
        n.set("actionId", actionId.isNumber() ? actionId : NullNode.instance);
        n.set("setId", setId.isNumber() ? setId : NullNode.instance);
        n.put("direction", !setId.isNumber() ? null : setId.asLong() == dev.toSetId ? "forward" : "back");
    }

    private ObjectNode event(RunEvent e) {
        ObjectNode n = json.createObjectNode();
        n.put("at", time(e.at));
        n.put("type", e.kind.name());
        n.put("message", e.message);
        n.put("actor", e.actor);
        n.set("data", data(e.data));
        return n;
    }

    private JsonNode data(String text) {
        if (text == null) {
            return NullNode.instance;
        }
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }

    /** The census row each system of the runs is in now: what it runs, its configuration id, the rule it breaks. */
    private Map<String, ObjectNode> census(long typeId, List<SystemRun> runs) {
        Map<String, ObjectNode> out = new HashMap<>();
        if (runs.isEmpty()) {
            return out;
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select system_name, group_name, versions::text, broken_rule,"
                     + " broken from discovered_system where system_type_id = ? and system_name = any(?)")) {
            ps.setLong(1, typeId);
            ps.setArray(2, c.createArrayOf("varchar", runs.stream().map(r -> r.system).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, List<String>> versions = new TreeMap<>(json.readValue(rs.getString(3),
                            new TypeReference<LinkedHashMap<String, List<String>>>() {
                            }));
                    ObjectNode n = json.createObjectNode();
                    n.put("group", rs.getString(2));
                    n.set("versions", json.valueToTree(versions));
                    n.put("configurationId", ConfigurationId.of(versions));
                    n.put("brokenRule", rs.getObject(4) == null ? null : rs.getInt(4));
                    n.put("broken", rs.getString(5));
                    out.put(rs.getString(1), n);
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("Could not read the census for an evidence record", e);
        }
        return out;
    }

    /** A time as the record writes it: ISO-8601 in UTC, to the microsecond Postgres keeps. */
    static String time(Instant at) {
        return at == null ? null : at.truncatedTo(ChronoUnit.MICROS).toString();
    }
}
