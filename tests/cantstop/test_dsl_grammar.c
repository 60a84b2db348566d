/*
 * The Can't Stop DSL's grammar and text: the production tables of spec
 * 5.2, sizes and printing as the reference's Node.size and to_string
 * (5.8, 5.9), the reader's round trip and its line/column errors, random
 * generation's depth rule and mutation's positions (5.9).
 */
#define _POSIX_C_SOURCE 200809L
#include "cs_testutil.h"

#include <stdio.h>
#include <unistd.h>

#include "microsynth/cantstop_dsl.h"

typedef struct fixture {
	ms_ctx *ctx;
	ms_cs_dsl *d, *ibr, *ext;
	ms_dsl_prog *p, *q;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	ms_cs_dsl_options o = { .version = MS_CS_DSL_OPTIONS_VERSION,
					.constants = MS_CS_DSL_CONSTANTS_1_TO_7, .extended = 0 };
	ms_cs_dsl_options e = { .version = MS_CS_DSL_OPTIONS_VERSION,
					.constants = MS_CS_DSL_CONSTANTS_01, .extended = 1 };

	if (!f || ms_ctx_new(&f->ctx, NULL) || ms_cs_dsl_new(f->ctx, &f->d, NULL) || ms_cs_dsl_new(f->ctx, &f->ibr, &o) ||
	    ms_cs_dsl_new(f->ctx, &f->ext, &e) || ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)) ||
	    ms_dsl_prog_new(f->ctx, &f->q, ms_cs_dsl_grammar(f->d)))
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
	ms_cs_dsl_free(f->ibr);
	ms_cs_dsl_free(f->ext);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/* The alternatives of `nt` as names sorted, space-separated. */
static void alts_sorted(const ms_dsl_grammar *g, int nt, char *buf, size_t size)
{
	int n;
	const uint16_t *alts = ms_dsl_nt_alts(g, nt, &n);
	const char *names[64];
	size_t len = 0;

	for (int i = 0; i < n; i++)
		names[i] = ms_dsl_prod_name(g, alts[i]);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", names[i]);
}

static void test_cs_dsl_grammar__tables_are_those_of_spec_5_2(void **state)
{
	fixture *f = *state;
	const ms_dsl_grammar *g = ms_cs_dsl_grammar(f->d);
	static const struct {
		int nt;
		const char *alts;
	} want[] = {
		{ MS_CS_NT_START, "DoubleProgram" },
		{ MS_CS_NT_PROGRAM, "Argmax ITE Minus Plus Sum Times" },
		{ MS_CS_NT_COND, "LT" },
		{ MS_CS_NT_BLOCK, "Argmax ITE Minus Plus Sum Times" },
		{ MS_CS_NT_COMPARED, "Minus NumericConstant Plus Sum Times" },
		{ MS_CS_NT_OPERAND, "DifficultyScore Minus NumberAdvancedByAction NumberAdvancedThisRound NumericConstant Plus "
				    "PositionsOpponentHasSecuredInColumn PositionsPlayerHasSecuredInColumn Sum Times "
				    "VarScalarFromArray" },
		{ MS_CS_NT_AGGREGATED, "LocalList Map VarList" },
		{ MS_CS_NT_LAMBDA, "Function" },
		{ MS_CS_NT_MAPPED, "LocalList Map VarList" },
		{ MS_CS_NT_BODY, "Map Minus Plus Sum Times" },
		{ MS_CS_NT_CONSTANT, "0 1" },
		{ MS_CS_NT_LIST_NAME, "actions neutrals" },
		{ MS_CS_NT_ARRAY_NAME, "move_value progress_value" },
	};
	char buf[1024];

	assert_string_equal(ms_dsl_grammar_name(g), "cantstop");
	assert_int_equal(ms_dsl_nt_count(g), MS_CS_NT_COUNT);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		alts_sorted(g, want[i].nt, buf, sizeof(buf));
		assert_string_equal(buf, want[i].alts);
	}
	/* Unreachable in the searches' grammar (spec 5.2 last line, 9 item 3). */
	for (int nt = 0; nt < MS_CS_NT_COUNT; nt++) {
		assert_false(ms_dsl_nt_has(g, nt, MS_CS_P_IS_NEW_NEUTRAL));
		assert_false(ms_dsl_nt_has(g, nt, MS_CS_P_VAR_SCALAR));
	}
	alts_sorted(ms_cs_dsl_grammar(f->ibr), MS_CS_NT_CONSTANT, buf, sizeof(buf));
	assert_string_equal(buf, "1 2 3 4 5 6 7");
	assert_string_equal(ms_dsl_grammar_name(ms_cs_dsl_grammar(f->ibr)), "cantstop-ibr");
	alts_sorted(ms_cs_dsl_grammar(f->ext), MS_CS_NT_OPERAND, buf, sizeof(buf));
	assert_string_equal(buf, "AreThereNeutralsToPlay DifficultyScore IsNewNeutral Minus NumberAdvancedByAction "
				 "NumberAdvancedThisRound NumericConstant PlayerWinsAfterStopping Plus "
				 "PositionsOpponentHasSecuredInColumn PositionsPlayerHasSecuredInColumn Sum Times "
				 "VarScalar VarScalarFromArray");
}

