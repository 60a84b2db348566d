/* Fuzzes both Catan board readers (catanatron's tile table as JSON, the
 * JSettlers BOARDLAYOUT message), then plays a short random game on any
 * board they accept. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/catan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void play(ms_ctx *ctx, const ms_catan_board *b)
{
	ms_catan_rules rules;
	ms_catan_state s;
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	uint64_t rng = 7;
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_CATANATRON);
	if (ms_catan_init(ctx, &s, b, &rules, 4, NULL, &rng))
		return;
	for (int i = 0; i < 300 && !ms_catan_over(&s); i++) {
		int k = ms_catan_legal(&s, acts);
		if (k <= 0 || ms_catan_apply(ctx, &s, &acts[ms_catan_rand(&rng, (uint32_t)k)], &rng, NULL))
			return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_catan_board *b = NULL;
	if (size > 65536 || ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_catan_board_from_layout(ctx, &b, (const char *)data, size) == MS_OK) {
		play(ctx, b);
		ms_catan_board_free(b);
	}
	if (ms_catan_board_from_json(ctx, &b, (const char *)data, size) == MS_OK) {
		play(ctx, b);
		ms_catan_board_free(b);
	}
	ms_ctx_free(ctx);
	return 0;
}
