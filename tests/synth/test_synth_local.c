/*
 * Local edits (ms_dsl_mutate_local) and the searches' --mutation option:
 * mutants are programs of the grammar that print and read back, the same
 * seed gives the same mutants, Can't Stop mutants of the published program
 * fail at run time far less often than subtree regrowths, and malformed
 * settings are refused by name.
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>

#include "toy.h"
#include "microsynth/cantstop_synth.h"

typedef struct fixture {
	toy_env e;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	*state = f;
	return f && toy_env_open(&f->e, 0, 4) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	fixture *f = *state;
	toy_env_close(&f->e);
	free(f);
	return 0;
}

static ms_dsl_prog *toy_parse(fixture *f, const char *tokens)
{
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(f->e.ctx, &p, f->e.t.g), 0);
	assert_int_equal(ms_dsl_parse_tokens(p, tokens, strlen(tokens), ' ', TOY_E), 0);
	return p;
}

/* p's token form read back into q equals p. */
static void assert_tokens_round_trip(const ms_dsl_prog *p, ms_dsl_prog *q)
{
	char *t;
	size_t len;
	assert_int_equal(ms_dsl_print_tokens(p, ' ', &t, &len), 0);
	assert_int_equal(ms_dsl_parse_tokens(q, t, len, ' ', ms_dsl_prog_nt(p)), 0);
	assert_true(ms_dsl_equal(p, q));
	ms_ctx_mfree(ms_dsl_prog_ctx(p), t);
}

/*
 * Chains of edits on the toy grammar: every mutant is a whole program of
 * the start symbol, differs from its parent, reads back from its tokens,
 * and every kind of edit occurs.
 */
static void test_local__toy_mutants_are_programs_that_differ_and_read_back(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *p = toy_parse(f, "Plus Times x Num 2 Num 1"), *parent, *q;
	ms_jrandom rng;
	int seen[MS_DSL_EDIT_COUNT] = { 0 };
	assert_int_equal(ms_dsl_prog_clone(&parent, p), 0);
	assert_int_equal(ms_dsl_prog_clone(&q, p), 0);
	ms_jrandom_init(&rng, 7);
	for (int i = 0; i < 3000; i++) {
		int at = -1, edit = -1;
		if (i % 25 == 0 || ms_dsl_prog_len(p) > 60) /* restart now and then, so programs stay small */
			assert_int_equal(ms_dsl_generate(p, TOY_E, &rng, NULL), 0);
		assert_int_equal(ms_dsl_prog_copy(parent, p), 0);
		assert_int_equal(ms_dsl_mutate_local(p, &rng, &at, &edit), 0);
		assert_true(edit >= 0 && edit < MS_DSL_EDIT_COUNT);
		assert_true(at >= 0 && at < ms_dsl_prog_len(parent));
		seen[edit]++;
		assert_int_equal(ms_dsl_prog_nt(p), TOY_E);
		assert_false(ms_dsl_equal(p, parent));
		assert_tokens_round_trip(p, q);
	}
	for (int k = 0; k < MS_DSL_EDIT_COUNT; k++)
		assert_true(seen[k] > 0);
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(parent);
	ms_dsl_prog_free(q);
}

/* The same generator state gives the same edits, step by step. */
static void test_local__same_seed_gives_the_same_mutants(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *a = toy_parse(f, "If Lt x Num 1 Plus x x Num 0"), *b;
	ms_jrandom ra, rb;
	assert_int_equal(ms_dsl_prog_clone(&b, a), 0);
	ms_jrandom_init(&ra, 42);
	ms_jrandom_init(&rb, 42);
	for (int i = 0; i < 300; i++) {
		assert_int_equal(ms_dsl_mutate_local(a, &ra, NULL, NULL), 0);
		assert_int_equal(ms_dsl_mutate_local(b, &rb, NULL, NULL), 0);
		assert_true(ms_dsl_equal(a, b));
		if (ms_dsl_prog_len(a) > 60) {
			assert_int_equal(ms_dsl_generate(a, TOY_E, &ra, NULL), 0);
			assert_int_equal(ms_dsl_generate(b, TOY_E, &rb, NULL), 0);
		}
	}
	ms_dsl_prog_free(a);
	ms_dsl_prog_free(b);
}

/* A lone leaf with no alternative has no edit: MS_ENOTFOUND, the program unchanged. */
static void test_local__a_program_without_edits_is_reported(void **state)
{
	fixture *f = *state;
	static const ms_dsl_prod_def prods[] = { { "a", "a", NULL, 0, 1, 0 } };
	static const ms_dsl_nt_def nts[] = { { "S", "a" } };
	ms_dsl_grammar_def d = { MS_DSL_GRAMMAR_DEF_VERSION, "one", prods, 1, nts, 1, 0 };
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_jrandom rng;
	assert_int_equal(ms_dsl_grammar_new(f->e.ctx, &g, &d), 0);
	assert_int_equal(ms_dsl_prog_new(f->e.ctx, &p, g), 0);
	assert_int_equal(ms_dsl_parse_tokens(p, "a", 1, ' ', 0), 0);
	ms_jrandom_init(&rng, 1);
	assert_int_equal(ms_dsl_mutate_local(p, &rng, NULL, NULL), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(f->e.ctx), "no edit applies"));
	assert_int_equal(ms_dsl_prog_len(p), 1);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
}

