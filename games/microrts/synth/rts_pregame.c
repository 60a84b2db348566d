/*
 * Pre-game synthesis (rts_synth.h, ms_rts_pregame): a program for the map in
 * front of the bot, made in the time a tournament grants before the game.
 *
 * The map arrives as the game's first state, in memory; the problem is the
 * field synthesis of tools/competition.sh (SA, both seats, the native field
 * with TMA added, the length tie-break) built on that state. The candidates (the shipped
 * programs) are screened first, in batches of `threads` so the clock is
 * checked between them; the best one starts the search. An optional second
 * stage plays the opponents that draw unseeded numbers in their jars
 * (CoacAI, mayari) with several seeds, from the first stage's best: the
 * reproducible stand-ins can be beaten by a program the jars beat.
 *
 * The search stops between batches of evaluations, so each stage's clock
 * ends a margin before the deadline: the time one batch took in the
 * screening, scaled to SA's batch, so a big map does not overrun.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "microsynth/rts_synth.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/bots.h"
#include "core/internal.h"

/* The competitions' field: the 2020, 2021 and 2024 winners (TMA: docs/tma.md) and the four rushes. */
static const char *const default_field[] = { "CoacAI", "mayari", "TMA", "WorkerRush", "LightRush", "HeavyRush",
					     "RangedRush" };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void ms_rts_pregame_opts_init(ms_rts_pregame_opts *o)
{
	memset(o, 0, sizeof *o);
	o->version = MS_RTS_PREGAME_OPTS_VERSION;
	o->edition = MS_PATH_EDITION_2023;
	o->threads = 1;
	o->seed = 1;
	o->neighbours = 20;
	o->stochastic_share = 0.3;
	o->opponent_seeds = 2;
}

static int check_opts(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_opts *o)
{
	if (!o || o->version != MS_RTS_PREGAME_OPTS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: options missing or of an unknown version");
	if (!first)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: no first state");
	if (!(o->seconds > 0) && o->max_evals <= 0)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: no budget (seconds or max_evals)");
	if (o->threads < 1 || o->threads > 256)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: %d threads (1..256)", o->threads);
	if (o->stochastic_share < 0 || o->stochastic_share >= 1)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: stochastic share %g (0 <= share < 1)",
				    o->stochastic_share);
	if (o->opponent_seeds < 0 || o->opponent_seeds > 64 || o->neighbours < 1 || o->max_cycles < 0 ||
	    o->n_candidates < 0 || o->n_field < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: opponent seeds %d (0..64), neighbours %d, "
				    "max cycles %d or a count out of range", o->opponent_seeds, o->neighbours,
				    o->max_cycles);
	return MS_OK;
}

/* The field the options name, else the default one; its size into *n. */
static const char *const *field_of(const ms_rts_pregame_opts *o, int *n)
{
	*n = o->field ? o->n_field : (int)(sizeof default_field / sizeof *default_field);
	return o->field ? o->field : default_field;
}

/* The field problem on `first`, with `seeds` seeds per seat for the bots that draw (0: none). */
static int make_problem(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_opts *o, int seeds,
			ms_rts_synth **out)
{
	static const char *const name[] = { "the game's map" };
	const ms_rts_state *states[] = { first };
	int n_field;
	const char *const *field = field_of(o, &n_field);
	ms_rts_synth_options so = { .version = MS_RTS_SYNTH_OPTIONS_VERSION,
				    .maps = name,
				    .n_maps = 1,
				    .states = states,
				    .opponents = field,
				    .n_opponents = n_field,
				    .max_cycles = o->max_cycles,
				    .edition = o->edition,
				    .tiebreak = MS_RTS_TIEBREAK_LENGTH,
				    .opponent_seeds = seeds };
	return ms_rts_synth_new(ctx, out, &so);
}

/* 1 when a bot of the field draws unseeded numbers in its jar (a second stage can tell seeds apart). */
static int field_draws(const ms_rts_pregame_opts *o)
{
	int n;
	const char *const *f = field_of(o, &n);
	for (int i = 0; i < n; i++)
		if (ms_bot_draws_unseeded(f[i]))
			return 1;
	return 0;
}

typedef struct run_state {
	double start, deadline; /* monotonic seconds; deadline 0: none */
	long long evals;
} run_state;

/*
 * Screens the candidates: each parsed (texts that do not parse are skipped
 * and counted), scored in batches of `threads`; the best (ties: the first)
 * into *best (NULL when none parsed or the clock ran out first).
 */