static void test_cs_dsl_options__bad_versions_and_ranges_are_refused(void **state)
{
	fixture *f = *state;
	ms_cs_dsl *d = NULL;
	ms_cs_dsl_options o = { .version = 99 };

	assert_int_equal(ms_cs_dsl_new(f->ctx, &d, &o), MS_EINVAL);
	assert_null(d);
	o.version = MS_CS_DSL_OPTIONS_VERSION;
	o.constants = 5;
	assert_int_equal(ms_cs_dsl_new(f->ctx, &d, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "constants"));
}

/* Parses `text` as non-terminal nt of grammar d into p; fails the test with the message otherwise. */
static void parse_ok(ms_cs_dsl *d, ms_dsl_prog *p, const char *text, int nt)
{
	if (ms_cs_dsl_parse(d, p, text, strlen(text), nt, "t") != MS_OK)
		fail_msg("%s: %s", text, ms_ctx_last_error(ms_dsl_prog_ctx(p)));
}

static void assert_prints(ms_dsl_prog *p, const char *want)
{
	char *txt;

	assert_int_equal(ms_dsl_print(p, &txt, NULL), 0);
	assert_string_equal(txt, want);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), txt);
}

static void test_cs_dsl_print__is_the_reference_to_string(void **state)
{
	fixture *f = *state;
	/* Built from the token form (production names in pre-order), printed by the templates. */
	static const struct {
		const char *tokens, *printed;
	} cases[] = {
		{ "DoubleProgram Plus NumericConstant 1 DifficultyScore Argmax VarList actions",
		  "yes-no: (1 + DifficultyScore)\ncolumn: argmax(actions)" },
		{ "DoubleProgram ITE LT NumericConstant 0 Sum LocalList Minus VarScalarFromArray progress_value "
		  "NumberAdvancedThisRound Times PositionsPlayerHasSecuredInColumn PositionsOpponentHasSecuredInColumn "
		  "Sum Map Function Times NumberAdvancedByAction VarScalarFromArray move_value VarList neutrals",
		  "yes-no: if 0 < sum(local_list) then: (progress_value - NumberAdvancedThisRound) else: "
		  "(PositionsPlayerHasSecuredInColumn * PositionsOpponentHasSecuredInColumn)\n"
		  "column: sum(map((lambda x : (NumberAdvancedByAction * move_value)), neutrals))" },
		{ "DoubleProgram Sum Map Function Map Function Sum LocalList LocalList Map Function Plus NumericConstant 0 "
		  "NumericConstant 1 VarList neutrals Argmax LocalList",
		  "yes-no: sum(map((lambda x : map((lambda x : sum(local_list)), local_list)), "
		  "map((lambda x : (0 + 1)), neutrals)))\ncolumn: argmax(local_list)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(ms_dsl_parse_tokens(f->p, cases[i].tokens, strlen(cases[i].tokens), ' ', MS_CS_NT_START),
				 0);
		assert_prints(f->p, cases[i].printed);
		/* ... and the reader makes the same tree back. */
		parse_ok(f->d, f->q, cases[i].printed, MS_CS_NT_START);
		assert_true(ms_dsl_equal(f->p, f->q));
	}
}

