package ai.microsynth.harness;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import ai.abstraction.WorkerRush;
import ai.core.AI;
import ai.core.AIWithComputationBudget;
import ai.core.ParameterSpecification;
import ai.microsynth.MapFingerprint;
import ai.microsynth.MicrosynthAI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.UnitAction;
import rts.units.Unit;
import rts.units.UnitTypeTable;
import util.Pair;

/**
 * Checks of ai.microsynth.MicrosynthAI against the harness contract (J1-J11
 * of the interfaces spec) and bad input: each check prints {@code ok NAME}
 * or {@code FAIL NAME: why}; the last line is {@code checks=N failed=F}, and
 * the exit status is 1 when a check failed.
 *
 * <pre>java -cp microsynth-jni-tools.jar:microrts.jar:microsynth.jar ai.microsynth.harness.JniChecks --harness DIR</pre>
 */
public final class JniChecks {
    private JniChecks() {
    }

    private static File harness;
    private static int checks, failed;

    interface Body {
        void run() throws Exception;
    }

    private static void check(String name, Body body) {
        checks++;
        try {
            body.run();
            System.out.println("ok " + name);
        } catch (Throwable t) {
            failed++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
        }
    }

    private static void require(boolean cond, String what) {
        if (!cond) {
            throw new AssertionError(what);
        }
    }

    /** Runs `body`, which must throw `kind`; returns the exception. */
    private static <T extends Throwable> T expect(Class<T> kind, Body body) throws Exception {
        try {
            body.run();
        } catch (Throwable t) {
            if (kind.isInstance(t)) {
                return kind.cast(t);
            }
            throw new AssertionError("expected " + kind.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + kind.getSimpleName() + ", nothing was thrown");
    }

    static GameState game(String map, UnitTypeTable utt) throws Exception {
        File f = new File(new File(harness, "maps"), map);
        return new GameState(PhysicalGameState.load(f.getPath(), utt), utt);
    }

    /** Plays up to `cycles` cycles (or to the end); `check` sees each reply of ai0. */
    interface ReplyCheck {
        void seen(GameState gs, PlayerAction pa) throws Exception;
    }

    static GameState play(AI ai0, AI ai1, GameState gs, int cycles, ReplyCheck check) throws Exception {
        for (int c = 0; c < cycles; c++) {
            PlayerAction p0 = ai0.getAction(0, gs);
            PlayerAction p1 = ai1.getAction(1, gs);
            if (check != null) {
                check.seen(gs, p0);
            }
            gs.issueSafe(p0);
            gs.issueSafe(p1);
            if (gs.cycle()) {
                break;
            }
        }
        return gs;
    }

    /** A digest of the state without unit ids (the JVM numbers new units from one global counter). */
    static String digestNoIds(GameState gs) throws Exception {
        StringBuilder sb = new StringBuilder();
        sb.append(gs.getTime()).append(' ').append(gs.getPlayer(0).getResources()).append(' ')
                .append(gs.getPlayer(1).getResources());
        for (Unit u : gs.getUnits()) {
            sb.append(';').append(u.getType().name).append(',').append(u.getPlayer()).append(',').append(u.getX())
                    .append(',').append(u.getY()).append(',').append(u.getResources()).append(',')
                    .append(u.getHitPoints());
        }
        byte[] h = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            hex.append(String.format("%02x", h[i] & 0xff));
        }
        return hex.toString();
    }

    static File tempFile(String name, String text) throws IOException {
        File dir = Files.createTempDirectory("microsynth-jnichecks").toFile();
        dir.deleteOnExit();
        File f = new File(dir, name);
        Files.write(f.toPath(), text.getBytes(StandardCharsets.UTF_8));
        f.deleteOnExit();
        return f;
    }

