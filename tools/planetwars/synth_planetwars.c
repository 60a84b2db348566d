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
#include "synth_progress.h"

#define CMD "synth"

static void synth_planetwars_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth synth --game planetwars --algo sa|uct|random (--evals N | --time T) --seed S\n"
		"                        -o FILE [--threads K] [--maps DIR] [--train-maps N] [--csv FILE]\n"
		"                        [--checkpoint FILE [--resume]] [--initial FILE|original] [--no-progress]\n"
		"                        [--progress-json FILE]\n\n"
		"Searches for a gain program of the forecasting bot (the target each planet attacks is\n"
		"the one of largest gain) maximising Psi: its score (win 1, draw 1/2) against the\n"
		"hand-weighted original forecasting bot on --train-maps maps (default 10: maps 1, 11,\n"
		"21, ..., 91 of --maps), both seats. At the end the best program plays the original on\n"
		"every map, both seats, and each example bot likewise.\n"
		"-o FILE receives the program (token form, a '#' header with the figures); play it with\n"
		"`microsynth planetwars play --p1 program:FILE ...`. Last line: psi= search_psi=\n"
		"wins= draws= losses= evals= seconds=\n"
		"--progress-json FILE appends JSON lines for `microsynth view --follow` (budget, then per\n"
		"new best its Psi; under MPI each rank's work).\n");
}

/* A run: the command line, every map (map1.txt, map2.txt, ... of --maps), the training ones, the problem. */
typedef struct pws_run {
	synth_search_args s; /* first: synth_main's */
	const char *maps, *progress_json;
	long train;
	char mbuf[4096]; /* the default --maps */
	ms_ctx *ctx;
	int algo, nall;
	ms_pw_state *all[1000];
	ms_pw_state *train_maps[1000];
	char label[4096]; /* the training maps' numbers */
	ms_pw_synth *pws;
	ms_dsl_prog *init;
	ms_synth_stats st;
	synth_progress pj;
} pws_run;

static void pws_defaults(void *g)
{
	((pws_run *)g)->train = 10;
}

static int pws_option(void *g, int argc, char **argv, int *i)
{
	pws_run *p = g;
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!v)
		return cli_usage_error(CMD, "'%s' needs a value or is unknown", a);
	++*i;
	if (!strcmp(a, "--maps"))
		p->maps = v;
	else if (!strcmp(a, "--progress-json"))
		p->progress_json = v;
	else if (!strcmp(a, "--train-maps"))
		return cli_parse_int(CMD, a, v, 1, 1000, &p->train) ? CLI_USAGE : CLI_OK;
	else if (strcmp(a, "--game"))
		return cli_usage_error(CMD, "unknown option '%s'", a);
	return CLI_OK;
}

/* The maps default to the shared data. */
static int pws_check(void *g, int algo)
{
	pws_run *p = g;
	p->algo = algo;
	if (!p->maps) {
		/* not found: the first place looked at, which the map reader's error names */
		cli_shared_path("data/planetwars/maps", p->mbuf, sizeof p->mbuf);
		p->maps = p->mbuf;
	}
	return CLI_OK;
}

/* Loads the maps and picks --train-maps of them, evenly spread; a CLI code. */
static int pws_maps(pws_run *r)
{
	const char *maps = r->maps;
	for (int i = 1; i <= 1000; i++) {
		char path[4200];
		snprintf(path, sizeof path, "%s/map%d.txt", maps, i);
		if (!cli_is_file(path))
			break;
		if (ms_pw_state_load(r->ctx, &r->all[r->nall], path))
			return synth_fail(r->ctx, "maps");
		r->nall++;
	}
	if (r->nall == 0) {
		fprintf(stderr, "microsynth %s: no map1.txt in %s (--maps DIR)\n", CMD, maps);
		return CLI_USAGE;
	}
	if (r->train > r->nall)
		r->train = r->nall;
	long train = r->train;
	size_t ll = 0;
	for (int k = 0; k < train; k++) {
		int m = (int)((long)k * r->nall / train);
		r->train_maps[k] = r->all[m];
		ll += (size_t)snprintf(r->label + ll, sizeof r->label - ll, "%s%d", k ? "," : "", m + 1);
		if (ll >= sizeof r->label)
			ll = sizeof r->label - 1;
	}
	return CLI_OK;
}

/* The maps, the problem and --initial FILE|original; a CLI code. */
static int pws_problem(void *g, ms_ctx *ctx, int algo, const ms_synth_problem **pb)
{
	pws_run *r = g;
	int rc;
	(void)algo;
	r->ctx = ctx;
	if ((rc = pws_maps(r)) != CLI_OK)
		return rc;
	ms_pw_synth_options po = { MS_PW_SYNTH_OPTIONS_VERSION, (const ms_pw_state *const *)r->train_maps,
				   (int)r->train, NULL, MS_PW_MAX_TURNS, r->label };
	if (ms_pw_synth_new(ctx, &r->pws, &po))
		return synth_fail(ctx, "problem");
	*pb = ms_pw_synth_problem(r->pws);
	const char *initial = r->s.initial;
	if (!initial)
		return CLI_OK;
	if (ms_dsl_prog_new(ctx, &r->init, ms_pw_synth_grammar(r->pws)))
		return synth_fail(ctx, "--initial");
	const char *orig = ms_pw_dsl_original_tokens();
	rc = !strcmp(initial, "original") ? ms_dsl_parse_tokens(r->init, orig, strlen(orig), ' ', 0)
					  : ms_pw_dsl_load(ctx, r->init, initial);
	return rc ? synth_fail(ctx, "--initial") : CLI_OK;
}

