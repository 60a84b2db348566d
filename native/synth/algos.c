/*
 * The algorithm table: each search algorithm is one row (its name, whether
 * it needs a cloning score, its run function, its derived settings), and
 * the option families the algorithms' files own. Adding an algorithm is one
 * file with its run function and options and one row here; nothing else
 * dispatches on algorithms.
 */
#include <string.h>

#include "synth_internal.h"

static const syn_algo table[] = {
	{ MS_SYNTH_SA, "sa", 0, syn_run_sa, NULL },
	{ MS_SYNTH_UCT, "uct", 0, syn_run_uct, NULL },
	{ MS_SYNTH_SKETCH_SA, "sketch-sa", 1, syn_run_sketch_sa, syn_setup_sketch_sa },
	{ MS_SYNTH_SKETCH_UCT, "sketch-uct", 1, syn_run_sketch_uct, syn_setup_sketch_uct },
	{ MS_SYNTH_RANDOM, "random", 0, syn_run_random, NULL },
	{ MS_SYNTH_HSS, "hss", 0, syn_run_hss, NULL },
};

/* The option families, in the order of their checks and header lines. */
static const syn_opts_part *const parts[] = { &syn_sa_part, &syn_uct_part, &syn_sketch_part, &syn_hss_part };
#define N_PARTS (sizeof parts / sizeof *parts)

void syn_opts_defaults(ms_synth_opts *o)
{
	o->algo = table[0].id;
	for (size_t i = 0; i < N_PARTS; i++)
		parts[i]->defaults(o);
}

int syn_opts_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_opts *o)
{
	int rc;
	for (size_t i = 0; i < N_PARTS; i++)
		if (parts[i]->check && (rc = parts[i]->check(ctx, pb, o)) < 0)
			return rc;
	return 0;
}

int syn_opts_header(ms_synth *s, ms_buf *b, int trailer)
{
	int rc;
	for (size_t i = 0; i < N_PARTS; i++) {
		int (*f)(ms_synth *, ms_buf *) = trailer ? parts[i]->trailer : parts[i]->header;
		if (f && (rc = f(s, b)) < 0)
			return rc;
	}
	return 0;
}

const syn_algo *syn_algo_get(int algo)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (table[i].id == algo)
			return &table[i];
	return NULL;
}

const char *ms_synth_algo_name(int algo)
{
	const syn_algo *a = syn_algo_get(algo);
	return a ? a->name : NULL;
}

int ms_synth_algo_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof table / sizeof *table; i++)
		if (strcmp(name, table[i].name) == 0)
			return table[i].id;
	return MS_ENOTFOUND;
}

int ms_synth_algo_count(void)
{
	return (int)(sizeof table / sizeof *table);
}

const char *ms_synth_algo_name_at(int i)
{
	return i >= 0 && i < ms_synth_algo_count() ? table[i].name : NULL;
}
