/*
 * microsynth synth --game planetwars: gain programs for the forecasting bot
 * (planetwars_synth.h) searched by the game-agnostic searches of synth.h
 * (SA, UCT, random; sketch searches need a cloning score, which Planet Wars
 * does not define yet). cmd_synth.c dispatches here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/planetwars_synth.h"
#include "microsynth/synth.h"
#include "cli.h"
#include "synth_front.h"

#define CMD "synth"

void synth_planetwars_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth synth --game planetwars --algo sa|uct|random (--evals N | --time T) --seed S\n"
		"                        -o FILE [--threads K] [--maps DIR] [--train-maps N] [--csv FILE]\n"
		"                        [--checkpoint FILE [--resume]] [--initial FILE|original] [--no-progress]\n\n"
		"Searches for a gain program of the forecasting bot (the target each planet attacks is\n"
		"the one of largest gain) maximising Psi: its score (win 1, draw 1/2) against the\n"
		"hand-weighted original forecasting bot on --train-maps maps (default 10: maps 1, 11,\n"
		"21, ..., 91 of --maps), both seats. At the end the best program plays the original on\n"
		"every map, both seats, and each example bot likewise.\n"
		"-o FILE receives the program (token form, a '#' header with the figures); play it with\n"
		"`microsynth planetwars play --p1 program:FILE ...`. Last line: psi= search_psi=\n"
		"wins= draws= losses= evals= seconds=\n");
}

int synth_planetwars_main(int argc, char **argv)
{
	const char *algo_name = NULL, *out = NULL, *maps = NULL, *csv = NULL, *checkpoint = NULL, *initial = NULL;
	long evals = 0, seed = -1, threads = 1, train = 10;
	double seconds = 0;
	int resume = 0, progress = 1;
	char command[1024];
	size_t used = (size_t)snprintf(command, sizeof command, "microsynth");
	for (int i = 0; i < argc && used < sizeof command; i++)
		used += (size_t)snprintf(command + used, sizeof command - used, " %s", argv[i]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--resume")) {
			resume = 1;
			continue;
		}
		if (!strcmp(a, "--no-progress")) {
			progress = 0;
			continue;
		}
		if (!v)
			return cli_usage_error(CMD, "'%s' needs a value or is unknown", a);
		i++;
		if (!strcmp(a, "--game"))
			continue;
		else if (!strcmp(a, "--algo"))
			algo_name = v;
		else if (!strcmp(a, "-o"))
			out = v;
		else if (!strcmp(a, "--maps"))
			maps = v;
		else if (!strcmp(a, "--csv"))
			csv = v;
		else if (!strcmp(a, "--checkpoint"))
			checkpoint = v;
		else if (!strcmp(a, "--initial"))
			initial = v;
		else if (!strcmp(a, "--time")) {
			if (synth_parse_duration(v, &seconds))
				return CLI_USAGE;
		} else if (!strcmp(a, "--evals")) {
			if (cli_parse_int(CMD, a, v, 1, 1000000000L, &evals))
				return CLI_USAGE;
		} else if (!strcmp(a, "--seed")) {
			if (cli_parse_int(CMD, a, v, 0, 0x7fffffffL, &seed))
				return CLI_USAGE;
		} else if (!strcmp(a, "--threads")) {
			if (cli_parse_int(CMD, a, v, 1, 256, &threads))
				return CLI_USAGE;
		} else if (!strcmp(a, "--train-maps")) {
			if (cli_parse_int(CMD, a, v, 1, 1000, &train))
				return CLI_USAGE;
		} else
			return cli_usage_error(CMD, "unknown option '%s'", a);
	}
	if (!algo_name)
		return cli_usage_error(CMD, "--algo is required (sa, uct, random)");
	int algo = ms_synth_algo_from_name(algo_name);
	if (algo < 0 || algo == MS_SYNTH_SKETCH_SA || algo == MS_SYNTH_SKETCH_UCT)
		return cli_usage_error(CMD, "--algo: '%s' is not sa, uct or random (sketch searches need a cloning score)",
				       algo_name);
	if (!evals && !(seconds > 0))
		return cli_usage_error(CMD, "a budget is required: --evals N or --time T");
	if (seed < 0)
		return cli_usage_error(CMD, "--seed is required");
	if (!out)
		return cli_usage_error(CMD, "-o FILE is required");
	if (resume && !checkpoint)
		return cli_usage_error(CMD, "--resume needs --checkpoint FILE");
	char mbuf[4096];
	if (!maps) {
		const char *env = getenv("MS_SHARED_DIR");
		char exe[4096];
		if (env && *env)
			snprintf(mbuf, sizeof mbuf, "%s/data/planetwars/maps", env);
		else if (!cli_exe_dir(exe, sizeof exe))
			snprintf(mbuf, sizeof mbuf, "%s/../../../shared/data/planetwars/maps", exe);
		maps = mbuf;
	}

	ms_ctx *ctx = NULL;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	int nall = 0, ret = CLI_FAIL;
	ms_pw_state *all[1000] = { NULL };
	ms_pw_state *train_maps[1000];
	ms_pw_synth *pws = NULL;
	ms_synth *s = NULL;
	ms_dsl_prog *init = NULL;
	char *text = NULL, *tokens = NULL;
	for (int i = 1; i <= 1000; i++) {
		char path[4200];
		snprintf(path, sizeof path, "%s/map%d.txt", maps, i);
		if (!cli_is_file(path))
			break;
		if (ms_pw_state_load(ctx, &all[nall], path)) {
			ret = synth_fail(ctx, "maps");
			goto done;
		}
		nall++;
	}
	if (nall == 0) {
		fprintf(stderr, "microsynth %s: no map1.txt in %s (--maps DIR)\n", CMD, maps);
		ret = CLI_USAGE;
		goto done;
	}
	if (train > nall)
		train = nall;
	char label[4096];
	size_t ll = 0;
	for (int k = 0; k < train; k++) {
		int m = (int)((long)k * nall / train);
		train_maps[k] = all[m];
		ll += (size_t)snprintf(label + ll, sizeof label - ll, "%s%d", k ? "," : "", m + 1);
		if (ll >= sizeof label)
			ll = sizeof label - 1;
	}
	ms_pw_synth_options po = { MS_PW_SYNTH_OPTIONS_VERSION, (const ms_pw_state *const *)train_maps, (int)train,
				   NULL, 200, label };
	if (ms_pw_synth_new(ctx, &pws, &po)) {
		ret = synth_fail(ctx, "problem");
		goto done;
	}
	if (initial) {
		if (ms_dsl_prog_new(ctx, &init, ms_pw_synth_grammar(pws))) {
			ret = synth_fail(ctx, "--initial");
			goto done;
		}
		const char *orig = ms_pw_dsl_original_tokens();
		int rc = !strcmp(initial, "original") ? ms_dsl_parse_tokens(init, orig, strlen(orig), ' ', 0)
						      : ms_pw_dsl_load(ctx, init, initial);
		if (rc) {
			ret = synth_fail(ctx, "--initial");
			goto done;
		}
	}
	ms_synth_opts so;
	ms_synth_opts_init(&so);
	so.algo = algo;
	so.seed = (uint64_t)seed;
	so.threads = (int)threads;
	so.max_evals = evals;
	so.max_seconds = seconds;
	so.initial = init;
	so.checkpoint = checkpoint;
	so.resume = resume;
	so.csv = csv;
	synth_run_ud ud;
	memset(&ud, 0, sizeof ud);
	ud.bar.out = stderr;
	ud.bar_on = progress;
	so.progress = synth_on_progress;
	so.progress_ud = &ud;
	if (ms_synth_new(ctx, &s, ms_pw_synth_problem(pws), &so) < 0) {
		ret = synth_fail(ctx, "search");
		goto done;
	}
	ms_synth_stats st;
	if ((ret = synth_run(ctx, s, &ud, checkpoint, &st)) != CLI_OK)
		goto done;
	ret = CLI_FAIL;
	const ms_dsl_prog *best = ms_synth_best(s, MS_SYNTH_PSI);
	double search_psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	/* the final check: every map, both seats, against the original and the example bots */
	static const char *const opp[] = { "Forecast", "BullyBot", "DualBot", "ProspectorBot", "RageBot", "RandomBot" };
	int wdl[6][3] = { { 0 } };
	for (int o = 0; o < 6; o++)
		for (int m = 0; m < nall; m++)
			for (int seat = 0; seat < 2; seat++) {
				ms_pw_bot me, them;
				ms_pw_result r;
				if (ms_pw_bot_program(ctx, &me, best) || ms_pw_bot_by_name(ctx, &them, opp[o], (uint64_t)m)) {
					ret = synth_fail(ctx, "final games");
					goto done;
				}
				int rc = seat ? ms_pw_play(ctx, all[m], &them, &me, 200, NULL, NULL, &r)
					      : ms_pw_play(ctx, all[m], &me, &them, 200, NULL, NULL, &r);
				ms_pw_bot_release(ctx, &me);
				ms_pw_bot_release(ctx, &them);
				if (rc) {
					ret = synth_fail(ctx, "final games");
					goto done;
				}
				int mine = seat ? 2 : 1;
				wdl[o][r.winner == mine ? 0 : r.winner == 0 ? 1 : 2]++;
			}
	if (ms_dsl_print(best, &text, NULL) || ms_dsl_print_tokens(best, ' ', &tokens, NULL)) {
		ret = synth_fail(ctx, "output");
		goto done;
	}
	FILE *f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, out);
		ret = CLI_USAGE;
		goto done;
	}
	double psi = (wdl[0][0] + 0.5 * wdl[0][1]) / (2.0 * nall);
	fprintf(f, "# microsynth synth: a Planet Wars gain program (planetwars-gain grammar, token form)\n");
	fprintf(f, "# command: %s\n# %s\n", command, text);
	fprintf(f, "# vs the original forecasting bot, %d maps x 2 seats: %d-%d-%d (W-D-L), score %.4f\n", nall,
		wdl[0][0], wdl[0][1], wdl[0][2], psi);
	for (int o = 1; o < 6; o++)
		fprintf(f, "# vs %s: %d-%d-%d\n", opp[o], wdl[o][0], wdl[o][1], wdl[o][2]);
	fprintf(f, "# algorithm %s, seed %ld, evaluations %lld, %.1f s; search Psi %.4f on maps %s; %s\n",
		ms_synth_algo_name(algo), seed, st.evals_psi, st.elapsed, search_psi, label,
		st.timed ? "budgeted by time: NOT reproducible" : "reproducible for any --threads");
	fprintf(f, "%s\n", tokens);
	if (fclose(f)) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, out);
		ret = CLI_USAGE;
		goto done;
	}
	printf("%s\n", text);
	for (int o = 1; o < 6; o++)
		printf("vs %s: %d-%d-%d\n", opp[o], wdl[o][0], wdl[o][1], wdl[o][2]);
	printf("psi=%.4f search_psi=%.4f wins=%d draws=%d losses=%d evals=%lld seconds=%.1f\n", psi, search_psi,
	       wdl[0][0], wdl[0][1], wdl[0][2], st.evals_psi, st.elapsed);
	ret = CLI_OK;
done:
	if (text)
		ms_ctx_mfree(ctx, text);
	if (tokens)
		ms_ctx_mfree(ctx, tokens);
	ms_synth_free(s);
	ms_dsl_prog_free(init);
	ms_pw_synth_free(pws);
	for (int i = 0; i < nall; i++)
		ms_pw_state_free(ctx, all[i]);
	ms_ctx_free(ctx);
	return ret;
}