/* ---- Can't Stop ---- */

static ms_cs_synth *cs_make(ms_ctx *ctx, long matches)
{
	ms_cs_synth_options o;
	ms_cs_synth *cs;
	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	o.matches = matches;
	o.shard_matches = matches;
	o.final_matches = 1000;
	if (ms_cs_synth_new(ctx, &cs, &o) < 0)
		fail_msg("ms_cs_synth_new: %s", ms_ctx_last_error(ctx));
	return cs;
}

static ms_dsl_prog *couto(ms_ctx *ctx, const ms_cs_synth *cs)
{
	const ms_cs_dsl *d = ms_cs_synth_dsl(cs);
	const char *text = ms_cs_dsl_builtin("couto");
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)), 0);
	assert_int_equal(ms_cs_dsl_parse(d, p, text, strlen(text), MS_CS_NT_START, "couto"), 0);
	return p;
}

/*
 * Single edits of the published program (well typed) print in the DSL's
 * own form and read back as the same tree; a good share stay well typed
 * before any filtering.
 */
static void test_local__cantstop_mutants_print_and_read_back(void **state)
{
	fixture *f = *state;
	ms_ctx *ctx = f->e.ctx;
	ms_cs_synth *cs = cs_make(ctx, 100);
	const ms_cs_dsl *d = ms_cs_synth_dsl(cs);
	ms_dsl_prog *start = couto(ctx, cs), *p, *q;
	ms_jrandom rng;
	int typed = 0, n = 1000;
	assert_int_equal(ms_cs_dsl_typecheck(d, start, NULL), 1);
	assert_int_equal(ms_dsl_prog_clone(&p, start), 0);
	assert_int_equal(ms_dsl_prog_clone(&q, start), 0);
	ms_jrandom_init(&rng, 3);
	for (int i = 0; i < n; i++) {
		char *text;
		size_t len;
		assert_int_equal(ms_dsl_prog_copy(p, start), 0);
		assert_int_equal(ms_dsl_mutate_local(p, &rng, NULL, NULL), 0);
		assert_int_equal(ms_dsl_print(p, &text, &len), 0);
		if (ms_cs_dsl_parse(d, q, text, len, MS_CS_NT_START, "mutant") < 0)
			fail_msg("%s: %s", text, ms_ctx_last_error(ctx));
		assert_true(ms_dsl_equal(p, q));
		ms_ctx_mfree(ctx, text);
		typed += ms_cs_dsl_typecheck(d, p, NULL) == 1;
	}
	print_message("well typed before filtering: %d of %d single edits of couto\n", typed, n);
	assert_true(typed > n / 5);
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_dsl_prog_free(start);
	ms_cs_synth_free(cs);
}

typedef struct zero_count {
	long psi, zero;
} zero_count;

static int count_zero(void *ud, const ms_synth_stats *st)
{
	zero_count *z = ud;
	if (!st->replaying && st->last_kind == MS_SYNTH_PSI) {
		z->psi++;
		z->zero += st->last_score == 0;
	}
	return 0;
}

/* The race from couto, `evals` evaluations of 100 matches; its best program's tokens (caller frees). */
static char *cs_race(ms_ctx *ctx, const ms_cs_synth *cs, int mutation, long long evals, zero_count *z)
{
	ms_dsl_prog *start = couto(ctx, cs);
	ms_synth_options o;
	ms_synth *s;
	char *t, *out;
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.algo = MS_SYNTH_RACE, o.seed = 11, o.initial = start, o.max_evals = evals, o.threads = 1;
	o.mutation = mutation;
	o.progress = count_zero, o.progress_ud = z;
	memset(z, 0, sizeof *z);
	assert_int_equal(ms_synth_new(ctx, &s, ms_cs_synth_problem(cs), &o), 0);
	if (ms_synth_run(s) < 0)
		fail_msg("race: %s", ms_ctx_last_error(ctx));
	assert_int_equal(ms_dsl_print_tokens(ms_synth_best(s, MS_SYNTH_PSI), ' ', &t, NULL), 0);
	out = strdup(t);
	ms_ctx_mfree(ctx, t);
	ms_synth_free(s);
	ms_dsl_prog_free(start);
	return out;
}

/*
 * The share of the race's evaluations that score 0 (run-time errors) from
 * couto: subtree regrowth fails often, local edits filtered by the type
 * check (almost) never; and the same seed gives the same search.
 */
