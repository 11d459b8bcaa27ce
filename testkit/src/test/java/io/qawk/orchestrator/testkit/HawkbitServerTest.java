package io.qawk.orchestrator.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testkit.SharedHawkbit;

class HawkbitServerTest {

    private static int status(String url, String user, String password) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (user != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void sharedServerIsReachableOnLoopbackWithItsRandomPassword() throws Exception {
        HawkbitServer s = SharedHawkbit.get();
        assertThat(SharedHawkbit.get()).isSameAs(s);
        assertThat(s.baseUrl()).startsWith("http://127.0.0.1:");
        assertThat(s.password()).hasSizeGreaterThanOrEqualTo(24);
        assertThat(Files.isRegularFile(HawkbitServer.jarPath(SharedHawkbit.projectDir()))).isTrue();
        assertThat(status(s.baseUrl() + "/rest/v1/targets", s.user(), s.password())).isEqualTo(200);
        assertThat(status(s.baseUrl() + "/rest/v1/targets", s.user(), "wrong")).isEqualTo(401);
        assertThat(status(s.baseUrl() + "/rest/v1/targets", null, null)).isEqualTo(401);
        // the password is neither on the command line nor in the log
        String cmdLine = ProcessHandle.of(s.pid()).flatMap(p -> p.info().commandLine()).orElse("");
        assertThat(cmdLine).doesNotContain(s.password());
        assertThat(Files.readString(s.logFile())).doesNotContain(s.password());
    }

    @Test
    void secondServerStartsOnAnotherPortAndCloseStopsIt() throws Exception {
        HawkbitServer shared = SharedHawkbit.get();
        HawkbitServer other = HawkbitServer.start(SharedHawkbit.projectDir());
        try {
            assertThat(other.port()).isNotEqualTo(shared.port());
            assertThat(other.password()).isNotEqualTo(shared.password());
            assertThat(status(other.baseUrl() + "/rest/v1/targets", other.user(), other.password())).isEqualTo(200);
        } finally {
            other.close();
        }
        assertThat(other.isAlive()).isFalse();
        assertThat(ProcessHandle.of(other.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(shared.isAlive()).isTrue();
    }

    @Test
    void aLaterLoadOfTheTestKitAdoptsTheSharedServerInsteadOfStartingAnother() throws Exception {
        HawkbitServer shared = SharedHawkbit.get();
        // what Quarkus does for every application it starts: the test kit's classes loaded again, statics empty
        URL kit = SharedHawkbit.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader reloaded = new URLClassLoader(new URL[]{kit}, getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(name)) {
                    if (!name.startsWith("io.qawk.orchestrator.testkit.")) {
                        return super.loadClass(name, resolve);
                    }
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : findClass(name);
                }
            }
        }) {
            Class<?> again = reloaded.loadClass(SharedHawkbit.class.getName());
            assertThat(again).isNotSameAs(SharedHawkbit.class);
            Object other = again.getMethod("get").invoke(null);

            assertThat(other.getClass().getMethod("pid").invoke(other)).isEqualTo(shared.pid());
            assertThat(other.getClass().getMethod("baseUrl").invoke(other)).isEqualTo(shared.baseUrl());
            assertThat(other.getClass().getMethod("password").invoke(other)).isEqualTo(shared.password());
        }
        assertThat(shared.isAlive()).isTrue();
    }
}
