package ai.microsynth.harness;

import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Builds the class path of a runner from the harness directory, so that
 * {@code java -cp microsynth-harness.jar ai.microsynth.harness.Match ...} is
 * enough: the runner class is loaded again by a {@link HarnessLoader} over
 * [this jar, microrts.jar] plus, in the {@code flat} arrangement,
 * lib/bots/*.jar in gym-microrts order. All of these share one class loader,
 * exactly as with {@code -cp microrts.jar:Coac.jar:...}; this matters because
 * Coac.jar puts its own classes into MicroRTS's package ai.abstraction and
 * uses package-private members, which only works within one loader.
 *
 * Every runner's main is one call of {@link #main}:
 * {@code Launcher.main(Match.class, USAGE, args, () -> Run::run)}; the
 * runner's body sits in a nested class (Run) that alone refers to MicroRTS.
 *
 * This class must not refer to MicroRTS classes: it runs before they are on
 * any class path.
 */
final class Launcher {
    private Launcher() {
    }

    /** Marker type of the loader built here (recognised by name across loaders). */
    static final class HarnessLoader extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        HarnessLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }
    }

    /** The body of a runner: parses its arguments, prints to {@code out}, returns the exit status. */
    interface Body {
        int run(String[] args, PrintStream out) throws Exception;
    }

    /**
     * The main of every runner of this jar: {@link #relaunch} when needed,
     * then the runner's body with stdout captured (bots print to it); a
     * usage error exits 2 with the usage text (none when {@code usage} is
     * null), a failure exits 1 with its reason, and the JVM exits even if
     * bots left threads behind. The body is asked for only once inside the
     * harness loader: the runner class it comes from refers to MicroRTS.
     *
     * @param optionsEnd as for {@link #relaunch}
     * @param failure how the failure is reported, for a runner with its own way
     */
    static void main(Class<?> self, String usage, boolean optionsEnd, Failure failure, String[] args,
            Supplier<Body> body) {
        if (relaunch(self, args, optionsEnd)) {
            return;
        }
        String name = self.getSimpleName();
        PrintStream out = captureStdout();
        int rc;
        try {
            rc = body.get().run(args, out);
        } catch (Options.UsageException e) {
            System.err.println(name + ": " + e.getMessage());
            if (usage != null) {
                System.err.println(usage);
            }
            rc = 2;
        } catch (Throwable t) {
            failure.report(name, t, out);
            rc = 1;
        }
        out.flush();
        System.err.flush();
        System.exit(rc);
    }

    /** {@link #main} of most runners: options anywhere, a failure reported with its stack. */
    static void main(Class<?> self, String usage, String[] args, Supplier<Body> body) {
        main(self, usage, false, Launcher::failedWithStack, args, body);
    }

    /** How a runner reports the failure that ends it (exit 1). */
    interface Failure {
        void report(String name, Throwable t, PrintStream out);
    }

    /** The usual report: the reason on one line, then the stack for whoever has to dig. */
    static void failedWithStack(String name, Throwable t, PrintStream out) {
        System.err.println(name + ": " + reason(t));
        t.printStackTrace();
    }

    /** Sends System.out to stderr (bots print to it) and returns the real stdout. */
    static PrintStream captureStdout() {
        PrintStream real = System.out;
        System.setOut(System.err);
        return real;
    }

    /** One line for a throwable and up to three causes. */
    static String reason(Throwable t) {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        while (t != null && depth++ < 4) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(t.getClass().getName());
            if (t.getMessage() != null) {
                sb.append(": ").append(t.getMessage().replace('\n', ' '));
            }
            if (t.getCause() == t) {
                break;
            }
            t = t.getCause();
        }
        return sb.toString();
    }

    static boolean insideHarnessLoader(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l != null && l.getClass().getName().equals(HarnessLoader.class.getName());
    }

    /**
     * Re-runs {@code self.main(args)} inside a HarnessLoader unless it already
     * runs there or {@code --bots none} was given. Returns true when it did
     * (the caller then returns), false when the caller should go on.
     *
     * @param optionsEnd stop scanning at the first argument not starting with "--"
     */
    static boolean relaunch(Class<?> self, String[] args, boolean optionsEnd) {
        if (insideHarnessLoader(self)) {
            return false;
        }
        String harnessFlag = null, mode = "flat";
        for (int i = 0; i < args.length; i++) {
            if (optionsEnd && !args[i].startsWith("--")) {
                break;
            }
            if (args[i].equals("--harness") && i + 1 < args.length) {
                harnessFlag = args[++i];
            } else if (args[i].equals("--bots") && i + 1 < args.length) {
                mode = args[++i];
            }
        }
        if (mode.equals("none")) {
            return false; // the JVM class path as given
        }
        if (!mode.equals("flat") && !mode.equals("isolated")) {
            System.err.println(self.getSimpleName() + ": --bots must be flat, isolated or none, not '" + mode + "'");
            System.exit(2);
        }
        HarnessLoader loader;
        try {
            loader = buildLoader(self, harnessFlag, mode.equals("flat"));
        } catch (IllegalStateException e) {
            System.err.println(self.getSimpleName() + ": " + e.getMessage());
            System.exit(1);
            return true;
        }
        Thread.currentThread().setContextClassLoader(loader);
        try {
            Class<?> again = Class.forName(self.getName(), true, loader);
            Method m = again.getMethod("main", String[].class);
            m.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            System.err.println(self.getSimpleName() + ": " + t);
            t.printStackTrace();
            System.exit(1);
        } catch (ReflectiveOperationException e) {
            System.err.println(self.getSimpleName() + ": cannot relaunch: " + e);
            System.exit(1);
        }
        return true;
    }

    /**
     * The loader of a run: this jar, microrts.jar, microsynth.jar when
     * found, then (flat) the bot jars in gym-microrts order. Throws
     * IllegalStateException naming what is missing.
     */
    static HarnessLoader buildLoader(Class<?> self, String harnessFlag, boolean flat) {
        File harness = Options.harnessDir(harnessFlag);
        File microrts = new File(harness, "microrts.jar");
        if (!microrts.isFile()) {
            throw new IllegalStateException("no microrts.jar in " + harness
                    + " (run tools/setup.sh, or pass --harness DIR / set MICROSYNTH_HARNESS)");
        }
        List<URL> urls = new ArrayList<>();
        try {
            urls.add(self.getProtectionDomain().getCodeSource().getLocation());
            urls.add(microrts.toURI().toURL());
            File dropIn = dropInJar(self);
            if (dropIn != null) {
                urls.add(dropIn.toURI().toURL());
            }
            if (flat) {
                for (File j : botJarsNoMicrorts(harness)) {
                    urls.add(j.toURI().toURL());
                }
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        return new HarnessLoader(urls.toArray(new URL[0]), platformLoader());
    }

    /**
     * microsynth.jar (the drop-in bot), so that runners can play
     * {@code program:FILE}: $MICROSYNTH_JAR, else beside this class's jar.
     */
    static File dropInJar(Class<?> self) {
        String env = System.getenv("MICROSYNTH_JAR");
        if (env != null && !env.isEmpty()) {
            File f = new File(env);
            return f.isFile() ? f : null;
        }
        try {
            File here = new File(self.getProtectionDomain().getCodeSource().getLocation().toURI());
            File f = new File(here.getParentFile(), "microsynth.jar");
            return f.isFile() ? f : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** Java 9+: the platform loader (java.sql etc.); Java 8: the boot loader (null). */
    private static ClassLoader platformLoader() {
        try {
            return (ClassLoader) ClassLoader.class.getMethod("getPlatformClassLoader").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    static List<File> botJarsNoMicrorts(File harness) {
        File dir = new File(new File(harness, "lib"), "bots");
        File[] all = dir.listFiles((d, n) -> n.endsWith(".jar"));
        List<File> out = new ArrayList<>();
        if (all == null) {
            return out;
        }
        List<File> rest = new ArrayList<>(java.util.Arrays.asList(all));
        for (String name : GYM_BOT_ORDER) {
            for (File f : all) {
                if (f.getName().equals(name)) {
                    out.add(f);
                    rest.remove(f);
                }
            }
        }
        rest.sort((x, y) -> x.getName().compareTo(y.getName()));
        out.addAll(rest);
        out.addAll(userBotJars());
        return out;
    }

    /** Environment variable: a bot the user built outside the harness (TMA), as a jar or a folder of jars. */
    static final String ENV_TMA = "MICROSYNTH_TMA";

    /**
     * The jars $MICROSYNTH_TMA names (a jar, or every jar of a folder): bots that
     * are no part of the harness, built by the user (docs/harness.md, "TMA").
     * A path that does not exist is reported once and left out.
     */
    static List<File> userBotJars() {
        List<File> out = new ArrayList<>();
        String env = System.getenv(ENV_TMA);
        if (env == null || env.trim().isEmpty()) {
            return out;
        }
        File f = new File(env.trim());
        File[] jars = f.isDirectory() ? f.listFiles((d, n) -> n.endsWith(".jar")) : f.isFile() ? new File[] {f} : null;
        if (jars == null || jars.length == 0) {
            if (!warnedTma) {
                warnedTma = true;
                System.err.println("harness: " + ENV_TMA + "=" + env + " is neither a jar nor a folder with jars");
            }
            return out;
        }
        java.util.Arrays.sort(jars);
        out.addAll(java.util.Arrays.asList(jars));
        return out;
    }

    private static boolean warnedTma;

    /** Order of the bot jars in gym-microrts 0.6.0 (vec_env.py); other jars follow alphabetically. */
    static final String[] GYM_BOT_ORDER = { "Coac.jar", "Droplet.jar", "GRojoA3N.jar", "Izanagi.jar",
            "MixedBot.jar", "TiamatBot.jar", "UMSBot.jar", "mayariBot.jar" };
}
