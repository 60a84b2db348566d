/*
 * jni_play: one native match between two bot specs (native bot names or
 * program:FILE), played by ms_bot_play as `microsynth play` plays it, for
 * the test that compares it with the same match through the JNI bot in the
 * official jar. Usage: jni_play MAP P0 P1 UTT CONFLICT MAX_CYCLES FINAL.json
 * Prints "winner=W cycles=C"; writes the final state as GameState.toJSON.
 */
#include <stdio.h>
#include <stdlib.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/microrts.h"

int main(int argc, char **argv)
{
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;
	ms_bot *bots[2] = { NULL, NULL };
	char *json = NULL;
	FILE *f = NULL;
	int winner = -1, rc = 1;

	if (argc != 8) {
		fprintf(stderr, "usage: jni_play MAP P0 P1 UTT CONFLICT MAX_CYCLES FINAL.json\n");
		return 2;
	}
	if (ms_ctx_new(&ctx, NULL))
		return 1;
	if (ms_rts_utt_new(ctx, &utt, atoi(argv[4]), atoi(argv[5])) ||
	    ms_rts_state_load_map(ctx, &s, utt, argv[1], 0) || ms_bot_make(ctx, &bots[0], argv[2], utt, 0) ||
	    ms_bot_make(ctx, &bots[1], argv[3], utt, 0) || ms_bot_reset(bots[0]) || ms_bot_reset(bots[1]) ||
	    ms_bot_play(ctx, s, bots, atoi(argv[6]), 0, NULL, &winner) ||
	    ms_rts_state_to_json(ctx, &json, s, MS_RTS_JSON_CONSTANTS)) {
		fprintf(stderr, "jni_play: %s\n", ms_ctx_last_error(ctx));
		goto done;
	}
	if (!(f = fopen(argv[7], "wb")) || fputs(json, f) == EOF) {
		fprintf(stderr, "jni_play: cannot write %s\n", argv[7]);
		goto done;
	}
	printf("winner=%d cycles=%d\n", winner, ms_rts_state_time(s));
	rc = 0;
done:
	if (f && fclose(f))
		rc = 1;
	ms_ctx_mfree(ctx, json);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}
