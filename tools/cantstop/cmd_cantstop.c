/*
 * microsynth cantstop: Can't Stop matches between built-in players,
 * throughput of the evaluation loop, cloning data sets and their scores,
 * and DSL programs: read, printed, evaluated, generated (spec/cantstop.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/cantstop.h"
#include "microsynth/cantstop_dsl.h"
#include "cli.h"

#define CMD "cantstop"

void cmd_cantstop_usage(FILE *out)
{
	int n;
	const ms_cs_agent_row *rows = ms_cs_agents(&n);

	fprintf(out,
		"Usage: microsynth cantstop play --p0 PLAYER --p1 PLAYER [--matches N] [--seed S]\n"
		"                               [--era A|B] [--cap N]\n"
		"       microsynth cantstop bench [--matches N] [--repeat R] [--seed S] [--era A|B]\n"
		"       microsynth cantstop record --oracle PLAYER [--matches N] [--seed S] [--era A|B] [-o FILE]\n"
		"       microsynth cantstop score (--data FILE | --oracle PLAYER [--matches N]) --policy PLAYER\n"
		"                                [--seed S]\n"
		"       microsynth cantstop program FILE|builtin:NAME [--matches N] [--seed S] [--era A|B]\n"
		"                                  [--opponent PLAYER] [--ibr] [--ragged error|object]\n"
		"       microsynth cantstop random [--count N] [--seed S] [--matches M] [--ibr] [--ragged ...]\n"
		"       microsynth cantstop simplify PROGRAM --opponent PLAYER [--matches N] [--seed S] [--era A|B]\n"
		"                                   [--cap N] [--ibr] [--ragged ...] [-o OUT] [--verbose]\n"
		"       microsynth cantstop equal A B --opponent PLAYER [--matches N] [--seed S] [--era A|B] [--cap N]\n"
		"                                [--ibr] [--ragged ...]\n\n"
		"play    evaluates p0 against p1 as the reference evaluates a program against GA:\n"
		"        match i has p0 moving first when i is even, p1 when odd; a match stopped at\n"
		"        the cap (300 decisions; --cap -1: none) is a draw. Default 1000 matches.\n"
		"        Last line: wins0= wins1= draws= winrate0= first_winrate= decisions= ...\n"
		"bench   GA vs GA, the published program (couto) vs GA natively and as a DSL\n"
		"        program run by the interpreter, --repeat times (default 5) --matches\n"
		"        (default 1000) on one core; prints the medians. Last line: dsl_ms_per_psi=\n"
		"        dsl_over_native= matches_per_s= ms_per_1000= ms_per_psi= (psi: 1000 matches\n"
		"        of the program-wrapped player against GA).\n"
		"record  writes a cloning data set (default 3 matches of the oracle against itself,\n"
		"        as the reference recorded them) in the text form of cantstop.h.\n"
		"score   the observation- and action-based cloning scores of a policy on a data set\n"
		"        (a file, or one recorded on the fly from --oracle).\n"
		"program reads a DSL program (the printed form: 'yes-no: ...' and 'column: ...'; '#'\n"
		"        comments; builtin:ga or builtin:couto), prints it, and plays it against\n"
		"        --opponent (default ga) as the evaluation does: default 1000 matches.\n"
		"        Last line: size= nodes= searchable= wins= draws= winrate= (searchable=1: in\n"
		"        the searches' grammar). A program that raises scores 0: error=1, exit 1.\n"
		"random  prints --count (default 10) random programs as the reference's SA makes\n"
		"        them; with --matches M, each is played against GA over M matches.\n"
		"        Last line: count= mean_size= max_depth= [valid= best_winrate=]\n"
		"simplify removes the parts of a program that change none of its decisions in the\n"
		"        --matches (default 1000) matches that `program` plays against --opponent with\n"
		"        --seed (both seats), and proves it: each match replayed with the result gives\n"
		"        the same yes/no answers and column choices, call by call, and ends the same.\n"
		"        Prints the program; -o OUT writes it under a '#' header naming the proof;\n"
		"        --verbose tells every change tried on stderr. Last line: nodes_before=\n"
		"        nodes_after= matches= decisions_compared= candidates= kept= seconds=\n"
		"equal   replays those matches with A, then B: exit 0 when B decides as A at every call\n"
		"        (last line equal=1 matches= decisions_compared=), 1 with the first difference\n"
		"        (match, decision of the program in it) and equal=0 match= decision= ...\n"
		"        (docs/readable-programs.md).\n"
		"--ibr   the iterated-best-response grammar (constants 1..7 instead of 0, 1).\n"
		"--ragged  sum/argmax of ragged lists: error (numpy >= 1.24, the spec's choice; default)\n"
		"        or object (numpy 1.23.3 as the reference pins it: object arrays).\n\n"
		"Players:");
	for (int i = 0; i < n; i++)
		fprintf(out, " %s", rows[i].form.name);
	fprintf(out, "\nEra A is the reference's (default); era B the later engine.\n");
}

typedef struct cs_args {
	const char *p0, *p1, *oracle, *policy, *data, *out, *opponent, *file, *file2;
	long matches, seed, cap, repeat, count;
	int era, ibr, ragged, verbose;
	int have_matches;
} cs_args;

static int cs_parse_args(int argc, char **argv, cs_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--p0") || !strcmp(opt, "--p1") || !strcmp(opt, "--oracle") ||
		    !strcmp(opt, "--policy") || !strcmp(opt, "--data") || !strcmp(opt, "-o") ||
		    !strcmp(opt, "--opponent")) {
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
			else if (!strcmp(opt, "--opponent"))
				a->opponent = val;
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
		} else if (!strcmp(opt, "--count")) {
			if (cli_parse_int(CMD, opt, val, 1, 10000000, &a->count))
				return CLI_USAGE;
			i++;
		} else if (!strcmp(opt, "--ibr")) {
			a->ibr = 1;
		} else if (!strcmp(opt, "--ragged")) {
			if (!val || (strcmp(val, "error") && strcmp(val, "object")))
				return cli_usage_error(CMD, "--ragged is error or object");
			a->ragged = val[0] == 'o' ? MS_CS_DSL_RAGGED_OBJECT : MS_CS_DSL_RAGGED_ERROR;
			i++;
		} else if (!strcmp(opt, "--verbose")) {
			a->verbose = 1;
		} else if (opt[0] != '-' && !a->file) {
			a->file = opt;
		} else if (opt[0] != '-' && !a->file2) {
			a->file2 = opt;
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

/* A grammar for reading programs: the extended one (a superset of the searches'), constants per --ibr. */
static int cs_dsl(ms_ctx *ctx, const cs_args *a, int extended, ms_cs_dsl **d)
{
	ms_cs_dsl_options o = { .version = MS_CS_DSL_OPTIONS_VERSION,
				.constants = a->ibr ? MS_CS_DSL_CONSTANTS_1_TO_7 : MS_CS_DSL_CONSTANTS_01,
				.extended = extended,
				.ragged = a->ragged };

	if (ms_cs_dsl_new(ctx, d, &o))
		return cs_fail(ctx, "dsl");
	return CLI_OK;
}

