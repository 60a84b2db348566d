/*
 * The Planet Wars GA: a run is the same for a seed whatever the thread
 * count, differs with the seed, resumes exactly from a generation's
 * population and generator; games in parallel equal games one by one;
 * bad options are refused; checkpoints read back exactly and damaged ones
 * are refused.
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "microsynth/planetwars.h"

#define G MS_PW_FORECAST_PARAMS

static ms_ctx *ctx;
static ms_pw_state *maps[6];
static int nmaps;

/* Small hand-made maps: the GA needs no reference data. */
static int setup(void **state)
{
	if (ms_ctx_new(&ctx, NULL))
		return -1;
	for (int m = 0; m < 6; m++) {
		char text[1024];
		int n = 0;
		n += snprintf(text + n, sizeof text - n, "P 0 0 1 100 5\nP %d %d 2 100 5\n", 20 + m, 16 - m);
		for (int i = 0; i < 6; i++)
			n += snprintf(text + n, sizeof text - n, "P %d %d 0 %d %d\n", 3 + 2 * i + m, 9 - i, 5 + 7 * i,
				      1 + (i + m) % 5);
		if (ms_pw_state_parse(ctx, &maps[m], text, "ga map"))
			return -1;
	}
	nmaps = 6;
	return 0;
}

static int teardown(void **state)
{
	for (int m = 0; m < nmaps; m++)
		ms_pw_state_free(maps[m]);
	ms_ctx_free(ctx);
	return 0;
}

static void small(ms_pw_ga_options *o, int threads, uint64_t seed)
{
	ms_pw_ga_options_init(o, MS_PW_GA_OPTIONS_VERSION);
	o->population = 8;
	o->players = 3;
	o->maps_per_pair = 2;
	o->champions = 3;
	o->crossovers = 5;
	o->eval_maps = 2;
	o->max_turns = 60;
	o->threads = threads;
	o->seed = seed;
}

typedef struct trace {
	double vs[8], rate[8];
	int best[8], n;
} trace;

static int record(void *ud, const ms_pw_ga_generation *g)
{
	trace *t = ud;
	t->vs[t->n] = g->vs_original;
	t->rate[t->n] = g->best_rate;
	t->best[t->n] = g->best;
	t->n++;
	return 0;
}

static void run(int threads, uint64_t seed, int gens, double *pop, uint64_t rng[4], trace *t)
{
	ms_pw_ga_options o;
	small(&o, threads, seed);
	memset(rng, 0, 4 * sizeof(uint64_t));
	ms_pw_ga_seed(rng, seed);
	ms_pw_ga_init_population(&o, rng, pop);
	memset(t, 0, sizeof *t);
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, pop, rng, 0, gens, record, t),
			 MS_OK);
	assert_int_equal(t->n, gens);
}

static void test_pw_ga__same_run_whatever_the_threads(void **state)
{
	double p1[8 * G], p3[8 * G], p9[8 * G];
	uint64_t r1[4], r3[4], r9[4];
	trace t1, t3, t9;
	run(1, 11, 3, p1, r1, &t1);
	run(3, 11, 3, p3, r3, &t3);
	assert_memory_equal(p1, p3, sizeof p1);
	assert_memory_equal(r1, r3, sizeof r1);
	assert_memory_equal(&t1, &t3, sizeof t1);
	run(1, 12, 3, p9, r9, &t9);
	assert_memory_not_equal(p1, p9, sizeof p1);
}

static void test_pw_ga__resume_from_a_generation_is_exact(void **state)
{
	double whole[8 * G], part[8 * G];
	uint64_t rw[4], rp[4];
	trace tw, tp;
	run(2, 5, 3, whole, rw, &tw);
	run(2, 5, 1, part, rp, &tp);
	ms_pw_ga_options o;
	small(&o, 1, 5);
	trace rest = { 0 };
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, part, rp, 1, 2, record, &rest),
			 MS_OK);
	assert_memory_equal(whole, part, sizeof whole);
	assert_memory_equal(rw, rp, sizeof rw);
	assert_true(rest.vs[1] == tw.vs[2]);
}

