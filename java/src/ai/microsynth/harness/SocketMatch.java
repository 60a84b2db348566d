package ai.microsynth.harness;

import java.io.File;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;

import ai.core.AI;
import ai.core.AIWithComputationBudget;
import ai.socket.SocketAI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * The official game side of the socket protocol against a SocketAI server:
 * an {@code ai.socket.SocketAI}, built with its (budget, address, port,
 * language, table) constructor, plays full matches in the official engine
 * against a Java bot, the way a tournament game drives any AI: build,
 * reset, pre-game analysis (with a folder, as tournaments send it), then per
 * cycle getAction of both seats, issueSafe, cycle, and gameOver for both.
 *
 * With {@code --clone} the SocketAI that plays is {@code clone()} of the
 * first one, which opens a second connection, as a tournament does; the
 * first connection then stays idle. A getAction that throws is a crash: the
 * SocketAI loses that game.
 *
 * Needs on the class path: microrts.jar, then the jars of the opponent.
 * Stdout: one line per game {@code game=I winner=W cycles=C crashed=B}, then
 * {@code games=N socket_wins=W socket_losses=L draws=D crashes=C}.
 * Exit 0 after the games ran, 1 if they could not start, 2 on bad usage.
 */
public final class SocketMatch {
    private SocketMatch() {
    }

