package ai.microsynth.harness;

import java.io.File;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import ai.core.AI;
import rts.units.UnitTypeTable;

/**
 * Command-line tournaments on the official tournament code (MicroRTS has
 * them only in its GUI): tournaments.RoundRobinTournament, or
 * FixedOpponentsTournament when opponents are given, called through
 * {@link TournamentApi} so that both the static API of the gym-microrts build
 * and the instance API of the current official repository work. A first line
 * {@code tournament_api=static|instance class=...} says which was called; the
 * official log goes to stdout unchanged; then a win/tie/loss table read back
 * from its per-game lines, and a last summary line.
 */
public final class Tournament {
    private Tournament() {
    }

    static final String USAGE = String.join("\n",
            "usage: Tournament --ai SPEC --ai SPEC ... --map PATH ... [options]",
            "  --ai SPEC               an AI: a class name (full or short), program:FILE, or",
            "                          socket:HOST:PORT[:json|xml]; repeat for each AI",
            "  --opponent SPEC         fixed-opponents mode: every --ai plays every --opponent",
            "  --map PATH              a map (repeatable); also looked up in the harness's maps/",
            "  --iterations N          rounds over all maps and pairings (default 1)",
            "  --utt 1|2|3             unit type table (default 2)",
            "  --conflict 1|2|3        move conflict policy (default 1)",
            "  --max-cycles N          game length limit, a draw when reached (default 3000)",
            "  --time-budget MS        per-decision time budget (default 100)",
            "  --iterations-budget N   per-decision iterations budget (default -1)",
            "  --pregame-ms MS         preGameAnalysis budget of an AI's first game on a map; -1",
            "                          disables it (default -1)",
            "  --pregame-later-ms MS   the budget of its later games on that map (default: --pregame-ms)",
            "  --partially-observable  partial observability",
            "  --self-matches          round robin: also AI i against itself",
            "  --timeout-check         a decision over budget + tolerance loses the game",
            "  --traces DIR            write the official trace of every game into DIR",
            "  --harness DIR, --bots flat|isolated|none  as for Match",
            "output: the official log, a W/T/L table, then the summary line",
            "'games=N crashes=C timeouts=T' with one 'wins_I=W' per AI.");

    public static void main(String[] args) {
        Launcher.main(Tournament.class, USAGE, args, () -> Run::run);
    }

    static final class Run {
        private Run() {
        }

        static int run(String[] args, PrintStream out) throws Exception {
            Options.Shared sh = new Options.Shared(Options.Shared.TOURNAMENT).with("--ai", "--map", "--iterations");
            Options.Parser opts = new Options.Parser(sh).help(USAGE)
                    .add("--opponent", Options::value)
                    .flags("--self-matches")
                    .values("--traces");
            if (!opts.parse(args, out)) {
                return 0;
            }
            List<String> ais = sh.ais, opponents = opts.list("--opponent"), maps = sh.maps;
            int iterations = sh.iterations;
            boolean selfMatches = opts.has("--self-matches");
            String traces = opts.get("--traces", null);
            int utt = sh.utt, conflict = sh.conflict, maxCycles = sh.maxCycles, timeBudget = sh.timeBudget;
            int iterationsBudget = sh.iterationsBudget;
            long pregame = sh.pregameMs;
            boolean po = sh.partiallyObservable, timeoutCheck = sh.timeoutCheck;
            if (ais.isEmpty() || maps.isEmpty()) {
                throw new Options.UsageException("at least one --ai and one --map are required");
            }
            if (opponents.isEmpty() && ais.size() < 2 && !selfMatches) {
                throw new Options.UsageException("a round robin needs two --ai (or --self-matches)");
            }
            File harness = sh.harnessDir();
            Harness.Env env = new Harness.Env(harness, sh.bots);
            List<String> mapPaths = new ArrayList<>();
            for (String m : maps) {
                mapPaths.add(Harness.resolveMap(m, harness).getPath());
            }
            if (traces != null) {
                File d = new File(traces);
                if (!d.isDirectory() && !d.mkdirs()) {
                    throw new Options.UsageException("cannot create --traces directory " + traces);
                }
                traces = d.getPath();
            }
            UnitTypeTable table = new UnitTypeTable(utt, conflict);
            List<AI> players = new ArrayList<>(), against = new ArrayList<>();
            for (String s : ais) {
                players.add(Harness.build(env, s, table, timeBudget, iterationsBudget));
            }
            for (String s : opponents) {
                against.add(Harness.build(env, s, table, timeBudget, iterationsBudget));
            }
            File rw = Files.createTempDirectory("microsynth-tournament").toFile();
            StringWriter log = new StringWriter();
            Writer tee = new Tee(log, out);
            Writer progress = new Tee(new StringWriter(), System.err);
            TournamentApi.Call call = against.isEmpty() ? TournamentApi.Call.roundRobin(players).selfMatches(selfMatches)
                    : TournamentApi.Call.fixedOpponents(players, against);
            call.maps(mapPaths).iterations(iterations).maxCycles(maxCycles)
                    .rules(timeBudget, iterationsBudget, pregame, po, timeoutCheck)
                    .pregame(Math.max(pregame, 0), pregame < 0 ? 0 : sh.pregameLater()).utt(table).traces(traces).out(tee)
                    .progress(progress).rwFolder(rw.getPath());
            TournamentApi.Shape shape = call.shape(UnitTypeTable.class.getClassLoader(), UnitTypeTable.class);
            out.println("tournament_api=" + shape.name() + " class=" + call.className() + "("
                    + TournamentApi.where(shape.cls) + ")");
            call.run(shape);
            tee.flush();
            summarize(log.toString(), ais, against.isEmpty() ? ais : opponents, out);
            return 0;
        }

