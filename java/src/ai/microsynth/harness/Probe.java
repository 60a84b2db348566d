package ai.microsynth.harness;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import ai.core.AI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * Tries to build AI classes under a class-path arrangement and reports, one
 * line per class, {@code loaded CLASS (jar)} or {@code failed CLASS: reason}.
 * Without class names it probes the built-in scripted bots and every concrete
 * class of lib/bots/*.jar whose superclass chain reaches ai.core.AI.
 */
public final class Probe {
    private Probe() {
    }

    static final String USAGE = String.join("\n",
            "usage: Probe [options] [CLASS...]",
            "  CLASS                 fully qualified or short name; default: the built-in scripted bots",
            "                        and every AI class found in the harness lib/bots/*.jar",
            "  --harness DIR         harness cache (default $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness)",
            "  --bots flat|isolated|none  how lib/bots/*.jar join the class path (default flat)",
            "  --cycles N            after loading, play N cycles as player 0 (default 0: only construct)",
            "  --opponent CLASS      opponent for --cycles (default ai.abstraction.WorkerRush)",
            "  --map PATH            map for --cycles (default maps/8x8/basesWorkers8x8A.xml)",
            "  --utt 1|2|3           unit type table version (default 2)",
            "  --timeout-ms MS       give up on one class after MS (default 60000)",
            "  --require CLASS       exit 1 unless CLASS loads (and plays); repeatable",
            "  --jars                print 'jar NAME classes=N ai=K majors=...' per jar",
            "  --clashes             print classes that one jar shadows in another",
            "  --mains               print 'main CLASS (jar)' for every MicroRTS class with main(String[])",
            "  --verbose             list every clashing class");

    public static void main(String[] args) {
        Launcher.main(Probe.class, USAGE, args, () -> Run::run);
    }

    /** The probe proper; it needs MicroRTS on the class path (see Launcher). */
    static final class Run {
        private Run() {
        }

        static int run(String[] args, PrintStream out) throws Exception {
            List<String> names = new ArrayList<>();
            Options.Shared sh = new Options.Shared("--harness", "--bots", "--utt", "--map");
            Options.Parser opts = new Options.Parser(sh).help(USAGE)
                    .keep("--cycles", Options::intValue)
                    .keep("--timeout-ms", Options::longValue)
                    .values("--opponent")
                    .add("--require", Options::value)
                    .flags("--jars", "--clashes", "--mains", "--verbose")
                    .other(o -> {
                        if (o.flag().startsWith("-")) {
                            throw new Options.UsageException("unknown option '" + o.flag() + "'");
                        }
                        names.add(o.flag());
                    });
            if (!opts.parse(args, out)) {
                return 0;
            }
            String map = sh.map("maps/8x8/basesWorkers8x8A.xml");
            String opponent = opts.get("--opponent", "ai.abstraction.WorkerRush");
            int cycles = opts.get("--cycles", 0);
            long timeoutMs = opts.get("--timeout-ms", 60000L);
            boolean jars = opts.has("--jars"), clashes = opts.has("--clashes");
            boolean mains = opts.has("--mains"), verbose = opts.has("--verbose");
            List<String> require = opts.list("--require");
            int utt = sh.utt;

            File harness = sh.harnessDir();
            Harness.Env env = new Harness.Env(harness, sh.bots);
            out.println("classpath " + String.join(" ", env.describe()));
            if (jars) {
                printJars(env, out);
            }
            if (clashes) {
                printClashes(env, out, verbose);
            }
            if (mains) {
                printMains(env, out);
            }

            Set<String> todo = new LinkedHashSet<>();
            for (String n : names) {
                todo.add(env.resolveName(n));
            }
            Set<String> required = new LinkedHashSet<>();
            for (String r : require) {
                String fqn = env.resolveName(r);
                required.add(fqn);
                todo.add(fqn);
            }
            if (names.isEmpty() && require.isEmpty() && !(jars || clashes || mains)) {
                todo.addAll(defaultList(env, harness));
            }

            File mapFile = cycles > 0 ? Harness.resolveMap(map, harness) : null;
            String opp = cycles > 0 ? env.resolveName(opponent) : null;
            Set<String> failed = new LinkedHashSet<>();
            for (String fqn : todo) {
                String line = probeOne(env, fqn, utt, cycles, mapFile, opp, timeoutMs);
                out.println(line);
                out.flush();
                if (line.startsWith("failed ")) {
                    failed.add(fqn);
                }
            }
            if (!todo.isEmpty()) {
                out.println("summary loaded=" + (todo.size() - failed.size()) + " failed=" + failed.size());
            }
            for (String r : required) {
                if (failed.contains(r)) {
                    System.err.println("Probe: required class failed: " + r);
                    return 1;
                }
            }
            return 0;
        }

