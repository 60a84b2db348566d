/*
 * Readable Can't Stop programs (docs/readable-programs.md): simplification
 * removes dead code and nothing that decides, and proves it on the
 * evaluation's matches; equality is decided call by call (every yes/no
 * answer and column choice the program's player returns), not by who wins;
 * bad input and out of memory are errors that change nothing.
 */
#include "cs_testutil.h"

#include <stdio.h>

#include "microsynth/cantstop_dsl.h"

static const char *programs_dir;

typedef struct fixture {
	ms_ctx *ctx;
	ms_cs_dsl *d, *ext;
	ms_dsl_prog *p, *q;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	ms_cs_dsl_options e = { .version = MS_CS_DSL_OPTIONS_VERSION, .extended = 1 };

	if (!f || ms_ctx_new(&f->ctx, NULL) || ms_cs_dsl_new(f->ctx, &f->d, NULL) || ms_cs_dsl_new(f->ctx, &f->ext, &e))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;

	ms_dsl_prog_free(f->p);
	ms_dsl_prog_free(f->q);
	ms_cs_dsl_free(f->d);
	ms_cs_dsl_free(f->ext);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/* `text` (printed form) as a fresh program of d in *p. */
static void parse(fixture *f, ms_cs_dsl *d, ms_dsl_prog **p, const char *text)
{
	ms_dsl_prog_free(*p);
	*p = NULL;
	assert_int_equal(ms_dsl_prog_new(f->ctx, p, ms_cs_dsl_grammar(d)), 0);
	if (ms_cs_dsl_parse(d, *p, text, strlen(text), MS_CS_NT_START, "fixture"))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
}

static void assert_prints(const ms_dsl_prog *p, const char *expected)
{
	char *text = NULL;

	assert_int_equal(ms_dsl_print(p, &text, NULL), 0);
	assert_string_equal(text, expected);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
}

static ms_cs_dsl_proof_options proof(long matches, uint64_t seed)
{
	ms_cs_dsl_proof_options o;

	memset(&o, 0, sizeof(o));
	o.version = MS_CS_DSL_PROOF_OPTIONS_VERSION;
	o.matches = matches;
	o.seed = seed;
	return o;
}

#define COUTO_YES_NO                                                                                               \
	"((sum(map((lambda x : (progress_value * (NumberAdvancedThisRound * PositionsPlayerHasSecuredInColumn))), "  \
	"neutrals)) - sum(map((lambda x : sum(neutrals)), neutrals))) + ((DifficultyScore * DifficultyScore) + "      \
	"DifficultyScore))"
#define COUTO_COLUMN                                                                                               \
	"argmax(map((lambda x : sum(map((lambda x : (PositionsPlayerHasSecuredInColumn + move_value)), "              \
	"local_list))), actions))"

/*
 * couto with dead code of both kinds: a term multiplied by 0 added to the
 * yes/no value, and a branch whose condition (1 < 0) is constantly false
 * around the column program. couto itself loses nothing on these matches
 * (the next test), so the simplification must give couto back exactly.
 */
static void test_cs_dsl_simplify__dead_code_goes_and_the_rest_is_proved_equal(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(200, 0);
	ms_cs_dsl_simplify_stats st;
	ms_cs_dsl_diff df;
	const char *text = "yes-no: (" COUTO_YES_NO " + (DifficultyScore * 0))\n"
			   "column: if 1 < 0 then: argmax(map((lambda x : sum(local_list)), actions)) else: " COUTO_COLUMN;

	parse(f, f->d, &f->p, text);
	parse(f, f->d, &f->q, text);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, &st), 0);
	assert_prints(f->p, "yes-no: " COUTO_YES_NO "\ncolumn: " COUTO_COLUMN);
	/* (D * 0): Plus, Times, DifficultyScore, NumericConstant, 0; the ITE, its LT of two constants, its then */
	assert_int_equal(st.nodes_before - st.nodes_after, 5 + (1 + 5 + 7));
	assert_int_equal(st.nodes_after, 40);
	assert_int_equal(st.size_after, ms_dsl_size(f->p));
	assert_true(st.chars_after < st.chars_before);
	assert_int_equal(st.kept, 2);
	assert_true(st.candidates >= st.kept);
	assert_int_equal(st.matches, 200);
	assert_true(st.decisions_compared > 200 * 30);
	/* and an independent replay agrees: the same decisions, call by call */
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->q, f->p, &o, &df), 0);
	assert_int_equal(df.equal, 1);
	assert_int_equal(df.decisions_compared, st.decisions_compared);
	print_message("dead code: %d -> %d nodes, %ld candidates, %ld decisions compared\n", st.nodes_before,
		      st.nodes_after, st.candidates, st.decisions_compared);
}

