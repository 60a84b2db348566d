/*
 * microsynth gdl: General Game Playing (issue 26). `replay` checks the GDL
 * reasoner against matches recorded with ggp-base's prover, step by step;
 * `bench` measures random playouts beside ggp-base's baseline; `play`
 * (cmd_gdl_play.c) plays UCT and random players against each other;
 * `serve` (gdl_serve.c, issue 44) plays GGP matches over HTTP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "microsynth/buf.h"
#include "microsynth/gdl.h"
#include "microsynth/jrandom.h"
#include "cli.h"
#include "gdl_common.h"
#include "recording.h"

#define CMD "gdl"

void cmd_gdl_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth gdl replay RECORD.jsonl.gz... [--fallback] [--kif-dir DIR] [-v] [LOAD]\n"
		"       microsynth gdl bench KIF... [--seconds S] [--seed S] [--baseline FILE] [--fallback] [LOAD]\n"
		"       microsynth gdl play KIF --p0 AGENT --p1 AGENT [--pN ...] [--games N]\n"
		"              [--sims S] [--time T] [--c C] [--seed S] [--swap] [--keep 0|1] [--playout-limit L]\n"
		"              [--history 0|1] [--tau T] [--transpositions N] [--fallback] [--ci] [-v]\n"
		"              [--cutoff P] [--replace Q] [--order 0|1] [--prior N] [STATS]\n"
		"              [--sguct-sims S] [--generations G] [--epochs E] [--learning-rate L] [--online G]\n"
		"       microsynth gdl features KIF [--role R] [--seed S] [STATS] [--sguct-sims S] [--generations G]\n"
		"       microsynth gdl serve [--port P] [--host ADDR] [--player uct|guct|sguct] [--margin S]\n"
		"              [--ponder 0|1] [--max-nodes N] [--max-matches N] [--name NAME] [--seed S]\n"
		"              [--fallback] [--quiet] [-v] [searcher options of play]\n"
		"       STATS: [--sequences N] [--positions P] [--gap G] [--playouts K] [--keep K]\n"
		"              [--differences 0|1] [--max-features F] [--stability-k K]\n"
		"       LOAD (replay, bench, play, features): [--ground-seconds S] [--choose-seconds S]\n"
		"              [--goal-directed auto|always|never]\n\n"
		"replay  replays matches recorded with ggp-base's ProverStateMachine (format:\n"
		"        ../shared/data/gdl/README.md) and compares, at every step, the true facts,\n"
		"        the legal moves of every role, the terminal flag and the goals (a goal the\n"
		"        prover could not define must be an error here too). The rule file is the\n"
		"        header's `kif`, relative to the records folder's parent (or --kif-dir).\n"
		"        --fallback: first-order evaluation instead of the ground network.\n"
		"        LOAD: grounding past --ground-seconds (default 0: no bound) is abandoned\n"
		"        for the fallback; when the rules ground, random playouts are timed on\n"
		"        both for up to --choose-seconds each and the faster kept (default 0.1;\n"
		"        replay: 0, it checks the network). --goal-directed always leaves the\n"
		"        relations queries bind out of the domain analysis and evaluates states\n"
		"        top-down (no network); auto (the default) does so when the plain\n"
		"        analysis passes 10,000,000 join steps and the goal-directed one does\n"
		"        not (why=large_analysis). -v and bench's lines tell which.\n"
		"        Last line: files= games= steps= divergences= goal_errors= failed= (files\n"
		"        whose record or rules could not be read or loaded; exit 1 if any)\n"
		"bench   random playouts as ggp-base's baseline defines them (java.util.Random picks\n"
		"        on each role's sorted legal moves); steps/s and playouts/s per game over\n"
		"        --seconds (default 5) after 1 s of warm-up, beside baseline.tsv's medians\n"
		"        when the game is listed there (speedup: of wall-clock steps/s; cpu_steps_per_s\n"
		"        and cpu_speedup divide by this process's CPU time instead, steadier on a\n"
		"        shared machine). Last line: games= min_speedup= min_cpu_speedup=\n"
		"play    --games matches (default 1); player K (--pK) plays role K, or with --swap\n"
		"        the seats rotate one role per game. uct: decoupled UCT with --sims new\n"
		"        simulations per move (default 1000; with --time T, searches of S grow\n"
		"        the tree until T seconds have passed: not reproducible), UCB1\n"
		"        mean + C*sqrt(2 ln N / n) on goal/100 (--c, default 0.5), the subtree\n"
		"        below the played joint move kept (--keep, default 1), playouts cut after\n"
		"        L joint moves (default 0: none), history heuristic with Gibbs\n"
		"        temperature (--history 1, --tau, default 0.1), a transposition table of\n"
		"        N states pooling the rewards of equal states (default 0: none).\n"
		"        Seeded by --seed (default 1). -v: one line per game.\n"
		"        AGENT: random, uct, guct (UCT guided by StatGUCT's function, built once\n"
		"        per run from STATS: playout cut off by eval with probability P per step\n"
		"        (default 0.1), replaced by eval with probability Q (0), untried moves\n"
		"        ordered by eval (--order 1), eval worth N visits as a prior (0: off)),\n"
		"        sguct (guct whose function first learns from an offline search of\n"
		"        --sguct-sims simulations (10000): G generations (5) of E epochs (100);\n"
		"        --online G: G more generations on its tree after each of its moves).\n"
		"        Last line: games=N mean_goal_K= wins_K= per player (win: goal above\n"
		"        every other player's; alone: goal 100); --ci adds ci95_K= (1.96\n"
		"        standard errors of the mean goal)\n"
		"features StatGUCT's function of each role (or --role R) as a linear program:\n"
		"        STATS default to the slides' 100 sequences of <= 5 positions 1-2 random\n"
		"        joint moves apart, 10 playouts each, S = TV/(TV+10 SV), 30 kept;\n"
		"        --sguct-sims S: refined by SGUCT on a search of S simulations first\n");
	cmd_gdl_serve_usage(out);
}

typedef struct replay_stats {
	long games, steps, divergences, goal_errors;
	int verbose;
} replay_stats;

/* Compares our sorted fluents with the recorded sorted list. */
static int same_state(const ms_gdl *g, const uint64_t *st, const cJSON *rec, char *why, size_t size)
{
	char buf[4096];
	const cJSON *it = rec ? rec->child : NULL;
	for (int f = 0; f < ms_gdl_num_fluents(g); f++) {
		if (!ms_gdl_state_has(st, f))
			continue;
		ms_gdl_fluent_text(g, f, buf, sizeof buf);
		if (!it || !cJSON_IsString(it) || strcmp(it->valuestring, buf)) {
			snprintf(why, size, "state: we have %s, the record %s", buf,
				 it && cJSON_IsString(it) ? it->valuestring : "nothing more");
			return 0;
		}
		it = it->next;
	}
	if (it) {
		snprintf(why, size, "state: the record also has %s", cJSON_IsString(it) ? it->valuestring : "?");
		return 0;
	}
	return 1;
}

