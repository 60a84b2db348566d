package ai.microsynth.bench;

import java.util.ArrayList;
import java.util.List;

import rts.Trace;

/**
 * Replays official traces in the official engine and reports the time the
 * replay loop takes, for `microsynth bench engine`. Traces are parsed before
 * timing; every trace is replayed WARMUP times untimed, then REPEAT times timed.
 *
 *   ReplayBench REPEAT WARMUP TRACE.zip...
 *
 * Prints one line per trace: "trace PATH cycles C nanos N".
 */
public final class ReplayBench {
    private ReplayBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        List<Trace> traces = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            traces.add(BenchJobs.load(args[i]));
        }
        for (int w = 0; w < warmup; w++) {
            for (Trace t : traces) {
                BenchJobs.replay(t);
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < traces.size(); i++) {
            long cycles = 0;
            long start = System.nanoTime();
            for (int r = 0; r < repeat; r++) {
                cycles += BenchJobs.replay(traces.get(i));
            }
            long nanos = System.nanoTime() - start;
            out.append("trace ").append(args[i + 2]).append(" cycles ").append(cycles)
               .append(" nanos ").append(nanos).append('\n');
        }
        System.out.print(out);
    }
}
