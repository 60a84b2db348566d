/*
 * Typed generation and mutation of Can't Stop DSL programs
 * (ms_cs_dsl_generate_typed, ms_cs_dsl_mutate_typed, ms_cs_dsl_typecheck):
 * every typed program runs without a run-time error on states of real
 * matches (both decision kinds) and in matches against GA, while most
 * programs of the reference's generator raise; the same seed gives the same
 * programs; the synthesis option names itself in the fingerprint.
 */
#include "cs_testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "microsynth/cantstop_dsl.h"
#include "microsynth/cantstop_synth.h"

/* States of recorded decisions (yes/no and column). */
typedef struct states {
	const ms_cs_player *inner;
	ms_cs_state *s;
	int n, cap;
} states;

static void states_add(states *st, const ms_cs_state *s)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 1024;
		st->s = realloc(st->s, sizeof(*st->s) * (size_t)st->cap);
		assert_non_null(st->s);
	}
	st->s[st->n++] = *s;
}

static int rec_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	states *st = ud;

	states_add(st, s);
	return st->inner->yes_no(ctx, st->inner->ud, s, rng, answer);
}

static int rec_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n, ms_cs_rng *rng,
		      int *choice)
{
	states *st = ud;

	states_add(st, s);
	return st->inner->column(ctx, st->inner->ud, s, actions, n, rng, choice);
}

typedef struct fixture {
	ms_ctx *ctx;
	ms_cs_dsl *d;
	ms_dsl_prog *p;
	ms_cs_dsl_runner *r;
	states st;
} fixture;