static int same_legal(const ms_gdl *g, const ms_gdl_machine *m, int r, const cJSON *rec, char *why, size_t size)
{
	char buf[4096];
	const int *mv;
	int n = ms_gdl_legal(m, r, &mv), i = 0;
	const cJSON *it = rec ? rec->child : NULL;
	for (; i < n; i++, it = it->next) {
		ms_gdl_move_text(g, mv[i], buf, sizeof buf);
		if (!it || !cJSON_IsString(it) || strcmp(it->valuestring, buf)) {
			snprintf(why, size, "legal moves of %s: we have %s, the record %s", ms_gdl_role_name(g, r), buf,
				 it && cJSON_IsString(it) ? it->valuestring : "nothing more");
			return 0;
		}
	}
	if (it) {
		snprintf(why, size, "legal moves of %s: the record also has %s", ms_gdl_role_name(g, r),
			 cJSON_IsString(it) ? it->valuestring : "?");
		return 0;
	}
	return 1;
}

static int find_move(const ms_gdl *g, const ms_gdl_machine *m, int r, const char *text)
{
	char buf[4096];
	const int *mv;
	int n = ms_gdl_legal(m, r, &mv);
	for (int i = 0; i < n; i++) {
		ms_gdl_move_text(g, mv[i], buf, sizeof buf);
		if (!strcmp(buf, text))
			return mv[i];
	}
	return -1;
}