    static final String USAGE = String.join("\n",
            "usage: SocketMatch (--port N | --unix PATH) --map PATH --opponent CLASS [options]",
            "  --host H            server address (default 127.0.0.1)",
            "  --unix PATH         connect to a Unix-domain socket instead (SocketAI's junixsocket constructor)",
            "  --lang json|xml     SocketAI language (default xml, SocketAI's own default)",
            "  --seat 0|1          the SocketAI's player (default 0)",
            "  --utt 1|2|3         unit type table (default 2); --conflict 1|2|3 (default 1)",
            "  --max-cycles N      draw after N cycles (default 5000)",
            "  --games N           games on the same SocketAI object (default 1)",
            "  --time-budget MS    SocketAI and opponent TIME_BUDGET (default 100)",
            "  --pregame-ms MS     preGameAnalysis budget; -1 skips it (default 100)",
            "  --folder DIR        preGameAnalysis folder (default: none, the two-argument call)",
            "  --clone             play with clone() of the SocketAI (a second connection)");

    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String m) {
            super(m);
        }
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        int rc;
        // Bots print to stdout; keep it for our result lines only.
        System.setOut(new PrintStream(new FileOutputStream(java.io.FileDescriptor.err), true));
        try {
            rc = run(args, out);
        } catch (UsageException e) {
            System.err.println("SocketMatch: " + e.getMessage());
            System.err.println(USAGE);
            rc = 2;
        } catch (Throwable t) {
            System.err.println("SocketMatch: " + t);
            t.printStackTrace();
            rc = 1;
        }
        out.flush();
        System.exit(rc); // the opponent may leave threads behind
    }

    private static String value(String[] a, int i) throws UsageException {
        if (i + 1 >= a.length) {
            throw new UsageException(a[i] + " needs a value");
        }
        return a[i + 1];
    }

    private static int number(String flag, String v) throws UsageException {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + ": '" + v + "' is not an integer");
        }
    }

    static int run(String[] args, PrintStream out) throws Exception {
        String host = "127.0.0.1", map = null, opponent = null, folder = null, unix = null;
        int port = -1, lang = SocketAI.LANGUAGE_XML, seat = 0, uttVersion = 2, conflict = 1;
        int maxCycles = 5000, games = 1, timeBudget = 100, pregameMs = 100;
        boolean clone = false;

        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
            case "--host": host = value(args, i++); break;
            case "--port": port = number(a, value(args, i++)); break;
            case "--unix": unix = value(args, i++); break;
            case "--map": map = value(args, i++); break;
            case "--opponent": opponent = value(args, i++); break;
            case "--folder": folder = value(args, i++); break;
            case "--seat": seat = number(a, value(args, i++)); break;
            case "--utt": uttVersion = number(a, value(args, i++)); break;
            case "--conflict": conflict = number(a, value(args, i++)); break;
            case "--max-cycles": maxCycles = number(a, value(args, i++)); break;
            case "--games": games = number(a, value(args, i++)); break;
            case "--time-budget": timeBudget = number(a, value(args, i++)); break;
            case "--pregame-ms": pregameMs = number(a, value(args, i++)); break;
            case "--clone": clone = true; break;
            case "--lang": {
                String v = value(args, i++);
                if (v.equals("json")) {
                    lang = SocketAI.LANGUAGE_JSON;
                } else if (v.equals("xml")) {
                    lang = SocketAI.LANGUAGE_XML;
                } else {
                    throw new UsageException("--lang must be json or xml");
                }
                break;
            }
            default:
                throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if ((port < 0 && unix == null) || map == null || opponent == null) {
            throw new UsageException("--port (or --unix), --map and --opponent are required");
        }
        if (seat != 0 && seat != 1) {
            throw new UsageException("--seat must be 0 or 1");
        }
        if (!new File(map).isFile()) {
            throw new UsageException("no map file " + map);
        }

        UnitTypeTable utt = new UnitTypeTable(uttVersion, conflict);
        // Both constructors retry the connection (10 times, 1 s apart); the
        // second one connects through junixsocket.
        SocketAI first = unix == null ? new SocketAI(timeBudget, -1, host, port, lang, utt)
                : unixSocketAI(timeBudget, unix, lang, utt);
        AI socket = clone ? first.clone() : first;
        if (socket == null) {
            throw new IllegalStateException("SocketAI.clone() could not connect");
        }
        Constructor<?> k = Class.forName(opponent).getConstructor(UnitTypeTable.class);
        AI other = (AI) k.newInstance(utt);
        if (other instanceof AIWithComputationBudget) {
            ((AIWithComputationBudget) other).setTimeBudget(timeBudget);
        }

        int wins = 0, losses = 0, draws = 0, crashes = 0;
        for (int g = 0; g < games; g++) {
            GameState gs = new GameState(PhysicalGameState.load(map, utt), utt);
            AI[] ai = new AI[2];
            ai[seat] = socket;
            ai[1 - seat] = other;
            socket.reset();
            other.reset();
            if (pregameMs >= 0) {
                if (folder != null) {
                    socket.preGameAnalysis(gs, pregameMs, folder);
                } else {
                    socket.preGameAnalysis(gs, pregameMs);
                }
                other.preGameAnalysis(gs, pregameMs);
            }
            boolean crashed = false, over = false;
            int winner = -1;
            while (!over && gs.getTime() < maxCycles) {
                PlayerAction[] pa = new PlayerAction[2];
                for (int p = 0; p < 2; p++) {
                    try {
                        pa[p] = ai[p].getAction(p, gs);
                    } catch (Exception e) {
                        if (p != seat) {
                            throw e; // the opponent's fault: not what we test
                        }
                        System.err.println("SocketMatch: SocketAI.getAction threw at cycle " + gs.getTime() + ": " + e);
                        crashed = true;
                        winner = 1 - seat;
                        break;
                    }
                }
                if (crashed) {
                    break;
                }
                gs.issueSafe(pa[0]);
                gs.issueSafe(pa[1]);
                over = gs.cycle();
            }
            if (!crashed) {
                winner = gs.winner();
            }
            socket.gameOver(winner);
            other.gameOver(winner);
            if (crashed) {
                crashes++;
            }
            if (winner == seat) {
                wins++;
            } else if (winner == 1 - seat) {
                losses++;
            } else {
                draws++;
            }
            out.println("game=" + g + " winner=" + winner + " cycles=" + gs.getTime() + " crashed=" + crashed);
            out.flush();
        }
        out.println("games=" + games + " socket_wins=" + wins + " socket_losses=" + losses + " draws=" + draws
                + " crashes=" + crashes);
        return 0;
    }

    /**
     * SocketAI over a unix socket, looked up at run time: the 2022 registry
     * build has that constructor (through junixsocket), the current official
     * sources no longer do, and this class must compile against both.
     */
    private static SocketAI unixSocketAI(int timeBudget, String path, int lang, UnitTypeTable utt)
            throws Exception {
        Constructor<SocketAI> k;
        try {
            k = SocketAI.class.getConstructor(int.class, int.class, String.class, int.class, UnitTypeTable.class);
        } catch (NoSuchMethodException e) {
            throw new UsageException("--unix: this harness's SocketAI has no unix-socket constructor; use --port");
        }
        return k.newInstance(timeBudget, -1, path, lang, utt);
    }
}