static void pws_search(void *g, ms_synth_options *so, synth_run_ud *ud)
{
	(void)ud;
	so->initial = ((pws_run *)g)->init;
}

static int pws_attach(void *g, ms_synth_options *so, ms_synth *const *s)
{
	pws_run *r = g;
	const char *maps[1] = { r->label };
	synth_progress_head h = { "planetwars", r->s.algo, r->s.seed, r->s.evals, r->s.seconds, maps, NULL, 1, 0, NULL, NULL };
	return synth_progress_open(&r->pj, CMD, r->progress_json, &h, so, s);
}

/* best against each bot of the final field on every map, both seats: wins, draws, losses; a CLI code. */
static int pws_final_games(pws_run *r, const ms_dsl_prog *best, int wdl[MS_PW_FINAL_FIELD][3])
{
	if (ms_pw_synth_final(r->ctx, best, (const ms_pw_state *const *)r->all, r->nall, wdl))
		return synth_fail(r->ctx, "final games");
	return CLI_OK;
}

/* -o FILE: the program's tokens under a '#' header with the figures; a CLI code. */
static int pws_write(const pws_run *r, const char *text, const char *tokens, int wdl[MS_PW_FINAL_FIELD][3],
		     double psi,
		     double search_psi)
{
	const synth_search_args *a = &r->s;
	const ms_synth_stats *st = &r->st;
	FILE *f = fopen(a->out, "w");
	if (!f) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, a->out);
		return CLI_USAGE;
	}
	fprintf(f, "# microsynth synth: a Planet Wars gain program (planetwars-gain grammar, token form)\n");
	fprintf(f, "# command: %s\n# %s\n", a->command, text);
	fprintf(f, "# vs the original forecasting bot, %d maps x 2 seats: %d-%d-%d (W-D-L), score %.4f\n", r->nall,
		wdl[0][0], wdl[0][1], wdl[0][2], psi);
	for (int o = 1; o < MS_PW_FINAL_FIELD; o++)
		fprintf(f, "# vs %s: %d-%d-%d\n", ms_pw_final_field()[o], wdl[o][0], wdl[o][1], wdl[o][2]);
	fprintf(f, "# algorithm %s, seed %ld, evaluations %lld, %.1f s; search Psi %.4f on maps %s; %s\n",
		ms_synth_algo_name(r->algo), a->seed, st->evals_psi, st->elapsed, search_psi, r->label,
		st->timed ? "budgeted by time: NOT reproducible" : "reproducible for any --threads");
	fprintf(f, "%s\n", tokens);
	if (fclose(f)) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, a->out);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Plays the final games, writes -o and prints the summary; a CLI code. */
static int pws_report(void *g, ms_ctx *ctx, ms_synth *s, const ms_synth_stats *st)
{
	pws_run *r = g;
	const ms_dsl_prog *best = ms_synth_best(s, MS_SYNTH_PSI);
	double search_psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	int wdl[MS_PW_FINAL_FIELD][3] = { { 0 } }, ret;
	char *text = NULL, *tokens = NULL;
	(void)ctx;
	r->st = *st;
	if ((ret = pws_final_games(r, best, wdl)))
		return ret;
	if (ms_dsl_print(best, &text, NULL) || ms_dsl_print_tokens(best, ' ', &tokens, NULL)) {
		ret = synth_fail(r->ctx, "output");
		goto done;
	}
	double psi = (wdl[0][0] + 0.5 * wdl[0][1]) / (2.0 * r->nall);
	if ((ret = pws_write(r, text, tokens, wdl, psi, search_psi)))
		goto done;
	printf("%s\n", text);
	for (int o = 1; o < MS_PW_FINAL_FIELD; o++)
		printf("vs %s: %d-%d-%d\n", ms_pw_final_field()[o], wdl[o][0], wdl[o][1], wdl[o][2]);
	printf("psi=%.4f search_psi=%.4f wins=%d draws=%d losses=%d evals=%lld seconds=%.1f\n", psi, search_psi,
	       wdl[0][0], wdl[0][1], wdl[0][2], r->st.evals_psi, r->st.elapsed);
done:
	if (text)
		ms_ctx_mfree(r->ctx, text);
	if (tokens)
		ms_ctx_mfree(r->ctx, tokens);
	return ret;
}

static void pws_release(void *g)
{
	pws_run *r = g;
	synth_progress_close(&r->pj);
	ms_dsl_prog_free(r->init);
	ms_pw_synth_free(r->pws);
	for (int i = 0; i < r->nall; i++)
		ms_pw_state_free(r->all[i]);
}

static const int pws_algos[] = { MS_SYNTH_SA, MS_SYNTH_UCT, MS_SYNTH_RANDOM }; /* no cloning score for sketches */

static const synth_row pws_row = {
	sizeof(pws_run), synth_planetwars_usage, pws_defaults, pws_option, pws_algos, 3, pws_check,
	pws_problem,	 pws_search,		 pws_attach,   pws_report, pws_release,
};

const synth_game synth_game_planetwars = { "planetwars", &pws_row, NULL };
