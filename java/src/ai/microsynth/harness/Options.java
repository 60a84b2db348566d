package ai.microsynth.harness;

import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command-line reader every runner uses (Match, Tournament, League,
 * Evaluate, Probe, Watch, Recorder, GuiCheck, JniTournament): one argument
 * at a time, values read and checked by type, and every error names the
 * option it is about. The runners do not loop over their arguments
 * themselves; each one states its options to a {@link Parser}:
 *
 * <pre>
 * Options.Shared s = new Options.Shared(Options.Shared.MATCH); // --harness, --utt, --map, ...
 * Options.Parser p = new Options.Parser(s).help(USAGE)
 *         .flags("--digest")
 *         .keep("--hang-ms", Options::intValue);
 * if (!p.parse(args, out)) return 0;                           // --help printed the usage
 * boolean digest = p.has("--digest");
 * int hangMs = p.get("--hang-ms", 0);
 * </pre>
 *
 * This class must not refer to MicroRTS classes: it is also compiled into
 * microsynth-jni-tools.jar, and the settings are plain values until a runner
 * turns them into a UnitTypeTable.
 */
final class Options {
    /** Bad command line: message to stderr, exit status 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String msg) {
            super(msg);
        }
    }

    /** How lib/bots/*.jar join the class path (see Harness). */
    enum BotMode {
        FLAT, ISOLATED, NONE;

        static BotMode parse(String s) throws UsageException {
            switch (s.toLowerCase(Locale.ROOT)) {
            case "flat":
                return FLAT;
            case "isolated":
                return ISOLATED;
            case "none":
                return NONE;
            default:
                throw new UsageException("--bots must be flat, isolated or none, not '" + s + "'");
            }
        }
    }

    private final String[] args;
    private int at = -1;

    Options(String[] args) {
        this.args = args.clone();
    }

    /** Moves to the next argument; false when there is none left. */
    boolean next() {
        at++;
        return at < args.length;
    }

    /**
     * Moves to the next argument only if it starts with "--"; false at the
     * first positional word (left for {@link #rest}) or at the end.
     */
    boolean nextOption() {
        if (at + 1 < args.length && args[at + 1].startsWith("--")) {
            at++;
            return true;
        }
        return false;
    }

    /** The arguments after the current one. */
    String[] rest() {
        return Arrays.copyOfRange(args, at + 1, args.length);
    }

    /** The current argument (an option name, or a positional word). */
    String flag() {
        return args[at];
    }

    /** Is the current argument -h or --help? */
    boolean isHelp() {
        return flag().equals("-h") || flag().equals("--help");
    }

    /** Consumes and returns the value of the current option. */
    String value() throws UsageException {
        if (at + 1 >= args.length) {
            throw new UsageException(flag() + " needs a value");
        }
        return args[++at];
    }

    int intValue() throws UsageException {
        String f = flag();
        return parseInt(f, value());
    }

