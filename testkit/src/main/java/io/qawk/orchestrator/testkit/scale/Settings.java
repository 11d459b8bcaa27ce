package io.qawk.orchestrator.testkit.scale;

import java.time.Duration;

import java.util.function.LongSupplier;

/** How the double behaves, changeable while it runs (see the setters of {@link ScaleHawkbit}). */
final class Settings {
    volatile ScaleHawkbit.Shape shape = ScaleHawkbit.Shape.V0_3;
    volatile ScaleHawkbit.DeviceRule rule = ScaleHawkbit.DeviceRule.succeedAfter(Duration.ZERO);
    volatile LongSupplier clock = System::currentTimeMillis;
    /** Devices poll this often, each at its own phase; null: only device activity moves lastControllerRequestAt. */
    volatile Duration pollInterval;

    long now() {
        return clock.getAsLong();
    }
}
