/*
 * Hierarchical synthesis search (native/synth/hss.c) on the toy problem
 * with two features (the program's value at 0 and its slope between 0 and
 * 1, both clamped into 0..7), and Can't Stop's features and program
 * opponents (cantstop_synth.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toy.h"
#include "microsynth/cantstop_synth.h"

static const int toy_values[2] = { 8, 8 };

static int clamp8(double v)
{
	return v < 0 ? 0 : v > 7 ? 7 : (int)v;
}

static int toy_features(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int opponent, uint64_t seed,
			int *out, int n)
{
	(void)user, (void)state, (void)ctx, (void)opponent, (void)seed;
	double a = toy_run(p, 0, 0), b = toy_run(p, 0, 1);
	if (!(fabs(a) <= 1e9) || !(fabs(b) <= 1e9))
		return MS_SYNTH_FAILED;
	assert_int_equal(n, 2);
	out[0] = clamp8(a);
	out[1] = clamp8(b - a);
	return 0;
}

typedef struct fixture {
	ms_ctx *ctx;
	toy t;
	ms_synth_problem pb;
	char lib[64], ckpt[64];
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f || ms_ctx_new(&f->ctx, NULL) || toy_problem(f->ctx, &f->t, &f->pb))
		return -1;
	f->t.noisy = 1;
	f->t.points = 4;
	f->pb.n_features = 2;
	f->pb.feature_values = toy_values;
	f->pb.features = toy_features;
	snprintf(f->lib, sizeof f->lib, "hss_lib_%ld.txt", (long)getpid());
	snprintf(f->ckpt, sizeof f->ckpt, "hss_ckpt_%ld.log", (long)getpid());
	remove(f->lib);
	remove(f->ckpt);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	remove(f->lib);
	remove(f->ckpt);
	ms_dsl_grammar_free(f->t.g);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static void hss_opts(ms_synth_options *o, long long evals, int threads)
{
	ms_synth_options_init(o, MS_SYNTH_OPTIONS_VERSION);
	o->algo = MS_SYNTH_HSS;
	o->seed = 11;
	o->max_evals = evals;
	o->threads = threads;
	o->hss_switch = 3;
}

/* Runs a search; its best program's tokens into *tokens (caller frees with free()), its score returned. */
static double run(fixture *f, const ms_synth_options *o, int want_rc, char **tokens)
{
	ms_synth *s;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, o), 0);
	assert_int_equal(ms_synth_run(s), want_rc);
	double score = ms_synth_best_score(s, MS_SYNTH_PSI);
	if (tokens) {
		char *t;
		assert_int_equal(ms_dsl_print_tokens(ms_synth_best(s, MS_SYNTH_PSI), ' ', &t, NULL), 0);
		*tokens = strdup(t);
		ms_ctx_mfree(f->ctx, t);
	}
	ms_synth_free(s);
	return score;
}

static long count_lines(const char *path)
{
	FILE *fp = fopen(path, "r");
	long n = 0;
	int c;
	assert_non_null(fp);
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

static void test_hss__is_in_the_table(void **state)
{
	(void)state;
	assert_int_equal(ms_synth_algo_from_name("hss"), MS_SYNTH_HSS);
	assert_string_equal(ms_synth_algo_name(MS_SYNTH_HSS), "hss");
}

static void test_hss__needs_features_and_sane_settings(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	ms_synth *s;
	hss_opts(&o, 100, 1);
	f->pb.n_features = 0;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "features"));
	f->pb.n_features = 2;
	f->pb.version = 2; /* a version-2 problem has no feature fields to read */
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	f->pb.version = MS_SYNTH_PROBLEM_VERSION;
	o.hss_gamma = 0;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	hss_opts(&o, 100, 1);
	o.hss_eps2[1] = 1.5;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	/* version 2 still runs SA */
	f->pb.version = 2;
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.max_evals = 50;
	assert_true(run(f, &o, 0, NULL) >= 0);
	f->pb.version = MS_SYNTH_PROBLEM_VERSION;
}

