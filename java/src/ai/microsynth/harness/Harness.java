package ai.microsynth.harness;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import ai.core.AI;
import ai.core.AIWithComputationBudget;
import ai.microsynth.harness.Options.BotMode;
import ai.microsynth.harness.Options.UsageException;
import ai.socket.SocketAI;
import rts.GameState;
import rts.PlayerAction;
import rts.Trace;
import rts.TraceEntry;
import rts.units.UnitTypeTable;

/**
 * Shared plumbing of the harness runners: where the harness cache is, how
 * the competition bot jars are put on the class path, how short AI names are
 * resolved, and how AIs are built.
 *
 * Class-path arrangements ("bot modes"):
 * <ul>
 * <li>{@code flat} (default): one class loader over all jars of
 * {@code lib/bots}, in the order gym-microrts uses, whose parent is the
 * loader holding microrts.jar. Parent-first delegation makes this the same as
 * {@code -cp microrts.jar:Coac.jar:Droplet.jar:...:mayariBot.jar}: classes
 * that a bot jar bundles and microrts.jar also has come from microrts.jar,
 * and a class bundled by several bot jars comes from the first of them.</li>
 * <li>{@code isolated}: one class loader per bot jar, each with the
 * microrts.jar loader as parent (what the GUI's "Load JAR" does). Copies of a
 * class in different bot jars no longer shadow each other.</li>
 * <li>{@code none}: only the JVM class path ({@code -cp}), used as given.</li>
 * </ul>
 */
final class Harness {
    private Harness() {
    }

    /** Scripted bots of microrts.jar that the default probe list starts with. */
    static final List<String> BUILTIN_BOTS = Collections.unmodifiableList(Arrays.asList(
            "ai.abstraction.WorkerRush", "ai.abstraction.LightRush", "ai.abstraction.HeavyRush",
            "ai.abstraction.RangedRush", "ai.RandomBiasedAI", "ai.RandomAI", "ai.PassiveAI"));

    static final String AI_INTERNAL = "ai/core/AI";

    // ------------------------------------------------------------------
    // Harness directory and files

    /** --harness flag, else $MICROSYNTH_HARNESS, else ~/.cache/microsynth/harness. */
    static File harnessDir(String flag) {
        return Options.harnessDir(flag);
    }

    /**
     * A map path as given (absolute or relative to the working directory),
     * else relative to the harness directory, else relative to its maps/.
     */
    static File resolveMap(String path, File harness) throws UsageException {
        File f = new File(path);
        if (f.isFile()) {
            return f;
        }
        if (!f.isAbsolute()) {
            File a = new File(harness, path);
            if (a.isFile()) {
                return a;
            }
            File b = new File(new File(harness, "maps"), path);
            if (b.isFile()) {
                return b;
            }
        }
        throw new UsageException("map not found: " + path + " (also looked in " + harness + " and "
                + new File(harness, "maps") + ")");
    }

    /** lib/bots/*.jar of the harness in gym-microrts order. */
    static List<File> botJars(File harness) {
        return Launcher.botJarsNoMicrorts(harness);
    }

    // ------------------------------------------------------------------
    // Class-file headers (read without loading anything)

    /** What the first bytes of a class file say. */
    static final class ClassInfo {
        final String name; // internal form, a/b/C
        final String superName; // internal form or null
        final int access;
        final int major;
        final File jar;
        long crc = -1; // of the jar entry, to tell copies apart

        ClassInfo(String name, String superName, int access, int major, File jar) {
            this.name = name;
            this.superName = superName;
            this.access = access;
            this.major = major;
            this.jar = jar;
        }

        boolean isConcrete() {
            return (access & 0x0600) == 0; // neither ACC_INTERFACE nor ACC_ABSTRACT
        }

        boolean isPublic() {
            return (access & 0x0001) != 0;
        }

        String dotted() {
            return name.replace('/', '.');
        }
    }

    private static int u2(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }

