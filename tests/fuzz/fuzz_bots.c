/* Fuzzes the native scripted bots on the states the JSON reader accepts:
 * every bot decides for both players, the actions are issued and a few
 * cycles run. Any state must give a bounded decision without a crash (the
 * jars of CoacAI and mayari throw or loop forever on some of them). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const *names = ms_bot_names();
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s0;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_utt_new(ctx, &utt, 2, 1) == MS_OK) {
		if (ms_rts_state_from_json(ctx, &s0, utt, (const char *)data, size, 1) == MS_OK) {
			int max = 2 * ms_rts_state_width(s0) * ms_rts_state_height(s0) + 8;
			ms_rts_pair *pa = malloc(sizeof(ms_rts_pair) * (size_t)max);
			for (int k = 0; names[k] && pa; k++) {
				ms_rts_state *s;
				ms_bot *b[2] = { NULL, NULL };
				if (ms_rts_state_clone(ctx, &s, s0))
					continue;
				if (!ms_bot_new(ctx, &b[0], names[k], utt, 1) && !ms_bot_new(ctx, &b[1], names[k], utt, 2))
					for (int t = 0, over = 0; t < 3 && !over; t++) {
						for (int p = 0; p < 2; p++) {
							int n = 0;
							if (ms_bot_decide(b[p], p, s, pa, max, &n) == MS_OK && n > 0)
								ms_rts_issue_safe(ctx, s, pa, n, NULL);
						}
						if (ms_rts_cycle(ctx, s, &over))
							break;
					}
				ms_bot_free(b[0]);
				ms_bot_free(b[1]);
				ms_rts_state_free(s);
			}
			free(pa);
			ms_rts_state_free(s0);
		}
		ms_rts_utt_free(utt);
	}
	ms_ctx_free(ctx);
	return 0;
}
