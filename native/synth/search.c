/*
 * A search: its options and their checks, the checkpoint header, setting
 * up the services (services.c) and the evaluator, and running the
 * algorithm the table (algos.c) names.
 *
 * Replay: a resumed search runs its algorithm again from the start with
 * the same seed; syn_eval answers from the checkpoint's records (checking
 * that each is the program now asked for) until they run out, then
 * evaluates live. The algorithms are deterministic given the scores, so
 * this rebuilds every piece of state (annealing passes, UCT trees and
 * caches) without serialising any of it.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "synth_internal.h"
#include "core/opts.h"
#include "core/clock.h"

int ms_synth_options_init(ms_synth_options *o, unsigned int version)
{
	ms_synth_options full;
	if (!MS_OPTS_VERSION_OK(version, MS_SYNTH_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(&full, 0, sizeof full);
	full.version = version;
	full.threads = 1;
	syn_opts_defaults(&full);
	/* An older struct is shorter: its fields only. */
	memcpy(o, &full, syn_options_size(version));
	return MS_OK;
}

/* `o` of any accepted version as the current layout, later fields at their defaults. */
static void upgrade_opts(const ms_synth_options *o, ms_synth_options *full)
{
	ms_synth_options_init(full, MS_SYNTH_OPTIONS_VERSION);
	memcpy(full, o, syn_options_size(o->version));
	full->version = MS_SYNTH_OPTIONS_VERSION;
}