/* The same seed and evaluation budget give the same program on 1 and 2 threads, and it improves on SA's start. */
static void test_hss__is_deterministic_across_thread_counts(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	char *a, *b;
	hss_opts(&o, 3000, 1);
	double sa = run(f, &o, 0, &a);
	hss_opts(&o, 3000, 2);
	double sb = run(f, &o, 0, &b);
	assert_string_equal(a, b);
	assert_true(sa == sb);
	assert_true(sa > 0.3);
	free(a);
	free(b);
}

/* The library is written, read back by a later search (transfer), and bad files are named. */
static void test_hss__library_transfers_between_calls(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	hss_opts(&o, 1500, 1);
	o.hss_library = f->lib;
	run(f, &o, 0, NULL);
	long n1 = count_lines(f->lib);
	assert_true(n1 > 3 + 2);
	/* a second call starts from the library: its programs are all kept */
	hss_opts(&o, 300, 1);
	o.seed = 12;
	o.hss_library = f->lib;
	run(f, &o, 0, NULL);
	assert_true(count_lines(f->lib) >= n1);

	FILE *fp = fopen(f->lib, "w");
	assert_non_null(fp);
	fputs("microsynth-hss-library 1\ngrammar toy\nfeatures 2\n0.5 3 9 Num 1\n", fp);
	fclose(fp);
	ms_synth *s;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
	assert_int_equal(ms_synth_run(s), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), ":4:"));
	ms_synth_free(s);
	fp = fopen(f->lib, "w");
	fputs("not a library\n", fp);
	fclose(fp);
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
	assert_int_equal(ms_synth_run(s), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), f->lib));
	ms_synth_free(s);
}

static int stop_at(void *ud, const ms_synth_stats *st)
{
	return st->evals_psi >= *(long long *)ud;
}

/* Killed (stopped) and resumed, HSS ends with what an uninterrupted run gives; another library is refused. */
static void test_hss__resumes_from_its_checkpoint(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	char *whole, *resumed;
	long long at = 700;
	hss_opts(&o, 2000, 1);
	double w = run(f, &o, 0, &whole);

	hss_opts(&o, 2000, 2);
	o.checkpoint = f->ckpt;
	o.progress = stop_at;
	o.progress_ud = &at;
	run(f, &o, MS_SYNTH_STOPPED, NULL);
	o.progress = NULL;
	o.resume = 1;
	double r = run(f, &o, 0, &resumed);
	assert_string_equal(whole, resumed);
	assert_true(w == r);
	free(whole);
	free(resumed);

	/* a library appearing since makes the settings differ */
	FILE *fp = fopen(f->lib, "w");
	fputs("microsynth-hss-library 1\ngrammar toy\nfeatures 2\n", fp);
	fclose(fp);
	o.hss_library = f->lib;
	ms_synth *s;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
}

/* ---- self-play on the toy: opponent 0 asks for 5x + 11, program opponent j for its own function + 1 ---- */

typedef struct toy_pool {
	toy *t;
	ms_synth_problem pb;
	ms_dsl_prog **progs;
	int n;
} toy_pool;

static int pool_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int opponent, int shard,
		     uint64_t seed, double *sum, double *weight)
{
	const toy_pool *tp = user;
	(void)state, (void)ctx, (void)seed, (void)kind;
	*sum = *weight = 0;
	for (int j = shard; j < 17; j += 4) {
		double x = -8.0 + j, want = opponent == 0 ? 5 * x + 11 : toy_run(tp->progs[opponent - 1], 0, x) + 1;
		double v = toy_run(p, 0, x);
		if (!(fabs(v) <= 1e9))
			return MS_SYNTH_FAILED;
		*sum += 1.0 / (1.0 + 4 * fabs(v - want) / (1 + fabs(want)));
		*weight += 1;
	}
	return 0;
}

typedef struct log_pop {
	int n[8];
	int id[8][8];
	char prog[8][256];
	int threads_seen;
} log_pop;

