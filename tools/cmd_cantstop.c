/*
 * microsynth cantstop: Can't Stop matches between built-in players,
 * throughput of the evaluation loop, cloning data sets and their scores
 * (spec/cantstop.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/cantstop.h"
#include "cli.h"

#define CMD "cantstop"

void cmd_cantstop_usage(FILE *out)
{
	const char *const *names = ms_cs_player_names();

	fprintf(out,
		"Usage: microsynth cantstop play --p0 PLAYER --p1 PLAYER [--matches N] [--seed S]\n"
		"                               [--era A|B] [--cap N]\n"
		"       microsynth cantstop bench [--matches N] [--repeat R] [--seed S] [--era A|B]\n"
		"       microsynth cantstop record --oracle PLAYER [--matches N] [--seed S] [--era A|B] [-o FILE]\n"
		"       microsynth cantstop score (--data FILE | --oracle PLAYER [--matches N]) --policy PLAYER\n"
		"                                [--seed S]\n\n"
		"play    evaluates p0 against p1 as the reference evaluates a program against GA:\n"
		"        match i has p0 moving first when i is even, p1 when odd; a match stopped at\n"
		"        the cap (300 decisions; --cap -1: none) is a draw. Default 1000 matches.\n"
		"        Last line: wins0= wins1= draws= winrate0= first_winrate= decisions= ...\n"
		"bench   GA vs GA and the published program (couto) vs GA, --repeat times\n"
		"        (default 5) --matches (default 1000) on one core; prints the medians.\n"
		"        Last line: matches_per_s= ms_per_1000= ms_per_psi= (psi: 1000 matches of\n"
		"        the program-wrapped player against GA).\n"
		"record  writes a cloning data set (default 3 matches of the oracle against itself,\n"
		"        as the reference recorded them) in the text form of cantstop.h.\n"
		"score   the observation- and action-based cloning scores of a policy on a data set\n"
		"        (a file, or one recorded on the fly from --oracle).\n\n"
		"Players:");
	for (int i = 0; names[i]; i++)
		fprintf(out, " %s", names[i]);
	fprintf(out, "\nEra A is the reference's (default); era B the later engine.\n");
}

typedef struct cs_args {
	const char *p0, *p1, *oracle, *policy, *data, *out;
	long matches, seed, cap, repeat;
	int era;
	int have_matches;
} cs_args;

static int cs_parse_args(int argc, char **argv, cs_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--p0") || !strcmp(opt, "--p1") || !strcmp(opt, "--oracle") ||
		    !strcmp(opt, "--policy") || !strcmp(opt, "--data") || !strcmp(opt, "-o")) {
			if (!val)
				return cli_usage_error(CMD, "%s needs a value", opt);
			if (!strcmp(opt, "--p0"))
				a->p0 = val;
			else if (!strcmp(opt, "--p1"))
				a->p1 = val;
			else if (!strcmp(opt, "--oracle"))
				a->oracle = val;
			else if (!strcmp(opt, "--policy"))
				a->policy = val;
			else if (!strcmp(opt, "--data"))
				a->data = val;
			else
				a->out = val;
			i++;
		} else if (!strcmp(opt, "--matches")) {
			if (cli_parse_int(CMD, opt, val, 1, 100000000, &a->matches))
				return CLI_USAGE;
			a->have_matches = 1;
			i++;
		} else if (!strcmp(opt, "--seed")) {
			if (cli_parse_int(CMD, opt, val, 0, 0x7fffffffffffffffL, &a->seed))
				return CLI_USAGE;
			i++;
		} else if (!strcmp(opt, "--cap")) {
			if (!val || (strcmp(val, "-1") && cli_parse_int(CMD, opt, val, 1, 100000000, &a->cap)))
				return val ? CLI_USAGE : cli_usage_error(CMD, "--cap needs a value");
			if (!strcmp(val, "-1"))
				a->cap = -1;
			i++;
		} else if (!strcmp(opt, "--repeat")) {
			if (cli_parse_int(CMD, opt, val, 1, 1000, &a->repeat))
				return CLI_USAGE;
			i++;
		} else if (!strcmp(opt, "--era")) {
			if (!val || (strcmp(val, "A") && strcmp(val, "B")))
				return cli_usage_error(CMD, "--era is A or B");
			a->era = val[0] == 'B' ? MS_CS_ERA_B : MS_CS_ERA_A;
			i++;
		} else {
			return cli_usage_error(CMD, "unknown option '%s'", opt);
		}
	}
	return CLI_OK;
}

static int cs_player(ms_ctx *ctx, ms_cs_player *p, const char *name, const char *opt)
{
	if (!name)
		return cli_usage_error(CMD, "%s is required", opt);
	if (ms_cs_player_by_name(ctx, p, name))
		return cli_usage_error(CMD, "%s: %s", opt, ms_ctx_last_error(ctx));
	return CLI_OK;
}

static int cs_fail(ms_ctx *ctx, const char *what)
{
	fprintf(stderr, "microsynth cantstop %s: %s\n", what, ms_ctx_last_error(ctx));
	return ms_ctx_last_status(ctx) == MS_EINVAL || ms_ctx_last_status(ctx) == MS_EPARSE ||
			       ms_ctx_last_status(ctx) == MS_EIO
		       ? CLI_USAGE
		       : CLI_FAIL;
}

static int cs_cmd_play(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_player p0, p1;
	ms_cs_match_options o = { MS_CS_MATCH_OPTIONS_VERSION, a->era, (int)a->cap };
	ms_cs_eval_result r;
	double t0, dt, n;
	int rc;

	if ((rc = cs_player(ctx, &p0, a->p0, "--p0")) || (rc = cs_player(ctx, &p1, a->p1, "--p1")))
		return rc;
	memset(&r, 0, sizeof(r));
	t0 = cli_now();
	if (ms_cs_evaluate(ctx, &o, &p0, &p1, (uint64_t)a->seed, 0, a->matches, &r))
		return cs_fail(ctx, "play");
	dt = cli_now() - t0;
	n = (double)r.matches;
	printf("%s vs %s, era %c, %ld matches (p0 first in even matches), seed %ld\n", a->p0, a->p1,
	       a->era == MS_CS_ERA_B ? 'B' : 'A', r.matches, a->seed);
	printf("wins0=%ld wins1=%ld draws=%ld winrate0=%.4f first_winrate=%.4f decisions=%.1f busts=%.2f "
	       "seconds=%.3f matches_per_s=%.0f\n",
	       r.wins_a, r.wins_b, r.draws, r.wins_a / n, r.first_wins / n, r.decisions / n, r.busts / n, dt,
	       dt > 0 ? n / dt : 0.0);
	return CLI_OK;
}

static int cs_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Median seconds of `repeat` evaluations of `n` matches of a against b. */
static int cs_time(ms_ctx *ctx, const ms_cs_match_options *o, const ms_cs_player *pa, const ms_cs_player *pb,
		   long n, long repeat, uint64_t seed, double *median, ms_cs_eval_result *last)
{
	double t[1000];

	/* One untimed run first: caches and clock frequency settle. */
	memset(last, 0, sizeof(*last));
	if (ms_cs_evaluate(ctx, o, pa, pb, seed, 0, n, last))
		return -1;
	for (long k = 0; k < repeat; k++) {
		double t0 = cli_now();

		memset(last, 0, sizeof(*last));
		if (ms_cs_evaluate(ctx, o, pa, pb, seed + (uint64_t)k, 0, n, last))
			return -1;
		t[k] = cli_now() - t0;
	}
	qsort(t, (size_t)repeat, sizeof(double), cs_cmp_double);
	*median = t[repeat / 2];
	return 0;
}