static int check_opts(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o, int start_nt)
{
	if (!o || o->version != MS_SYNTH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: missing or of an unknown version");
	if (!ms_synth_algo_name(o->algo))
		return ms_ctx_error(ctx, MS_EINVAL, "search options: unknown algorithm %d", o->algo);
	if (!(o->max_evals > 0) && !(o->max_seconds > 0))
		return ms_ctx_error(ctx, MS_EINVAL, "search options: no budget (set max_evals or max_seconds)");
	if (o->max_evals < 0 || o->max_seconds < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: negative budget, or a sketch share outside [0, 1]");
	if (o->threads < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: %d threads", o->threads);
	int rc = syn_opts_check(ctx, pb, o);
	if (rc < 0)
		return rc;
	int needs_c = syn_algo_get(o->algo)->needs_c;
	if (needs_c && !pb->has_c)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: %s needs a cloning score, and problem %s has none",
				    ms_synth_algo_name(o->algo), pb->name ? pb->name : "?");
	if (o->initial) {
		if (needs_c)
			return ms_ctx_error(ctx, MS_EINVAL, "search options: %s takes no initial program (its sketch is its start)",
					    ms_synth_algo_name(o->algo));
		if (ms_dsl_prog_grammar(o->initial) != pb->grammar || ms_dsl_prog_nt(o->initial) != start_nt ||
		    ms_dsl_hole_count(o->initial) > 0)
			return ms_ctx_error(ctx, MS_EINVAL,
					    "search options: the initial program is not a complete program of the problem's start symbol");
	}
	if (o->checkpoint && !*o->checkpoint)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: empty checkpoint path");
	return 0;
}

/* Appends the population line ("population -" without opponents): opponent:weight pairs, weights exact. */
static int add_population(ms_synth *s)
{
	const int *id;
	const double *w;
	int n = syn_eval_population(s->ev, &id, &w), rc;
	ms_buf b;

	ms_buf_init(&b, s->ctx);
	rc = ms_buf_puts(&b, s->header);
	if (rc >= 0)
		rc = ms_buf_puts(&b, n ? "population" : "population -");
	for (int i = 0; rc >= 0 && i < n; i++)
		rc = ms_buf_printf(&b, " %d:%.17g", id[i], w[i]);
	if (rc >= 0)
		rc = ms_buf_puts(&b, "\n");
	if (rc < 0) {
		ms_buf_dispose(&b);
		return ms_ctx_error(s->ctx, MS_ENOMEM, "search: out of memory");
	}
	ms_ctx_mfree(s->ctx, s->header);
	s->header = ms_buf_detach(&b);
	return 0;
}

/* The settings that decide what a search does, as the checkpoint's header records them. */
static int build_header(ms_synth *s)
{
	const ms_synth_options *o = &s->o;
	const ms_synth_problem *pb = s->pb;
	const ms_dsl_gen_options *g = syn_gen_opts(s);
	char *init = NULL;
	ms_buf b;
	int rc;
	if (o->initial && (rc = ms_dsl_print_tokens(o->initial, ' ', &init, NULL)) < 0)
		return rc;
	/* the fingerprint may be long (e.g. opponents given as program text): the buffer grows */
	ms_buf_init(&b, s->ctx);
	if ((rc = ms_buf_printf(&b, "problem %s\nfingerprint %s\ngrammar %s\nstart %d\ngen %d %d %d\nshards %d %d\n"
				    "algo %s\nseed %llu\n",
				pb->name ? pb->name : "-", pb->fingerprint ? pb->fingerprint : "-",
				ms_dsl_grammar_name(pb->grammar), s->start_nt, g ? g->max_depth : 0, g ? g->budget : 0,
				g ? g->max_nodes : 0, pb->shards[0] > 0 ? pb->shards[0] : 1,
				pb->shards[1] > 0 ? pb->shards[1] : 1, ms_synth_algo_name(o->algo),
				(unsigned long long)o->seed)) >= 0 &&
	    (rc = syn_opts_header(s, &b, 0)) >= 0 && (rc = ms_buf_printf(&b, "initial %s\n", init ? init : "-")) >= 0)
		rc = 0;
	ms_ctx_mfree(s->ctx, init);
	if (rc < 0) {
		ms_buf_dispose(&b);
		return rc;
	}
	s->header = ms_buf_detach(&b);
	if ((rc = add_population(s)) < 0)
		return rc;
	ms_buf_init(&b, s->ctx);
	if ((rc = ms_buf_puts(&b, s->header)) < 0 || (rc = syn_opts_header(s, &b, 1)) < 0) {
		ms_buf_dispose(&b);
		return rc;
	}
	ms_ctx_mfree(s->ctx, s->header);
	s->header = ms_buf_detach(&b);
	for (char *c = s->header; *c; c++)
		if (*c == '\r')
			*c = ' ';
	return 0;
}

void ms_synth_free(ms_synth *s)
{
	if (!s)
		return;
	ms_synth_eval_free(s->ev);
	syn_log_free(s->ctx, &s->log);
	if (s->csv)
		fclose(s->csv);
	for (int k = 0; k < 2; k++) {
		ms_dsl_prog_free(s->best[k]);
		syn_cache_dispose(&s->cache[k]);
	}
	ms_dsl_prog_free(s->mut_parent);
	ms_ctx_mfree(s->ctx, s->header);
	ms_vec_dispose(s->ctx, &s->batch);
	ms_vec_dispose(s->ctx, &s->seeds);
	ms_vec_dispose(s->ctx, &s->slot);
	ms_vec_dispose(s->ctx, &s->fresh);
	ms_ctx_mfree(s->ctx, s);
}

int ms_synth_new(ms_ctx *ctx, ms_synth **out, const ms_synth_problem *pb, const ms_synth_options *o)
{
	*out = NULL;
	if (!pb || !syn_problem_version_ok(pb) || !pb->grammar ||
	    (!pb->eval && !syn_problem_eval_vs(pb)))
		return ms_ctx_error(ctx, MS_EINVAL, "search: problem missing, of an unknown version, or without grammar or eval");
	int start_nt = pb->start >= 0 ? pb->start : ms_dsl_grammar_start(pb->grammar);
	if (start_nt < 0 || start_nt >= ms_dsl_nt_count(pb->grammar))
		return ms_ctx_error(ctx, MS_EINVAL, "search: problem %s: no non-terminal %d", pb->name ? pb->name : "?",
				    start_nt);
	if (pb->gen.version != 0 && pb->gen.version != MS_DSL_GEN_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "search: problem %s: generation options of an unknown version",
				    pb->name ? pb->name : "?");
	/* Version 1 declared the version-2 layout without it (synth.h): refused. */
	if (!o || o->version < 2 || o->version > MS_SYNTH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: missing or of an unknown version");
	ms_synth_options full;
	upgrade_opts(o, &full);
	o = &full;
	int rc = check_opts(ctx, pb, o, start_nt);
	if (rc < 0)
		return rc;
	ms_synth *s = ms_ctx_calloc(ctx, 1, sizeof *s);
	if (!s)
		return ms_ctx_error(ctx, MS_ENOMEM, "search: out of memory");
	s->ctx = ctx;
	s->pb = pb;
	s->o = *o;
	s->start_nt = start_nt;
	s->best_score[0] = s->best_score[1] = -1;
	syn_cache_init(&s->cache[0], ctx);
	syn_cache_init(&s->cache[1], ctx);
	ms_jrandom_init(&s->rng, (int64_t)o->seed);
	if (syn_algo_get(o->algo)->setup)
		syn_algo_get(o->algo)->setup(s);
	for (int k = 0; k < 2; k++)
		if ((rc = syn_prog_new(s, &s->best[k])) < 0)
			goto fail;
	if ((rc = ms_synth_eval_new(ctx, &s->ev, pb, o->threads, o->worker_alloc)) < 0)
		goto fail;
	if ((rc = ms_synth_eval_set_population(s->ev, o->population)) < 0)
		goto fail;
	if ((rc = build_header(s)) < 0)
		goto fail;
	if (o->checkpoint && (rc = syn_log_open(s)) < 0)
		goto fail;
	if (o->csv) {
		s->csv = fopen(o->csv, "a");
		if (!s->csv) {
			rc = ms_ctx_error(ctx, MS_EIO, "CSV log %s: cannot open for appending", o->csv);
			goto fail;
		}
		if (fseek(s->csv, 0, SEEK_END) == 0 && ftell(s->csv) == 0)
			fputs("seconds,best_psi,best_c,evals_psi,evals_c,phase\n", s->csv);
	}
	*out = s;
	return 0;
fail:
	ms_synth_free(s);
	return rc;
}

int ms_synth_run(ms_synth *s)
{
	if (s->ran)
		return ms_ctx_error(s->ctx, MS_EINVAL, "search: ms_synth_run called twice");
	s->ran = 1;
	s->t_start = ms_now();
	if (s->log.rec.n == 0)
		syn_start_live_clock(s);
	int rc = syn_algo_get(s->o.algo)->run(s);
	if (rc < 0)
		return rc;
	if (!syn_replaying(s) && (rc = syn_csv_line(s, syn_elapsed(s))) < 0)
		return rc;
	return s->stop_reason == SYN_STOP_CALLBACK ? MS_SYNTH_STOPPED : 0;
}

const ms_dsl_prog *ms_synth_best(const ms_synth *s, int kind)
{
	if (kind != MS_SYNTH_PSI && kind != MS_SYNTH_C)
		return NULL;
	return s->best_score[kind] < 0 ? NULL : s->best[kind];
}

double ms_synth_best_score(const ms_synth *s, int kind)
{
	if (kind != MS_SYNTH_PSI && kind != MS_SYNTH_C)
		return -1;
	return s->best_score[kind];
}

ms_synth_eval *ms_synth_evaluator(ms_synth *s)
{
	return s->ev;
}
