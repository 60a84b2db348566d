/*
 * Helpers shared by the gdl commands: how rules load; the options of
 * StatGUCT's statistics, read by `gdl features`, and of the UCT, GUCT and
 * SGUCT players, read by `gdl play` and `gdl serve`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/gdl.h"
#include "cli.h"
#include "gdl_common.h"

#define CMD "gdl"

int gdl_load_option(gdl_load_opts *l, const char *opt, const char *val)
{
	int ground = !strcmp(opt, "--ground-seconds");
	if (!strcmp(opt, "--goal-directed")) {
		static const char *const modes[] = { "never", "auto", "always" };
		for (int i = 0; val && i < 3; i++)
			if (!strcmp(val, modes[i])) {
				l->goal_directed = i - 1;
				return 1;
			}
		return cli_usage_error(CMD, "--goal-directed: '%s' is not auto, always or never", val ? val : ""), -1;
	}
	if (!ground && strcmp(opt, "--choose-seconds"))
		return 0;
	return cli_parse_real(CMD, opt, val, 0, 86400, 0, ground ? &l->ground_seconds : &l->choose_seconds) ? -1 : 1;
}

ms_gdl *gdl_load_rules(ms_ctx *ctx, const char *path, const gdl_load_opts *l)
{
	ms_gdl_options o;
	ms_gdl_options_init(&o, MS_GDL_OPTIONS_VERSION);
	o.force_fallback = l->fallback;
	o.ground_seconds = l->ground_seconds;
	o.choose_seconds = l->choose_seconds;
	o.goal_directed = l->goal_directed;
	ms_gdl *g = NULL;
	if (ms_gdl_load(ctx, &g, path, &o)) {
		fprintf(stderr, "microsynth gdl: %s\n", ms_ctx_last_error(ctx));
		return NULL;
	}
	return g;
}

void gdl_representation_text(const ms_gdl *g, char *out, size_t size)
{
	static const char *const why[] = { "grounded", "forced", "size_bound", "time_bound", "faster", "large_analysis" };
	double net, fo, secs;
	int rep = ms_gdl_representation(g, &net, &fo, &secs);
	int n = snprintf(out, size, " representation=%s why=%s ground_s=%.3f",
			 ms_gdl_is_grounded(g) ? "network" : "fallback", rep >= 0 && rep <= 5 ? why[rep] : "?", secs);
	if ((net > 0 || fo > 0) && n >= 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n, " network_steps_per_s=%.0f fallback_steps_per_s=%.0f", net, fo);
}

int gdl_stat_option(ms_gdl_stat_options *o, const char *opt, const char *val)
{
	static const struct {
		const char *name;
		long lo, hi;
	} opts[] = { { "--sequences", 3, 100000 }, { "--positions", 1, 1000 },	 { "--gap", 1, 1000 },
		     { "--playouts", 1, 100000 },   { "--keep", 0, 256 },	 { "--differences", 0, 1 },
		     { "--max-features", 1, 10000000 }, { "--stability-k", 0, 1000000 } };
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		if (strcmp(opt, opts[i].name))
			continue;
		long v;
		if (!val)
			return cli_usage_error(CMD, "%s needs a value", opt), -1;
		if (cli_parse_int(CMD, opt, val, opts[i].lo, opts[i].hi, &v))
			return -1;
		int *dst[] = { &o->sequences, &o->positions, &o->gap, &o->playouts, &o->keep, &o->differences };
		if (i < sizeof dst / sizeof *dst)
			*dst[i] = (int)v;
		else if (!strcmp(opt, "--max-features"))
			o->max_features = v;
		else
			o->stability_k = (double)v;
		return 1;
	}
	return 0;
}

void gdl_agent_opts_default(gdl_agent_opts *a)
{
	ms_gdl_player_options_init(a, MS_GDL_PLAYER_OPTIONS_VERSION);
}

static int parse_double(const char *opt, const char *val, double min, double *out)
{
	char *end;
	double v = strtod(val, &end);
	if (end == val || *end || !isfinite(v) || v < min)
		return cli_usage_error(CMD, "%s: '%s' is not a number >= %g", opt, val, min);
	*out = v;
	return 0;
}

/* GUCT's and SGUCT's options; returns 1 if handled, -1 (reported) if bad, 0 if not one of them. */
static int parse_guided(gdl_agent_opts *a, const char *opt, const char *val)
{
	static const char *const probs[] = { "--cutoff", "--replace", "--learning-rate" };
	static const char *const ints[] = { "--order", "--prior", "--sguct-sims", "--generations", "--epochs", "--online" };
	static const long hi[] = { 1, 1000000, 100000000, 1000, 100000, 1000 };
	int r = gdl_stat_option(&a->so, opt, val);
	if (r)
		return r;
	for (size_t i = 0; i < sizeof probs / sizeof *probs; i++)
		if (!strcmp(opt, probs[i])) {
			double v, *dst[] = { &a->uo.cutoff, &a->uo.replace, &a->sgo.learning_rate };
			if (!val)
				return cli_usage_error(CMD, "%s needs a value", opt), -1;
			if (parse_double(opt, val, i == 2 ? 1e-9 : 0.0, &v))
				return -1;
			if (i < 2 && v > 1)
				return cli_usage_error(CMD, "%s: '%s' is not a probability", opt, val), -1;
			*dst[i] = v;
			return 1;
		}
	for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
		if (!strcmp(opt, ints[i])) {
			long v;
			if (!val)
				return cli_usage_error(CMD, "%s needs a value", opt), -1;
			if (cli_parse_int(CMD, opt, val, i == 3 ? 1 : 0, hi[i], &v))
				return -1;
			int *dst[] = { &a->uo.order, &a->uo.prior, NULL, &a->sgo.generations, &a->sgo.epochs, &a->online };
			if (dst[i])
				*dst[i] = (int)v;
			else
				a->sguct_sims = v;
			return 1;
		}
	return 0;
}

int gdl_agent_option(gdl_agent_opts *a, const char *opt, const char *val)
{
	static const char *const ints[] = { "--keep", "--history", "--transpositions", "--playout-limit" };
	static const long hi[] = { 1, 1, 1L << 28, 2147483647L };
	for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
		if (!strcmp(opt, ints[i])) {
			long v;
			if (!val)
				return cli_usage_error(CMD, "%s needs a value", opt), -1;
			if (cli_parse_int(CMD, opt, val, 0, hi[i], &v))
				return -1;
			if (i == 0)
				a->uo.keep_tree = (int)v;
			else if (i == 1)
				a->uo.history = (int)v;
			else if (i == 2)
				a->uo.transpositions = v;
			else
				a->uo.playout_limit = (int)v;
			return 1;
		}
	if (!strcmp(opt, "--c") || !strcmp(opt, "--tau")) {
		if (!val)
			return cli_usage_error(CMD, "%s needs a value", opt), -1;
		int c = !strcmp(opt, "--c");
		return parse_double(opt, val, c ? 0.0 : 1e-6, c ? &a->uo.c : &a->uo.history_tau) ? -1 : 1;
	}
	return parse_guided(a, opt, val);
}
