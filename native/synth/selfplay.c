/*
 * Self-play loops over programs (synth.h): iterated best response,
 * fictitious play and 2L, each iteration a search of any algorithm of the
 * table against a population of the game's fixed opponents and earlier
 * iterations' programs.
 *
 * Each iteration makes a problem (the game's `make`) whose opponents are
 * the fixed ones and every earlier program, sets the population the loop
 * asks for, and runs the best-response search on it. 2L also watches the
 * search (every fresh Psi score, replayed or live) and keeps a thinned,
 * deterministic sample of the programs it met: those judge the pool at
 * the next iteration.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "synth_internal.h"
#include "core/opts.h"

/* "2l_judge" in ASCII: mixed into the seed so 2L's judging games draw apart from the search's. */
#define JUDGE_SEED_TAG UINT64_C(0x326c5f6a75646765)
/* A judging game's index: iteration, opponent and row with strides (odd, prime) that keep them apart. */
#define JUDGE_ITERATION_STRIDE 1000003u
#define JUDGE_OPPONENT_STRIDE 1009u

static const char *const loop_names[] = { "ibr", "fp", "2l" };

const char *ms_synth_loop_name(int loop)
{
	return loop >= 0 && loop <= MS_SYNTH_LOOP_2L ? loop_names[loop] : NULL;
}

int ms_synth_loop_from_name(const char *name)
{
	for (int i = 0; name && i <= MS_SYNTH_LOOP_2L; i++)
		if (!strcmp(name, loop_names[i]))
			return i;
	return MS_ENOTFOUND;
}

int ms_synth_selfplay_options_init(ms_synth_selfplay_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_SYNTH_SELFPLAY_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->loop = MS_SYNTH_LOOP_IBR;
	o->iterations = 5;
	ms_synth_options_init(&o->br, MS_SYNTH_OPTIONS_VERSION);
	o->l2_programs = 20;
	o->l2_tolerance = 0.02;
	return MS_OK;
}

/* The sample of a search's programs: every `stride`-th fresh, non-failed Psi score. */
typedef struct sample {
	ms_ctx *ctx;
	ms_dsl_prog **p;
	int n, cap;
	long long seen, stride;
	ms_dsl_prog *const *progs; /* the loop's programs: samples are kept in their grammar, which outlives problems */
} sample;

static int keep(ms_ctx *ctx, ms_dsl_prog *dst, const ms_dsl_prog *src);

static void sample_clear(sample *sm)
{
	for (int i = 0; i < sm->n; i++)
		ms_dsl_prog_free(sm->p[i]);
	sm->n = 0;
	sm->seen = 0;
	sm->stride = 1;
}

static int sample_watch(void *ud, const ms_dsl_prog *p, int kind, double score, int failed)
{
	sample *sm = ud;
	(void)score;
	if (kind != MS_SYNTH_PSI || failed)
		return 0;
	if (sm->seen++ % sm->stride != 0)
		return 0;
	if (sm->n == sm->cap) {
		/* full: keep every other one, and keep half as many from now on */
		int k = 0;
		for (int i = 0; i < sm->n; i++) {
			if (i % 2 == 0)
				sm->p[k++] = sm->p[i];
			else
				ms_dsl_prog_free(sm->p[i]);
		}
		sm->n = k;
		sm->stride *= 2;
		if ((sm->seen - 1) % sm->stride != 0)
			return 0;
	}
	int rc = ms_dsl_prog_new(sm->ctx, &sm->p[sm->n], ms_dsl_prog_grammar(sm->progs[0]));
	if (rc == 0 && (rc = keep(sm->ctx, sm->p[sm->n], p)) < 0)
		ms_dsl_prog_free(sm->p[sm->n]);
	if (rc == 0)
		sm->n++;
	return rc;
}

/* Mean absolute gap between the mean over chosen columns and the mean over all `n` columns. */
static double gap(const double *m, int rows, int n, const int *chosen, int k)
{
	double e = 0;
	for (int r = 0; r < rows; r++) {
		double all = 0, sub = 0;
		for (int j = 0; j < n; j++)
			all += m[r * n + j];
		for (int j = 0; j < k; j++)
			sub += m[r * n + chosen[j]];
		e += fabs(sub / k - all / n);
	}
	return rows ? e / rows : 0;
}

/* dst = src; through the token form when the game made each problem with its own copy of the grammar. */
static int keep(ms_ctx *ctx, ms_dsl_prog *dst, const ms_dsl_prog *src)
{
	if (ms_dsl_prog_grammar(dst) == ms_dsl_prog_grammar(src))
		return ms_dsl_prog_copy(dst, src);
	char *tok = NULL;
	size_t len = 0;
	int rc = ms_dsl_print_tokens(src, ' ', &tok, &len);
	if (rc == 0 && (rc = ms_dsl_parse_tokens(dst, tok, len, ' ', ms_dsl_prog_nt(src))) < 0)
		rc = ms_ctx_error(ctx, rc, "self-play: the iteration's program does not read back in the programs' grammar: %s",
				  ms_ctx_last_error(ms_dsl_prog_ctx(dst)));
	ms_ctx_mfree(ms_dsl_prog_ctx(src), tok);
	return rc;
}