/*
 * Every part of couto and of GA in the DSL decides some call in 200
 * matches against GA: each candidate is refused, the programs stay as
 * they are.
 */
static void test_cs_dsl_simplify__programs_where_every_part_matters_are_unchanged(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(200, 0);
	ms_cs_dsl_simplify_stats st;

	parse(f, f->d, &f->p, ms_cs_dsl_builtin("couto"));
	parse(f, f->d, &f->q, ms_cs_dsl_builtin("couto"));
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, &st), 0);
	assert_true(ms_dsl_equal(f->p, f->q));
	assert_int_equal(st.kept, 0);
	assert_true(st.candidates > 40);
	assert_int_equal(st.nodes_before, st.nodes_after);
	assert_int_equal(st.chars_before, st.chars_after);

	parse(f, f->ext, &f->p, ms_cs_dsl_builtin("ga"));
	parse(f, f->ext, &f->q, ms_cs_dsl_builtin("ga"));
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->ext, f->p, &o, &st), 0);
	assert_true(ms_dsl_equal(f->p, f->q));
	assert_int_equal(st.kept, 0);
}

/*
 * The shipped best.txt multiplies (S - (S - S)) by 0: that term goes
 * (replaced by the constant 0, since Minus keeps its place), nothing else.
 */
static void test_cs_dsl_simplify__best_program_loses_its_product_with_zero(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(1000, 0);
	ms_cs_dsl_simplify_stats st;
	char path[1024];

	if (!programs_dir)
		skip();
	snprintf(path, sizeof(path), "%s/best.txt", programs_dir);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)), 0);
	if (ms_cs_dsl_load(f->d, f->p, path))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, &st), 0);
	assert_prints(f->p,
		      "yes-no: sum(map((lambda x : ((PositionsPlayerHasSecuredInColumn * NumberAdvancedThisRound) - "
		      "PositionsOpponentHasSecuredInColumn)), neutrals))\n"
		      "column: argmax(map((lambda x : sum(map((lambda x : (move_value + ((PositionsPlayerHasSecuredInColumn "
		      "* progress_value) + (0 - (1 - NumberAdvancedThisRound))))), local_list))), actions))");
	assert_int_equal(st.nodes_before, 41);
	assert_int_equal(st.nodes_after, 35);
	assert_int_equal(st.kept, 1);
	assert_int_equal(st.matches, 1000);
}

/* ---- equality call by call ------------------------------------------------------ */

/* What a player returned at each call, and how many calls of both players came before. */
typedef struct spy {
	const ms_cs_player *inner;
	long *ply;
	int value[512];
	long at[512];
	int n;
} spy;

static void spy_keep(spy *s, int v)
{
	assert_true(s->n < 512);
	s->at[s->n] = (*s->ply)++;
	s->value[s->n++] = v;
}

static int spy_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *st, ms_cs_rng *rng, int *answer)
{
	spy *s = ud;
	int rc = s->inner->yes_no(ctx, s->inner->ud, st, rng, answer);

	spy_keep(s, rc ? -1 : *answer);
	return rc;
}