static void test_cs_dsl_size__counts_as_the_reference_node_sizes(void **state)
{
	fixture *f = *state;

	/* DoubleProgram 0, Plus 1, the constant's wrapper 0 + value 1, DifficultyScore 1, Argmax 1, VarList 0 + 1. */
	parse_ok(f->d, f->p, "yes-no: (1 + DifficultyScore)\ncolumn: argmax(actions)", MS_CS_NT_START);
	assert_int_equal(ms_dsl_size(f->p), 5);
	assert_int_equal(ms_dsl_prog_len(f->p), 8);
	/* LocalList counts 0: Sum 1 + LocalList 0 (both programs). */
	parse_ok(f->d, f->p, "yes-no: sum(local_list)\ncolumn: sum(local_list)", MS_CS_NT_START);
	assert_int_equal(ms_dsl_size(f->p), 2);
	/* The published program: every node counts 1 but the zero-sized kinds. */
	parse_ok(f->d, f->p, ms_cs_dsl_builtin("couto"), MS_CS_NT_START);
	{
		const ms_dsl_sym *s = ms_dsl_prog_nodes(f->p);
		int zero = 0;

		for (int i = 0; i < ms_dsl_prog_len(f->p); i++)
			zero += s[i] == MS_CS_P_DOUBLE_PROGRAM || s[i] == MS_CS_P_LOCAL_LIST || s[i] == MS_CS_P_VAR_LIST ||
				s[i] == MS_CS_P_VAR_ARRAY || s[i] == MS_CS_P_NUMERIC_CONSTANT;
		assert_int_equal(ms_dsl_size(f->p), ms_dsl_prog_len(f->p) - zero);
	}
}

static void test_cs_dsl_builtins__parse_in_their_grammars_and_print_back(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *e;

	parse_ok(f->d, f->p, ms_cs_dsl_builtin("couto"), MS_CS_NT_START);
	assert_prints(f->p, ms_cs_dsl_builtin("couto"));
	/* GA needs marker and IsNewNeutral: not in the searches' grammar (spec 9 item 3). */
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, ms_cs_dsl_builtin("ga"), strlen(ms_cs_dsl_builtin("ga")),
					 MS_CS_NT_START, "ga"),
			 MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "ga:2:"));
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "VarScalar cannot stand where a Operand is expected"));
	assert_int_equal(ms_dsl_prog_new(f->ctx, &e, ms_cs_dsl_grammar(f->ext)), 0);
	parse_ok(f->ext, e, ms_cs_dsl_builtin("ga"), MS_CS_NT_START);
	assert_prints(e, ms_cs_dsl_builtin("ga"));
	ms_dsl_prog_free(e);
	assert_null(ms_cs_dsl_builtin("glenn"));
}

