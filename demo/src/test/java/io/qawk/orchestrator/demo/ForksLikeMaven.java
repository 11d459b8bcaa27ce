package io.qawk.orchestrator.demo;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Stands in for Maven running {@code exec:exec} in {@link DemoStopsWithMavenIT}: a JVM that forks the command it is
 * given, pumps the child's output through pipes (as commons-exec's stream handler does), waits for it, and passes no
 * signal on. SIGTERM ends this JVM alone, as it ends Maven when an IDE's stop button is pressed.
 */
public final class ForksLikeMaven {

    private ForksLikeMaven() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(List.of(args)).redirectErrorStream(true).start();
        Thread pump = new Thread(() -> pump(child.getInputStream()), "pump");
        pump.setDaemon(true);
        pump.start();
        System.exit(child.waitFor());
    }

    private static void pump(InputStream in) {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                System.out.write(buffer, 0, n);
                System.out.flush();
            }
        } catch (IOException e) {
            // the child ended
        }
    }
}