/* Reads FILE, or builtin:NAME, into a program of d. */
static int cs_read_program(ms_ctx *ctx, const ms_cs_dsl *d, const char *file, ms_dsl_prog *p)
{
	if (!strncmp(file, "builtin:", 8)) {
		const char *t = ms_cs_dsl_builtin(file + 8);

		if (!t)
			return ms_ctx_error(ctx, MS_ENOTFOUND, "no built-in program '%s' (ga, couto)", file + 8);
		return ms_cs_dsl_parse(d, p, t, strlen(t), MS_CS_NT_START, file);
	}
	return ms_cs_dsl_load(d, p, file);
}

static int cs_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * Median seconds of `repeat` evaluations of `n` matches for each of the
 * k match-ups, interleaved so that a machine's load changes hit all alike.
 */
static int cs_time(ms_ctx *ctx, const ms_cs_match_options *o, const ms_cs_player *const *pa,
		   const ms_cs_player *const *pb, int k, long n, long repeat, uint64_t seed, double *median,
		   ms_cs_eval_result *last)
{
	static double t[3][1000];

	/* One untimed run first: caches and clock frequency settle. */
	for (int j = 0; j < k; j++) {
		memset(&last[j], 0, sizeof(last[j]));
		if (ms_cs_evaluate(ctx, o, pa[j], pb[j], seed, 0, n, &last[j]))
			return -1;
	}
	for (long r = 0; r < repeat; r++)
		for (int j = 0; j < k; j++) {
			double t0 = cli_now();

			memset(&last[j], 0, sizeof(last[j]));
			if (ms_cs_evaluate(ctx, o, pa[j], pb[j], seed + (uint64_t)r, 0, n, &last[j]))
				return -1;
			t[j][r] = cli_now() - t0;
		}
	for (int j = 0; j < k; j++) {
		qsort(t[j], (size_t)repeat, sizeof(double), cs_cmp_double);
		median[j] = t[j][repeat / 2];
	}
	return 0;
}

