/*
 * Node semantics of the Can't Stop DSL on hand-made decision environments
 * (spec 5.3-5.6): the Python/numpy value kinds each construct produces,
 * Map's binding rule and dynamic scoping, numpy's Sum and Argmax on
 * nested, empty, ragged and string lists, the domain functions, every
 * error the reference raises, and how the wrapper turns values into
 * decisions.
 */
#include "cs_testutil.h"

#include <stdio.h>

#include "microsynth/cantstop_dsl.h"

/* Column decisions: (4,10) (5,9) (7,7), no neutrals (spec 3.4); and (6,6) (7) (5) with neutrals 6 and 8. */
#define S_COL "roll=1,3,4,6"
#define S_COL2 "roll=2,4,3,3 neutral=6:0,8:0"
/* Yes/no with neutrals 7 (advanced 2), 8 (1), 6 (2); and with none. */
#define S_YN "phase=yesno neutral=7:6,8:0,6:1 m1=7:4"
#define S_YN0 "phase=yesno"

typedef struct fixture {
	ms_ctx *ctx;
	ms_cs_dsl *d, *ext;
	ms_cs_dsl_runner *r, *rx;
	ms_dsl_prog *p, *px;
	char out[1024];
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	ms_cs_dsl_options e = { .version = MS_CS_DSL_OPTIONS_VERSION,
					.constants = MS_CS_DSL_CONSTANTS_01, .extended = 1 };

	if (!f || ms_ctx_new(&f->ctx, NULL) || ms_cs_dsl_new(f->ctx, &f->d, NULL) || ms_cs_dsl_new(f->ctx, &f->ext, &e) ||
	    ms_cs_dsl_runner_new(f->ctx, &f->r, f->d) || ms_cs_dsl_runner_new(f->ctx, &f->rx, f->ext) ||
	    ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)) ||
	    ms_dsl_prog_new(f->ctx, &f->px, ms_cs_dsl_grammar(f->ext)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;

	ms_dsl_prog_free(f->p);
	ms_dsl_prog_free(f->px);
	ms_cs_dsl_runner_free(f->r);
	ms_cs_dsl_runner_free(f->rx);
	ms_cs_dsl_free(f->d);
	ms_cs_dsl_free(f->ext);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/*
 * Evaluates `text` (non-terminal nt; ext: the extended grammar) on the
 * decision of state `st`, whose legal list is the environment's actions.
 * Returns the value as ms_cs_dsl_value_format writes it, or "!" and the
 * error message.
 */
static const char *run(fixture *f, int ext, int nt, const char *st, const char *text)
{
	static const ms_cs_move yn[2] = { { MS_CS_MOVE_YES, 0, { 0, 0 } }, { MS_CS_MOVE_NO, 0, { 0, 0 } } };
	ms_cs_dsl *d = ext ? f->ext : f->d;
	ms_cs_dsl_runner *r = ext ? f->rx : f->r;
	ms_dsl_prog *p = ext ? f->px : f->p;
	ms_cs_state s = cs_state(st);
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	ms_cs_env env;
	ms_cs_dsl_value v;
	int n;

	if (ms_cs_dsl_parse(d, p, text, strlen(text), nt, "case"))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	assert_int_equal(ms_cs_dsl_runner_load(r, p), 0);
	if (s.dice_action)
		n = ms_cs_legal_actions(&s, acts);
	else
		memcpy(acts, yn, sizeof(yn)), n = 2;
	ms_cs_env_init(&env, &s, acts, n);
	if (ms_cs_dsl_eval(r, &env, &v) != 0) {
		assert_int_equal(ms_ctx_last_status(f->ctx), MS_ERANGE);
		snprintf(f->out, sizeof(f->out), "!%s", ms_ctx_last_error(f->ctx));
	} else {
		ms_cs_dsl_value_format(r, &v, f->out, sizeof(f->out));
	}
	return f->out;
}

typedef struct eval_case {
	int ext, nt;
	const char *state, *text, *want; /* want: the value, or "!" and part of the message */
} eval_case;

static void run_cases(fixture *f, const eval_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = run(f, c[i].ext, c[i].nt, c[i].state, c[i].text);
		int ok = c[i].want[0] == '!' ? got[0] == '!' && strstr(got, c[i].want + 1) != NULL
					     : strcmp(got, c[i].want) == 0;

		if (!ok)
			fail_msg("case %zu: %s\n  got  %s\n  want %s", i, c[i].text, got, c[i].want);
	}
}

