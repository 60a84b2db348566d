package ai.microsynth.harness;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Random;

import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.UnitAction;
import rts.UnitActionAssignment;
import rts.units.Unit;
import util.Pair;

/**
 * The lines of the recording format (tests/README.md) that both recorders
 * write: Recorder on the official jar and java/dslref's on the reference
 * interpreter's fork, which is why this file names only classes both
 * MicroRTS builds have. Compiled into each recorder's jar.
 */
public final class RecordingLines {
    private RecordingLines() {
    }

    /** java.util.Random whose 48-bit state can be read (the R lines). */
    public static final class TrackedRandom extends Random {
        private static final long serialVersionUID = 1L;
        private static final long MULT = 0x5DEECE66DL, ADD = 0xBL, MASK = (1L << 48) - 1;
        private long state;

        public TrackedRandom(long seed) {
            super(seed);
            state = (seed ^ MULT) & MASK;
        }

        @Override
        public synchronized void setSeed(long seed) {
            super.setSeed(seed);
            state = (seed ^ MULT) & MASK;
        }

        @Override
        protected int next(int bits) {
            synchronized (this) {
                state = (state * MULT + ADD) & MASK;
                return (int) (state >>> (48 - bits));
            }
        }

        public synchronized long state() {
            return state;
        }
    }

    /** A private field made readable (the engine's generators, UnitAction.parameter). */
    public static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** "T:P:UT", or "5:X:Y" for attacks: the fields the rules read. */
    public static void action(StringBuilder b, UnitAction a, Field parameter) throws IllegalAccessException {
        if (a.getType() == UnitAction.TYPE_ATTACK_LOCATION) {
            b.append(a.getType()).append(':').append(a.getLocationX()).append(':').append(a.getLocationY());
        } else {
            b.append(a.getType()).append(':').append(parameter.getInt(a)).append(':')
             .append(a.getUnitType() == null ? -1 : a.getUnitType().ID);
        }
    }

    /** The "P PLAYER N PAIR..." line of a player action, as the AI returned it. */
    public static StringBuilder pairs(int p, PlayerAction pa, StringBuilder b, Field parameter)
            throws IllegalAccessException {
        List<Pair<Unit, UnitAction>> acts = pa.getActions();
        b.setLength(0);
        b.append("P ").append(p).append(' ').append(acts.size());
        for (Pair<Unit, UnitAction> ua : acts) {
            Unit u = ua.m_a;
            b.append(' ').append(u.getID()).append(',').append(u.getType().ID).append(',').append(u.getPlayer())
             .append(',').append(u.getX()).append(',').append(u.getY()).append(',').append(u.getResources())
             .append(',').append(u.getHitPoints()).append(',');
            action(b, ua.m_b, parameter);
        }
        return b;
    }

    /** The canonical state line (same as microsynth diff builds). */
    public static StringBuilder state(GameState gs, StringBuilder b, Field parameter) throws IllegalAccessException {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        List<Unit> units = pgs.getUnits();
        b.setLength(0);
        b.append("S ").append(gs.getTime()).append(' ').append(gs.getPlayer(0).getResources()).append(' ')
         .append(gs.getPlayer(1).getResources()).append(" U ").append(units.size());
        for (Unit u : units) {
            b.append(' ').append(u.getID()).append(',').append(u.getType().ID).append(',').append(u.getPlayer())
             .append(',').append(u.getX()).append(',').append(u.getY()).append(',').append(u.getResources())
             .append(',').append(u.getHitPoints());
        }
        b.append(" A ").append(gs.getUnitActions().size());
        for (UnitActionAssignment uaa : gs.getUnitActions().values()) {
            b.append(' ').append(uaa.unit.getID()).append(',').append(uaa.time).append(',');
            action(b, uaa.action, parameter);
        }
        return b;
    }
}
