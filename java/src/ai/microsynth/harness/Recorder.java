package ai.microsynth.harness;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPOutputStream;

import ai.core.AI;
import ai.microsynth.harness.RecordingLines.TrackedRandom;
import rts.GameState;
import rts.PartiallyObservableGameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.Trace;
import rts.TraceEntry;
import rts.UnitAction;
import rts.units.Unit;
import rts.units.UnitTypeTable;
import util.XMLWriter;

/**
 * Plays official bots against each other in the official engine and records
 * every cycle for `microsynth diff` (format in tests/README.md): the player
 * actions exactly as the AIs returned them, the unit-id counter and the
 * states of the engine's two static generators before they are issued, and
 * the state after the cycle.
 *
 *   Recorder [--harness DIR] [--bots MODE] [--extra-maps DIR] [--traces] --out DIR [--time-budget MS]
 *            (--plan ci|sweep | --job "NAME MAP UTT CONFLICT P0 P1 MAXCYCLES SEED [po]")...
 *
 * With --traces it also writes the official trace of each match (Trace.toxml,
 * entries as Tournament makes them) to NAME.trace.xml.
 *
 * Prints "recorded NAME winner=W cycles=C" per match and a last line
 * "matches=N failed=F".
 */
public final class Recorder {
    private Recorder() {
    }

    public static void main(String[] args) {
        // A long run of matches: a failure is one line, and a usage error does not repeat the usage.
        Launcher.main(Recorder.class, null, false,
                (name, t, out) -> System.err.println(name + ": " + Launcher.reason(t)), args, () -> Run::run);
    }

    /** The recorder proper; it needs MicroRTS on the class path (see Launcher). */
    static final class Run {
        private Run() {
        }

        static final String[] MAPS = {
            "maps/8x8/basesWorkers8x8A.xml", "maps/16x16/TwoBasesBarracks16x16.xml",
            "maps/16x16/basesWorkers16x16A.xml", "maps/24x24/basesWorkers24x24.xml",
            "maps/DoubleGame24x24.xml", "maps/BWDistantResources32x32.xml",
            "basesWorkers32x32A.xml", "maps/BroodWar/(4)BloodBath.scmB.xml",
        };
        static final String[] BOTS = {
            "WorkerRush", "LightRush", "HeavyRush", "RangedRush", "RandomBiasedAI", "CoacAI", "mayari",
        };

        /** The other competition entries of lib/bots that load (docs/harness.md). */
        static final String[] OTHERS = {
            "GNS.Droplet", "ai.competition.GRojoA3N.GuidedRojoA3N", "ai.competition.rojobot.Rojo",
            "ai.competition.IzanagiBot.Izanagi", "ai.JZ.MixedBot", "ai.competition.tiamat.Tiamat",
        };

        /** CoacAI and mayari assume full observability (they crash on a view). */
        static String po(String p0, String p1, boolean want) {
            return want && !p0.equals("CoacAI") && !p1.equals("CoacAI") && !p0.equals("mayari")
                    && !p1.equals("mayari") ? " po" : "";
        }

        /** The fixed CI subset (110 matches) or the sweep (1,200 matches). */
        static List<String> plan(String which) throws Options.UsageException {
            List<String> jobs = new ArrayList<>();
            int k = 0;
            if (which.equals("ci")) {
                for (int m = 0; m < MAPS.length; m++) {
                    for (int j = 0; j < 13; j++, k++) {
                        String p0 = BOTS[(j + m) % BOTS.length], p1 = BOTS[(j * 3 + m + 1) % BOTS.length];
                        int utt = 1 + k % 3, conflict = 1 + (k / 3) % 3;
                        jobs.add(String.format("ci%03d %s %d %d %s %s %d %d%s", k, MAPS[m], utt, conflict, p0, p1,
                                800, k, po(p0, p1, k % 4 == 3)));
                    }
                }
                // Each other competition bot once, short: they search within their budget.
                for (int o = 0; o < OTHERS.length; o++, k++) {
                    jobs.add(String.format("ci%03d %s 2 1 %s %s 300 %d", k, MAPS[0], OTHERS[o], BOTS[o % 4], k));
                }
            } else if (which.equals("sweep")) {
                for (String map : MAPS) {
                    for (String p0 : BOTS) {
                        for (String p1 : BOTS) {
                            for (int utt = 1; utt <= 3; utt++, k++) {
                                int conflict = 1 + k % 3;
                                jobs.add(String.format("sw%04d %s %d %d %s %s %d %d%s", k, map, utt, conflict, p0, p1,
                                        3000, k, po(p0, p1, k % 5 == 4)));
                            }
                        }
                    }
                }
                for (String other : OTHERS) {
                    for (String opp : new String[] {"WorkerRush", "CoacAI"}) {
                        for (int m = 0; m < 2; m++, k++) {
                            jobs.add(String.format("sw%04d %s 2 1 %s %s 1000 %d", k, MAPS[m], other, opp, k));
                        }
                    }
                }
            } else {
                throw new Options.UsageException("--plan must be ci or sweep");
            }
            return jobs;
        }

