package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.SystemRun;

import java.util.List;
import java.util.Map;

/**
 * The engine's uses of the plain-JDBC writers (package-private: only the store calls them), opened to a benchmark in
 * another package ({@code bench.RunWritePathBenchmarkTest}) that times them against Hibernate, so that main code keeps
 * its visibility.
 */
public final class WriterAccess {

    private WriterAccess() {
    }

    /** {@link SystemRunWriter#lock}: the runs locked, written at the commit if their progress changed. */
    public static List<SystemRun> lock(SystemRunWriter runs, List<Long> runIds) {
        return runs.lock(runIds);
    }

    /** {@link RunDeviceWriter#read}: the runs' devices as plain objects. */
    public static Map<Long, List<RunDevice>> read(RunDeviceWriter devices, List<Long> runIds) {
        return devices.read(runIds);
    }

    /** {@link RunDeviceWriter#changed}: this device is written at the commit. */
    public static void changed(RunDeviceWriter devices, RunDevice device) {
        devices.changed(device);
    }

    /** {@link RunDeviceWriter#inserted}: these new devices are written at the commit. */
    public static void inserted(RunDeviceWriter devices, List<RunDevice> fresh) {
        devices.inserted(fresh);
    }
}
