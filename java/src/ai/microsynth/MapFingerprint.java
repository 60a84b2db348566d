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
 * HEX is 16 hex digits of a 64-bit FNV-1a hash. For maps no key names,
 * {@link #features} describe a map and {@link #distance} compares two, so
 * the index's {@code near} lines can name the program of the most similar
 * known map. {@code main} prints both keys and the features for map files: {@code java -cp microrts.jar:microsynth.jar
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

    /** Names of the features, in the order of {@link #features}. */
    public static final String[] FEATURES = {"width", "height", "bases", "workers", "resources", "distance",
        "walls"};

    /**
     * Features of a map, for choosing a program on a map no fingerprint
     * names: width, height, bases and workers per player (the mean of both),
     * resource fields, the Manhattan distance between the two players'
     * nearest bases (between their nearest units without bases; width +
     * height without units), and the share of wall cells.
     */
    public static double[] features(GameState gs) {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        int w = pgs.getWidth(), h = pgs.getHeight();
        int bases = 0, workers = 0, resources = 0, walls = 0;
        List<Unit> p0 = new ArrayList<>(), p1 = new ArrayList<>();
        List<Unit> b0 = new ArrayList<>(), b1 = new ArrayList<>();
        for (Unit u : pgs.getUnits()) {
            String n = u.getType().name;
            if (u.getType().isResource) {
                resources++;
                continue;
            }
            boolean base = n.equals("Base");
            if (base) {
                bases++;
            } else if (n.equals("Worker")) {
                workers++;
            }
            if (u.getPlayer() == 0) {
                p0.add(u);
                if (base) {
                    b0.add(u);
                }
            } else if (u.getPlayer() == 1) {
                p1.add(u);
                if (base) {
                    b1.add(u);
                }
            }
        }
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                walls += pgs.getTerrain(x, y) == PhysicalGameState.TERRAIN_NONE ? 0 : 1;
            }
        }
        int d = !b0.isEmpty() && !b1.isEmpty() ? nearest(b0, b1) : !p0.isEmpty() && !p1.isEmpty() ? nearest(p0, p1)
                : w + h;
        return new double[] {w, h, bases / 2.0, workers / 2.0, resources, d, walls / (double) (w * h)};
    }

    private static int nearest(List<Unit> a, List<Unit> b) {
        int best = Integer.MAX_VALUE;
        for (Unit u : a) {
            for (Unit v : b) {
                best = Math.min(best, Math.abs(u.getX() - v.getX()) + Math.abs(u.getY() - v.getY()));
            }
        }
        return best;
    }

    /**
     * How far apart two maps' features are: size on a log scale (a map
     * twice as wide counts 1), bases and workers per player, resource fields
     * per 64 cells, base distance relative to the map's side, wall share.
     * The weights make "twice the size" and "one more base" weigh about the
     * same; they were set by hand, not fitted.
     */
    public static double distance(double[] a, double[] b) {
        double d = Math.abs(log2(a[0]) - log2(b[0])) + Math.abs(log2(a[1]) - log2(b[1]));
        d += Math.abs(a[2] - b[2]) + 0.5 * Math.abs(a[3] - b[3]);
        d += 0.5 * Math.abs(64 * a[4] / (a[0] * a[1]) - 64 * b[4] / (b[0] * b[1]));
        d += 2 * Math.abs(a[5] / Math.max(a[0], a[1]) - b[5] / Math.max(b[0], b[1]));
        d += 4 * Math.abs(a[6] - b[6]);
        return d;
    }

    private static double log2(double x) {
        return Math.log(Math.max(x, 1)) / Math.log(2);
    }

    /** The features as an index line's numbers: "W H BASES WORKERS RESOURCES DISTANCE WALLS". */
    public static String featureText(double[] f) {
        return String.format(java.util.Locale.ROOT, "%d %d %s %s %d %d %.3f", (int) f[0], (int) f[1], trim(f[2]),
                trim(f[3]), (int) f[4], (int) f[5], f[6]);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Integer.toString((int) v) : Double.toString(v);
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
            System.out.println(full(gs) + " " + terrain(pgs) + " near " + featureText(features(gs)) + " " + m);
        }
    }
}