static void test_cs_dsl_parse__errors_name_line_and_column(void **state)
{
	fixture *f = *state;
	static const struct {
		const char *text, *where, *what;
	} cases[] = {
		{ "", "t:1:1:", "expected 'yes-no:', found the end of the text" },
		{ "yes-no: sum(neutrals)", "t:1:22:", "expected 'column:'" },
		{ "yes-no: sum(neutrals)\ncolumn: argmax(actions) x", "t:2:25:", "expected the end of the program" },
		{ "yes-no: (1 + 2)\ncolumn: argmax(actions)", "t:1:14:", "2 is not a value of NumericConstant" },
		{ "yes-no: (1 + 12)\ncolumn: argmax(actions)", "t:1:14:", "constants are 0..7" },
		{ "yes-no: argmax(1)\ncolumn: argmax(actions)", "t:1:16:",
		  "NumericConstant cannot stand where a Aggregated is expected" },
		{ "yes-no: (1 / 1)\ncolumn: argmax(actions)", "t:1:12:", "expected '+', '-' or '*'" },
		{ "yes-no: (neutrals + 1)\ncolumn: argmax(actions)", "t:1:10:", "VarList cannot stand where a Operand" },
		{ "yes-no: sum(actions)\ncolumn:\n  (DifficultyScore + map((lambda x : 1), actions))", "t:3:22:",
		  "Map cannot stand where a Operand" },
		{ "yes-no: if 1 < 0 then: sum(neutrals)\ncolumn: argmax(actions)", "t:2:1:", "expected 'else:'" },
		{ "yes-no: sum(map((lambda y : 1), neutrals))\ncolumn: argmax(actions)", "t:1:25:",
		  "expected 'x' after 'lambda'" },
		{ "yes-no: sum(map((lambda x : 1), neutrals))\ncolumn: argmax(actions)", "t:1:29:",
		  "NumericConstant cannot stand where a Body is expected" },
		{ "yes-no: Foo\ncolumn: argmax(actions)", "t:1:9:", "expected a Program" },
		{ "yes-no: sum(neutrals) $\ncolumn: argmax(actions)", "t:1:23:", "found '$'" },
		{ "yes-no: (1 +\n# a comment\n   marker)\ncolumn: argmax(actions)", "t:3:4:", "VarScalar cannot stand" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = ms_cs_dsl_parse(f->d, f->p, cases[i].text, strlen(cases[i].text), MS_CS_NT_START, "t");
		const char *msg = ms_ctx_last_error(f->ctx);

		if (rc != MS_EPARSE || !strstr(msg, cases[i].where) || !strstr(msg, cases[i].what))
			fail_msg("case %zu: rc %d, message '%s'; wanted '%s' and '%s'", i, rc, msg, cases[i].where,
				 cases[i].what);
		assert_int_equal(ms_dsl_prog_len(f->p), 0);
	}
	/* Free spacing and comments are accepted; the printed form stays canonical. */
	parse_ok(f->d, f->p, "# header\n yes - no :(1+DifficultyScore) # c\n\ncolumn:argmax( actions )\n", MS_CS_NT_START);
	assert_prints(f->p, "yes-no: (1 + DifficultyScore)\ncolumn: argmax(actions)");
	/* Any non-terminal can be read on its own, values included. */
	parse_ok(f->d, f->p, "if 0 < 1 then: sum(neutrals) else: argmax(neutrals)", MS_CS_NT_BLOCK);
	assert_int_equal(ms_dsl_prog_nt(f->p), MS_CS_NT_BLOCK);
	parse_ok(f->d, f->p, "(lambda x : (1 + 1))", MS_CS_NT_LAMBDA);
	assert_prints(f->p, "(lambda x : (1 + 1))");
	parse_ok(f->d, f->p, " move_value ", MS_CS_NT_ARRAY_NAME);
	assert_prints(f->p, "move_value");
	parse_ok(f->d, f->p, "1", MS_CS_NT_CONSTANT);
	assert_int_equal(ms_cs_dsl_parse(f->d, f->p, "7", 1, MS_CS_NT_CONSTANT, "t"), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "t:1:1: expected a Constant (0 1)"));
	/* Deep nesting is refused with a message, not a crash. */
	{
		size_t n = 5000, k = 0;
		char *deep = malloc(n * 2 + 64);

		k += (size_t)sprintf(deep, "yes-no: ");
		for (size_t i = 0; i < n / 2; i++)
			deep[k++] = '(';
		deep[k] = '\0';
		assert_int_equal(ms_cs_dsl_parse(f->d, f->p, deep, k, MS_CS_NT_START, "t"), MS_EPARSE);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "deeper than"));
		free(deep);
	}
}

