/*
 * microsynth play: one match between native bots in the native engine,
 * played as the official headless runner (`microsynth match`) plays it:
 * both bots decide on the same state (player 1 sees the state before
 * player 0's action is issued), then issueSafe for player 0, then player
 * 1, then one cycle, until game over or the cycle limit.
 *
 * --seed S seeds what `microsynth match --seed S` seeds, the same way:
 * the state's generators as GameState.r and UnitAction.r, and the bots'
 * generator as util.Sampler's (what RandomBiasedAI draws from).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/jrandom.h"
#include "microsynth/microrts.h"
#include "microsynth/rts_dsl.h"
#include "cli.h"
#include "edition.h"

void cmd_play_usage(FILE *out)
{
	int n, n_native;
	const ms_rts_agent_row *rows = ms_rts_agents(&n, &n_native);
	char list[512];

	fprintf(out, "Usage: microsynth play --map MAP --p0 BOT --p1 BOT [--utt 1|2|3] [--conflict 1|2|3]\n"
		     "                       [--max-cycles N] [--seed S] [--trace FILE] [--partially-observable]\n"
		     "                       [--final-json FILE] [--edition 2022|2023] [--stochastic]\n\n"
		     "Plays one match between native bots in the native engine, as `microsynth\n"
		     "match` plays it in the official jar (same loop, same defaults: table 2,\n"
		     "conflict policy 1, 5000 cycles; a match reaching the limit is a draw).\n"
		     "MAP is a path, or a map of the harness cache (8x8/basesWorkers8x8A.xml or\n"
		     "maps/8x8/basesWorkers8x8A.xml). --seed seeds the engine's and the bots'\n"
		     "generators as `microsynth match --seed` seeds the Java ones (default 0).\n"
		     "--trace writes the official trace (a zip when FILE ends in .zip);\n"
		     "--final-json the final state as GameState.toJSON writes it (its SHA-256\n"
		     "starts with the `digest` of `microsynth match --digest`). --edition: which\n"
		     "build's scripted bots to reproduce (default: the harness's, as `microsynth\n"
		     "harness` prints it; 2022 without a harness). --stochastic: CoacAI and mayari draw,\n"
		     "from the bots' generator, where the jars draw unseeded numbers (else the first choice).\nBots:");
	ms_spec_list(list, sizeof list, rows, n_native, sizeof rows[0], " ", NULL);
	fprintf(out, " %s\nLast line: winner=W cycles=C (W = 0, 1, or -1 for a draw).\n", list);
}

/* --final-json: the final state as GameState.toJSON writes it. */
static int write_final_json(ms_ctx *ctx, const ms_rts_state *s, const char *json)
{
	char *text = NULL;
	FILE *jf = NULL;
	int rc = CLI_OK;
	if (ms_rts_state_to_json(ctx, &text, s, MS_RTS_JSON_CONSTANTS) || !(jf = fopen(json, "wb")) ||
	    fputs(text, jf) == EOF) {
		fprintf(stderr, "microsynth play: cannot write %s\n", json);
		rc = CLI_FAIL;
	}
	if (jf && fclose(jf))
		rc = CLI_FAIL;
	ms_ctx_mfree(ctx, text);
	return rc;
}

/* What a portfolio player simulated and chose (stderr: stdout's last line is the result). */
static void print_portfolio(int p, const ms_bot *b)
{
	ms_rts_portfolio_info in;
	if (ms_rts_portfolio_bot_info(b, &in) == MS_OK)
		fprintf(stderr,
			"play: player %d's portfolio saw %s, plays %s (%d simulated games against it, mean %.3f); "
			"simulated %ld games, %ld cycles, %ld failures, %ld left\n",
			p, in.opponent ? in.opponent : "-", in.program, in.chosen_games, in.chosen_score, in.games,
			in.cycles, in.failures, in.jobs_left);
}

