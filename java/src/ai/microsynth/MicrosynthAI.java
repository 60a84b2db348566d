package ai.microsynth;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import ai.core.AI;
import ai.core.AIWithComputationBudget;
import ai.core.ParameterSpecification;
import rts.GameState;
import rts.PhysicalGameState;
import rts.Player;
import rts.PlayerAction;
import rts.UnitAction;
import rts.UnitActionAssignment;
import rts.units.Unit;
import rts.units.UnitType;
import rts.units.UnitTypeTable;

/**
 * A microsynth bot (a native scripted bot or, with the DSL, a synthesized
 * program) as an ordinary MicroRTS AI: drop {@code microsynth.jar} into a
 * tournament, or put it on {@code -cp} and name {@code ai.microsynth.MicrosynthAI}.
 * The decision is made by native code bundled in the jar; states cross as
 * int arrays (no text format), once per {@code getAction}.
 *
 * <p>What it plays (the "bot spec"): a native bot name ({@code LightRush},
 * {@code WorkerRush}, ...), {@code program:FILE}, or {@code auto} (the
 * default): the program that {@code programs/index.txt} in the jar names for
 * the map being played, recognised by its fingerprint ({@link MapFingerprint}),
 * else the index's {@code default} line, else {@value #FALLBACK_BOT}. The
 * system property {@value #PROPERTY_BOT} changes the default spec of the
 * {@code (UnitTypeTable)} constructor, for harnesses that can only name the
 * class (rts.MicroRTS, the GUI's tournament tab).
 *
 * <p>Contract with the harness (requirements J1-J11 of the interfaces spec):
 * one native handle per instance, freed by {@link #close()} or once the
 * instance is garbage (a phantom reference, polled when instances are made);
 * {@code getAction} never throws (a failure is printed once, counted, and
 * answered with an empty action); a spec that cannot be played fails at
 * construction with an {@link IllegalArgumentException} carrying the native
 * message; the native library is copied out of the jar to a private
 * temporary file per class loader, so several loaders can each load it.
 */
public class MicrosynthAI extends AIWithComputationBudget {
    /** The spec that picks the program by map fingerprint. */
    public static final String AUTO = "auto";
    /** Played when no index names anything. */
    public static final String FALLBACK_BOT = "LightRush";
    /** System property: default spec of the (UnitTypeTable) constructor. */
    public static final String PROPERTY_BOT = "microsynth.bot";
    /** System property: load the native library from this file instead of the jar. */
    public static final String PROPERTY_LIBRARY = "microsynth.jni.library";
    /** Resource of the program index inside the jar. */
    public static final String INDEX_RESOURCE = "/programs/index.txt";

    // Array formats shared with games/microrts/bridge/jni/jni_ai.h.
    private static final int PACK_VERSION = 1;
    private static final int STATE_HEADER = 6;
    private static final int UNIT_INTS = 8;
    private static final int PENDING_INTS = 10;
    private static final int PAIR_INTS = 6;

    // ------------------------------------------------------------------
    // Native library: one private copy per class loader.

    private static final String LOAD_ERROR = loadLibrary();

    private static native long nCreate(String spec, int[] utt, String[] names, long seed);

    private static native void nFree(long h);

    private static native void nSetBot(long h, String spec);

    private static native int nSetTable(long h, int[] utt, String[] names);

    private static native int nReset(long h);

    private static native int nSetMap(long h, int w, int hh, byte[] terrain);

    private static native int nDecide(long h, int player, int[] state, int len, int[] out);

    private static native int nGameOver(long h, int winner);

    private static native String nError(long h);

    private static native String nBotName(long h);

    private static native long nDecideNanos(long h);

    private static native void nCounters(long h, long[] out);

    // settings and figures: see nPregame in games/microrts/bridge/jni/jni_entry.c
    private static native String nPregame(long h, int[] state, int len, String[] candidates, String[] field,
            long[] settings, double[] figures);

