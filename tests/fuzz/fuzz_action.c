/* Fuzzes PlayerAction JSON against a fixed mid-size state, then issues
 * whatever parsed and runs cycles: hostile actions must never corrupt the
 * engine (its own consistency is checked after every step). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microsynth/microrts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map[] =
	"<rts.PhysicalGameState width=\"6\" height=\"5\"><terrain>000000001000000000000100000000</terrain>"
	"<players><rts.Player ID=\"0\" resources=\"7\"/><rts.Player ID=\"1\" resources=\"3\"/></players><units>"
	"<u type=\"Resource\" ID=\"1\" player=\"-1\" x=\"0\" y=\"0\" resources=\"2\" hitpoints=\"1\"/>"
	"<u type=\"Base\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"10\"/>"
	"<u type=\"Worker\" ID=\"3\" player=\"0\" x=\"1\" y=\"0\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Worker\" ID=\"4\" player=\"0\" x=\"0\" y=\"1\" resources=\"1\" hitpoints=\"1\"/>"
	"<u type=\"Barracks\" ID=\"5\" player=\"1\" x=\"4\" y=\"3\" resources=\"0\" hitpoints=\"4\"/>"
	"<u type=\"Ranged\" ID=\"6\" player=\"1\" x=\"3\" y=\"2\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Light\" ID=\"7\" player=\"1\" x=\"2\" y=\"1\" resources=\"0\" hitpoints=\"4\"/>"
	"<u type=\"Heavy\" ID=\"8\" player=\"0\" x=\"2\" y=\"2\" resources=\"0\" hitpoints=\"8\"/>"
	"</units></rts.PhysicalGameState>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_rts_pair pairs[32];
	int n;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_utt_new(ctx, &utt, 3, 1 + (int)(size % 3)) ||
	    ms_rts_state_from_map_xml(ctx, &s, utt, "map", map, sizeof(map) - 1, 7)) {
		ms_rts_utt_free(utt);
		ms_ctx_free(ctx);
		return 0;
	}
	for (int round = 0; round < 3; round++) {
		if (ms_rts_player_action_from_json(ctx, s, (const char *)data, size, pairs, 32, &n) == MS_OK) {
			/* Split by owner, as a game loop would. */
			ms_rts_pair mine[2][32];
			int m[2] = { 0, 0 };
			for (int i = 0; i < n; i++)
				if (pairs[i].unit.player == 0 || pairs[i].unit.player == 1)
					mine[pairs[i].unit.player][m[pairs[i].unit.player]++] = pairs[i];
			ms_rts_issue_safe(ctx, s, mine[0], m[0], NULL);
			ms_rts_issue_safe(ctx, s, mine[1], m[1], NULL);
		}
		for (int c = 0; c < 12; c++)
			ms_rts_cycle(ctx, s, NULL);
		/* Invariant: at most one unit per cell, all inside the map. */
		for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
			ms_rts_unit u;
			ms_rts_state_unit(s, i, &u);
			if (ms_rts_state_unit_at(s, u.x, u.y) != i)
				__builtin_trap();
		}
	}
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return 0;
}
