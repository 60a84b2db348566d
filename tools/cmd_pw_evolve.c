/*
 * microsynth planetwars evolve, tournament, bench and plot: the seed
 * report's GA, the evolved-vs-original tournament, the official engine
 * side by side, and the GA's CSV as an SVG.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "cli.h"
#include "kit/proc.h"
#include "synth_front.h"

#include "pw_common.h"
#include "svg.h"


/* ---- GA, tournament, bench ---- */

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
	ms_pw_ga_defaults(&eo->o);
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
	if (eo->budget > 0 && generations == 1000000)
		todo = 1000000;
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

int cmd_pw_tournament(int argc, char **argv)
{
	pw_match_opts o;
	if (pw_parse_match_opts(argc, argv, "tournament", 0, &o))
		return CLI_USAGE;
	const char *a = o.a, *b = o.b, *maps = o.maps;
	long max_turns = o.max_turns, seed = o.seed;
	if (!a || !b)
		return cli_usage_error(CMD, "tournament needs --p1 and --p2");
	char mbuf[4096];
	maps = pw_maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "tournament: no maps (--maps DIR or MS_SHARED_DIR)");
	ms_ctx *ctx;
	ms_pw_state **mv;
	int nm, ret = pw_open_maps(CMD, maps, &ctx, &mv, &nm);
	if (ret)
		return ret;
	int wdl[2][3] = { { 0 } };
	double t0 = cli_now();
	for (int m = 0; m < nm && ret == CLI_OK; m++)
		for (int seat = 0; seat < 2; seat++) {
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			if (pw_make_bot(ctx, a, (uint64_t)seed + 2 * m, &x) || pw_make_bot(ctx, b, (uint64_t)seed + 2 * m + 1, &y)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ms_pw_bot_release(ctx, &x);
				ret = CLI_USAGE;
				break;
			}
			int rc = seat == 0 ? ms_pw_play(ctx, mv[m], &x, &y, (int)max_turns, NULL, NULL, &r)
					   : ms_pw_play(ctx, mv[m], &y, &x, (int)max_turns, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			if (rc) {
				fprintf(stderr, "microsynth %s: map %d: %s\n", CMD, m + 1, ms_ctx_last_error(ctx));
				ret = CLI_FAIL;
				break;
			}
			int mine = seat == 0 ? 1 : 2;
			wdl[seat][r.winner == mine ? 0 : r.winner == 0 ? 1 : 2]++;
		}
	if (ret == CLI_OK)
		printf("seat1=%d-%d-%d seat2=%d-%d-%d seconds=%.2f wins=%d draws=%d losses=%d games=%d\n", wdl[0][0],
		       wdl[0][1], wdl[0][2], wdl[1][0], wdl[1][1], wdl[1][2], cli_now() - t0, wdl[0][0] + wdl[1][0],
		       wdl[0][1] + wdl[1][1], wdl[0][2] + wdl[1][2], 2 * nm);
	pw_free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}

/* One game in the official engine: its wall time, turns and winner from its stderr. */
static int official_game(const char *starter, const char *map, const char *a, const char *b, double *secs,
			 int *turns, int *winner)
{
	char tmp[] = "/tmp/microsynth_pw_XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	/* no shell: the paths go as arguments; PlayGame itself splits each
	 * bot's command at spaces */
	char jar[4096], cmd_a[4096], cmd_b[4096];
	snprintf(jar, sizeof jar, "%s/tools/PlayGame.jar", starter);
	snprintf(cmd_a, sizeof cmd_a, "java -jar %s/example_bots/%s.jar", starter, a);
	snprintf(cmd_b, sizeof cmd_b, "java -jar %s/example_bots/%s.jar", starter, b);
	char max_turns[16];
	snprintf(max_turns, sizeof max_turns, "%d", MS_PW_MAX_TURNS);
	char *argv[] = { "java", "-jar", jar, (char *)map, "1000", max_turns, "/dev/null", cmd_a, cmd_b, NULL };
	const proc_io io = { .out = PROC_NULL, .err = PROC_FD, .err_fd = fd };
	pid_t pid;
	int rc = -1;
	double t0 = cli_now();
	if (!proc_spawn(argv, &io, &pid, NULL))
		rc = proc_wait(pid, -1);
	else
		fprintf(stderr, "microsynth %s: cannot start java for %s: %s\n", CMD, jar, strerror(errno));
	close(fd);
	*secs = cli_now() - t0;
	FILE *f = fopen(tmp, "r");
	*turns = 0;
	*winner = -1;
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "Turn ", 5))
			(*turns)++;
		else if (!strncmp(line, "Player 1 Wins!", 14))
			*winner = 1;
		else if (!strncmp(line, "Player 2 Wins!", 14))
			*winner = 2;
		else if (!strncmp(line, "Draw!", 5))
			*winner = 0;
	}
	if (f)
		fclose(f);
	remove(tmp);
	return rc == 0 && *winner >= 0 ? 0 : -1;
}

