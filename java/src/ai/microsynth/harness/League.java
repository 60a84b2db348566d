package ai.microsynth.harness;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import ai.core.AI;
import rts.units.UnitTypeTable;

/**
 * A simulated tournament (the dissertation's 5.3): the official
 * RoundRobinTournament over programs, our native bots (through the drop-in
 * bot, {@code microsynth:NAME}) and Java bots, every ordered pair on every
 * map, each map with its own game length. Prints the W/D/L table and the
 * mean-score table of every entrant against every other, a ranking by mean
 * score, and writes an SVG heat map and ranking plot.
 */
public final class League {
    private League() {
    }

    static final String USAGE = String.join("\n",
            "usage: League --ai SPEC --ai SPEC ... (--map PATH ... | --maps SET) [options]",
            "  --ai SPEC               an entrant: Java class, program:FILE, index:FILE, microsynth:NATIVEBOT, ...",
            "  --name NAME             a display name for the --ai just before it",
            "  --map PATH, --maps SET  maps (SET as for Evaluate: 2025, 2023, 2023-hidden, held-out, FILE)",
            "  --iterations N          rounds (default 1)",
            "  --max-cycles N          game length (default: the competition's by map size)",
            "  --svg PREFIX            write PREFIX-heatmap.svg and PREFIX-ranking.svg",
            "  --map-dir DIR           also look for maps here",
            "  --utt, --conflict, --time-budget, --iterations-budget, --pregame-ms, --pregame-later-ms,",
            "  --partially-observable, --timeout-check, --harness, --bots   as for Tournament",
            "last line: 'games=N crashes=C timeouts=T best=NAME best_score=X'");

    public static void main(String[] args) {
        Launcher.main(League.class, USAGE, args, () -> Run::run);
    }

    static final class Run {
        private Run() {
        }

