package ai.microsynth.harness;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import ai.core.AI;
import ai.core.AIWithComputationBudget;
import rts.GameState;
import rts.PartiallyObservableGameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.Trace;
import rts.TraceEntry;
import rts.units.UnitTypeTable;
import util.XMLWriter;

/**
 * One headless MicroRTS match in the official engine, every setting given as
 * a flag (the harness jar ships no resources/config.properties).
 *
 * The loop follows a tournament game: build both AIs with their
 * (UnitTypeTable) constructor, set computation budgets, reset, pre-game
 * analysis, then per cycle getAction(0), getAction(1), issueSafe both,
 * cycle(), until the game is over or the cycle limit is reached; an AI that
 * throws loses. The last line of stdout is {@code winner=W cycles=C}.
 */
public final class Match {
    private Match() {
    }

    static final String USAGE = String.join("\n",
            "usage: Match --map PATH --p0 CLASS --p1 CLASS [options]",
            "  --map PATH              map XML; also looked up in the harness dir and its maps/",
            "                          (e.g. maps/8x8/basesWorkers8x8A.xml or 8x8/basesWorkers8x8A.xml)",
            "  --p0 SPEC, --p1 SPEC    AI classes, fully qualified or short (WorkerRush, CoacAI, mayari),",
            "                          program:FILE (microsynth.jar) or socket:HOST:PORT[:json|xml]",
            "  --utt 1|2|3             unit type table: 1 original, 2 finetuned, 3 non-deterministic (default 2)",
            "  --conflict 1|2|3        move conflicts: 1 cancel both, 2 cancel random, 3 alternate (default 1)",
            "  --max-cycles N          game length limit; a game reaching it is a draw (default 5000)",
            "  --partially-observable  each AI sees a PartiallyObservableGameState",
            "  --seed N                seed the engine's static generators and the AIs' Random fields",
            "  --time-budget MS        TIME_BUDGET of AIWithComputationBudget bots (default 100)",
            "  --iterations-budget N   ITERATIONS_BUDGET (default -1, unbounded)",
            "  --pregame-ms MS         preGameAnalysis budget; -1 skips the call (default 1000)",
            "  --timeout-check         a getAction longer than the time budget + 20 ms loses",
            "  --hang-ms MS            a getAction still running after MS ms loses as timed out (the call is",
            "                          interrupted and left on a daemon thread: Java cannot stop it); 0: off",
            "  --digest                print digest=HEX (SHA-256 of the final state JSON) before the summary",
            "  --trace FILE            write the match's official trace (Trace.toxml) to FILE",
            "  --harness DIR           harness cache (default $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness)",
            "  --bots flat|isolated|none  how lib/bots/*.jar join the class path (default flat)",
            "output: the last stdout line is 'winner=W cycles=C' (W = 0, 1, or -1 for a draw);",
            "exit 0 when the match ran, 1 when it could not start, 2 on bad usage.");

    public static void main(String[] args) {
        Launcher.main(Match.class, USAGE, args, () -> Run::run);
    }

    /** The runner proper; it needs MicroRTS on the class path (see Launcher). */
    static final class Run {
        private Run() {
        }