/* Decisions of GA and of the random player, against each other and themselves: varied states. */
static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	ms_cs_player ga, rnd, rec_ga, rec_rnd;

	assert_non_null(f);
	assert_int_equal(ms_ctx_new(&f->ctx, NULL), 0);
	assert_int_equal(ms_cs_dsl_new(f->ctx, &f->d, NULL), 0);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)), 0);
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &f->r, f->d), 0);
	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_random(&rnd);
	rec_ga = (ms_cs_player){ rec_yes_no, rec_column, &f->st, "rec-ga" };
	rec_rnd = rec_ga;
	rec_rnd.name = "rec-random";
	for (int i = 0; i < 60; i++) {
		ms_cs_match_result res;
		int ga_side = i % 3 != 2;

		/* The recorder wraps one player at a time; the other side plays unrecorded. */
		f->st.inner = ga_side ? &ga : &rnd;
		assert_int_equal(ms_cs_play_match(f->ctx, NULL, i % 2 ? (ga_side ? &rec_ga : &rec_rnd) : &rnd,
						  i % 2 ? &rnd : (ga_side ? &rec_ga : &rec_rnd), (uint64_t)(i + 1), &res),
				 0);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;

	free(f->st.s);
	ms_cs_dsl_runner_free(f->r);
	ms_dsl_prog_free(f->p);
	ms_cs_dsl_free(f->d);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/*
 * 1 if the loaded program raises on some recorded state (every `stride`-th
 * from `first`), or its value is not what the player needs (a number at
 * yes/no, an index into the legal list at column decisions), or it raises
 * in two matches against GA; 0 if not.
 */
static int fails(fixture *f, int first, int stride)
{
	static const ms_cs_move yn[2] = { { MS_CS_MOVE_YES, 0, { 0, 0 } }, { MS_CS_MOVE_NO, 0, { 0, 0 } } };
	ms_cs_eval_result acc;
	int rc;

	for (int j = first; j < f->st.n; j += stride) {
		const ms_cs_state *s = &f->st.s[j];
		ms_cs_move acts[MS_CS_MAX_ACTIONS];
		ms_cs_env env;
		ms_cs_dsl_value v;
		int n = 2;

		if (s->dice_action) {
			n = ms_cs_legal_actions(s, acts);
			assert_true(n > 0);
			ms_cs_env_init(&env, s, acts, n);
		} else {
			ms_cs_env_init(&env, s, yn, 2);
		}
		if ((rc = ms_cs_dsl_eval(f->r, &env, &v)) != 0) {
			assert_int_equal(rc, MS_ERANGE);
			ms_ctx_clear_error(f->ctx);
			return 1;
		}
		if (!s->dice_action && v.kind != MS_CS_VAL_INT && v.kind != MS_CS_VAL_NPINT && v.kind != MS_CS_VAL_FLOAT &&
		    v.kind != MS_CS_VAL_BOOL)
			return 1;
		if (s->dice_action && ((v.kind != MS_CS_VAL_INT && v.kind != MS_CS_VAL_NPINT && v.kind != MS_CS_VAL_BOOL) ||
				       v.i < -n || v.i >= n))
			return 1;
	}
	memset(&acc, 0, sizeof(acc));
	rc = ms_cs_dsl_evaluate(f->r, NULL, NULL, (uint64_t)first, 0, 2, &acc);
	if (rc != 0 && rc != MS_ERANGE)
		fail_msg("rc %d: %s", rc, ms_ctx_last_error(f->ctx));
	ms_ctx_clear_error(f->ctx);
	return rc != 0;
}

static void fail_with_program(fixture *f, const char *why)
{
	char *t = NULL;

	ms_dsl_print(f->p, &t, NULL);
	fail_msg("%s:\n%s", why, t ? t : "?");
}

static void test_cs_typed_generate__programs_never_fail_where_most_untyped_ones_do(void **state)
{
	fixture *f = *state;
	ms_jrandom rng;
	int typed_failed = 0, untyped_failed = 0, untyped_typed = 0, bad;

	assert_true(f->st.n > 4000);
	ms_jrandom_init(&rng, 11);
	for (int k = 0; k < 1000; k++) {
		assert_int_equal(ms_cs_dsl_generate_typed(f->d, f->p, &rng), 0);
		if (ms_cs_dsl_typecheck(f->d, f->p, &bad) != 1)
			fail_with_program(f, "a typed program does not typecheck");
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
		if (fails(f, k % 5, 5)) {
			typed_failed++;
			fail_with_program(f, "a typed program raised");
		}
	}
	/* The reference's generator: most of its programs raise; those that typecheck never do. */
	ms_jrandom_init(&rng, 11);
	for (int k = 0; k < 1000; k++) {
		int typed, failed;

		assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
		typed = ms_cs_dsl_typecheck(f->d, f->p, &bad);
		assert_true(typed == 0 || typed == 1);
		assert_true(typed ? bad == -1 : bad > 0);
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
		failed = fails(f, k % 5, 5);
		untyped_failed += failed;
		untyped_typed += typed;
		if (typed && failed)
			fail_with_program(f, "a well-typed program of the reference's generator raised");
	}
	print_message("1000 typed programs: %d fail; 1000 of the reference's generator: %d fail (%.1f%%), %d well typed "
		      "(%d states)\n", typed_failed, untyped_failed, untyped_failed / 10.0, untyped_typed, f->st.n);
	assert_int_equal(typed_failed, 0);
	assert_true(untyped_failed > 500);
}

static void test_cs_typed_mutate__chains_stay_well_typed_and_never_fail(void **state)
{
	fixture *f = *state;
	ms_jrandom rng;
	uint64_t before;
	int changed = 0, untyped_failed = 0, still_typed = 0, at = -1;

	ms_jrandom_init(&rng, 12);
	for (int k = 0; k < 100; k++) {
		assert_int_equal(ms_cs_dsl_generate_typed(f->d, f->p, &rng), 0);
		for (int m = 0; m < 10; m++) {
			int len = ms_dsl_prog_len(f->p);

			before = ms_dsl_hash(f->p);
			assert_int_equal(ms_cs_dsl_mutate_typed(f->d, f->p, &rng, &at), 0);
			assert_true(at >= 0 && at < len);
			changed += ms_dsl_hash(f->p) != before;
			if (ms_cs_dsl_typecheck(f->d, f->p, NULL) != 1)
				fail_with_program(f, "a typed mutation is ill typed");
			assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
			if (fails(f, (k + m) % 9, 9))
				fail_with_program(f, "a typed mutation raised");
		}
	}
	/* The reference's mutation of the same kind of chains, for comparison. */
	ms_jrandom_init(&rng, 12);
	for (int k = 0; k < 100; k++) {
		assert_int_equal(ms_cs_dsl_generate_typed(f->d, f->p, &rng), 0);
		for (int m = 0; m < 10; m++) {
			assert_int_equal(ms_cs_dsl_mutate(f->d, f->p, &rng, NULL), 0);
			int typed = ms_cs_dsl_typecheck(f->d, f->p, NULL), failed;

			assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
			failed = fails(f, (k + m) % 9, 9);
			untyped_failed += failed;
			still_typed += typed;
			if (typed && failed)
				fail_with_program(f, "a well-typed mutant of the reference's mutation raised");
		}
	}
	print_message("1000 typed mutants: 0 fail, %d changed; 1000 of the reference's mutation: %d fail, %d well "
		      "typed\n", changed, untyped_failed, still_typed);
	assert_true(changed > 500);
	assert_true(untyped_failed > 100);
}

static void test_cs_typed__same_seed_same_programs(void **state)
{
	fixture *f = *state;
	uint64_t h[2][200];

	for (int run = 0; run < 2; run++) {
		ms_jrandom rng;

		ms_jrandom_init(&rng, 99);
		for (int k = 0; k < 100; k++) {
			assert_int_equal(ms_cs_dsl_generate_typed(f->d, f->p, &rng), 0);
			h[run][2 * k] = ms_dsl_hash(f->p);
			assert_int_equal(ms_cs_dsl_mutate_typed(f->d, f->p, &rng, NULL), 0);
			h[run][2 * k + 1] = ms_dsl_hash(f->p);
		}
	}
	assert_memory_equal(h[0], h[1], sizeof(h[0]));
	{
		ms_jrandom rng;
		int same = 0;

		ms_jrandom_init(&rng, 100);
		for (int k = 0; k < 100; k++) {
			assert_int_equal(ms_cs_dsl_generate_typed(f->d, f->p, &rng), 0);
			same += ms_dsl_hash(f->p) == h[0][2 * k];
		}
		assert_true(same < 50);
	}
}

/*
 * Sizes (nodes) of fresh programs and after 100 mutations: typed programs
 * start larger (a Map needs a function and a list whose types agree) and,
 * as no mutation fails, grow faster under mutation; the figures are in
 * docs/hss-selfplay.md (why --max-nodes exists).
 */
static void test_cs_typed__programs_are_larger_and_grow_under_mutation(void **state)
{
	fixture *f = *state;
	double fresh[2] = { 0, 0 }, grown[2] = { 0, 0 };

	for (int typed = 0; typed < 2; typed++) {
		ms_jrandom rng;

		ms_jrandom_init(&rng, 5);
		for (int k = 0; k < 200; k++) {
			assert_int_equal(typed ? ms_cs_dsl_generate_typed(f->d, f->p, &rng)
					       : ms_cs_dsl_generate(f->d, f->p, &rng), 0);
			fresh[typed] += ms_dsl_prog_len(f->p) / 200.0;
			for (int m = 0; m < 100; m++)
				assert_int_equal(typed ? ms_cs_dsl_mutate_typed(f->d, f->p, &rng, NULL)
						       : ms_cs_dsl_mutate(f->d, f->p, &rng, NULL), 0);
			grown[typed] += ms_dsl_prog_len(f->p) / 200.0;
		}
	}
	print_message("mean nodes, reference: %.1f fresh, %.1f after 100 mutations; typed: %.1f, %.1f\n", fresh[0],
		      grown[0], fresh[1], grown[1]);
	assert_true(fresh[1] > fresh[0] && fresh[1] < 100);
	assert_true(grown[1] > grown[0]);
}

static void parse(fixture *f, const char *text)
{
	if (ms_cs_dsl_parse(f->d, f->p, text, strlen(text), MS_CS_NT_START, "test") != 0)
		fail_msg("%s", ms_ctx_last_error(f->ctx));
}

static void test_cs_typecheck__known_programs(void **state)
{
	fixture *f = *state;
	ms_cs_dsl *ext;
	ms_dsl_prog *q;
	ms_cs_dsl_options o = { MS_CS_DSL_OPTIONS_VERSION, 0, 1, 0, 0 };
	ms_jrandom rng;
	int node;

	parse(f, ms_cs_dsl_builtin("couto"));
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 1);
	assert_int_equal(node, -1);
	/* argmax of `neutrals` raises when there are none; argmax of ragged tuples too. */
	parse(f, "yes-no: argmax(neutrals)\ncolumn: argmax(map((lambda x : (1 + 0)), actions))");
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 0);
	assert_int_equal(node, 3); /* the list's name: only ['y', 'n'] is never empty at yes/no */
	parse(f, "yes-no: (1 + 0)\ncolumn: sum(neutrals)");
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 0);
	/* A column function outside any Map, a Map over ['y', 'n']. */
	parse(f, "yes-no: (progress_value + 1)\ncolumn: argmax(map((lambda x : (1 + 0)), actions))");
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 0);
	parse(f, "yes-no: sum(map((lambda x : (1 + 0)), actions))\ncolumn: argmax(map((lambda x : (1 + 0)), actions))");
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 0);
	parse(f, "yes-no: sum(map((lambda x : (progress_value + 0)), neutrals))\n"
		 "column: argmax(map((lambda x : (NumberAdvancedByAction + sum(local_list))), actions))");
	assert_int_equal(ms_cs_dsl_typecheck(f->d, f->p, &node), 1);
	/* A program of another grammar is an error, not a verdict. */
	assert_int_equal(ms_cs_dsl_new(f->ctx, &ext, &o), 0);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &q, ms_cs_dsl_grammar(ext)), 0);
	ms_jrandom_init(&rng, 1);
	assert_int_equal(ms_cs_dsl_generate(ext, q, &rng), 0);
	assert_int_equal(ms_cs_dsl_typecheck(f->d, q, &node), MS_EINVAL);
	assert_int_equal(ms_cs_dsl_mutate_typed(f->d, q, &rng, NULL), MS_EINVAL);
	ms_dsl_prog_free(q);
	ms_cs_dsl_free(ext);
}