/* One recorded line against the machine; 0 on agreement (and *next filled if not terminal). */
static int replay_line(ms_ctx *ctx, const ms_gdl *g, ms_gdl_machine *m, const uint64_t *st, const cJSON *j,
		       uint64_t *next, replay_stats *s, char *why, size_t size)
{
	int nr = ms_gdl_num_roles(g);
	if (!same_state(g, st, cJSON_GetObjectItem(j, "state"), why, size))
		return 1;
	if (ms_gdl_machine_set(m, st)) {
		snprintf(why, size, "evaluation failed: %s", ms_ctx_last_error(ctx));
		return 1;
	}
	int term = cJSON_IsTrue(cJSON_GetObjectItem(j, "terminal"));
	if (term != ms_gdl_terminal(m)) {
		snprintf(why, size, "terminal: we say %d, the record %d", ms_gdl_terminal(m), term);
		return 1;
	}
	if (term) {
		const cJSON *goals = cJSON_GetObjectItem(j, "goals");
		for (int r = 0; r < nr; r++) {
			const cJSON *gv = cJSON_GetArrayItem(goals, r);
			int v, rc = ms_gdl_goal(m, r, &v);
			if (rc)
				s->goal_errors++;
			if (!gv || (rc ? !cJSON_IsNull(gv) : !cJSON_IsNumber(gv) || gv->valueint != v)) {
				snprintf(why, size, "goal of %s: we %s %d, the record %s", ms_gdl_role_name(g, r),
					 rc ? "fail" : "give", rc ? 0 : v, gv && cJSON_IsNumber(gv) ? "a number" : "null");
				return 1;
			}
			if (rc && s->verbose)
				fprintf(stderr, "  reported: %s\n", ms_ctx_last_error(ctx));
		}
		return 0;
	}
	const cJSON *legal = cJSON_GetObjectItem(j, "legal"), *joint = cJSON_GetObjectItem(j, "joint");
	int mv[64];
	if (nr > 64)
		return snprintf(why, size, "too many roles"), 1;
	for (int r = 0; r < nr; r++) {
		if (!same_legal(g, m, r, cJSON_GetArrayItem(legal, r), why, size))
			return 1;
		const cJSON *jm = cJSON_GetArrayItem(joint, r);
		mv[r] = cJSON_IsString(jm) ? find_move(g, m, r, jm->valuestring) : -1;
		if (mv[r] < 0)
			return snprintf(why, size, "recorded move of %s is not legal here", ms_gdl_role_name(g, r)), 1;
	}
	if (ms_gdl_next(m, mv, next)) {
		snprintf(why, size, "next state failed: %s", ms_ctx_last_error(ctx));
		return 1;
	}
	s->steps++;
	return 0;
}

/* The rule file a record names: --kif-dir, else the records folder's parent. */
static void kif_path(const char *record, const char *kif_dir, const char *kif, char *out, size_t size)
{
	if (kif_dir) {
		snprintf(out, size, "%s/%s", kif_dir, kif);
		return;
	}
	/* the record's own folder, then up one: right from any working directory */
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", record);
	char *sl = strrchr(dir, '/');
	if (sl)
		*sl = 0;
	else
		snprintf(dir, sizeof dir, ".");
	snprintf(out, size, "%s/../%s", dir, kif);
}