        static int run(String[] args, PrintStream out) throws Exception {
            List<String> jobs = new ArrayList<>();
            Options.Shared sh = new Options.Shared("--harness", "--bots", "--time-budget");
            sh.timeBudget = 20;
            Options.Parser opts = new Options.Parser(sh)
                    .values("--out", "--extra-maps")
                    .flags("--traces")
                    .on("--plan", o -> jobs.addAll(plan(o.value())))
                    .on("--job", o -> jobs.add(o.value()));
            opts.parse(args, out);
            String outDir = opts.get("--out", null), extraMaps = opts.get("--extra-maps", null);
            boolean traces = opts.has("--traces");
            int timeBudget = sh.timeBudget;
            if (outDir == null || jobs.isEmpty()) {
                throw new Options.UsageException("--out and at least one --plan or --job are required");
            }
            File harness = sh.harnessDir();
            Harness.Env env = new Harness.Env(harness, sh.bots);
            File dir = new File(outDir);
            if (!dir.isDirectory() && !dir.mkdirs()) {
                throw new Options.UsageException("cannot create " + outDir);
            }
            int failed = 0;
            for (String job : jobs) {
                try {
                    record(job, harness, extraMaps, env, dir, timeBudget, traces, out);
                } catch (Exception | LinkageError e) {
                    failed++;
                    System.err.println("Recorder: " + job + ": " + Launcher.reason(e));
                }
            }
            out.println("matches=" + jobs.size() + " failed=" + failed);
            return failed == 0 ? 0 : 1;
        }

        /** Time a bot may take for one decision before the match is cut. */
        static final long HANG_MS = 5000;

