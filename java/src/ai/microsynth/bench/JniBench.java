package ai.microsynth.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import ai.abstraction.LightRush;
import ai.abstraction.WorkerRush;
import ai.core.AI;
import ai.microsynth.MicrosynthAI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * The JNI half of {@code microsynth bench bridge}: what a getAction of
 * ai.microsynth.MicrosynthAI costs on real game states, split into the
 * native bot's own decision (timed inside the library) and the bridge's
 * overhead (the rest: packing the GameState into int arrays, the JNI
 * crossing, rebuilding the native state, building the PlayerAction).
 *
 * States come from an official match (Java LightRush vs Java WorkerRush,
 * played first and cloned every cycle), so each map is measured on the
 * same sequence of states; the bot decides for both players on each state,
 * in order, as in a game (bots keep per-game memory). Passes after the
 * warm-up ones are measured; each pass starts with reset().
 *
 * For scale, the same states are also written as JSON by GameState.toJSON
 * (what a text protocol would start from, before any parsing).
 *
 * Output: one {@code jni map=... key=value...} line per map, then one
 * summary line {@code overhead_median_us_16=X decision_p99_us_64=Y
 * goal_overhead_median_us=30 goal_decision_p99_us=1000 ...}.
 *
 * <pre>java -cp microsynth-jni-tools.jar:microrts.jar:microsynth.jar ai.microsynth.bench.JniBench
 *   [--harness DIR] [--bot LightRush] [--map16 16x16/basesWorkers16x16A.xml]
 *   [--map64 "BroodWar/(4)BloodBath.scmA.xml"] [--cycles 1500] [--warmup 3] [--repeat 5]</pre>
 */
public final class JniBench {
    private JniBench() {
    }