        static int run(String[] args, PrintStream out) throws Exception {
            List<String> specs = new ArrayList<>(), names = new ArrayList<>();
            Options.Shared sh = new Options.Shared(Options.Shared.TOURNAMENT).with("--map", "--maps", "--map-dir",
                    "--iterations");
            // --max-cycles of its own: by default each map's competition length
            Options.Parser opts = new Options.Parser(sh).help(USAGE)
                    .keep("--max-cycles", o -> o.intAtLeast(1))
                    .values("--svg")
                    .on("--ai", o -> {
                        specs.add(o.value());
                        names.add(null);
                    })
                    .on("--name", o -> {
                        if (specs.isEmpty()) {
                            throw new Options.UsageException("--name must follow an --ai");
                        }
                        names.set(names.size() - 1, o.value());
                    });
            if (!opts.parse(args, out)) {
                return 0;
            }
            List<String> maps = sh.maps, sets = sh.sets;
            List<File> mapDirs = sh.mapDirs;
            int iterations = sh.iterations;
            Integer maxCycles = opts.get("--max-cycles", null);
            String svg = opts.get("--svg", null);
            File harness = sh.harnessDir();
            Harness.Env env = new Harness.Env(harness, sh.bots);
            for (String set : sets) {
                for (String m : Competition.mapsOf(set, env, null)) {
                    if (!maps.contains(m)) {
                        maps.add(m);
                    }
                }
            }
            if (specs.size() < 2 || maps.isEmpty()) {
                throw new Options.UsageException("a league needs at least two --ai and one map");
            }
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i) == null) {
                    names.set(i, shortName(specs.get(i)));
                }
            }
            UnitTypeTable table = new UnitTypeTable(sh.utt, sh.conflict);
            List<AI> ais = new ArrayList<>();
            for (String s : specs) {
                ais.add(Harness.build(env, s, table, sh.timeBudget, sh.iterationsBudget));
            }
            TournamentApi.Shape rr = TournamentApi.find(UnitTypeTable.class.getClassLoader(),
                    TournamentApi.ROUND_ROBIN, UnitTypeTable.class);
            out.println("league entrants=" + ais.size() + " maps=" + maps.size() + " iterations=" + iterations
                    + " tournament_api=" + rr.name());
            int n = ais.size();
            int[][] w = new int[n][n], d = new int[n][n], l = new int[n][n];
            int games = 0, crashes = 0, timeouts = 0;
            File rw = Files.createTempDirectory("microsynth-league").toFile();
            for (int mi = 0; mi < maps.size(); mi++) {
                String path = Competition.resolve(maps.get(mi), harness, mapDirs).getPath();
                int cycles = maxCycles != null ? maxCycles : Competition.cyclesFor(path, table);
                StringWriter log = new StringWriter();
                TournamentApi.Call.roundRobin(ais).maps(Arrays.asList(path)).iterations(iterations).maxCycles(cycles)
                        .rules(sh).utt(table).out(log).rwFolder(rw.getPath()).run(rr);
                for (int[] g : TournamentLog.games(log.toString())) {
                    int a = g[0], b = g[1];
                    games++;
                    crashes += g[3] >= 0 ? 1 : 0;
                    timeouts += g[4] >= 0 ? 1 : 0;
                    if (g[2] == 0) {
                        w[a][b]++;
                        l[b][a]++;
                    } else if (g[2] == 1) {
                        l[a][b]++;
                        w[b][a]++;
                    } else {
                        d[a][b]++;
                        d[b][a]++;
                    }
                }
                System.err.printf(Locale.ROOT, "league: %d/%d %s%n", mi + 1, maps.size(), maps.get(mi));
            }
            double[][] score = new double[n][n];
            double[] mean = new double[n];
            for (int i = 0; i < n; i++) {
                int tw = 0, td = 0, tl = 0;
                for (int j = 0; j < n; j++) {
                    int g = w[i][j] + d[i][j] + l[i][j];
                    score[i][j] = g == 0 ? Double.NaN : (w[i][j] + 0.5 * d[i][j]) / g;
                    tw += w[i][j];
                    td += d[i][j];
                    tl += l[i][j];
                }
                mean[i] = Competition.score(new int[] {tw, td, tl});
            }
            out.println();
            out.println("W/D/L of the row entrant against the column entrant (both seats, all maps):");
            printTable(out, names, (i, j) -> i == j ? "-" : w[i][j] + "/" + d[i][j] + "/" + l[i][j]);
            out.println();
            out.println("mean score of the row entrant against the column entrant:");
            printTable(out, names, (i, j) -> i == j ? "-" : String.format(Locale.ROOT, "%.3f", score[i][j]));
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Double.compare(mean[b], mean[a]));
            out.println();
            out.println("ranking by mean score:");
            for (int r = 0; r < n; r++) {
                out.printf(Locale.ROOT, "%2d. %-28s %.3f%n", r + 1, names.get(order[r]), mean[order[r]]);
            }
            if (svg != null) {
                writeHeatmap(svg + "-heatmap.svg", names, score);
                writeRanking(svg + "-ranking.svg", names, mean, order);
                out.println("wrote " + svg + "-heatmap.svg and " + svg + "-ranking.svg");
            }
            out.printf(Locale.ROOT, "games=%d crashes=%d timeouts=%d best=%s best_score=%.4f%n", games, crashes,
                    timeouts, names.get(order[0]).replace(' ', '_'), mean[order[0]]);
            return 0;
        }

        interface Cell {
            String at(int i, int j);
        }

        private static void printTable(PrintStream out, List<String> names, Cell cell) {
            int n = names.size();
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-24s", ""));
            for (int j = 0; j < n; j++) {
                head.append(String.format(Locale.ROOT, " %9s", "[" + j + "]"));
            }
            out.println(head);
            for (int i = 0; i < n; i++) {
                String nm = names.get(i);
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-24s",
                        "[" + i + "] " + (nm.length() > 19 ? nm.substring(0, 19) : nm)));
                for (int j = 0; j < n; j++) {
                    sb.append(String.format(Locale.ROOT, " %9s", cell.at(i, j)));
                }
                out.println(sb);
            }
        }

        /** A short display name: the class's simple name, or a program's or index's file name. */
        static String shortName(String spec) {
            if (spec.startsWith("program:") || spec.startsWith("index:")) {
                String file = spec.substring(spec.indexOf(':') + 1);
                return new File(file).getName().replaceAll("\\.[a-z]+$", "");
            }
            if (spec.startsWith("microsynth:")) {
                return spec.substring(11);
            }
            int dot = spec.lastIndexOf('.');
            return dot >= 0 ? spec.substring(dot + 1) : spec;
        }

        private static String esc(String s) {
            return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        }

        /** Red (0) through yellow (0.5) to green (1). */
        private static String colour(double v) {
            if (Double.isNaN(v)) {
                return "#dddddd";
            }
            int r = v < 0.5 ? 230 : (int) Math.round(230 - (v - 0.5) * 2 * 190);
            int g = v < 0.5 ? (int) Math.round(60 + v * 2 * 150) : 210;
            return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, 60);
        }

        private static void writeHeatmap(String file, List<String> names, double[][] score) throws IOException {
            int n = names.size(), cell = 56, left = 170, top = 150;
            int width = left + n * cell + 20, height = top + n * cell + 40;
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
            s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">Mean score of the row "
                    + "against the column (official harness, both seats)</text>%n", 10));
            for (int j = 0; j < n; j++) {
                int x = left + j * cell + cell / 2;
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" transform=\"rotate(-50 %d %d)\">%s</text>%n",
                        x, top - 8, x, top - 8, esc(names.get(j))));
            }
            for (int i = 0; i < n; i++) {
                int y = top + i * cell;
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                        left - 8, y + cell / 2 + 4, esc(names.get(i))));
                for (int j = 0; j < n; j++) {
                    int x = left + j * cell;
                    double v = i == j ? Double.NaN : score[i][j];
                    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                            + "fill=\"%s\" stroke=\"white\"/>%n", x, y, cell, cell, colour(v)));
                    if (!Double.isNaN(v)) {
                        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.2f"
                                + "</text>%n", x + cell / 2, y + cell / 2 + 4, v));
                    }
                }
            }
            s.append("</svg>\n");
            Files.write(new File(file).toPath(), s.toString().getBytes(StandardCharsets.UTF_8));
        }

        private static void writeRanking(String file, List<String> names, double[] mean, Integer[] order)
                throws IOException {
            int n = names.size(), bar = 24, left = 170, top = 40, span = 400;
            int width = left + span + 70, height = top + n * (bar + 6) + 30;
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
            s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
            s.append("<text x=\"10\" y=\"20\" font-size=\"14\">Mean score against all other entrants</text>\n");
            for (int r = 0; r < n; r++) {
                int i = order[r], y = top + r * (bar + 6);
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                        left - 8, y + bar / 2 + 4, esc(names.get(i))));
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                        left, y, (int) Math.round(mean[i] * span), bar, colour(mean[i])));
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.3f</text>%n",
                        left + (int) Math.round(mean[i] * span) + 6, y + bar / 2 + 4, mean[i]));
            }
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\" "
                    + "stroke-dasharray=\"4 3\"/>%n", left + span / 2, top - 6, left + span / 2, height - 20));
            s.append("</svg>\n");
            Files.write(new File(file).toPath(), s.toString().getBytes(StandardCharsets.UTF_8));
        }
    }
}