    /** "linux-x86_64" and the like: the jar's folder for this JVM's library. */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            os = "linux";
        } else if (os.startsWith("mac") || os.startsWith("darwin")) {
            os = "darwin";
        } else if (os.startsWith("windows")) {
            os = "windows";
        } else {
            os = os.replaceAll("[^a-z0-9]", "");
        }
        if (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x86-64")) {
            arch = "x86_64";
        } else if (arch.equals("aarch64") || arch.equals("arm64")) {
            arch = "aarch64";
        }
        return os + "-" + arch;
    }

    private static String property(String key) {
        try {
            String v = System.getProperty(key);
            return v == null || v.trim().isEmpty() ? null : v.trim();
        } catch (SecurityException e) {
            return null;
        }
    }

    /** Copies a stream to a fresh owner-only temporary file. */
    private static File toTempFile(InputStream in, String prefix, String suffix) throws IOException {
        Path p = Files.createTempFile(prefix, suffix);
        try {
            Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(p);
            throw e;
        }
        return p.toFile();
    }

    /** System.load of a private copy, deleted as soon as it is mapped. */
    private static void loadCopy(InputStream in, String name) throws IOException {
        int dot = name.lastIndexOf('.');
        File tmp = toTempFile(in, "microsynth-" + (dot > 0 ? name.substring(0, dot) : name) + "-",
                dot > 0 ? name.substring(dot) : ".lib");
        try {
            System.load(tmp.getAbsolutePath());
        } finally {
            if (!tmp.delete()) {
                tmp.deleteOnExit(); // systems that keep a loaded library's file open
            }
        }
    }

    /** Null when loaded, else why not (reported at construction, never thrown here). */
    private static String loadLibrary() {
        String name = System.mapLibraryName("microsynth_jni");
        String explicit = property(PROPERTY_LIBRARY);
        try {
            if (explicit != null) {
                File f = new File(explicit);
                try {
                    System.load(f.getAbsolutePath());
                } catch (UnsatisfiedLinkError e) {
                    // The same file is bound to another class loader: load a copy.
                    if (!String.valueOf(e.getMessage()).contains("another classloader")) {
                        throw e;
                    }
                    try (InputStream in = new FileInputStream(f)) {
                        loadCopy(in, name);
                    }
                }
                return null;
            }
            String resource = "/native/" + platform() + "/" + name;
            InputStream in = MicrosynthAI.class.getResourceAsStream(resource);
            if (in == null) {
                try {
                    System.loadLibrary("microsynth_jni");
                    return null;
                } catch (UnsatisfiedLinkError e) {
                    return "the jar has no " + resource.substring(1) + " (this platform, " + platform()
                            + ", is not bundled) and java.library.path has none either (" + e.getMessage() + ")";
                }
            }
            try {
                loadCopy(in, name);
            } finally {
                in.close();
            }
            return null;
        } catch (Throwable t) {
            return t.toString();
        }
    }

    // ------------------------------------------------------------------
    // Handles: freed by close() or when the instance became unreachable.

    private static final ReferenceQueue<MicrosynthAI> GARBAGE = new ReferenceQueue<>();
    private static final Set<Handle> LIVE = Collections.synchronizedSet(new HashSet<Handle>());

    private static final class Handle extends PhantomReference<MicrosynthAI> {
        private long ptr;

        Handle(MicrosynthAI owner, long ptr) {
            super(owner, GARBAGE);
            this.ptr = ptr;
            LIVE.add(this);
        }

        synchronized long pointer() {
            return ptr;
        }

        synchronized void free() {
            if (ptr != 0) {
                nFree(ptr);
                ptr = 0;
            }
            LIVE.remove(this);
        }
    }

    /** Native handles not yet freed, in this class loader (a diagnostic). */
    public static int liveHandles() {
        return LIVE.size();
    }

    /** Frees the handles of instances that were collected. */
    private static void freeGarbage() {
        Reference<? extends MicrosynthAI> r;
        while ((r = GARBAGE.poll()) != null) {
            ((Handle) r).free();
        }
    }

    // ------------------------------------------------------------------
    // Program index (programs/index.txt): fingerprint -> spec.

    /** A parsed index: keys to specs, the default, and the lines it could not read. */
    static final class ProgramIndex {
        final Map<String, String> specs = new LinkedHashMap<>();
        String defaultSpec;
        // `unseen`: a portfolio template for maps no m:/t: key names (docs/portfolio.md)
        String unseenSpec;
        // `candidate` lines: programs for portfolios beyond those keyed to a map
        final List<String> candidates = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        // `near` lines: features of a known map and its spec, for maps no key names
        final List<double[]> near = new ArrayList<>();
        final List<String> nearSpecs = new ArrayList<>();
        // `made-for` lines: the edition each program was synthesized for (the pre-game search treats a
        // map whose program was made for another edition than the harness's as one it has no program for)
        final Map<String, Integer> madeFor = new HashMap<>();

        static ProgramIndex parse(BufferedReader r) throws IOException {
            ProgramIndex idx = new ProgramIndex();
            String line;
            int no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                int hash = line.indexOf('#');
                String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (s.isEmpty()) {
                    continue;
                }
                String[] kv = s.split("\\s+", 2);
                if (kv.length != 2) {
                    idx.problems.add("line " + no + ": expected 'KEY SPEC'");
                } else if (kv[0].equals("default")) {
                    idx.defaultSpec = kv[1].trim();
                } else if (kv[0].equals("candidate")) {
                    idx.candidates.add(kv[1].trim());
                } else if (kv[0].equals("unseen")) {
                    if (!kv[1].trim().startsWith("portfolio:")) {
                        idx.problems.add("line " + no + ": expected 'unseen portfolio:FILE'");
                    }
                    idx.unseenSpec = kv[1].trim();
                } else if (kv[0].matches("[mt]:[0-9a-f]{16}")) {
                    idx.specs.put(kv[0], kv[1].trim());
                } else if (kv[0].equals("trained")) {
                    continue; // a map some synthesis run used (for `evaluate --held-out`)
                } else if (kv[0].equals("made-for")) {
                    // the edition and game length a program was made for (`evaluate` warns from them too)
                    String[] f = kv[1].trim().split("\\s+");
                    for (int i = 1; i + 1 < f.length; i++) {
                        if (f[i].equals("edition") && f[i + 1].matches("\\d{4}")) {
                            idx.madeFor.put(f[0], Integer.parseInt(f[i + 1]));
                        }
                    }
                } else if (kv[0].equals("near")) {
                    String[] f = kv[1].trim().split("\\s+", 8);
                    double[] v = new double[7];
                    try {
                        if (f.length != 8) {
                            throw new NumberFormatException("expected 7 numbers and a spec");
                        }
                        for (int i = 0; i < 7; i++) {
                            v[i] = Double.parseDouble(f[i]);
                        }
                        if (v[0] < 1 || v[1] < 1) {
                            throw new NumberFormatException("width and height must be at least 1");
                        }
                    } catch (NumberFormatException e) {
                        idx.problems.add("line " + no + ": 'near W H BASES WORKERS RESOURCES DISTANCE WALLS SPEC': "
                                + e.getMessage());
                        continue;
                    }
                    idx.near.add(v);
                    idx.nearSpecs.add(f[7].trim());
                } else {
                    idx.problems.add("line " + no + ": key '" + kv[0] + "' is neither 'default' nor m:HEX16 / t:HEX16");
                }
            }
            return idx;
        }

        /** The spec for this state's map: full fingerprint (time 0 only), terrain, the nearest map, default. */
        String lookup(GameState gs) {
            String s = exact(gs);
            if (s == null) {
                s = nearest(gs);
            }
            return s != null ? s : defaultSpec;
        }

        /** The spec a key names for this map: full fingerprint (time 0 only), then terrain; null for none. */
        String exact(GameState gs) {
            String s = null;
            if (!specs.isEmpty() && gs.getTime() == 0) {
                s = specs.get(MapFingerprint.full(gs));
            }
            if (s == null && !specs.isEmpty()) {
                s = specs.get(MapFingerprint.terrain(gs.getPhysicalGameState()));
            }
            return s;
        }

        /** An unseen map: the spec of the most similar known map (first on ties); null without `near` lines. */
        String nearest(GameState gs) {
            String s = null;
            double[] f = MapFingerprint.features(gs);
            double best = Double.MAX_VALUE;
            for (int i = 0; i < near.size(); i++) {
                double d = MapFingerprint.distance(f, near.get(i));
                if (d < best) {
                    best = d;
                    s = nearSpecs.get(i);
                }
            }
            return s;
        }

        /** Every spec the index names, in its order, each once. */
        List<String> allSpecs() {
            Set<String> out = new java.util.LinkedHashSet<>();
            for (String v : specs.values()) {
                if (!v.startsWith("portfolio:")) {
                    out.add(v);
                }
            }
            out.addAll(nearSpecs);
            out.addAll(candidates);
            return new ArrayList<>(out);
        }
    }

    private static volatile ProgramIndex jarIndex;
    private static final Object JAR_INDEX_LOCK = new Object();
    private static final Map<String, String> JAR_PROGRAMS = new HashMap<>();

    /** The jar's index (read once per class loader), or null when the jar ships none. */
    private static ProgramIndex jarIndex() throws IOException {
        ProgramIndex idx = jarIndex;
        if (idx == null) {
            synchronized (JAR_INDEX_LOCK) {
                if (jarIndex == null) {
                    InputStream in = MicrosynthAI.class.getResourceAsStream(INDEX_RESOURCE);
                    if (in == null) {
                        jarIndex = new ProgramIndex();
                    } else {
                        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                            jarIndex = ProgramIndex.parse(r);
                        }
                    }
                }
                idx = jarIndex;
            }
        }
        return idx;
    }

    /** The text of a program shipped in the jar (read once per class loader). */
    private static String jarProgram(String path) throws IOException {
        synchronized (JAR_PROGRAMS) {
            String text = JAR_PROGRAMS.get(path);
            if (text == null) {
                InputStream in = MicrosynthAI.class.getResourceAsStream("/programs/" + path);
                if (in == null) {
                    throw new IOException("the jar has no programs/" + path);
                }
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    StringBuilder sb = new StringBuilder();
                    char[] buf = new char[8192];
                    int n;
                    while ((n = r.read(buf)) > 0) {
                        sb.append(buf, 0, n);
                    }
                    text = sb.toString();
                }
                JAR_PROGRAMS.put(path, text);
            }
            return text;
        }
    }

    /** Wall-clock times of getAction calls, in nanoseconds (a growing array; 8 bytes a decision). */
    static final class DecisionClock {
        private long[] ns = new long[1024], nativeNs = new long[1024];
        private int n;
        private long failures; // of this AI and its clones
        // pre-game synthesis of this AI and its clones: calls, milliseconds spent, searches run,
        // evaluations, programs reused from the cache, searches that failed (today's choice played)
        private long pregameCalls, pregameMs, pregameRuns, pregameEvals, pregameReused, pregameFailed, pregameSwitches;

        synchronized void pregame(long ms, boolean ran, long evals, boolean reused, boolean failed, boolean switched) {
            pregameSwitches += switched ? 1 : 0;
            pregameCalls++;
            pregameMs += ms;
            pregameRuns += ran ? 1 : 0;
            pregameEvals += evals;
            pregameReused += reused ? 1 : 0;
            pregameFailed += failed ? 1 : 0;
        }

        synchronized long[] pregame() {
            return new long[] {pregameCalls, pregameMs, pregameRuns, pregameEvals, pregameReused, pregameFailed,
                pregameSwitches};
        }

        synchronized void failed() {
            failures++;
        }

        synchronized long failures() {
            return failures;
        }

        synchronized void add(long t, long inNative) {
            if (n == ns.length) {
                ns = java.util.Arrays.copyOf(ns, n * 2);
                nativeNs = java.util.Arrays.copyOf(nativeNs, n * 2);
            }
            nativeNs[n] = inNative;
            ns[n++] = t;
        }

        synchronized long[] copy() {
            return java.util.Arrays.copyOf(ns, n);
        }

        synchronized long[] copyNative() {
            return java.util.Arrays.copyOf(nativeNs, n);
        }

        synchronized void clear() {
            n = 0;
        }
    }

    /** A spec as shown (getPlaying, messages) and as the native side reads it. */
    private static final class Spec {
        final String shown, forNative;

        Spec(String shown, String nativeSpec) {
            this.shown = shown;
            this.forNative = nativeSpec;
        }
    }

    // ------------------------------------------------------------------
    // Instance state

    private UnitTypeTable utt;
    private String bot;       // as configured: AUTO or a spec
    private long seed;
    private String index = ""; // index file; "" = the jar's
    private Handle handle;
    private Spec playing;     // what the native bot plays

    // per game
    private boolean newGame = true;
    private int lastTime = -1;
    private UnitTypeTable tableSent;
    private Object terrainKey; // the terrain array (or a copy) last sent
    private int mapW = -1, mapH = -1;

    // scratch, reused across decisions
    private int[] pack = new int[256];
    private int[] reply = new int[64];
    private Unit[] units = new Unit[32];
    private final long[] counters = new long[2];

    // decision times (whole getAction), shared with this AI's clones: the
    // official tournaments play clones, and `evaluate` reads the original
    private DecisionClock clock = new DecisionClock();

    // failures
    private long failures;
    private String firstFailure, lastFailure;

    /** Plays the default spec: system property {@value #PROPERTY_BOT}, else {@value #AUTO}. */
    public MicrosynthAI(UnitTypeTable utt) {
        this(utt, defaultSpec());
    }

    /** Plays {@code bot}: a native bot name, {@code program:FILE} or {@value #AUTO}. */
    public MicrosynthAI(UnitTypeTable utt, String bot) {
        this(utt, bot, 0L);
    }

    /** As above; {@code seed} seeds the bot's own generator (bots that draw numbers). */
    public MicrosynthAI(UnitTypeTable utt, String bot, long seed) {
        this(utt, bot, seed, "", 100, -1);
    }

    /** As above with the computation budgets of AIWithComputationBudget. */
    public MicrosynthAI(UnitTypeTable utt, String bot, int timeBudget, int iterationsBudget) {
        this(utt, bot, 0L, "", timeBudget, iterationsBudget);
    }

    private MicrosynthAI(UnitTypeTable utt, String bot, long seed, String index, int timeBudget,
            int iterationsBudget) {
        super(timeBudget, iterationsBudget);
        if (LOAD_ERROR != null) {
            throw new IllegalStateException("microsynth: the native library could not be loaded: " + LOAD_ERROR);
        }
        if (utt == null) {
            throw new IllegalArgumentException("microsynth: no unit type table");
        }
        if (bot == null || bot.trim().isEmpty()) {
            throw new IllegalArgumentException("microsynth: empty bot spec (expected a native bot name, "
                    + "program:FILE or " + AUTO + ")");
        }
        freeGarbage();
        this.utt = utt;
        this.bot = bot.trim();
        this.seed = seed;
        this.index = index == null ? "" : index;
        Spec spec = resolve(initialSpec());
        long h;
        try {
            h = nCreate(spec.forNative, packTable(utt), typeNames(utt), seed);
        } catch (IllegalArgumentException e) {
            throw spec.shown.equals(spec.forNative) ? e
                    : new IllegalArgumentException("microsynth: " + spec.shown + ": " + e.getMessage(), e);
        }
        this.handle = new Handle(this, h);
        this.playing = spec;
        this.tableSent = utt;
    }

    private static String defaultSpec() {
        String p = property(PROPERTY_BOT);
        return p != null ? p : AUTO;
    }

    // ------------------------------------------------------------------
    // Specs

    private boolean auto() {
        return bot.equalsIgnoreCase(AUTO);
    }

    private ProgramIndex loadIndex() throws IOException {
        if (index.isEmpty()) {
            return jarIndex();
        }
        File f = new File(index);
        try (BufferedReader r = Files.newBufferedReader(f.toPath(), StandardCharsets.UTF_8)) {
            return ProgramIndex.parse(r);
        }
    }

    /** The spec to start with: the configured one, or the index's default under AUTO. */
    private String initialSpec() {
        if (!auto()) {
            return bot;
        }
        ProgramIndex idx;
        try {
            idx = loadIndex();
        } catch (IOException e) {
            throw new IllegalArgumentException("microsynth: cannot read the program index "
                    + (index.isEmpty() ? "in the jar" : index) + ": " + e, e);
        }
        if (!idx.problems.isEmpty()) {
            throw new IllegalArgumentException("microsynth: program index " + (index.isEmpty() ? "in the jar" : index)
                    + ": " + String.join("; ", idx.problems));
        }
        return idx.defaultSpec != null ? idx.defaultSpec : FALLBACK_BOT;
    }

    /**
     * Turns a spec into one the native side reads. Under AUTO a relative
     * program or switch path is relative to the index: a file beside the index file,
     * or a program shipped in the jar (passed as program-text: or switch-text:).
     */
    private Spec resolve(String spec) {
        // a program, or an opponent switch (docs/switch.md): both are files
        String p = spec.regionMatches(true, 0, "switch:", 0, 7) ? "switch:"
                : spec.regionMatches(true, 0, "portfolio:", 0, 10) ? "portfolio:" : "program:";
        if (!auto() || !spec.regionMatches(true, 0, p, 0, p.length())) {
            return new Spec(spec, spec);
        }
        String path = spec.substring(p.length()).trim();
        if (new File(path).isAbsolute()) {
            return new Spec(spec, spec);
        }
        if (!index.isEmpty()) {
            File f = new File(new File(index).getAbsoluteFile().getParentFile(), path);
            return new Spec(p + f.getPath(), p + f.getPath());
        }
        try {
            return new Spec(p + "programs/" + path + " (in the jar)", p.replace(":", "-text:") + jarProgram(path));
        } catch (IOException e) {
            throw new IllegalArgumentException("microsynth: program " + path + ": " + e.getMessage(), e);
        }
    }

    /** At the start of a game under AUTO: switch to the program the index names for this map. */
    private void chooseProgram(long h, GameState gs) {
        if (!auto()) {
            return;
        }
        Spec spec;
        try {
            ProgramIndex idx = loadIndex();
            if (!idx.problems.isEmpty()) {
                failed("program index " + index, new IllegalArgumentException(String.join("; ", idx.problems)));
            }
            String s = idx.exact(gs);
            if (s != null && s.startsWith("portfolio:")) {
                spec = portfolio(idx, s, gs);
            } else if (s == null && idx.unseenSpec != null) {
                spec = portfolio(idx, idx.unseenSpec, gs);
            } else {
                s = s != null ? s : idx.lookup(gs);
                spec = resolve(s != null ? s : FALLBACK_BOT);
            }
        } catch (IOException | RuntimeException e) {
            failed("choosing the program for this map", e);
            return;
        }
        if (!spec.forNative.equals(playing.forNative)) {
            try {
                nSetBot(h, spec.forNative);
                playing = spec;
            } catch (RuntimeException e) {
                failed("switching to " + spec.shown + " (still playing " + playing.shown + ")", e);
            }
        }
    }

    /**
     * A portfolio (docs/portfolio.md): the template `pspec` names (settings,
     * and optionally `opening SPEC`), every program the index ships as a
     * candidate, and as the opening the template's, else the nearest known
     * map's program.
     */
    private Spec portfolio(ProgramIndex idx, String pspec, GameState gs) throws IOException {
        Spec template = resolve(pspec);
        StringBuilder settings = new StringBuilder();
        String opening = null;
        for (String line : Portfolio.textOf(template.forNative, "portfolio").split("\n")) {
            String t = line.trim();
            if (t.startsWith("opening ")) {
                opening = t.substring(8).trim();
            } else {
                settings.append(line).append('\n');
            }
        }
        if (opening == null) {
            opening = idx.nearest(gs);
        }
        List<String> names = idx.allSpecs();
        if (opening != null && !names.contains(opening)) {
            names.add(0, opening);
        }
        List<String> specs = new ArrayList<>();
        for (String s : names) {
            specs.add(resolve(s).forNative);
        }
        String first = opening != null ? resolve(opening).forNative : specs.isEmpty() ? FALLBACK_BOT : specs.get(0);
        String text = Portfolio.assemble(settings.toString(), specs, names, first, Portfolio.harnessEdition());
        return new Spec(template.shown + " (opening " + (opening != null ? opening : "-") + ")", "portfolio-text:" + text);
    }

    // ------------------------------------------------------------------
    // Packing (formats in games/microrts/bridge/jni/jni_ai.h)

    static int[] packTable(UnitTypeTable t) {
        List<UnitType> types = t.getUnitTypes();
        int n = 3;
        for (UnitType u : types) {
            n += 18 + 1 + u.produces.size() + 1 + u.producedBy.size();
        }
        int[] p = new int[n];
        int at = 0;
        p[at++] = PACK_VERSION;
        p[at++] = t.getMoveConflictResolutionStrategy();
        p[at++] = types.size();
        for (UnitType u : types) {
            p[at++] = u.ID;
            p[at++] = u.cost;
            p[at++] = u.hp;
            p[at++] = u.minDamage;
            p[at++] = u.maxDamage;
            p[at++] = u.attackRange;
            p[at++] = u.produceTime;
            p[at++] = u.moveTime;
            p[at++] = u.attackTime;
            p[at++] = u.harvestTime;
            p[at++] = u.returnTime;
            p[at++] = u.harvestAmount;
            p[at++] = u.sightRadius;
            p[at++] = u.isResource ? 1 : 0;
            p[at++] = u.isStockpile ? 1 : 0;
            p[at++] = u.canHarvest ? 1 : 0;
            p[at++] = u.canMove ? 1 : 0;
            p[at++] = u.canAttack ? 1 : 0;
            p[at++] = u.produces.size();
            for (UnitType q : u.produces) {
                p[at++] = q.ID;
            }
            p[at++] = u.producedBy.size();
            for (UnitType q : u.producedBy) {
                p[at++] = q.ID;
            }
        }
        return p;
    }

    static String[] typeNames(UnitTypeTable t) {
        List<UnitType> types = t.getUnitTypes();
        String[] names = new String[types.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = types.get(i).name;
        }
        return names;
    }

    private static final Field TERRAIN_FIELD = terrainField();

    private static Field terrainField() {
        try {
            Field f = PhysicalGameState.class.getDeclaredField("terrain");
            f.setAccessible(true);
            return f.getType() == int[].class ? f : null;
        } catch (Exception | LinkageError e) {
            return null; // fall back to reading cell by cell
        }
    }

    /** Sends the terrain when it is not the one the native side has. */
    private void sendMap(long h, PhysicalGameState pgs) {
        int w = pgs.getWidth(), hh = pgs.getHeight();
        Object key = null;
        if (TERRAIN_FIELD != null) {
            try {
                key = TERRAIN_FIELD.get(pgs);
            } catch (IllegalAccessException | RuntimeException e) {
                key = null;
            }
        }
        // Within a game every view shares one terrain array.
        if (key != null && key == terrainKey && w == mapW && hh == mapH) {
            return;
        }
        byte[] t = new byte[w * hh];
        for (int y = 0, i = 0; y < hh; y++) {
            for (int x = 0; x < w; x++, i++) {
                t[i] = (byte) (pgs.getTerrain(x, y) == PhysicalGameState.TERRAIN_NONE ? 0 : 1);
            }
        }
        if (key == null && w == mapW && hh == mapH && terrainKey instanceof byte[]
                && java.util.Arrays.equals((byte[]) terrainKey, t)) {
            return;
        }
        check(h, nSetMap(h, w, hh, t));
        terrainKey = key != null ? key : t;
        mapW = w;
        mapH = hh;
    }

    private void sendTable(long h, UnitTypeTable t) {
        if (t != tableSent) {
            check(h, nSetTable(h, packTable(t), typeNames(t)));
            tableSent = t;
        }
    }

    private static void check(long h, int rc) {
        if (rc < 0) {
            throw new IllegalStateException(nError(h));
        }
    }

    /** Packs the state into `pack` (units into `units`); returns the length. */
    private int packState(GameState gs, PhysicalGameState pgs) {
        List<Unit> us = pgs.getUnits();
        Map<Unit, UnitActionAssignment> pending = gs.getUnitActions();
        int nu = us.size(), np = pending.size();
        int len = STATE_HEADER + nu * UNIT_INTS + np * PENDING_INTS;
        if (pack.length < len) {
            pack = new int[len + len / 2];
        }
        if (units.length < nu) {
            units = new Unit[nu + nu / 2];
        }
        int[] p = pack;
        Player p0 = pgs.getPlayer(0), p1 = pgs.getPlayer(1);
        p[0] = gs.getTime();
        p[1] = p0.getResources();
        p[2] = p1.getResources();
        p[3] = nu;
        p[4] = np;
        p[5] = 0;
        int at = STATE_HEADER;
        for (int i = 0; i < nu; i++) {
            Unit u = us.get(i);
            long id = u.getID();
            units[i] = u;
            p[at] = u.getType().ID;
            p[at + 1] = u.getPlayer();
            p[at + 2] = (int) id;
            p[at + 3] = (int) (id >>> 32);
            p[at + 4] = u.getX();
            p[at + 5] = u.getY();
            p[at + 6] = u.getResources();
            p[at + 7] = u.getHitPoints();
            at += UNIT_INTS;
        }
        for (UnitActionAssignment a : pending.values()) {
            Unit u = a.unit;
            UnitAction ua = a.action;
            long id = u.getID();
            UnitType made = ua.getUnitType();
            boolean attack = ua.getType() == UnitAction.TYPE_ATTACK_LOCATION;
            p[at] = u.getX();
            p[at + 1] = u.getY();
            p[at + 2] = (int) id;
            p[at + 3] = (int) (id >>> 32);
            p[at + 4] = a.time;
            p[at + 5] = ua.getType();
            p[at + 6] = ua.getDirection();
            p[at + 7] = attack ? ua.getLocationX() : -1;
            p[at + 8] = attack ? ua.getLocationY() : -1;
            p[at + 9] = made == null ? -1 : made.ID;
            at += PENDING_INTS;
        }
        return at;
    }

    private static UnitAction toAction(int[] r, int at, UnitTypeTable t) {
        int type = r[at + 1], parameter = r[at + 2];
        switch (type) {
        case UnitAction.TYPE_ATTACK_LOCATION:
            return new UnitAction(type, r[at + 3], r[at + 4]);
        case UnitAction.TYPE_PRODUCE:
            // Looked up in the game's own table: legality compares type objects.
            return new UnitAction(type, parameter, t.getUnitTypes().get(r[at + 5]));
        default:
            return new UnitAction(type, parameter);
        }
    }

    // ------------------------------------------------------------------
    // AI

    private long live() {
        long h = handle == null ? 0 : handle.pointer();
        if (h == 0) {
            throw new IllegalStateException("microsynth: this AI was closed");
        }
        return h;
    }

    /** Prints the first failure, counts the others (statisticsString shows them). */
    private void failed(String what, Throwable t) {
        String msg = what + ": " + (t.getMessage() != null ? t.getMessage() : t.toString());
        failures++;
        clock.failed();
        lastFailure = msg;
        if (firstFailure == null) {
            firstFailure = msg;
            System.err.println("MicrosynthAI(" + bot + "): " + msg
                    + " (this AI does nothing where it fails; further failures are counted, not printed)");
        }
    }

    /** Game start (first decision, pre-game analysis, or time going back): program and table. */
    private void startGame(long h, GameState gs) {
        if (lastTime >= 0) {
            check(h, nReset(h)); // a new game without reset() (the GUI's States tab)
        }
        newGame = false;
        chooseProgram(h, gs);
    }

    private PlayerAction decide(int player, GameState gs) {
        long h = live();
        if (newGame || gs.getTime() < lastTime) {
            startGame(h, gs);
        }
        lastTime = gs.getTime();
        UnitTypeTable t = gs.getUnitTypeTable();
        sendTable(h, t);
        PhysicalGameState pgs = gs.getPhysicalGameState();
        sendMap(h, pgs);
        int len = packState(gs, pgs);
        int need = Math.max(1, pgs.getUnits().size()) * PAIR_INTS;
        if (reply.length < need) {
            reply = new int[need + need / 2];
        }
        int n = nDecide(h, player, pack, len, reply);
        if (n < 0) {
            throw new IllegalStateException(nError(h));
        }
        PlayerAction pa = new PlayerAction();
        for (int i = 0, at = 0; i < n; i++, at += PAIR_INTS) {
            pa.addUnitAction(units[reply[at]], toAction(reply, at, t));
        }
        return pa;
    }

    /** Never throws: a failure gives an empty action (the units do nothing this cycle). */
    @Override
    public synchronized PlayerAction getAction(int player, GameState gs) {
        long t0 = System.nanoTime();
        try {
            return decide(player, gs);
        } catch (Throwable t) {
            failed("getAction for player " + player + (gs != null ? " at cycle " + gs.getTime() : ""), t);
            return new PlayerAction();
        } finally {
            java.util.Arrays.fill(units, null); // do not keep the game's units alive
            long h = handle == null ? 0 : handle.pointer();
            clock.add(System.nanoTime() - t0, h == 0 ? -1 : nDecideNanos(h));
        }
    }

    @Override
    public synchronized void preGameAnalysis(GameState gs, long milliseconds) {
        pregame(gs, milliseconds, null);
    }

    @Override
    public synchronized void preGameAnalysis(GameState gs, long milliseconds, String readWriteFolder) {
        pregame(gs, milliseconds, readWriteFolder);
    }

    private void pregame(GameState gs, long milliseconds, String folder) {
        long t0 = System.nanoTime();
        try {
            long h = live();
            startGame(h, gs);
            lastTime = gs.getTime();
            sendTable(h, gs.getUnitTypeTable());
            sendMap(h, gs.getPhysicalGameState());
            // Warm-up that leaves the bot alone (a decision would draw from
            // its generator): the packing path and the classes of a reply,
            // so the first getAction is not the one paying for loading them.
            packState(gs, gs.getPhysicalGameState());
            new PlayerAction().addUnitAction(units.length > 0 && units[0] != null ? units[0]
                    : gs.getUnits().isEmpty() ? null : gs.getUnits().get(0), new UnitAction(UnitAction.TYPE_NONE, 1));
            synthesize(h, gs, milliseconds - (System.nanoTime() - t0) / 1000000, folder);
        } catch (Throwable t) {
            failed("preGameAnalysis", t);
        } finally {
            java.util.Arrays.fill(units, null);
        }
    }

    // ------------------------------------------------------------------
    // Pre-game synthesis (docs/competition.md, "Pre-game synthesis")

    /** System property: unseen (default: maps without a program of their own), always, or off. */
    public static final String PROPERTY_PREGAME = "microsynth.pregame";
    /** System property: threads of the pre-game search (default: the processors the JVM sees). */
    public static final String PROPERTY_PREGAME_THREADS = "microsynth.pregame.threads";
    /** System property: the native bots the pre-game search plays against, comma-separated (default: the library's). */
    public static final String PROPERTY_PREGAME_FIELD = "microsynth.pregame.field";
    /** System property: the game length to synthesize for (default: the competitions' by map size). */
    public static final String PROPERTY_MAX_CYCLES = "microsynth.maxCycles";
    /** Below this many milliseconds (after the margin) no search starts. */
    static final long PREGAME_MIN_MS = 1000;
    /** Folder of the cached programs inside the read/write folder. */
    static final String PREGAME_DIR = "microsynth-pregame";
    /** How a cached pre-game answer that is an opponent switch begins (else it is a program). */
    static final String SWITCH_MAGIC = "microsynth-switch";
    /** System property: the pre-game budget's share, in thousandths, for the cases of an opponent switch (300; 0: none). */
    public static final String PROPERTY_PREGAME_CASES = "microsynth.pregame.cases";
    // Without a read/write folder (the two-argument call), programs are kept for this class loader.
    private static final Map<String, String> PREGAME_MEMORY = new java.util.concurrent.ConcurrentHashMap<>();

    /** The milliseconds a search may use of a budget: 5% (at least 250 ms) kept for the rest of the call. */
    static long pregameUsable(long budget) {
        return budget - Math.max(250, budget / 20);
    }

    private static int intProperty(String key, int dflt) {
        String v = property(key);
        try {
            return v == null ? dflt : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /** The cache key: the map at time 0 (size, terrain, stocks, units), the edition and the game length. */
    static String pregameKey(GameState gs, int edition, int cycles) {
        return MapFingerprint.full(gs).substring(2) + "-e" + edition + "-c" + cycles;
    }

    /** A cached program's text without its '#' header lines (the exact-tree form admits no comment). */
    static String programBody(String text) {
        StringBuilder b = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.trim().startsWith("#")) {
                b.append(line).append('\n');
            }
        }
        return b.toString().trim();
    }

    private static File pregameFile(String folder, String key) {
        return new File(new File(folder, PREGAME_DIR), key + ".ms");
    }

    private static String readText(File f) throws IOException {
        return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
    }

    /** Where the search started: a candidate, or (past the candidates) one of the library's archetype rushes. */
    static String startName(int start, int candidates) {
        return start < 0 ? "a random program" : start < candidates ? "candidate " + start
                : "archetype " + (start - candidates);
    }

    /** The program texts of the index, to screen on this map (switches, portfolios and bot names are not programs). */
    private List<String> pregameCandidates(ProgramIndex idx) {
        List<String> out = new ArrayList<>();
        for (String spec : idx.allSpecs()) {
            if (!spec.regionMatches(true, 0, "program:", 0, 8)) {
                continue;
            }
            try {
                String n = resolve(spec).forNative;
                out.add(n.startsWith("program-text:") ? n.substring(13) : readText(new File(n.substring(8))));
            } catch (IOException | RuntimeException e) {
                // a candidate that cannot be read is left out; the others still compete
            }
        }
        return out;
    }

    /**
     * Under AUTO, on a map the index has no program for (or any map with
     * microsynth.pregame=always): plays the program cached for this map, and
     * with at least PREGAME_MIN_MS to spend synthesizes one (from the cached
     * one and the index's programs) and caches it. Any failure leaves
     * today's choice (or the cached program) in play.
     */
    private void synthesize(long h, GameState gs, long budget, String folder) {
        String mode = property(PROPERTY_PREGAME);
        mode = mode == null ? "unseen" : mode.toLowerCase(Locale.ROOT);
        if (!auto() || mode.equals("off") || gs.getTime() != 0) {
            return;
        }
        long t0 = System.nanoTime();
        int edition = Portfolio.harnessEdition();
        int cycles = Math.max(0, intProperty(PROPERTY_MAX_CYCLES, 0));
        String key = pregameKey(gs, edition, cycles);
        File file = folder == null || folder.isEmpty() ? null : pregameFile(folder, key);
        String cached = null;
        try {
            cached = file != null ? (file.isFile() ? readText(file) : null) : PREGAME_MEMORY.get(key);
        } catch (IOException | RuntimeException e) {
            failed("reading the pre-game program " + file, e);
        }
        ProgramIndex idx;
        try {
            idx = loadIndex();
        } catch (IOException e) {
            failed("pre-game synthesis: the program index", e);
            return;
        }
        String own = gs.getTime() == 0 ? idx.specs.get(MapFingerprint.full(gs)) : null;
        Integer madeFor = own == null ? null : idx.madeFor.get(own);
        // a program made for another edition than the harness's plays another game: search, with it as a candidate
        boolean known = own != null && (madeFor == null || madeFor == edition);
        if (known && cached == null && !mode.equals("always")) {
            return;
        }
        long usable = pregameUsable(budget);
        String text = cached;
        boolean ran = false, broke = false, switched = false;
        long evals = 0;
        if (usable >= PREGAME_MIN_MS) {
            List<String> cands = new ArrayList<>();
            if (cached != null) {
                cands.add(programBody(cached));
            }
            cands.addAll(pregameCandidates(idx));
            int threads = Math.max(1, intProperty(PROPERTY_PREGAME_THREADS, Runtime.getRuntime().availableProcessors()));
            PhysicalGameState pgs = gs.getPhysicalGameState();
            int len = packState(gs, pgs);
            // shares in thousandths: the field search keeps half, the stochastic stage a fifth, the
            // opponents it still loses to get the rest as cases of an opponent switch (docs/switch.md)
            long[] settings = {usable, 0, threads, cycles, edition == 2023 ? 1 : 0, seed + 1, 200, 2,
                    intProperty(PROPERTY_PREGAME_CASES, 300), 4, 150};
            double[] figures = new double[15];
            String fieldList = property(PROPERTY_PREGAME_FIELD);
            String[] field = fieldList == null ? null : fieldList.split("\\s*,\\s*");
            String made = nPregame(h, pack, len, cands.toArray(new String[0]), field, settings, figures);
            ran = true;
            if (made == null) {
                broke = true;
                failed("pre-game synthesis", new IllegalStateException(nError(h)));
            } else {
                evals = (long) figures[6];
                switched = made.startsWith(SWITCH_MAGIC);
                text = "# microsynth pre-game program: map " + MapFingerprint.full(gs) + ", edition " + edition
                        + ", game length " + (cycles > 0 ? cycles : "by map size") + "\n# psi " + figures[0]
                        + " (stochastic stage " + figures[1] + "), started from " + startName((int) figures[3], cands.size())
                        + " (psi " + figures[2] + "), " + evals + " evaluations in " + figures[9] + " s, "
                        + threads + " threads\n# check: " + (int) figures[12] + " games, program "
                        + figures[13] + (made.startsWith(SWITCH_MAGIC) ? ", switch " + figures[14] + " with "
                        + (int) figures[10] + " case programs" : ", no switch") + " (" + (long) figures[11]
                        + " case evaluations)\n" + made + "\n";
                try {
                    if (file != null) {
                        File dir = file.getParentFile();
                        if (!dir.isDirectory() && !dir.mkdirs()) {
                            throw new IOException("cannot make " + dir);
                        }
                        File tmp = new File(dir, key + ".tmp");
                        Files.write(tmp.toPath(), text.getBytes(StandardCharsets.UTF_8));
                        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        PREGAME_MEMORY.put(key, text);
                    }
                } catch (IOException | RuntimeException e) {
                    failed("writing the pre-game program " + file, e);
                }
            }
        }
        if (text != null) {
            try {
                String program = programBody(text);
                String body = (program.startsWith(SWITCH_MAGIC) ? "switch-text:" : "program-text:") + program;
                nSetBot(h, body);
                playing = new Spec("pre-game program " + key + (ran && !broke ? "" : " (cached)"), body);
            } catch (RuntimeException e) {
                broke = true;
                failed("playing the pre-game program (still playing " + playing.shown + ")", e);
            }
        }
        clock.pregame((System.nanoTime() - t0) / 1000000, ran, evals, !ran && text != null, broke,
                switched && !broke);
    }

    /**
     * Pre-game figures of this AI and its clones: calls, milliseconds spent
     * in them, searches run, evaluations made, programs taken from the cache
     * without a search, searches that failed, searches that made an opponent
     * switch.
     */
    public long[] pregameFigures() {
        return clock.pregame();
    }

    @Override
    public synchronized void gameOver(int winner) {
        try {
            long h = live();
            check(h, nGameOver(h, winner));
        } catch (Throwable t) {
            failed("gameOver", t);
        }
        endGame();
    }

    private void endGame() {
        newGame = true;
        lastTime = -1;
        terrainKey = null;
        mapW = mapH = -1;
    }

    @Override
    public synchronized void reset() {
        try {
            long h = live();
            check(h, nReset(h));
        } catch (Throwable t) {
            failed("reset", t);
        }
        endGame();
    }

    @Override
    public synchronized void reset(UnitTypeTable utt) {
        if (utt != null) {
            this.utt = utt;
            try {
                sendTable(live(), utt);
            } catch (Throwable t) {
                failed("reset(UnitTypeTable)", t);
            }
        }
        reset();
    }

    /** A fresh instance with the same configuration and its own native handle. */
    @Override
    public synchronized AI clone() {
        MicrosynthAI c = new MicrosynthAI(utt, bot, seed, index, getTimeBudget(), getIterationsBudget());
        c.clock = clock;
        return c;
    }

    @Override
    public List<ParameterSpecification> getParameters() {
        List<ParameterSpecification> ps = new ArrayList<>();
        ps.add(new ParameterSpecification("Bot", String.class, AUTO));
        ps.add(new ParameterSpecification("Program", String.class, ""));
        ps.add(new ParameterSpecification("Seed", long.class, 0L));
        ps.add(new ParameterSpecification("Index", String.class, ""));
        ps.add(new ParameterSpecification("TimeBudget", int.class, 100));
        ps.add(new ParameterSpecification("IterationsBudget", int.class, -1));
        return ps;
    }

    /** What it plays; throws IllegalArgumentException (native message) if it cannot. */
    public synchronized void setBot(String spec) {
        if (spec == null || spec.trim().isEmpty()) {
            throw new IllegalArgumentException("microsynth: empty bot spec");
        }
        String old = bot;
        bot = spec.trim();
        try {
            Spec s = resolve(initialSpec());
            try {
                nSetBot(live(), s.forNative);
            } catch (IllegalArgumentException e) {
                throw s.shown.equals(s.forNative) ? e
                        : new IllegalArgumentException("microsynth: " + s.shown + ": " + e.getMessage(), e);
            }
            playing = s;
            newGame = true;
        } catch (RuntimeException e) {
            bot = old;
            throw e;
        }
    }

    public synchronized String getBot() {
        return bot;
    }

    /**
     * Plays the program in {@code file} (the same as setBot("program:" + file));
     * an empty name changes nothing, so the GUI's default leaves Bot alone.
     * Throws IllegalArgumentException (the parser's message) for a broken program.
     */
    public synchronized void setProgram(String file) {
        if (file != null && !file.trim().isEmpty()) {
            setBot("program:" + file.trim());
        }
    }

    /** The program file being played, or "" when the spec is not program:FILE. */
    public synchronized String getProgram() {
        return bot.regionMatches(true, 0, "program:", 0, 8) ? bot.substring(8) : "";
    }

    /** The seed of the bot's own generator; the bot starts afresh with it. */
    public synchronized void setSeed(long seed) {
        live();
        long fresh = nCreate(playing.forNative, packTable(tableSent), typeNames(tableSent), seed);
        handle.free();
        handle = new Handle(this, fresh);
        this.seed = seed;
        endGame();
    }

    public synchronized long getSeed() {
        return seed;
    }

    /** The program index file for {@value #AUTO} ("" = the one in the jar). */
    public synchronized void setIndex(String index) {
        this.index = index == null ? "" : index.trim();
        newGame = true;
    }

    public synchronized String getIndex() {
        return index;
    }

    /** The spec the native bot plays now (after {@value #AUTO} resolution). */
    public synchronized String getPlaying() {
        return playing.shown;
    }

    /** The native bot's own name (e.g. "Switch" for an opponent switch, a program's or a bot's name). */
    public synchronized String nativeBotName() {
        long h = handle == null ? 0 : handle.pointer();
        return h == 0 ? "" : nBotName(h);
    }

    /** Nanoseconds the native bot took for its last decision (the rest of getAction is the bridge). */
    public synchronized long lastDecideNanos() {
        long h = handle == null ? 0 : handle.pointer();
        return h == 0 ? -1 : nDecideNanos(h);
    }

    /**
     * Wall-clock nanoseconds of every getAction call of this AI and its
     * clones so far (bridge included), in call order.
     */
    public long[] decisionNanos() {
        return clock.copy();
    }

    /**
     * As {@link #decisionNanos}, the part spent in the native bot's decision
     * (the rest is packing, the bridge, and whatever stopped the JVM thread).
     */
    public long[] decisionNativeNanos() {
        return clock.copyNative();
    }

    /** Failures of this AI and its clones (see {@link #failures}). */
    public long sharedFailures() {
        return clock.failures();
    }

    /** Forgets the decision times of this AI and its clones. */
    public void clearDecisionNanos() {
        clock.clear();
    }

    /** Failures so far (getAction and the other calls that never throw). */
    public synchronized long failures() {
        return failures;
    }

    /** The last failure's message, or null. */
    public synchronized String lastFailure() {
        return lastFailure;
    }

    /** Frees the native handle now; afterwards getAction does nothing. Idempotent. */
    public synchronized void close() {
        if (handle != null) {
            handle.free();
        }
    }

    @Override
    public synchronized String statisticsString() {
        long h = handle == null ? 0 : handle.pointer();
        if (h != 0) {
            nCounters(h, counters);
        }
        String s = "microsynth playing=" + playing.shown + " decisions=" + counters[0] + " dropped_pairs=" + counters[1]
                + " failures=" + failures;
        return lastFailure == null ? s : s + " last_failure=" + lastFailure;
    }

    @Override
    public String toString() {
        return "MicrosynthAI(" + bot + ")";
    }
}