enum { B = 0, X = 1 }; /* grammar: the searches' (base) or extended */
enum {
	PROG = MS_CS_NT_PROGRAM,
	LIST = MS_CS_NT_AGGREGATED,
	BLOCK = MS_CS_NT_BLOCK,
	CMP = MS_CS_NT_COMPARED,
	LAMBDA = MS_CS_NT_LAMBDA
};

static void test_cs_dsl_eval__variables_and_constants(void **state)
{
	static const eval_case c[] = {
		{ B, CMP, S_YN, "1", "1" },
		{ B, LIST, S_YN, "neutrals", "[7, 8, 6]" },
		{ B, LIST, S_YN0, "neutrals", "[]" },
		{ B, LIST, S_COL, "actions", "[(4, 10), (5, 9), (7, 7)]" },
		{ B, LIST, S_COL2, "actions", "[(6, 6), (7,), (5,)]" },
		{ B, LIST, S_YN, "actions", "['y', 'n']" },
		{ X, PROG, S_YN, "(marker + 0)", "6" },
		/* VarScalarFromArray reads the array at the bound column. */
		{ B, LIST, S_COL, "map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions)",
		  "[[2, 2], [0, 0], [3, 3]]" },
		{ B, LIST, S_YN, "map((lambda x : (progress_value + 0)), neutrals)", "[1, 2, 2]" },
		{ B, PROG, S_YN, "(progress_value + 0)", "!no column is bound" },
	};

	run_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void test_cs_dsl_eval__sum_is_numpy_sum(void **state)
{
	static const eval_case c[] = {
		{ B, PROG, S_YN, "sum(neutrals)", "np.int64(21)" },
		/* An empty list sums to the float 0.0. */
		{ B, PROG, S_YN0, "sum(neutrals)", "np.float64(0.0)" },
		/* Equal-length tuples form a 2-D array summed over all elements. */
		{ B, PROG, S_COL, "sum(actions)", "np.int64(42)" },
		{ B, PROG, S_COL, "sum(map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions))",
		  "np.int64(10)" },
		/* Ragged nestings (a pair beside singles) are an error (numpy 1.24). */
		{ B, PROG, S_COL2, "sum(actions)", "!ragged" },
		{ B, PROG, S_COL2, "sum(map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions))", "!ragged" },
		/* Strings cannot be added. */
		{ B, PROG, S_YN, "sum(actions)", "!sum of strings" },
		/* Lists of empty lists are an empty float array. */
		{ B, PROG, S_COL, "sum(map((lambda x : map((lambda x : (move_value + 0)), neutrals)), actions))",
		  "np.float64(0.0)" },
		/* Sums of Sums: numpy integers in, numpy integer out. */
		{ B, PROG, S_COL, "sum(map((lambda x : sum(local_list)), actions))", "np.int64(42)" },
		/* A float anywhere makes the array float. */
		{ B, PROG, S_COL, "sum(map((lambda x : (sum(neutrals) + 1)), actions))", "np.float64(3.0)" },
	};

	run_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void test_cs_dsl_eval__argmax_is_numpy_argmax(void **state)
{
	static const eval_case c[] = {
		{ B, PROG, S_YN, "argmax(neutrals)", "np.int64(1)" },
		/* The first of equal maxima. */
		{ B, PROG, S_YN, "argmax(map((lambda x : (NumberAdvancedThisRound + 0)), neutrals))", "np.int64(0)" },
		/* The lexicographic maximum of ['y', 'n'] is 'y'. */
		{ B, PROG, S_YN, "argmax(actions)", "np.int64(0)" },
		/* A flattened index: [4, 10, 5, 9, 7, 7]. */
		{ B, PROG, S_COL, "argmax(actions)", "np.int64(1)" },
		{ B, PROG, S_COL, "argmax(map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions))",
		  "np.int64(4)" },
		{ B, PROG, S_YN0, "argmax(neutrals)", "!argmax of an empty sequence" },
		{ B, PROG, S_COL, "argmax(map((lambda x : map((lambda x : (move_value + 0)), neutrals)), actions))",
		  "!argmax of an empty sequence" },
		{ B, PROG, S_COL2, "argmax(actions)", "!ragged" },
	};

	run_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void test_cs_dsl_eval__map_binds_by_type_with_dynamic_scoping(void **state)
{
	static const eval_case c[] = {
		/* Python ints bind `int`: results of Plus on ints can be mapped again (and are columns then). */
		{ B, LIST, S_YN, "map((lambda x : (NumberAdvancedThisRound + 1)), neutrals)", "[3, 2, 3]" },
		{ B, LIST, S_YN,
		  "map((lambda x : (PositionsPlayerHasSecuredInColumn + 0)), map((lambda x : (NumberAdvancedThisRound + (((1 + 1) + (1 + 1)) + 1))), "
		  "neutrals))",
		  "[7, 2, 7]" },
		/* Tuples bind `list`. */
		{ B, LIST, S_COL, "map((lambda x : sum(local_list)), actions)",
		  "[np.int64(14), np.int64(14), np.int64(14)]" },
		/* numpy integers (results of Sum) cannot be bound. */
		{ B, LIST, S_COL, "map((lambda x : (1 + 1)), map((lambda x : sum(local_list)), actions))",
		  "!map binds a numpy int64" },
		{ B, LIST, S_YN0, "map((lambda x : (1 + 1)), map((lambda x : sum(neutrals)), actions))", "!map binds a string" },
		{ B, LIST, S_YN, "map((lambda x : (1 + 1)), actions)", "!map binds a string" },
		/* Lists bind `list`: a list of lists mapped again. */
		{ B, LIST, S_COL, "map((lambda x : (NumberAdvancedByAction + 0)), map((lambda x : map((lambda x : (0 + 0)), "
				  "local_list)), actions))",
		  "[2, 2, 2]" },
		/* An empty list binds nothing; the body never runs. */
		{ B, LIST, S_YN0, "map((lambda x : sum(local_list)), neutrals)", "[]" },
		/* Bindings outlive their Map, and Plus evaluates left to right (the last neutral is 6: pv 2). */
		{ B, PROG, S_YN, "(sum(map((lambda x : (0 + 0)), neutrals)) + progress_value)", "np.int64(2)" },
		{ B, PROG, S_YN, "(progress_value + sum(map((lambda x : (0 + 0)), neutrals)))", "!no column is bound" },
		/* An inner Map overwrites the outer one's binding: the outer binds 5 (mv 0), the inner leaves 8 (mv 4). */
		{ B, LIST, S_COL2,
		  "map((lambda x : (sum(map((lambda x : (0 + 0)), neutrals)) + move_value)), map((lambda x : "
		  "(NumberAdvancedThisRound + ((1 + 1) + (1 + 1)))), neutrals))",
		  "[np.int64(4), np.int64(4)]" },
		/* The column program's outer Map leaves its last action bound. */
		{ B, PROG, S_COL, "(sum(map((lambda x : (0 + 0)), actions)) + sum(local_list))", "np.int64(14)" },
		/* Columns outside 2..12 raise (the recommended C behaviour of spec 5.4). */
		{ B, LIST, S_YN, "map((lambda x : (progress_value + 0)), map((lambda x : (1 + 0)), neutrals))",
		  "!the bound int 1 is not a column" },
		{ B, LIST, S_YN,
		  "map((lambda x : (NumberAdvancedThisRound + 0)), map((lambda x : (NumberAdvancedThisRound + (((1 + 1) + (1 + 1)) * ((1 + 1) + (1 + 1))))), neutrals))",
		  "!the bound int 18 is not a column" },
	};

	run_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void test_cs_dsl_eval__arithmetic_kinds_ite_and_lt(void **state)
{
	static const eval_case c[] = {
		{ B, PROG, S_YN, "(1 + 1)", "2" },
		{ B, PROG, S_YN, "((1 + 1) * (1 - 0))", "2" },
		{ B, PROG, S_YN, "(sum(neutrals) - 1)", "np.int64(20)" },
		{ B, PROG, S_YN0, "(sum(neutrals) * 1)", "np.float64(0.0)" },
		{ B, PROG, S_YN0, "(DifficultyScore * DifficultyScore)", "361" },
		{ B, PROG, S_YN, "(0 - (1 + 1))", "-2" },
		/* Only the chosen branch runs. */
		{ B, BLOCK, S_YN, "if 0 < 1 then: sum(neutrals) else: argmax(local_list)", "np.int64(21)" },
		{ B, BLOCK, S_YN, "if 1 < 0 then: argmax(local_list) else: (1 + 1)", "2" },
		{ B, BLOCK, S_YN, "if 1 < 1 then: (1 + 0) else: (0 + 0)", "0" },
		/* A float compares with an int. */
		{ B, BLOCK, S_YN0, "if sum(neutrals) < 1 then: (1 + 0) else: (0 + 0)", "1" },
		{ B, BLOCK, S_YN, "if sum(neutrals) < 1 then: (1 + 0) else: (0 + 0)", "0" },
		/* The condition's errors surface. */
		{ B, BLOCK, S_YN, "if sum(local_list) < 1 then: (1 + 0) else: (0 + 0)", "!local_list is read before" },
		/* Booleans count as 0/1; bool + bool is an int. */
		{ X, LIST, S_COL2,
		  "map((lambda x : (IsNewNeutral + IsNewNeutral)), map((lambda x : (NumberAdvancedThisRound + (((1 + 1) + (1 + 1)) + (1 + 1)))), neutrals))",
		  "[2, 2]" },
		{ X, PROG, S_YN0, "(PlayerWinsAfterStopping + AreThereNeutralsToPlay)", "1" },
		{ B, LAMBDA, S_YN, "(lambda x : (1 + 1))", "!a lambda outside a map" },
	};

	run_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void test_cs_dsl_eval__domain_functions_read_the_bound_locals(void **state)
{
	fixture *f = *state;
	static const eval_case c[] = {
		{ B, LIST, S_YN, "map((lambda x : (NumberAdvancedThisRound + 0)), neutrals)", "[2, 1, 2]" },
		{ B, LIST, S_COL, "map((lambda x : (NumberAdvancedByAction + 0)), actions)", "[1, 1, 2]" },
		{ B, PROG, S_YN, "(NumberAdvancedByAction + 0)", "!no action is bound" },
		{ B, PROG, S_YN, "sum(local_list)", "!local_list is read before" },
		{ B, PROG, S_YN, "(DifficultyScore + 0)", "0" },
		{ B, PROG, "phase=yesno neutral=9:0,11:0,7:0", "(DifficultyScore + 0)", "13" },
		/* GA's column terms: a new neutral costs `marker`. */
		{ X, LIST, S_COL2, "map((lambda x : map((lambda x : (marker * IsNewNeutral)), local_list)), actions)",
		  "[[0, 0], [6], [6]]" },
		{ X, LIST, S_YN, "map((lambda x : (IsNewNeutral + 0)), neutrals)", "[0, 0, 0]" },
	};

	run_cases(f, c, sizeof(c) / sizeof(c[0]));
	/* The secured-positions functions agree with the native ones on a busy board. */
	{
		const char *st = "phase=yesno neutral=5:3,9:6,3:4 m1=5:1,9:2,12:1 m2=5:4,3:2,10:6 won=3 fin=2:1,11:2";
		ms_cs_state s = cs_state(st);
		char want[128];

		snprintf(want, sizeof(want), "[%d, %d, %d]", ms_cs_player_secured(&s, 5), ms_cs_player_secured(&s, 9),
			 ms_cs_player_secured(&s, 3));
		assert_string_equal(run(f, B, LIST, st, "map((lambda x : (PositionsPlayerHasSecuredInColumn + 0)), neutrals)"),
				    want);
		snprintf(want, sizeof(want), "[%d, %d, %d]", ms_cs_opponent_secured(&s, 5), ms_cs_opponent_secured(&s, 9),
			 ms_cs_opponent_secured(&s, 3));
		assert_string_equal(
			run(f, B, LIST, st, "map((lambda x : (PositionsOpponentHasSecuredInColumn + 0)), neutrals)"), want);
		snprintf(want, sizeof(want), "[%d, %d, %d]", ms_cs_advanced_this_round(&s, 5),
			 ms_cs_advanced_this_round(&s, 9), ms_cs_advanced_this_round(&s, 3));
		assert_string_equal(run(f, B, LIST, st, "map((lambda x : (NumberAdvancedThisRound + 0)), neutrals)"), want);
	}
}

/* The wrapper's decisions (spec 5.6) from the programs' values. */
static void test_cs_dsl_player__values_become_decisions_as_the_wrapper_says(void **state)
{
	fixture *f = *state;
	ms_cs_player pl;
	int answer, choice;
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	ms_cs_state yn = cs_state(S_YN), few = cs_state("phase=yesno neutral=2:2,12:2"), col = cs_state(S_COL);
	int n = ms_cs_legal_actions(&col, acts);
	static const char *safe = "argmax(map((lambda x : sum(local_list)), actions))";
	char text[512];

	ms_cs_dsl_runner_player(f->r, &pl);
	/* 21 + 1 < 29: roll on; 21 + 21 >= 29: stop. */
	snprintf(text, sizeof(text), "yes-no: (sum(neutrals) + 1)\ncolumn: %s", safe);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, text, strlen(text), MS_CS_NT_START, "t"), 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
	assert_int_equal(pl.yes_no(f->ctx, pl.ud, &yn, NULL, &answer), 0);
	assert_int_equal(answer, MS_CS_MOVE_YES);
	snprintf(text, sizeof(text), "yes-no: (sum(neutrals) + sum(neutrals))\ncolumn: %s", safe);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, text, strlen(text), MS_CS_NT_START, "t"), 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
	assert_int_equal(pl.yes_no(f->ctx, pl.ud, &yn, NULL, &answer), 0);
	assert_int_equal(answer, MS_CS_MOVE_NO);
	/* Fewer than three neutrals: rolling is forced whatever the value. */
	assert_int_equal(pl.yes_no(f->ctx, pl.ud, &few, NULL, &answer), 0);
	assert_int_equal(answer, MS_CS_MOVE_YES);
	/* Column: the first maximum of the sums (all 14): index 0; a negative index counts from the end. */
	assert_int_equal(pl.column(f->ctx, pl.ud, &col, acts, n, NULL, &choice), 0);
	assert_int_equal(choice, 0);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, "yes-no: (1 + 1)\ncolumn: (0 - 1)", 31, MS_CS_NT_START, "t"), 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
	assert_int_equal(pl.column(f->ctx, pl.ud, &col, acts, n, NULL, &choice), 0);
	assert_int_equal(choice, n - 1);
	/* Out of range, and a float, are errors. */
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, "yes-no: (1 + 1)\ncolumn: ((1 + 1) * (1 + 1))", 43, MS_CS_NT_START,
					 "t"),
			 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
	assert_int_equal(pl.column(f->ctx, pl.ud, &col, acts, n, NULL, &choice), MS_ERANGE);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, "yes-no: (1 + 1)\ncolumn: sum(neutrals)", 37, MS_CS_NT_START, "t"), 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
	assert_int_equal(pl.column(f->ctx, pl.ud, &col, acts, n, NULL, &choice), MS_ERANGE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "numpy float64, which cannot index"));
	/* A NULL context is allowed (no message). */
	assert_int_equal(pl.column(NULL, pl.ud, &col, acts, n, NULL, &choice), MS_ERANGE);
}

