package ai.microsynth.harness;

import java.io.File;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The command-line reader every runner uses (Match, Tournament, Probe,
 * Watch, Recorder, JniTournament): one argument at a time, values read and
 * checked by type, and every error names the option it is about.
 *
 * <pre>
 * Options o = new Options(args);
 * Options.Shared s = new Options.Shared(Options.Shared.MATCH);
 * while (o.next()) {
 *     if (s.read(o)) continue;        // --harness, --utt, --max-cycles, ...
 *     switch (o.flag()) {
 *     case "--p0": p0 = o.value(); break;
 *     default: throw o.unknown();
 *     }
 * }
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

    /**
     * The settings several runners share, with the same names, checks and
     * meaning everywhere. A runner names the options it takes; the others
     * stay unknown to it. Defaults are MicroRTS's tournament defaults except
     * where a runner sets its own before parsing.
     */
    static final class Shared {
        /** What Match takes. */
        static final String[] MATCH = {"--harness", "--bots", "--utt", "--conflict", "--max-cycles",
            "--partially-observable", "--seed", "--time-budget", "--iterations-budget", "--pregame-ms",
            "--timeout-check"};
        /** What Tournament takes (no seed: the official tournament does not seed). */
        static final String[] TOURNAMENT = {"--harness", "--bots", "--utt", "--conflict", "--max-cycles",
            "--partially-observable", "--time-budget", "--iterations-budget", "--pregame-ms", "--pregame-later-ms",
            "--timeout-check"};

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

        /** Reads the current option if it is one of the shared ones this runner takes. */
        boolean read(Options o) throws UsageException {
            String f = o.flag();
            if (!takes.contains(f)) {
                return false;
            }
            switch (f) {
            case "--harness":
                harness = o.value();
                break;
            case "--bots":
                bots = BotMode.parse(o.value());
                break;
            case "--utt":
                utt = o.intIn(1, 3);
                break;
            case "--conflict":
                conflict = o.intIn(1, 3);
                break;
            case "--max-cycles":
                maxCycles = o.intAtLeast(1);
                break;
            case "--partially-observable":
                partiallyObservable = true;
                break;
            case "--seed":
                seed = o.longValue();
                break;
            case "--time-budget":
                timeBudget = o.intValue();
                break;
            case "--iterations-budget":
                iterationsBudget = o.intValue();
                break;
            case "--pregame-ms":
                pregameMs = o.longValue();
                break;
            case "--pregame-later-ms":
                pregameLaterMs = o.longValue();
                if (pregameLaterMs < 0) {
                    throw new UsageException("--pregame-later-ms: expected 0 or more, got " + pregameLaterMs);
                }
                break;
            case "--timeout-check":
                timeoutCheck = true;
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
