package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URL;

/**
 * A browser test class: one headless browser signed in for all its tests (as {@code admin}, or as the user its
 * {@link SignedInAs} names), started before the first and closed after the last, and the screen's address.
 */
abstract class ScreenTest {

    /** The basic-auth user a screen test class's browser signs in as, when not {@code admin}. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface SignedInAs {
        String value();
    }

    static Browser browser;

    @TestHTTPResource("/ui/")
    URL page;

    @BeforeAll
    static void startBrowser(TestInfo test) {
        String user = test.getTestClass().map(c -> c.getAnnotation(SignedInAs.class)).map(SignedInAs::value)
                .orElse("admin");
        browser = Browser.start(user, switch (user) {
            case "admin" -> Api.ADMIN_PASSWORD;
            case "viewer" -> Api.VIEWER_PASSWORD;
            case "approver" -> Api.APPROVER_PASSWORD;
            case "lead" -> Api.LEAD_PASSWORD;
            default -> throw new IllegalArgumentException("no test user " + user);
        });
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }
}