/* Depth of each node (root 0). */
static void depths(const ms_dsl_prog *p, int *out)
{
	out[0] = 0;
	for (int i = 1; i < ms_dsl_prog_len(p); i++) {
		int slot, parent = ms_dsl_parent(p, i, &slot);

		out[i] = out[parent] + 1;
	}
}

/* Whether `prod` is in the set the reference draws from at or below the depth limit for `nt`. */
static int terminal_first(const ms_dsl_grammar *g, int nt, int prod)
{
	int n, has_term = 0, has_unary = 0;
	const uint16_t *alts = ms_dsl_nt_alts(g, nt, &n);

	for (int a = 0; a < n; a++) {
		int ar = ms_dsl_prod_arity(g, alts[a]);
		int wrap = alts[a] == MS_CS_P_NUMERIC_CONSTANT || alts[a] == MS_CS_P_VAR_LIST ||
			   alts[a] == MS_CS_P_VAR_ARRAY || alts[a] == MS_CS_P_VAR_SCALAR;

		has_term |= ar == 0 || wrap;
		has_unary |= ar == 1 && !wrap;
	}
	int ar = ms_dsl_prod_arity(g, prod);
	int wrap = prod == MS_CS_P_NUMERIC_CONSTANT || prod == MS_CS_P_VAR_LIST || prod == MS_CS_P_VAR_ARRAY ||
		   prod == MS_CS_P_VAR_SCALAR;

	if (has_term)
		return ar == 0 || wrap;
	if (has_unary)
		return ar == 1;
	return 1;
}

static void test_cs_dsl_generate__follows_the_depth_rule_of_fill_random_program(void **state)
{
	fixture *f = *state;
	const ms_dsl_grammar *g = ms_cs_dsl_grammar(f->d);
	ms_jrandom rng;
	int d[4096], max_depth = 0, deep_nodes = 0, root_kind[MS_CS_P_COUNT] = { 0 }, n = 4000;
	long total = 0;

	ms_jrandom_init(&rng, 7);
	for (int k = 0; k < n; k++) {
		assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
		assert_int_equal(ms_dsl_prog_nt(f->p), MS_CS_NT_START);
		assert_true(ms_dsl_prog_len(f->p) < 4096);
		depths(f->p, d);
		for (int i = 0; i < ms_dsl_prog_len(f->p); i++) {
			/* Children of nodes at depth >= 4 (the reference's max_depth) come from the terminal-first set. */
			if (d[i] >= 5) {
				deep_nodes++;
				assert_true(terminal_first(g, ms_dsl_node_nt(f->p, i), ms_dsl_prog_nodes(f->p)[i]));
			}
			if (d[i] > max_depth)
				max_depth = d[i];
		}
		root_kind[ms_dsl_prog_nodes(f->p)[1]]++;
		total += ms_dsl_size(f->p);
	}
	/* Deepest possible: Map at 4, Function 5, Sum 6, VarList 7, its value 8. */
	assert_true(deep_nodes > 0);
	assert_true(max_depth <= 8);
	assert_int_equal(max_depth, 8);
	/* The yes/no slot is uniform over its six productions: 4000/6 each, within 4 standard deviations. */
	for (int prod = 0; prod < MS_CS_P_COUNT; prod++)
		if (ms_dsl_nt_has(g, MS_CS_NT_PROGRAM, prod))
			assert_true(root_kind[prod] > 667 - 95 && root_kind[prod] < 667 + 95);
	print_message("mean size of random programs: %.1f\n", (double)total / n);
	/* Reproducible for a seed. */
	ms_jrandom_init(&rng, 99);
	assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
	ms_jrandom_init(&rng, 99);
	assert_int_equal(ms_cs_dsl_generate(f->d, f->q, &rng), 0);
	assert_true(ms_dsl_equal(f->p, f->q));
}

