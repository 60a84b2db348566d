package ai.microsynth.bench;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jdom.Document;
import org.jdom.input.SAXBuilder;

import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.Trace;
import rts.TraceEntry;
import rts.UnitAction;
import rts.units.Unit;
import util.Pair;

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

    private static Trace load(String path) throws Exception {
        try (ZipFile z = new ZipFile(path)) {
            ZipEntry e = z.entries().nextElement();
            try (InputStream in = z.getInputStream(e)) {
                Document d = new SAXBuilder().build(in);
                return new Trace(d.getRootElement());
            }
        }
    }

    /** The replay of Trace.getGameStateAtCycle, over every entry; returns cycles run. */
    static int replay(Trace t) {
        List<TraceEntry> entries = t.getEntries();
        GameState gs = new GameState(entries.get(0).getPhysicalGameState().clone(), t.getUnitTypeTable());
        for (TraceEntry te : entries) {
            while (gs.getTime() < te.getTime()) {
                gs.cycle();
            }
            PhysicalGameState pgs = te.getPhysicalGameState();
            for (Unit u : gs.getUnits()) {
                for (Unit v : pgs.getUnits()) {
                    if (v.getX() == u.getX() && v.getY() == u.getY() && v.getType().name.equals(u.getType().name)) {
                        u.setID(v.getID());
                        break;
                    }
                }
            }
            PlayerAction p0 = new PlayerAction();
            PlayerAction p1 = new PlayerAction();
            for (Pair<Unit, UnitAction> ua : te.getActions()) {
                if (ua.m_a.getPlayer() == 0) {
                    p0.addUnitAction(ua.m_a, ua.m_b);
                } else if (ua.m_a.getPlayer() == 1) {
                    p1.addUnitAction(ua.m_a, ua.m_b);
                }
            }
            gs.issueSafe(p0);
            gs.issueSafe(p1);
        }
        return gs.getTime();
    }

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        List<Trace> traces = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            traces.add(load(args[i]));
        }
        for (int w = 0; w < warmup; w++) {
            for (Trace t : traces) {
                replay(t);
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < traces.size(); i++) {
            long cycles = 0;
            long start = System.nanoTime();
            for (int r = 0; r < repeat; r++) {
                cycles += replay(traces.get(i));
            }
            long nanos = System.nanoTime() - start;
            out.append("trace ").append(args[i + 2]).append(" cycles ").append(cycles)
               .append(" nanos ").append(nanos).append('\n');
        }
        System.out.print(out);
    }
}