static void test_pw_ga__parallel_games_equal_sequential_ones(void **state)
{
	const double *orig = ms_pw_forecast_original();
	double other[G];
	for (int i = 0; i < G; i++)
		other[i] = (i * 37 % 11) / 5.0 - 1;
	int map[12], w[12];
	const double *a[12], *b[12];
	for (int k = 0; k < 12; k++) {
		map[k] = k % nmaps;
		a[k] = k % 2 ? orig : other;
		b[k] = k % 2 ? other : orig;
	}
	assert_int_equal(ms_pw_play_many(ctx, (const ms_pw_state *const *)maps, map, a, b, 12, 200, 4, w), MS_OK);
	for (int k = 0; k < 12; k++) {
		ms_pw_bot x, y;
		ms_pw_result r;
		assert_int_equal(ms_pw_bot_forecast(ctx, &x, a[k]), MS_OK);
		assert_int_equal(ms_pw_bot_forecast(ctx, &y, b[k]), MS_OK);
		assert_int_equal(ms_pw_play(ctx, maps[map[k]], &x, &y, 200, NULL, NULL, &r), MS_OK);
		assert_int_equal(r.winner, w[k]);
		ms_pw_bot_release(ctx, &x);
		ms_pw_bot_release(ctx, &y);
	}
}

static void test_pw_ga__bad_options_are_refused(void **state)
{
	ms_pw_ga_options o;
	double pop[8 * G];
	uint64_t rng[4] = { 0, 0, 0, 0 };
	small(&o, 1, 1);
	o.crossovers = 3; /* 6 children < population 8 */
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, pop, rng, 0, 1, NULL, NULL),
			 MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "crossovers"));
	small(&o, 1, 1);
	o.maps_per_pair = 7;
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, pop, rng, 0, 1, NULL, NULL),
			 MS_EINVAL);
	small(&o, 1, 1);
	o.players = 9;
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, pop, rng, 0, 1, NULL, NULL),
			 MS_EINVAL);
	small(&o, 1, 1);
	o.version = 99;
	assert_int_equal(ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)maps, nmaps, pop, rng, 0, 1, NULL, NULL),
			 MS_EINVAL);
}

/* A checkpoint reads back bit for bit; damaged ones are refused by line, leaving the population untouched. */
static void test_pw_ga__checkpoint_reads_back_and_refuses_damage(void **state)
{
	double pop[3 * G], back[3 * G];
	uint64_t rng[4] = { 1, 2, 3, 0xfedcba9876543210ull }, rb[4];
	int gen = -1;
	char path[] = "pw_ga_checkpoint_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	for (int i = 0; i < 3 * G; i++)
		pop[i] = (i % 7) / 3.0 - 1e-7 * i;
	assert_int_equal(ms_pw_ga_checkpoint_write(ctx, path, 4, 3, pop, rng), MS_OK);
	assert_int_equal(ms_pw_ga_checkpoint_load(ctx, path, 3, &gen, back, rb), MS_OK);
	assert_int_equal(gen, 4);
	assert_memory_equal(pop, back, sizeof pop);
	assert_memory_equal(rng, rb, sizeof rng);
	assert_int_equal(ms_pw_ga_checkpoint_load(ctx, path, 5, &gen, back, rb), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "population of 5"));
	remove(path);

	static const char *const bad[] = {
		"population 1\nrng 1 2 3 4\n0 1\n",			/* no generation */
		"generation 0\npopulation 1\nrng 1 2 3\n0\n",		/* a short rng line */
		"generation 0\npopulation 1\nrng 1 2 3 4\n0 1 x\n",	/* not a number */
		"generation 0\npopulation 1\nrng 1 2 3 4\n",		/* no rows */
		"generation 0\npopulation 1\nrng 1 2 3 4\nnan\n",	/* not finite */
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		double one[G];
		for (int i = 0; i < G; i++)
			one[i] = 42;
		int rc = ms_pw_ga_checkpoint_parse(ctx, bad[k], strlen(bad[k]), "t", 1, &gen, one, rb);
		assert_true(rc == MS_EPARSE || rc == MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "GA checkpoint t"));
		for (int i = 0; i < G; i++)
			assert_true(one[i] == 42);
	}
	/* a whole row but one number too many */
	char text[4096];
	int n = snprintf(text, sizeof text, "generation 2\npopulation 1\nrng 1 2 3 4\n");
	for (int i = 0; i <= G; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "%d ", i);
	double one[G];
	assert_int_equal(ms_pw_ga_checkpoint_parse(ctx, text, (size_t)n, "t", 1, &gen, one, rb), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "t:4"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pw_ga__same_run_whatever_the_threads),
		cmocka_unit_test(test_pw_ga__resume_from_a_generation_is_exact),
		cmocka_unit_test(test_pw_ga__parallel_games_equal_sequential_ones),
		cmocka_unit_test(test_pw_ga__bad_options_are_refused),
		cmocka_unit_test(test_pw_ga__checkpoint_reads_back_and_refuses_damage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