    public static void main(String[] args) throws Exception {
        String dir = null;
        String[] jarProgram = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--harness") && i + 1 < args.length) {
                dir = args[++i];
            } else if (args[i].equals("--jar-program") && i + 3 < args.length) {
                jarProgram = new String[] { args[i + 1], args[i + 2], args[i + 3] };
                i += 3;
            } else {
                System.err.println("usage: JniChecks [--harness DIR] [--jar-program MAP PROGRAM DEFAULT]");
                System.exit(2);
            }
        }
        if (dir == null) {
            dir = System.getenv("MICROSYNTH_HARNESS");
        }
        if (dir == null || dir.isEmpty()) {
            dir = System.getProperty("user.home") + "/.cache/microsynth/harness";
        }
        harness = new File(dir);
        final UnitTypeTable utt = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL_FINETUNED);
        if (jarProgram != null) {
            // A jar whose programs/index.txt names PROGRAM for MAP and DEFAULT otherwise.
            final String[] jp = jarProgram;
            check("jar_index_picks_the_shipped_program", () -> {
                MicrosynthAI ai = new MicrosynthAI(utt);
                require(ai.getPlaying().equals(jp[2]), "before any game: " + ai.getPlaying());
                GameState gs = game(jp[0], utt);
                final int[] acted = { 0 };
                play(ai, new WorkerRush(utt), gs, 300, (g, pa) -> acted[0] += pa.isEmpty() ? 0 : 1);
                require(ai.getPlaying().equals("program:programs/" + jp[1] + " (in the jar)"),
                        "on " + jp[0] + ": " + ai.getPlaying());
                require(acted[0] > 0 && ai.failures() == 0, "acted " + acted[0] + ", " + ai.lastFailure());
                AI c = ai.clone();
                require(((MicrosynthAI) c).getPlaying().equals(jp[2]), "clone: " + ((MicrosynthAI) c).getPlaying());
                ai.close();
            });
            // The index's `unseen` portfolio on a map it has no key for, opening with the nearest map's program.
            check("jar_index_plays_the_unseen_portfolio_elsewhere", () -> {
                MicrosynthAI ai = new MicrosynthAI(utt);
                final int[] acted = { 0 };
                play(ai, new WorkerRush(utt), game("10x10/basesWorkers10x10.xml", utt), 300,
                        (g, pa) -> acted[0] += pa.isEmpty() ? 0 : 1);
                String p = ai.getPlaying();
                require(p.startsWith("portfolio:programs/unseen.portfolio (in the jar)")
                        && p.endsWith("(opening program:shipped.txt)"), "on an unseen map: " + p);
                require(acted[0] > 0 && ai.failures() == 0, "acted " + acted[0] + ", " + ai.lastFailure());
                ai.close();
            });
            // A map keyed to a portfolio whose template names its opening (a `candidate` program).
            check("jar_index_plays_a_keyed_portfolio_with_its_opening", () -> {
                MicrosynthAI ai = new MicrosynthAI(utt);
                final int[] acted = { 0 };
                play(ai, new WorkerRush(utt), game("16x16/basesWorkers16x16A.xml", utt), 300,
                        (g, pa) -> acted[0] += pa.isEmpty() ? 0 : 1);
                String p = ai.getPlaying();
                require(p.startsWith("portfolio:programs/keyed.portfolio (in the jar)")
                        && p.endsWith("(opening program:extra.txt)"), "on the keyed map: " + p);
                require(acted[0] > 0 && ai.failures() == 0, "acted " + acted[0] + ", " + ai.lastFailure());
                ai.close();
            });
            System.out.println("checks=" + checks + " failed=" + failed);
            System.exit(failed == 0 ? 0 : 1);
        }

        // -- J1, J2, J7, J11: what the harness sees of the class ---------------
        check("class_is_a_tournament_ai", () -> {
            require(AIWithComputationBudget.class.isAssignableFrom(MicrosynthAI.class), "not an AIWithComputationBudget");
            require(!java.lang.reflect.Modifier.isAbstract(MicrosynthAI.class.getModifiers()), "abstract");
            require(!ai.core.InterruptibleAI.class.isAssignableFrom(MicrosynthAI.class), "implements InterruptibleAI");
            MicrosynthAI ai = MicrosynthAI.class.getConstructor(UnitTypeTable.class).newInstance(utt);
            require(ai.getTimeBudget() == 100 && ai.getIterationsBudget() == -1,
                    "budgets " + ai.getTimeBudget() + "/" + ai.getIterationsBudget());
            ai.close();
        });
        check("default_spec_is_auto_and_plays_the_index_default", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt);
            require(ai.getBot().equals(MicrosynthAI.AUTO), "bot " + ai.getBot());
            String expect = MicrosynthAI.FALLBACK_BOT;
            try (java.io.InputStream in = MicrosynthAI.class.getResourceAsStream(MicrosynthAI.INDEX_RESOURCE)) {
                if (in != null) {
                    for (String l : new String(readAll(in), StandardCharsets.UTF_8).split("\n")) {
                        String t = l.replaceAll("#.*", "").trim();
                        if (t.startsWith("default ")) {
                            expect = t.substring(8).trim();
                        }
                    }
                }
            }
            require(ai.getPlaying().equals(expect) || ai.getPlaying().endsWith(expect.replaceFirst("^program:", "")),
                    "plays " + ai.getPlaying() + ", expected " + expect);
            ai.close();
        });
        check("parameters_have_setters_the_gui_can_call", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
            List<ParameterSpecification> ps = ai.getParameters();
            require(ps != null && !ps.isEmpty(), "no parameters");
            for (ParameterSpecification p : ps) {
                Class<?> t = p.type;
                require(t.isPrimitive() || t == String.class, p.name + " has type " + t);
                Method m = MicrosynthAI.class.getMethod("set" + p.name, t);
                m.invoke(ai, p.name.equals("Bot") ? "WorkerRush" : p.defaultValue);
            }
            require(ai.getBot().equals("WorkerRush") && ai.getPlaying().equals("WorkerRush"), "setBot: " + ai.getPlaying());
            require(ai.getSeed() == 0L && ai.getIndex().isEmpty() && ai.getProgram().isEmpty(), "seed/index setters");
            File prog = tempFile("prog.txt", "for(Unit u){u.train(Worker,Up,2) u.harvest(2) u.attack(Closest)}\n");
            ai.setProgram(prog.getPath());
            require(ai.getProgram().equals(prog.getPath()) && ai.getPlaying().equals("program:" + prog.getPath()),
                    "setProgram: " + ai.getPlaying());
            require(!ai.getAction(0, game("8x8/basesWorkers8x8A.xml", utt)).isEmpty(), "the program does nothing");
            File broken = tempFile("broken.txt", "u.attack(\n");
            IllegalArgumentException e = expect(IllegalArgumentException.class, () -> ai.setProgram(broken.getPath()));
            require(e.getMessage().contains("broken.txt"), "message: " + e.getMessage());
            require(ai.getProgram().equals(prog.getPath()), "a broken program replaced the good one");
            ai.close();
        });
        check("to_string_names_the_bot", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "WorkerRush");
            require(ai.toString().equals("MicrosynthAI(WorkerRush)"), ai.toString());
            ai.close();
        });

        // -- Bad input at construction: a clear Java exception, never a crash --
        check("unknown_bot_is_an_illegal_argument", () -> {
            IllegalArgumentException e = expect(IllegalArgumentException.class,
                    () -> new MicrosynthAI(utt, "NoSuchBot"));
            require(e.getMessage().contains("NoSuchBot"), "message: " + e.getMessage());
        });
        check("broken_program_is_an_illegal_argument_naming_the_file", () -> {
            File f = tempFile("broken.txt", "this is ( not a program }}}\n\u0000\u00ff garbage\n");
            IllegalArgumentException e = expect(IllegalArgumentException.class,
                    () -> new MicrosynthAI(utt, "program:" + f.getAbsolutePath()));
            require(e.getMessage().contains("broken.txt"), "message: " + e.getMessage());
        });
        check("missing_program_is_an_illegal_argument", () -> {
            IllegalArgumentException e = expect(IllegalArgumentException.class,
                    () -> new MicrosynthAI(utt, "program:/nonexistent/microsynth/none.txt"));
            require(e.getMessage().contains("none.txt"), "message: " + e.getMessage());
        });
        check("empty_spec_and_null_table_are_illegal_arguments", () -> {
            expect(IllegalArgumentException.class, () -> new MicrosynthAI(utt, ""));
            expect(IllegalArgumentException.class, () -> new MicrosynthAI(utt, "   "));
            expect(IllegalArgumentException.class, () -> new MicrosynthAI(null, "LightRush"));
        });
        check("bad_set_bot_keeps_the_previous_bot", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
            IllegalArgumentException e = expect(IllegalArgumentException.class, () -> ai.setBot("NoSuchBot"));
            require(e.getMessage().contains("NoSuchBot"), "message: " + e.getMessage());
            require(ai.getBot().equals("LightRush") && ai.getPlaying().equals("LightRush"), "now " + ai.getPlaying());
            GameState gs = game("8x8/basesWorkers8x8A.xml", utt);
            require(!ai.getAction(0, gs).isEmpty(), "no action after the failed setter");
            ai.close();
        });

        // -- getAction never throws: failures give an empty action -------------
        check("getaction_null_state_does_nothing", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
            PlayerAction pa = ai.getAction(0, null);
            require(pa != null && pa.isEmpty(), "action " + pa);
            require(ai.failures() == 1, "failures " + ai.failures());
            ai.close();
        });
        check("getaction_unit_off_the_map_does_nothing_then_recovers", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "WorkerRush");
            GameState good = game("8x8/basesWorkers8x8A.xml", utt);
            GameState bad = good.clone();
            bad.getUnits().get(bad.getUnits().size() - 1).setX(100);
            PlayerAction pa = ai.getAction(0, bad);
            require(pa.isEmpty() && ai.failures() == 1, "action " + pa + " failures " + ai.failures());
            require(ai.lastFailure().contains("outside"), "message: " + ai.lastFailure());
            require(!ai.getAction(0, good).isEmpty(), "no action on the good state");
            require(ai.failures() == 1, "failures " + ai.failures());
            ai.close();
        });
        check("getaction_two_units_on_one_cell_does_nothing", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "WorkerRush");
            GameState gs = game("8x8/basesWorkers8x8A.xml", utt);
            Unit u = gs.getUnits().get(0);
            gs.getPhysicalGameState().getUnits().add(new Unit(u.getPlayer(), u.getType(), u.getX(), u.getY(), 0));
            PlayerAction pa = ai.getAction(0, gs);
            require(pa.isEmpty() && ai.failures() == 1, "action " + pa + " failures " + ai.failures());
            require(ai.lastFailure().contains("already holds"), "message: " + ai.lastFailure());
            ai.close();
        });
        check("getaction_bad_player_does_nothing", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "WorkerRush");
            PlayerAction pa = ai.getAction(7, game("8x8/basesWorkers8x8A.xml", utt));
            require(pa.isEmpty() && ai.failures() == 1 && ai.lastFailure().contains("player 7"),
                    "failures " + ai.failures() + ": " + ai.lastFailure());
            ai.close();
        });
        check("getaction_after_close_does_nothing", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "WorkerRush");
            ai.close();
            ai.close();
            PlayerAction pa = ai.getAction(0, game("8x8/basesWorkers8x8A.xml", utt));
            require(pa.isEmpty() && ai.lastFailure().contains("closed"), "action " + pa + ": " + ai.lastFailure());
            ai.reset();
            ai.gameOver(0);
            require(ai.statisticsString().contains("failures="), ai.statisticsString());
        });

        // -- J5: replies name own idle units of the state, once, legal types ----
        check("replies_follow_the_reply_rules", () -> {
            for (String map : new String[] { "8x8/basesWorkers8x8A.xml", "16x16/basesWorkers16x16A.xml" }) {
                for (String bot : new String[] { "LightRush", "WorkerRush", "RandomBiasedAI" }) {
                    MicrosynthAI ai = new MicrosynthAI(utt, bot, 7L);
                    GameState gs = game(map, utt);
                    final int[] pairs = { 0 };
                    play(ai, new WorkerRush(utt), gs, 600, (g, pa) -> {
                        Map<Unit, Boolean> seen = new IdentityHashMap<>();
                        Map<Unit, Boolean> live = new IdentityHashMap<>();
                        for (Unit u : g.getUnits()) {
                            live.put(u, true);
                        }
                        for (Pair<Unit, UnitAction> p : pa.getActions()) {
                            Unit u = p.m_a;
                            require(live.containsKey(u), "unit not of this state: " + u);
                            require(u.getPlayer() == 0, "enemy or neutral unit: " + u);
                            require(g.getActionAssignment(u) == null, "busy unit: " + u);
                            require(seen.put(u, true) == null, "unit twice: " + u);
                            if (p.m_b.getType() == UnitAction.TYPE_PRODUCE) {
                                require(p.m_b.getUnitType() == g.getUnitTypeTable().getUnitType(p.m_b.getUnitType().name),
                                        "unit type not from the game's table");
                            }
                            pairs[0]++;
                        }
                    });
                    require(pairs[0] > 0, bot + " on " + map + " never acted");
                    require(ai.failures() == 0, bot + ": " + ai.lastFailure());
                    ai.close();
                }
            }
        });
        check("a_game_table_other_than_the_constructors_is_followed", () -> {
            // Constructed with version 1, playing a version 2 game: the native
            // table is rebuilt from the game's and produced types are the game's.
            UnitTypeTable v1 = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL);
            MicrosynthAI ai = new MicrosynthAI(v1, "LightRush");
            MicrosynthAI ref = new MicrosynthAI(utt, "LightRush");
            GameState a = game("8x8/basesWorkers8x8A.xml", utt), b = a.clone();
            final int[] produced = { 0 };
            play(ai, new WorkerRush(utt), a, 400, (g, pa) -> {
                for (Pair<Unit, UnitAction> p : pa.getActions()) {
                    if (p.m_b.getType() == UnitAction.TYPE_PRODUCE) {
                        require(g.getUnitTypeTable().getUnitTypes().contains(p.m_b.getUnitType()), "foreign type");
                        produced[0]++;
                    }
                }
            });
            play(ref, new WorkerRush(utt), b, 400, null);
            require(produced[0] > 0, "nothing produced");
            require(digestNoIds(a).equals(digestNoIds(b)), "differs from the same bot built on the game's table");
            ai.close();
            ref.close();
        });

        check("partially_observable_views_and_table_3_are_played", () -> {
            UnitTypeTable v3 = new UnitTypeTable(UnitTypeTable.VERSION_NON_DETERMINISTIC,
                    UnitTypeTable.MOVE_CONFLICT_RESOLUTION_CANCEL_RANDOM);
            for (UnitTypeTable t : new UnitTypeTable[] { utt, v3 }) {
                MicrosynthAI ai = new MicrosynthAI(t, "LightRush");
                AI opp = new WorkerRush(t);
                GameState gs = game("16x16/basesWorkers16x16A.xml", t);
                int acted = 0;
                for (int c = 0; c < 800 && !gs.gameover(); c++) {
                    // A fresh view every cycle, as tournaments make them.
                    PlayerAction p0 = ai.getAction(0, new rts.PartiallyObservableGameState(gs, 0));
                    PlayerAction p1 = opp.getAction(1, gs);
                    for (Pair<Unit, UnitAction> p : p0.getActions()) {
                        require(gs.getUnits().contains(p.m_a) && p.m_a.getPlayer() == 0, "foreign unit " + p.m_a);
                    }
                    acted += p0.isEmpty() ? 0 : 1;
                    gs.issueSafe(p0);
                    gs.issueSafe(p1);
                    gs.cycle();
                }
                require(acted > 0, "never acted");
                require(ai.failures() == 0, ai.lastFailure());
                ai.close();
            }
        });

        // -- J3, J4, J8, J9: clones, resets, game over, threads ----------------
        check("clone_is_independent_and_equal", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "HeavyRush", 5, -1);
            AI c = ai.clone();
            require(c instanceof MicrosynthAI && c != ai, "clone " + c);
            MicrosynthAI m = (MicrosynthAI) c;
            require(m.getBot().equals("HeavyRush") && m.getTimeBudget() == 5 && m.getIterationsBudget() == -1,
                    "configuration " + m.getBot() + " " + m.getTimeBudget());
            ai.close(); // the clone has its own handle
            GameState gs = game("8x8/basesWorkers8x8A.xml", utt);
            require(!m.getAction(0, gs).isEmpty() && m.failures() == 0, "clone broken after closing the original");
            m.close();
        });
        check("reset_pregame_and_game_over_start_a_new_game", () -> {
            MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
            MicrosynthAI fresh = new MicrosynthAI(utt, "LightRush");
            String first = null;
            for (int g = 0; g < 3; g++) {
                ai.reset();
                GameState gs = game(g == 1 ? "16x16/basesWorkers16x16A.xml" : "8x8/basesWorkers8x8A.xml", utt);
                ai.preGameAnalysis(gs, 100);
                play(ai, new WorkerRush(utt), gs, 5000, null);
                ai.gameOver(gs.winner());
                String d = digestNoIds(gs);
                if (g == 0) {
                    first = d;
                } else if (g == 2) {
                    require(d.equals(first), "the third game differs from the first on the same map");
                }
            }
            GameState gs = game("8x8/basesWorkers8x8A.xml", utt);
            play(fresh, new WorkerRush(utt), gs, 5000, null);
            require(digestNoIds(gs).equals(first), "a reused AI plays differently from a fresh one");
            require(ai.failures() == 0, ai.lastFailure());
            ai.close();
            fresh.close();
        });
        check("instances_on_threads_play_as_alone", () -> {
            final String[] maps = { "8x8/basesWorkers8x8A.xml", "16x16/basesWorkers16x16A.xml",
                    "8x8/basesWorkers8x8B.xml", "16x16/basesWorkers16x16C.xml" };
            final String[] alone = new String[maps.length], together = new String[maps.length];
            for (int i = 0; i < maps.length; i++) {
                MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
                alone[i] = digestNoIds(play(ai, new WorkerRush(utt), game(maps[i], utt), 3000, null));
                ai.close();
            }
            List<Thread> threads = new ArrayList<>();
            final List<Throwable> errors = Collections.synchronizedList(new ArrayList<Throwable>());
            for (int i = 0; i < maps.length; i++) {
                final int k = i;
                Thread t = new Thread(() -> {
                    try {
                        MicrosynthAI ai = new MicrosynthAI(utt, "LightRush");
                        together[k] = digestNoIds(play(ai, new WorkerRush(utt), game(maps[k], utt), 3000, null));
                        ai.close();
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            require(errors.isEmpty(), "thread failed: " + errors);
            for (int i = 0; i < maps.length; i++) {
                require(alone[i].equals(together[i]), maps[i] + ": alone " + alone[i] + ", on a thread " + together[i]);
            }
        });
        check("garbage_instances_are_freed", () -> {
            // Unreachable instances: their handles are freed as new ones are made.
            int before = MicrosynthAI.liveHandles();
            GameState gs = game("8x8/basesWorkers8x8A.xml", utt);
            for (int i = 0; i < 2000; i++) {
                new MicrosynthAI(utt, "WorkerRush").getAction(0, gs);
            }
            require(MicrosynthAI.liveHandles() >= before, "count went down without a collection");
            for (int k = 0; k < 100 && MicrosynthAI.liveHandles() > before + 1000; k++) {
                System.gc();
                Thread.sleep(20);
                new MicrosynthAI(utt, "WorkerRush").close(); // construction frees what was collected
            }
            require(MicrosynthAI.liveHandles() <= before + 1000,
                    "still " + (MicrosynthAI.liveHandles() - before) + " of 2000 handles alive");
        });

        // -- Program choice by map fingerprint (AUTO) --------------------------
        check("auto_picks_the_program_by_map_fingerprint", () -> {
            GameState a = game("8x8/basesWorkers8x8A.xml", utt), b = game("8x8/basesWorkers8x8B.xml", utt);
            GameState c = game("16x16/basesWorkers16x16A.xml", utt);
            require(!MapFingerprint.full(a).equals(MapFingerprint.full(b)), "8x8A and 8x8B have one fingerprint");
            File index = tempFile("index.txt", "# test index\n"
                    + "default HeavyRush\n"
                    + MapFingerprint.full(a) + " WorkerRush   # 8x8/basesWorkers8x8A\n"
                    + MapFingerprint.terrain(c.getPhysicalGameState()) + " RangedRush\n");
            MicrosynthAI ai = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            ai.setIndex(index.getPath());
            ai.getAction(0, a);
            require(ai.getPlaying().equals("WorkerRush"), "8x8A: " + ai.getPlaying());
            ai.reset();
            GameState late = a.clone();
            play(new MicrosynthAI(utt, "PassiveAI"), new MicrosynthAI(utt, "PassiveAI"), late, 3, null);
            ai.getAction(0, late); // joined after time 0: only the terrain key counts
            require(ai.getPlaying().equals("HeavyRush"), "8x8A at time 3 (default): " + ai.getPlaying());
            ai.reset();
            ai.getAction(0, c);
            require(ai.getPlaying().equals("RangedRush"), "16x16A by terrain: " + ai.getPlaying());
            ai.reset();
            ai.getAction(0, b);
            require(ai.getPlaying().equals("HeavyRush"), "8x8B (default): " + ai.getPlaying());
            require(ai.failures() == 0, ai.lastFailure());
            MicrosynthAI fixed = new MicrosynthAI(utt, "LightRush");
            fixed.setIndex(index.getPath());
            fixed.getAction(0, a);
            require(fixed.getPlaying().equals("LightRush"), "an explicit spec follows the index: " + fixed.getPlaying());
            ai.close();
            fixed.close();
        });
        check("auto_program_paths_are_relative_to_the_index", () -> {
            GameState a = game("8x8/basesWorkers8x8A.xml", utt);
            File index = tempFile("index.txt", "default WorkerRush\n" + MapFingerprint.full(a) + " program:sub/prog.txt\n");
            File sub = new File(index.getParentFile(), "sub");
            require(sub.mkdir(), "mkdir");
            sub.deleteOnExit(); // deleted after the file registered below (reverse order)
            File prog = new File(sub, "prog.txt");
            Files.write(prog.toPath(), "}}} not a program {{{\n".getBytes(StandardCharsets.UTF_8));
            prog.deleteOnExit();
            MicrosynthAI ai = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            ai.setIndex(index.getPath());
            PlayerAction pa = ai.getAction(0, a);
            // The broken program is refused: reported once, the previous bot plays on.
            require(ai.failures() == 1 && ai.lastFailure().contains(prog.getAbsolutePath()),
                    "failure: " + ai.lastFailure());
            require(!pa.isEmpty(), "the previous bot stopped playing");
            ai.close();
        });
        check("bad_index_is_an_illegal_argument_when_it_is_the_default", () -> {
            File index = tempFile("index.txt", "default LightRush\nnot-a-key WorkerRush\n");
            MicrosynthAI ai = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            ai.setIndex(index.getPath());
            IllegalArgumentException e = expect(IllegalArgumentException.class, () -> ai.clone());
            require(e.getMessage().contains("not-a-key"), "message: " + e.getMessage());
            ai.close();
        });

        // -- Pre-game synthesis (AUTO, maps the index has no program for) ------
        check("pregame_synthesizes_on_an_unseen_map_caches_and_reuses_the_program", () -> {
            GameState known = game("8x8/basesWorkers8x8A.xml", utt), unseen = game("8x8/basesWorkers8x8B.xml", utt);
            File index = tempFile("index.txt", "default LightRush\n" + MapFingerprint.full(known) + " WorkerRush\n"
                    + "candidate program:prog.txt\n");
            Files.write(new File(index.getParentFile(), "prog.txt").toPath(),
                    "for(Unit u){u.train(Worker,Up,3) u.harvest(2) u.attack(Closest)}\n".getBytes(StandardCharsets.UTF_8));
            File folder = Files.createTempDirectory("microsynth-pregame-check").toFile();
            MicrosynthAI ai = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            ai.setIndex(index.getPath());
            ai.preGameAnalysis(known, 3000, folder.getPath()); // a map with its program: no search
            require(ai.getPlaying().equals("WorkerRush") && ai.pregameFigures()[2] == 0, "known map: " + ai.getPlaying());
            // a map whose program was made for another edition than the harness's is searched on
            File stale = tempFile("index.txt", "default LightRush\n" + MapFingerprint.full(known) + " program:prog.txt\n"
                    + "made-for program:prog.txt edition 1999 cycles 3000\n");
            Files.write(new File(stale.getParentFile(), "prog.txt").toPath(),
                    "for(Unit u){u.train(Worker,Up,3) u.harvest(2) u.attack(Closest)}\n".getBytes(StandardCharsets.UTF_8));
            MicrosynthAI old = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            old.setIndex(stale.getPath());
            old.preGameAnalysis(known, 2000, Files.createTempDirectory("microsynth-pregame-check").toString());
            require(old.getPlaying().startsWith("pre-game program") && old.failures() == 0,
                    "a program of another edition: " + old.getPlaying() + " " + old.lastFailure());
            old.close();
            ai.reset();
            ai.preGameAnalysis(unseen, 3000, folder.getPath());
            long[] f = ai.pregameFigures();
            require(ai.failures() == 0, ai.lastFailure());
            require(ai.getPlaying().startsWith("pre-game program") && f[2] == 1 && f[3] > 0,
                    "unseen map: " + ai.getPlaying() + " figures " + java.util.Arrays.toString(f));
            File[] cached = new File(folder, "microsynth-pregame").listFiles();
            require(cached != null && cached.length == 1 && cached[0].getName().endsWith(".ms"), "no cached program");
            play(ai, new WorkerRush(utt), unseen.clone(), 3000, null);
            require(ai.failures() == 0, ai.lastFailure());
            // a later game with no time to search plays the cached program (a clone shares the figures)
            MicrosynthAI later = (MicrosynthAI) ai.clone();
            later.preGameAnalysis(unseen, 0, folder.getPath());
            require(later.getPlaying().startsWith("pre-game program") && later.getPlaying().endsWith("(cached)")
                    && later.pregameFigures()[4] == 1, "later game: " + later.getPlaying());
            // a cached opponent switch plays as one, and is a candidate (its opening program) of a new search
            Files.write(cached[0].toPath(), ("# microsynth pre-game program: a switch\nmicrosynth-switch 1\ncycle 100\n"
                    + "program before\nfor(Unit u){u.train(Worker,Up,3) u.harvest(2) u.attack(Closest)}\nend\n"
                    + "program rush\nfor(Unit u){u.train(Worker,Up,9) u.attack(Closest)}\nend\nbefore before\n"
                    + "case WorkerRush 0 2 0 0 0 1 0 0 0 3 rush\n").getBytes(StandardCharsets.UTF_8));
            MicrosynthAI sw = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            sw.setIndex(index.getPath());
            sw.preGameAnalysis(unseen, 0, folder.getPath());
            require(sw.failures() == 0 && sw.getPlaying().endsWith("(cached)") && "Switch".equals(sw.nativeBotName()),
                    "cached switch: " + sw.getPlaying() + " " + sw.nativeBotName() + " " + sw.lastFailure());
            play(sw, new WorkerRush(utt), unseen.clone(), 600, null);
            require(sw.failures() == 0, sw.lastFailure());
            sw.preGameAnalysis(unseen, 3000, folder.getPath());
            require(sw.failures() == 0 && sw.getPlaying().startsWith("pre-game program")
                    && !sw.getPlaying().endsWith("(cached)"), "a search from a cached switch: " + sw.getPlaying() + " "
                    + sw.lastFailure());
            sw.close();
            // a cached file that is not a program: counted once, today's choice plays, nothing thrown
            Files.write(cached[0].toPath(), "}}} broken {{{\n".getBytes(StandardCharsets.UTF_8));
            MicrosynthAI broken = new MicrosynthAI(utt, MicrosynthAI.AUTO);
            broken.setIndex(index.getPath());
            broken.preGameAnalysis(unseen, 0, folder.getPath());
            require(broken.failures() == 1 && broken.lastFailure().contains("pre-game program")
                    && broken.getPlaying().equals("LightRush"), "broken cache: " + broken.getPlaying() + " "
                    + broken.lastFailure());
            require(!broken.getAction(0, unseen.clone()).isEmpty(), "the fallback does not play");
            // with time to search, the broken file is skipped and a program made again
            broken.preGameAnalysis(unseen, 3000, folder.getPath());
            require(broken.getPlaying().startsWith("pre-game program") && !broken.getPlaying().endsWith("(cached)"),
                    "after a broken cache: " + broken.getPlaying());
            // microsynth.pregame=off leaves today's choice
            System.setProperty(MicrosynthAI.PROPERTY_PREGAME, "off");
            try {
                MicrosynthAI off = new MicrosynthAI(utt, MicrosynthAI.AUTO);
                off.setIndex(index.getPath());
                off.preGameAnalysis(unseen, 3000, folder.getPath());
                require(off.getPlaying().equals("LightRush"), "off: " + off.getPlaying());
                off.close();
            } finally {
                System.clearProperty(MicrosynthAI.PROPERTY_PREGAME);
            }
            ai.close();
            later.close();
            broken.close();
        });

        System.out.println("checks=" + checks + " failed=" + failed);
        System.exit(failed == 0 ? 0 : 1);
    }

    private static byte[] readAll(java.io.InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] b = new byte[8192];
        int n;
        while ((n = in.read(b)) > 0) {
            out.write(b, 0, n);
        }
        return out.toByteArray();
    }
}
