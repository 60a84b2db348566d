/* Fuzzes the GameState JSON reader; what it accepts must print, reload and
 * print again to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microsynth/microrts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s, *t;
	char *a, *b;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_utt_new(ctx, &utt, 2, 1)) {
		ms_ctx_free(ctx);
		return 0;
	}
	if (ms_rts_state_from_json(ctx, &s, utt, (const char *)data, size, 1) == MS_OK) {
		if (ms_rts_state_to_json(ctx, &a, s, MS_RTS_JSON_CONSTANTS) == MS_OK) {
			if (ms_rts_state_from_json(ctx, &t, utt, a, strlen(a), 1) != MS_OK)
				__builtin_trap(); /* we could not read what we wrote */
			if (ms_rts_state_to_json(ctx, &b, t, MS_RTS_JSON_CONSTANTS) == MS_OK) {
				if (strcmp(a, b))
					__builtin_trap();
				ms_ctx_mfree(ctx, b);
			}
			ms_rts_state_free(t);
			ms_ctx_mfree(ctx, a);
		}
		ms_rts_cycle(ctx, s, NULL);
		ms_rts_state_free(s);
	}
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return 0;
}