        /** Reads the per-game lines back ("iteration map ai1 ai2 time winner crashed timedout"). */
        static void summarize(String log, List<String> rows, List<String> cols, PrintStream out) {
            int[][][] wtl = new int[3][rows.size()][cols.size()]; // wins, ties, losses of the row AI
            int games = 0, crashes = 0, timeouts = 0;
            int[] winsRow = new int[rows.size()];
            for (int[] g : TournamentLog.games(log)) {
                int a1 = g[0], a2 = g[1], winner = g[2], crashed = g[3], timedout = g[4];
                if (a1 < 0 || a1 >= rows.size() || a2 < 0 || a2 >= cols.size()) {
                    continue;
                }
                games++;
                crashes += crashed >= 0 ? 1 : 0;
                timeouts += timedout >= 0 ? 1 : 0;
                // a1 played as player 0 and a2 as player 1
                int k = outcome(winner, 0);
                wtl[k][a1][a2]++;
                winsRow[a1] += k == 0 ? 1 : 0;
                if (rows == cols && a1 != a2) {
                    // round robin: also count the game from a2's side
                    k = outcome(winner, 1);
                    wtl[k][a2][a1]++;
                    winsRow[a2] += k == 0 ? 1 : 0;
                }
            }
            out.println();
            out.println("W/T/L of the row AI against the column AI (both seats):");
            StringBuilder head = new StringBuilder(String.format("%-28s", ""));
            for (int j = 0; j < cols.size(); j++) {
                head.append(String.format(" %14s", "[" + j + "]"));
            }
            out.println(head);
            for (int i = 0; i < rows.size(); i++) {
                StringBuilder sb = new StringBuilder(String.format("%-28s", "[" + i + "] " + shorten(rows.get(i))));
                for (int j = 0; j < cols.size(); j++) {
                    sb.append(String.format(" %14s", wtl[0][i][j] + "/" + wtl[1][i][j] + "/" + wtl[2][i][j]));
                }
                out.println(sb);
            }
            if (rows != cols) {
                for (int j = 0; j < cols.size(); j++) {
                    out.println("[" + j + "] " + cols.get(j));
                }
            }
            StringBuilder last = new StringBuilder("games=" + games + " crashes=" + crashes + " timeouts=" + timeouts);
            for (int i = 0; i < rows.size(); i++) {
                last.append(" wins_").append(i).append('=').append(winsRow[i]);
            }
            out.println(last);
        }

        /** The game for the AI in {@code seat}: 0 a win, 1 a tie (a draw or no winner), 2 a loss. */
        private static int outcome(int winner, int seat) {
            return winner == seat ? 0 : winner == 1 - seat ? 2 : 1;
        }

        private static String shorten(String s) {
            return s.length() <= 24 ? s : "..." + s.substring(s.length() - 21);
        }
    }

    /** Writes to a buffer and a stream at once (the official log is both shown and parsed). */
    static final class Tee extends Writer {
        private final Writer buffer;
        private final PrintStream stream;

        Tee(Writer buffer, PrintStream stream) {
            this.buffer = buffer;
            this.stream = stream;
        }

        @Override
        public void write(char[] c, int off, int len) {
            try {
                buffer.write(c, off, len);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            stream.print(new String(c, off, len));
        }

        @Override
        public void flush() {
            stream.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }
}