static int spy_column(ms_ctx *ctx, void *ud, const ms_cs_state *st, const ms_cs_move *a, int n, ms_cs_rng *rng,
		      int *choice)
{
	spy *s = ud;
	int rc = s->inner->column(ctx, s->inner->ud, st, a, n, rng, choice);

	spy_keep(s, rc ? -1 : 100 + *choice);
	return rc;
}

/* Match i of an evaluation of program p against GA, as ms_cs_evaluate plays it: its winner (1: p, 2: GA, 0: draw). */
static int play(fixture *f, const ms_dsl_prog *p, uint64_t seed, int i, spy *me)
{
	ms_cs_dsl_runner *r = NULL;
	ms_cs_player inner, ga, a, b;
	ms_cs_match_result res;
	static long ply;
	spy them;

	ply = 0;
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &r, f->d), 0);
	assert_int_equal(ms_cs_dsl_runner_load(r, p), 0);
	ms_cs_dsl_runner_player(r, &inner);
	ms_cs_player_ga(&ga, NULL, 0);
	memset(me, 0, sizeof(*me));
	memset(&them, 0, sizeof(them));
	me->inner = &inner;
	them.inner = &ga;
	me->ply = them.ply = &ply;
	a = (ms_cs_player){ spy_yes_no, spy_column, me, "program" };
	b = (ms_cs_player){ spy_yes_no, spy_column, &them, "ga" };
	if (i % 2 == 0)
		assert_int_equal(ms_cs_play_match(f->ctx, NULL, &a, &b, ms_cs_match_seed(seed, (uint64_t)i), &res), 0);
	else
		assert_int_equal(ms_cs_play_match(f->ctx, NULL, &b, &a, ms_cs_match_seed(seed, (uint64_t)i), &res), 0);
	ms_cs_dsl_runner_free(r);
	me->inner = NULL;
	return res.winner == 0 ? 0 : (res.winner == 1) == (i % 2 == 0) ? 1 : 2;
}

/*
 * couto, and couto with DifficultyScore + 1 in its yes/no value: the value
 * crosses the threshold 29 one step earlier, which changes a decision now
 * and then. With seed 3 both win and lose the same 6 matches, yet the
 * second says n where couto says y at its decision 39 of match 3 (played
 * second): they are reported different, there, and equal to themselves.
 */
static void test_cs_dsl_equal__is_checked_decision_by_decision_not_by_outcome(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(6, 3);
	ms_cs_dsl_diff df;
	spy sa, sb;
	int k = 0;

	parse(f, f->d, &f->p, ms_cs_dsl_builtin("couto"));
	parse(f, f->d, &f->q,
	      "yes-no: ((sum(map((lambda x : (progress_value * (NumberAdvancedThisRound * "
	      "PositionsPlayerHasSecuredInColumn))), neutrals)) - sum(map((lambda x : sum(neutrals)), neutrals))) + "
	      "((DifficultyScore * DifficultyScore) + (DifficultyScore + 1)))\ncolumn: " COUTO_COLUMN);
	for (int i = 0; i < 6; i++)
		assert_int_equal(play(f, f->p, 3, i, &sa), play(f, f->q, 3, i, &sb));
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->p, f->q, &o, &df), 0);
	assert_int_equal(df.equal, 0);
	assert_int_equal(df.match, 3);
	assert_int_equal(df.program_first, 0);
	assert_int_equal(df.kind, MS_CS_DIFF_YES_NO);
	assert_int_equal(df.decision, 39);
	assert_string_equal(df.reference, "y (roll again)");
	assert_string_equal(df.candidate, "n (stop)");
	/* the spies find the same first call that differs in that match */
	play(f, f->p, 3, 3, &sa);
	play(f, f->q, 3, 3, &sb);
	while (k < sa.n && k < sb.n && sa.value[k] == sb.value[k])
		k++;
	assert_int_equal(k, df.decision);
	assert_int_equal(sa.at[k], df.ply);
	assert_int_equal(sa.value[k], MS_CS_MOVE_YES);
	assert_int_equal(sb.value[k], MS_CS_MOVE_NO);
	assert_non_null(strstr(df.message, "match 3"));
	print_message("%s\n", df.message);

	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->q, f->q, &o, &df), 0);
	assert_int_equal(df.equal, 1);
	assert_int_equal(df.match, -1);
	assert_int_equal(df.matches, 6);
}