    /** An integer read from text that {@code what} names in the error. */
    static int parseInt(String what, String v) throws UsageException {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(what + " needs an integer, not '" + v + "'");
        }
    }

    long longValue() throws UsageException {
        String f = flag(), v = value();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(f + " needs an integer, not '" + v + "'");
        }
    }

    /** An integer in lo..hi. */
    int intIn(int lo, int hi) throws UsageException {
        String f = flag();
        int n = intValue();
        if (n < lo || n > hi) {
            throw new UsageException(f + " must be " + lo + ".." + hi + ", not " + n);
        }
        return n;
    }

    /** An integer of at least min. */
    int intAtLeast(int min) throws UsageException {
        String f = flag();
        int n = intValue();
        if (n < min) {
            throw new UsageException(f + (min == 1 ? " must be positive" : " must be >= " + min) + ", not " + n);
        }
        return n;
    }

    /** The error for an argument the runner does not know. */
    UsageException unknown() {
        return new UsageException("unknown argument '" + flag() + "'");
    }

    /** --harness flag, else $MICROSYNTH_HARNESS, else ~/.cache/microsynth/harness. */
    static File harnessDir(String flag) {
        if (flag != null && !flag.isEmpty()) {
            return new File(flag);
        }
        String env = System.getenv("MICROSYNTH_HARNESS");
        if (env != null && !env.isEmpty()) {
            return new File(env);
        }
        return new File(new File(new File(System.getProperty("user.home"), ".cache"), "microsynth"), "harness");
    }

    /** What an option does when the parser meets it: reads its value, if it has one, from {@code o}. */
    interface Action {
        void apply(Options o) throws UsageException;
    }

    /** Reads an option's value from {@code o}: what the parser keeps for it. */
    interface Reader<T> {
        T read(Options o) throws UsageException;
    }

    /**
     * The one option loop of the runners. An argument is, in this order, an
     * option of the runner's own (so a runner can take a shared name with a
     * meaning of its own, as League's --max-cycles), a shared option the
     * runner takes, -h/--help when the runner has a usage text, or else
     * handed to {@link #other} (by default the unknown-argument error).
     */
    static final class Parser {
        private final Shared shared;
        private final Map<String, Action> own = new HashMap<>();
        private final Map<String, Object> kept = new HashMap<>();
        private final Map<String, List<Object>> lists = new HashMap<>();
        private String usage;
        private Action other;
        private boolean wordEnds;
        private String[] rest = new String[0];

        Parser(Shared shared) {
            this.shared = shared;
        }

        /** -h and --help print {@code text} to the runner's stdout; parse then returns false. */
        Parser help(String text) {
            usage = text;
            return this;
        }

        /** An option of the runner's own that does what {@code a} does each time it is given. */
        Parser on(String flag, Action a) {
            own.put(flag, a);
            return this;
        }

        /** An option whose last value {@link #get} returns. */
        <T> Parser keep(String flag, Reader<T> r) {
            return on(flag, o -> kept.put(flag, r.read(o)));
        }

        /** Options without a value: {@link #has} tells whether each was given. */
        Parser flags(String... names) {
            for (String f : names) {
                keep(f, o -> true);
            }
            return this;
        }

        /** Options whose value is any text: {@link #get} returns the last one given. */
        Parser values(String... names) {
            for (String f : names) {
                keep(f, Options::value);
            }
            return this;
        }

        /** A repeatable option whose values {@link #list} returns in order. */
        <T> Parser add(String flag, Reader<T> r) {
            lists.put(flag, new ArrayList<>());
            return on(flag, o -> lists.get(flag).add(r.read(o)));
        }

        /** What to do with an argument that is none of the runner's options. */
        Parser other(Action a) {
            other = a;
            return this;
        }

        /**
         * Options end at the first argument not starting with "--" (GuiCheck:
         * what follows is a command line of its own); {@link #rest} holds it.
         */
        Parser wordEnds() {
            wordEnds = true;
            return this;
        }

        /** Reads every option; false when the usage was printed instead. */
        boolean parse(String[] args, PrintStream out) throws UsageException {
            Options o = new Options(args);
            while (wordEnds ? o.nextOption() : o.next()) {
                Action a = own.get(o.flag());
                if (a == null && shared.read(o)) {
                    continue;
                }
                if (a == null && usage != null && o.isHelp()) {
                    out.println(usage);
                    return false;
                }
                if (a == null && other == null) {
                    throw o.unknown();
                }
                (a != null ? a : other).apply(o);
            }
            if (wordEnds) {
                rest = o.rest();
            }
            return true;
        }

        /** The last value of a {@link #keep} option, or {@code dflt} when it was not given. */
        @SuppressWarnings("unchecked")
        <T> T get(String flag, T dflt) {
            Object v = kept.get(flag);
            return v != null ? (T) v : dflt;
        }

        /** Was the {@link #flags} option given? */
        boolean has(String flag) {
            return kept.containsKey(flag);
        }

        /** The values of an {@link #add} option, in the order given. */
        @SuppressWarnings("unchecked")
        <T> List<T> list(String flag) {
            return (List<T>) (List<?>) lists.get(flag);
        }

        /** The arguments after the options (with {@link #wordEnds}). */
        String[] rest() {
            return rest.clone();
        }
    }

    /**
     * The settings several runners share, with the same names, checks and
     * meaning everywhere. A runner names the options it takes; the others
     * stay unknown to it. Defaults are MicroRTS's tournament defaults except
     * where a runner sets its own before parsing.
     */
    static final class Shared {
        /** What Match takes. */
        static final String[] MATCH = {"--map", "--p0", "--p1", "--harness", "--bots", "--utt", "--conflict",
            "--max-cycles", "--partially-observable", "--seed", "--time-budget", "--iterations-budget", "--pregame-ms",
            "--timeout-check"};
        /** What Tournament takes (no seed: the official tournament does not seed). */
        static final String[] TOURNAMENT = {"--harness", "--bots", "--utt", "--conflict", "--max-cycles",
            "--partially-observable", "--time-budget", "--iterations-budget", "--pregame-ms", "--pregame-later-ms",
            "--timeout-check"};

        // One game's setting (Match, Watch, Probe: the last --map counts) or a list (Tournament, League)
        final List<String> maps = new ArrayList<>();
        String p0, p1;
        final List<String> ais = new ArrayList<>();
        int iterations = 1;
        // map sets (Competition.mapsOf) and folders to look for maps in (League, Evaluate)
        final List<String> sets = new ArrayList<>();
        final List<File> mapDirs = new ArrayList<>();
        String harness;
        BotMode bots = BotMode.FLAT;
        int utt = 2;
        int conflict = 1;
        int maxCycles = 3000;
        boolean partiallyObservable;
        Long seed;
        int timeBudget = 100;
        int iterationsBudget = -1;
        long pregameMs = -1;
        // the budget of later games on a map (Tournament's preAnalysisBudgetRestOfTimes); null: pregameMs
        Long pregameLaterMs;
        boolean timeoutCheck;

        private final Set<String> takes;

        Shared(String... takes) {
            this.takes = new HashSet<>(Arrays.asList(takes));
        }

        /** Takes these options too. */
        Shared with(String... more) {
            takes.addAll(Arrays.asList(more));
            return this;
        }

        /** The map of a one-game runner: the last --map, or {@code dflt}. */
        String map(String dflt) {
            return maps.isEmpty() ? dflt : maps.get(maps.size() - 1);
        }

        /** The AI of a runner that scores one: the last --ai, or {@code dflt}. */
        String ai(String dflt) {
            return ais.isEmpty() ? dflt : ais.get(ais.size() - 1);
        }

        /** Match and Watch: both players and the map are needed. */
        void requireGame() throws UsageException {
            if (maps.isEmpty() || p0 == null || p1 == null) {
                throw new UsageException("--map, --p0 and --p1 are required");
            }
        }

        /** Reads the current option if it is one of the shared ones this runner takes. */
        boolean read(Options o) throws UsageException {
            String f = o.flag();
            if (!takes.contains(f)) {
                return false;
            }
            List<String> list = f.equals("--map") ? maps : f.equals("--ai") ? ais : f.equals("--maps") ? sets : null;
            if (list != null) {
                list.add(o.value());
                return true;
            }
            switch (f) {
            case "--harness":
                harness = o.value();
                break;
            case "--p0":
                p0 = o.value();
                break;
            case "--bots":
                bots = BotMode.parse(o.value());
                break;
            case "--seed":
                seed = o.longValue();
                break;
            case "--utt":
                utt = o.intIn(1, 3);
                break;
            case "--p1":
                p1 = o.value();
                break;
            case "--max-cycles":
                maxCycles = o.intAtLeast(1);
                break;
            case "--time-budget":
                timeBudget = o.intValue();
                break;
            case "--partially-observable":
                partiallyObservable = true;
                break;
            case "--iterations-budget":
                iterationsBudget = o.intValue();
                break;
            case "--pregame-later-ms":
                pregameLaterMs = o.longValue();
                if (pregameLaterMs < 0) {
                    throw new UsageException("--pregame-later-ms: expected 0 or more, got " + pregameLaterMs);
                }
                break;
            case "--pregame-ms":
                pregameMs = o.longValue();
                break;
            case "--map-dir":
                mapDirs.add(new File(o.value()));
                break;
            case "--conflict":
                conflict = o.intIn(1, 3);
                break;
            case "--timeout-check":
                timeoutCheck = true;
                break;
            case "--iterations":
                iterations = o.intAtLeast(1);
                break;
            default:
                return false; // named by the runner but not a shared option
            }
            return true;
        }

        /** The pre-game budget of a map's later games. */
        long pregameLater() {
            return pregameLaterMs != null ? pregameLaterMs : pregameMs;
        }

        /** The harness directory these settings point at. */
        File harnessDir() {
            return Options.harnessDir(harness);
        }
    }
}
