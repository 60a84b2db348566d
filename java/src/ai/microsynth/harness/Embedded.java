package ai.microsynth.harness;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * Entry point for a JVM hosted by the native library (ms_jvm_match): runs
 * one official match as {@link Match} does, inside the harness class loader
 * (built once per harness directory), and returns Match's output instead of
 * printing it and exiting. Usage errors and failures come back as
 * exceptions whose message the native side reports.
 */
public final class Embedded {
    private Embedded() {
    }

    private static boolean quieted;

    /**
     * With -Dmicrosynth.quiet=true (the hosted JVM of a synthesis run sets
     * it) the JVM's System.out and System.err are discarded: competition bots
     * print warnings on every cycle (CoacAI's Build.execute, TrainDirection),
     * which over thousands of evaluation matches would fill gigabytes. Match
     * results come back through the return value, errors as exceptions.
     */
    private static synchronized void quietOnce() {
        if (quieted || !Boolean.getBoolean("microsynth.quiet")) {
            return;
        }
        quieted = true;
        java.io.OutputStream none = new java.io.OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) {
            }
        };
        System.setOut(new PrintStream(none));
        System.setErr(new PrintStream(none));
    }

    private static Launcher.HarnessLoader loader;
    private static String loaderFor;

    private static synchronized Method matchRun(String harness) throws ReflectiveOperationException {
        String key = harness == null ? "" : harness;
        if (loader == null || !key.equals(loaderFor)) {
            loader = Launcher.buildLoader(Embedded.class, harness, true);
            loaderFor = key;
        }
        Class<?> run = Class.forName(Match.class.getName() + "$Run", true, loader);
        Method m = run.getDeclaredMethod("run", String[].class, PrintStream.class);
        m.setAccessible(true);
        return m;
    }

    /**
     * Plays one match; {@code args} are Match's flags (--harness among them
     * selects the harness). Returns Match's stdout; its last line is
     * {@code winner=W cycles=C}.
     */
    public static String match(String[] args) throws Exception {
        quietOnce();
        String harness = null;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--harness")) {
                harness = args[i + 1];
            }
        }
        Method m = matchRun(harness);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, "UTF-8");
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(m.getDeclaringClass().getClassLoader());
        try {
            m.invoke(null, args, out);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            String why = c.getMessage() != null ? c.getMessage() : c.toString();
            throw new IllegalArgumentException(why, c);
        } finally {
            t.setContextClassLoader(before);
        }
        out.flush();
        return new String(buf.toByteArray(), StandardCharsets.UTF_8);
    }
}
