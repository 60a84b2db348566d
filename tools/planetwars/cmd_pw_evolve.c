/*
 * microsynth planetwars evolve: the seed report's GA over the forecasting
 * bot's parameters, a checkpoint per generation (games/planetwars/
 * ga_checkpoint.c) so a run resumes exactly, and a CSV line per generation.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/planetwars.h"
#include "cli.h"
#include "synth_front.h"
#include "pw_common.h"

typedef struct evolve_ud {
	ms_ctx *ctx;
	const char *out;
	const ms_pw_ga_options *o;
	double t0, budget;
	FILE *csv;
	int generations_done;
	long games;
	double last_vs;
} evolve_ud;

static int write_params(FILE *f, const double *p)
{
	for (int i = 0; i < MS_PW_FORECAST_PARAMS; i++)
		fprintf(f, "%.17g%s", p[i], i % 4 == 3 ? "\n" : " ");
	return 0;
}

/* DIR/gen_NNNN.txt: generation gen's checkpoint. */
static void checkpoint_path(char *path, size_t size, const char *dir, int gen)
{
	snprintf(path, size, "%s/gen_%04d.txt", dir, gen);
}

static int on_generation(void *ud_, const ms_pw_ga_generation *g)
{
	evolve_ud *u = ud_;
	char path[4096];
	checkpoint_path(path, sizeof path, u->out, g->generation + 1);
	if (ms_pw_ga_checkpoint_write(u->ctx, path, g->generation + 1, u->o->population, g->population, g->rng)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(u->ctx));
		return MS_EIO;
	}
	snprintf(path, sizeof path, "%s/best.txt", u->out);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "# best of generation %d: tournament win rate %.4f, vs original %.4f\n", g->generation,
			g->best_rate, g->vs_original);
		write_params(f, g->best_params);
		fclose(f);
	}
	fprintf(u->csv, "%d,%ld,%d,%.6f,%.6f,%.6f,%.3f\n", g->generation, g->games, g->best, g->best_rate,
		g->vs_original, g->diversity, g->seconds);
	fflush(u->csv);
	u->generations_done++;
	u->games += g->games;
	u->last_vs = g->vs_original;
	double el = cli_now() - u->t0;
	fprintf(stderr, "gen %d: best=%d rate=%.3f vs_original=%.3f diversity=%.3f %.1fs (total %.0fs)\n",
		g->generation, g->best, g->best_rate, g->vs_original, g->diversity, g->seconds, el);
	if (u->budget > 0 && el + g->seconds > u->budget)
		return 1; /* the next generation would not fit */
	return 0;
}

/* --time without --generations: a count no run reaches, so the clock ends it. */
#define UNTIL_TIME_RUNS_OUT 1000000

/* The options of 'planetwars evolve'. */
typedef struct evolve_opts {
	ms_pw_ga_options o;
	const char *out, *maps;
	long generations; /* -1: until --time runs out */
	double budget;
} evolve_opts;

/* One option of those with a real value; CLI_OK or CLI_USAGE. */
static int evolve_real(const char *a, const char *val, ms_pw_ga_options *o)
{
	double d;
	if (cli_parse_real(CMD " evolve", a, val, -1e9, 1e9, 0, &d))
		return CLI_USAGE;
	if (!strcmp(a, "--p-champion"))
		o->p_champion = d;
	else if (!strcmp(a, "--mutation"))
		o->mutation = d;
	else
		o->init_range = d;
	return CLI_OK;
}

/* One option of those with an integer value; CLI_OK or CLI_USAGE. */
static int evolve_int(const char *a, const char *val, evolve_opts *eo)
{
	static const char *const names[] = { "--generations", "--seed", "--threads", "--population", "--players",
					     "--maps-per-pair", "--champions", "--crossovers", "--eval-maps",
					     "--max-turns" };
	ms_pw_ga_options *o = &eo->o;
	long v;
	int k = -1;
	for (int j = 0; j < 10; j++)
		if (!strcmp(a, names[j]))
			k = j;
	if (k < 0)
		return cli_usage_error(CMD, "evolve: unknown option '%s'", a);
	if (cli_parse_int(CMD, a, val, 0, 2147483647L, &v))
		return CLI_USAGE;
	switch (k) {
	case 0: eo->generations = v; break;
	case 1: o->seed = (uint64_t)v; break;
	case 2: o->threads = (int)v; break;
	case 3: o->population = (int)v; break;
	case 4: o->players = (int)v; break;
	case 5: o->maps_per_pair = (int)v; break;
	case 6: o->champions = (int)v; break;
	case 7: o->crossovers = (int)v; break;
	case 8: o->eval_maps = (int)v; break;
	default: o->max_turns = (int)v; break;
	}
	return CLI_OK;
}