/*
 * 2L's choice among programs 0 .. n-1 (n >= 2) into chosen[], returning
 * how many: n - 1 first, then greedily the program that shrinks the gap
 * most (the first among equals) until it is within the tolerance.
 */
static int choose_2l(ms_ctx *ctx, const ms_synth_problem *pb, int n_fixed, const ms_synth_selfplay_options *o,
		     int iteration, const sample *sm, int n, int *chosen)
{
	int rows = sm->n < o->l2_programs ? sm->n : o->l2_programs, k = 1, rc = 0;
	chosen[0] = n - 1;
	if (rows == 0)
		return 1;
	const ms_dsl_prog **rp = ms_ctx_calloc(ctx, (size_t)rows, sizeof *rp);
	ms_dsl_prog **conv = ms_ctx_calloc(ctx, (size_t)rows, sizeof *conv);
	double *m = ms_ctx_calloc(ctx, (size_t)rows * (size_t)n, sizeof *m);
	uint64_t *seeds = ms_ctx_calloc(ctx, (size_t)rows, sizeof *seeds);
	double *col = ms_ctx_calloc(ctx, (size_t)rows, sizeof *col);
	ms_synth_eval *ev = NULL;
	if (!rp || !conv || !m || !seeds || !col) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "2l: out of memory");
		goto out;
	}
	/* rows spread evenly over the sample, the latest (best-informed) last */
	for (int r = 0; r < rows; r++) {
		rp[r] = sm->p[rows == 1 ? sm->n - 1 : (int)((long long)r * (sm->n - 1) / (rows - 1))];
		/* the game may make each problem with its own copy of the grammar */
		if (ms_dsl_prog_grammar(rp[r]) != pb->grammar) {
			if ((rc = ms_dsl_prog_new(ctx, &conv[r], pb->grammar)) < 0 || (rc = keep(ctx, conv[r], rp[r])) < 0)
				goto out;
			rp[r] = conv[r];
		}
	}
	if ((rc = ms_synth_eval_new(ctx, &ev, pb, o->br.threads, o->br.worker_alloc)) < 0)
		goto out;
	for (int j = 0; j < n; j++) {
		int opp = n_fixed + j;
		ms_synth_population pop = { 1, &opp, NULL };
		for (int r = 0; r < rows; r++)
			seeds[r] = ms_synth_eval_seed(o->br.seed ^ JUDGE_SEED_TAG, (uint64_t)iteration * JUDGE_ITERATION_STRIDE +
										  (uint64_t)j * JUDGE_OPPONENT_STRIDE + (uint64_t)r);
		if ((rc = ms_synth_eval_set_population(ev, &pop)) < 0 ||
		    (rc = ms_synth_eval_programs(ev, rp, rows, MS_SYNTH_PSI, seeds, col, NULL, NULL, NULL)) < 0)
			goto out;
		for (int r = 0; r < rows; r++)
			m[r * n + j] = col[r];
	}
	while (k < n && gap(m, rows, n, chosen, k) > o->l2_tolerance) {
		int best = -1;
		double be = 0;
		for (int j = 0; j < n; j++) {
			int in = 0;
			for (int q = 0; q < k; q++)
				in |= chosen[q] == j;
			if (in)
				continue;
			chosen[k] = j;
			double e = gap(m, rows, n, chosen, k + 1);
			if (best < 0 || e < be) {
				best = j;
				be = e;
			}
		}
		chosen[k++] = best;
	}
out:
	ms_synth_eval_free(ev);
	for (int r = 0; conv && r < rows; r++)
		ms_dsl_prog_free(conv[r]);
	ms_ctx_mfree(ctx, conv);
	ms_ctx_mfree(ctx, rp);
	ms_ctx_mfree(ctx, m);
	ms_ctx_mfree(ctx, seeds);
	ms_ctx_mfree(ctx, col);
	return rc < 0 ? rc : k;
}