static int cs_cmd_bench(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_player ga, couto;
	ms_cs_match_options o = { MS_CS_MATCH_OPTIONS_VERSION, a->era, 0 };
	ms_cs_eval_result r_ga, r_prog;
	long n = a->have_matches ? a->matches : 1000, repeat = a->repeat ? a->repeat : 5;
	double s_ga, s_prog;

	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_couto(&couto);
	if (cs_time(ctx, &o, &ga, &ga, n, repeat, (uint64_t)a->seed, &s_ga, &r_ga) ||
	    cs_time(ctx, &o, &couto, &ga, n, repeat, (uint64_t)a->seed, &s_prog, &r_prog))
		return cs_fail(ctx, "bench");
	printf("GA vs GA: %ld matches x %ld runs, median %.2f ms, %.1f decisions/match\n", n, repeat, s_ga * 1e3,
	       (double)r_ga.decisions / (double)r_ga.matches);
	printf("couto (program wrapper) vs GA: median %.2f ms, win rate %.3f in the last run\n", s_prog * 1e3,
	       (double)r_prog.wins_a / (double)r_prog.matches);
	printf("matches_per_s=%.0f ms_per_1000=%.2f ms_per_psi=%.2f\n", (double)n / s_ga, s_ga * 1e3 * 1000.0 / (double)n,
	       s_prog * 1e3 * 1000.0 / (double)n);
	return CLI_OK;
}

