package ai.microsynth.harness;

import java.io.File;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import ai.core.AI;
import ai.microsynth.MicrosynthAI;
import rts.units.UnitTypeTable;

/**
 * The official round-robin tournament (tournaments.RoundRobinTournament,
 * driven as the GUI's Tournaments tab drives it, in either API shape: see
 * TournamentApi) with our JNI bot among
 * Java bots. Prints the tournament's own result table, one
 * {@code game ...} line per game, and ends with
 * {@code games=N expected=E crashes=C timeouts=T ours_crashed=A ours_timedout=B}.
 * Exit 0 when every game was played, nobody crashed and our bot never timed
 * out; 1 otherwise; 2 on bad usage.
 *
 * <pre>java -cp microsynth-jni-tools.jar:microrts.jar:Coac.jar:microsynth.jar \
 *   ai.microsynth.harness.JniTournament --map maps/8x8/basesWorkers8x8A.xml \
 *   --ai microsynth:LightRush --ai ai.coac.CoacAI --ai ai.abstraction.WorkerRush [--iterations 1]
 *   [--max-cycles 3000] [--time-budget 100] [--out DIR] [--utt 2] [--conflict 1]</pre>
 *
 * An AI is a class with a (UnitTypeTable) constructor, or {@code microsynth:SPEC}
 * for {@code new MicrosynthAI(utt, SPEC)}.
 */
public final class JniTournament {
    private JniTournament() {
    }

    static final String USAGE = "usage: JniTournament --map MAP [--map MAP...] --ai AI --ai AI [--ai AI...]"
            + " [--iterations N] [--max-cycles N] [--time-budget MS] [--utt V] [--conflict P] [--out DIR]"
            + " [--harness DIR]";

    static void usage(String why) {
        System.err.println("JniTournament: " + why);
        System.err.println(USAGE);
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        Options.Shared sh = new Options.Shared("--map", "--ai", "--iterations", "--harness", "--utt", "--conflict",
                "--max-cycles", "--time-budget");
        Options.Parser opts = new Options.Parser(sh).values("--out");
        try {
            opts.parse(args, System.out);
        } catch (Options.UsageException e) {
            usage(e.getMessage());
        }
        List<String> maps = sh.maps, names = sh.ais;
        int iterations = sh.iterations;
        String out = opts.get("--out", null);
        if (maps.isEmpty() || names.size() < 2) {
            usage("at least one --map and two --ai are needed");
        }
        String harness = sh.harnessDir().getPath();
        int maxCycles = sh.maxCycles, budget = sh.timeBudget, version = sh.utt, conflict = sh.conflict;
        List<String> paths = new ArrayList<>();
        for (String m : maps) {
            File f = new File(m);
            if (!f.isFile()) {
                f = new File(harness, m);
            }
            if (!f.isFile()) {
                f = new File(new File(harness, "maps"), m);
            }
            if (!f.isFile()) {
                usage("map not found: " + m);
            }
            paths.add(f.getPath());
        }
        File dir = new File(out != null ? out : "jni-tournament");
        if (!dir.isDirectory() && !dir.mkdirs()) {
            usage("cannot create " + dir);
        }

        UnitTypeTable utt = new UnitTypeTable(version, conflict);
        List<AI> ais = new ArrayList<>();
        int ours = -1;
        for (String n : names) {
            if (n.startsWith("microsynth:")) {
                ours = ais.size();
                ais.add(new MicrosynthAI(utt, n.substring("microsynth:".length())));
            } else {
                ais.add((AI) Class.forName(n).getConstructor(UnitTypeTable.class).newInstance(utt));
            }
        }

        StringWriter result = new StringWriter();
        Writer progress = new OutputStreamWriter(System.err, StandardCharsets.UTF_8);
        // As the GUI runs it: all games, pre-game analysis on, full
        // observability, no self-play, timeouts checked, no GC, no traces.
        TournamentApi.Call call = TournamentApi.Call.roundRobin(ais).maps(paths).iterations(iterations)
                .maxCycles(maxCycles).rules(budget, -1, 1000L, false, true).utt(utt).out(result).progress(progress)
                .rwFolder(dir.getPath());
        TournamentApi.Shape shape = call.shape(UnitTypeTable.class.getClassLoader(), UnitTypeTable.class);
        System.out.println("tournament_api=" + shape.name() + " class=" + TournamentApi.ROUND_ROBIN + "("
                + TournamentApi.where(shape.cls) + ")");
        call.run(shape);
        progress.flush();
        String text = result.toString();
        System.out.print(text);

        // Rows after the header "iteration map ai1 ai2 time winner crashed timedout".
        int games = 0, crashes = 0, timeouts = 0, oursCrashed = 0, oursTimedOut = 0;
        for (int[] g : TournamentLog.games(text)) {
            int a0 = g[0], a1 = g[1], crashed = g[3], timedout = g[4];
            games++;
            System.out.println("game " + ais.get(a0) + " vs " + ais.get(a1) + " winner=" + g[2] + " cycles=" + g[5]
                    + " crashed=" + crashed + " timedout=" + timedout);
            if (crashed >= 0) {
                crashes++;
                oursCrashed += (crashed == 0 ? a0 : a1) == ours ? 1 : 0;
            }
            if (timedout >= 0) {
                timeouts++;
                oursTimedOut += (timedout == 0 ? a0 : a1) == ours ? 1 : 0;
            }
        }
        int expected = names.size() * (names.size() - 1) * paths.size() * iterations;
        if (ours >= 0) {
            System.out.println("ours " + ais.get(ours).statisticsString());
        }
        System.out.println("games=" + games + " expected=" + expected + " crashes=" + crashes + " timeouts=" + timeouts
                + " ours_crashed=" + oursCrashed + " ours_timedout=" + oursTimedOut);
        System.out.flush();
        // Some competition bots leave threads behind.
        System.exit(games == expected && crashes == 0 && oursTimedOut == 0 ? 0 : 1);
    }
}
