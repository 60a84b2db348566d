/*
 * libFuzzer target: the data-set text reader (and through it the state
 * reader), then both cloning scores of GA and of the random player on
 * whatever parsed, since the scores replay moves on hand-written states.
 */
#include <stddef.h>
#include <stdint.h>

#include "microsynth/cantstop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx = NULL;
	ms_cs_dataset *ds = NULL;
	ms_cs_player ga, rnd;
	double score;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_cs_dataset_read(ctx, &ds, (const char *)data, size, "fuzz") == MS_OK) {
		ms_cs_player_ga(&ga, NULL, 0);
		ms_cs_player_random(&rnd);
		ms_cs_score_observation(ctx, ds, &ga, 1, &score);
		ms_cs_score_action(ctx, ds, &ga, 1, &score);
		ms_cs_score_observation(ctx, ds, &rnd, 1, &score);
		ms_cs_score_action(ctx, ds, &rnd, 1, &score);
	}
	ms_cs_dataset_free(ds);
	ms_ctx_free(ctx);
	return 0;
}
