package microsynth.tests;

import java.util.ArrayList;
import java.util.List;

import ai.core.AI;
import ai.core.ParameterSpecification;
import rts.GameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * A test opponent whose getAction never returns from cycle 10 on (it sleeps
 * until interrupted): a synthesis against it must give the decision up,
 * score the match as a time-out and count it (tests/synth/synth_java_fault.cmake).
 */
public class HangingAI extends AI {
    public HangingAI(UnitTypeTable utt) {
    }

    @Override
    public void reset() {
    }

    @Override
    public PlayerAction getAction(int player, GameState gs) throws Exception {
        while (gs.getTime() >= 10) {
            Thread.sleep(60000);
        }
        PlayerAction pa = new PlayerAction();
        pa.fillWithNones(gs, player, 1);
        return pa;
    }

    @Override
    public AI clone() {
        return new HangingAI(null);
    }

    @Override
    public List<ParameterSpecification> getParameters() {
        return new ArrayList<>();
    }
}
