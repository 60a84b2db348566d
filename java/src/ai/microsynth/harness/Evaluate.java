package ai.microsynth.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ai.core.AI;
import rts.units.UnitTypeTable;

/**
 * Scores one AI against a field of bots in the official tournament code,
 * both seats: per map, FixedOpponentsTournament with the AI in seat 0
 * against the field, then with the field in seat 0 against the AI (the
 * official class plays its first list in seat 0 only). With
 * {@code --round-robin} it runs RoundRobinTournament over the AI and the
 * field instead, which also scores every bot of the field against the others
 * in the same run (the competitions' own tables). A win counts 1, a draw 0.5.
 *
 * Map sets: the 2025 competition's ten public 16x16 maps (5000 cycles), the
 * 2023 competition's open and hidden maps, and held-out maps that no
 * synthesis run of ours used (checked against the {@code trained} lines of
 * the program index). When the AI is the drop-in bot, its decision times
 * (whole getAction, bridge included) are summarised at the end.
 */
public final class Evaluate {
    private Evaluate() {
    }

    static final String USAGE = String.join("\n",
            "usage: Evaluate [--ai SPEC] [--field default|all|FILE] [--maps SET] [--held-out] [options]",
            "  --ai SPEC               the AI scored (default microsynth:auto, the drop-in bot",
            "                          choosing its program by map); any spec Tournament takes",
            "  --field default|all|tma|FILE  opponents: default = CoacAI, mayari and the four rushes;",
            "                          all = also the other lib/bots; tma = default and TMA (the",
            "                          jar $MICROSYNTH_TMA names); FILE = one spec per line",
            "  --maps SET              2025 (ten 16x16 maps, 5000 cycles), 2023 (open maps),",
            "                          2023-hidden, held-out, or a FILE with one map per line;",
            "                          repeatable",
            "  --held-out              same as --maps held-out",
            "  --map-dir DIR           also look for maps here (repeatable; e.g. the maps/ of the",
            "                          current official repository for basesWorkers32x32A.xml)",
            "  --index FILE            program index whose 'trained' lines --held-out checks and",
            "                          whose 'made-for' lines the edition warning reads",
            "                          (default: the one in microsynth.jar)",
            "  --harness-edition 2022|2023  the harness's bot edition (`microsynth evaluate` reads",
            "                          it from the jar): a warning names the programs (index",
            "                          'made-for' lines, a program's header) made for another one",
            "  --iterations N          games per pairing, map and seat (default 1)",
            "  --max-cycles N          game length (default: 5000 for the 2025 maps, else the",
            "                          competition's by map size: 3000 up to 8x8, 4000 to 16x16,",
            "                          5000 to 24x24, 6000 to 32x32, 8000 above)",
            "  --round-robin           the official round robin over the AI and the field",
            "  --pregame-ms MS         pre-game budget of the AI's first game on a map (default -1:",
            "                          no preGameAnalysis call); the drop-in bot synthesizes in it",
            "                          on maps it has no program for",
            "  --pregame-later-ms MS   the budget of its later games on that map (default: --pregame-ms)",
            "  --keep-folders DIR      the bots' read/write folders live in DIR and are kept (default:",
            "                          a fresh temporary folder per run)",
            "  --utt, --conflict, --time-budget, --iterations-budget,",
            "  --partially-observable, --timeout-check, --harness, --bots   as for Tournament",
            "output: per map and per opponent W/D/L and mean score; decision times of the",
            "drop-in bot; last line 'games=N wins=W draws=D losses=L score=X crashes=C timeouts=T ...'",
            "(with a pre-game budget also pregame_calls, pregame_ms, pregame_searches, pregame_evals,",
            "pregame_reused, pregame_failed, pregame_switches: the drop-in bot's pre-game figures)");

    public static void main(String[] args) {
        Launcher.main(Evaluate.class, USAGE, args, () -> Run::run);
    }

    /** The default field: the two strongest competition bots and the four rushes. */
    static final String[] FIELD_DEFAULT = {"ai.coac.CoacAI", "mayari", "WorkerRush", "LightRush", "HeavyRush",
        "RangedRush"};
    /** `--field all`: the default field and the other bots of the harness's lib/bots. */
    static final String[] FIELD_MORE = {"Droplet", "GRojoA3N", "Izanagi", "MixedBot", "TiamatBot"};

