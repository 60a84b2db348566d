/*
 * microsynth gdl features: StatGUCT's evaluation function of a role (or of
 * every role), built from random play on the rules and printed as a linear
 * program in the slides' form (issue 26). The statistics options are shared
 * with `gdl play` (gdl_common.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/gdl.h"
#include "cli.h"
#include "gdl_common.h"

#define CMD "gdl"

/* Role r's function, one term a line: "  +0.1300 * (cell ? ? bk){int}", then the constant. */
static void print_function(const ms_gdl *g, const ms_gdl_eval *e, int r)
{
	char text[512];
	printf("eval(%s) =\n", ms_gdl_role_name(g, r));
	for (int i = 0; i < ms_gdl_eval_terms(e, r); i++) {
		ms_gdl_eval_term_text(e, r, i, text, sizeof text);
		printf("  %+.4f * %s{int}\n", ms_gdl_eval_weight(e, r, i), text);
	}
	printf("  %+.4f * 1\n", ms_gdl_eval_constant(e, r));
}

/* SGUCT offline on the function: a GUCT search of `sims` simulations, `gens` generations; the MSEs on stdout. */
static int sguct(ms_ctx *ctx, const ms_gdl *g, ms_gdl_eval *e, long sims, long gens, uint64_t seed)
{
	ms_gdl_uct_options uo;
	ms_gdl_sguct_options so;
	ms_gdl_sguct_report rep;
	ms_gdl_uct_options_init(&uo, MS_GDL_UCT_OPTIONS_VERSION);
	ms_gdl_sguct_options_init(&so, MS_GDL_SGUCT_OPTIONS_VERSION);
	uo.simulations = sims, uo.seed = seed, so.seed = seed, so.generations = (int)gens;
	int rc = ms_gdl_sguct_offline(ctx, g, e, &uo, &so, &rep);
	if (rc == MS_OK && rep.samples > 0)
		printf("# sguct: sims=%ld generations=%ld samples=%ld mse_before=%.2f mse_after=%.2f\n", sims, gens,
		       rep.samples, rep.mse_before / (double)rep.samples, rep.mse_after / (double)rep.samples);
	else if (rc == MS_OK)
		printf("# sguct: sims=%ld generations=%ld samples=0 (nothing learnt)\n", sims, gens);
	return rc;
}

int cmd_gdl_features(int argc, char **argv)
{
	ms_gdl_stat_options so;
	ms_gdl_stat_options_init(&so, MS_GDL_STAT_OPTIONS_VERSION);
	const char *kif = NULL, *role = NULL;
	long seed = 1, sims = 0, gens = 5;
	gdl_load_opts lo = { .choose_seconds = MS_GDL_CHOOSE_SECONDS };
	for (int i = 2; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		int r = gdl_stat_option(&so, argv[i], val);
		if (!r)
			r = gdl_load_option(&lo, argv[i], val);
		if (r < 0)
			return CLI_USAGE;
		if (r > 0) {
			i++;
		} else if (!strcmp(argv[i], "--role") || !strcmp(argv[i], "--seed") || !strcmp(argv[i], "--sguct-sims") ||
			   !strcmp(argv[i], "--generations")) {
			if (!val)
				return cli_usage_error(CMD, "%s needs a value", argv[i]);
			long *dst = !strcmp(argv[i], "--seed") ? &seed : !strcmp(argv[i], "--sguct-sims") ? &sims : &gens;
			if (!strcmp(argv[i], "--role"))
				role = val;
			else if (cli_parse_int(CMD, argv[i], val, dst == &gens, 2147483647L, dst))
				return CLI_USAGE;
			i++;
		} else if (argv[i][0] == '-') {
			return cli_usage_error(CMD, "features: unknown option '%s'", argv[i]);
		} else if (kif) {
			return cli_usage_error(CMD, "features: one rule file only ('%s' and '%s')", kif, argv[i]);
		} else {
			kif = argv[i];
		}
	}
	if (!kif)
		return cli_usage_error(CMD, "features needs a rule file (KIF)");
	so.seed = (uint64_t)seed;
	ms_ctx *ctx;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	ms_gdl *g = gdl_load_rules(ctx, kif, &lo);
	ms_gdl_eval *e = NULL;
	int rc = CLI_OK, ri = -1;
	if (!g) {
		rc = CLI_USAGE;
	} else if (role && (ri = ms_gdl_role_index(g, role)) < 0) {
		rc = cli_usage_error(CMD, "features: %s has no role '%s'", kif, role);
	} else if (ms_gdl_stat_build(ctx, &e, g, &so)) {
		fprintf(stderr, "microsynth gdl: features: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
	} else if (sims > 0 && sguct(ctx, g, e, sims, gens, so.seed) < 0) {
		fprintf(stderr, "microsynth gdl: features: sguct: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
	} else {
		printf("# %s: %ld candidate features, %d sequences, seed %ld\n", kif, ms_gdl_eval_candidates(e),
		       so.sequences, seed);
		for (int r = 0; r < ms_gdl_num_roles(g); r++)
			if (ri < 0 || r == ri)
				print_function(g, e, r);
	}
	ms_gdl_eval_free(e);
	ms_gdl_free(g);
	ms_ctx_free(ctx);
	return rc;
}
