/* The generic program machinery on a toy arithmetic grammar. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/dsl.h"

enum { E, B, N };
enum { PLUS, TIMES, IF, NUM, X, LT, N0, N1, N2 };

static const ms_dsl_prod_def toy_prods[] = {
	{ "Plus", "($0 + $1)", "E E", PLUS, 1, 0 },
	{ "Times", "($0 * $1)", "E E", TIMES, 1, 0 },
	{ "If", "if $0 then $1 else $2", "B E E", IF, 1, 0 },
	{ "Num", "$0", "N", NUM, 0, 0 },
	{ "x", "x", NULL, X, 1, 0 },
	{ "Lt", "$0 < $1", "E E", LT, 1, 0 },
	{ "0", "0", NULL, 0, 1, 0 },
	{ "1", "1", NULL, 1, 1, 0 },
	{ "2", "2", NULL, 2, 1, 0 },
};
static const ms_dsl_nt_def toy_nts[] = {
	{ "E", "Plus Times If Num x" },
	{ "B", "Lt" },
	{ "N", "0 1 2" },
};

static ms_dsl_grammar_def toy_def(void)
{
	ms_dsl_grammar_def d = { MS_DSL_GRAMMAR_DEF_VERSION, "toy", toy_prods, 9, toy_nts, 3, E };
	return d;
}

typedef struct fixture {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	ms_dsl_grammar_def d = toy_def();
	if (!f || ms_ctx_new(&f->ctx, NULL) != MS_OK || ms_dsl_grammar_new(f->ctx, &f->g, &d) != 0 ||
	    ms_dsl_prog_new(f->ctx, &f->p, f->g) != 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_dsl_prog_free(f->p);
	ms_dsl_grammar_free(f->g);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static void push_all(ms_dsl_prog *p, const ms_dsl_sym *s, int n)
{
	ms_dsl_prog_clear(p);
	for (int i = 0; i < n; i++)
		assert_int_equal(ms_dsl_prog_push(p, s[i]), 0);
}

static void assert_prints(ms_dsl_prog *p, const char *want)
{
	char *txt;
	assert_int_equal(ms_dsl_print(p, &txt, NULL), 0);
	assert_string_equal(txt, want);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), txt);
}

static void test_dsl_grammar__rejects_bad_tables_with_a_message(void **state)
{
	fixture *f = *state;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prod_def prods[9];
	ms_dsl_nt_def nts[3];
	ms_dsl_grammar_def d;

	memcpy(prods, toy_prods, sizeof prods);
	memcpy(nts, toy_nts, sizeof nts);
	d = toy_def();
	d.prods = prods;
	d.nts = nts;

	prods[0].children = "E F";
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "unknown non-terminal 'F'"));
	prods[0] = toy_prods[0];

	prods[1].print = "($0 * $0)";
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "Times"));
	prods[1] = toy_prods[1];

	nts[0].alts = "Plus Times If"; /* E now only derives infinite trees */
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "derives no finite program"));
	nts[0] = toy_nts[0];

	prods[8].name = "1";
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), MS_EINVAL);
	prods[8] = toy_prods[8];

	nts[2].alts = "0 1 1";
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "twice"));
	nts[2] = toy_nts[2];

	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), 0);
	assert_int_equal(ms_dsl_prod_find(g, "If"), IF);
	assert_int_equal(ms_dsl_nt_find(g, "Q"), MS_ENOTFOUND);
	assert_true(ms_dsl_nt_has(g, E, NUM));
	assert_false(ms_dsl_nt_has(g, E, LT));
	ms_dsl_grammar_free(g);
}

