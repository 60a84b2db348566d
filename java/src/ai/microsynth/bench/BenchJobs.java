package ai.microsynth.bench;

import java.io.InputStream;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jdom.Document;
import org.jdom.input.SAXBuilder;

import ai.core.AI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.Trace;
import rts.TraceEntry;
import rts.UnitAction;
import rts.units.Unit;
import rts.units.UnitTypeTable;
import util.Pair;

/** What the benchmarks run in the official engine: a trace's replay and a scripted match. */
final class BenchJobs {
    private BenchJobs() {
    }

    static Trace load(String path) throws Exception {
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

    static AI make(String name, UnitTypeTable utt) throws Exception {
        String cls = name.contains(".") ? name : "ai.abstraction." + name;
        return (AI) Class.forName(cls).getConstructor(UnitTypeTable.class).newInstance(utt);
    }

    /** The official loop (as Match plays it); returns the cycles played. */
    static int play(PhysicalGameState map, UnitTypeTable utt, AI a0, AI a1, int maxCycles) throws Exception {
        GameState gs = new GameState(map.cloneIncludingTerrain(), utt);
        a0.reset();
        a1.reset();
        boolean gameover = false;
        while (!gameover && gs.getTime() < maxCycles) {
            PlayerAction p0 = a0.getAction(0, gs);
            PlayerAction p1 = a1.getAction(1, gs);
            gs.issueSafe(p0);
            gs.issueSafe(p1);
            gameover = gs.cycle();
        }
        return gs.getTime();
    }
}