/* CLI_OK, or the exit code after a usage error. */
static int evolve_args(int argc, char **argv, evolve_opts *eo)
{
	*eo = (evolve_opts){ .generations = -1 };
	ms_pw_ga_options_init(&eo->o, MS_PW_GA_OPTIONS_VERSION);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = CLI_OK;
		if (!val)
			return cli_usage_error(CMD, "evolve: '%s' needs a value or is unknown", a);
		i++;
		if (!strcmp(a, "--out"))
			eo->out = val;
		else if (!strcmp(a, "--maps"))
			eo->maps = val;
		else if (!strcmp(a, "--time"))
			rc = synth_parse_duration(val, &eo->budget) ? CLI_USAGE : CLI_OK;
		else if (!strcmp(a, "--p-champion") || !strcmp(a, "--mutation") || !strcmp(a, "--init-range"))
			rc = evolve_real(a, val, &eo->o);
		else
			rc = evolve_int(a, val, eo);
		if (rc)
			return rc;
	}
	if (!eo->out)
		return cli_usage_error(CMD, "evolve needs --out DIR");
	if (eo->generations < 0 && eo->budget <= 0)
		return cli_usage_error(CMD, "evolve needs --generations N or --time T");
	if (eo->generations < 0)
		eo->generations = UNTIL_TIME_RUNS_OUT;
	return CLI_OK;
}

/* mkdir -p out (errors show when the first checkpoint is written). */
static void evolve_mkdirs(const char *out)
{
	char mk[4096];
	snprintf(mk, sizeof mk, "%s", out);
	for (char *c = mk + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(mk, 0777);
			*c = '/';
		}
	mkdir(mk, 0777);
}

/* The population to start from: the last checkpoint in out, else a fresh one (checkpoint 0); a CLI code. */
static int evolve_start(ms_ctx *ctx, const evolve_opts *eo, double *pop, uint64_t *rng, int *first)
{
	const char *out = eo->out;
	DIR *d = opendir(out);
	int last = -1;
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			int g;
			char tail[8];
			if (sscanf(e->d_name, "gen_%d.tx%1s", &g, tail) == 2 && g > last)
				last = g;
		}
		closedir(d);
	}
	if (last >= 0) {
		char path[4096];
		checkpoint_path(path, sizeof path, out, last);
		if (ms_pw_ga_checkpoint_load(ctx, path, eo->o.population, first, pop, rng)) {
			fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
			return CLI_USAGE;
		}
		fprintf(stderr, "resuming from %s (generation %d)\n", path, *first);
		return CLI_OK;
	}
	ms_pw_ga_seed(rng, eo->o.seed);
	ms_pw_ga_init_population(&eo->o, rng, pop);
	char path[4096];
	checkpoint_path(path, sizeof path, out, 0);
	if (ms_pw_ga_checkpoint_write(ctx, path, 0, eo->o.population, pop, rng)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Runs the GA from generation `first`, appending to evolve.csv, and prints the summary; a CLI code. */
static int evolve_run(ms_ctx *ctx, const evolve_opts *eo, ms_pw_state **mv, int nm, double *pop, uint64_t *rng,
		      int first)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/evolve.csv", eo->out);
	int fresh = !cli_is_file(path);
	evolve_ud u = { .ctx = ctx, .out = eo->out, .o = &eo->o, .t0 = cli_now(), .budget = eo->budget };
	u.csv = fopen(path, "a");
	if (!u.csv) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, path);
		return CLI_USAGE;
	}
	if (fresh)
		fprintf(u.csv, "generation,games,best,best_rate,vs_original,diversity,seconds\n");
	long generations = eo->generations;
	int todo = (int)(generations > first ? generations - first : 0);
	if (eo->budget > 0 && generations == UNTIL_TIME_RUNS_OUT)
		todo = UNTIL_TIME_RUNS_OUT;
	int rc = ms_pw_ga_run(ctx, &eo->o, (const ms_pw_state *const *)mv, nm, pop, rng, first, todo, on_generation,
			      &u);
	fclose(u.csv);
	if (rc < 0) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		return rc == MS_EINVAL ? CLI_USAGE : CLI_FAIL;
	}
	printf("generations=%d last_generation=%d games=%ld seconds=%.1f vs_original=%.4f best=%s/best.txt\n",
	       u.generations_done, first + u.generations_done - 1, u.games, cli_now() - u.t0, u.last_vs, eo->out);
	return CLI_OK;
}

int cmd_pw_evolve(int argc, char **argv)
{
	evolve_opts eo;
	int ret = evolve_args(argc, argv, &eo);
	if (ret)
		return ret;
	char mbuf[4096];
	const char *maps = pw_maps_default(eo.maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "evolve: no maps (--maps DIR or MS_SHARED_DIR)");
	ms_ctx *ctx;
	ms_pw_state **mv;
	int nm;
	if ((ret = pw_open_maps(CMD, maps, &ctx, &mv, &nm)))
		return ret;
	evolve_mkdirs(eo.out);
	double *pop = malloc((size_t)eo.o.population * MS_PW_FORECAST_PARAMS * sizeof(double) + 1);
	uint64_t rng[4] = { 0, 0, 0, 0 };
	int first = 0;
	if (!pop)
		ret = pw_out_of_memory("the population");
	else if (!(ret = evolve_start(ctx, &eo, pop, rng, &first)))
		ret = evolve_run(ctx, &eo, mv, nm, pop, rng, first);
	free(pop);
	pw_free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}