static int check(ms_ctx *ctx, const ms_synth_selfplay_game *g, const ms_synth_selfplay_options *o, ms_dsl_prog *const *progs)
{
	if (!g || !g->make || !g->release)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: no game (make and release are required)");
	if (!o || o->version < 1 || o->version > MS_SYNTH_SELFPLAY_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: options missing or of an unknown version");
	if (!ms_synth_loop_name(o->loop))
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: unknown loop %d", o->loop);
	if (o->iterations < 1 || o->iterations > 100000)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: %d iterations", o->iterations);
	if (g->n_fixed < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: the game has no fixed opponent for iteration 0 to answer");
	if (!(o->fixed_weight >= 0) || o->fixed_weight > 1e9)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: fixed weight %g", o->fixed_weight);
	if (o->l2_programs < 1 || !(o->l2_tolerance >= 0))
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: 2l needs at least 1 program and a tolerance >= 0");
	if (o->br.initial || o->br.population || o->br.checkpoint)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: the loop sets the searches' population and checkpoints");
	if (!progs)
		return ms_ctx_error(ctx, MS_EINVAL, "self-play: no programs to receive the iterations' results");
	return 0;
}

int ms_synth_selfplay(ms_ctx *ctx, const ms_synth_selfplay_game *g, const ms_synth_selfplay_options *o,
		      ms_dsl_prog *const *progs)
{
	int rc = check(ctx, g, o, progs);
	if (rc < 0)
		return rc;
	int n_it = o->iterations, nf = g->n_fixed;
	int *ids = ms_ctx_calloc(ctx, (size_t)(n_it + nf), sizeof *ids);
	double *w = ms_ctx_calloc(ctx, (size_t)(n_it + nf), sizeof *w);
	int *chosen = ms_ctx_calloc(ctx, (size_t)n_it, sizeof *chosen);
	sample sm = { ctx, NULL, 0, 4 * o->l2_programs, 0, 1, progs };
	sm.p = ms_ctx_calloc(ctx, (size_t)sm.cap, sizeof *sm.p);
	char *path = NULL;
	size_t path_len = o->checkpoint_dir ? strlen(o->checkpoint_dir) + 32 : 0;
	if (!ids || !w || !chosen || !sm.p || (path_len && !(path = ms_ctx_malloc(ctx, path_len)))) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "self-play: out of memory");
		goto out;
	}
	for (int it = 0; it < n_it && rc == 0; it++) {
		const ms_synth_problem *pb;
		void *handle = NULL;
		int n = 0;
		if ((rc = g->make(g->ud, ctx, (const ms_dsl_prog *const *)progs, it, &pb, &handle)) < 0)
			break;
		if (syn_problem_opponents(pb) != nf + it) {
			g->release(g->ud, handle);
			rc = ms_ctx_error(ctx, MS_EINVAL, "self-play: the game made a problem of %d opponents, not %d",
					  syn_problem_opponents(pb), nf + it);
			break;
		}
		/* the population */
		if (it == 0 || o->fixed_weight > 0)
			for (int f = 0; f < nf; f++) {
				ids[n] = f;
				w[n++] = it == 0 ? 1 : o->fixed_weight;
			}
		if (it > 0) {
			int k = 1;
			chosen[0] = it - 1;
			if (o->loop == MS_SYNTH_LOOP_FP) {
				for (int j = 0; j < it; j++)
					chosen[j] = j;
				k = it;
			} else if (o->loop == MS_SYNTH_LOOP_2L && it >= 2) {
				k = choose_2l(ctx, pb, nf, o, it, &sm, it, chosen);
				if (k < 0) {
					rc = k;
					g->release(g->ud, handle);
					break;
				}
			}
			for (int j = 0; j < k; j++) {
				ids[n] = nf + chosen[j];
				w[n++] = 1;
			}
		}
		ms_synth_population pop = { n, ids, w };
		ms_synth_options so = o->br;
		so.seed = o->br.seed + (uint64_t)it;
		so.population = &pop;
		if (path) {
			snprintf(path, path_len, "%s/iter-%03d.log", o->checkpoint_dir, it);
			so.checkpoint = path;
			so.resume = o->resume;
		}
		ms_synth *s = NULL;
		sample_clear(&sm);
		if ((rc = ms_synth_new(ctx, &s, pb, &so)) == 0 && o->version >= 2 && o->on_search &&
		    (rc = o->on_search(o->ud, s, pb, (const ms_dsl_prog *const *)progs, it)) > 0)
			rc = 0;
		if (rc == 0 && (o->loop != MS_SYNTH_LOOP_2L || (rc = syn_listen(s, sample_watch, &sm)) == 0))
			rc = ms_synth_run(s);
		if (rc >= 0 && !ms_synth_best(s, MS_SYNTH_PSI))
			rc = ms_ctx_error(ctx, MS_ERANGE, "self-play: iteration %d evaluated no program (budget too small)", it);
		if (rc >= 0) {
			int c = keep(ctx, progs[it], ms_synth_best(s, MS_SYNTH_PSI));
			if (c < 0)
				rc = c;
		}
		if (rc >= 0 && o->on_iteration) {
			ms_synth_selfplay_iter info;
			memset(&info, 0, sizeof info);
			info.iteration = it;
			info.prog = progs[it];
			info.psi = ms_synth_best_score(s, MS_SYNTH_PSI);
			info.pop = &pop;
			ms_synth_get_stats(s, &info.stats);
			if (o->on_iteration(o->ud, &info) && rc == 0)
				rc = MS_SYNTH_STOPPED;
		}
		ms_synth_free(s);
		g->release(g->ud, handle);
	}
out:
	sample_clear(&sm);
	ms_ctx_mfree(ctx, sm.p);
	ms_ctx_mfree(ctx, ids);
	ms_ctx_mfree(ctx, w);
	ms_ctx_mfree(ctx, chosen);
	ms_ctx_mfree(ctx, path);
	return rc;
}
