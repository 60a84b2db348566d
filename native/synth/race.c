/*
 * Raced hill climbing (MS_SYNTH_RACE; synth.h, race_* options).
 *
 * When programs differ by a few hundredths of a win rate, a 1000-match
 * score cannot tell them apart (its standard error is about 0.016), and a
 * search that keeps the best of thousands of such scores keeps a lucky
 * one: the winner's curse. Three things answer it here:
 *
 * - Paired scores: a candidate plays the matches the incumbent played
 *   (the same evaluation seeds), so the many matches where the two decide
 *   alike cancel and only the ones where they differ count. A mutation
 *   that changes nothing the matches reach gains exactly 0.
 * - Racing: the candidate is scored on the incumbent's seeds one
 *   evaluation at a time and dropped as soon as its summed gain is not
 *   above 0; most mutations cost one evaluation.
 * - A fresh confirmation: a candidate that stayed ahead was selected on
 *   those seeds, so its gain there is optimistic. It replaces the
 *   incumbent only if it is ahead again on seeds nobody was selected on.
 *
 * The incumbent's race seeds are drawn afresh whenever it changes (the new
 * one was selected on the old seeds) and scored at once; their mean is the
 * search's best Psi, the one estimate here no selection touched.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "synth_internal.h"
#include "microsynth/arena.h"

/* Seeds of race and confirmation evaluations: their own stream, apart from the search's index seeds. */
#define RACE_SEED_TAG UINT64_C(0x7261636573656564)
/* Gains are sums of differences of win rates; below this they count as 0. */
#define RACE_TIE 1e-9

typedef struct race {
	ms_synth *s;
	ms_dsl_prog *inc, *cand;
	int k, c;
	ms_arena *mem;         /* the five tables below: sized once, freed at once */
	uint64_t *race_seed;   /* k: the incumbent's race seeds */
	double *inc_score;     /* k: its scores on them */
	uint64_t *pair_seed;   /* 2c: a confirmation's seeds, each twice (incumbent, candidate) */
	ms_dsl_prog **pair;    /* 2c: inc, cand, inc, cand, ...; or k: inc (its race seeds' batch) */
	double *pair_score;
	uint64_t next_seed;    /* seeds drawn so far */
	int dedupe;            /* local or mixed mutation: each distinct mutant races once per incumbent */
	syn_cache seen;        /* the mutants raced against the current incumbent (scores unused) */
} race;

static uint64_t fresh_seed(race *r)
{
	return ms_synth_eval_seed(r->s->o.seed ^ RACE_SEED_TAG, r->next_seed++);
}

static void race_free(race *r)
{
	ms_dsl_prog_free(r->inc);
	ms_dsl_prog_free(r->cand);
	ms_arena_free(r->mem);
	syn_cache_dispose(&r->seen);
}

static int race_init(race *r, ms_synth *s)
{
	memset(r, 0, sizeof *r);
	r->s = s;
	r->k = s->o.race_blocks;
	r->c = s->o.race_confirm;
	r->dedupe = s->o.mutation != MS_SYNTH_MUTATION_SUBTREE;
	syn_cache_init(&r->seen, s->ctx);
	int rc;
	if ((rc = syn_prog_new(s, &r->inc)) < 0 || (rc = syn_prog_new(s, &r->cand)) < 0 ||
	    (rc = ms_arena_new(&r->mem, s->ctx, 0)) < 0)
		return rc;
	r->race_seed = ms_arena_calloc(r->mem, (size_t)r->k, sizeof *r->race_seed);
	r->inc_score = ms_arena_calloc(r->mem, (size_t)r->k, sizeof *r->inc_score);
	r->pair_seed = ms_arena_calloc(r->mem, (size_t)r->c * 2, sizeof *r->pair_seed);
	r->pair = ms_arena_calloc(r->mem, (size_t)(r->c * 2 > r->k ? r->c * 2 : r->k), sizeof *r->pair);
	r->pair_score = ms_arena_calloc(r->mem, (size_t)r->c * 2, sizeof *r->pair_score);
	if (!r->race_seed || !r->inc_score || !r->pair_seed || !r->pair || !r->pair_score)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "race: out of memory");
	return 0;
}