    static final class Run {
        private Run() {
        }

        /** Results of the scored AI, per map and per opponent. */
        static final class Table {
            final int[][] w, d, l;
            int crashes, timeouts, games;

            Table(int maps, int opps) {
                w = new int[maps][opps];
                d = new int[maps][opps];
                l = new int[maps][opps];
            }
        }

        static int run(String[] args, PrintStream out) throws Exception {
            Options.Shared sh = new Options.Shared(Options.Shared.TOURNAMENT).with("--ai", "--maps", "--map-dir",
                    "--iterations");
            List<String> sets = sh.sets;
            // --max-cycles of its own: by default the set's or the competition's length
            Options.Parser opts = new Options.Parser(sh).help(USAGE)
                    .keep("--max-cycles", o -> o.intAtLeast(1))
                    .values("--field", "--index", "--harness-edition", "--keep-folders")
                    .flags("--round-robin")
                    .on("--held-out", o -> sets.add("held-out"));
            if (!opts.parse(args, out)) {
                return 0;
            }
            String aiSpec = sh.ai("microsynth:auto");
            String indexFile = opts.get("--index", null), harnessEdition = opts.get("--harness-edition", null);
            String field = opts.get("--field", "default");
            int iterations = sh.iterations;
            Integer maxCycles = opts.get("--max-cycles", null);
            boolean roundRobin = opts.has("--round-robin");
            String keepFolders = opts.get("--keep-folders", null);
            List<File> mapDirs = sh.mapDirs;
            if (sets.isEmpty()) {
                sets.add("2025");
            }
            File harness = sh.harnessDir();
            Harness.Env env = new Harness.Env(harness, sh.bots);
            List<String> fieldSpecs = fieldOf(field);
            List<String> maps = new ArrayList<>();
            Map<String, Integer> setCycles = new HashMap<>(); // maps of a set with its own game length
            for (String s : sets) {
                for (String m : Competition.mapsOf(s, env, indexFile)) {
                    if (!maps.contains(m)) {
                        maps.add(m);
                    }
                    if (Competition.setCycles(s) != 0) {
                        setCycles.put(m, Competition.setCycles(s));
                    }
                }
            }
            UnitTypeTable table = new UnitTypeTable(sh.utt, sh.conflict);
            AI ai = Harness.build(env, aiSpec, table, sh.timeBudget, sh.iterationsBudget);
            List<AI> opponents = new ArrayList<>();
            List<String> loaded = new ArrayList<>();
            for (String s : fieldSpecs) {
                try {
                    opponents.add(Harness.build(env, s, table, sh.timeBudget, sh.iterationsBudget));
                    loaded.add(s);
                } catch (Exception | LinkageError e) {
                    if (!field.equals("all")) {
                        throw new Options.UsageException("field bot '" + s + "' does not load: " + Launcher.reason(e));
                    }
                    System.err.println("evaluate: skipping " + s + " (does not load: " + Launcher.reason(e) + ")");
                }
            }
            if (harnessEdition != null) {
                String w = editionWarning(env, indexFile, aiSpec, harnessEdition);
                if (w != null) {
                    System.err.println(w);
                }
            }
            out.println("evaluate ai=" + aiSpec + " field=" + String.join(",", loaded) + " maps=" + maps.size()
                    + " iterations=" + iterations + " mode=" + (roundRobin ? "round-robin" : "both-seats"));
            TournamentApi.Shape rr = TournamentApi.find(UnitTypeTable.class.getClassLoader(),
                    TournamentApi.ROUND_ROBIN, UnitTypeTable.class);
            TournamentApi.Shape fixed = TournamentApi.find(UnitTypeTable.class.getClassLoader(),
                    TournamentApi.FIXED_OPPONENTS, UnitTypeTable.class);
            out.println("tournament_api=" + fixed.name());

            Table t = new Table(maps.size(), loaded.size());
            double[][] rrScore = new double[loaded.size() + 1][3]; // round robin: sum, games, sum of squares per AI
            File rw = keepFolders != null ? new File(keepFolders) : Files.createTempDirectory("microsynth-evaluate").toFile();
            if (!rw.isDirectory() && !rw.mkdirs()) {
                throw new Options.UsageException("--keep-folders: cannot create " + rw);
            }
            final int games = iterations;
            // what every tournament of this run shares: games per pairing, budgets and rules, the table
            java.util.function.UnaryOperator<TournamentApi.Call> common = c -> c.iterations(games).rules(sh).utt(table);
            // The scored AI's own read/write folder, the same in every tournament of the run (the official
            // classes name it by the AI's list and place: AI0... in seat 0, opponentAI0... in seat 1).
            File ownFolder = new File(rw, "scored-ai");
            if (!ownFolder.isDirectory() && !ownFolder.mkdirs()) {
                throw new IOException("cannot create " + ownFolder);
            }
            int tournaments = 0;
            for (int mi = 0; mi < maps.size(); mi++) {
                String path = Competition.resolve(maps.get(mi), harness, mapDirs).getPath();
                int cycles = maxCycles != null ? maxCycles
                        : setCycles.containsKey(maps.get(mi)) ? setCycles.get(maps.get(mi))
                        : Competition.cyclesFor(path, table);
                List<String> mapList = Arrays.asList(path);
                if (roundRobin) {
                    List<AI> all = new ArrayList<>();
                    all.add(ai);
                    all.addAll(opponents);
                    String log = play(rr, common.apply(TournamentApi.Call.roundRobin(all))
                            .rwFolder(folders(rw, ++tournaments, ownFolder, "AI0readWriteFolder")), mapList, cycles);
                    for (int[] g : TournamentLog.games(log)) {
                        // g = ai1 ai2 winner crashed timedout; index 0 is the scored AI
                        countRoundRobin(rrScore, g);
                        if (g[0] == 0 || g[1] == 0) {
                            boolean first = g[0] == 0;
                            int opp = (first ? g[1] : g[0]) - 1;
                            int res = g[2] == -1 ? 0 : (g[2] == 0) == first ? 1 : -1;
                            add(t, mi, opp, res, g, first ? 0 : 1);
                        }
                    }
                } else {
                    // With pre-game analysis, the official Tournament.playSingleGame indexes the first
                    // list's read/write folders and first-time flags with the opponent's place
                    // (ArrayIndexOutOfBoundsException when the opponents outnumber the AIs): seat 0
                    // then plays one opponent at a time too. It also hands the second AI the first
                    // AI's folder and flag, so our folder is AI0readWriteFolder in either seat, and
                    // every tournament after the map's first gives the later games' budget.
                    boolean pregame = sh.pregameMs >= 0;
                    boolean firstOnMap = true;
                    List<List<AI>> seat0 = new ArrayList<>();
                    if (pregame) {
                        for (AI opp : opponents) {
                            seat0.add(Arrays.asList(opp));
                        }
                    } else {
                        seat0.add(opponents);
                    }
                    for (int k = 0; k < seat0.size(); k++) {
                        TournamentApi.Call call = common.apply(TournamentApi.Call.fixedOpponents(Arrays.asList(ai),
                                seat0.get(k)));
                        if (pregame && !firstOnMap) {
                            call.pregame(sh.pregameLater(), sh.pregameLater());
                        }
                        firstOnMap = false;
                        String log = play(fixed, call.rwFolder(folders(rw, ++tournaments, ownFolder, "AI0readWriteFolder")),
                                mapList, cycles);
                        for (int[] g : TournamentLog.games(log)) {
                            add(t, mi, pregame ? k : g[1], g[2] == 0 ? 1 : g[2] == 1 ? -1 : 0, g, 0);
                        }
                    }
                    // Seat 1: one opponent at a time, as the official class's summary
                    // indexes its tables wrongly when the first list is the longer one
                    // (ArrayIndexOutOfBoundsException in the 2022 build).
                    for (int oi = 0; oi < opponents.size(); oi++) {
                        TournamentApi.Call later = common.apply(TournamentApi.Call.fixedOpponents(
                                Arrays.asList(opponents.get(oi)), Arrays.asList(ai)));
                        if (pregame) {
                            later.pregame(sh.pregameLater(), sh.pregameLater());
                        }
                        String log = play(fixed, later.rwFolder(folders(rw, ++tournaments, ownFolder, "AI0readWriteFolder")),
                                mapList, cycles);
                        for (int[] g : TournamentLog.games(log)) {
                            add(t, mi, oi, g[2] == 1 ? 1 : g[2] == 0 ? -1 : 0, g, 1);
                        }
                    }
                }
                int[] s = sum(t, mi, -1);
                System.err.printf(Locale.ROOT, "evaluate: %d/%d %s W/D/L %d/%d/%d score %.3f%n", mi + 1, maps.size(),
                        maps.get(mi), s[0], s[1], s[2], Competition.score(s));
            }
            report(out, t, maps, loaded, aiSpec);
            if (roundRobin) {
                out.println();
                out.println("round robin, mean score of every AI (all its games on these maps), 95% interval:");
                for (int i = 0; i <= loaded.size(); i++) {
                    String name = i == 0 ? aiSpec : loaded.get(i - 1);
                    double n = rrScore[i][1], m = n == 0 ? 0 : rrScore[i][0] / n;
                    out.printf(Locale.ROOT, "  %-32s %.3f +- %.3f (%d games)%n", name, m,
                            halfWidth(n, rrScore[i][0], rrScore[i][2]), (int) n);
                }
            }
            String rank = "";
            if (roundRobin) {
                // our place among the field: 1 + the AIs that scored strictly more
                int place = 1;
                double ours = rrScore[0][1] == 0 ? 0 : rrScore[0][0] / rrScore[0][1];
                for (int i = 1; i <= loaded.size(); i++) {
                    if (rrScore[i][1] > 0 && rrScore[i][0] / rrScore[i][1] > ours) {
                        place++;
                    }
                }
                rank = " rr_rank=" + place + " rr_entrants=" + (loaded.size() + 1);
            }
            String clock = decisionTimes(ai, out) + (sh.pregameMs >= 0 ? pregameFigures(ai, out) : "");
            int[] all = sum(t, -1, -1);
            out.printf(Locale.ROOT,
                    "games=%d wins=%d draws=%d losses=%d score=%.4f score_ci95=%.4f crashes=%d timeouts=%d%s%s%n",
                    t.games, all[0], all[1], all[2], Competition.score(all), halfWidth(all), t.crashes, t.timeouts, rank, clock);
            return 0;
        }

