/*
 * The MicroRTS DSL grammar, its reference sampler (spec 13.2) and SL's
 * mutation on a correct pre-order index (13.3).
 */
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>

#include "microsynth/rts_dsl.h"

typedef struct env {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
} env;

static void env_init(env *e, unsigned flags)
{
	assert_int_equal(ms_ctx_new(&e->ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(e->ctx, &e->g, flags), MS_OK);
	assert_int_equal(ms_dsl_prog_new(e->ctx, &e->p, e->g), MS_OK);
}

static void env_free(env *e)
{
	ms_dsl_prog_free(e->p);
	ms_dsl_grammar_free(e->g);
	ms_ctx_free(e->ctx);
}

static int count_op(const ms_dsl_prog *p, int lo, int hi)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	int n = 0;
	for (int i = 0; i < ms_dsl_prog_len(p); i++) {
		int op = ms_dsl_prod_op(g, ms_dsl_prog_nodes(p)[i]);
		n += op >= lo && op <= hi;
	}
	return n;
}

static void test_rts_dsl_gen__grammar_table(void **state)
{
	env e;
	int n;
	(void)state;
	env_init(&e, 0);
	assert_string_equal(ms_dsl_grammar_name(e.g), "microrts-A");
	assert_true(ms_rts_dsl_grammar_is(e.g));
	assert_int_equal(ms_dsl_nt_count(e.g), 8);
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "S"), &n);
	assert_int_equal(n, 6);
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "C"), &n);
	assert_int_equal(n, 7);
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "B"), &n);
	assert_int_equal(n, 14);
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "N"), &n);
	assert_int_equal(n, 16);
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "Op"), &n);
	assert_int_equal(n, 7);
	assert_int_equal(ms_dsl_prod_find(e.g, "Not"), MS_ENOTFOUND);
	assert_int_equal(ms_dsl_prod_op(e.g, ms_dsl_prod_find(e.g, "25")), MS_RTS_DSL_VAL_N | 25);
	env_free(&e);
	env_init(&e, MS_RTS_DSL_GRAMMAR_NOT);
	assert_string_equal(ms_dsl_grammar_name(e.g), "microrts-A+not");
	ms_dsl_nt_alts(e.g, ms_dsl_nt_find(e.g, "B"), &n);
	assert_int_equal(n, 15);
	assert_true(ms_dsl_prod_find(e.g, "Not") >= 0);
	env_free(&e);
	{
		ms_ctx *ctx;
		ms_dsl_grammar *g = NULL;
		assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0x100), MS_EINVAL);
		assert_null(g);
		ms_ctx_free(ctx);
	}
}

/* sample_S(b): at most b commands, e only below 1, no Random unless asked,
 * every kind of statement reachable from b = 4, reproducible by seed. */
static void test_rts_dsl_gen__budgeted_sampler(void **state)
{
	env e;
	ms_jrandom rng;
	int seen[8] = { 0 }, random_ops = 0;
	(void)state;
	env_init(&e, 0);
	ms_jrandom_init(&rng, 7);
	for (int b = 0; b <= 9; b++)
		for (int k = 0; k < 400; k++) {
			int cmds;
			assert_int_equal(ms_rts_dsl_generate(e.p, &rng, b == 0 ? -1 : b), MS_OK);
			cmds = count_op(e.p, MS_RTS_DSL_ATTACK, MS_RTS_DSL_TRAIN);
			if (b > 0) {
				assert_true(cmds <= b);
				assert_true(cmds >= 1); /* every branch ends in a command */
				assert_int_equal(count_op(e.p, MS_RTS_DSL_S_EMPTY, MS_RTS_DSL_S_EMPTY), 0);
			} else {
				assert_true(cmds <= 8);
			}
			if (b == 1)
				assert_int_equal(ms_dsl_prod_op(e.g, ms_dsl_prog_nodes(e.p)[0]), MS_RTS_DSL_S_C);
			if (b == 4)
				seen[ms_dsl_prod_op(e.g, ms_dsl_prog_nodes(e.p)[0])]++;
			for (int i = 0; i < ms_dsl_prog_len(e.p); i++)
				random_ops += ms_dsl_prod_op(e.g, ms_dsl_prog_nodes(e.p)[i]) ==
					      (MS_RTS_DSL_VAL_OP | 6);
		}
	for (int op = MS_RTS_DSL_S_C; op <= MS_RTS_DSL_S_IFELSE; op++)
		assert_true(seen[op] > 40); /* 1/5 of 400 each */
	assert_int_equal(random_ops, 0);
	{
		ms_dsl_prog *q;
		ms_jrandom a, b;
		ms_jrandom_init(&a, 99);
		ms_jrandom_init(&b, 99);
		assert_int_equal(ms_dsl_prog_new(e.ctx, &q, e.g), MS_OK);
		for (int k = 0; k < 50; k++) {
			assert_int_equal(ms_rts_dsl_generate(e.p, &a, 0), MS_OK);
			assert_int_equal(ms_rts_dsl_generate(q, &b, 0), MS_OK);
			assert_true(ms_dsl_equal(e.p, q));
		}
		ms_dsl_prog_free(q);
	}
	env_free(&e);
	env_init(&e, MS_RTS_DSL_GRAMMAR_GEN_RANDOM);
	for (int k = 0; k < 2000 && !random_ops; k++) {
		assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 9), MS_OK);
		for (int i = 0; i < ms_dsl_prog_len(e.p); i++)
			random_ops += ms_dsl_prod_op(e.g, ms_dsl_prog_nodes(e.p)[i]) == (MS_RTS_DSL_VAL_OP | 6);
	}
	assert_true(random_ops > 0);
	env_free(&e);
}