/* One program on one seed: 0, SYN_STOP / SYN_PHASE (no score), or an error. */
static int score_on(race *r, ms_dsl_prog *p, uint64_t seed, double *score)
{
	int n_done;
	return syn_eval_seeded(r->s, &p, 1, MS_SYNTH_PSI, &seed, score, &n_done);
}

/*
 * A new incumbent's race seeds, drawn afresh and scored in one batch; their
 * mean is the search's best Psi (scores nobody was selected on). 0,
 * SYN_STOP / SYN_PHASE, or an error.
 */
static int new_race_seeds(race *r)
{
	int n_done, rc;
	for (int j = 0; j < r->k; j++) {
		r->race_seed[j] = fresh_seed(r);
		r->pair[j] = r->inc;
	}
	if ((rc = syn_eval_seeded(r->s, r->pair, r->k, MS_SYNTH_PSI, r->race_seed, r->inc_score, &n_done)) != 0)
		return rc;
	double mean = 0;
	for (int j = 0; j < r->k; j++)
		mean += r->inc_score[j] / r->k;
	return syn_set_best(r->s, r->inc, mean);
}

/* The start: the initial program, else random programs until one scores above 0 on fresh matches. */
static int first_incumbent(race *r)
{
	ms_synth *s = r->s;
	int rc;
	if (s->o.initial)
		return ms_dsl_prog_copy(r->inc, s->o.initial);
	for (;;) {
		double sc;
		if ((rc = syn_generate(s, r->inc)) < 0 || (rc = score_on(r, r->inc, fresh_seed(r), &sc)) != 0)
			return rc;
		if (sc > 0)
			return 0;
	}
}

/*
 * The race of r->cand against the incumbent on its seeds: *ahead is 1 if
 * the candidate's summed gain stayed above 0 through all of them, 0 if it
 * was dropped. 0, SYN_STOP / SYN_PHASE, or an error.
 */
static int run_race(race *r, int *ahead)
{
	double gain = 0;
	int rc;
	*ahead = 0;
	for (int j = 0; j < r->k; j++) {
		double sc;
		if ((rc = score_on(r, r->cand, r->race_seed[j], &sc)) != 0)
			return rc;
		gain += sc - r->inc_score[j];
		if (gain <= RACE_TIE)
			return 0;
	}
	*ahead = 1;
	return 0;
}

/*
 * Whether paired scores (incumbent, candidate, incumbent, ...) on c seeds
 * show a mean gain above `margin`, by more than z standard errors of it
 * (estimated from the c gains' spread) when z > 0.
 */
static int confirmed(const double *pair_score, int c, double margin, double z)
{
	double mean = 0, ss = 0;
	for (int i = 0; i < c; i++)
		mean += (pair_score[2 * i + 1] - pair_score[2 * i]) / c;
	if (!(mean > margin + RACE_TIE))
		return 0;
	if (z <= 0 || c < 2)
		return 1;
	for (int i = 0; i < c; i++) {
		double d = pair_score[2 * i + 1] - pair_score[2 * i] - mean;
		ss += d * d;
	}
	return mean - margin > z * sqrt(ss / (c - 1) / c);
}

/*
 * The candidate and the incumbent on c fresh seeds (one batch, so the
 * threads share it): the candidate replaces the incumbent if its mean gain
 * exceeds the margin by race_z standard errors. 0, SYN_STOP / SYN_PHASE, or an error.
 */
static int confirm(race *r)
{
	ms_synth *s = r->s;
	int n = 2 * r->c, n_done, rc;
	for (int i = 0; i < r->c; i++) {
		r->pair_seed[2 * i] = r->pair_seed[2 * i + 1] = fresh_seed(r);
		r->pair[2 * i] = r->inc;
		r->pair[2 * i + 1] = r->cand;
	}
	if ((rc = syn_eval_seeded(s, r->pair, n, MS_SYNTH_PSI, r->pair_seed, r->pair_score, &n_done)) != 0)
		return rc;
	if (!confirmed(r->pair_score, r->c, s->o.race_margin, s->o.race_z))
		return 0;
	ms_dsl_prog *t = r->inc;
	r->inc = r->cand;
	r->cand = t;
	syn_cache_dispose(&r->seen); /* empties it */
	return new_race_seeds(r);
}