static int cs_cmd_bench(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_player ga, couto, dsl;
	ms_cs_match_options o = { MS_CS_MATCH_OPTIONS_VERSION, a->era, 0 };
	ms_cs_eval_result r[3];
	long n = a->have_matches ? a->matches : 1000, repeat = a->repeat ? a->repeat : 5;
	double s[3], per = 1000.0 / (double)n;
	ms_cs_dsl *d = NULL;
	ms_dsl_prog *p = NULL;
	ms_cs_dsl_runner *run = NULL;
	int rc;

	if ((rc = cs_dsl(ctx, a, 0, &d)))
		return rc;
	if (ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)) || cs_read_program(ctx, d, "builtin:couto", p) ||
	    ms_cs_dsl_runner_new(ctx, &run, d) || ms_cs_dsl_runner_load(run, p)) {
		rc = cs_fail(ctx, "bench");
		goto done;
	}
	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_couto(&couto);
	ms_cs_dsl_runner_player(run, &dsl);
	{
		const ms_cs_player *pa[3] = { &ga, &couto, &dsl }, *pb[3] = { &ga, &ga, &ga };

		if (cs_time(ctx, &o, pa, pb, 3, n, repeat, (uint64_t)a->seed, s, r)) {
			rc = cs_fail(ctx, "bench");
			goto done;
		}
	}
	if (memcmp(&r[1], &r[2], sizeof(r[1]))) {
		fprintf(stderr, "microsynth cantstop bench: couto as a DSL program played differently from native couto\n");
		rc = CLI_FAIL;
		goto done;
	}
	printf("GA vs GA: %ld matches x %ld runs, median %.2f ms, %.1f decisions/match\n", n, repeat, s[0] * 1e3,
	       (double)r[0].decisions / (double)r[0].matches);
	printf("couto (native, program wrapper) vs GA: median %.2f ms, win rate %.3f in the last run\n", s[1] * 1e3,
	       (double)r[1].wins_a / (double)r[1].matches);
	printf("couto (DSL interpreter) vs GA: median %.2f ms, same matches\n", s[2] * 1e3);
	printf("dsl_ms_per_psi=%.2f dsl_over_native=%.2f matches_per_s=%.0f ms_per_1000=%.2f ms_per_psi=%.2f\n",
	       s[2] * 1e3 * per, s[2] / s[1], (double)n / s[0], s[0] * 1e3 * per, s[1] * 1e3 * per);
	rc = CLI_OK;
done:
	ms_cs_dsl_runner_free(run);
	ms_dsl_prog_free(p);
	ms_cs_dsl_free(d);
	return rc;
}

