package ai.microsynth.dslref;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import AIs.Interpreter;
import CFG.Control;
import CFG.FactoryBase;
import CFG.Node;
import ai.abstraction.AbstractAction;
import ai.core.AI;
import ai.microsynth.harness.RecordingLines;
import ai.microsynth.harness.RecordingLines.TrackedRandom;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.UnitAction;
import rts.units.Unit;
import rts.units.UnitTypeTable;

/**
 * Plays programs of the DSL under the reference interpreter (the
 * AIs.Interpreter of Aleixo's Synthesis2, LLD variant: Build, Train and
 * Harvest without N) on the MicroRTS fork it was written for (LS1.jar), and
 * records every cycle for `microsynth refdiff` (format: tests/README.md,
 * "Recordings", plus the lines below). Neither the fork nor the interpreter
 * is part of this project: this class is compiled against the user's own
 * build of them (docs/dsl-reference.md).
 *
 *   Recorder --out DIR [--maps DIR]... (--job "NAME MAP SEAT OPPONENT MAXCYCLES PROGRAM" | --jobs FILE)...
 *
 * MAP is a map file, looked for under each --maps DIR in turn, else taken as
 * it is (the match line keeps MAP as written).
 *
 * PROGRAM is a file holding the program in Control.salve tokens (LLD
 * variant; `microsynth dsl convert --to salve-lld` writes it). OPPONENT is
 * WorkerRush, LightRush, HeavyRush, RangedRush (the fork's ai.abstraction
 * bots), CoacAI (ai.coac.CoacAI, when its jar is on the class path), any
 * other AI class name with a (UnitTypeTable) constructor, or
 * program:FILE (a second program under the same interpreter).
 *
 * A match is played as the reference's Playout.run plays it: a default
 * UnitTypeTable (version 1, moves that conflict cancel), both players
 * asked every cycle, then the actions issued (player 0's first, as the
 * official harness does, so that `microsynth diff` can replay the
 * recording in the official engine), until game over or MAXCYCLES. When
 * the interpreter throws (a command reached with no unit bound, ...) the
 * match ends there, as Playout.run ends it (a loss).
 *
 * Lines added to the recording format:
 *   program SEAT SALVE      the program and its seat (before "init")
 *   X N ENTRY...            the abstract actions the interpreter assigned
 *                           this cycle, in insertion order, before
 *                           translateActions: UNIT:M:X:Y (Move),
 *                           UNIT:A:TARGET (Attack, -1 for none),
 *                           UNIT:H:RESOURCE:BASE (Harvest),
 *                           UNIT:B:TYPE:X:Y (Build), UNIT:T:TYPE:PREF
 *                           (Train), UNIT:I (Idle)
 *   E SEAT CYCLE MESSAGE    the interpreter threw at that cycle
 *
 * Prints "recorded NAME winner=W cycles=C" per match and last
 * "matches=N failed=F".
 */
public final class Recorder {
    private Recorder() {
    }

    /** The reference interpreter, its abstract actions kept before translateActions drops the finished ones. */
    static final class Recording extends Interpreter {
        final StringBuilder abstracts = new StringBuilder();
        int count;

        Recording(UnitTypeTable utt, Node program) {
            super(utt, program);
        }

        @Override
        public PlayerAction translateActions(int player, GameState gs) {
            abstracts.setLength(0);
            count = 0;
            for (Map.Entry<Unit, AbstractAction> e : actions.entrySet()) {
                abstracts.append(' ');
                describe(abstracts, e.getKey(), e.getValue());
                count++;
            }
            return super.translateActions(player, gs);
        }
    }

    private static Object get(Object o, String name) {
        try {
            return RecordingLines.field(o.getClass(), name).get(o);
        } catch (NoSuchFieldException | IllegalAccessException e) {
            throw new IllegalStateException("the fork's " + o.getClass().getName() + " has no readable " + name, e);
        }
    }

    private static long id(Object unit) {
        return unit == null ? -1 : ((Unit) unit).getID();
    }

    /** One abstract action as an X entry (the fields are package-private in ai.abstraction). */
    static void describe(StringBuilder b, Unit u, AbstractAction a) {
        b.append(u.getID()).append(':');
        String kind = a.getClass().getSimpleName();
        switch (kind) {
        case "Move":
            b.append("M:").append(get(a, "x")).append(':').append(get(a, "y"));
            break;
        case "Attack":
            b.append("A:").append(id(get(a, "target")));
            break;
        case "Harvest":
            b.append("H:").append(id(get(a, "target"))).append(':').append(id(get(a, "base")));
            break;
        case "Build":
            b.append("B:").append(((rts.units.UnitType) get(a, "type")).ID).append(':').append(get(a, "x"))
             .append(':').append(get(a, "y"));
            break;
        case "Train":
            b.append("T:").append(((rts.units.UnitType) get(a, "type")).ID).append(':')
             .append(get(a, "preference"));
            break;
        case "Idle":
            b.append('I');
            break;
        default:
            b.append('?').append(kind);
        }
    }

    static String readProgram(String path) throws IOException {
        String s = new String(Files.readAllBytes(new File(path).toPath()), StandardCharsets.UTF_8).trim();
        if (!s.startsWith("S;")) {
            throw new IOException(path + ": not a program in Control.salve tokens (S;...)");
        }
        return s;
    }

    static AI opponent(String spec, UnitTypeTable utt) throws Exception {
        if (spec.startsWith("program:")) {
            return new Interpreter(utt, Control.load(readProgram(spec.substring(8)), new FactoryBase()));
        }
        String cls;
        switch (spec) {
        case "WorkerRush":
        case "LightRush":
        case "HeavyRush":
        case "RangedRush":
            cls = "ai.abstraction." + spec;
            break;
        case "CoacAI":
            cls = "ai.coac.CoacAI";
            break;
        default:
            cls = spec;
        }
        return (AI) Class.forName(cls).getConstructor(UnitTypeTable.class).newInstance(utt);
    }

