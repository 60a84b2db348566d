/*
 * The algorithm table: each search algorithm is one row (its name, whether
 * it needs a cloning score, its run function). Adding an algorithm is one
 * file with its run function and one row here; nothing else dispatches on
 * algorithms.
 */
#include <string.h>

#include "synth_internal.h"

static const syn_algo table[] = {
	{ MS_SYNTH_SA, "sa", 0, syn_run_sa },
	{ MS_SYNTH_UCT, "uct", 0, syn_run_uct },
	{ MS_SYNTH_SKETCH_SA, "sketch-sa", 1, syn_run_sketch_sa },
	{ MS_SYNTH_SKETCH_UCT, "sketch-uct", 1, syn_run_sketch_uct },
	{ MS_SYNTH_RANDOM, "random", 0, syn_run_random },
	{ MS_SYNTH_HSS, "hss", 0, syn_run_hss },
};

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