static int screen(ms_ctx *ctx, const ms_rts_synth *rs, const ms_rts_pregame_opts *o, run_state *rst,
		  ms_dsl_prog **best, ms_rts_pregame_result *res, double *batch_s)
{
	const ms_synth_problem *pb = ms_rts_synth_problem(rs);
	ms_synth_eval *ev = NULL;
	ms_dsl_prog **progs = NULL;
	int n = 0, rc;

	*best = NULL;
	*batch_s = 0;
	if (o->n_candidates <= 0)
		return MS_OK;
	if (!(progs = ms_ctx_calloc(ctx, (size_t)o->n_candidates, sizeof *progs)))
		return ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
	int *index = ms_ctx_calloc(ctx, (size_t)o->n_candidates, sizeof *index);
	if (!index) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
		goto done;
	}
	for (int i = 0; i < o->n_candidates; i++) {
		const char *t = o->candidates[i];
		ms_dsl_prog *p = NULL;
		if (!t) {
			res->skipped++;
			continue;
		}
		if ((rc = ms_dsl_prog_new(ctx, &p, ms_rts_synth_grammar(rs))))
			goto done;
		if (ms_rts_dsl_parse(p, "candidate", t, strlen(t), 0)) {
			ms_dsl_prog_free(p);
			res->skipped++;
			continue;
		}
		index[n] = i;
		progs[n++] = p;
	}
	if ((rc = ms_synth_eval_new(ctx, &ev, pb, o->threads, NULL)))
		goto done;
	double best_score = -1;
	int best_i = -1;
	for (int at = 0; at < n; at += o->threads) {
		int k = n - at < o->threads ? n - at : o->threads;
		double scores[256];
		int failed[256];
		uint64_t seeds[256];
		double t0 = now_s();
		if (rst->deadline > 0 && t0 + *batch_s >= rst->deadline)
			break;
		for (int j = 0; j < k; j++)
			seeds[j] = ms_synth_eval_seed(o->seed, (uint64_t)(at + j));
		if ((rc = ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)progs + at, k, MS_SYNTH_PSI, seeds,
						 scores, failed, NULL, NULL)))
			goto done;
		double took = now_s() - t0;
		if (took > *batch_s)
			*batch_s = took;
		rst->evals += k;
		res->screened += k;
		for (int j = 0; j < k; j++)
			if (!failed[j] && scores[j] > best_score) {
				best_score = scores[j];
				best_i = at + j;
			}
		if (o->max_evals > 0 && rst->evals >= o->max_evals)
			break;
	}
	if (best_i >= 0) {
		*best = progs[best_i];
		progs[best_i] = NULL;
		res->start = index[best_i];
		res->start_psi = best_score;
	}
	rc = MS_OK;
done:
	ms_synth_eval_free(ev);
	for (int i = 0; i < n; i++)
		ms_dsl_prog_free(progs[i]);
	ms_ctx_mfree(ctx, progs);
	ms_ctx_mfree(ctx, index);
	return rc;
}

/* `p` as a program of `rs`'s grammar (each problem has its own), through its exact-tree text. */
static int regrammar(ms_ctx *ctx, const ms_rts_synth *rs, const ms_dsl_prog *p, ms_dsl_prog **out)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if ((rc = ms_rts_dsl_print(p, MS_RTS_DSL_FORM_SALVE, &text, &len)))
		return rc;
	if (!(rc = ms_dsl_prog_new(ctx, out, ms_rts_synth_grammar(rs))) &&
	    (rc = ms_rts_dsl_parse(*out, "stage 1's program", text, len, 0))) {
		ms_dsl_prog_free(*out);
		*out = NULL;
	}
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	return rc;
}

/*
 * One SA stage on `rs` from `from` (NULL: random) until `until` (monotonic
 * seconds; the margin is taken off here) or `evals` evaluations; the best
 * program into *out (a copy), its score into *psi.
 */
