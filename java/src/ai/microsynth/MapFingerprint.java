package ai.microsynth;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import rts.GameState;
import rts.PhysicalGameState;
import rts.units.Unit;
import rts.units.UnitTypeTable;

/**
 * Fingerprints of a map, the key under which {@code programs/index.txt}
 * names the program to play there (the harness passes states, never map
 * names).
 *
 * <ul>
 * <li>{@code t:HEX}: width, height and terrain. Stable for the whole game,
 * so it also identifies a map when the first state seen is not the initial
 * one.</li>
 * <li>{@code m:HEX}: the same plus the starting stocks and units (type name,
 * owner, position, resources, hit points; not ids, which the harness draws
 * from a JVM-wide counter), taken from the state at time 0. Tells apart maps
 * with one terrain but different starts (basesWorkers8x8 and its
 * variants).</li>
 * </ul>
 * HEX is 16 hex digits of a 64-bit FNV-1a hash. {@code main} prints both
 * keys for map files: {@code java -cp microrts.jar:microsynth.jar
 * ai.microsynth.MapFingerprint [--utt 1|2|3] MAP.xml...}.
 */
public final class MapFingerprint {
    private MapFingerprint() {
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private static long mix(long h, int v) {
        for (int i = 0; i < 4; i++) {
            h ^= (v >>> (8 * i)) & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }

    private static long mix(long h, String s) {
        h = mix(h, s.length());
        for (int i = 0; i < s.length(); i++) {
            h = mix(h, s.charAt(i));
        }
        return h;
    }

    private static String hex(String prefix, long h) {
        String x = Long.toHexString(h);
        return prefix + "0000000000000000".substring(x.length()) + x;
    }

    /** Row by row, then column: the order of cells in the terrain string. */
    private static final class ByPosition implements Comparator<Unit> {
        @Override
        public int compare(Unit a, Unit b) {
            return a.getY() != b.getY() ? Integer.compare(a.getY(), b.getY()) : Integer.compare(a.getX(), b.getX());
        }
    }

    private static long terrainHash(PhysicalGameState pgs) {
        int w = pgs.getWidth(), h = pgs.getHeight();
        long f = mix(mix(FNV_OFFSET, w), h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                f = mix(f, pgs.getTerrain(x, y) == PhysicalGameState.TERRAIN_NONE ? 0 : 1);
            }
        }
        return f;
    }

    /** {@code t:HEX}: size and terrain. */
    public static String terrain(PhysicalGameState pgs) {
        return hex("t:", terrainHash(pgs));
    }

    /** {@code m:HEX}: size, terrain, stocks and units of {@code gs} (meant for time 0). */
    public static String full(GameState gs) {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        long f = terrainHash(pgs);
        f = mix(mix(f, gs.getPlayer(0).getResources()), gs.getPlayer(1).getResources());
        List<Unit> units = new ArrayList<>(pgs.getUnits());
        // Position order: independent of the order the map file lists units in.
        Collections.sort(units, new ByPosition());
        f = mix(f, units.size());
        for (Unit u : units) {
            f = mix(f, u.getType().name);
            f = mix(mix(mix(f, u.getPlayer()), u.getX()), u.getY());
            f = mix(mix(f, u.getResources()), u.getHitPoints());
        }
        return hex("m:", f);
    }

    public static void main(String[] args) throws Exception {
        int version = UnitTypeTable.VERSION_ORIGINAL_FINETUNED;
        List<String> maps = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--utt") && i + 1 < args.length) {
                version = Integer.parseInt(args[++i]);
            } else if (args[i].startsWith("-")) {
                System.err.println("usage: MapFingerprint [--utt 1|2|3] MAP.xml...");
                System.exit(2);
            } else {
                maps.add(args[i]);
            }
        }
        if (maps.isEmpty()) {
            System.err.println("usage: MapFingerprint [--utt 1|2|3] MAP.xml...");
            System.exit(2);
        }
        UnitTypeTable utt = new UnitTypeTable(version);
        for (String m : maps) {
            PhysicalGameState pgs = PhysicalGameState.load(new File(m).getPath(), utt);
            GameState gs = new GameState(pgs, utt);
            System.out.println(full(gs) + " " + terrain(pgs) + " " + m);
        }
    }
}