static void test_local__race_from_couto_fails_far_less_and_repeats(void **state)
{
	fixture *f = *state;
	ms_ctx *ctx = f->e.ctx;
	ms_cs_synth *cs = cs_make(ctx, 100);
	zero_count sub, loc, again;
	char *a = cs_race(ctx, cs, MS_SYNTH_MUTATION_SUBTREE, 300, &sub);
	char *b = cs_race(ctx, cs, MS_SYNTH_MUTATION_LOCAL, 300, &loc);
	char *c = cs_race(ctx, cs, MS_SYNTH_MUTATION_LOCAL, 300, &again);
	print_message("scored 0: subtree %ld of %ld, local %ld of %ld\n", sub.zero, sub.psi, loc.zero, loc.psi);
	assert_true(sub.psi >= 300 && loc.psi >= 300);
	assert_true(sub.zero * 10 > sub.psi * 3); /* over 30% */
	assert_true(loc.zero * 20 < loc.psi);     /* under 5% */
	assert_string_equal(b, c);
	assert_int_equal(loc.zero, again.zero);
	free(a);
	free(b);
	free(c);
	ms_cs_synth_free(cs);
}

/* ---- the option ---- */

static void test_local__mutation_option_is_refused_when_malformed(void **state)
{
	fixture *f = *state;
	ms_ctx *ctx = f->e.ctx;
	ms_synth_options o;
	ms_synth *s;
	assert_int_equal(ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION), 0);
	assert_int_equal(o.mutation, MS_SYNTH_MUTATION_SUBTREE);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--mutation", "mixed"), 0);
	assert_int_equal(o.mutation, MS_SYNTH_MUTATION_MIXED);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--mutation", "gentle"), MS_EINVAL);
	assert_string_equal(ms_ctx_last_error(ctx), "--mutation is subtree, local or mixed, not 'gentle'");
	assert_int_equal(ms_synth_options_set(ctx, &o, "--mutation", ""), MS_EINVAL);
	assert_int_equal(ms_synth_knob_applies(ctx, "--mutation", MS_SYNTH_RACE), 0);
	assert_int_equal(ms_synth_knob_applies(ctx, "--mutation", MS_SYNTH_UCT), MS_EINVAL);
	o.max_evals = 10;
	o.mutation = 7;
	assert_int_equal(ms_synth_new(ctx, &s, &f->e.pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "mutation 7"));
}

/* Options of version 3 (before `mutation`) still run, with subtree mutation; the new knob is refused on them. */
static void test_local__version_3_options_still_run(void **state)
{
	fixture *f = *state;
	ms_ctx *ctx = f->e.ctx;
	/* A version-3 struct is a prefix of the current one; the rest must never be read or written. */
	union {
		ms_synth_options o;
		unsigned char bytes[sizeof(ms_synth_options)];
	} u;
	memset(u.bytes, 0xa5, sizeof u.bytes);
	assert_int_equal(ms_synth_options_init(&u.o, 3), 0);
	assert_int_equal(u.bytes[sizeof u.bytes - 1], 0xa5);
	u.o.algo = MS_SYNTH_RACE, u.o.max_evals = 40, u.o.seed = 2;
	assert_int_equal(ms_synth_options_set(ctx, &u.o, "--mutation", "local"), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "version"));
	ms_synth *s;
	assert_int_equal(ms_synth_new(ctx, &s, &f->e.pb, &u.o), 0);
	assert_int_equal(ms_synth_run(s), 0);
	ms_synth_free(s);
	u.o.version = 1;
	assert_int_equal(ms_synth_new(ctx, &s, &f->e.pb, &u.o), MS_EINVAL);
}

/* SA and the race run on the toy problem under every mutation setting. */
static void test_local__searches_run_under_each_setting(void **state)
{
	fixture *f = *state;
	for (int algo = 0; algo < 2; algo++)
		for (int m = MS_SYNTH_MUTATION_SUBTREE; m <= MS_SYNTH_MUTATION_MIXED; m++) {
			ms_synth_options o;
			ms_synth *s;
			ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
			o.algo = algo ? MS_SYNTH_RACE : MS_SYNTH_SA, o.max_evals = 200, o.seed = 3, o.mutation = m;
			assert_int_equal(ms_synth_new(f->e.ctx, &s, &f->e.pb, &o), 0);
			assert_int_equal(ms_synth_run(s), 0);
			assert_true(ms_synth_best_score(s, MS_SYNTH_PSI) > 0);
			ms_synth_free(s);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_local__toy_mutants_are_programs_that_differ_and_read_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_local__same_seed_gives_the_same_mutants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__a_program_without_edits_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__cantstop_mutants_print_and_read_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__race_from_couto_fails_far_less_and_repeats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__mutation_option_is_refused_when_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__version_3_options_still_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local__searches_run_under_each_setting, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