/* print -> parse -> print over many random programs of a grammar. */
static void round_trip(ms_cs_dsl *d, int n, int64_t seed)
{
	ms_ctx *ctx = NULL;
	ms_dsl_prog *p, *q;
	ms_jrandom rng;

	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d)), 0);
	assert_int_equal(ms_dsl_prog_new(ctx, &q, ms_cs_dsl_grammar(d)), 0);
	ms_jrandom_init(&rng, seed);
	for (int k = 0; k < n; k++) {
		char *a, *b, *t;
		size_t la;

		assert_int_equal(ms_cs_dsl_generate(d, p, &rng), 0);
		for (int m = k % 4; m > 0; m--) /* mutated programs grow beyond the generation depth */
			assert_int_equal(ms_cs_dsl_mutate(d, p, &rng, NULL), 0);
		assert_int_equal(ms_dsl_print(p, &a, &la), 0);
		if (ms_cs_dsl_parse(d, q, a, la, MS_CS_NT_START, "rt") != 0)
			fail_msg("%s\n%s", a, ms_ctx_last_error(ctx));
		assert_true(ms_dsl_equal(p, q));
		assert_int_equal(ms_dsl_print(q, &b, NULL), 0);
		assert_string_equal(a, b);
		/* The token form too. */
		assert_int_equal(ms_dsl_print_tokens(p, ' ', &t, NULL), 0);
		assert_int_equal(ms_dsl_parse_tokens(q, t, strlen(t), ' ', MS_CS_NT_START), 0);
		assert_true(ms_dsl_equal(p, q));
		ms_ctx_mfree(ctx, a);
		ms_ctx_mfree(ctx, b);
		ms_ctx_mfree(ctx, t);
	}
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_ctx_free(ctx);
}

static void test_cs_dsl_text__round_trips_thousands_of_random_programs(void **state)
{
	fixture *f = *state;

	round_trip(f->d, 3000, 1);
	round_trip(f->ibr, 1000, 2);
	round_trip(f->ext, 1000, 3);
}

static void test_cs_dsl_mutate__replaces_the_subtree_at_the_drawn_position(void **state)
{
	fixture *f = *state;
	ms_jrandom rng;
	int seen_zero = 0, seen_value = 0, hist[3] = { 0 };

	ms_jrandom_init(&rng, 11);
	assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
	for (int step = 0; step < 5000; step++) {
		int k = -1, size = ms_dsl_size(f->p), old_end;

		assert_int_equal(ms_dsl_prog_copy(f->q, f->p), 0);
		old_end = ms_dsl_prog_ends(f->q)[0];
		assert_int_equal(ms_cs_dsl_mutate(f->d, f->p, &rng, &k), 0);
		assert_true(k >= 0 && k < (size > 0 ? size : 1));
		assert_int_equal(ms_dsl_prog_nt(f->p), MS_CS_NT_START);
		assert_int_equal(ms_dsl_hole_count(f->p), 0);
		if (k == 0) {
			seen_zero++;
		} else {
			/* Everything before node k and after its old subtree is kept; node k keeps its slot. */
			int qe = ms_dsl_prog_ends(f->q)[k], pe = ms_dsl_prog_ends(f->p)[k];
			int tail = ms_dsl_prog_len(f->q) - qe;

			(void)old_end;
			assert_memory_equal(ms_dsl_prog_nodes(f->p), ms_dsl_prog_nodes(f->q), sizeof(ms_dsl_sym) * (size_t)k);
			assert_int_equal(ms_dsl_prog_len(f->p) - pe, tail);
			assert_memory_equal(ms_dsl_prog_nodes(f->p) + pe, ms_dsl_prog_nodes(f->q) + qe,
					    sizeof(ms_dsl_sym) * (size_t)tail);
			assert_int_equal(ms_dsl_node_nt(f->p, k), ms_dsl_node_nt(f->q, k));
			if (ms_dsl_node_nt(f->q, k) >= MS_CS_NT_CONSTANT) {
				seen_value++;
				assert_int_equal(pe, k + 1); /* a value is replaced by a value */
			}
			hist[k < size / 3 ? 0 : k < 2 * size / 3 ? 1 : 2]++;
		}
		/* Keep programs from growing without bound over the walk, as acceptance would. */
		if (ms_dsl_prog_len(f->p) > 400)
			assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
	}
	assert_true(seen_zero > 0);
	assert_true(seen_value > 0);
	assert_true(hist[0] > 0 && hist[1] > 0 && hist[2] > 0);
	/* mutate_at: position 0 regenerates, positions beyond the program are refused. */
	assert_int_equal(ms_cs_dsl_mutate_at(f->d, f->p, 0, &rng), 0);
	assert_int_equal(ms_cs_dsl_mutate_at(f->d, f->p, ms_dsl_prog_len(f->p), &rng), MS_EINVAL);
	/* Programs of another grammar are refused. */
	{
		ms_dsl_prog *e;

		assert_int_equal(ms_dsl_prog_new(f->ctx, &e, ms_cs_dsl_grammar(f->ext)), 0);
		assert_int_equal(ms_cs_dsl_generate(f->ext, e, &rng), 0);
		assert_int_equal(ms_cs_dsl_mutate(f->d, e, &rng, NULL), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "cantstop-ext"));
		ms_dsl_prog_free(e);
	}
}

