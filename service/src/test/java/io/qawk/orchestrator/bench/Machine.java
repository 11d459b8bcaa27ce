package io.qawk.orchestrator.bench;

import com.sun.management.OperatingSystemMXBean;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** What the benchmark reads about its own process: CPU time by thread group, resident memory, Postgres' CPU. */
final class Machine {

    private static final long TICK_NANOS = 10_000_000L; // USER_HZ = 100 on Linux
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private Machine() {
    }

    /** CPU time of the whole JVM process, in nanoseconds. */
    static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** CPU time of the live threads whose names start with one of {@code prefixes}. */
    static long threadsCpuNanos(List<String> prefixes) {
        long sum = 0;
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            if (info == null) {
                continue;
            }
            String name = info.getThreadName();
            if (prefixes.stream().anyMatch(name::startsWith)) {
                long t = THREADS.getThreadCpuTime(ids[i]);
                if (t > 0) {
                    sum += t;
                }
            }
        }
        return sum;
    }

    /** CPU time of this JVM minus the threads of the hawkBit double (those are persistent, so deltas are exact). */
    static long serviceCpuNanos() {
        return processCpuNanos() - threadsCpuNanos(ScaleHawkbit.THREAD_PREFIXES);
    }

    /**
     * Starts counting the bytes the service's threads allocate from now on (every thread of this JVM but the hawkBit
     * double's and the counter's own sampler). Unlike CPU and wall time the figure does not depend on what else the
     * machine runs, so two versions compare on one noisy machine. Read it with {@link Allocation#bytes()}.
     */
    static Allocation startCounting() {
        return new Allocation(Duration.ofMillis(50));
    }

    /**
     * Allocation counted thread by thread over one span. At the start it records every live thread's allocated bytes
     * by thread id; a daemon sampler keeps, per thread id, the latest value seen; {@link #bytes()} sums, over the
     * threads seen, latest minus the value at the start (or latest for a thread born during the span). A thread that
     * ends during the span keeps what was seen of it, where a difference of live-thread sums would lose all of it.
     * What a thread allocates in its last sampling interval before it ends is not counted (nor a thread that lives
     * less than one interval).
     */
    static final class Allocation {

        private static final String SAMPLER = "alloc-sampler";

        private final com.sun.management.ThreadMXBean sun;
        private final Map<Long, Long> atStart = new HashMap<>();
        private final Map<Long, Long> latest = new HashMap<>(); // only the sampler writes, until it is joined
        private final Map<Long, Boolean> service = new HashMap<>(); // thread id -> counted (not the double's)
        private final Thread sampler;
        private volatile boolean stopped;
        private long result = -1;
        private boolean done;

        Allocation(Duration every) {
            sun = THREADS instanceof com.sun.management.ThreadMXBean b && b.isThreadAllocatedMemorySupported()
                    && b.isThreadAllocatedMemoryEnabled() ? b : null;
            if (sun == null) {
                sampler = null;
                return;
            }
            sample(atStart);
            latest.putAll(atStart);
            sampler = new Thread(() -> {
                while (!stopped) {
                    try {
                        Thread.sleep(every.toMillis());
                    } catch (InterruptedException e) {
                        return;
                    }
                    sample(latest);
                }
            }, SAMPLER);
            sampler.setDaemon(true);
            sampler.start();
        }

        /** Records the allocated bytes of every live thread that is counted into {@code into}. */
        private void sample(Map<Long, Long> into) {
            long[] ids = THREADS.getAllThreadIds();
            List<Long> unknown = new ArrayList<>();
            for (long id : ids) {
                if (!service.containsKey(id)) {
                    unknown.add(id);
                }
            }
            if (!unknown.isEmpty()) {
                long[] u = unknown.stream().mapToLong(Long::longValue).toArray();
                ThreadInfo[] infos = THREADS.getThreadInfo(u);
                for (int i = 0; i < u.length; i++) {
                    if (infos[i] == null) {
                        continue; // ended already: nothing to read
                    }
                    String name = infos[i].getThreadName();
                    service.put(u[i], !name.equals(SAMPLER)
                            && ScaleHawkbit.THREAD_PREFIXES.stream().noneMatch(name::startsWith));
                }
            }
            long[] bytes = sun.getThreadAllocatedBytes(ids);
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] >= 0 && Boolean.TRUE.equals(service.get(ids[i]))) {
                    into.put(ids[i], bytes[i]);
                }
            }
        }

        /** Stops counting (once) and returns the bytes allocated since the start; -1 when the JVM cannot say. */
        synchronized long bytes() {
            if (done) {
                return result;
            }
            done = true;
            if (sun == null) {
                return result;
            }
            stopped = true;
            sampler.interrupt();
            try {
                sampler.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sample(latest);
            long sum = 0;
            for (Map.Entry<Long, Long> e : latest.entrySet()) {
                long d = e.getValue() - atStart.getOrDefault(e.getKey(), 0L);
                if (d > 0) {
                    sum += d;
                }
            }
            result = sum;
            return result;
        }
    }

    static long currentThreadCpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** Heap in use after two full collections, in bytes. */
    static long heapUsedAfterGc() {
        gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    static void gc() {
        System.gc();
        System.gc();
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forgets the heap pools' peaks. */
    static void resetPeakHeap() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** Sum of the heap pools' peak usage since {@link #resetPeakHeap()}, in bytes (an upper bound of the peak). */
    static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** VmRSS of this process in bytes, -1 when /proc is not readable. */
    static long rssBytes() {
        return rssOf("self");
    }

    /** VmHWM of a process in bytes: the most it was ever resident; -1 when /proc is not readable. */
    static long peakRssOf(long pid) {
        return statusField(String.valueOf(pid), "VmHWM:");
    }

    private static long rssOf(String pid) {
        return statusField(pid, "VmRSS:");
    }

    private static long statusField(String pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * The embedded Postgres of this test run: the postmaster whose command line names a directory under
     * {@code projectTarget}, and its children (backends). Empty when it cannot be found.
     */
    static List<Long> postgresPids(Path projectTarget) {
        String dir = projectTarget.toAbsolutePath().toString();
        Optional<ProcessHandle> postmaster = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("postgres") && c.contains(dir)).orElse(false))
                .findFirst();
        if (postmaster.isEmpty()) {
            return List.of();
        }
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster.get().pid());
        try (Stream<ProcessHandle> d = postmaster.get().descendants()) {
            d.forEach(p -> pids.add(p.pid()));
        }
        return pids;
    }

    /** User + system CPU of the given processes, in nanoseconds (-1 when none). */
    static long cpuNanosOf(List<Long> pids) {
        if (pids.isEmpty()) {
            return -1;
        }
        long ticks = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException | RuntimeException e) {
                // the backend ended meanwhile
            }
        }
        return ticks * TICK_NANOS;
    }

    /** One thread's CPU so far: its name and utime + stime in nanoseconds. */
    record ThreadCpu(String name, long nanos) {
    }

    /** A process's live threads by id, each with its name and CPU so far; empty when it is gone. */
    static Map<String, ThreadCpu> cpuByThreadOf(long pid) {
        Map<String, ThreadCpu> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.put(task.getFileName().toString(), new ThreadCpu(name,
                            (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return out;
    }

    /**
     * What a process spent between two {@link #cpuByThreadOf} readings, by what its threads do ({@link #workOf}):
     * each thread's own difference (a thread begun meanwhile counts whole), and {@code other} whatever of
     * {@code totalNanos} (the process's CPU over the same span) the named threads did not spend, which includes the
     * threads that ended meanwhile.
     */
    static Map<String, Long> cpuByWork(Map<String, ThreadCpu> before, Map<String, ThreadCpu> after, long totalNanos) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String kind : List.of("engine", "JIT", "GC")) {
            out.put(kind, 0L);
        }
        long named = 0;
        for (Map.Entry<String, ThreadCpu> e : after.entrySet()) {
            String kind = workOf(e.getValue().name());
            if (kind.equals("other")) {
                continue;
            }
            ThreadCpu was = before.get(e.getKey());
            long spent = e.getValue().nanos() - (was == null ? 0 : was.nanos());
            out.merge(kind, spent, Long::sum);
            named += spent;
        }
        out.put("other", Math.max(0, totalNanos - named));
        return out;
    }

    /**
     * What a thread of the service does, by its name (Linux keeps the first 15 characters): {@code engine} (the
     * deployment engine's pass thread), {@code JIT} (the compiler threads and the code sweeper), {@code GC} (the VM
     * thread, where the serial collector runs) or {@code other} (the API, the hawkBit client, metrics).
     */
    static String workOf(String threadName) {
        if (threadName.startsWith("qawk-deployment")) {
            return "engine";
        }
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")
                || threadName.startsWith("Sweeper thread")) {
            return "JIT";
        }
        if (threadName.equals("VM Thread")) {
            return "GC";
        }
        return "other";
    }

    /** Summed VmRSS of the given processes in bytes (shared pages counted once per process). */
    static long rssOf(List<Long> pids) {
        long sum = 0;
        for (long pid : pids) {
            long r = rssOf(String.valueOf(pid));
            if (r > 0) {
                sum += r;
            }
        }
        return pids.isEmpty() ? -1 : sum;
    }

    static String mb(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%,d MB", Math.round(bytes / (1024.0 * 1024)));
    }
}
