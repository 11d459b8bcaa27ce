package io.qawk.orchestrator.inventory;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

/** Skips scheduled hawkBit work while no hawkBit URL is configured (the service still serves its API). */
@Singleton
public class HawkbitNotConfigured implements Scheduled.SkipPredicate {

    @Override
    public boolean test(ScheduledExecution execution) {
        return ConfigProvider.getConfig().getOptionalValue("qawk.hawkbit.url", String.class)
                .map(String::isBlank).orElse(true);
    }
}