static void test_cs_dsl_save_load__files_with_a_header(void **state)
{
	fixture *f = *state;
	char path[] = "/tmp/ms_cs_dsl_XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	parse_ok(f->d, f->p, ms_cs_dsl_builtin("couto"), MS_CS_NT_START);
	assert_int_equal(ms_cs_dsl_save(f->p, path, "win rate 0.58\nseed 1"), 0);
	assert_int_equal(ms_cs_dsl_load(f->d, f->q, path), 0);
	assert_true(ms_dsl_equal(f->p, f->q));
	{
		FILE *fp = fopen(path, "r");
		char line[64];

		assert_non_null(fgets(line, sizeof(line), fp));
		assert_string_equal(line, "# win rate 0.58\n");
		fclose(fp);
	}
	remove(path);
	assert_int_equal(ms_cs_dsl_load(f->d, f->q, path), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), path));
}

/* The folder of the shipped programs (argument of the test). */
static const char *programs_dir;

static void test_cs_dsl_programs__shipped_files_are_the_builtins(void **state)
{
	fixture *f = *state;
	static const char *const names[2] = { "couto", "ga" };
	char path[4096];
	ms_dsl_prog *want, *got;

	if (!programs_dir)
		skip();
	for (int i = 0; i < 2; i++) {
		ms_cs_dsl *d = i ? f->ext : f->d;

		assert_int_equal(ms_dsl_prog_new(f->ctx, &want, ms_cs_dsl_grammar(d)), 0);
		assert_int_equal(ms_dsl_prog_new(f->ctx, &got, ms_cs_dsl_grammar(d)), 0);
		snprintf(path, sizeof(path), "%s/%s.txt", programs_dir, names[i]);
		if (ms_cs_dsl_load(d, got, path))
			fail_msg("%s", ms_ctx_last_error(f->ctx));
		parse_ok(d, want, ms_cs_dsl_builtin(names[i]), MS_CS_NT_START);
		assert_true(ms_dsl_equal(want, got));
		ms_dsl_prog_free(want);
		ms_dsl_prog_free(got);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_dsl_grammar__tables_are_those_of_spec_5_2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_options__bad_versions_and_ranges_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_print__is_the_reference_to_string, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_size__counts_as_the_reference_node_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_builtins__parse_in_their_grammars_and_print_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_parse__errors_name_line_and_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_generate__follows_the_depth_rule_of_fill_random_program, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_text__round_trips_thousands_of_random_programs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_mutate__replaces_the_subtree_at_the_drawn_position, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_save_load__files_with_a_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_programs__shipped_files_are_the_builtins, setup, teardown),
	};

	programs_dir = argc > 1 ? argv[1] : NULL;

	return cmocka_run_group_tests(tests, NULL, NULL);
}
