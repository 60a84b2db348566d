// Prints what the official engine writes as JSON: the unit type table, then
// for each map it can load "MAP<TAB>initial game state", one line each
// (maps it rejects are listed on stderr). Run with the official
// microrts.jar on the class path: java -cp microrts.jar JsonDump.java ...
// With --views, each state is followed by both players' partially
// observable views ("MAP<TAB>view P<TAB>json").
//   JsonDump UTT_VERSION CONFLICT_POLICY [--views] MAP...
import java.io.StringWriter;
import rts.GameState;
import rts.PartiallyObservableGameState;
import rts.PhysicalGameState;
import rts.units.UnitTypeTable;

public class JsonDump {
    public static void main(String[] args) throws Exception {
        UnitTypeTable utt = new UnitTypeTable(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
        StringWriter w = new StringWriter();
        utt.toJSON(w);
        StringBuilder out = new StringBuilder();
        out.append(w).append('\n');
        boolean views = args.length > 2 && args[2].equals("--views");
        for (int i = views ? 3 : 2; i < args.length; i++) {
            try {
                GameState gs = new GameState(PhysicalGameState.load(args[i], utt), utt);
                StringWriter s = new StringWriter();
                gs.toJSON(s);
                out.append(args[i]).append('\t').append(s).append('\n');
                if (views) {
                    for (int p = 0; p < 2; p++) {
                        StringWriter v = new StringWriter();
                        new PartiallyObservableGameState(gs, p).toJSON(v);
                        out.append(args[i]).append("\tview ").append(p).append('\t').append(v).append('\n');
                    }
                }
            } catch (Exception | Error e) {
                System.err.println(args[i] + ": rejected: " + e);
            }
        }
        System.out.print(out);
    }
}