static int sa_stage(ms_ctx *ctx, const ms_rts_synth *rs, const ms_rts_pregame_opts *o, const ms_dsl_prog *from,
		    double until, long long evals, double margin, uint64_t seed, ms_dsl_prog **out, double *psi,
		    long long *made)
{
	ms_synth_opts so;
	ms_synth *s = NULL;
	ms_synth_stats st;
	int rc;

	*out = NULL;
	*psi = -1;
	*made = 0;
	ms_synth_opts_init(&so);
	so.algo = MS_SYNTH_SA;
	so.seed = seed;
	so.threads = o->threads;
	so.sa_neighbours = o->neighbours;
	so.sa_cache = 1; /* the stage's matches are deterministic for a program */
	so.sa_restart = MS_SYNTH_RESTART_BEST;
	so.initial = from;
	so.max_evals = evals;
	if (until > 0) {
		so.max_seconds = until - now_s() - margin;
		if (so.max_seconds < 0.05)
			return MS_OK; /* no time for a batch */
	}
	if ((rc = ms_synth_new(ctx, &s, ms_rts_synth_problem(rs), &so)) || (rc = ms_synth_run(s)))
		goto done;
	ms_synth_get_stats(s, &st);
	*made = st.evals_psi;
	const ms_dsl_prog *b = ms_synth_best(s, MS_SYNTH_PSI);
	if (b) {
		*psi = ms_synth_best_score(s, MS_SYNTH_PSI);
		rc = ms_dsl_prog_clone(out, b);
	}
done:
	ms_synth_free(s);
	return rc;
}

int ms_rts_pregame(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_opts *o, ms_rts_pregame_result *res)
{
	ms_rts_synth *rs = NULL, *rs2 = NULL;
	ms_dsl_prog *start = NULL, *best1 = NULL, *best2 = NULL, *from2 = NULL;
	run_state rst = { 0 };
	double batch_s = 0;
	long long made = 0;
	int rc;

	memset(res, 0, sizeof *res);
	res->start = -1;
	res->start_psi = res->psi = -1;
	if ((rc = check_opts(ctx, first, o)))
		return rc;
	rst.start = now_s();
	rst.deadline = o->seconds > 0 ? rst.start + o->seconds : 0;
	if ((rc = make_problem(ctx, first, o, 0, &rs)) ||
	    (rc = screen(ctx, rs, o, &rst, &start, res, &batch_s)))
		goto done;
	/* SA's batch is `neighbours` programs over `threads`; a screening batch was `threads` programs */
	double margin = batch_s * (double)((o->neighbours + o->threads - 1) / o->threads) + 0.2;
	int two = o->stochastic_share > 0 && o->opponent_seeds >= 2 && field_draws(o);
	double stage1_end = 0;
	long long evals1 = 0, evals2 = 0;
	if (rst.deadline > 0)
		stage1_end = two ? rst.start + o->seconds * (1 - o->stochastic_share) : rst.deadline;
	if (o->max_evals > 0) {
		long long left = o->max_evals - rst.evals;
		if (left < 1)
			left = 1;
		evals1 = two ? (long long)(left * (1 - o->stochastic_share)) : left;
		evals2 = left - evals1;
		if (evals1 < 1)
			evals1 = 1;
	}
	if ((rc = sa_stage(ctx, rs, o, start, stage1_end, evals1, margin, o->seed, &best1, &res->psi, &made)))
		goto done;
	rst.evals += made;
	res->stage1_evals = made;
	if (!best1 && start) { /* no time for a batch: the screened best stands */
		best1 = start;
		start = NULL;
		res->psi = res->start_psi;
	}
	if (two && best1 && (rst.deadline <= 0 || now_s() + margin * o->opponent_seeds < rst.deadline) &&
	    (o->max_evals <= 0 || evals2 > 0)) {
		double psi2 = -1;
		if ((rc = make_problem(ctx, first, o, o->opponent_seeds, &rs2)) ||
		    (rc = regrammar(ctx, rs2, best1, &from2)) ||
		    (rc = sa_stage(ctx, rs2, o, from2, rst.deadline, evals2, margin * o->opponent_seeds,
				   o->seed + 1, &best2, &psi2, &made)))
			goto done;
		rst.evals += made;
		res->stage2_evals = made;
		res->stochastic_psi = psi2;
	}
	const ms_dsl_prog *chosen = best2 ? best2 : best1;
	if (!chosen) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "pre-game synthesis: the budget ended before any program was scored");
		goto done;
	}
	char *text = NULL;
	if ((rc = ms_rts_dsl_print(chosen, MS_RTS_DSL_FORM_SALVE, &text, NULL)))
		goto done;
	res->program = ms_ctx_strdup(ctx, text);
	ms_ctx_mfree(ms_dsl_prog_ctx(chosen), text);
	if (!res->program) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
		goto done;
	}
	res->evals = rst.evals;
	res->seconds = now_s() - rst.start;
done:
	ms_dsl_prog_free(start);
	ms_dsl_prog_free(best1);
	ms_dsl_prog_free(best2);
	ms_dsl_prog_free(from2);
	ms_rts_synth_free(rs);
	ms_rts_synth_free(rs2);
	return rc;
}
