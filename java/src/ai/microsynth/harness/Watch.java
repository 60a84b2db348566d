package ai.microsynth.harness;

import java.awt.GraphicsEnvironment;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.Set;

import javax.imageio.ImageIO;

import ai.core.AI;
import gui.PhysicalGameStateJFrame;
import gui.PhysicalGameStatePanel;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * One match shown in the official game window (gui.PhysicalGameStatePanel),
 * as MicroRTS's own visual examples run it: both AIs decide, both actions
 * are issued, one cycle, repaint, wait. Optionally grabs a screenshot of the
 * window from the screen (java.awt.Robot) so a test can tell a drawn match
 * from a blank frame.
 */
public final class Watch {
    private Watch() {
    }

    public static void main(String[] args) {
        Launcher.main(Watch.class, USAGE, args, () -> Watch::run);
    }

    static final String USAGE = String.join("\n",
            "usage: Watch --map PATH --p0 SPEC --p1 SPEC [options]",
            "  --p0 SPEC, --p1 SPEC    class name, program:FILE or socket:HOST:PORT[:json|xml]",
            "  --utt 1|2|3, --conflict 1|2|3, --max-cycles N (default 3000), --time-budget MS (default 100)",
            "  --delay MS              pause per cycle (default 20)",
            "  --size PX               window size (default 640)",
            "  --screenshot FILE       save a PNG of the window (from the screen) ...",
            "  --screenshot-at N       ... at cycle N (default: at the end)",
            "  --keep-open             leave the window open when the game ends",
            "output: last line 'winner=W cycles=C' (and 'screenshot=FILE colors=K' before it)");

    static int run(String[] args, PrintStream out) throws Exception {
        Options.Shared sh = new Options.Shared("--map", "--p0", "--p1", "--harness", "--bots", "--utt", "--conflict",
                "--max-cycles", "--time-budget");
        Options.Parser opts = new Options.Parser(sh)
                .keep("--delay", Options::intValue)
                .keep("--size", o -> o.intAtLeast(64))
                .values("--screenshot")
                .keep("--screenshot-at", Options::intValue)
                .flags("--keep-open");
        opts.parse(args, out);
        sh.requireGame();
        String map = sh.map(null), p0 = sh.p0, p1 = sh.p1, shot = opts.get("--screenshot", null);
        int delay = opts.get("--delay", 20), size = opts.get("--size", 640), shotAt = opts.get("--screenshot-at", -1);
        boolean keepOpen = opts.has("--keep-open");
        int utt = sh.utt, conflict = sh.conflict, maxCycles = sh.maxCycles, timeBudget = sh.timeBudget;
        Options.BotMode mode = sh.bots;
        if (GraphicsEnvironment.isHeadless()) {
            System.err.println("Watch: no display (run under a desktop session or xvfb-run)");
            return 3;
        }
        File harness = sh.harnessDir();
        Harness.Env env = new Harness.Env(harness, mode);
        UnitTypeTable table = new UnitTypeTable(utt, conflict);
        GameState gs = new GameState(PhysicalGameState.load(Harness.resolveMap(map, harness).getPath(), table), table);
        AI[] ai = { Harness.build(env, p0, table, timeBudget, -1), Harness.build(env, p1, table, timeBudget, -1) };
        PhysicalGameStateJFrame w = PhysicalGameStatePanel.newVisualizer(gs, size, size, false,
                PhysicalGameStatePanel.COLORSCHEME_BLACK);
        w.setTitle("microsynth watch: " + p0 + " vs " + p1);
        for (AI a : ai) {
            a.reset();
        }
        boolean over = false;
        int crashed = -1;
        while (!over && gs.getTime() < maxCycles) {
            PlayerAction[] pa = new PlayerAction[2];
            for (int p = 0; p < 2 && crashed < 0; p++) {
                try {
                    pa[p] = ai[p].getAction(p, gs);
                } catch (Exception e) {
                    System.err.println("Watch: player " + p + " crashed at cycle " + gs.getTime() + ": "
                            + Launcher.reason(e));
                    crashed = p;
                }
            }
            if (crashed >= 0) {
                break;
            }
            gs.issueSafe(pa[0]);
            gs.issueSafe(pa[1]);
            over = gs.cycle();
            w.setStateDirect(gs);
            w.repaint();
            if (shot != null && gs.getTime() == shotAt) {
                screenshot(w, shot, out);
                shot = null;
            }
            if (delay > 0) {
                Thread.sleep(delay);
            }
        }
        int winner = crashed >= 0 ? 1 - crashed : gs.winner();
        for (AI a : ai) {
            a.gameOver(winner);
        }
        if (shot != null) {
            screenshot(w, shot, out);
        }
        out.println("winner=" + winner + " cycles=" + gs.getTime());
        out.flush();
        if (keepOpen) {
            while (w.isDisplayable()) {
                Thread.sleep(200);
            }
        }
        w.dispose();
        return 0;
    }

    /** Grabs the window's screen area; prints how many colours it holds (1 = blank). */
    static void screenshot(PhysicalGameStateJFrame w, String file, PrintStream out) throws Exception {
        javax.swing.SwingUtilities.invokeAndWait(() -> w.getPanel().paintImmediately(w.getPanel().getBounds()));
        Thread.sleep(150); // let the X server show the frame
        Rectangle r = w.getPanel().getBounds();
        r.setLocation(w.getPanel().getLocationOnScreen());
        BufferedImage img = new Robot().createScreenCapture(r);
        Set<Integer> colors = new HashSet<>();
        for (int y = 0; y < img.getHeight() && colors.size() < 1000; y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                colors.add(img.getRGB(x, y));
            }
        }
        ImageIO.write(img, "png", new File(file));
        out.println("screenshot=" + file + " colors=" + colors.size());
    }
}