/* Evaluations start from fresh locals, and a runner's memory stops growing once it has seen a program's needs. */
static void test_cs_dsl_runner__fresh_locals_and_no_growth_per_decision(void **state)
{
	fixture *f = *state;

	assert_string_equal(run(f, B, PROG, S_COL, "(sum(map((lambda x : (0 + 0)), actions)) + sum(local_list))"),
			    "np.int64(14)");
	/* The same runner, the next decision: nothing is bound any more. */
	assert_non_null(strstr(run(f, B, PROG, S_COL, "sum(local_list)"), "local_list is read before"));
	/* Wide nested lists grow the arena once; a values' reference from an older evaluation is refused. */
	{
		ms_cs_state s = cs_state(S_COL);
		ms_cs_move acts[MS_CS_MAX_ACTIONS];
		ms_cs_env env;
		ms_cs_dsl_value v;
		const char *t = "map((lambda x : map((lambda x : map((lambda x : map((lambda x : (0 + 0)), actions)), "
				"actions)), actions)), actions)";
		char buf[16];

		assert_int_equal(ms_cs_dsl_parse(f->d, f->p, t, strlen(t), LIST, "t"), 0);
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
		ms_cs_env_init(&env, &s, acts, ms_cs_legal_actions(&s, acts));
		assert_int_equal(ms_cs_dsl_eval(f->r, &env, &v), 0);
		assert_int_equal(v.kind, MS_CS_VAL_LIST);
		assert_int_equal(v.len, 3);
		assert_string_equal(run(f, B, PROG, S_COL, "(1 + 1)"), "2");
		ms_cs_dsl_value_format(f->r, &v, buf, sizeof(buf));
		assert_string_equal(buf, "<stale list>");
	}
	/* Holes and foreign programs are refused at load. */
	{
		ms_dsl_prog *h;

		assert_int_equal(ms_dsl_prog_new(f->ctx, &h, ms_cs_dsl_grammar(f->d)), 0);
		assert_int_equal(ms_dsl_prog_push(h, MS_CS_P_DOUBLE_PROGRAM), 0);
		assert_int_equal(ms_dsl_prog_push(h, ms_dsl_hole(MS_CS_NT_PROGRAM)), 0);
		assert_int_equal(ms_dsl_prog_push(h, ms_dsl_hole(MS_CS_NT_PROGRAM)), 0);
		assert_int_equal(ms_dsl_prog_finish(h, MS_CS_NT_START), 0);
		assert_int_equal(ms_cs_dsl_runner_load(f->r, h), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "holes"));
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->px), MS_EINVAL);
		ms_dsl_prog_free(h);
	}
}