static void test_dsl_prog__finish_checks_slots_and_prints_templates(void **state)
{
	fixture *f = *state;
	/* if (x < 1) then (x * 2) else x */
	const ms_dsl_sym ok[] = { IF, LT, X, NUM, N1, TIMES, X, NUM, N2, X };
	push_all(f->p, ok, 10);
	assert_int_equal(ms_dsl_prog_finish(f->p, E), 0);
	assert_prints(f->p, "if x < 1 then (x * 2) else x");
	assert_int_equal(ms_dsl_child(f->p, 0, 2), 9);
	assert_int_equal(ms_dsl_prog_ends(f->p)[5], 9);
	int slot;
	assert_int_equal(ms_dsl_parent(f->p, 7, &slot), 5);
	assert_int_equal(slot, 1);
	assert_int_equal(ms_dsl_node_nt(f->p, 8), N);
	assert_int_equal(ms_dsl_node_nt(f->p, 1), B);
	assert_int_equal(ms_dsl_size(f->p), 8); /* Num wrappers count 0 */
	assert_int_equal(ms_dsl_depth(f->p), 4);

	const ms_dsl_sym wrong_slot[] = { PLUS, X, LT, X, X };
	push_all(f->p, wrong_slot, 5);
	assert_int_equal(ms_dsl_prog_finish(f->p, E), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "node 2 (Lt) cannot be child 1 of Plus"));

	const ms_dsl_sym truncated[] = { PLUS, X };
	push_all(f->p, truncated, 2);
	assert_int_equal(ms_dsl_prog_finish(f->p, E), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "ends inside Plus"));

	const ms_dsl_sym extra[] = { X, X };
	push_all(f->p, extra, 2);
	assert_int_equal(ms_dsl_prog_finish(f->p, E), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "follows a complete E"));

	const ms_dsl_sym bad_id[] = { 999 };
	push_all(f->p, bad_id, 1);
	assert_int_equal(ms_dsl_prog_finish(f->p, E), MS_EPARSE);
	char *txt;
	assert_int_equal(ms_dsl_print(f->p, &txt, NULL), MS_EINVAL); /* unfinished */
}

static void test_dsl_tokens__round_trip_and_errors_name_the_token(void **state)
{
	fixture *f = *state;
	const char *src = "Plus;Num;2; ?E ";
	char *txt;
	assert_int_equal(ms_dsl_parse_tokens(f->p, src, strlen(src), ';', E), 0);
	assert_int_equal(ms_dsl_hole_count(f->p), 1);
	assert_int_equal(ms_dsl_first_hole(f->p), 3);
	assert_prints(f->p, "(2 + E)");
	assert_int_equal(ms_dsl_print_tokens(f->p, ';', &txt, NULL), 0);
	assert_string_equal(txt, "Plus;Num;2;?E");
	ms_ctx_mfree(f->ctx, txt);

	const char *bad = "Plus;x;Minus";
	assert_int_equal(ms_dsl_parse_tokens(f->p, bad, strlen(bad), ';', E), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "token 3 'Minus'"));
	const char *empty = "Plus;;x";
	assert_int_equal(ms_dsl_parse_tokens(f->p, empty, strlen(empty), ';', E), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "token 2 is empty"));
}

static void test_dsl_edit__replace_expand_hash_equal(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *q;
	const char *a = "Plus;x;Times;x;x", *b = "Lt;Num;0;Num;1";
	assert_int_equal(ms_dsl_parse_tokens(f->p, a, strlen(a), ';', E), 0);
	assert_int_equal(ms_dsl_prog_clone(&q, f->p), 0);
	assert_true(ms_dsl_equal(f->p, q));
	assert_true(ms_dsl_hash(f->p) == ms_dsl_hash(q));

	/* the right child (Times x x) becomes the left one: x + x */
	assert_int_equal(ms_dsl_replace(f->p, 2, f->p, 1), 0);
	assert_prints(f->p, "(x + x)");
	assert_false(ms_dsl_equal(f->p, q));
	assert_true(ms_dsl_hash(f->p) != ms_dsl_hash(q));

	/* a B cannot stand where an E is expected; nothing changes */
	ms_dsl_prog *c;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &c, f->g), 0);
	assert_int_equal(ms_dsl_parse_tokens(c, b, strlen(b), ';', B), 0);
	assert_int_equal(ms_dsl_replace(q, 2, c, 0), MS_EINVAL);
	assert_prints(q, "(x + (x * x))");
	/* but its E children may */
	assert_int_equal(ms_dsl_replace(q, 0, c, 1), 0);
	assert_prints(q, "0");

	const char *h = "?E";
	assert_int_equal(ms_dsl_parse_tokens(c, h, strlen(h), ';', E), 0);
	assert_int_equal(ms_dsl_expand(c, 0, LT), MS_EINVAL);
	assert_int_equal(ms_dsl_expand(c, 0, IF), 0);
	assert_prints(c, "if B then E else E");
	assert_int_equal(ms_dsl_expand(c, 1, LT), 0);
	assert_int_equal(ms_dsl_expand(c, 0, X), MS_EINVAL); /* not a hole */
	assert_prints(c, "if E < E then E else E");
	assert_int_equal(ms_dsl_hole_count(c), 4);
	ms_dsl_prog_free(c);
	ms_dsl_prog_free(q);
}

