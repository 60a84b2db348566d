/*
 * The algorithm table: each search algorithm is one row (its name, whether
 * it needs a cloning score, its run function, its derived settings), and
 * the option families the algorithms' files own. Adding an algorithm is one
 * file with its run function and options and one row here; nothing else
 * dispatches on algorithms. The families' knobs (their settings by name)
 * are read and checked here, so every front end sets them alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_internal.h"

static const syn_algo table[] = {
	{ MS_SYNTH_SA, "sa", 0, syn_run_sa, NULL },
	{ MS_SYNTH_UCT, "uct", 0, syn_run_uct, NULL },
	{ MS_SYNTH_SKETCH_SA, "sketch-sa", 1, syn_run_sketch_sa, syn_setup_sketch_sa },
	{ MS_SYNTH_SKETCH_UCT, "sketch-uct", 1, syn_run_sketch_uct, syn_setup_sketch_uct },
	{ MS_SYNTH_RANDOM, "random", 0, syn_run_random, NULL },
	{ MS_SYNTH_HSS, "hss", 0, syn_run_hss, NULL },
	{ MS_SYNTH_RACE, "race", 0, syn_run_race, NULL },
};

/* The option families, in the order of their checks and header lines. */
static const syn_opts_part *const parts[] = { &syn_sa_part,  &syn_uct_part,  &syn_sketch_part,
					      &syn_hss_part, &syn_race_part, &syn_mutation_part };
#define N_PARTS (sizeof parts / sizeof *parts)

void syn_opts_defaults(ms_synth_options *o)
{
	o->algo = table[0].id;
	for (size_t i = 0; i < N_PARTS; i++)
		parts[i]->defaults(o);
}

int syn_opts_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
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

/* ---- knobs ---- */

const ms_synth_knob *ms_synth_knob_at(size_t i)
{
	for (size_t p = 0; p < N_PARTS; i -= parts[p++]->n_knobs)
		if (i < parts[p]->n_knobs)
			return &parts[p]->knobs[i];
	return NULL;
}

const ms_synth_knob *ms_synth_knob_find(const char *name)
{
	const ms_synth_knob *k;
	for (size_t i = 0; name && (k = ms_synth_knob_at(i)); i++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* value's index among k's '|'-separated choices, or -1. */
static int knob_choice(const ms_synth_knob *k, const char *value)
{
	size_t n = strlen(value);
	int i = 0;
	for (const char *c = k->choices; *c; i++) {
		size_t len = strcspn(c, "|");
		if (len == n && !strncmp(c, value, n))
			return i;
		c += len + (c[len] == '|');
	}
	return -1;
}

/* The refusal of a CHOICE value: "--restart is code, best or pass, not 'x'". */
static int knob_choice_error(ms_ctx *ctx, const ms_synth_knob *k, const char *value)
{
	char list[256];
	size_t used = 0, n = 1;
	for (const char *c = k->choices; *c; c++)
		n += *c == '|';
	list[0] = 0;
	const char *c = k->choices;
	for (size_t i = 0; i < n && used < sizeof list; i++) {
		size_t len = strcspn(c, "|");
		const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%.*s", sep, (int)len, c);
		c += len + (c[len] == '|');
	}
	return ms_ctx_error(ctx, MS_EINVAL, "%s is %s, not '%s'", k->name, list, value);
}

int ms_synth_options_set(ms_ctx *ctx, ms_synth_options *o, const char *name, const char *value)
{
	const ms_synth_knob *k = ms_synth_knob_find(name);
	char *at = (char *)o, *end;

	if (!k)
		return ms_ctx_error(ctx, MS_EINVAL, "unknown search option '%s'", name ? name : "(null)");
	if (!value || !*value)
		return ms_ctx_error(ctx, MS_EINVAL, "%s needs a value", k->name);
	if (o->version >= 1 && k->offset >= syn_options_size(o->version))
		return ms_ctx_error(ctx, MS_EINVAL, "%s needs search options of version %d (these are version %d)", k->name,
				    MS_SYNTH_OPTIONS_VERSION, o->version);
	at += k->offset;
	errno = 0;
	if (k->type == MS_SYNTH_KNOB_STRING) {
		memcpy(at, &value, sizeof value);
	} else if (k->type == MS_SYNTH_KNOB_CHOICE) {
		int v = knob_choice(k, value);
		if (v < 0)
			return knob_choice_error(ctx, k, value);
		memcpy(at, &v, sizeof v);
	} else if (k->type == MS_SYNTH_KNOB_REAL) {
		double v = strtod(value, &end);
		if (end == value || *end || errno || !(k->open_lo ? v > k->lo : v >= k->lo) || !(v <= k->hi))
			return ms_ctx_error(ctx, MS_EINVAL, "%s: '%s' is not a number in %c%g, %g]", k->name, value,
					    k->open_lo ? '(' : '[', k->lo, k->hi);
		memcpy(at, &v, sizeof v);
	} else {
		long long v = strtoll(value, &end, 10);
		if (*end || errno || v < (long long)k->lo || v > (long long)k->hi)
			return ms_ctx_error(ctx, MS_EINVAL, "%s: '%s' is not an integer in [%lld, %lld]", k->name,
					    value, (long long)k->lo, (long long)k->hi);
		if (k->type == MS_SYNTH_KNOB_LONG) {
			memcpy(at, &v, sizeof v);
		} else {
			int iv = (int)v;
			memcpy(at, &iv, sizeof iv);
		}
	}
	return 0;
}

void ms_synth_knob_algo_list(const ms_synth_knob *k, char *out, size_t size)
{
	size_t used = 0;

	if (size)
		out[0] = 0;
	for (size_t i = 0; i < sizeof table / sizeof *table && used < size; i++)
		if (k->algos & SYN_ALGO(table[i].id))
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", table[i].name);
}

int ms_synth_knob_applies(ms_ctx *ctx, const char *name, int algo)
{
	const ms_synth_knob *k = ms_synth_knob_find(name);
	char list[128];

	if (!k)
		return ms_ctx_error(ctx, MS_ENOTFOUND, "unknown search option '%s'", name ? name : "(null)");
	if (algo >= 0 && algo < 32 && (k->algos & SYN_ALGO(algo)))
		return 0;
	ms_synth_knob_algo_list(k, list, sizeof list);
	return ms_ctx_error(ctx, MS_EINVAL, "%s applies to %s only", k->name, list);
}
