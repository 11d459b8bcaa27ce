package io.qawk.orchestrator.channel.config;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;

import java.nio.file.Path;

/**
 * Runs helm-java in a JVM of its own (see {@link ChartFiles}): the Helm library is Go, and a Go runtime loaded into
 * the test JVM that also runs Quarkus, hawkBit and Postgres child processes brought that JVM down at exit.
 * <pre>
 * template &lt;chart&gt; [-f values.yaml]... [--set key=value]...   → the rendered manifests on stdout
 * lint &lt;chart&gt;                                           → "FAILED" or "OK", then the messages, on stdout
 * </pre>
 */
public final class HelmCli {

    private HelmCli() {
    }

    public static void main(String[] args) {
        try {
            if (args[0].equals("lint")) {
                LintResult r = new Helm(Path.of(args[1])).lint().strict().call();
                System.out.println(r.isFailed() ? "FAILED" : "OK");
                r.getMessages().forEach(System.out::println);
            } else {
                TemplateCommand t = new Helm(Path.of(args[1])).template().withName("qawk").withNamespace("ops");
                for (int i = 2; i < args.length; i += 2) {
                    if (args[i].equals("-f")) {
                        t.withValuesFile(Path.of(args[i + 1]));
                    } else {
                        int eq = args[i + 1].indexOf('=');
                        t.set(args[i + 1].substring(0, eq), args[i + 1].substring(eq + 1));
                    }
                }
                System.out.print(t.call());
            }
            System.out.flush();
            System.exit(0);
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }
}
