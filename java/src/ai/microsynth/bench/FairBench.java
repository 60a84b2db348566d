package ai.microsynth.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import ai.core.AI;
import rts.PhysicalGameState;
import rts.Trace;
import rts.units.UnitTypeTable;

/**
 * The Java half of `microsynth bench fair`: the official engine's replay of
 * traces and its scripted bots' matches, measured so that the JVM is at its
 * best (`microsynth bench fair` runs several such JVMs, as JMH forks).
 * Rounds of every job run untimed until a round compiles nothing more
 * (the JIT is quiet) or MAXWARM rounds have run; then each job runs REPEAT
 * times, each repetition timed alone by the CPU time of this thread (the
 * collector's and the compiler's threads left out) and by the wall clock.
 *
 *   FairBench REPEAT MINWARM MAXWARM JOB...
 *   JOB: "trace PATH" or "match MAP P0 P1 MAXCYCLES"
 *
 * Prints per job "fair K cycles C cpu_best N wall_best N wall_worst N" (C the
 * cycles of one repetition, times in ns: each side is judged by its best),
 * then one "jvm ..." line: the warm-up rounds and whether they ended quiet,
 * the compiler's and collector's milliseconds during the timed part, and the
 * process's CPU time against this thread's over it.
 */
public final class FairBench {
    private FairBench() {
    }

    /** One job: runs once, returns the cycles it played. */
    private interface Job {
        int run() throws Exception;
    }

    private static Job trace(String path) throws Exception {
        final Trace t = BenchJobs.load(path);
        return () -> BenchJobs.replay(t);
    }

    private static Job match(String map, final String p0, final String p1, final int maxCycles, final UnitTypeTable utt)
            throws Exception {
        final PhysicalGameState pgs = PhysicalGameState.load(map, utt);
        final AI a0 = BenchJobs.make(p0, utt), a1 = BenchJobs.make(p1, utt);
        return () -> BenchJobs.play(pgs, utt, a0, a1, maxCycles);
    }

    private static long jitMillis(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    private static long[] gc() {
        long ms = 0, count = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, g.getCollectionTime());
            count += Math.max(0, g.getCollectionCount());
        }
        return new long[] { ms, count };
    }

    /** The process's CPU time in ns, or -1 (com.sun.management, present in OpenJDK). */
    private static long processCpu() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        int minWarm = Integer.parseInt(args[1]);
        int maxWarm = Integer.parseInt(args[2]);
        UnitTypeTable utt = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL_FINETUNED);
        List<Job> jobs = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            String[] w = args[i].split(" ");
            if (w[0].equals("trace") && w.length == 2) {
                jobs.add(trace(w[1]));
            } else if (w[0].equals("match") && w.length == 5) {
                jobs.add(match(w[1], w[2], w[3], Integer.parseInt(w[4]), utt));
            } else {
                throw new IllegalArgumentException("FairBench: job " + (i - 3) + " is neither 'trace PATH' nor "
                        + "'match MAP P0 P1 MAXCYCLES': " + args[i]);
            }
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("FairBench: this JVM cannot tell a thread's CPU time");
        }
        /* Warm-up: whole rounds until one compiles nothing (the JIT's counter is in ms). */
        int rounds = 0;
        boolean quiet = false;
        long jitStart = jitMillis(jit);
        while (rounds < maxWarm && !(quiet && rounds >= minWarm)) {
            long before = jitMillis(jit);
            for (Job j : jobs) {
                j.run();
            }
            rounds++;
            quiet = before >= 0 && jitMillis(jit) == before;
        }
        long jitWarm = jitMillis(jit) - jitStart;
        gc(); /* the management beans' first calls load classes: not inside the timed part */
        processCpu();
        long jit0 = jitMillis(jit), proc0 = processCpu(), cpu0 = threads.getCurrentThreadCpuTime();
        long[] gc0 = gc();
        long wall0 = System.nanoTime();
        StringBuilder out = new StringBuilder();
        long[] cpu = new long[repeat], wall = new long[repeat];
        for (int k = 0; k < jobs.size(); k++) {
            int cycles = 0;
            for (int r = 0; r < repeat; r++) {
                long c = threads.getCurrentThreadCpuTime(), t = System.nanoTime();
                cycles = jobs.get(k).run();
                wall[r] = System.nanoTime() - t;
                cpu[r] = threads.getCurrentThreadCpuTime() - c;
            }
            Arrays.sort(cpu);
            Arrays.sort(wall);
            out.append("fair ").append(k).append(" cycles ").append(cycles)
               .append(" cpu_best ").append(cpu[0]).append(" wall_best ").append(wall[0])
               .append(" wall_worst ").append(wall[repeat - 1]).append('\n');
        }
        long[] gc1 = gc();
        out.append("jvm warm_rounds ").append(rounds).append(" quiet ").append(quiet ? 1 : 0)
           .append(" jit_ms_warm ").append(jitWarm).append(" jit_ms_timed ").append(jitMillis(jit) - jit0)
           .append(" gc_ms_timed ").append(gc1[0] - gc0[0]).append(" gc_count_timed ").append(gc1[1] - gc0[1])
           .append(" process_cpu_ns ").append(proc0 < 0 ? -1 : processCpu() - proc0)
           .append(" thread_cpu_ns ").append(threads.getCurrentThreadCpuTime() - cpu0)
           .append(" wall_ns ").append(System.nanoTime() - wall0)
           .append(" processors ").append(Runtime.getRuntime().availableProcessors()).append('\n');
        System.out.print(out);
    }
}
