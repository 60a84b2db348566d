/*
 * A search's mutations (ms_synth_options.mutation): the problem's subtree
 * regrowth, local edits (ms_dsl_mutate_local) filtered by the problem's
 * static check, or either at random; and the option family that owns the
 * setting.
 */
#include <stddef.h>
#include <string.h>

#include "synth_internal.h"
#include "core/opts.h"

/* Local edits drawn again while the problem's check refuses the mutant (then the last draw stands). */
#define MUT_TRIES 100
/* Most local edits in one mutation. */
#define MUT_MAX_EDITS 4

static int mutate_subtree(ms_synth *s, ms_dsl_prog *p)
{
	if (s->pb->mutate)
		return syn_problem_gave(s, s->pb->mutate(s->pb->user, p, &s->rng), p, "mutate");
	return ms_dsl_mutate(p, &s->rng, syn_gen_opts(s), 0, NULL);
}

/* The problem's check of p: 1 (also without a check), 0, or an error. */
static int passes(ms_synth *s, const ms_dsl_prog *p)
{
	int (*check)(void *, const ms_dsl_prog *) = syn_problem_check(s->pb);
	return check ? check(s->pb->user, p) : 1;
}

/* One to MUT_MAX_EDITS local edits (each further one with probability 1/2). */
static int edits(ms_synth *s, ms_dsl_prog *p)
{
	int rc, n = 0;
	do {
		if ((rc = ms_dsl_mutate_local(p, &s->rng, NULL, NULL)) < 0)
			return rc;
	} while (++n < MUT_MAX_EDITS && syn_below(s, 2) == 1);
	return 0;
}

static int mutate_local(ms_synth *s, ms_dsl_prog *p)
{
	int rc = passes(s, p);
	if (rc < 0)
		return rc;
	if (rc == 0) /* an ill parent: no check can keep its mutants well */
		return edits(s, p);
	if (!s->mut_parent && (rc = syn_prog_new(s, &s->mut_parent)) < 0)
		return rc;
	if ((rc = ms_dsl_prog_copy(s->mut_parent, p)) < 0)
		return rc;
	for (int t = 0; t < MUT_TRIES; t++) {
		if ((t > 0 && (rc = ms_dsl_prog_copy(p, s->mut_parent)) < 0) || (rc = edits(s, p)) < 0 ||
		    (rc = passes(s, p)) != 0)
			return rc < 0 ? rc : 0;
	}
	return 0;
}

int syn_mutate(ms_synth *s, ms_dsl_prog *p)
{
	int local = s->o.mutation == MS_SYNTH_MUTATION_LOCAL ||
		    (s->o.mutation == MS_SYNTH_MUTATION_MIXED && syn_below(s, 2) == 1);
	if (!local)
		return mutate_subtree(s, p);
	int rc = mutate_local(s, p);
	/* A program no edit applies to (a lone leaf): the subtree mutation still moves it. */
	if (rc == MS_ENOTFOUND)
		return mutate_subtree(s, p);
	return rc;
}

/* ---- the options' versions, and the mutation family ---- */

size_t syn_options_size(unsigned int version)
{
	/* version 1 was laid out as version 2 (synth.h) */
	static const size_t ends[] = { offsetof(ms_synth_options, race_blocks), offsetof(ms_synth_options, race_blocks),
				       offsetof(ms_synth_options, mutation) };
	return ms_opts_size(version, ends, sizeof ends / sizeof *ends, sizeof(ms_synth_options));
}

static void mutation_defaults(ms_synth_options *o)
{
	o->mutation = MS_SYNTH_MUTATION_SUBTREE;
}

static int mutation_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	(void)pb;
	if (o->mutation < MS_SYNTH_MUTATION_SUBTREE || o->mutation > MS_SYNTH_MUTATION_MIXED)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: mutation %d is not subtree (0), local (1) or mixed (2)",
				    o->mutation);
	return 0;
}

/* A line only when not the default, so checkpoints made before the option still resume. */
static int mutation_header(ms_synth *s, ms_buf *b)
{
	static const char *const names[] = { "subtree", "local", "mixed" };
	if (s->o.mutation == MS_SYNTH_MUTATION_SUBTREE)
		return 0;
	return ms_buf_printf(b, "mutation %s\n", names[s->o.mutation]);
}

static const ms_synth_knob mutation_knobs[] = {
	{ "--mutation", MS_SYNTH_KNOB_CHOICE, 0, 0, 0, offsetof(ms_synth_options, mutation),
	  SYN_ALGO(MS_SYNTH_SA) | SYN_ALGO(MS_SYNTH_SKETCH_SA) | SYN_ALGO(MS_SYNTH_HSS) | SYN_ALGO(MS_SYNTH_RACE),
	  "subtree|local|mixed", "subtree|local|mixed",
	  "how mutations change a program: a regrown subtree, local edits (one operator, leaf or operand), or "
	  "either at random (subtree)" },
};

const syn_opts_part syn_mutation_part = { mutation_defaults, mutation_check, mutation_header, NULL, mutation_knobs,
					  sizeof mutation_knobs / sizeof *mutation_knobs };