/* Native speed: games per second of a pairing over the maps (one thread); with
 * --official, the example bots' games in the official engine beside the same games natively. */
int cmd_pw_bench(int argc, char **argv)
{
	const char *maps = NULL, *a = "Forecast", *b = "Forecast", *official = NULL;
	long games = 200;
	int games_set = 0;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--maps") && i + 1 < argc)
			maps = argv[++i];
		else if (!strcmp(argv[i], "--p1") && i + 1 < argc)
			a = argv[++i];
		else if (!strcmp(argv[i], "--p2") && i + 1 < argc)
			b = argv[++i];
		else if (!strcmp(argv[i], "--official") && i + 1 < argc)
			official = argv[++i];
		else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--games", argv[++i], 1, 100000000L, &games))
				return CLI_USAGE;
			games_set = 1;
		} else
			return cli_usage_error(CMD, "bench: unknown option '%s'", argv[i]);
	}
	char mbuf[4096];
	maps = pw_maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "bench: no maps (--maps DIR or MS_SHARED_DIR)");
	if (official && strchr(official, ' '))
		return cli_usage_error(CMD, "bench: PlayGame splits the bots' commands at spaces: a starter path "
					    "with a space is not supported");
	if (official && !games_set)
		games = 8;
	ms_ctx *ctx;
	ms_pw_state **mv;
	int nm, ret = pw_open_maps(CMD, maps, &ctx, &mv, &nm);
	if (ret)
		return ret;
	static const char *const ex[] = { "BullyBot", "DualBot", "ProspectorBot", "RageBot" };
	/* official mode: game g is map 1 + 4 (g / 16) (as the playbacks), pair g % 16 */
	long turns = 0, reps = 0;
	double secs = 0, t0 = cli_now();
	do {
		for (long g = 0; g < games && ret == CLI_OK; g++) {
			const char *x_name = official ? ex[(g % 16) / 4] : a, *y_name = official ? ex[g % 4] : b;
			int m = official ? (int)((1 + 4 * (g / 16)) - 1) % nm : (int)(g % nm);
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			if (pw_make_bot(ctx, x_name, (uint64_t)g, &x) || pw_make_bot(ctx, y_name, (uint64_t)g + 1, &y) ||
			    ms_pw_play(ctx, mv[m], &x, &y, MS_PW_MAX_TURNS, NULL, NULL, &r)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ret = CLI_USAGE;
			} else
				turns += r.turns;
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
		}
		reps++;
		secs = cli_now() - t0;
	} while (official && ret == CLI_OK && secs < 1.0);
	double native_gps = (double)games * reps / secs;
	if (ret == CLI_OK && !official)
		printf("p1=%s p2=%s games=%ld turns=%ld seconds=%.3f games_per_s=%.1f turns_per_s=%.0f\n", a, b, games,
		       turns, secs, games / secs, turns / secs);
	if (ret == CLI_OK && official) {
		double osecs = 0;
		int mismatches = 0;
		for (long g = 0; g < games && ret == CLI_OK; g++) {
			const char *x_name = ex[(g % 16) / 4], *y_name = ex[g % 4];
			int mapno = (int)(1 + 4 * (g / 16));
			char path[4096];
			snprintf(path, sizeof path, "%s/map%d.txt", maps, mapno);
			double s1;
			int ot, ow;
			if (official_game(official, path, x_name, y_name, &s1, &ot, &ow)) {
				fprintf(stderr, "microsynth %s: the official engine failed on map%d %s vs %s\n", CMD, mapno,
					x_name, y_name);
				ret = CLI_FAIL;
				break;
			}
			osecs += s1;
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			pw_make_bot(ctx, x_name, 0, &x);
			pw_make_bot(ctx, y_name, 0, &y);
			ms_pw_play(ctx, mv[(mapno - 1) % nm], &x, &y, MS_PW_MAX_TURNS, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			mismatches += r.turns != ot || r.winner != ow;
		}
		if (ret == CLI_OK)
			printf("games=%ld official_seconds=%.2f official_games_per_s=%.3f native_games_per_s=%.1f "
			       "result_mismatches=%d ratio=%.0f\n",
			       games, osecs, games / osecs, native_gps, mismatches, native_gps / (games / osecs));
	}
	pw_free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- plot: the GA's CSV as an SVG ---- */

int cmd_pw_plot(int argc, char **argv)
{
	const char *csv = NULL, *out = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "plot: unknown option '%s'", argv[i]);
		else
			csv = argv[i];
	}
	if (!csv || !out)
		return cli_usage_error(CMD, "plot needs CSV and -o FILE.svg");
	FILE *f = fopen(csv, "r");
	if (!f) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, csv, strerror(errno));
		return CLI_USAGE;
	}
	int cap = 256, n = 0, lineno = 0;
	double *gx = malloc((size_t)cap * sizeof *gx), *vs = malloc((size_t)cap * sizeof *vs),
	       *br = malloc((size_t)cap * sizeof *br);
	char line[512];
	while (gx && vs && br && fgets(line, sizeof line, f)) {
		lineno++;
		if (lineno == 1 && !strncmp(line, "generation,", 11))
			continue;
		int g, best;
		long games;
		double rate, v, div, secs;
		if (sscanf(line, "%d,%ld,%d,%lf,%lf,%lf,%lf", &g, &games, &best, &rate, &v, &div, &secs) != 7) {
			fprintf(stderr, "microsynth %s: %s:%d: not a line of evolve.csv\n", CMD, csv, lineno);
			fclose(f);
			free(gx);
			free(vs);
			free(br);
			return CLI_USAGE;
		}
		if (n == cap) {
			double *col[3] = { gx, vs, br };
			for (int k = 0; k < 3; k++) {
				double *nc = realloc(col[k], (size_t)cap * 2 * sizeof(double));
				if (nc)
					col[k] = nc;
				else
					free(col[k]), col[k] = NULL;
			}
			gx = col[0], vs = col[1], br = col[2];
			if (!gx || !vs || !br)
				break;
			cap *= 2;
		}
		gx[n] = g;
		vs[n] = v;
		br[n] = rate;
		n++;
	}
	fclose(f);
	if (!gx || !vs || !br) {
		free(gx);
		free(vs);
		free(br);
		return pw_out_of_memory("the generations of the CSV");
	}
	svg_chart ch = { NULL, 0, gx[n > 0 ? n - 1 : 0] > 1 ? gx[n - 1] : 1, 70, 560, 50, 280 };
	int bad = n == 0 || svg_chart_open(&ch, out, 660, 440, "Planet Wars GA");
	if (!bad) {
		svg_chart_axes(&ch, 4, 2, "generation", "win rate");
		svg_chart_series(&ch, gx, vs, n, "#1f5fbf", 0, "");
		svg_chart_series(&ch, gx, br, n, "#888", 0, " stroke-dasharray=\"4 3\"");
		svg_chart_legend(&ch, 0, "#1f5fbf", "best of each generation vs the original", NULL);
		svg_chart_legend(&ch, 1, "#888", "its tournament win rate", NULL);
		bad = svg_chart_close(&ch);
	}
	free(gx);
	free(vs);
	free(br);
	if (bad) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, n ? "cannot write the SVG" : "no generations in the CSV");
		return CLI_USAGE;
	}
	printf("generations=%d svg=%s\n", n, out);
	return CLI_OK;
}
