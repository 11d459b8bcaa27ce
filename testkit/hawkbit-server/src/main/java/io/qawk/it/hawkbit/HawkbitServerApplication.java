package io.qawk.it.hawkbit;

import org.eclipse.hawkbit.autoconfigure.security.EnableHawkbitManagedSecurityConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A complete hawkBit 0.3.0M7 update server (Management API + DDI) for Qawk's tests and demo.
 * Start it with {@code --spring.security.user.name=... --spring.security.user.password={noop}...}
 * and {@code --server.address=127.0.0.1 --server.port=...}.
 */
@SpringBootApplication
@EnableHawkbitManagedSecurityConfiguration
public class HawkbitServerApplication {

    public static void main(final String[] args) {
        SpringApplication.run(HawkbitServerApplication.class, args);
    }
}
