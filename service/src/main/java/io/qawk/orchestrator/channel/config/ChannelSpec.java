package io.qawk.orchestrator.channel.config;

import io.qawk.orchestrator.channel.ChannelRequest;
import io.qawk.orchestrator.window.Windows;

import java.util.List;

/**
 * One channel as declared in configuration, every setting filled in (an omitted setting means its default, not
 * "keep what the channel had": the file is the whole truth about a channel it declares).
 *
 * @param index      position in {@code channels}, for messages
 * @param promotesTo name of the channel releases promote to, or null
 * @param soakSeconds how long a complete release stays before it may be promoted
 * @param verifyTimeoutSeconds {@code orchestrator.verifyTimeoutSeconds}: for the deployments of its releases
 * @param systemSoakSeconds {@code orchestrator.soakSeconds}: how long each system soaks after its last order
 */
public record ChannelSpec(int index, String name, String match, String promotesTo, int maxParallel, int maxFailed,
                          boolean byCentre, List<String> centres, int deviceMaxFailed, int deviceBatchSize,
                          int soakSeconds, int verifyTimeoutSeconds, int systemSoakSeconds) {

    public static final int DEFAULT_VERIFY_TIMEOUT_SECONDS = 300;
    public static final int DEFAULT_SYSTEM_SOAK_SECONDS = 0;

    public static final int DEFAULT_MAX_PARALLEL = 1;
    public static final int DEFAULT_MAX_FAILED = 0;
    public static final int DEFAULT_DEVICE_MAX_FAILED = 0;
    public static final int DEFAULT_DEVICE_BATCH_SIZE = 500;
    public static final int DEFAULT_SOAK_SECONDS = 0;

    /** The file declares no maintenance windows (yet): a channel it manages has none, whatever it had before. */
    static final Windows NO_WINDOWS = new Windows(null, null);

    /** The settings as {@link io.qawk.orchestrator.channel.ChannelService#applyManaged} takes them. */
    public ChannelRequest toRequest() {
        return new ChannelRequest(name, match, null, new ChannelRequest.Orchestrator(maxParallel, maxFailed, byCentre, centres,
                verifyTimeoutSeconds, systemSoakSeconds, null, NO_WINDOWS),
                new ChannelRequest.Devices(deviceMaxFailed, deviceBatchSize), soakSeconds, null, null);
    }

    /** Where this channel is in the file, e.g. {@code channels[1] ('beta')}. */
    public String where() {
        return "channels[" + index + "] ('" + name + "')";
    }
}