static int pool_make(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		     void **handle)
{
	fixture *f = ud;
	toy_pool *tp = calloc(1, sizeof *tp);
	assert_non_null(tp);
	tp->t = &f->t;
	tp->pb = f->pb;
	tp->pb.eval = NULL;
	tp->pb.has_c = 0;
	tp->pb.n_opponents = n + 1;
	tp->pb.eval_vs = pool_eval;
	tp->pb.user = tp;
	tp->progs = calloc((size_t)(n + 1), sizeof *tp->progs);
	for (int j = 0; j < n; j++)
		assert_int_equal(ms_dsl_prog_clone(&tp->progs[j], progs[j]), 0);
	tp->n = n;
	(void)ctx;
	*pb = &tp->pb;
	*handle = tp;
	return 0;
}

static void pool_release(void *ud, void *handle)
{
	toy_pool *tp = handle;
	(void)ud;
	for (int j = 0; j < tp->n; j++)
		ms_dsl_prog_free(tp->progs[j]);
	free(tp->progs);
	free(tp);
}

static int pool_iteration(void *ud, const ms_synth_selfplay_iter *it)
{
	log_pop *lp = ud;
	char *t;
	lp->n[it->iteration] = it->pop->n;
	for (int i = 0; i < it->pop->n; i++)
		lp->id[it->iteration][i] = it->pop->opponents[i];
	assert_int_equal(ms_dsl_print_tokens(it->prog, ' ', &t, NULL), 0);
	snprintf(lp->prog[it->iteration], sizeof lp->prog[0], "%s", t);
	ms_ctx_mfree(ms_dsl_prog_ctx(it->prog), t);
	return 0;
}

static void run_loop(fixture *f, int loop, int threads, double fixed_weight, const char *dir, int resume, log_pop *lp)
{
	ms_synth_selfplay_game g = { f, 1, pool_make, pool_release };
	ms_synth_selfplay_options o;
	ms_dsl_prog *progs[5];
	memset(lp, 0, sizeof *lp);
	ms_synth_selfplay_options_init(&o, MS_SYNTH_SELFPLAY_OPTIONS_VERSION);
	o.loop = loop;
	o.iterations = 5;
	o.fixed_weight = fixed_weight;
	o.br.seed = 3;
	o.br.max_evals = 400;
	o.br.threads = threads;
	o.l2_programs = 6;
	o.checkpoint_dir = dir;
	o.resume = resume;
	o.on_iteration = pool_iteration;
	o.ud = lp;
	for (int i = 0; i < 5; i++)
		assert_int_equal(ms_dsl_prog_new(f->ctx, &progs[i], f->t.g), 0);
	assert_int_equal(ms_synth_selfplay(f->ctx, &g, &o, progs), 0);
	for (int i = 0; i < 5; i++)
		ms_dsl_prog_free(progs[i]);
}

static void test_selfplay__loops_answer_their_populations(void **state)
{
	fixture *f = *state;
	log_pop a, b;
	f->t.noisy = 0;
	run_loop(f, MS_SYNTH_LOOP_IBR, 1, 0, NULL, 0, &a);
	assert_int_equal(a.n[0], 1);
	assert_int_equal(a.id[0][0], 0);
	for (int i = 1; i < 5; i++) {
		assert_int_equal(a.n[i], 1);
		assert_int_equal(a.id[i][0], 1 + (i - 1));
	}
	run_loop(f, MS_SYNTH_LOOP_FP, 1, 0.5, NULL, 0, &a);
	for (int i = 1; i < 5; i++) {
		assert_int_equal(a.n[i], 1 + i); /* GA-like fixed opponent, then every earlier program */
		assert_int_equal(a.id[i][0], 0);
	}
	run_loop(f, MS_SYNTH_LOOP_2L, 1, 0, NULL, 0, &a);
	for (int i = 1; i < 5; i++) {
		assert_true(a.n[i] >= 1 && a.n[i] <= i);
		assert_int_equal(a.id[i][0], 1 + (i - 1)); /* always the previous program first */
	}
	/* the same on 2 threads */
	run_loop(f, MS_SYNTH_LOOP_2L, 2, 0, NULL, 0, &b);
	assert_memory_equal(&a, &b, sizeof a);
}

