/* microsynth gdl bench: random playouts per second beside ggp-base's baseline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/gdl.h"
#include "microsynth/jrandom.h"
#include "cli.h"
#include "gdl_cli.h"

#define CMD "gdl"

/* One playout as the baseline defines it; returns its plies, -1 on failure. */
static long playout(ms_gdl_machine *m, const ms_gdl *g, ms_jrandom *rng, uint64_t *st, uint64_t *nx)
{
	int nr = ms_gdl_num_roles(g), joint[64];
	size_t words = ms_gdl_state_words(g);
	long plies = 0;
	ms_gdl_initial(g, st);
	for (;;) {
		if (ms_gdl_machine_set(m, st))
			return -1;
		if (ms_gdl_terminal(m)) {
			for (int r = 0; r < nr; r++) {
				int v;
				ms_gdl_goal(m, r, &v); /* an ill-defined goal is reported, not fatal here */
			}
			return plies;
		}
		for (int r = 0; r < nr; r++) {
			const int *mv;
			int n = ms_gdl_legal(m, r, &mv), k;
			if (n == 0 || ms_jrandom_next_int_bounded(rng, n, &k))
				return -1;
			joint[r] = mv[k];
		}
		if (ms_gdl_next(m, joint, nx))
			return -1;
		memcpy(st, nx, words * sizeof *st);
		plies++;
	}
}

/* The baseline row whose kif column ends the given path: steps/s and playouts/s medians. */
static int baseline_for(const char *file, const char *kif, double *steps, double *playouts, char *game, size_t gsize)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	int found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		char g[256], k[1024];
		double s, p, d1, d2, d3, d4;
		if (sscanf(line, "%255s %1023s %lf %lf %lf %lf %lf %lf", g, k, &s, &d1, &d2, &p, &d3, &d4) != 8)
			continue;
		size_t lk = strlen(k), lp = strlen(kif);
		if (lp >= lk && !strcmp(kif + lp - lk, k)) {
			*steps = s;
			*playouts = p;
			snprintf(game, gsize, "%s", g);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static void default_baseline(const char *kif, char *out, size_t size)
{
	const char *k = strstr(kif, "kif/");
	if (k)
		snprintf(out, size, "%.*sbaseline.tsv", (int)(k - kif), kif);
	else
		snprintf(out, size, "baseline.tsv");
}

/* Runs playouts for `secs` seconds after a warm-up; *steps/s and *playouts/s. */
static int measure(ms_gdl_machine *m, const ms_gdl *g, ms_jrandom *rng, double warm, double secs, double *sps,
		   double *pps, double *plies)
{
	size_t words = ms_gdl_state_words(g);
	uint64_t *st = calloc(words, sizeof *st), *nx = calloc(words, sizeof *nx);
	long steps = 0, n = 0;
	int rc = -1;
	if (!st || !nx)
		goto done;
	for (double t0 = cli_now(); cli_now() - t0 < warm;)
		if (playout(m, g, rng, st, nx) < 0)
			goto done;
	double t0 = cli_now(), el;
	do {
		long p = playout(m, g, rng, st, nx);
		if (p < 0)
			goto done;
		steps += p;
		n++;
	} while ((el = cli_now() - t0) < secs);
	*sps = (double)steps / el;
	*pps = (double)n / el;
	*plies = (double)steps / (double)n;
	rc = 0;
done:
	free(st);
	free(nx);
	return rc;
}

int gdl_bench(int argc, char **argv)
{
	double secs = 5, min_speedup = -1;
	long seed = 1;
	int fallback = 0, games = 0, rc = CLI_OK;
	const char *baseline = NULL;
	for (int i = 2; i < argc; i++) {
		long v;
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seconds", argv[++i], 1, 3600, &v))
				return CLI_USAGE;
			secs = (double)v;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647L, &seed))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--baseline") && i + 1 < argc) {
			baseline = argv[++i];
		} else if (!strcmp(argv[i], "--fallback")) {
			fallback = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		}
	}
	ms_ctx *ctx;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	for (int i = 2; i < argc && rc == CLI_OK; i++) {
		if (argv[i][0] == '-') {
			i += strcmp(argv[i], "--fallback") != 0;
			continue;
		}
		ms_gdl *g = gdl_cli_load(ctx, argv[i], fallback);
		ms_gdl_machine *m = NULL;
		if (!g || ms_gdl_machine_new(ctx, g, &m)) {
			ms_gdl_free(g);
			rc = CLI_USAGE;
			break;
		}
		ms_jrandom rng;
		ms_jrandom_init(&rng, seed);
		double sps, pps, plies, bs, bp;
		if (measure(m, g, &rng, 1.0, secs, &sps, &pps, &plies)) {
			fprintf(stderr, "microsynth gdl: %s: a playout failed: %s\n", argv[i], ms_ctx_last_error(ctx));
			rc = CLI_FAIL;
		} else {
			char bfile[4096], game[256];
			if (baseline)
				snprintf(bfile, sizeof bfile, "%s", baseline);
			else
				default_baseline(argv[i], bfile, sizeof bfile);
			printf("kif=%s grounded=%d steps_per_s=%.0f playouts_per_s=%.2f plies=%.1f", argv[i],
			       ms_gdl_is_grounded(g), sps, pps, plies);
			if (baseline_for(bfile, argv[i], &bs, &bp, game, sizeof game)) {
				double sp = sps / bs;
				printf(" game=%s ggp_steps_per_s=%.0f ggp_playouts_per_s=%.2f speedup=%.1f", game, bs, bp, sp);
				if (min_speedup < 0 || sp < min_speedup)
					min_speedup = sp;
			}
			printf("\n");
			games++;
		}
		ms_gdl_machine_free(m);
		ms_gdl_free(g);
	}
	ms_ctx_free(ctx);
	printf("games=%d min_speedup=%.1f\n", games, min_speedup < 0 ? 0.0 : min_speedup);
	return rc;
}