    /** Parses magic, version, constant pool and the this/super entries. Null if not a class file. */
    static ClassInfo readHeader(byte[] b, File jar) {
        if (b.length < 10 || (b[0] & 0xff) != 0xCA || (b[1] & 0xff) != 0xFE || (b[2] & 0xff) != 0xBA
                || (b[3] & 0xff) != 0xBE) {
            return null;
        }
        int major = u2(b, 6);
        int n = u2(b, 8);
        int[] offset = new int[n];
        int p = 10;
        try {
            for (int i = 1; i < n; i++) {
                offset[i] = p;
                int tag = b[p] & 0xff;
                switch (tag) {
                case 1: // Utf8
                    p += 3 + u2(b, p + 1);
                    break;
                case 3: case 4: // Integer, Float
                case 9: case 10: case 11: case 12: // refs, NameAndType
                case 17: case 18: // Dynamic, InvokeDynamic
                    p += 5;
                    break;
                case 5: case 6: // Long, Double take two slots
                    p += 9;
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    p += 3;
                    break;
                case 15: // MethodHandle
                    p += 4;
                    break;
                default:
                    return null;
                }
            }
            int access = u2(b, p);
            String self = className(b, offset, u2(b, p + 2));
            int sup = u2(b, p + 4);
            String superName = sup == 0 ? null : className(b, offset, sup);
            return new ClassInfo(self, superName, access, major, jar);
        } catch (ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    private static String className(byte[] b, int[] offset, int classIndex) {
        int utf = u2(b, offset[classIndex] + 1);
        int q = offset[utf];
        int len = u2(b, q + 1);
        // Class names are ASCII in practice; modified UTF-8 decodes like UTF-8 for them.
        return new String(b, q + 3, len, java.nio.charset.StandardCharsets.UTF_8);
    }

    static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int r;
        while ((r = in.read(buf)) > 0) {
            out.write(buf, 0, r);
        }
        return out.toByteArray();
    }

    /** All top-level and nested classes of a jar (multi-release versions/ and module-info skipped). */
    static Map<String, ClassInfo> scanJar(File jar) {
        Map<String, ClassInfo> out = new LinkedHashMap<>();
        try (JarFile jf = new JarFile(jar)) {
            Enumeration<JarEntry> en = jf.entries();
            while (en.hasMoreElements()) {
                JarEntry e = en.nextElement();
                String n = e.getName();
                if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.endsWith("module-info.class")) {
                    continue;
                }
                try (InputStream in = jf.getInputStream(e)) {
                    ClassInfo ci = readHeader(readAll(in), jar);
                    if (ci != null) {
                        ci.crc = e.getCrc();
                        out.put(ci.name, ci);
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("harness: cannot read " + jar + ": " + e);
        }
        return out;
    }

    // ------------------------------------------------------------------
    // The class-path arrangement

    /** One place classes come from: a jar and the loader that reads it. */
    static final class Source {
        final File jar;
        final ClassLoader loader;
        final boolean inBase; // read by the loader of MicroRTS itself
        Map<String, ClassInfo> classes;

        Source(File jar, ClassLoader loader, boolean inBase) {
            this.jar = jar;
            this.loader = loader;
            this.inBase = inBase;
        }

        Map<String, ClassInfo> classes() {
            if (classes == null) {
                classes = scanJar(jar);
            }
            return classes;
        }
    }

    /**
     * The class path of this run: the jars of the loader that holds MicroRTS
     * (the {@link Launcher.HarnessLoader}, or the JVM class path with
     * {@code --bots none}), plus one child loader per bot jar when isolated.
     */
    static final class Env {
        final File harness;
        final BotMode mode;
        final List<Source> sources = new ArrayList<>();
        final ClassLoader base;

        Env(File harness, BotMode mode) {
            this.harness = harness;
            this.mode = mode;
            this.base = Harness.class.getClassLoader();
            Set<String> seen = new LinkedHashSet<>();
            List<File> baseJars = new ArrayList<>();
            if (Launcher.insideHarnessLoader(Harness.class)) {
                for (URL u : ((URLClassLoader) base).getURLs()) {
                    try {
                        baseJars.add(new File(u.toURI()));
                    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                        // not a local file; nothing to index
                    }
                }
            } else {
                for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                    if (!entry.isEmpty()) {
                        baseJars.add(new File(entry));
                    }
                }
            }
            for (File f : baseJars) {
                if (f.isFile() && f.getName().endsWith(".jar") && seen.add(canonical(f))) {
                    sources.add(new Source(f, base, true));
                }
            }
            if (mode == BotMode.ISOLATED) {
                List<File> bots = botJars(harness);
                if (bots.isEmpty()) {
                    System.err.println("harness: no bot jars in " + new File(harness, "lib/bots"));
                }
                for (File j : bots) {
                    if (seen.add(canonical(j))) {
                        sources.add(new Source(j, new URLClassLoader(new URL[] { toUrl(j) }, base), false));
                    }
                }
            }
        }

        private static String canonical(File f) {
            try {
                return f.getCanonicalPath();
            } catch (IOException e) {
                return f.getAbsolutePath();
            }
        }

        private static URL toUrl(File f) {
            try {
                return f.toURI().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Loads (without initialising) a fully qualified class as this arrangement would. */
        Class<?> load(String fqn) throws ClassNotFoundException {
            try {
                return Class.forName(fqn, false, base);
            } catch (ClassNotFoundException e) {
                if (mode != BotMode.ISOLATED) {
                    throw e;
                }
            }
            String internal = fqn.replace('.', '/');
            for (Source s : sources) {
                if (!s.inBase && s.classes().containsKey(internal)) {
                    return Class.forName(fqn, false, s.loader);
                }
            }
            throw new ClassNotFoundException(fqn);
        }

        /** First header of a class in lookup order (the JVM class path first, then bot jars). */
        ClassInfo header(String internal) {
            for (Source s : sources) {
                ClassInfo ci = s.classes().get(internal);
                if (ci != null) {
                    return ci;
                }
            }
            return null;
        }

        /** Header of a class as seen from one jar: the jar itself in isolated mode, else lookup order. */
        ClassInfo headerFrom(String internal, Source from) {
            if (mode == BotMode.ISOLATED && from != null && !from.inBase) {
                ClassInfo jvm = null;
                for (Source s : sources) {
                    if (s.inBase && (jvm = s.classes().get(internal)) != null) {
                        return jvm;
                    }
                }
                return from.classes().get(internal);
            }
            return header(internal);
        }

        /** Does the superclass chain of a class reach ai.core.AI (judged from headers)? */
        boolean extendsAI(ClassInfo ci, Source from) {
            int guard = 0;
            String s = ci.superName;
            while (s != null && guard++ < 64) {
                if (s.equals(AI_INTERNAL)) {
                    return true;
                }
                ClassInfo up = headerFrom(s, from);
                if (up == null) {
                    return false;
                }
                s = up.superName;
            }
            return false;
        }

        /**
         * A fully qualified name is returned unchanged. A short name is
         * looked up among the AI classes of all sources by simple name,
         * first exactly, then ignoring case.
         */
        String resolveName(String name) throws UsageException {
            if (name.indexOf('.') >= 0) {
                return name;
            }
            for (int pass = 0; pass < 2; pass++) {
                List<String> found = new ArrayList<>();
                List<Source> where = new ArrayList<>();
                for (Source s : sources) {
                    for (ClassInfo ci : s.classes().values()) {
                        String simple = ci.name.substring(ci.name.lastIndexOf('/') + 1);
                        boolean hit = pass == 0 ? simple.equals(name) : simple.equalsIgnoreCase(name);
                        if (hit && ci.isConcrete() && extendsAI(ci, s) && !found.contains(ci.dotted())) {
                            found.add(ci.dotted());
                            where.add(s);
                        }
                    }
                }
                if (found.size() == 1) {
                    return found.get(0);
                }
                if (found.size() > 1) {
                    // Prefer a jar named after the bot (Tiamat -> TiamatBot.jar), else the first.
                    int pick = 0;
                    for (int i = 0; i < found.size(); i++) {
                        if (where.get(i).jar.getName().toLowerCase(Locale.ROOT)
                                .startsWith(name.toLowerCase(Locale.ROOT))) {
                            pick = i;
                            break;
                        }
                    }
                    System.err.println("harness: '" + name + "' is ambiguous: " + found + "; using "
                            + found.get(pick));
                    return found.get(pick);
                }
            }
            if (name.equalsIgnoreCase("TMA")) {
                throw new UsageException("unknown AI class 'TMA': TMA (the 2024 competition's winner) is no part of the"
                        + " harness; build it from its public repository (github MazzaAlessandro/TMA, class ai.tma.TMA)"
                        + " against the harness's microrts.jar and set " + Launcher.ENV_TMA + " to the jar"
                        + " (docs/harness.md, \"TMA\")" + (System.getenv(Launcher.ENV_TMA) != null
                        ? "; " + Launcher.ENV_TMA + "=" + System.getenv(Launcher.ENV_TMA) + " has no ai.tma.TMA" : ""));
            }
            throw new UsageException("unknown AI class '" + name + "' (give a fully qualified name, or check --bots)");
        }

        /** Every jar name this arrangement reads, in lookup order. */
        List<String> describe() {
            List<String> out = new ArrayList<>();
            for (Source s : sources) {
                out.add(s.jar.getName() + (s.inBase ? "" : "[own loader]"));
            }
            return out;
        }
    }

    /**
     * Adds a cycle to an official trace (none: null) as the tournaments do:
     * only a cycle in which a player acted, with the state before the actions.
     */
    static void traceCycle(Trace trace, GameState gs, PlayerAction[] pa) {
        if (trace != null && (!pa[0].isEmpty() || !pa[1].isEmpty())) {
            TraceEntry te = new TraceEntry(gs.getPhysicalGameState().clone(), gs.getTime());
            te.addPlayerAction(pa[0].clone());
            te.addPlayerAction(pa[1].clone());
            trace.addEntry(te);
        }
    }

    /** Builds an AI through its public (UnitTypeTable) constructor. */
    static AI construct(Class<?> cls, UnitTypeTable utt) throws Exception {
        if (!AI.class.isAssignableFrom(cls)) {
            throw new IllegalArgumentException(cls.getName() + " does not extend ai.core.AI"
                    + (AI.class.getName().equals(superNameChain(cls)) ? " (it extends another copy of ai.core.AI)" : ""));
        }
        Constructor<?> k;
        try {
            k = cls.getConstructor(UnitTypeTable.class);
        } catch (NoSuchMethodException e) {
            throw new NoSuchMethodException("no public (UnitTypeTable) constructor in " + cls.getName());
        }
        try {
            return (AI) k.newInstance(utt);
        } catch (InvocationTargetException e) {
            throw TournamentApi.thrown(e);
        }
    }

    /** Class of the drop-in bot in microsynth.jar (see {@link Launcher}). */
    static final String DROP_IN_CLASS = "ai.microsynth.MicrosynthAI";

    /**
     * Builds an AI from a command-line spec: a Java class name (full or
     * short), {@code program:FILE} (the drop-in bot playing a program file),
     * {@code program-text:TEXT} (a program handed over from memory),
     * {@code microsynth:SPEC} (the drop-in bot playing any spec it reads, e.g.
     * a native bot), {@code index:FILE} (the drop-in bot playing the program a
     * program index names for each map), or {@code socket:HOST:PORT[:json|xml]} (the official SocketAI connected
     * to a server such as {@code microsynth serve}). Budgets are set as
     * tournaments set them.
     */
    static AI build(Env env, String spec, UnitTypeTable utt, int timeBudget, int iterationsBudget)
            throws Exception {
        AI ai;
        if (spec.startsWith("program-text:") || spec.startsWith("microsynth:")) {
            // A program handed over from memory (ms_match_play), or the drop-in
            // bot playing a native bot (microsynth:LightRush): the drop-in bot
            // reads its spec once here, at construction.
            Class<?> k = dropIn(env, spec);
            String own = spec.startsWith("microsynth:") ? spec.substring("microsynth:".length()) : spec;
            try {
                ai = (AI) k.getConstructor(UnitTypeTable.class, String.class).newInstance(utt, own);
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                throw new UsageException("program text: " + (t.getMessage() != null ? t.getMessage() : t.toString()));
            }
        } else if (spec.startsWith("program:")) {
            String file = spec.substring("program:".length());
            if (file.isEmpty()) {
                throw new UsageException("'program:' needs a file name");
            }
            Class<?> k = dropIn(env, spec);
            ai = construct(k, utt);
            try {
                k.getMethod("setProgram", String.class).invoke(ai, new File(file).getAbsolutePath());
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                throw new UsageException(spec + ": " + (t.getMessage() != null ? t.getMessage() : t.toString()));
            }
        } else if (spec.startsWith("index:")) {
            // The drop-in bot under auto with a program index of its own: one
            // entrant that plays the index's program for each map (a league row
            // of per-map programs).
            String file = spec.substring("index:".length());
            if (!new File(file).isFile()) {
                throw new UsageException("'" + spec + "': no such index file");
            }
            Class<?> k = dropIn(env, spec);
            ai = (AI) k.getConstructor(UnitTypeTable.class, String.class).newInstance(utt, "auto");
            k.getMethod("setIndex", String.class).invoke(ai, new File(file).getAbsolutePath());
        } else if (spec.startsWith("socket:")) {
            String[] part = spec.split(":");
            if (part.length < 3 || part.length > 4) {
                throw new UsageException("'" + spec + "': expected socket:HOST:PORT[:json|xml]");
            }
            int port = Options.parseInt("socket port", part[2]);
            int language = SocketAI.LANGUAGE_JSON;
            if (part.length == 4) {
                if (part[3].equals("xml")) {
                    language = SocketAI.LANGUAGE_XML;
                } else if (!part[3].equals("json")) {
                    throw new UsageException("'" + spec + "': language must be json or xml");
                }
            }
            ai = new SocketAI(timeBudget, iterationsBudget, part[1], port, language, utt);
        } else {
            String name = env.resolveName(spec);
            try {
                ai = construct(env.load(name), utt);
            } catch (ClassNotFoundException e) {
                throw new UsageException("class not found: " + name + " (class path: " + env.describe() + ")");
            }
        }
        setBudgets(ai, timeBudget, iterationsBudget);
        return ai;
    }

    /** The drop-in bot's class, which program specs need. */
    private static Class<?> dropIn(Env env, String spec) throws UsageException {
        try {
            return env.load(DROP_IN_CLASS);
        } catch (ClassNotFoundException e) {
            String shown = spec.length() > 40 ? spec.substring(0, 40) + "..." : spec;
            throw new UsageException("'" + shown + "' needs microsynth.jar (" + DROP_IN_CLASS
                    + " not found; build it, or set MICROSYNTH_JAR)");
        }
    }

    private static String superNameChain(Class<?> c) {
        for (Class<?> s = c.getSuperclass(); s != null; s = s.getSuperclass()) {
            if (s.getName().equals(AI.class.getName())) {
                return s.getName();
            }
        }
        return null;
    }

    /** Sets the computation budgets the way tournaments do. */
    static void setBudgets(AI ai, int timeBudget, int iterationsBudget) {
        if (ai instanceof AIWithComputationBudget) {
            ((AIWithComputationBudget) ai).setTimeBudget(timeBudget);
            ((AIWithComputationBudget) ai).setIterationsBudget(iterationsBudget);
        }
    }

    /** Where in the code a throwable was raised (first frame), for reports. */
    static String origin(Throwable t) {
        StackTraceElement[] st = t.getStackTrace();
        return st.length == 0 ? "?" : st[0].toString();
    }

    /** Replaces every java.util.Random instance field of an AI (superclasses included). */
    static void seedAI(AI ai, long seed) {
        int n = 0;
        for (Class<?> c = ai.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || !Random.class.isAssignableFrom(f.getType())) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    if (f.getType().isAssignableFrom(Random.class)) {
                        f.set(ai, new Random(seed * 7919L + n));
                        n++;
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    System.err.println("Match: cannot seed " + c.getName() + "." + f.getName() + ": "
                            + Launcher.reason(e));
                }
            }
        }
        System.err.println("Match: seeded " + n + " Random field(s) of " + ai.getClass().getName());
    }
}