static int cs_cmd_program(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_dsl *d = NULL, *base = NULL;
	ms_dsl_prog *p = NULL, *q = NULL;
	ms_cs_dsl_runner *run = NULL;
	ms_cs_player opp;
	ms_cs_match_options o = { MS_CS_MATCH_OPTIONS_VERSION, a->era, (int)a->cap };
	ms_cs_eval_result r;
	char *text = NULL;
	int rc, searchable;

	if (!a->file)
		return cli_usage_error(CMD, "program needs a FILE (or builtin:ga, builtin:couto)");
	if ((rc = cs_player(ctx, &opp, a->opponent ? a->opponent : "ga", "--opponent")))
		return rc;
	if ((rc = cs_dsl(ctx, a, 1, &d)) || (rc = cs_dsl(ctx, a, 0, &base)))
		goto done;
	if (ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)) || ms_dsl_prog_new(ctx, &q, ms_cs_dsl_grammar(base))) {
		rc = cs_fail(ctx, "program");
		goto done;
	}
	if (cs_read_program(ctx, d, a->file, p)) {
		fprintf(stderr, "microsynth cantstop program: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_USAGE;
		goto done;
	}
	if (ms_dsl_print(p, &text, NULL) || ms_cs_dsl_runner_new(ctx, &run, d) || ms_cs_dsl_runner_load(run, p)) {
		rc = cs_fail(ctx, "program");
		goto done;
	}
	/* In the searches' grammar too? (GA in the DSL is not: spec 9 item 3.) */
	searchable = ms_cs_dsl_parse(base, q, text, strlen(text), MS_CS_NT_START, a->file) == 0;
	printf("%s\n", text);
	memset(&r, 0, sizeof(r));
	rc = ms_cs_dsl_evaluate(run, &o, &opp, (uint64_t)a->seed, 0, a->matches, &r);
	if (rc == MS_ERANGE) {
		/* The program raised: the reference scores it 0. */
		fprintf(stderr, "microsynth cantstop program: %s\n", ms_ctx_last_error(ctx));
		printf("size=%d nodes=%d searchable=%d winrate=0.0000 error=1\n", ms_dsl_size(p), ms_dsl_prog_len(p),
		       searchable);
		rc = CLI_FAIL;
		goto done;
	}
	if (rc) {
		rc = cs_fail(ctx, "program");
		goto done;
	}
	printf("against %s, era %c, %ld matches (the program first in even matches), seed %ld\n",
	       a->opponent ? a->opponent : "ga", a->era == MS_CS_ERA_B ? 'B' : 'A', r.matches, a->seed);
	printf("size=%d nodes=%d searchable=%d wins=%ld draws=%ld winrate=%.4f\n", ms_dsl_size(p), ms_dsl_prog_len(p),
	       searchable, r.wins_a, r.draws, (double)r.wins_a / (double)r.matches);
	rc = CLI_OK;
done:
	if (text)
		ms_ctx_mfree(ctx, text);
	ms_cs_dsl_runner_free(run);
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_cs_dsl_free(d);
	ms_cs_dsl_free(base);
	return rc;
}

static int cs_cmd_random(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_dsl *d = NULL;
	ms_dsl_prog *p = NULL;
	ms_cs_dsl_runner *run = NULL;
	ms_jrandom rng;
	long count = a->count ? a->count : 10, valid = 0, total = 0;
	int rc, max_depth = 0;
	double best = 0;

	if ((rc = cs_dsl(ctx, a, 0, &d)))
		return rc;
	if (ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)) || ms_cs_dsl_runner_new(ctx, &run, d)) {
		rc = cs_fail(ctx, "random");
		goto done;
	}
	ms_jrandom_init(&rng, a->seed);
	for (long k = 0; k < count; k++) {
		char *text = NULL;

		if (ms_cs_dsl_generate(d, p, &rng) || ms_dsl_print(p, &text, NULL)) {
			rc = cs_fail(ctx, "random");
			goto done;
		}
		total += ms_dsl_size(p);
		if (ms_dsl_depth(p) > max_depth)
			max_depth = ms_dsl_depth(p);
		printf("# program %ld: size %d\n%s\n", k, ms_dsl_size(p), text);
		ms_ctx_mfree(ctx, text);
		if (a->have_matches) {
			ms_cs_eval_result r;

			memset(&r, 0, sizeof(r));
			if (ms_cs_dsl_runner_load(run, p)) {
				rc = cs_fail(ctx, "random");
				goto done;
			}
			rc = ms_cs_dsl_evaluate(run, NULL, NULL, (uint64_t)a->seed, 0, a->matches, &r);
			if (rc == 0) {
				double w = (double)r.wins_a / (double)r.matches;

				valid++;
				best = w > best ? w : best;
				printf("# winrate %.4f\n", w);
			} else if (rc == MS_ERANGE) {
				printf("# raises: %s\n", ms_ctx_last_error(ctx));
			} else {
				rc = cs_fail(ctx, "random");
				goto done;
			}
		}
	}
	printf("count=%ld mean_size=%.2f max_depth=%d", count, (double)total / (double)count, max_depth);
	if (a->have_matches)
		printf(" valid=%ld best_winrate=%.4f", valid, best);
	printf("\n");
	rc = CLI_OK;
