package tournaments;

import java.io.Writer;
import java.util.List;

import ai.core.AI;
import rts.units.UnitTypeTable;

/** Test stand-in with the instance API of the current official MicroRTS (see Tournament). */
public class RoundRobinTournament extends Tournament {
    public RoundRobinTournament(List<AI> ais) {
        super(ais);
    }

    public void runTournament(int playOnlyGamesInvolvingThisAI, List<String> maps, int iterations,
            int maxGameLength, int timeBudget, int iterationsBudget, long preAnalysisBudgetFirstTimeInAMap,
            long preAnalysisBudgetRestOfTimes, boolean fullObservability, boolean selfMatches,
            boolean timeoutCheck, boolean runGC, boolean preAnalysis, UnitTypeTable utt,
            String traceOutputfolder, Writer out, Writer progress, String folderForReadWriteFolders)
            throws Exception {
        header(out);
        for (int it = 0; it < iterations; it++) {
            for (int m = 0; m < maps.size(); m++) {
                for (int a = 0; a < ais.size(); a++) {
                    for (int b = 0; b < ais.size(); b++) {
                        boolean involved = playOnlyGamesInvolvingThisAI < 0 || a == playOnlyGamesInvolvingThisAI
                                || b == playOnlyGamesInvolvingThisAI;
                        if ((a != b || selfMatches) && involved) {
                            game(it, m, maps.get(m), a, b, maxGameLength, utt, out);
                        }
                    }
                }
            }
        }
    }
}