static int climb(race *r)
{
	ms_synth *s = r->s;
	int rc;
	if ((rc = first_incumbent(r)) != 0 || (rc = new_race_seeds(r)) != 0)
		return rc;
	for (;;) {
		if ((rc = ms_dsl_prog_copy(r->cand, r->inc)) < 0 || (rc = syn_mutate(s, r->cand)) < 0)
			return rc;
		double unused;
		int again = r->dedupe && syn_cache_get(&r->seen, r->cand, &unused);
		if (!again && r->dedupe && (rc = syn_cache_put(&r->seen, r->cand, 0)) < 0)
			return rc;
		/* On the incumbent's race seeds a mutant raced before would score as it did. */
		if (again || ms_dsl_equal(r->cand, r->inc)) {
			if ((rc = syn_idle(s)) != 0 || (rc = syn_check(s, MS_SYNTH_PSI)) != 0)
				return rc;
			continue;
		}
		int ahead;
		if ((rc = run_race(r, &ahead)) != 0 || (ahead && (rc = confirm(r)) != 0))
			return rc;
	}
}

int syn_run_race(ms_synth *s)
{
	race r;
	syn_phase(s, MS_SYNTH_PHASE_SEARCH, 0, 0, 0);
	s->own_best = 1; /* syn_set_best, from the first incumbent's race scores on */
	int rc = race_init(&r, s);
	if (rc == 0)
		rc = climb(&r);
	if (rc == SYN_PHASE)
		rc = 0;
	race_free(&r);
	return rc;
}

/* ---- the race's options: read by it only, so checked and recorded only for it ---- */

static void race_defaults(ms_synth_options *o)
{
	o->race_blocks = 4;
	o->race_confirm = 16;
	o->race_z = 2;
}

static int race_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	(void)pb;
	if (o->algo != MS_SYNTH_RACE)
		return 0;
	if (o->race_blocks < 1 || o->race_blocks > 1000 || o->race_confirm < 1 || o->race_confirm > 1000 ||
	    !(o->race_margin >= 0 && o->race_margin <= 1) || !(o->race_z >= 0 && o->race_z <= 100))
		return ms_ctx_error(ctx, MS_EINVAL,
				    "search options: race needs blocks and confirm in 1..1000, margin in [0, 1], z in [0, 100]");
	return 0;
}

static int race_header(ms_synth *s, ms_buf *b)
{
	const ms_synth_options *o = &s->o;
	if (o->algo != MS_SYNTH_RACE)
		return 0;
	return ms_buf_printf(b, "race %d %d %.17g %.17g\n", o->race_blocks, o->race_confirm, o->race_margin, o->race_z);
}

static const ms_synth_knob race_knobs[] = {
	{ "--race-blocks", MS_SYNTH_KNOB_INT, 1, 1000, 0, offsetof(ms_synth_options, race_blocks), SYN_ALGO(MS_SYNTH_RACE),
	  NULL, "N", "paired evaluations a mutation must stay ahead of the incumbent through (4)" },
	{ "--race-confirm", MS_SYNTH_KNOB_INT, 1, 1000, 0, offsetof(ms_synth_options, race_confirm),
	  SYN_ALGO(MS_SYNTH_RACE), NULL, "N", "fresh paired evaluations that must confirm it before it replaces the incumbent (16)" },
	{ "--race-margin", MS_SYNTH_KNOB_REAL, 0, 1, 0, offsetof(ms_synth_options, race_margin), SYN_ALGO(MS_SYNTH_RACE),
	  NULL, "X", "mean gain per confirming evaluation needed to replace the incumbent (0)" },
	{ "--race-z", MS_SYNTH_KNOB_REAL, 0, 100, 0, offsetof(ms_synth_options, race_z), SYN_ALGO(MS_SYNTH_RACE), NULL,
	  "Z", "standard errors the confirmed gain must exceed the margin by (2; 0: the mean alone)" },
};

const syn_opts_part syn_race_part = { race_defaults, race_check, race_header, NULL, race_knobs,
				      sizeof race_knobs / sizeof *race_knobs };
