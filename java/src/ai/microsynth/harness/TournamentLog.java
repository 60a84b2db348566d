package ai.microsynth.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The one reader of the official tournaments' log: the per-game lines after
 * the header "iteration map ai1 ai2 time winner crashed timedout". Refers to
 * no MicroRTS class, so every runner jar can hold it.
 */
final class TournamentLog {
    private TournamentLog() {
    }

    /** Each game as {ai1, ai2, winner, crashed, timedout, cycles}; winner -1 is a draw, crashed/timedout -1 none. */
    static List<int[]> games(String log) {
        List<int[]> out = new ArrayList<>();
        boolean inGames = false;
        for (String line : log.split("\r?\n")) {
            if (line.startsWith("iteration\tmap\tai1")) {
                inGames = true;
                continue;
            }
            if (!inGames) {
                continue;
            }
            // The game lines end at the first line that is not one: the
            // summary tables after them have a column per AI, so with
            // eight AIs their rows would split like game lines.
            String[] f = line.split("\t");
            try {
                if (f.length != 8) {
                    throw new NumberFormatException();
                }
                out.add(new int[] {Integer.parseInt(f[2].trim()), Integer.parseInt(f[3].trim()),
                    Integer.parseInt(f[5].trim()), Integer.parseInt(f[6].trim()), Integer.parseInt(f[7].trim()),
                    Integer.parseInt(f[4].trim())});
            } catch (NumberFormatException e) {
                inGames = false;
            }
        }
        return out;
    }
}
