package ai.microsynth.harness;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.List;

import ai.core.AI;
import ai.core.AIWithComputationBudget;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;
import tournaments.LoadTournamentAIs;

/**
 * The harness's own jar discovery (tournaments.LoadTournamentAIs, what the
 * GUI's "Load Specific JAR" and "Load All JARS from Folder" buttons call)
 * run headless on microsynth.jar. MicroRTS must be on the class path and
 * microsynth.jar must not be: the class has to come from the jar's own
 * class loader. Both buttons' loaders are used, so the bot's native library
 * is loaded by two class loaders in one JVM; an instance of each, built as
 * the GUI builds prototypes (the (UnitTypeTable) constructor, then clone),
 * plays the other for a number of cycles.
 *
 * Prints {@code found CLASS} per discovered class and ends with
 * {@code discovered=D loaders=L cycles=C actions0=A actions1=B failures=F};
 * exit 0 when the bot was found by both and played without a failure.
 *
 * <pre>java -cp microsynth-jni-tools.jar:microrts.jar ai.microsynth.harness.JniDiscovery --jar microsynth.jar [--cycles 300] [--harness DIR]</pre>
 */
public final class JniDiscovery {
    private JniDiscovery() {
    }

    static final String BOT = "ai.microsynth.MicrosynthAI";

    @SuppressWarnings("rawtypes")
    static Class<?> find(List<Class> classes) {
        Class<?> found = null;
        for (Class<?> c : classes) {
            System.out.println("found " + c.getName());
            if (c.getName().equals(BOT)) {
                found = c;
            }
        }
        return found;
    }

    static long failures(AI ai) throws Exception {
        Method m = ai.getClass().getMethod("failures");
        return (Long) m.invoke(ai);
    }

    public static void main(String[] args) throws Exception {
        String jar = null, harness = System.getenv("MICROSYNTH_HARNESS");
        int cycles = 300;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
            case "--jar":
                jar = args[i + 1];
                break;
            case "--cycles":
                cycles = Integer.parseInt(args[i + 1]);
                break;
            case "--harness":
                harness = args[i + 1];
                break;
            default:
                jar = null;
                i = args.length;
            }
        }
        if (jar == null || args.length % 2 != 0) {
            System.err.println("usage: JniDiscovery --jar microsynth.jar [--cycles N] [--harness DIR]");
            System.exit(2);
        }
        if (harness == null || harness.isEmpty()) {
            harness = System.getProperty("user.home") + "/.cache/microsynth/harness";
        }
        try {
            Class.forName(BOT);
            System.out.println("FAIL: " + BOT + " is on the class path; discovery must find it in the jar");
            System.exit(1);
        } catch (ClassNotFoundException expected) {
            // as it should be
        }

        // "Load Specific JAR", then "Load All JARS from Folder" on a folder
        // holding only the jar (the build folder has other jars).
        Class<?> a = find(LoadTournamentAIs.loadTournamentAIsFromJAR(new File(jar).getAbsolutePath()));
        File folder = Files.createTempDirectory("microsynth-discovery").toFile();
        File copy = new File(folder, "microsynth.jar");
        Files.copy(new File(jar).toPath(), copy.toPath(), StandardCopyOption.REPLACE_EXISTING);
        folder.deleteOnExit();
        copy.deleteOnExit(); // after the loader is done with it (last registered, first deleted)
        Class<?> b = find(LoadTournamentAIs.loadTournamentAIsFromFolder(folder.getAbsolutePath()));
        int discovered = (a != null ? 1 : 0) + (b != null ? 1 : 0);
        if (a == null || b == null) {
            System.out.println("discovered=" + discovered + " loaders=0 cycles=0 actions0=0 actions1=0 failures=0");
            System.exit(1);
        }
        int loaders = a.getClassLoader() != b.getClassLoader() ? 2 : 1;

        UnitTypeTable utt = new UnitTypeTable(UnitTypeTable.VERSION_ORIGINAL_FINETUNED);
        // Prototypes as the GUI builds them, games played with clones.
        AI p0 = (AI) a.getConstructor(UnitTypeTable.class).newInstance(utt);
        AI p1 = (AI) b.getConstructor(UnitTypeTable.class).newInstance(utt);
        AI ai0 = p0.clone(), ai1 = p1.clone();
        for (AI ai : new AI[] { ai0, ai1 }) {
            ((AIWithComputationBudget) ai).setTimeBudget(100);
            ((AIWithComputationBudget) ai).setIterationsBudget(-1);
            ai.reset();
        }
        File map = new File(new File(harness, "maps"), "8x8/basesWorkers8x8A.xml");
        GameState gs = new GameState(PhysicalGameState.load(map.getPath(), utt), utt);
        ai0.preGameAnalysis(gs, 1000);
        ai1.preGameAnalysis(gs, 1000);
        int played = 0, acted0 = 0, acted1 = 0;
        boolean over = false;
        while (played < cycles && !over) {
            PlayerAction x = ai0.getAction(0, gs), y = ai1.getAction(1, gs);
            acted0 += x.isEmpty() ? 0 : 1;
            acted1 += y.isEmpty() ? 0 : 1;
            gs.issueSafe(x);
            gs.issueSafe(y);
            over = gs.cycle();
            played++;
        }
        ai0.gameOver(gs.winner());
        ai1.gameOver(gs.winner());
        long failures = failures(ai0) + failures(ai1);
        System.out.println("bot " + ai0 + " from " + a.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("discovered=" + discovered + " loaders=" + loaders + " cycles=" + played + " actions0="
                + acted0 + " actions1=" + acted1 + " failures=" + failures);
        System.exit(loaders == 2 && acted0 > 0 && acted1 > 0 && failures == 0 ? 0 : 1);
    }
}
