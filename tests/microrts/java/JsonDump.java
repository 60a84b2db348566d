// Prints what the official engine writes as JSON: the unit type table, then
// for each map it can load "MAP<TAB>initial game state", one line each
// (maps it rejects are listed on stderr). Run with the official
// microrts.jar on the class path: java -cp microrts.jar JsonDump.java ...
//   JsonDump UTT_VERSION CONFLICT_POLICY MAP...
import java.io.StringWriter;
import rts.GameState;
import rts.PhysicalGameState;
import rts.units.UnitTypeTable;

public class JsonDump {
    public static void main(String[] args) throws Exception {
        UnitTypeTable utt = new UnitTypeTable(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
        StringWriter w = new StringWriter();
        utt.toJSON(w);
        StringBuilder out = new StringBuilder();
        out.append(w).append('\n');
        for (int i = 2; i < args.length; i++) {
            try {
                GameState gs = new GameState(PhysicalGameState.load(args[i], utt), utt);
                StringWriter s = new StringWriter();
                gs.toJSON(s);
                out.append(args[i]).append('\t').append(s).append('\n');
            } catch (Exception | Error e) {
                System.err.println(args[i] + ": rejected: " + e);
            }
        }
        System.out.print(out);
    }
}
