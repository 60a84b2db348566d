package tournaments;

import java.io.Writer;
import java.util.List;

import ai.core.AI;
import rts.GameState;
import rts.PhysicalGameState;
import rts.units.UnitTypeTable;

/**
 * Test stand-in (tests/harness/standin_tournament.sh), not MicroRTS code: the
 * common superclass that the current official MicroRTS has for its
 * tournaments, with the AI lists held by the instance. Only the API shape is
 * the official one; the games are a plain loop (no budgets, no pre-game
 * analysis, no timeouts), enough to show the runner drives this shape.
 */
class Tournament {
    final List<AI> ais;
    final List<AI> opponents;

    Tournament(List<AI> ais, List<AI> opponents) {
        this.ais = ais;
        this.opponents = opponents;
    }

    Tournament(List<AI> ais) {
        this(ais, ais);
    }

    /** Writes the header the runners read back, after a line naming this stand-in. */
    void header(Writer out) throws Exception {
        out.write("stand-in " + getClass().getName() + " instance API ais=" + ais.size()
                + " opponents=" + opponents.size() + "\n");
        out.write("iteration\tmap\tai1\tai2\ttime\twinner\tcrashed\ttimedout\n");
    }

    /** ais[a] as player 0 against opponents[b] as player 1; one result line. */
    void game(int iteration, int mapIndex, String map, int a, int b, int maxCycles, UnitTypeTable utt, Writer out)
            throws Exception {
        AI p0 = ais.get(a).clone(), p1 = opponents.get(b).clone();
        p0.reset();
        p1.reset();
        GameState gs = new GameState(PhysicalGameState.load(map, utt), utt);
        boolean over = false;
        int crashed = -1;
        while (!over && gs.getTime() < maxCycles) {
            try {
                gs.issueSafe(p0.getAction(0, gs));
            } catch (Exception e) {
                crashed = 0;
                break;
            }
            try {
                gs.issueSafe(p1.getAction(1, gs));
            } catch (Exception e) {
                crashed = 1;
                break;
            }
            over = gs.cycle();
        }
        int winner = crashed >= 0 ? 1 - crashed : gs.winner();
        out.write(iteration + "\t" + mapIndex + "\t" + a + "\t" + b + "\t" + gs.getTime() + "\t" + winner + "\t"
                + crashed + "\t-1\n");
        out.flush();
    }
}
