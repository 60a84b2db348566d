package microsynth.tests;

import java.util.ArrayList;
import java.util.List;

import ai.core.AI;
import ai.core.ParameterSpecification;
import rts.GameState;
import rts.PlayerAction;
import rts.units.UnitTypeTable;

/**
 * A test opponent that throws from getAction at cycle 10: a synthesis
 * against it must finish, score its matches as the harness scores a crash
 * and count them (tests/synth/synth_java_fault.cmake).
 */
public class ThrowingAI extends AI {
    public ThrowingAI(UnitTypeTable utt) {
    }

    @Override
    public void reset() {
    }

    @Override
    public PlayerAction getAction(int player, GameState gs) throws Exception {
        if (gs.getTime() >= 10) {
            throw new IllegalStateException("ThrowingAI: thrown on purpose at cycle " + gs.getTime());
        }
        PlayerAction pa = new PlayerAction();
        pa.fillWithNones(gs, player, 1);
        return pa;
    }

    @Override
    public AI clone() {
        return new ThrowingAI(null);
    }

    @Override
    public List<ParameterSpecification> getParameters() {
        return new ArrayList<>();
    }
}