done:
	ms_cs_dsl_runner_free(run);
	ms_dsl_prog_free(p);
	ms_cs_dsl_free(d);
	return rc;
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
		ms_cs_dataset_free(ds);
		return cs_fail(ctx, "record");
	}
	cs_counts(ds, &p1, &turns1);
	fprintf(a->out ? stdout : stderr, "matches=%d records=%zu records_p1=%ld turns_p1=%ld\n",
		ms_cs_dataset_matches(ds), ms_cs_dataset_size(ds), p1, turns1);
	ms_cs_dataset_free(ds);
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
		ms_cs_dataset_free(ds);
		return cs_fail(ctx, "score");
	}
	cs_counts(ds, &p1, &turns1);
	printf("matches=%d records_p1=%ld turns_p1=%ld observation=%.6f action=%.6f\n", ms_cs_dataset_matches(ds), p1,
	       turns1, obs, act);
	ms_cs_dataset_free(ds);
	return CLI_OK;
}

/* ---- readable programs: simplify and equal (docs/readable-programs.md) ---- */

/* Subtree i of p in the printed form (a program of its slot), from ctx's allocator; NULL if out of memory. */
static char *cs_subtree_text(ms_ctx *ctx, const ms_dsl_prog *p, int i)
{
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	ms_dsl_prog *t = NULL;
	char *text = NULL;
	int ok = ms_dsl_prog_new(ctx, &t, ms_dsl_prog_grammar(p)) == 0;

	for (int k = i; ok && k < ms_dsl_prog_ends(p)[i]; k++)
		ok = ms_dsl_prog_push(t, sym[k]) == 0;
	if (ok && ms_dsl_prog_finish(t, ms_dsl_node_nt(p, i)) == 0)
		ms_dsl_print(t, &text, NULL);
	ms_dsl_prog_free(t);
	return text;
}

/* --verbose: every candidate on stderr, with where a refused one first played differently. */
static void cs_simplify_log(void *ud, const ms_dsl_prog *cur, int at, const ms_dsl_prog *cand,
			    const ms_cs_dsl_diff *diff)
{
	ms_ctx *ctx = ud;
	char *from = cs_subtree_text(ctx, cur, at), *to = cs_subtree_text(ctx, cand, at);

	fprintf(stderr, "%s node %d: %s -> %s%s%s\n", diff ? "refused" : "kept", at, from ? from : "?", to ? to : "?",
		diff ? ": " : "", diff ? diff->message : "");
	ms_ctx_mfree(ctx, from);
	ms_ctx_mfree(ctx, to);
}

static void cs_proof_options(const cs_args *a, const ms_cs_player *opp, ms_cs_dsl_proof_options *o)
{
	memset(o, 0, sizeof *o);
	o->version = MS_CS_DSL_PROOF_OPTIONS_VERSION;
	o->opponent = opp;
	o->matches = a->matches;
	o->seed = (uint64_t)a->seed;
	o->era = a->era;
	o->max_decisions = (int)a->cap;
}