/* The ragged option: numpy 1.23.3's object arrays, as the pinned reference runs. */
static void test_cs_dsl_eval__ragged_lists_as_numpy_1_23_object_arrays(void **state)
{
	fixture *f = *state;
	ms_cs_dsl *d;
	ms_cs_dsl_runner *r;
	ms_dsl_prog *p;
	ms_cs_dsl_options o = { .version = MS_CS_DSL_OPTIONS_VERSION, .ragged = MS_CS_DSL_RAGGED_OBJECT };
	static const struct {
		const char *state, *text, *want;
	} c[] = {
		/* Tuples concatenate; Python compares them lexicographically: (7,) > (6, 6). */
		{ S_COL2, "sum(actions)", "(6, 6, 7, 5)" },
		{ S_COL2, "argmax(actions)", "np.int64(1)" },
		{ S_COL2, "sum(map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions))", "[4, 4, 3, 0]" },
		{ S_COL2, "argmax(map((lambda x : map((lambda x : (move_value + 0)), local_list)), actions))", "np.int64(0)" },
		/* Sequences repeat and concatenate; a numpy integer before a tuple would broadcast: refused. */
		{ S_COL2, "(sum(actions) * 0)", "()" },
		{ S_COL2, "(sum(actions) + sum(actions))", "(6, 6, 7, 5, 6, 6, 7, 5)" },
		{ S_COL2, "(sum(neutrals) + sum(actions))", "!arithmetic on a numpy int64 and a tuple" },
		/* Regular arrays are unchanged. */
		{ S_COL, "sum(actions)", "np.int64(42)" },
		{ S_COL, "argmax(actions)", "np.int64(1)" },
	};
	ms_cs_move acts[MS_CS_MAX_ACTIONS];

	assert_int_equal(ms_cs_dsl_new(f->ctx, &d, &o), 0);
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &r, d), 0);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_cs_dsl_grammar(d)), 0);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ms_cs_state s = cs_state(c[i].state);
		ms_cs_env env;
		ms_cs_dsl_value v;

		if (ms_cs_dsl_parse(d, p, c[i].text, strlen(c[i].text), PROG, "case"))
			fail_msg("%s", ms_ctx_last_error(f->ctx));
		assert_int_equal(ms_cs_dsl_runner_load(r, p), 0);
		ms_cs_env_init(&env, &s, acts, ms_cs_legal_actions(&s, acts));
		if (ms_cs_dsl_eval(r, &env, &v))
			snprintf(f->out, sizeof(f->out), "!%s", ms_ctx_last_error(f->ctx));
		else
			ms_cs_dsl_value_format(r, &v, f->out, sizeof(f->out));
		if (c[i].want[0] == '!' ? !strstr(f->out, c[i].want + 1) : strcmp(f->out, c[i].want) != 0)
			fail_msg("case %zu: %s\n  got  %s\n  want %s", i, c[i].text, f->out, c[i].want);
	}
	ms_dsl_prog_free(p);
	ms_cs_dsl_runner_free(r);
	ms_cs_dsl_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__variables_and_constants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__sum_is_numpy_sum, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__argmax_is_numpy_argmax, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__map_binds_by_type_with_dynamic_scoping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__arithmetic_kinds_ite_and_lt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__domain_functions_read_the_bound_locals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_player__values_become_decisions_as_the_wrapper_says, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_runner__fresh_locals_and_no_growth_per_decision, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_eval__ragged_lists_as_numpy_1_23_object_arrays, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
