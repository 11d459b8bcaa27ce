package io.qawk.orchestrator.channel.config;

import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.channel.Channel;
import io.qawk.orchestrator.channel.ChannelService;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Configuration as code: at start-up, the channels of {@code qawk.fleets.file} (the Helm values) are validated as a
 * whole and then created or updated through {@link ChannelService#applyManaged}, in one transaction, so the API shows
 * them as {@code managedBy: "configuration"} and refuses to change their settings. A channel the file no longer
 * declares is handed back to the API ({@code managedBy: "api"}), never deleted. Replicas starting together apply
 * one after the other (a Postgres transaction lock). Any problem stops the start with a message naming the value.
 */
@ApplicationScoped
public class ChannelsFromConfiguration {

    private static final Logger LOG = Logger.getLogger(ChannelsFromConfiguration.class);
    /** Advisory lock namespace/key of the start-up apply (distinct from the engine's). */
    static final int LOCK_NAMESPACE = 0x51415759;

    @Inject
    ChannelsConfig config;

    @Inject
    ChannelService service;

    @Inject
    Clock clock;

    void onStart(@Observes StartupEvent ev) {
        String file = config.file().filter(f -> !f.isBlank()).orElse(null);
        if (file == null) {
            return;
        }
        String text;
        try {
            text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new InvalidChannelsException(file, List.of(ChannelsValidation.PREFIX + "cannot read qawk.fleets.file "
                    + "(QAWK_FLEETS_FILE) '" + file + "': " + e));
        }
        List<ChannelSpec> channels = ChannelsValidation.parse(text, file);
        Result r = apply(channels, file);
        LOG.infof("Channels from %s: %d created, %d updated%s", file, r.created().size(), r.updated().size(),
                r.handedBack().isEmpty() ? "" : ", handed back to the API: " + String.join(", ", r.handedBack()));
    }

    /** What applying did, by channel name. */
    public record Result(List<String> created, List<String> updated, List<String> handedBack) {
    }

    /** Checks what needs the database, then creates or updates every channel; all or nothing. */
    public Result apply(List<ChannelSpec> channels, String source) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Panache.getEntityManager().createNativeQuery("select pg_advisory_xact_lock(?1, ?2)")
                    .setParameter(1, LOCK_NAMESPACE).setParameter(2, 1).getSingleResult();
            Map<String, ChannelSpec> declared = new LinkedHashMap<>();
            channels.forEach(c -> declared.put(c.name(), c));
            List<String> problems = new ArrayList<>();
            for (ChannelSpec c : channels) {
                if (c.promotesTo() != null && !declared.containsKey(c.promotesTo())) {
                    Channel target = Channel.findByName(c.promotesTo()).orElse(null);
                    if (target == null) {
                        problems.add(ChannelsValidation.PREFIX + "channels[" + c.index() + "].promotesTo names '"
                                + c.promotesTo() + "', which is neither declared nor an existing channel");
                    } else if (reaches(target, c.name())) {
                        problems.add(ChannelsValidation.PREFIX + "channels[" + c.index() + "].promotesTo '"
                                + c.promotesTo() + "' promotes back to '" + c.name() + "' (a loop through the API's channels)");
                    }
                }
            }
            if (!problems.isEmpty()) {
                throw new InvalidChannelsException(source, problems);
            }
            List<String> created = new ArrayList<>();
            List<String> updated = new ArrayList<>();
            for (ChannelSpec c : promotionTargetsFirst(channels, declared)) {
                boolean exists = Channel.findByName(c.name()).isPresent();
                try {
                    service.applyManaged(c.toRequest(), c.promotesTo());
                } catch (InvalidRequestException e) {
                    throw new InvalidChannelsException(source, e.errors().stream().map(fe -> ChannelsValidation.PREFIX
                            + "channels[" + c.index() + "]." + fe.field() + " " + fe.message()).toList());
                } catch (IllegalStateException e) {
                    throw new InvalidChannelsException(source, List.of(ChannelsValidation.PREFIX + c.where() + ": "
                            + e.getMessage()));
                }
                (exists ? updated : created).add(c.name());
            }
            List<String> handedBack = new ArrayList<>();
            for (Channel f : Channel.<Channel>list("managedBy", "configuration")) {
                if (!declared.containsKey(f.name)) {
                    f.managedBy = "api";
                    f.updatedAt = clock.instant();
                    handedBack.add(f.name);
                }
            }
            return new Result(created, updated, handedBack);
        });
    }

    private static boolean reaches(Channel from, String name) {
        Set<Long> seen = new HashSet<>();
        for (Channel f = from; f != null && seen.add(f.id); f = f.promotesToId == null ? null : Channel.findById(f.promotesToId)) {
            if (f.name.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** A channel comes after the channel it promotes to, so that one exists when it is applied (no loops: validated). */
    static List<ChannelSpec> promotionTargetsFirst(List<ChannelSpec> channels, Map<String, ChannelSpec> declared) {
        List<ChannelSpec> out = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (ChannelSpec c : channels) {
            place(c, declared, placed, out, new HashSet<>());
        }
        return out;
    }

    private static void place(ChannelSpec c, Map<String, ChannelSpec> declared, Set<String> placed, List<ChannelSpec> out,
                              Set<String> visiting) {
        if (placed.contains(c.name()) || !visiting.add(c.name())) {
            return;
        }
        ChannelSpec target = c.promotesTo() == null ? null : declared.get(c.promotesTo());
        if (target != null) {
            place(target, declared, placed, out, visiting);
        }
        placed.add(c.name());
        out.add(c);
    }
}
