package ai.microsynth.harness;

import java.awt.Dialog;
import java.awt.Frame;
import java.awt.GraphicsEnvironment;
import java.awt.Window;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.SwingUtilities;

/**
 * Starts a GUI entry point (for example gui.frontend.FrontEnd) in this JVM,
 * reports every window that becomes visible ({@code window "TITLE" WxH}) and
 * every uncaught exception ({@code exception THREAD: ...}), and ends with
 * {@code gui ok} (the awaited window appeared, no exception) or
 * {@code gui failed: why}. Needs a display, e.g. xvfb-run.
 */
public final class GuiCheck {
    private GuiCheck() {
    }

    static final String USAGE = String.join("\n",
            "usage: GuiCheck [--harness DIR] [--bots flat|isolated|none] [--until TITLE] [--seconds N]",
            "                [--settle MS] MAINCLASS [ARGS...]",
            "  --until TITLE   succeed once a visible window whose title contains TITLE appears",
            "                  (default: any window)",
            "  --seconds N     give up after N seconds (default 30)",
            "  --settle MS     after the window appears, keep watching for exceptions (default 1500)",
            "exit 0 gui ok, 1 failed, 2 bad usage, 3 no display");

    public static void main(String[] args) {
        // The options end at MAINCLASS; a failure is the report's last line.
        Launcher.main(GuiCheck.class, USAGE, true,
                (name, t, out) -> out.println("gui failed: " + Launcher.reason(t)), args, () -> GuiCheck::run);
    }

    static int run(String[] args, PrintStream out) throws Exception {
        Options.Parser opts = new Options.Parser(new Options.Shared("--harness", "--bots")).wordEnds()
                .values("--until")
                .keep("--seconds", Options::intValue)
                .keep("--settle", Options::longValue);
        opts.parse(args, out);
        String until = opts.get("--until", null);
        int seconds = opts.get("--seconds", 30);
        long settle = opts.get("--settle", 1500L);
        String[] tail = opts.rest();
        if (tail.length == 0) {
            throw new Options.UsageException("MAINCLASS is required");
        }
        String mainClass = tail[0];
        String[] rest = Arrays.copyOfRange(tail, 1, tail.length);

        if (GraphicsEnvironment.isHeadless()) {
            out.println("gui failed: no display (run under xvfb-run)");
            return 3;
        }
        out.println("weka " + (present("weka.core.Instances") ? "present" : "absent"));

        final List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Thread.setDefaultUncaughtExceptionHandler((th, ex) -> {
            String msg = "exception " + th.getName() + ": " + Launcher.reason(ex) + " at " + Harness.origin(ex);
            problems.add(msg);
            synchronized (out) {
                out.println(msg);
                out.flush();
            }
        });

        Method m = Class.forName(mainClass).getMethod("main", String[].class);
        Thread runner = new Thread(() -> {
            try {
                m.invoke(null, (Object) rest);
            } catch (InvocationTargetException e) {
                Thread.getDefaultUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e.getCause());
            } catch (Throwable e) {
                Thread.getDefaultUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e);
            }
        }, "main-under-test");
        runner.setDaemon(true);
        runner.start();

        Map<Window, Boolean> seen = new IdentityHashMap<>();
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        long found = -1;
        while (System.currentTimeMillis() < deadline) {
            // Look at the windows on the event dispatch thread: the program under
            // test may build them on another thread, and a window that is still
            // being set up (no title, no size yet) is looked at again next time.
            List<String[]> fresh = new ArrayList<>();
            SwingUtilities.invokeAndWait(() -> {
                for (Window w : Window.getWindows()) {
                    String title = title(w);
                    if (!w.isShowing() || seen.containsKey(w) || title == null || w.getWidth() <= 0
                            || w.getHeight() <= 0) {
                        continue;
                    }
                    seen.put(w, Boolean.TRUE);
                    fresh.add(new String[] { title,
                            "window \"" + title + "\" " + w.getWidth() + "x" + w.getHeight() + " "
                                    + w.getClass().getName() });
                }
            });
            for (String[] f : fresh) {
                synchronized (out) {
                    out.println(f[1]);
                    out.flush();
                }
                if (found < 0 && (until == null || f[0].contains(until))) {
                    found = System.currentTimeMillis();
                }
            }
            if (found >= 0 && System.currentTimeMillis() - found >= settle) {
                break;
            }
            Thread.sleep(100);
        }
        synchronized (out) {
            if (found < 0) {
                dumpThreads();
                out.println("gui failed: no window" + (until == null ? "" : " titled \"" + until + "\"")
                        + " within " + seconds + " s");
                return 1;
            }
            out.println("runner " + (runner.isAlive() ? "still in " + frame(runner) : "returned"));
            if (!problems.isEmpty()) {
                out.println("gui failed: " + problems.size() + " uncaught exception(s)");
                return 1;
            }
            out.println("gui ok");
        }
        return 0;
    }

    /** All thread stacks to stderr, to diagnose a GUI that never shows up. */
    private static void dumpThreads() {
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            System.err.println("thread \"" + e.getKey().getName() + "\" " + e.getKey().getState());
            for (StackTraceElement f : e.getValue()) {
                System.err.println("    at " + f);
            }
        }
    }

    /** First stack frame outside the JDK of a thread. */
    private static String frame(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (!(c.startsWith("java.") || c.startsWith("javax.") || c.startsWith("sun.") || c.startsWith("jdk."))) {
                return e.getClassName() + "." + e.getMethodName();
            }
        }
        return "?";
    }

    private static boolean present(String cls) {
        try {
            Class.forName(cls, false, GuiCheck.class.getClassLoader());
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Title of a frame or dialog ("" for other windows), null while not set yet. */
    private static String title(Window w) {
        if (w instanceof Frame) {
            return ((Frame) w).getTitle();
        }
        if (w instanceof Dialog) {
            return ((Dialog) w).getTitle();
        }
        return "";
    }
}
