package ai.microsynth.harness;

import java.lang.reflect.Constructor;
import java.net.ServerSocket;

import ai.core.AIWithComputationBudget;
import ai.socket.JSONSocketWrapperAI;
import ai.socket.XMLSocketWrapperAI;
import rts.units.UnitTypeTable;

/**
 * The jar's own reference servers, {@code JSONSocketWrapperAI.runServer} and
 * {@code XMLSocketWrapperAI.runServer}, on a port of our choosing (their
 * {@code main} fixes port 9898 and turns debug printing on) with a chosen
 * bot, for side-by-side comparisons with the native server.
 *
 * {@code SocketReference --lang json|xml [--port N] [--ai CLASS]}: prints
 * {@code port=N} (with port 0, a port that was free a moment ago), then
 * serves until killed. Clients should retry their first connect briefly.
 */
public final class SocketReference {
    private SocketReference() {
    }

    public static void main(String[] args) throws Exception {
        String lang = null, ai = "ai.abstraction.WorkerRush";
        int port = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
            case "--lang": lang = args[i + 1]; break;
            case "--port": port = Integer.parseInt(args[i + 1]); break;
            case "--ai": ai = args[i + 1]; break;
            default:
                System.err.println("SocketReference: unknown argument '" + args[i] + "'");
                System.exit(2);
            }
        }
        if (args.length % 2 != 0 || lang == null || !(lang.equals("json") || lang.equals("xml"))) {
            System.err.println("usage: SocketReference --lang json|xml [--port N] [--ai CLASS]");
            System.exit(2);
        }
        if (port == 0) {
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
        }
        // As the jar's main does: the bot built on the default table; the
        // servers hand it the table they receive (reset(utt)).
        Constructor<?> k = Class.forName(ai).getConstructor(UnitTypeTable.class);
        AIWithComputationBudget bot = (AIWithComputationBudget) k.newInstance(new UnitTypeTable());
        System.out.println("port=" + port);
        System.out.flush();
        if (lang.equals("json")) {
            JSONSocketWrapperAI.DEBUG = 0;
            JSONSocketWrapperAI.runServer(bot, port);
        } else {
            XMLSocketWrapperAI.DEBUG = 0;
            XMLSocketWrapperAI.runServer(bot, port);
        }
    }
}
