package ai.microsynth.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

import ai.core.AI;
import rts.PhysicalGameState;
import rts.units.UnitTypeTable;

/**
 * Plays scripted bots against each other in the official engine and reports
 * the time the game loop takes, for `microsynth bench bots`. Maps are loaded
 * before timing; every match is played WARMUP times untimed, then REPEAT
 * times timed, in this one JVM.
 *
 *   BotBench REPEAT WARMUP MAXCYCLES "MAP P0 P1"...   (P0/P1: AI classes; simple names are ai.abstraction's)
 *
 * Prints one line per match: "match MAP P0 P1 cycles C nanos N cpu U", U the
 * CPU time of this thread over the same loop (-1 when the JVM cannot tell).
 */
public final class BotBench {
    private BotBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        int maxCycles = Integer.parseInt(args[2]);
        UnitTypeTable utt = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL_FINETUNED);
        List<String[]> jobs = new ArrayList<>();
        List<PhysicalGameState> maps = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            String[] w = args[i].split(" ");
            jobs.add(w);
            maps.add(PhysicalGameState.load(w[0], utt));
        }
        for (int r = 0; r < warmup; r++) {
            for (int j = 0; j < jobs.size(); j++) {
                BenchJobs.play(maps.get(j), utt, BenchJobs.make(jobs.get(j)[1], utt), BenchJobs.make(jobs.get(j)[2], utt), maxCycles);
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpu = threads.isCurrentThreadCpuTimeSupported();
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < jobs.size(); j++) {
            String[] w = jobs.get(j);
            AI a0 = BenchJobs.make(w[1], utt), a1 = BenchJobs.make(w[2], utt);
            long cycles = 0, start = System.nanoTime(), cpuStart = cpu ? threads.getCurrentThreadCpuTime() : 0;
            for (int r = 0; r < repeat; r++) {
                cycles += BenchJobs.play(maps.get(j), utt, a0, a1, maxCycles);
            }
            long nanos = System.nanoTime() - start;
            long cpuNanos = cpu ? threads.getCurrentThreadCpuTime() - cpuStart : -1;
            out.append("match ").append(w[0]).append(' ').append(w[1]).append(' ').append(w[2])
               .append(" cycles ").append(cycles).append(" nanos ").append(nanos)
               .append(" cpu ").append(cpuNanos).append('\n');
        }
        System.out.print(out);
    }
}