/* A reference-generated (ill-typed) program still mutates; typed mutations of it never break what is typed. */
static void test_cs_typed_mutate__ill_typed_programs_still_mutate(void **state)
{
	fixture *f = *state;
	ms_jrandom rng;

	ms_jrandom_init(&rng, 13);
	for (int k = 0; k < 300; k++) {
		if (k % 10 == 0)
			assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
		assert_int_equal(ms_cs_dsl_mutate_typed(f->d, f->p, &rng, NULL), 0);
		assert_true(ms_dsl_prog_len(f->p) > 0);
		assert_true(ms_cs_dsl_typecheck(f->d, f->p, NULL) >= 0);
	}
}

static void test_cs_synth_typed__option_generates_bounded_typed_programs_and_names_itself(void **state)
{
	fixture *f = *state;
	ms_cs_synth_options o;
	ms_cs_synth *cs = NULL;
	const ms_synth_problem *pb;
	ms_dsl_prog *p;
	ms_jrandom rng;

	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), 0);
	assert_null(strstr(ms_cs_synth_problem(cs)->fingerprint, "typed"));
	ms_cs_synth_free(cs);
	o.typed = 2;
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "typed"));
	o.typed = 1;
	o.max_nodes = -1;
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "max nodes"));
	o.max_nodes = 60;
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), 0);
	pb = ms_cs_synth_problem(cs);
	assert_non_null(strstr(pb->fingerprint, " typed max-nodes=60"));
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, pb->grammar), 0);
	ms_jrandom_init(&rng, 3);
	for (int k = 0; k < 200; k++) {
		assert_int_equal(k % 4 == 0 ? pb->generate(pb->user, p, &rng) : pb->mutate(pb->user, p, &rng), 0);
		assert_int_equal(ms_cs_dsl_typecheck(ms_cs_synth_dsl(cs), p, NULL), 1);
		assert_true(ms_dsl_prog_len(p) <= 60);
	}
	ms_dsl_prog_free(p);
	ms_cs_synth_free(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_typed_generate__programs_never_fail_where_most_untyped_ones_do, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_typed_mutate__chains_stay_well_typed_and_never_fail, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_typed__same_seed_same_programs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_typed__programs_are_larger_and_grow_under_mutation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_typecheck__known_programs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_typed_mutate__ill_typed_programs_still_mutate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth_typed__option_generates_bounded_typed_programs_and_names_itself,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