static int tokens_of(ms_dsl_prog *p, char *buf, size_t n)
{
	char *t;
	if (ms_dsl_print_tokens(p, ';', &t, NULL) != 0)
		return -1;
	snprintf(buf, n, "%s", t);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), t);
	return 0;
}

static void test_dsl_generate__valid_bounded_and_reproducible(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *q;
	ms_jrandom r1, r2;
	ms_dsl_gen_options o = { MS_DSL_GEN_OPTIONS_VERSION, 3, 0, 0 };
	char a[4096], b[4096];
	int kinds[9] = { 0 };

	assert_int_equal(ms_dsl_prog_new(f->ctx, &q, f->g), 0);
	ms_jrandom_init(&r1, 42);
	ms_jrandom_init(&r2, 42);
	for (int i = 0; i < 2000; i++) {
		assert_int_equal(ms_dsl_generate(f->p, E, &r1, &o), 0);
		assert_int_equal(ms_dsl_generate(q, E, &r2, &o), 0);
		assert_true(ms_dsl_equal(f->p, q));
		/* default sampler: past depth 3 only leaves of E, and B -> Lt -> E E */
		assert_true(ms_dsl_depth(f->p) <= 3 + 3);
		/* tokens round-trip exactly */
		assert_int_equal(tokens_of(f->p, a, sizeof a), 0);
		assert_int_equal(ms_dsl_parse_tokens(q, a, strlen(a), ';', E), 0);
		assert_true(ms_dsl_equal(f->p, q));
		for (int k = 0; k < ms_dsl_prog_len(f->p); k++)
			kinds[ms_dsl_prog_nodes(f->p)[k]]++;
	}
	for (int k = 0; k < 9; k++)
		assert_true(kinds[k] > 0); /* every production is reachable */

	/* another seed gives another sequence */
	ms_jrandom_init(&r2, 43);
	int same = 0;
	ms_jrandom_init(&r1, 42);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(ms_dsl_generate(f->p, E, &r1, &o), 0);
		assert_int_equal(ms_dsl_generate(q, E, &r2, &o), 0);
		assert_int_equal(tokens_of(f->p, a, sizeof a), 0);
		assert_int_equal(tokens_of(q, b, sizeof b), 0);
		same += strcmp(a, b) == 0;
	}
	assert_true(same < 20);
	ms_dsl_prog_free(q);
}

