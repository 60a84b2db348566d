/*
 * microsynth planetwars tournament: a pairing of bots over the maps, both
 * seats, natively.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/planetwars.h"
#include "cli.h"
#include "pw_common.h"

/* The tournament of two bots over the maps (pw_common.c parses the options); a CLI code. */
int cmd_pw_tournament(int argc, char **argv)
{
	pw_match_opts o;
	if (pw_parse_match_opts(argc, argv, "tournament", 0, &o))
		return CLI_USAGE;
	const char *a = o.a, *b = o.b, *maps = o.maps;
	long max_turns = o.max_turns, seed = o.seed;
	if (!a || !b)
		return cli_usage_error(CMD, "tournament needs --p1 and --p2");
	char mbuf[4096];
	maps = pw_maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "tournament: no maps (--maps DIR or MS_SHARED_DIR)");
	ms_ctx *ctx;
	ms_pw_state **mv;
	int nm, ret = pw_open_maps(CMD, maps, &ctx, &mv, &nm);
	if (ret)
		return ret;
	int wdl[2][3] = { { 0 } };
	double t0 = cli_now();
	for (int m = 0; m < nm && ret == CLI_OK; m++)
		for (int seat = 0; seat < 2; seat++) {
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			if (ms_pw_bot_make(ctx, &x, a, (uint64_t)seed + 2 * m) ||
			    ms_pw_bot_make(ctx, &y, b, (uint64_t)seed + 2 * m + 1)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ms_pw_bot_release(ctx, &x);
				ret = CLI_USAGE;
				break;
			}
			int rc = seat == 0 ? ms_pw_play(ctx, mv[m], &x, &y, (int)max_turns, NULL, NULL, &r)
					   : ms_pw_play(ctx, mv[m], &y, &x, (int)max_turns, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			if (rc) {
				fprintf(stderr, "microsynth %s: map %d: %s\n", CMD, m + 1, ms_ctx_last_error(ctx));
				ret = CLI_FAIL;
				break;
			}
			int mine = seat == 0 ? 1 : 2;
			wdl[seat][r.winner == mine ? 0 : r.winner == 0 ? 1 : 2]++;
		}
	if (ret == CLI_OK)
		printf("seat1=%d-%d-%d seat2=%d-%d-%d seconds=%.2f wins=%d draws=%d losses=%d games=%d\n", wdl[0][0],
		       wdl[0][1], wdl[0][2], wdl[1][0], wdl[1][1], wdl[1][2], cli_now() - t0, wdl[0][0] + wdl[1][0],
		       wdl[0][1] + wdl[1][1], wdl[0][2] + wdl[1][2], 2 * nm);
	pw_free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}