    static int run(String[] args) throws Exception {
        String out = null;
        List<String> maps = new ArrayList<>();
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            switch (a) {
            case "--out":
                out = args[++i];
                break;
            case "--maps":
                maps.add(args[++i]);
                break;
            case "--job":
                jobs.add(args[++i]);
                break;
            case "--jobs":
                try (BufferedReader r = new BufferedReader(new InputStreamReader(
                        new FileInputStream(args[++i]), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null;) {
                        if (!l.trim().isEmpty() && !l.trim().startsWith("#")) {
                            jobs.add(l.trim());
                        }
                    }
                }
                break;
            default:
                throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (out == null || jobs.isEmpty()) {
            throw new IllegalArgumentException("--out and at least one --job or --jobs are required");
        }
        File dir = new File(out);
        if (!dir.isDirectory() && !dir.mkdirs()) {
            throw new IOException("cannot create " + out);
        }
        int failed = 0;
        for (String job : jobs) {
            try {
                record(job, maps, dir);
            } catch (Exception | LinkageError e) {
                failed++;
                System.err.println("Recorder: " + job + ": " + e);
            }
        }
        System.out.println("matches=" + jobs.size() + " failed=" + failed);
        return failed == 0 ? 0 : 1;
    }

    static void record(String job, List<String> maps, File dir) throws Exception {
        String[] w = job.split("\\s+");
        if (w.length != 6) {
            throw new IllegalArgumentException("a job is NAME MAP SEAT OPPONENT MAXCYCLES PROGRAM");
        }
        String name = w[0], map = w[1], opp = w[3];
        int seat = Integer.parseInt(w[2]), maxCycles = Integer.parseInt(w[4]);
        if (seat != 0 && seat != 1) {
            throw new IllegalArgumentException("SEAT must be 0 or 1");
        }
        String salve = readProgram(w[5]);

        TrackedRandom damage = new TrackedRandom(1), conflicts = new TrackedRandom(2);
        UnitAction.r = damage;
        RecordingLines.field(GameState.class, "r").set(null, conflicts);
        Field parameter = RecordingLines.field(UnitAction.class, "parameter");

        // Units made in earlier matches of this JVM must not shift the ids of this one's.
        Unit.next_ID = 0;
        UnitTypeTable utt = new UnitTypeTable();
        String mapFile = map;
        for (String m : maps) {
            if (new File(m, map).isFile()) {
                mapFile = new File(m, map).getPath();
                break;
            }
        }
        GameState gs = new GameState(PhysicalGameState.load(mapFile, utt), utt);
        Recording program = new Recording(utt, Control.load(salve, new FactoryBase()));
        AI other = opponent(opp, utt);
        AI[] ai = new AI[2];
        ai[seat] = program;
        ai[1 - seat] = other;
        for (AI a : ai) {
            a.reset();
        }
        String cut = "";
        try (Writer rec = new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(new FileOutputStream(new File(dir, name + ".rec.gz"))),
                StandardCharsets.UTF_8))) {
            rec.write("microsynth-recording 1\n");
            rec.write(String.format("match %s %s 1 1 %s %s %d 0 p0=%s p1=%s\n", name, map,
                    seat == 0 ? "program" : opp, seat == 1 ? "program" : opp, maxCycles,
                    name(ai[0]), name(ai[1])));
            rec.write("utt 1 1\n");
            rec.write("program " + seat + " " + salve + "\n");
            StringWriter init = new StringWriter();
            gs.toJSON(init);
            rec.write("init " + init + "\n");
            StringBuilder line = new StringBuilder();
            boolean gameover = false;
            while (!gameover && gs.getTime() < maxCycles) {
                PlayerAction[] pa = new PlayerAction[2];
                for (int p = 0; p < 2 && cut.isEmpty(); p++) {
                    try {
                        pa[p] = ai[p].getAction(p, gs);
                    } catch (Exception e) {
                        if (p == seat) {
                            rec.write("E " + p + " " + gs.getTime() + " " + String.valueOf(e).replace('\n', ' ')
                                    + "\n");
                        }
                        cut = " cut=player" + p;
                    }
                }
                if (!cut.isEmpty()) {
                    break;
                }
                rec.write("R " + Unit.next_ID + " " + damage.state() + " " + conflicts.state() + "\n");
                for (int p = 0; p < 2; p++) {
                    rec.write(RecordingLines.pairs(p, pa[p], line, parameter).append('\n').toString());
                }
                rec.write("X " + program.count + program.abstracts + "\n");
                gs.issueSafe(pa[0]);
                gs.issueSafe(pa[1]);
                gameover = gs.cycle();
                rec.write(RecordingLines.state(gs, line, parameter).append('\n').toString());
            }
            rec.write("end " + gs.winner() + " " + gs.getTime() + "\n");
        }
        System.out.println("recorded " + name + " winner=" + gs.winner() + " cycles=" + gs.getTime() + cut);
    }

    /** The class the match line names: the reference interpreter's, not the recording subclass's. */
    static String name(AI ai) {
        return ai instanceof Recording ? Interpreter.class.getName() : ai.getClass().getName();
    }

    public static void main(String[] args) {
        int rc;
        try {
            rc = run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("Recorder: " + e.getMessage());
            rc = 2;
        } catch (Exception e) {
            System.err.println("Recorder: " + e);
            rc = 1;
        }
        System.exit(rc);
    }
}