static void test_dsl_mutate__keeps_programs_valid_and_picks_sized_nodes(void **state)
{
	fixture *f = *state;
	ms_jrandom r;
	ms_dsl_gen_options o = { MS_DSL_GEN_OPTIONS_VERSION, 2, 0, 0 };
	const char *start = "Plus;Num;1;x";
	ms_jrandom_init(&r, 7);
	assert_int_equal(ms_dsl_parse_tokens(f->p, start, strlen(start), ';', E), 0);
	for (int i = 0; i < 3000; i++) {
		int at;
		ms_dsl_sym before;
		ms_dsl_prog *old;
		assert_int_equal(ms_dsl_prog_clone(&old, f->p), 0);
		assert_int_equal(ms_dsl_mutate(f->p, &r, &o, 0, &at), 0);
		before = ms_dsl_prog_nodes(old)[at];
		assert_true(ms_dsl_is_hole(before) || toy_prods[before].size > 0); /* never a Num wrapper */
		/* everything before the mutated node is untouched */
		assert_memory_equal(ms_dsl_prog_nodes(old), ms_dsl_prog_nodes(f->p), sizeof(ms_dsl_sym) * (size_t)at);
		ms_dsl_prog_free(old);
		/* the result is a complete tree: re-finishing it succeeds */
		assert_int_equal(ms_dsl_prog_finish(f->p, E), 0);
		if (ms_dsl_prog_len(f->p) > 200) /* keep it small: restart */
			assert_int_equal(ms_dsl_parse_tokens(f->p, start, strlen(start), ';', E), 0);
	}
}

/* A game sampler: E is always "x" or Num(2), whatever the default would do. */
static int only_x_or_two(ms_dsl_gen *gen, int nt, int budget, int depth, void *user)
{
	int *calls = user;
	int32_t v;
	(*calls)++;
	(void)nt;
	(void)depth;
	if (ms_jrandom_next_int_bounded(ms_dsl_gen_rng(gen), 2, &v) != 0)
		return MS_ERROR;
	if (v == 0 || budget < 0)
		return ms_dsl_gen_emit(gen, X);
	int rc = ms_dsl_gen_emit(gen, NUM);
	return rc ? rc : ms_dsl_gen_emit(gen, N2);
}

static void test_dsl_generate__game_sampler_takes_over_its_non_terminal(void **state)
{
	fixture *f = *state;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_dsl_grammar_def d = toy_def();
	ms_jrandom r;
	int calls = 0;
	char buf[256];

	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), 0);
	assert_int_equal(ms_dsl_grammar_set_sampler(g, E, only_x_or_two, &calls), 0);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, g), 0);
	ms_jrandom_init(&r, 1);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(ms_dsl_generate(p, E, &r, NULL), 0);
		assert_int_equal(tokens_of(p, buf, sizeof buf), 0);
		assert_true(strcmp(buf, "x") == 0 || strcmp(buf, "Num;2") == 0);
	}
	assert_int_equal(calls, 100);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
}

static void test_dsl__allocation_failures_leave_no_leak(void **state)
{
	(void)state;
	for (long fail = 1; fail < 60; fail++) {
		ms_test_alloc t = { 0 };
		ms_allocator al;
		ms_ctx *ctx = ms_test_ctx_with(&t, &al);
		ms_dsl_grammar *g = NULL;
		ms_dsl_prog *p = NULL;
		ms_dsl_grammar_def d = toy_def();
		ms_jrandom r;
		assert_non_null(ctx);
		long base = t.live;
		t.fail_at = t.calls + fail;
		ms_jrandom_init(&r, fail);
		if (ms_dsl_grammar_new(ctx, &g, &d) == 0 && ms_dsl_prog_new(ctx, &p, g) == 0) {
			for (int i = 0; i < 5; i++)
				if (ms_dsl_generate(p, E, &r, NULL) == 0)
					(void)ms_dsl_mutate(p, &r, NULL, 1, NULL);
		}
		ms_dsl_prog_free(p);
		ms_dsl_grammar_free(g);
		assert_int_equal(t.live, base);
		ms_ctx_free(ctx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dsl_grammar__rejects_bad_tables_with_a_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsl_prog__finish_checks_slots_and_prints_templates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsl_tokens__round_trip_and_errors_name_the_token, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsl_edit__replace_expand_hash_equal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsl_generate__valid_bounded_and_reproducible, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsl_mutate__keeps_programs_valid_and_picks_sized_nodes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dsl_generate__game_sampler_takes_over_its_non_terminal, setup,
						teardown),
		cmocka_unit_test(test_dsl__allocation_failures_leave_no_leak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