        /**
         * A fresh parent of one tournament's read/write folders in which the
         * scored AI's folder (named {@code name} there) is {@code ours}, a link:
         * every other bot gets a fresh folder in each tournament, ours keeps
         * what it wrote (the pre-game programs) from tournament to tournament,
         * as one official tournament over every map would.
         */
        static String folders(File rw, int n, File ours, String name) throws IOException {
            File parent = new File(rw, "tournament" + n);
            if (!parent.isDirectory() && !parent.mkdirs()) {
                throw new IOException("cannot create " + parent);
            }
            Path link = new File(parent, name).toPath();
            if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, ours.getAbsoluteFile().toPath());
            }
            return parent.getPath();
        }

        /** The drop-in bot's pre-game figures, printed and as summary keys ("" for another AI). */
        private static String pregameFigures(AI ai, PrintStream out) {
            try {
                long[] f = (long[]) ai.getClass().getMethod("pregameFigures").invoke(ai);
                long switches = f.length > 6 ? f[6] : 0;
                out.printf(Locale.ROOT, "pre-game of %s: %d calls, %.1f s, %d searches (%d made an opponent switch), %d "
                        + "evaluations, %d reused from the folder, %d failed%n", ai, f[0], f[1] / 1000.0, f[2], switches,
                        f[3], f[4], f[5]);
                return String.format(Locale.ROOT, " pregame_calls=%d pregame_ms=%d pregame_searches=%d pregame_evals=%d"
                        + " pregame_reused=%d pregame_failed=%d pregame_switches=%d", f[0], f[1], f[2], f[3], f[4], f[5],
                        switches);
            } catch (NoSuchMethodException e) {
                return "";
            } catch (ReflectiveOperationException e) {
                return " pregame_calls=?";
            }
        }

        /** Runs one official tournament on one map and returns its log. */
        private static String play(TournamentApi.Shape shape, TournamentApi.Call call, List<String> mapList,
                int cycles) throws Exception {
            StringWriter log = new StringWriter();
            call.maps(mapList).maxCycles(cycles).out(log).run(shape);
            return log.toString();
        }

        /** Records one game of the scored AI (res 1 win, 0 draw, -1 loss; seat: the AI's player). */
        private static void add(Table t, int map, int opp, int res, int[] g, int seat) {
            t.games++;
            if (res > 0) {
                t.w[map][opp]++;
            } else if (res < 0) {
                t.l[map][opp]++;
            } else {
                t.d[map][opp]++;
            }
            // crashed / timedout hold the player who crashed or timed out, -1 if none
            if (g[3] == seat) {
                t.crashes++;
            }
            if (g[4] == seat) {
                t.timeouts++;
            }
        }

        private static void countRoundRobin(double[][] acc, int[] g) {
            double s0 = g[2] == 0 ? 1 : g[2] == 1 ? 0 : 0.5;
            acc[g[0]][0] += s0;
            acc[g[0]][1]++;
            acc[g[0]][2] += s0 * s0;
            acc[g[1]][0] += 1 - s0;
            acc[g[1]][1]++;
            acc[g[1]][2] += (1 - s0) * (1 - s0);
        }

        /** W, D, L summed over a map (-1: all) and an opponent (-1: all). */
        static int[] sum(Table t, int map, int opp) {
            int[] s = new int[3];
            for (int m = 0; m < t.w.length; m++) {
                for (int o = 0; o < t.w[m].length; o++) {
                    if ((map < 0 || m == map) && (opp < 0 || o == opp)) {
                        s[0] += t.w[m][o];
                        s[1] += t.d[m][o];
                        s[2] += t.l[m][o];
                    }
                }
            }
            return s;
        }

        /**
         * Half-width of the 95% interval of a mean game score (win 1, draw
         * 0.5, loss 0) from n games with the given sum and sum of squares
         * (normal approximation, sample variance; 0 below two games).
         */
        static double halfWidth(double n, double sum, double sq) {
            if (n < 2) {
                return 0;
            }
            double m = sum / n;
            double var = Math.max(0, (sq - n * m * m) / (n - 1));
            return 1.96 * Math.sqrt(var / n);
        }

        static double halfWidth(int[] s) {
            return halfWidth(s[0] + s[1] + s[2], s[0] + 0.5 * s[1], s[0] + 0.25 * s[1]);
        }

        private static void report(PrintStream out, Table t, List<String> maps, List<String> field, String ai) {
            out.println();
            out.println("W/D/L of " + ai + " against each bot, both seats, and mean score per map:");
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-34s", "map"));
            for (int j = 0; j < field.size(); j++) {
                head.append(String.format(Locale.ROOT, " %10s", "[" + j + "]"));
            }
            head.append("      score");
            out.println(head);
            for (int m = 0; m < maps.size(); m++) {
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-34s", shorten(maps.get(m), 34)));
                for (int j = 0; j < field.size(); j++) {
                    sb.append(String.format(Locale.ROOT, " %10s", t.w[m][j] + "/" + t.d[m][j] + "/" + t.l[m][j]));
                }
                sb.append(String.format(Locale.ROOT, " %10.3f", Competition.score(sum(t, m, -1))));
                out.println(sb);
            }
            StringBuilder tot = new StringBuilder(String.format(Locale.ROOT, "%-34s", "all maps"));
            for (int j = 0; j < field.size(); j++) {
                int[] s = sum(t, -1, j);
                tot.append(String.format(Locale.ROOT, " %10s", s[0] + "/" + s[1] + "/" + s[2]));
            }
            tot.append(String.format(Locale.ROOT, " %10.3f", Competition.score(sum(t, -1, -1))));
            out.println(tot);
            for (int j = 0; j < field.size(); j++) {
                int[] s = sum(t, -1, j);
                out.printf(Locale.ROOT, "[%d] %s: score %.3f +- %.3f (95%%)%n", j, field.get(j), Competition.score(s), halfWidth(s));
            }
        }

        private static String shorten(String s, int n) {
            return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
        }

        /** Quantile q (1: the maximum) of sorted, non-empty nanoseconds, in milliseconds. */
        private static double ms(long[] sorted, double q) {
            return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
        }

        /** The drop-in bot's decision-time summary (empty when the AI is something else). */
        private static String decisionTimes(AI ai, PrintStream out) {
            try {
                Method m = ai.getClass().getMethod("decisionNanos");
                long[] ns = (long[]) m.invoke(ai);
                if (ns.length == 0) {
                    return "";
                }
                Arrays.sort(ns);
                double p50 = ms(ns, 0.5), p99 = ms(ns, 0.99), p999 = ms(ns, 0.999), max = ms(ns, 1);
                out.printf(Locale.ROOT, "decision time of %s (whole getAction, %d decisions): p50 %.3f ms, "
                        + "p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n", ai, ns.length, p50, p99, p999, max);
                long[] nat = (long[]) ai.getClass().getMethod("decisionNativeNanos").invoke(ai);
                Arrays.sort(nat);
                out.printf(Locale.ROOT, "  of which in the native decision: p50 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                        ms(nat, 0.5), ms(nat, 0.999), ms(nat, 1));
                long failures = (Long) ai.getClass().getMethod("sharedFailures").invoke(ai);
                return String.format(Locale.ROOT, " decisions=%d decision_ms_p999=%.3f decision_ms_max=%.3f"
                        + " bot_failures=%d", ns.length, p999, max, failures);
            } catch (NoSuchMethodException e) {
                return "";
            } catch (ReflectiveOperationException e) {
                return " decisions=?";
            }
        }

        static List<String> fieldOf(String field) throws IOException, Options.UsageException {
            List<String> out = new ArrayList<>();
            if (field.equals("default") || field.equals("all") || field.equals("tma")) {
                out.addAll(Arrays.asList(FIELD_DEFAULT));
                if (field.equals("all")) {
                    out.addAll(Arrays.asList(FIELD_MORE));
                }
                if (field.equals("tma")) {
                    out.add("TMA"); // $MICROSYNTH_TMA: built by the user (docs/harness.md)
                }
                return out;
            }
            File f = new File(field);
            if (!f.isFile()) {
                throw new Options.UsageException("--field: expected default, all, tma or a file; no file " + field);
            }
            out.addAll(Competition.lines(f));
            if (out.isEmpty()) {
                throw new Options.UsageException("--field " + field + ": no bots in the file");
            }
            return out;
        }

        /**
         * A warning line when the evaluated programs were made for another
         * edition than the harness's: a program:FILE by its header's
         * 'edition:', the drop-in bot's programs by the index's 'made-for
         * SPEC edition E cycles C' lines. Null when they agree or the AI
         * plays no program of ours.
         */
        private static final Pattern HEADER_EDITION = Pattern.compile("^#.*[ ;]edition: (\\d{4})");

        static String editionWarning(Harness.Env env, String indexFile, String aiSpec, String harnessEdition)
                throws IOException {
            if (aiSpec.startsWith("program:")) {
                String file = aiSpec.substring("program:".length());
                String made = null;
                for (String line : Files.readAllLines(new File(file).toPath(), StandardCharsets.UTF_8)) {
                    Matcher m = HEADER_EDITION.matcher(line);
                    if (m.find()) {
                        made = m.group(1);
                        break;
                    }
                }
                if (made == null) {
                    return "evaluate: warning: " + file + " records no edition in its header; the harness is edition "
                            + harnessEdition;
                }
                return made.equals(harnessEdition) ? null
                        : "evaluate: warning: the harness is edition " + harnessEdition + ", " + file
                                + " was made for edition " + made;
            }
            if (!aiSpec.equals("microsynth:auto")) {
                return null;
            }
            List<String> other = new ArrayList<>();
            int recorded = 0;
            try (BufferedReader r = Competition.openIndex(env, indexFile)) {
                if (r == null) {
                    return null;
                }
                String line;
                while ((line = r.readLine()) != null) {
                    int hash = line.indexOf('#');
                    String[] f = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
                    if (f.length >= 4 && f[0].equals("made-for") && f[2].equals("edition")) {
                        recorded++;
                        if (!f[3].equals(harnessEdition)) {
                            other.add(f[1].replaceFirst("^program:", "") + " (" + f[3] + ")");
                        }
                    }
                }
            }
            if (recorded == 0) {
                return "evaluate: warning: the program index records no edition ('made-for' lines); the harness is"
                        + " edition " + harnessEdition;
            }
            return other.isEmpty() ? null
                    : "evaluate: warning: the harness is edition " + harnessEdition + ", " + other.size() + " of "
                            + recorded + " programs of the index were made for another: " + String.join(", ", other);
        }
    }
}