static void test_selfplay__resumes_from_its_logs(void **state)
{
	fixture *f = *state;
	log_pop a, b;
	char dir[64];
	snprintf(dir, sizeof dir, "hss_sp_%ld", (long)getpid());
	assert_int_equal(mkdir(dir, 0777), 0);
	run_loop(f, MS_SYNTH_LOOP_2L, 2, 0, dir, 0, &a);
	/* a second run replays every iteration from the logs and ends the same */
	run_loop(f, MS_SYNTH_LOOP_2L, 1, 0, dir, 1, &b);
	assert_memory_equal(&a, &b, sizeof a);
	for (int i = 0; i < 5; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s/iter-%03d.log", dir, i);
		assert_int_equal(remove(path), 0);
	}
	rmdir(dir);
}

/* ---- Can't Stop ---- */

static void test_cs_features__are_in_range_deterministic_and_fail_with_the_program(void **state)
{
	(void)state;
	ms_ctx *ctx;
	ms_cs_synth *cs;
	ms_cs_synth_options po;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	int a[MS_CS_FEATURES], b[MS_CS_FEATURES];
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	ms_cs_synth_options_init(&po, MS_CS_SYNTH_OPTIONS_VERSION);
	po.matches = 100;
	assert_int_equal(ms_cs_synth_new(ctx, &cs, &po), 0);
	const ms_synth_problem *pb = ms_cs_synth_problem(cs);
	assert_int_equal(pb->n_features, MS_CS_FEATURES);
	const ms_cs_dsl *d = ms_cs_synth_dsl(cs);
	const char *couto = ms_cs_dsl_builtin("couto");
	assert_int_equal(ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)), 0);
	assert_int_equal(ms_cs_dsl_parse(d, p, couto, strlen(couto), MS_CS_NT_START, "couto"), 0);
	assert_int_equal(ms_synth_eval_new(ctx, &ev, pb, 1, NULL), 0);
	assert_int_equal(ms_synth_eval_features(ev, p, -1, 5, a), 0);
	assert_int_equal(ms_synth_eval_features(ev, p, -1, 5, b), 0);
	assert_memory_equal(a, b, sizeof a);
	for (int j = 0; j < MS_CS_FEATURES; j++)
		assert_true(a[j] >= 0 && a[j] < pb->feature_values[j]);
	/* the published program rolls on more often than it stops, and moves more than once a turn */
	assert_true(a[0] >= 5);
	assert_true(a[5] >= 1);
	assert_int_equal(ms_synth_eval_features(ev, p, 3, 5, a), MS_EINVAL);

	/* a column program that gives a float cannot index the actions: no features */
	static const char bad[] = "yes-no: 1\ncolumn: sum(local_list)\n";
	ms_dsl_prog *q;
	assert_int_equal(ms_dsl_prog_new(ctx, &q, ms_cs_dsl_grammar(d)), 0);
	if (ms_cs_dsl_parse(d, q, bad, strlen(bad), MS_CS_NT_START, "bad") == 0)
		assert_int_equal(ms_synth_eval_features(ev, q, -1, 5, a), MS_SYNTH_FAILED);
	ms_dsl_prog_free(q);

	/* against itself as a program opponent the published program wins about half, and GA is opponent 0 */
	ms_cs_synth_vs *vs;
	const ms_dsl_prog *opp[1] = { p };
	assert_int_equal(ms_cs_synth_vs_new(ctx, &vs, cs, opp, 1), 0);
	const ms_synth_problem *vp = ms_cs_synth_vs_problem(vs);
	assert_int_equal(vp->n_opponents, 2);
	ms_synth_eval *ve;
	assert_int_equal(ms_synth_eval_new(ctx, &ve, vp, 2, NULL), 0);
	int self = 1, ga = 0;
	ms_synth_population pop_self = { 1, &self, NULL }, pop_ga = { 1, &ga, NULL };
	uint64_t seed = 9;
	double vs_self, vs_ga, base;
	const ms_dsl_prog *one[1] = { p };
	assert_int_equal(ms_synth_eval_set_population(ve, &pop_self), 0);
	assert_int_equal(ms_synth_eval_programs(ve, one, 1, MS_SYNTH_PSI, &seed, &vs_self, NULL, NULL, NULL), 0);
	assert_int_equal(ms_synth_eval_set_population(ve, &pop_ga), 0);
	assert_int_equal(ms_synth_eval_programs(ve, one, 1, MS_SYNTH_PSI, &seed, &vs_ga, NULL, NULL, NULL), 0);
	assert_int_equal(ms_synth_eval_programs(ev, one, 1, MS_SYNTH_PSI, &seed, &base, NULL, NULL, NULL), 0);
	assert_true(vs_ga == base);
	assert_true(vs_self > 0.35 && vs_self < 0.65);
	assert_non_null(strstr(vp->fingerprint, "opponents=ga,"));
	ms_synth_eval_free(ve);
	ms_cs_synth_vs_free(vs);

	ms_synth_eval_free(ev);
	ms_dsl_prog_free(p);
	ms_cs_synth_free(cs);
	ms_ctx_free(ctx);
}

