/*
 * Prints the library's competition table (map sets, their maps and game
 * lengths, the length by map size for 1..128 on each side) in the format
 * Java's CompetitionTable prints, so harness.competition.table_agrees_with_c
 * can compare the two copies line by line.
 */
#include <stdio.h>

#include "microsynth/match.h"

int main(void)
{
	for (const char *const *set = ms_match_competition_sets(); *set; set++) {
		int n, cycles;
		const char *const *maps = ms_match_competition_maps(*set, &n, &cycles);
		if (!maps) {
			fprintf(stderr, "competition_table: set %s has no maps\n", *set);
			return 1;
		}
		printf("set %s %d %d\n", *set, n, cycles);
		for (int i = 0; i < n; i++)
			printf("map %s %s\n", *set, maps[i]);
	}
	for (int w = 1; w <= 128; w++)
		for (int h = 1; h <= 128; h++)
			printf("cycles %d %d %d\n", w, h, ms_match_competition_cycles(w, h));
	return 0;
}