/*
 * A program that raises (NumberAdvancedThisRound outside a Map) ends the
 * evaluation at its first yes/no decision: the proof's matches end there,
 * and a simplification must raise at the same call.
 */
static void test_cs_dsl_simplify__a_raising_program_is_proved_up_to_its_error(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(50, 1);
	ms_cs_dsl_simplify_stats st;
	ms_cs_dsl_diff df;
	const char *text = "yes-no: (NumberAdvancedThisRound + DifficultyScore)\ncolumn: " COUTO_COLUMN;

	parse(f, f->d, &f->p, text);
	parse(f, f->d, &f->q, text);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, &st), 0);
	assert_int_equal(st.matches, 1);
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->q, f->p, &o, &df), 0);
	assert_int_equal(df.equal, 1);
	assert_int_equal(df.matches, 1);
	/* against a program that does not raise there, the error is the difference */
	parse(f, f->d, &f->p, ms_cs_dsl_builtin("couto"));
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->q, f->p, &o, &df), 0);
	assert_int_equal(df.equal, 0);
	assert_int_equal(df.match, 0);
	assert_int_equal(df.kind, MS_CS_DIFF_YES_NO);
	assert_non_null(strstr(df.reference, "run-time error"));
}

/* ---- errors ------------------------------------------------------------------------ */

static void test_cs_dsl_simplify__bad_input_is_refused_and_changes_nothing(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(4, 0);
	ms_cs_dsl_diff df;
	ms_cs_player broken = { NULL, NULL, NULL, "broken" };

	parse(f, f->d, &f->p, ms_cs_dsl_builtin("couto"));
	parse(f, f->d, &f->q, ms_cs_dsl_builtin("couto"));
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, NULL, NULL), MS_EINVAL);
	o.version = 99;
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "version 99"));
	o = proof(4, 0);
	o.era = 7;
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, NULL), MS_EINVAL);
	o = proof(-1, 0);
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->d, f->p, f->q, &o, &df), MS_EINVAL);
	o = proof(4, 0);
	o.opponent = &broken;
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, NULL), MS_EINVAL);
	assert_true(ms_dsl_equal(f->p, f->q));

	/* a program of another grammar than the proof's */
	o = proof(4, 0);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->ext, f->p, &o, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "another grammar"));
	assert_int_equal(ms_cs_dsl_equal(f->ctx, f->ext, f->p, f->q, &o, &df), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "program A"));
	assert_true(ms_dsl_equal(f->p, f->q));
}

static void test_cs_dsl_simplify__partial_programs_are_refused(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(4, 0);
	const ms_dsl_grammar *g = ms_cs_dsl_grammar(f->d);

	/* DoubleProgram with a hole for its column program */
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, g), 0);
	assert_int_equal(ms_dsl_prog_push(f->p, MS_CS_P_DOUBLE_PROGRAM), 0);
	assert_int_equal(ms_dsl_prog_push(f->p, ms_dsl_hole(MS_CS_NT_PROGRAM)), 0);
	assert_int_equal(ms_dsl_prog_push(f->p, ms_dsl_hole(MS_CS_NT_PROGRAM)), 0);
	assert_int_equal(ms_dsl_prog_finish(f->p, MS_CS_NT_START), 0);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "holes"));
	assert_int_equal(ms_dsl_prog_len(f->p), 3);
	/* a column program alone */
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->q, g), 0);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->q, COUTO_COLUMN, strlen(COUTO_COLUMN), MS_CS_NT_PROGRAM, "col"), 0);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->q, &o, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "not a whole program"));
}

