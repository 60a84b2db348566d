package ai.microsynth.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import rts.units.UnitTypeTable;

/**
 * What Evaluate and League share (neither runner calls the other): the
 * competitions' map sets and game lengths, where a map is found, the held-out
 * check against the program index, the game lines of an official tournament
 * log and the score of a win/draw/loss count.
 */
final class Competition {
    private Competition() {
    }

    /** The 2025 competition's public 16x16 maps (played for 5000 cycles). */
    static final String[] MAPS_2025 = {"16x16/basesWorkers16x16A.xml", "16x16/TwoBasesBarracks16x16.xml",
        "16x16/basesWorkers16x16I.xml", "16x16/basesWorkers16x16.xml", "16x16/basesWorkers16x16D.xml",
        "16x16/EightBasesWorkers16x16.xml", "16x16/basesWorkers16x16C.xml", "16x16/melee16x16Mixed8.xml",
        "16x16/basesWorkers16x16L.xml", "16x16/melee16x16Mixed12.xml"};
    /** The 2023 competition's open maps. */
    static final String[] MAPS_2023 = {"8x8/basesWorkers8x8A.xml", "8x8/FourBasesWorkers8x8.xml",
        "NoWhereToRun9x8.xml", "16x16/basesWorkers16x16A.xml", "16x16/TwoBasesBarracks16x16.xml",
        "DoubleGame24x24.xml", "BWDistantResources32x32.xml", "BroodWar/(4)BloodBath.scmB.xml"};
    /** The 2023 competition's hidden maps (public since). */
    static final String[] MAPS_2023_HIDDEN = {"itsNotSafe.xml", "24x24/basesWorkers24x24A.xml",
        "basesWorkers32x32A.xml", "chambers32x32.xml"};
    /**
     * Harness maps that no synthesis run of ours used: sizes from 8x8 to
     * 24x24, open and walled, one or two bases each. `evaluate` refuses the
     * set if the program index names one of them as trained on.
     */
    static final String[] MAPS_HELD_OUT = {"8x8/basesWorkers8x8L.xml", "8x8/TwoBasesWorkers8x8.xml",
        "10x10/basesWorkers10x10.xml", "12x12/basesWorkers12x12.xml", "16x16/basesWorkers16x16F.xml",
        "16x16/basesWorkers16x16K.xml", "24x24/basesWorkers24x24B.xml", "24x24/basesWorkers24x24H.xml",
        "EightBasesWorkers16x12.xml", "melee14x12Mixed18.xml"};

    /** Round 4's fresh held-out set (the rule that chose it: games/microrts/match/competition.c). */
    static final String[] MAPS_FRESH = {"8x8/basesWorkers8x8D.xml", "8x8/basesWorkers8x8K.xml",
        "12x12/basesWorkers12x12C.xml", "12x12/basesWorkers12x12L.xml", "16x16/basesWorkers16x16J.xml",
        "24x24/basesWorkers24x24F.xml", "24x24/basesWorkers24x24L.xml"};

    /** The sets `--maps` names, in the order the C library lists them. */
    static final String[] SETS = {"2025", "2023", "2023-hidden", "held-out", "fresh"};
    /** The 2025 competition's game length on its maps. */
    static final int CYCLES_2025 = 5000;

    /** The maps of a named set, null for another name. */
    static String[] maps(String set) {
        switch (set) {
        case "2025":
            return MAPS_2025;
        case "2023":
            return MAPS_2023;
        case "2023-hidden":
            return MAPS_2023_HIDDEN;
        case "held-out":
            return MAPS_HELD_OUT;
        case "fresh":
            return MAPS_FRESH;
        default:
            return null;
        }
    }

    /** A set's own game length; 0 when the length goes by map size. */
    static int setCycles(String set) {
        return set.equals("2025") ? CYCLES_2025 : 0;
    }

    /** The competition's game length for a map of this size. */
    static int cyclesFor(int w, int h) {
        int side = Math.max(w, h);
        return side <= 8 ? 3000 : side <= 16 ? 4000 : side <= 24 ? 5000 : side <= 32 ? 6000 : 8000;
    }

    /** The game length of a map: read its size from the file. */
    static int cyclesFor(String path, UnitTypeTable table) throws Exception {
        rts.PhysicalGameState pgs = rts.PhysicalGameState.load(path, table);
        return cyclesFor(pgs.getWidth(), pgs.getHeight());
    }

    /** A map as Harness.resolveMap finds it, else under one of the --map-dir folders. */
    static File resolve(String map, File harness, List<File> dirs) throws Options.UsageException {
        try {
            return Harness.resolveMap(map, harness);
        } catch (Options.UsageException e) {
            for (File d : dirs) {
                File f = new File(d, map);
                if (f.isFile()) {
                    return f;
                }
            }
            throw new Options.UsageException(e.getMessage() + (dirs.isEmpty()
                    ? "; maps of the current official repository (basesWorkers32x32A.xml, ...) need --map-dir DIR"
                    : "; not under any --map-dir either"));
        }
    }

    static List<String> mapsOf(String set, Harness.Env env, String indexFile)
            throws IOException, Options.UsageException {
        String[] named = maps(set);
        if (named != null) {
            if (named == MAPS_HELD_OUT || named == MAPS_FRESH) {
                checkHeldOut(env, indexFile, named);
            }
            return Arrays.asList(named);
        }
        File f = new File(set);
        if (!f.isFile()) {
            throw new Options.UsageException("--maps: expected 2025, 2023, 2023-hidden, held-out, fresh or a file;"
                    + " no file " + set);
        }
        List<String> out = lines(f);
        if (out.isEmpty()) {
            throw new Options.UsageException("--maps " + set + ": no maps in the file");
        }
        return out;
    }

    /** Refuses the held-out set if the program index says a synthesis run used one of its maps. */
    private static void checkHeldOut(Harness.Env env, String indexFile, String[] set) throws IOException,
            Options.UsageException {
        List<String> trained = new ArrayList<>();
        try (BufferedReader r = openIndex(env, indexFile)) {
            if (r == null) {
                System.err.println("evaluate: no program index found; the held-out claim is unchecked");
                return;
            }
            String line;
            while ((line = r.readLine()) != null) {
                int hash = line.indexOf('#');
                String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (s.startsWith("trained ")) {
                    trained.add(s.substring("trained ".length()).trim());
                }
            }
        }
        for (String m : set) {
            if (trained.contains(m)) {
                throw new Options.UsageException("held-out map " + m
                        + " is listed as trained on in the program index");
            }
        }
        System.err.println("evaluate: held-out maps checked against " + trained.size()
                + " 'trained' lines of the program index");
    }

    static BufferedReader openIndex(Harness.Env env, String indexFile) throws IOException {
        if (indexFile != null) {
            return Files.newBufferedReader(new File(indexFile).toPath(), StandardCharsets.UTF_8);
        }
        try {
            Class<?> k = env.load(Harness.DROP_IN_CLASS);
            InputStream in = k.getResourceAsStream("/programs/index.txt");
            return in == null ? null : new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    static List<String> lines(File f) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(f.toPath(), StandardCharsets.UTF_8)) {
            int hash = line.indexOf('#');
            String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    static double score(int[] s) {
        int n = s[0] + s[1] + s[2];
        return n == 0 ? 0 : (s[0] + 0.5 * s[1]) / n;
    }
}
