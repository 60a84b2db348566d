// One match through ggp-base's own GameServer (issue 44), compiled by ggp_base_match.sh against
// the ggp-base build MICROSYNTH_GGP_BASE names (never built or shipped here).
// args: KIF START PLAY SPEC... where SPEC is host:port (an HTTP player) or random|montecarlo
// (ggp-base's sample gamers, started here on ports 9300+i). Prints every event that counts.
import java.nio.file.*;
import java.util.ArrayList;
import java.util.List;
import org.ggp.base.server.GameServer;
import org.ggp.base.server.event.*;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.match.Match;
import org.ggp.base.util.observer.*;
import org.ggp.base.player.GamePlayer;
import org.ggp.base.player.gamer.Gamer;
import org.ggp.base.player.gamer.statemachine.random.RandomGamer;
import org.ggp.base.player.gamer.statemachine.sample.SampleMonteCarloGamer;

public class GgpBaseMatch {
    public static void main(String[] args) throws Exception {
        String kif = new String(Files.readAllBytes(Paths.get(args[0])), "UTF-8");
        Game game = Game.createEphemeralGame(Game.preprocessRulesheet(kif));
        int start = Integer.parseInt(args[1]), play = Integer.parseInt(args[2]);
        List<String> hosts = new ArrayList<>(), names = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            String s = args[i];
            if (s.equals("random") || s.equals("montecarlo")) {
                Gamer g = s.equals("random") ? new RandomGamer() : new SampleMonteCarloGamer();
                GamePlayer p = new GamePlayer(9300 + i, g);
                p.start();
                hosts.add("127.0.0.1");
                ports.add(p.getGamerPort());
                names.add(s);
            } else {
                hosts.add(s.substring(0, s.lastIndexOf(':')));
                ports.add(Integer.parseInt(s.substring(s.lastIndexOf(':') + 1)));
                names.add("microsynth");
            }
        }
        Match match = new Match("m" + System.currentTimeMillis(), -1, start, play, game, "");
        match.setPlayerNamesFromHost(names);
        GameServer server = new GameServer(match, hosts, ports);
        final int[] bad = new int[1];
        server.addObserver(new Observer() {
            public void observe(Event e) {
                if (e instanceof ServerIllegalMoveEvent) {
                    ServerIllegalMoveEvent x = (ServerIllegalMoveEvent) e;
                    System.out.println("ILLEGAL " + x.getRole() + " " + x.getMove());
                    bad[0]++;
                } else if (e instanceof ServerTimeoutEvent) {
                    System.out.println("TIMEOUT " + ((ServerTimeoutEvent) e).getRole());
                    bad[0]++;
                } else if (e instanceof ServerConnectionErrorEvent) {
                    System.out.println("CONNECTION_ERROR " + ((ServerConnectionErrorEvent) e).getRole());
                    bad[0]++;
                } else if (e instanceof ServerNewMovesEvent) {
                    System.out.println("moves " + ((ServerNewMovesEvent) e).getMoves());
                }
            }
        });
        long t0 = System.currentTimeMillis();
        server.start();
        server.join();
        System.out.println("players=" + names + " goals=" + server.getGoals() + " errors=" + match.getErrorHistory()
            + " bad_events=" + bad[0] + " seconds=" + (System.currentTimeMillis() - t0) / 1000.0);
        System.exit(0);
    }
}