static int cs_make_data(ms_ctx *ctx, const cs_args *a, ms_cs_dataset **ds)
{
	ms_cs_player oracle;
	int rc;

	if ((rc = cs_player(ctx, &oracle, a->oracle, "--oracle")))
		return rc;
	if (ms_cs_dataset_generate(ctx, ds, &oracle, &oracle, (int)(a->have_matches ? a->matches : 3), a->era,
				   (uint64_t)a->seed))
		return cs_fail(ctx, "record");
	return CLI_OK;
}

static void cs_counts(const ms_cs_dataset *ds, long *p1, long *turns1)
{
	*p1 = *turns1 = 0;
	for (size_t i = 0; i < ms_cs_dataset_size(ds); i++) {
		const ms_cs_record *r = ms_cs_dataset_get(ds, i);

		if (r->player == 1) {
			(*p1)++;
			*turns1 += r->action.kind == MS_CS_MOVE_NO;
		}
	}
}

static int cs_cmd_record(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_dataset *ds = NULL;
	long p1, turns1;
	int rc;

	if ((rc = cs_make_data(ctx, a, &ds)))
		return rc;
	if (a->out ? ms_cs_dataset_save(ctx, ds, a->out) : ms_cs_dataset_write(ctx, ds, stdout)) {
		ms_cs_dataset_free(ctx, ds);
		return cs_fail(ctx, "record");
	}
	cs_counts(ds, &p1, &turns1);
	fprintf(a->out ? stdout : stderr, "matches=%d records=%zu records_p1=%ld turns_p1=%ld\n",
		ms_cs_dataset_matches(ds), ms_cs_dataset_size(ds), p1, turns1);
	ms_cs_dataset_free(ctx, ds);
	return CLI_OK;
}

static int cs_cmd_score(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_dataset *ds = NULL;
	ms_cs_player policy;
	double obs, act;
	long p1, turns1;
	int rc;

	if ((rc = cs_player(ctx, &policy, a->policy, "--policy")))
		return rc;
	if (!a->data == !a->oracle)
		return cli_usage_error(CMD, "score needs one of --data FILE or --oracle PLAYER");
	if (a->data) {
		if (ms_cs_dataset_load(ctx, &ds, a->data))
			return cs_fail(ctx, "score");
	} else if ((rc = cs_make_data(ctx, a, &ds))) {
		return rc;
	}
	if (ms_cs_score_observation(ctx, ds, &policy, (uint64_t)a->seed, &obs) ||
	    ms_cs_score_action(ctx, ds, &policy, (uint64_t)a->seed, &act)) {
		ms_cs_dataset_free(ctx, ds);
		return cs_fail(ctx, "score");
	}
	cs_counts(ds, &p1, &turns1);
	printf("matches=%d records_p1=%ld turns_p1=%ld observation=%.6f action=%.6f\n", ms_cs_dataset_matches(ds), p1,
	       turns1, obs, act);
	ms_cs_dataset_free(ctx, ds);
	return CLI_OK;
}

int cmd_cantstop(int argc, char **argv)
{
	cs_args a;
	ms_ctx *ctx = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	a.matches = 1000;
	if (argc < 2)
		return cli_usage_error(CMD, "needs a subcommand: play, bench, record or score");
	if ((rc = cs_parse_args(argc - 1, argv + 1, &a)))
		return rc;
	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth cantstop: out of memory\n");
		return CLI_FAIL;
	}
	if (!strcmp(argv[1], "play"))
		rc = cs_cmd_play(ctx, &a);
	else if (!strcmp(argv[1], "bench"))
		rc = cs_cmd_bench(ctx, &a);
	else if (!strcmp(argv[1], "record"))
		rc = cs_cmd_record(ctx, &a);
	else if (!strcmp(argv[1], "score"))
		rc = cs_cmd_score(ctx, &a);
	else
		rc = cli_usage_error(CMD, "unknown subcommand '%s' (play, bench, record, score)", argv[1]);
	ms_ctx_free(ctx);
	return rc;
}