/* Counts programs of 30 drawn by the problem's generator that fail a 20-match Psi. */
static int count_failing(ms_ctx *ctx, long probe)
{
	ms_cs_synth *cs;
	ms_cs_synth_options po;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	ms_jrandom rng;
	int failing = 0;
	ms_cs_synth_options_init(&po, MS_CS_SYNTH_OPTIONS_VERSION);
	po.matches = 20;
	po.probe_matches = probe;
	assert_int_equal(ms_cs_synth_new(ctx, &cs, &po), 0);
	const ms_synth_problem *pb = ms_cs_synth_problem(cs);
	assert_non_null(strstr(pb->fingerprint, probe ? " probe=" : "cantstop"));
	assert_int_equal(ms_synth_eval_new(ctx, &ev, pb, 1, NULL), 0);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, pb->grammar), 0);
	ms_jrandom_init(&rng, 42);
	for (int i = 0; i < 30; i++) {
		const ms_dsl_prog *one[1] = { p };
		uint64_t seed = (uint64_t)i;
		double sc;
		int failed;
		assert_int_equal(i % 2 ? pb->mutate(pb->user, p, &rng) : pb->generate(pb->user, p, &rng), 0);
		assert_int_equal(ms_synth_eval_programs(ev, one, 1, MS_SYNTH_PSI, &seed, &sc, &failed, NULL, NULL), 0);
		failing += failed;
	}
	ms_dsl_prog_free(p);
	ms_synth_eval_free(ev);
	ms_cs_synth_free(cs);
	return failing;
}

static void test_cs_probe__generation_and_mutation_avoid_failing_programs(void **state)
{
	(void)state;
	ms_ctx *ctx;
	ms_cs_synth *cs;
	ms_cs_synth_options po;
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	int plain = count_failing(ctx, 0), probed = count_failing(ctx, 4);
	assert_true(plain >= 15); /* most programs of the grammar fail */
	assert_true(probed <= 5);
	ms_cs_synth_options_init(&po, MS_CS_SYNTH_OPTIONS_VERSION);
	po.probe_matches = -1;
	assert_int_equal(ms_cs_synth_new(ctx, &cs, &po), MS_EINVAL);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hss__is_in_the_table),
		cmocka_unit_test_setup_teardown(test_hss__needs_features_and_sane_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hss__is_deterministic_across_thread_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hss__library_transfers_between_calls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hss__resumes_from_its_checkpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selfplay__loops_answer_their_populations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selfplay__resumes_from_its_logs, setup, teardown),
		cmocka_unit_test(test_cs_features__are_in_range_deterministic_and_fail_with_the_program),
		cmocka_unit_test(test_cs_probe__generation_and_mutation_avoid_failing_programs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
