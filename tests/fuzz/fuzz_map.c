/* Fuzzes map loading (rts.PhysicalGameState XML), then plays a few cycles
 * of every unit's first legal non-wait action on whatever loaded. */
#include <stddef.h>
#include <stdint.h>

#include "microsynth/microrts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_utt_new(ctx, &utt, 1 + (int)(size % 3), 1)) {
		ms_ctx_free(ctx);
		return 0;
	}
	if (ms_rts_state_from_map_xml(ctx, &s, utt, "fuzz", (const char *)data, size, 1) == MS_OK) {
		for (int c = 0; c < 30; c++) {
			for (int p = 0; p < 2; p++) {
				ms_rts_pair pairs[64];
				int n = 0;
				for (int i = 0; i < ms_rts_state_unit_count(s) && n < 64; i++) {
					ms_rts_action acts[32];
					ms_rts_unit u;
					int k;
					ms_rts_state_unit(s, i, &u);
					if (u.player != p || !ms_rts_state_unit_idle(s, i))
						continue;
					k = ms_rts_legal_actions(s, &u, 10, acts, 32);
					pairs[n].unit = u;
					pairs[n].action = acts[(c + i) % (k < 32 ? k : 32)];
					n++;
				}
				ms_rts_issue_safe(ctx, s, pairs, n, NULL);
			}
			if (ms_rts_cycle(ctx, s, NULL) || ms_rts_gameover(s))
				break;
		}
		ms_rts_state_free(s);
	}
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return 0;
}