static int replay_file(ms_ctx *ctx, const char *path, const char *kif_dir, const gdl_load_opts *lo, replay_stats *s)
{
	gzFile f = gzopen(path, "rb");
	if (!f)
		return fprintf(stderr, "microsynth gdl: cannot open %s\n", path), -1;
	ms_buf line;
	ms_buf_init(&line, ctx);
	int rc = -1, skip = 0;
	long div0 = s->divergences, games0 = s->games, steps0 = s->steps;
	ms_gdl *g = NULL;
	ms_gdl_machine *m = NULL;
	uint64_t *st = NULL, *nx = NULL;
	cJSON *h = rec_read_line(f, &line) >= 0 ? cJSON_Parse(line.data) : NULL;
	const cJSON *kif = cJSON_GetObjectItem(h, "kif");
	if (!cJSON_IsString(kif)) {
		fprintf(stderr, "microsynth gdl: %s: no header with a \"kif\" field\n", path);
		goto done;
	}
	char kp[4096];
	kif_path(path, kif_dir, kif->valuestring, kp, sizeof kp);
	if (!(g = gdl_load_rules(ctx, kp, lo)) || ms_gdl_machine_new(ctx, &m, g))
		goto done;
	size_t words = ms_gdl_state_words(g);
	st = calloc(words, sizeof *st);
	nx = calloc(words, sizeof *nx);
	if (!st || !nx)
		goto done;
	const cJSON *roles = cJSON_GetObjectItem(h, "roles");
	int nr = cJSON_GetArraySize(roles), bad_roles = nr != ms_gdl_num_roles(g);
	for (int r = 0; r < nr && !bad_roles; r++)
		bad_roles = strcmp(cJSON_GetArrayItem(roles, r)->valuestring ? cJSON_GetArrayItem(roles, r)->valuestring : "",
				   ms_gdl_role_name(g, r)) != 0;
	if (bad_roles) {
		fprintf(stderr, "%s: roles differ\n", path);
		s->divergences++;
	}
	while (rec_read_line(f, &line) >= 0) {
		cJSON *j = cJSON_Parse(line.data);
		const cJSON *ply = cJSON_GetObjectItem(j, "ply"), *mm = cJSON_GetObjectItem(j, "m");
		if (!cJSON_IsNumber(ply) || !cJSON_IsNumber(mm)) {
			fprintf(stderr, "microsynth gdl: %s: a line without m and ply\n", path);
			cJSON_Delete(j);
			goto done;
		}
		if (ply->valueint == 0) {
			s->games++;
			skip = 0;
			ms_gdl_initial(g, st);
		}
		char why[8192];
		if (!skip && replay_line(ctx, g, m, st, j, nx, s, why, sizeof why)) {
			s->divergences++;
			skip = 1;
			fprintf(stderr, "%s: match %d ply %d: %s\n", path, mm->valueint, ply->valueint, why);
		}
		memcpy(st, nx, words * sizeof *st);
		cJSON_Delete(j);
	}
	rc = 0;
	if (s->verbose) {
		char rep[300];
		gdl_representation_text(g, rep, sizeof rep);
		printf("%s games=%ld steps=%ld divergences=%ld fallback=%d%s\n", path, s->games - games0, s->steps - steps0,
		       s->divergences - div0, !ms_gdl_is_grounded(g), rep);
	}
done:
	cJSON_Delete(h);
	free(st);
	free(nx);
	ms_gdl_machine_free(m);
	ms_gdl_free(g);
	ms_buf_dispose(&line);
	gzclose(f);
	return rc;
}

