package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Points the service under test at the shared real hawkBit of this test JVM: on the database the init argument
 * {@code database} names ({@code h2} or {@code postgres}), else the one of {@link SharedHawkbit#get()}.
 */
public class HawkbitTestResource implements QuarkusTestResourceLifecycleManager {

    /** Init argument naming hawkBit's database ({@link HawkbitServer.Database#parse}). */
    public static final String DATABASE = "database";

    private HawkbitServer.Database database;

    @Override
    public void init(Map<String, String> initArgs) {
        String named = initArgs.get(DATABASE);
        database = named == null ? null : HawkbitServer.Database.parse(named);
    }

    /** The hawkBit this resource points the service at. */
    public HawkbitServer hawkbit() {
        return database == null ? SharedHawkbit.get() : SharedHawkbit.get(database);
    }

    @Override
    public Map<String, String> start() {
        HawkbitServer hawkbit = hawkbit();
        return Map.of(
                "qawk.hawkbit.url", hawkbit.baseUrl(),
                "qawk.hawkbit.user", hawkbit.user(),
                "qawk.hawkbit.password", hawkbit.password(),
                "qawk.hawkbit.tenant", hawkbit.tenant());
    }

    @Override
    public void stop() {
        // the shared hawkBit lives for the whole test JVM and is stopped by its shutdown hook
    }
}