        /** Built-in scripted bots, then the AI classes of every harness bot jar (each name once). */
        static List<String> defaultList(Harness.Env env, File harness) {
            Set<String> out = new LinkedHashSet<>(Harness.BUILTIN_BOTS);
            String botDir = canonical(new File(new File(harness, "lib"), "bots"));
            for (Harness.Source s : env.sources) {
                if (!botDir.equals(canonical(s.jar.getParentFile()))) {
                    continue;
                }
                for (Harness.ClassInfo ci : s.classes().values()) {
                    if (ci.isConcrete() && env.extendsAI(ci, s)) {
                        out.add(ci.dotted());
                    }
                }
            }
            return new ArrayList<>(out);
        }

        private static String canonical(File f) {
            try {
                return f == null ? "" : f.getCanonicalPath();
            } catch (IOException e) {
                return f.getAbsolutePath();
            }
        }

        /** Loads, constructs and optionally plays one class, in a thread bounded by a timeout. */
        static String probeOne(Harness.Env env, String fqn, int utt, int cycles, File mapFile, String opponent,
                long timeoutMs) {
            final String[] result = new String[1];
            Thread t = new Thread(() -> result[0] = probeBody(env, fqn, utt, cycles, mapFile, opponent),
                    "probe-" + fqn);
            t.setDaemon(true);
            t.start();
            try {
                t.join(timeoutMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive() || result[0] == null) {
                return "failed " + fqn + ": timeout after " + timeoutMs + " ms";
            }
            return result[0];
        }

        private static String probeBody(Harness.Env env, String fqn, int utt, int cycles, File mapFile,
                String opponent) {
            Class<?> cls;
            try {
                cls = env.load(fqn);
            } catch (Throwable e) {
                return "failed " + fqn + ": " + Launcher.reason(e);
            }
            String jar = TournamentApi.where(cls);
            UnitTypeTable table = new UnitTypeTable(utt, UnitTypeTable.MOVE_CONFLICT_RESOLUTION_CANCEL_BOTH);
            AI ai;
            try {
                ai = Harness.construct(cls, table);
            } catch (Throwable e) {
                return "failed " + fqn + ": " + Launcher.reason(e) + " (class from " + jar + ")";
            }
            String mixed = mixedSuper(env, cls, jar);
            if (cycles <= 0) {
                return "loaded " + fqn + " (" + jar + ")" + mixed;
            }
            int cycle = 0;
            try {
                AI opp = Harness.construct(env.load(opponent), table);
                Harness.setBudgets(ai, 100, -1);
                Harness.setBudgets(opp, 100, -1);
                GameState gs = new GameState(PhysicalGameState.load(mapFile.getPath(), table), table);
                ai.reset();
                opp.reset();
                ai.preGameAnalysis(gs, 1000);
                opp.preGameAnalysis(gs, 1000);
                for (; cycle < cycles; cycle++) {
                    PlayerAction a0 = ai.getAction(0, gs);
                    PlayerAction a1 = opp.getAction(1, gs);
                    gs.issueSafe(a0);
                    gs.issueSafe(a1);
                    if (gs.cycle()) {
                        break;
                    }
                }
            } catch (Throwable e) {
                return "failed " + fqn + ": loaded from " + jar + " but cycle " + cycle + " threw " + Launcher.reason(e)
                        + " at " + Harness.origin(e);
            }
            return "loaded " + fqn + " (" + jar + ")" + mixed + " played " + cycle + " cycles";
        }

        /**
         * " [extends X from J]" when the class's own jar also holds a copy of
         * one of its superclasses but that copy lost to another jar.
         */
        private static String mixedSuper(Harness.Env env, Class<?> cls, String jar) {
            Harness.Source own = null;
            for (Harness.Source s : env.sources) {
                if (s.jar.getName().equals(jar)) {
                    own = s;
                    break;
                }
            }
            if (own == null) {
                return "";
            }
            for (Class<?> s = cls.getSuperclass(); s != null && s != Object.class; s = s.getSuperclass()) {
                String w = TournamentApi.where(s);
                if (!w.equals(jar) && own.classes().containsKey(s.getName().replace('.', '/'))) {
                    return " [extends " + s.getName() + " from " + w + ", not the copy in " + jar + "]";
                }
            }
            return "";
        }

        static void printJars(Harness.Env env, PrintStream out) {
            for (Harness.Source s : env.sources) {
                Map<Integer, Integer> majors = new TreeMap<>();
                Map<Integer, Integer> own = new TreeMap<>();
                int ai = 0;
                for (Harness.ClassInfo ci : s.classes().values()) {
                    majors.merge(ci.major, 1, Integer::sum);
                    if (isMicroRTSPackage(ci.dotted())) {
                        own.merge(ci.major, 1, Integer::sum);
                    }
                    if (ci.isConcrete() && env.extendsAI(ci, s)) {
                        ai++;
                    }
                }
                out.println("jar " + s.jar.getName() + " classes=" + s.classes().size() + " ai=" + ai + " majors="
                        + histogram(majors) + " microrts_packages=" + histogram(own)
                        + " (major:count; 52 = Java 8, 55 = Java 11)");
            }
        }

        private static String histogram(Map<Integer, Integer> h) {
            StringBuilder m = new StringBuilder();
            for (Map.Entry<Integer, Integer> e : h.entrySet()) {
                m.append(m.length() == 0 ? "" : ",").append(e.getKey()).append(':').append(e.getValue());
            }
            return m.length() == 0 ? "-" : m.toString();
        }

        /** Packages of MicroRTS itself (as opposed to libraries bundled in microrts.jar). */
        static boolean isMicroRTSPackage(String n) {
            return n.startsWith("ai.") || n.startsWith("rts.") || n.startsWith("gui.") || n.startsWith("tests.")
                    || n.startsWith("tournaments.") || n.startsWith("util.");
        }

        /**
         * Which source each duplicated class is taken from under this arrangement.
         * Flat: the first source in lookup order. Isolated: a bot jar is only
         * shadowed by the JVM class path, not by other bot jars.
         */
        static void printClashes(Harness.Env env, PrintStream out, boolean verbose) {
            Map<String, List<Harness.Source>> where = new LinkedHashMap<>();
            for (Harness.Source s : env.sources) {
                for (String n : s.classes().keySet()) {
                    where.computeIfAbsent(n, k -> new ArrayList<>()).add(s);
                }
            }
            // (winner jar -> loser jar) -> [differ, identical, names]
            Map<String, int[]> counts = new LinkedHashMap<>();
            Map<String, List<String>> lists = new LinkedHashMap<>();
            for (Map.Entry<String, List<Harness.Source>> e : where.entrySet()) {
                List<Harness.Source> l = e.getValue();
                if (l.size() < 2) {
                    continue;
                }
                Harness.Source first = l.get(0);
                for (int i = 1; i < l.size(); i++) {
                    Harness.Source other = l.get(i);
                    boolean shadowed = first.inBase || other.inBase;
                    String key = first.jar.getName() + (shadowed ? " shadows " : " coexists with ")
                            + other.jar.getName();
                    boolean same = first.classes().get(e.getKey()).crc == other.classes().get(e.getKey()).crc;
                    int[] c = counts.computeIfAbsent(key, k -> new int[2]);
                    c[same ? 1 : 0]++;
                    lists.computeIfAbsent(key, k -> new ArrayList<>()).add(e.getKey().replace('/', '.')
                            + (same ? " (identical)" : " (differs)"));
                }
            }
            if (counts.isEmpty()) {
                out.println("clash none");
            }
            for (Map.Entry<String, int[]> e : counts.entrySet()) {
                out.println("clash " + e.getKey() + ": " + (e.getValue()[0] + e.getValue()[1]) + " classes ("
                        + e.getValue()[0] + " differ, " + e.getValue()[1] + " identical)");
                if (verbose) {
                    for (String n : lists.get(e.getKey())) {
                        out.println("  " + n);
                    }
                }
            }
        }

        /** Classes of the MicroRTS packages and the bot jars that have public static main(String[]). */
        static void printMains(Harness.Env env, PrintStream out) {
            Set<String> done = new LinkedHashSet<>();
            String botDir = canonical(new File(new File(env.harness, "lib"), "bots"));
            for (Harness.Source s : env.sources) {
                if (botDir.equals(canonical(s.jar.getParentFile()))) {
                    continue; // the bots' own test mains are not harness entry points
                }
                for (Harness.ClassInfo ci : s.classes().values()) {
                    String n = ci.dotted();
                    boolean microrts = isMicroRTSPackage(n);
                    if (!ci.isPublic() || n.indexOf('$') >= 0 || !done.add(n)
                            || !microrts || n.startsWith("ai.microsynth.")) {
                        continue;
                    }
                    try {
                        Class<?> c = env.load(n);
                        Method m = c.getMethod("main", String[].class);
                        if (Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() == c) {
                            out.println("main " + n + " (" + TournamentApi.where(c) + ")");
                        }
                    } catch (NoSuchMethodException e) {
                        // not an entry point
                    } catch (Throwable e) {
                        out.println("main? " + n + ": cannot inspect: " + Launcher.reason(e));
                    }
                }
            }
        }
    }
}