static int gdl_replay(int argc, char **argv)
{
	replay_stats s = { 0 };
	gdl_load_opts lo = { 0 }; /* replay checks the representation asked for: untimed */
	int files = 0, first = -1, failed = 0, r;
	const char *kif_dir = NULL;
	for (int i = 2; i < argc; i++) {
		if ((r = gdl_load_option(&lo, argv[i], i + 1 < argc ? argv[i + 1] : NULL)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--fallback"))
			lo.fallback = 1;
		else if (!strcmp(argv[i], "-v"))
			s.verbose = 1;
		else if (!strcmp(argv[i], "--kif-dir") && i + 1 < argc)
			kif_dir = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else if (first < 0)
			first = i;
	}
	if (first < 0)
		return cli_usage_error(CMD, "replay needs record files");
	ms_ctx *ctx;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	char **paths = NULL;
	size_t np = 0;
	char **args = malloc((size_t)argc * sizeof *args);
	int na = 0;
	if (!args) {
		ms_ctx_free(ctx);
		return CLI_FAIL;
	}
	for (int i = first; i < argc; i++) {
		if (argv[i][0] == '-')
			i += !strcmp(argv[i], "--kif-dir") || !strcmp(argv[i], "--ground-seconds") ||
			     !strcmp(argv[i], "--choose-seconds");
		else
			args[na++] = argv[i];
	}
	int bad = cli_collect_files(&paths, &np, na, args, 0, ".jsonl.gz", ".jsonl.gz");
	free(args);
	if (bad) {
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	for (size_t i = 0; i < np; i++) {
		failed += replay_file(ctx, paths[i], kif_dir, &lo, &s) != 0;
		files++;
		free(paths[i]);
	}
	free(paths);
	ms_ctx_free(ctx);
	/* a file whose record or rules cannot be read or loaded is a failure, never a clean zero */
	printf("files=%d games=%ld steps=%ld divergences=%ld goal_errors=%ld failed=%d\n", files, s.games, s.steps,
	       s.divergences, s.goal_errors, failed);
	return failed || s.divergences ? CLI_FAIL : CLI_OK;
}

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

/* This process's CPU time in seconds: on a loaded machine, steps per CPU second
 * compare builds better than steps per wall-clock second. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs playouts for `secs` seconds after a warm-up; *steps/s (wall clock and
 * CPU time) and *playouts/s. */
static int measure(ms_gdl_machine *m, const ms_gdl *g, ms_jrandom *rng, double warm, double secs, double *sps,
		   double *cpu_sps, double *pps, double *plies)
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
	double t0 = cli_now(), c0 = cpu_now(), el;
	do {
		long p = playout(m, g, rng, st, nx);
		if (p < 0)
			goto done;
		steps += p;
		n++;
	} while ((el = cli_now() - t0) < secs);
	*sps = (double)steps / el;
	double cpu = cpu_now() - c0;
	*cpu_sps = cpu > 0 ? (double)steps / cpu : 0;
	*pps = (double)n / el;
	*plies = (double)steps / (double)n;
	rc = 0;
done:
	free(st);
	free(nx);
	return rc;
}

static int gdl_bench(int argc, char **argv)
{
	double secs = 5, min_speedup = -1, min_cpu_speedup = -1;
	long seed = 1;
	gdl_load_opts lo = { .choose_seconds = MS_GDL_CHOOSE_SECONDS };
	int games = 0, rc = CLI_OK, r;
	const char *baseline = NULL;
	for (int i = 2; i < argc; i++) {
		long v;
		if ((r = gdl_load_option(&lo, argv[i], i + 1 < argc ? argv[i + 1] : NULL)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seconds", argv[++i], 1, 3600, &v))
				return CLI_USAGE;
			secs = (double)v;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647L, &seed))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--baseline") && i + 1 < argc) {
			baseline = argv[++i];
		} else if (!strcmp(argv[i], "--fallback")) {
			lo.fallback = 1;
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
		ms_gdl *g = gdl_load_rules(ctx, argv[i], &lo);
		ms_gdl_machine *m = NULL;
		if (!g || ms_gdl_machine_new(ctx, &m, g)) {
			ms_gdl_free(g);
			rc = CLI_USAGE;
			break;
		}
		ms_jrandom rng;
		ms_jrandom_init(&rng, seed);
		double sps, cpu_sps, pps, plies, bs, bp;
		if (measure(m, g, &rng, 1.0, secs, &sps, &cpu_sps, &pps, &plies)) {
			fprintf(stderr, "microsynth gdl: %s: a playout failed: %s\n", argv[i], ms_ctx_last_error(ctx));
			rc = CLI_FAIL;
		} else {
			char bfile[4096], game[256];
			if (baseline)
				snprintf(bfile, sizeof bfile, "%s", baseline);
			else
				default_baseline(argv[i], bfile, sizeof bfile);
			char rep[300];
			gdl_representation_text(g, rep, sizeof rep);
			printf("kif=%s grounded=%d steps_per_s=%.0f cpu_steps_per_s=%.0f playouts_per_s=%.2f plies=%.1f%s",
			       argv[i], ms_gdl_is_grounded(g), sps, cpu_sps, pps, plies, rep);
			if (baseline_for(bfile, argv[i], &bs, &bp, game, sizeof game)) {
				double sp = sps / bs, csp = cpu_sps / bs;
				printf(" game=%s ggp_steps_per_s=%.0f ggp_playouts_per_s=%.2f speedup=%.1f cpu_speedup=%.1f", game,
				       bs, bp, sp, csp);
				if (min_speedup < 0 || sp < min_speedup)
					min_speedup = sp;
				if (min_cpu_speedup < 0 || csp < min_cpu_speedup)
					min_cpu_speedup = csp;
			}
			printf("\n");
			games++;
		}
		ms_gdl_machine_free(m);
		ms_gdl_free(g);
	}
	ms_ctx_free(ctx);
	printf("games=%d min_speedup=%.1f min_cpu_speedup=%.1f\n", games, min_speedup < 0 ? 0.0 : min_speedup,
	       min_cpu_speedup < 0 ? 0.0 : min_cpu_speedup);
	return rc;
}

int cmd_gdl(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(CMD, "missing subcommand (replay, bench, play, features, serve)");
	if (!strcmp(argv[1], "replay"))
		return gdl_replay(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return gdl_bench(argc, argv);
	if (!strcmp(argv[1], "play"))
		return cmd_gdl_play(argc, argv);
	if (!strcmp(argv[1], "features"))
		return cmd_gdl_features(argc, argv);
	if (!strcmp(argv[1], "serve"))
		return cmd_gdl_serve(argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s'", argv[1]);
}