/* The grammar (extended, constants per --ibr) and the opponent of simplify and equal; bad input exits 2. */
static int cs_proof_setup(ms_ctx *ctx, const cs_args *a, const char *what, int files, ms_cs_player *opp,
			  ms_cs_dsl **d)
{
	if (!a->file || (files == 2 && !a->file2))
		return cli_usage_error(CMD, "%s needs %s", what,
				       files == 2 ? "two programs A and B (files or builtin:NAME)"
						  : "a PROGRAM (a file or builtin:NAME)");
	if (!a->opponent)
		return cli_usage_error(CMD, "%s needs --opponent PLAYER (the proof's matches are against it)", what);
	if (cs_player(ctx, opp, a->opponent, "--opponent"))
		return CLI_USAGE;
	return cs_dsl(ctx, a, 1, d);
}

static int cs_read_input(ms_ctx *ctx, const ms_cs_dsl *d, const char *file, const char *what, ms_dsl_prog **p)
{
	if (ms_dsl_prog_new(ctx, p, ms_cs_dsl_grammar(d)))
		return cs_fail(ctx, what);
	if (cs_read_program(ctx, d, file, *p)) {
		fprintf(stderr, "microsynth cantstop %s: %s\n", what, ms_ctx_last_error(ctx));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The '#' header of simplify -o: what was removed and what the proof is. */
static void cs_simplify_header(const cs_args *a, const ms_cs_dsl_simplify_stats *st, char *buf, size_t size)
{
	char cap[48] = "";

	if (a->cap)
		snprintf(cap, sizeof cap, ", cap %ld decisions", a->cap);
	snprintf(buf, size,
		 "simplified by microsynth cantstop simplify (docs/readable-programs.md): %d of %d nodes, size %d of %d,\n"
		 "%d of %d characters; from %s\n"
		 "proof: the %ld matches of one evaluation against %s (seed %ld, era %c%s, the program first in even\n"
		 "matches), replayed with this program, make the same %ld decisions (yes/no answers and column choices,\n"
		 "call by call) and end the same",
		 st->nodes_after, st->nodes_before, st->size_after, st->size_before, st->chars_after, st->chars_before,
		 a->file, st->matches, a->opponent, a->seed, a->era == MS_CS_ERA_B ? 'B' : 'A', cap,
		 st->decisions_compared);
}

static int cs_cmd_simplify(ms_ctx *ctx, const cs_args *a)
{
	ms_cs_dsl *d = NULL;
	ms_dsl_prog *p = NULL;
	ms_cs_player opp;
	ms_cs_dsl_proof_options o;
	ms_cs_dsl_simplify_stats st;
	char *text = NULL, header[1024];
	double t0, dt;
	int rc;

	if ((rc = cs_proof_setup(ctx, a, "simplify", 1, &opp, &d)) || (rc = cs_read_input(ctx, d, a->file, "simplify", &p)))
		goto done;
	cs_proof_options(a, &opp, &o);
	if (a->verbose) {
		o.log = cs_simplify_log;
		o.ud = ctx;
	}
	t0 = cli_now();
	if (ms_cs_dsl_simplify(ctx, d, p, &o, &st) || ms_dsl_print(p, &text, NULL)) {
		rc = cs_fail(ctx, "simplify");
		goto done;
	}
	dt = cli_now() - t0;
	if (st.matches < a->matches)
		fprintf(stderr, "microsynth cantstop simplify: the program raises in match %ld, where the evaluation "
			"stops: the proof covers matches 0..%ld\n", st.matches - 1, st.matches - 1);
	cs_simplify_header(a, &st, header, sizeof header);
	if (a->out && ms_cs_dsl_save(p, a->out, header)) {
		rc = cs_fail(ctx, "simplify");
		goto done;
	}
	printf("%s\n", text);
	printf("nodes_before=%d nodes_after=%d matches=%ld decisions_compared=%ld candidates=%ld kept=%ld seconds=%.2f\n",
	       st.nodes_before, st.nodes_after, st.matches, st.decisions_compared, st.candidates, st.kept, dt);
	rc = CLI_OK;
done:
	if (text)
		ms_ctx_mfree(ctx, text);
	ms_dsl_prog_free(p);
	ms_cs_dsl_free(d);
	return rc;
}

static int cs_cmd_equal(ms_ctx *ctx, const cs_args *a)
{
	static const char *const kinds[4] = { "", "yes/no", "column", "end" };
	ms_cs_dsl *d = NULL;
	ms_dsl_prog *pa = NULL, *pb = NULL;
	ms_cs_player opp;
	ms_cs_dsl_proof_options o;
	ms_cs_dsl_diff df;
	int rc;

	if ((rc = cs_proof_setup(ctx, a, "equal", 2, &opp, &d)) || (rc = cs_read_input(ctx, d, a->file, "equal", &pa)) ||
	    (rc = cs_read_input(ctx, d, a->file2, "equal", &pb)))
		goto done;
	cs_proof_options(a, &opp, &o);
	if (ms_cs_dsl_equal(ctx, d, pa, pb, &o, &df)) {
		rc = cs_fail(ctx, "equal");
		goto done;
	}
	if (df.equal) {
		printf("equal=1 matches=%ld decisions_compared=%ld\n", df.matches, df.decisions_compared);
		rc = CLI_OK;
		goto done;
	}
	if (df.kind == MS_CS_DIFF_END)
		printf("differs: match %ld against %s (A %s): every decision the same, but A: %s; B: %s\n", df.match,
		       a->opponent, df.program_first ? "first" : "second", df.reference, df.candidate);
	else
		printf("differs: match %ld against %s (A %s), decision %ld of the program (%s; decision %ld of the match): "
		       "A %s, B %s\n",
		       df.match, a->opponent, df.program_first ? "first" : "second", df.decision, kinds[df.kind], df.ply,
		       df.reference, df.candidate);
	printf("equal=0 match=%ld decision=%ld decisions_compared=%ld\n", df.match, df.decision, df.decisions_compared);
	rc = CLI_FAIL;
done:
	ms_dsl_prog_free(pa);
	ms_dsl_prog_free(pb);
	ms_cs_dsl_free(d);
	return rc;
}

int cmd_cantstop(int argc, char **argv)
{
	cs_args a;
	ms_ctx *ctx = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	a.matches = 1000;
	if (argc < 2)
		return cli_usage_error(CMD, "needs a subcommand: play, bench, record, score, program, random, simplify or "
					    "equal");
	if ((rc = cs_parse_args(argc - 1, argv + 1, &a)))
		return rc;
	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth cantstop: out of memory\n");
		return CLI_FAIL;
	}
	if (a.file && strcmp(argv[1], "program") && strcmp(argv[1], "simplify") && strcmp(argv[1], "equal"))
		rc = cli_usage_error(CMD, "unexpected argument '%s'", a.file);
	else if (a.file2 && strcmp(argv[1], "equal"))
		rc = cli_usage_error(CMD, "unexpected argument '%s'", a.file2);
	else if (!strcmp(argv[1], "play"))
		rc = cs_cmd_play(ctx, &a);
	else if (!strcmp(argv[1], "bench"))
		rc = cs_cmd_bench(ctx, &a);
	else if (!strcmp(argv[1], "record"))
		rc = cs_cmd_record(ctx, &a);
	else if (!strcmp(argv[1], "score"))
		rc = cs_cmd_score(ctx, &a);
	else if (!strcmp(argv[1], "program"))
		rc = cs_cmd_program(ctx, &a);
	else if (!strcmp(argv[1], "random"))
		rc = cs_cmd_random(ctx, &a);
	else if (!strcmp(argv[1], "simplify"))
		rc = cs_cmd_simplify(ctx, &a);
	else if (!strcmp(argv[1], "equal"))
		rc = cs_cmd_equal(ctx, &a);
	else
		rc = cli_usage_error(CMD,
				     "unknown subcommand '%s' (play, bench, record, score, program, random, simplify, equal)",
				     argv[1]);
	ms_ctx_free(ctx);
	return rc;
}
