package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
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
     * Bytes allocated by the live threads of this JVM that are not the hawkBit double's. Unlike CPU and wall time it
     * does not depend on what else the machine runs, so two versions compare on one noisy machine.
     */
    static long serviceAllocatedBytes() {
        if (!(THREADS instanceof com.sun.management.ThreadMXBean sun)) {
            return -1;
        }
        long sum = 0;
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] == null || ScaleHawkbit.THREAD_PREFIXES.stream().anyMatch(infos[i].getThreadName()::startsWith)) {
                continue;
            }
            long b = sun.getThreadAllocatedBytes(ids[i]);
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
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
        for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** Sum of the heap pools' peak usage since {@link #resetPeakHeap()}, in bytes (an upper bound of the peak). */
    static long peakHeap() {
        long sum = 0;
        for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP) {
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