int cmd_play(int argc, char **argv)
{
	const char *map = NULL, *bot_name[2] = { NULL, NULL }, *trace = NULL, *json = NULL;
	long utt_v = 2, conflict = 1, max_cycles = 5000, seed = 0;
	int po = 0, rc = CLI_OK, edition = -1, stochastic = 0;
	char path[4608];
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;
	ms_bot *bot[2] = { NULL, NULL };
	ms_rts_trace_writer *tw = NULL;

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--partially-observable")) {
			po = 1;
			continue;
		}
		if (!strcmp(o, "--stochastic")) {
			stochastic = 1;
			continue;
		}
		if (!v)
			return cli_usage_error("play", "%s needs a value", o);
		i++;
		if (!strcmp(o, "--map"))
			map = v;
		else if (!strcmp(o, "--p0"))
			bot_name[0] = v;
		else if (!strcmp(o, "--p1"))
			bot_name[1] = v;
		else if (!strcmp(o, "--trace"))
			trace = v;
		else if (!strcmp(o, "--final-json"))
			json = v;
		else if (!strcmp(o, "--edition")) {
			if (edition_arg("play", v, &edition))
				return CLI_USAGE;
		} else if (!strcmp(o, "--utt")) {
			if (cli_parse_int("play", o, v, 1, 3, &utt_v))
				return CLI_USAGE;
		} else if (!strcmp(o, "--conflict")) {
			if (cli_parse_int("play", o, v, 1, 3, &conflict))
				return CLI_USAGE;
		} else if (!strcmp(o, "--max-cycles")) {
			if (cli_parse_int("play", o, v, 1, 100000000, &max_cycles))
				return CLI_USAGE;
		} else if (!strcmp(o, "--seed")) {
			if (cli_parse_int("play", o, v, -2147483647L, 2147483647L, &seed))
				return CLI_USAGE;
		} else
			return cli_usage_error("play", "unknown option '%s'", o);
	}
	if (!map || !bot_name[0] || !bot_name[1])
		return cli_usage_error("play", "--map, --p0 and --p1 are required");
	/* programs, switches and portfolios are checked when the bot is built */
	for (int p = 0; p < 2; p++)
		if (!ms_bot_spec_native(bot_name[p]))
			return cli_usage_error("play", "no native bot called '%s'", bot_name[p]);
	if (cli_resolve_map(map, path, sizeof(path)))
		return cli_usage_error("play", "map '%s' not found (as a path or in the harness cache)", map);
	if (edition < 0)
		edition = edition_of_harness(NULL);
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;

	if (ms_rts_utt_new(ctx, &utt, (int)utt_v, (int)conflict) ||
	    ms_rts_state_load_map(ctx, &s, utt, path, seed)) {
		fprintf(stderr, "microsynth play: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_USAGE;
		goto cleanup;
	}
	ms_match_seed_state(s, seed);
	for (int p = 0; p < 2; p++)
		if (ms_bot_make(ctx, &bot[p], bot_name[p], utt, ms_jrandom_match_seed(seed, MS_MATCH_RNG_SAMPLER)) ||
		    ms_bot_set_edition(bot[p], edition) || ms_bot_set_stochastic(bot[p], stochastic) ||
		    ms_bot_reset(bot[p])) {
			fprintf(stderr, "microsynth play: %s\n", ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
			goto cleanup;
		}
	if (trace && ms_rts_trace_writer_new(ctx, &tw, s)) {
		fprintf(stderr, "microsynth play: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
		goto cleanup;
	}
	printf("play map=%s p0=%s p1=%s utt=%ld conflict=%ld max_cycles=%ld seed=%ld po=%d edition=%s\n", map,
	       bot[0]->ops->name, bot[1]->ops->name, utt_v, conflict, max_cycles, seed, po, edition_name(edition));
	if (ms_bot_play(ctx, s, bot, (int)max_cycles, po, tw, NULL)) {
		fprintf(stderr, "microsynth play: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
		goto cleanup;
	}
	if (tw && ms_rts_trace_writer_finish(tw, s, trace)) {
		fprintf(stderr, "microsynth play: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
		goto cleanup;
	}
	if (json && (rc = write_final_json(ctx, s, json)))
		goto cleanup;
	for (int p = 0; p < 2; p++) {
		const char *label;
		if (ms_rts_switch_bot_choice(bot[p], &label, NULL) == MS_OK)
			fprintf(stderr, "play: player %d's switch chose %s\n", p, label);
		print_portfolio(p, bot[p]);
	}
	printf("winner=%d cycles=%d\n", ms_rts_winner(s), ms_rts_state_time(s));

cleanup:
	ms_rts_trace_writer_free(tw);
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}