    static final class Result {
        String map;
        int states, calls, w, h;
        double unitsMean;
        long[] total, nativ, overhead, json;
    }

    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1000.0;
    }

    static List<GameState> record(File map, UnitTypeTable utt, int cycles) throws Exception {
        GameState gs = new GameState(PhysicalGameState.load(map.getPath(), utt), utt);
        AI a = new LightRush(utt), b = new WorkerRush(utt);
        List<GameState> states = new ArrayList<>();
        boolean over = false;
        while (!over && gs.getTime() < cycles) {
            states.add(gs.clone());
            PlayerAction p0 = a.getAction(0, gs), p1 = b.getAction(1, gs);
            gs.issueSafe(p0);
            gs.issueSafe(p1);
            over = gs.cycle();
        }
        return states;
    }

    static Result measure(String name, List<GameState> states, UnitTypeTable utt, String bot, int warmup, int repeat) {
        MicrosynthAI[] ai = { new MicrosynthAI(utt, bot), new MicrosynthAI(utt, bot) };
        int n = states.size() * 2 * repeat;
        long[] total = new long[n], nativ = new long[n], overhead = new long[n];
        int k = 0;
        long units = 0;
        for (int pass = 0; pass < warmup + repeat; pass++) {
            boolean timed = pass >= warmup;
            for (MicrosynthAI x : ai) {
                x.reset();
            }
            for (GameState gs : states) {
                for (int p = 0; p < 2; p++) {
                    long t0 = System.nanoTime();
                    ai[p].getAction(p, gs);
                    long t = System.nanoTime() - t0;
                    if (timed) {
                        long d = ai[p].lastDecideNanos();
                        total[k] = t;
                        nativ[k] = d;
                        overhead[k] = t - d;
                        k++;
                        units += gs.getUnits().size();
                    }
                }
            }
        }
        // For scale: what writing the same states as JSON (GameState.toJSON,
        // the socket protocol's form) costs on the Java side alone.
        long[] json = new long[states.size() * repeat];
        int kj = 0;
        for (int pass = 0; pass < warmup + repeat; pass++) {
            for (GameState gs : states) {
                java.io.StringWriter w = new java.io.StringWriter(4096);
                long t0 = System.nanoTime();
                try {
                    gs.toJSON(w);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                long t = System.nanoTime() - t0;
                if (pass >= warmup) {
                    json[kj++] = t;
                }
            }
        }
        Arrays.sort(json);
        for (MicrosynthAI x : ai) {
            if (x.failures() != 0) {
                throw new IllegalStateException("the bot failed during the benchmark: " + x.lastFailure());
            }
            x.close();
        }
        Arrays.sort(total);
        Arrays.sort(nativ);
        Arrays.sort(overhead);
        Result r = new Result();
        r.map = name;
        r.states = states.size();
        r.calls = n;
        r.w = states.get(0).getPhysicalGameState().getWidth();
        r.h = states.get(0).getPhysicalGameState().getHeight();
        r.unitsMean = (double) units / n;
        r.total = total;
        r.nativ = nativ;
        r.overhead = overhead;
        r.json = json;
        return r;
    }

    static String line(Result r, String bot) {
        return String.format(java.util.Locale.ROOT,
                "jni map=%s size=%dx%d bot=%s states=%d calls=%d units_mean=%.1f total_median_us=%.2f "
                        + "total_p99_us=%.2f total_max_us=%.2f native_median_us=%.2f overhead_median_us=%.2f "
                        + "overhead_p99_us=%.2f java_tojson_median_us=%.2f",
                r.map, r.w, r.h, bot, r.states, r.calls, r.unitsMean, pct(r.total, 50), pct(r.total, 99),
                pct(r.total, 100), pct(r.nativ, 50), pct(r.overhead, 50), pct(r.overhead, 99), pct(r.json, 50));
    }

    public static void main(String[] args) throws Exception {
        String harness = System.getenv("MICROSYNTH_HARNESS"), bot = "LightRush";
        String map16 = "16x16/basesWorkers16x16A.xml", map64 = "BroodWar/(4)BloodBath.scmA.xml";
        int cycles = 1500, warmup = 3, repeat = 5;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                System.err.println("JniBench: " + a + " needs a value");
                System.exit(2);
            }
            String v = args[++i];
            switch (a) {
            case "--harness":
                harness = v;
                break;
            case "--bot":
                bot = v;
                break;
            case "--map16":
                map16 = v;
                break;
            case "--map64":
                map64 = v;
                break;
            case "--cycles":
                cycles = Integer.parseInt(v);
                break;
            case "--warmup":
                warmup = Integer.parseInt(v);
                break;
            case "--repeat":
                repeat = Integer.parseInt(v);
                break;
            default:
                System.err.println("usage: JniBench [--harness DIR] [--bot SPEC] [--map16 MAP] [--map64 MAP]"
                        + " [--cycles N] [--warmup N] [--repeat N]");
                System.exit(2);
            }
        }
        if (harness == null || harness.isEmpty()) {
            harness = System.getProperty("user.home") + "/.cache/microsynth/harness";
        }
        UnitTypeTable utt = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL_FINETUNED);
        Result[] rs = new Result[2];
        String[] maps = { map16, map64 };
        for (int m = 0; m < 2; m++) {
            File f = new File(new File(harness, "maps"), maps[m]);
            if (!f.isFile()) {
                System.err.println("JniBench: map not found: " + f);
                System.exit(2);
            }
            rs[m] = measure(maps[m], record(f, utt, cycles), utt, bot, warmup, repeat);
            System.out.println(line(rs[m], bot));
            System.out.flush();
        }
        System.out.println(String.format(java.util.Locale.ROOT,
                "overhead_median_us_16=%.2f total_median_us_16=%.2f decision_p99_us_64=%.2f "
                        + "goal_overhead_median_us=30 goal_decision_p99_us=1000",
                pct(rs[0].overhead, 50), pct(rs[0].total, 50), pct(rs[1].total, 99)));
    }
}
