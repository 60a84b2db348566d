package ai.microsynth.harness;

/**
 * Prints Competition's map sets and game lengths in the format of the C
 * library's copy (tests/match/competition_table.c), so the test
 * harness.competition.table_agrees_with_c can compare the two line by line.
 */
final class CompetitionTable {
    private CompetitionTable() {
    }

    public static void main(String[] args) {
        StringBuilder b = new StringBuilder();
        for (String set : Competition.SETS) {
            String[] m = Competition.maps(set);
            b.append("set ").append(set).append(' ').append(m.length).append(' ').append(Competition.setCycles(set))
                    .append('\n');
            for (String map : m) {
                b.append("map ").append(set).append(' ').append(map).append('\n');
            }
        }
        for (int w = 1; w <= 128; w++) {
            for (int h = 1; h <= 128; h++) {
                b.append("cycles ").append(w).append(' ').append(h).append(' ').append(Competition.cyclesFor(w, h))
                        .append('\n');
            }
        }
        System.out.print(b);
    }
}