        static int run(String[] args, PrintStream out) throws Exception {
            Options.Shared sh = new Options.Shared(Options.Shared.MATCH);
            sh.maxCycles = 5000;
            sh.pregameMs = 1000;
            Options.Parser opts = new Options.Parser(sh).help(USAGE)
                    .flags("--digest")
                    .values("--trace")
                    .keep("--hang-ms", Options::intValue);
            if (!opts.parse(args, out)) {
                return 0;
            }
            sh.requireGame();
            String map = sh.map(null), p0 = sh.p0, p1 = sh.p1, tracePath = opts.get("--trace", null);
            boolean digest = opts.has("--digest");
            int hangMs = opts.get("--hang-ms", 0);
            int utt = sh.utt, conflict = sh.conflict, maxCycles = sh.maxCycles, timeBudget = sh.timeBudget;
            int iterationsBudget = sh.iterationsBudget;
            long pregameMs = sh.pregameMs;
            Long seed = sh.seed;
            boolean po = sh.partiallyObservable, timeoutCheck = sh.timeoutCheck;
            Options.BotMode mode = sh.bots;

            File harness = sh.harnessDir();
            File mapFile = Harness.resolveMap(map, harness);
            Harness.Env env = new Harness.Env(harness, mode);
            if (seed != null) {
                seedEngine(seed); // before any state exists
            }
            UnitTypeTable table = new UnitTypeTable(utt, conflict);
            PhysicalGameState pgs = PhysicalGameState.load(mapFile.getPath(), table);
            GameState gs = new GameState(pgs, table);
            AI ai0 = Harness.build(env, p0, table, timeBudget, iterationsBudget);
            AI ai1 = Harness.build(env, p1, table, timeBudget, iterationsBudget);
            Class<?> k0 = ai0.getClass(), k1 = ai1.getClass();
            if (seed != null) {
                Harness.seedAI(ai0, seed * 2 + 1);
                Harness.seedAI(ai1, seed * 2 + 2);
            }
            out.println("match map=" + map + " utt=" + utt + " conflict=" + conflict + " max_cycles=" + maxCycles
                    + " po=" + po + " p0=" + k0.getName() + "(" + TournamentApi.where(k0) + ") p1=" + k1.getName() + "("
                    + TournamentApi.where(k1) + ")");
            out.flush();

            AI[] ai = { ai0, ai1 };
            int crashed = -1, timedout = -1;
            // decisions on a daemon thread, so that one that never returns can be given up
            ExecutorService caller = hangMs > 0 ? Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "microsynth-getAction");
                t.setDaemon(true);
                return t;
            }) : null;
            for (AI a : ai) {
                a.reset();
            }
            if (pregameMs >= 0) {
                for (int p = 0; p < 2 && crashed < 0; p++) {
                    try {
                        ai[p].preGameAnalysis(gs, pregameMs);
                    } catch (Throwable t) {
                        crashed = p;
                        report(p, "preGameAnalysis", t);
                    }
                }
            }

            // The official trace, built as the tournament builds it.
            Trace trace = tracePath == null ? null : new Trace(table);
            if (trace != null) {
                trace.addEntry(new TraceEntry(gs.getPhysicalGameState().clone(), gs.getTime()));
            }
            boolean gameover = false;
            while (crashed < 0 && timedout < 0) {
                PlayerAction[] pa = new PlayerAction[2];
                for (int p = 0; p < 2; p++) {
                    GameState view = po ? new PartiallyObservableGameState(gs, p) : gs;
                    long t0 = System.nanoTime();
                    try {
                        if (caller == null) {
                            pa[p] = ai[p].getAction(p, view);
                        } else {
                            final AI a = ai[p];
                            final int player = p;
                            Future<PlayerAction> call = caller.submit(() -> a.getAction(player, view));
                            try {
                                pa[p] = call.get(hangMs, TimeUnit.MILLISECONDS);
                            } catch (TimeoutException e) {
                                call.cancel(true);
                                timedout = p;
                                System.err.println("Match: player " + p + " hung at cycle " + gs.getTime()
                                        + " (no action after " + hangMs + " ms)");
                                break;
                            } catch (ExecutionException e) {
                                throw e.getCause();
                            }
                        }
                    } catch (Throwable t) {
                        crashed = p;
                        report(p, "getAction at cycle " + gs.getTime(), t);
                        break;
                    }
                    long ms = (System.nanoTime() - t0) / 1000000L;
                    if (timeoutCheck && ai[p] instanceof AIWithComputationBudget) {
                        int budget = ((AIWithComputationBudget) ai[p]).getTimeBudget();
                        if (budget > 0 && ms > budget + 20) {
                            timedout = p;
                            System.err.println("Match: player " + p + " timed out at cycle " + gs.getTime() + " ("
                                    + ms + " ms > " + budget + " + 20 ms)");
                            break;
                        }
                    }
                }
                if (crashed >= 0 || timedout >= 0) {
                    break;
                }
                Harness.traceCycle(trace, gs, pa);
                for (int p = 0; p < 2; p++) {
                    try {
                        gs.issueSafe(pa[p]);
                    } catch (Throwable t) {
                        crashed = p;
                        report(p, "issueSafe at cycle " + gs.getTime(), t);
                        break;
                    }
                }
                if (crashed >= 0) {
                    break;
                }
                gameover = gs.cycle();
                if (gameover || gs.getTime() >= maxCycles) {
                    break;
                }
            }

            if (caller != null) {
                caller.shutdownNow();
            }
            int winner;
            if (crashed >= 0) {
                winner = 1 - crashed;
            } else if (timedout >= 0) {
                winner = 1 - timedout;
            } else {
                winner = gs.winner();
            }
            for (AI a : ai) {
                try {
                    a.gameOver(winner);
                } catch (Throwable t) {
                    System.err.println("Match: gameOver of " + a + ": " + Launcher.reason(t));
                }
            }
            if (trace != null) {
                trace.addEntry(new TraceEntry(gs.getPhysicalGameState().clone(), gs.getTime()));
                try (Writer tw = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(tracePath),
                        StandardCharsets.UTF_8))) {
                    trace.toxml(new XMLWriter(tw));
                }
            }
            out.println("result crashed=" + crashed + " timedout=" + timedout + " gameover=" + gs.gameover());
            if (digest) {
                out.println("digest=" + digest(gs));
            }
            out.println("winner=" + winner + " cycles=" + gs.getTime());
            return 0;
        }

        private static void report(int player, String where, Throwable t) {
            System.err.println("Match: player " + player + " crashed in " + where + ": " + Launcher.reason(t));
            t.printStackTrace();
        }

        /** SHA-256 (first 16 hex digits) of the state's JSON. */
        static String digest(GameState gs) throws Exception {
            StringWriter w = new StringWriter();
            gs.toJSON(w);
            byte[] h = MessageDigest.getInstance("SHA-256").digest(w.toString().getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                sb.append(String.format("%02x", h[i] & 0xff));
            }
            return sb.toString();
        }

        /** Static generators of the engine that are not final (GameState.r, UnitAction.r, ...). */
        static final String[][] ENGINE_RANDOMS = { { "rts.GameState", "r" }, { "rts.UnitAction", "r" },
                { "util.Sampler", "generator" }, { "rts.PlayerActionGenerator", "r" } };

        static void seedEngine(long seed) {
            List<String> done = new ArrayList<>();
            int k = 0;
            for (String[] cf : ENGINE_RANDOMS) {
                k++;
                try {
                    Field f = Class.forName(cf[0]).getDeclaredField(cf[1]);
                    if (!Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())
                            || !Random.class.isAssignableFrom(f.getType())) {
                        continue;
                    }
                    f.setAccessible(true);
                    f.set(null, new Random(seed * 1000003L + k));
                    done.add(cf[0] + "." + cf[1]);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    System.err.println("Match: cannot seed " + cf[0] + "." + cf[1] + ": " + Launcher.reason(e));
                }
            }
            System.err.println("Match: seeded " + done);
        }
    }
}