/* The node a mutation picks follows SL's weights: here For 4, S_S 4, the
 * Build statement 6, Build 4, the Idle statement 6, Idle and the values 0. */
static void test_rts_dsl_gen__mutation_follows_the_reference_weights(void **state)
{
	static const char *const text = "for(Unit u){u.build(Barracks,Right,1) u.idle()}";
	static const int weight[9] = { 4, 4, 6, 4, 0, 0, 0, 6, 0 };
	env e;
	ms_jrandom rng;
	int hits[9] = { 0 }, draws = 24000;
	(void)state;
	env_init(&e, 0);
	ms_jrandom_init(&rng, 5);
	for (int k = 0; k < draws; k++) {
		int at = -1;
		assert_int_equal(ms_rts_dsl_parse(e.p, NULL, text, strlen(text), 0), MS_OK);
		assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, &at), MS_OK);
		assert_true(at >= 0 && at < 9);
		hits[at]++;
	}
	for (int i = 0; i < 9; i++) {
		double expect = draws * weight[i] / 24.0, sd = sqrt(expect * (1 - weight[i] / 24.0));
		if (fabs(hits[i] - expect) > 5 * sd + 0.5)
			fail_msg("node %d mutated %d times, expected about %.0f", i, hits[i], expect);
	}
	env_free(&e);
}

/* What each slot does: a Build parameter slot changes at most that
 * parameter; statements grow by wrapping; programs stay well formed. */
static void test_rts_dsl_gen__mutation_effects(void **state)
{
	env e;
	ms_jrandom rng;
	int grew = 0, param_only = 0;
	(void)state;
	env_init(&e, 0);
	ms_jrandom_init(&rng, 11);
	for (int k = 0; k < 3000; k++) {
		int at = -1, before;
		const char *text = "for(Unit u){u.train(Ranged,Left,15)}";
		assert_int_equal(ms_rts_dsl_parse(e.p, NULL, text, strlen(text), 0), MS_OK);
		before = ms_dsl_prog_len(e.p);
		assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, &at), MS_OK);
		if (at == 2) {
			/* Train itself: only parameters change, the shape stays */
			const ms_dsl_sym *n = ms_dsl_prog_nodes(e.p);
			assert_int_equal(ms_dsl_prog_len(e.p), before);
			assert_string_equal(ms_dsl_prod_name(e.g, n[0]), "For_S");
			assert_string_equal(ms_dsl_prod_name(e.g, n[2]), "Train");
			param_only++;
		}
		grew += ms_dsl_prog_len(e.p) > before;
	}
	assert_true(param_only > 300);
	assert_true(grew > 300);
	/* a long walk stays well formed and printable */
	assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 5), MS_OK);
	for (int k = 0; k < 2000; k++) {
		char *s = NULL;
		assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, NULL), MS_OK);
		assert_int_equal(ms_dsl_prog_nt(e.p), ms_dsl_nt_find(e.g, "S"));
		assert_int_equal(ms_rts_dsl_print(e.p, MS_RTS_DSL_FORM_JAVA, &s, NULL), MS_OK);
		ms_ctx_mfree(e.ctx, s);
		if (ms_dsl_prog_len(e.p) > 3000)
			assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 5), MS_OK);
	}
	env_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_gen__grammar_table),
		cmocka_unit_test(test_rts_dsl_gen__budgeted_sampler),
		cmocka_unit_test(test_rts_dsl_gen__mutation_follows_the_reference_weights),
		cmocka_unit_test(test_rts_dsl_gen__mutation_effects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