        /**
         * Runs one decision on a thread of its own: some competition bots
         * loop forever in rare states (mayari in produceCombat), and a
         * tournament would time them out. A hung thread is stopped.
         */
        @SuppressWarnings({"deprecation", "removal"})
        static PlayerAction decide(AI ai, int p, GameState view) throws Exception {
            FutureTask<PlayerAction> task = new FutureTask<>(() -> ai.getAction(p, view));
            Thread t = new Thread(task, "decision");
            t.setDaemon(true);
            t.start();
            try {
                return task.get(HANG_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                t.stop();
                throw new IOException("no decision within " + HANG_MS + " ms");
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw c instanceof Exception ? (Exception) c : new IOException(c);
            }
        }

        static void record(String job, File harness, String extraMaps, Harness.Env env, File dir, int timeBudget,
                boolean traces, PrintStream out) throws Exception {
            String[] w = job.trim().split("\\s+");
            if (w.length < 8) {
                throw new Options.UsageException("job needs NAME MAP UTT CONFLICT P0 P1 MAXCYCLES SEED [po]");
            }
            String name = w[0];
            File mapFile = extraMaps != null && new File(extraMaps, w[1]).isFile() ? new File(extraMaps, w[1])
                    : Harness.resolveMap(w[1], harness);
            int utt = Integer.parseInt(w[2]), conflict = Integer.parseInt(w[3]);
            int maxCycles = Integer.parseInt(w[6]);
            long seed = Long.parseLong(w[7]);
            boolean po = w.length > 8 && w[8].equals("po");

            // Seeded, readable generators in place of the engine's static ones.
            TrackedRandom damage = new TrackedRandom(seed * 2 + 1), conflicts = new TrackedRandom(seed * 2 + 2);
            UnitAction.r = damage;
            RecordingLines.field(GameState.class, "r").set(null, conflicts);
            Field parameter = RecordingLines.field(UnitAction.class, "parameter");
            // RandomBiasedAI draws from util.Sampler's static generator: seed it
            // as `microsynth match --seed` does, so native bots can follow it.
            RecordingLines.field(Class.forName("util.Sampler"), "generator").set(null, new Random(seed * 1000003L + 3));

            UnitTypeTable table = new UnitTypeTable(utt, conflict);
            GameState gs = new GameState(PhysicalGameState.load(mapFile.getPath(), table), table);
            AI[] ai = { Harness.construct(env.load(env.resolveName(w[4])), table),
                        Harness.construct(env.load(env.resolveName(w[5])), table) };
            for (AI a : ai) {
                Harness.setBudgets(a, timeBudget, -1);
                Harness.seedAI(a, seed);
                a.reset();
            }
            File file = new File(dir, name + ".rec.gz");
            // The official trace of the same match, built as Tournament builds it.
            Trace trace = traces ? new Trace(table) : null;
            if (trace != null) {
                trace.addEntry(new TraceEntry(gs.getPhysicalGameState().clone(), gs.getTime()));
            }
            int crashed = -1;
            try (Writer rec = new BufferedWriter(new OutputStreamWriter(
                    new GZIPOutputStream(new FileOutputStream(file)), StandardCharsets.UTF_8))) {
                rec.write("microsynth-recording 1\n");
                rec.write("match " + job.trim() + " p0=" + ai[0].getClass().getName() + " p1="
                        + ai[1].getClass().getName() + "\n");
                rec.write("utt " + utt + " " + conflict + "\n");
                StringWriter init = new StringWriter();
                gs.toJSON(init);
                rec.write("init " + init + "\n");
                StringBuilder line = new StringBuilder();
                boolean gameover = false;
                while (!gameover && gs.getTime() < maxCycles) {
                    PlayerAction[] pa = new PlayerAction[2];
                    for (int p = 0; p < 2 && crashed < 0; p++) {
                        try {
                            pa[p] = decide(ai[p], p, po ? new PartiallyObservableGameState(gs, p) : gs);
                        } catch (Exception | LinkageError e) {
                            crashed = p;
                            System.err.println("Recorder: " + name + ": player " + p + " crashed at cycle "
                                    + gs.getTime() + ": " + Launcher.reason(e));
                        }
                    }
                    if (crashed >= 0) {
                        break;
                    }
                    rec.write("R " + Unit.next_ID + " " + damage.state() + " " + conflicts.state() + "\n");
                    Harness.traceCycle(trace, gs, pa);
                    for (int p = 0; p < 2; p++) {
                        rec.write(RecordingLines.pairs(p, pa[p], line, parameter).append('\n').toString());
                    }
                    gs.issueSafe(pa[0]);
                    gs.issueSafe(pa[1]);
                    gameover = gs.cycle();
                    rec.write(RecordingLines.state(gs, line, parameter).append('\n').toString());
                }
                rec.write("end " + gs.winner() + " " + gs.getTime() + "\n");
            }
            if (trace != null) {
                trace.addEntry(new TraceEntry(gs.getPhysicalGameState().clone(), gs.getTime()));
                try (Writer tw = new BufferedWriter(new OutputStreamWriter(
                        new FileOutputStream(new File(dir, name + ".trace.xml")), StandardCharsets.UTF_8))) {
                    trace.toxml(new XMLWriter(tw));
                }
            }
            for (AI a : ai) {
                try {
                    a.gameOver(gs.winner());
                } catch (Exception e) {
                    // the recording is complete; a bot's clean-up does not matter
                }
            }
            // A bot that crashed or hung cuts the match; what was recorded stands.
            out.println("recorded " + name + " winner=" + gs.winner() + " cycles=" + gs.getTime()
                    + (crashed >= 0 ? " cut=player" + crashed : ""));
        }
    }
}