/* Every allocation of a simplification may fail: MS_ENOMEM, the program as it was, nothing leaked. */
static void test_cs_dsl_simplify__out_of_memory_anywhere_leaks_nothing(void **state)
{
	ms_test_alloc t = { 0, 0, 0 };
	ms_allocator a;
	ms_ctx *ctx = ms_test_ctx_with(&t, &a);
	ms_cs_dsl *d = NULL;
	ms_dsl_prog *p = NULL, *q = NULL;
	ms_cs_dsl_proof_options o = proof(4, 0);
	const char *text = "yes-no: (" COUTO_YES_NO " + (DifficultyScore * 0))\ncolumn: " COUTO_COLUMN;
	int rc = MS_ENOMEM;
	long n;

	(void)state;
	assert_non_null(ctx);
	assert_int_equal(ms_cs_dsl_new(ctx, &d, NULL), 0);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)), 0);
	assert_int_equal(ms_cs_dsl_parse(d, p, text, strlen(text), MS_CS_NT_START, "t"), 0);
	assert_int_equal(ms_dsl_prog_clone(&q, p), 0);
	for (n = 1; rc == MS_ENOMEM && n < 100000; n++) {
		long live = t.live;

		t.calls = 0;
		t.fail_at = n;
		rc = ms_cs_dsl_simplify(ctx, d, p, &o, NULL);
		t.fail_at = 0;
		assert_int_equal(t.live, live);
		if (rc == MS_ENOMEM) {
			assert_true(ms_dsl_equal(p, q));
			assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(ms_dsl_prog_len(p), ms_dsl_prog_len(q) - 5);
	print_message("simplify: %ld allocations, each failed once\n", n - 2);
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_cs_dsl_free(d);
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

/* The log hears of every candidate replayed, with where the refused ones first differ. */
typedef struct log_count {
	long tried, kept;
	int bad;
} log_count;

static void count_log(void *ud, const ms_dsl_prog *cur, int at, const ms_dsl_prog *cand, const ms_cs_dsl_diff *diff)
{
	log_count *c = ud;

	c->tried++;
	c->kept += diff == NULL;
	/* the prefix before `at` is unchanged, the candidate is smaller */
	if (ms_dsl_prog_len(cand) >= ms_dsl_prog_len(cur) ||
	    memcmp(ms_dsl_prog_nodes(cand), ms_dsl_prog_nodes(cur), sizeof(ms_dsl_sym) * (size_t)at) ||
	    (diff && (diff->equal || diff->match < 0 || !diff->message[0])))
		c->bad++;
}

static void test_cs_dsl_simplify__log_hears_of_every_candidate(void **state)
{
	fixture *f = *state;
	ms_cs_dsl_proof_options o = proof(20, 0);
	ms_cs_dsl_simplify_stats st;
	log_count c = { 0, 0, 0 };

	o.log = count_log;
	o.ud = &c;
	parse(f, f->d, &f->p, "yes-no: (" COUTO_YES_NO " + (DifficultyScore * 0))\ncolumn: " COUTO_COLUMN);
	assert_int_equal(ms_cs_dsl_simplify(f->ctx, f->d, f->p, &o, &st), 0);
	assert_int_equal(c.tried, st.candidates);
	assert_int_equal(c.kept, st.kept);
	assert_int_equal(c.bad, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__dead_code_goes_and_the_rest_is_proved_equal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__programs_where_every_part_matters_are_unchanged, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__best_program_loses_its_product_with_zero, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_equal__is_checked_decision_by_decision_not_by_outcome, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__a_raising_program_is_proved_up_to_its_error, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__bad_input_is_refused_and_changes_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__partial_programs_are_refused, setup, teardown),
		cmocka_unit_test(test_cs_dsl_simplify__out_of_memory_anywhere_leaks_nothing),
		cmocka_unit_test_setup_teardown(test_cs_dsl_simplify__log_hears_of_every_candidate, setup, teardown),
	};

	programs_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
