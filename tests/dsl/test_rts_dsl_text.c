/*
 * Text forms of the MicroRTS DSL: the paper programs and the spec's
 * examples, print/parse round trips of thousands of random programs in the
 * Java, indented and salve forms (with and without holes), the paper form,
 * the not extension, and errors that give line, column and what was
 * expected.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/rts_dsl.h"

typedef struct env {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p, *q;
} env;

static void env_init(env *e, unsigned gflags)
{
	assert_int_equal(ms_ctx_new(&e->ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(e->ctx, &e->g, gflags), MS_OK);
	assert_int_equal(ms_dsl_prog_new(e->ctx, &e->p, e->g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(e->ctx, &e->q, e->g), MS_OK);
}

static void env_free(env *e)
{
	ms_dsl_prog_free(e->p);
	ms_dsl_prog_free(e->q);
	ms_dsl_grammar_free(e->g);
	ms_ctx_free(e->ctx);
}

/* Parses `text` into e->p (must succeed) and returns its form `form` (caller frees). */
static char *parse_print(env *e, const char *text, unsigned flags, int form)
{
	char *s = NULL;
	if (ms_rts_dsl_parse(e->p, "test", text, strlen(text), flags))
		fail_msg("parse failed: %s\n  text: %s", ms_ctx_last_error(e->ctx), text);
	assert_int_equal(ms_rts_dsl_print(e->p, form, &s, NULL), MS_OK);
	return s;
}

static void expect_java(env *e, const char *text, unsigned flags, const char *java)
{
	char *s = parse_print(e, text, flags, MS_RTS_DSL_FORM_JAVA);
	assert_string_equal(s, java);
	ms_ctx_mfree(e->ctx, s);
}

static void expect_error(env *e, const char *text, unsigned flags, const char *part)
{
	int rc = ms_rts_dsl_parse(e->p, "test", text, strlen(text), flags);
	if (rc == MS_OK)
		fail_msg("parsed, expected an error containing \"%s\": %s", part, text);
	if (!strstr(ms_ctx_last_error(e->ctx), part))
		fail_msg("error \"%s\" lacks \"%s\"", ms_ctx_last_error(e->ctx), part);
	assert_int_equal(ms_dsl_prog_len(e->p), 0);
}

static void test_rts_dsl_text__spec_examples(void **state)
{
	env e;
	(void)state;
	env_init(&e, MS_RTS_DSL_GRAMMAR_NOT);
	/* 2.1 (a): Java's own output round-trips */
	expect_java(&e, "for(Unit u){u.harvest(4) if(u.canAttack()) then {u.attack(Closest)}} e", 0,
		    "for(Unit u){u.harvest(4) if(u.canAttack()) then {u.attack(Closest)}} e");
	/* 2.1 (c): the salve example */
	expect_java(&e, "S;S_S;S;For_S;S;C;Harvest;4;S;Empty", 0, "for(Unit u){u.harvest(4)} e");
	{
		char *s = parse_print(&e, "S;S_S;S;For_S;S;C;Harvest;4;S;Empty", 0, MS_RTS_DSL_FORM_SALVE);
		assert_string_equal(s, "S;S_S;S;For_S;S;C;Harvest;4;S;Empty");
		ms_ctx_mfree(e.ctx, s);
	}
	/* 2.2: the paper's example, with the not extension */
	expect_java(&e,
		    "for(u){ if(not u.isWorker()) u.moveToUnit(Ally, LessHealthy); u.train(Ranged, Left, 15);\n"
		    "  for(u){ u.idle() }; u.build(Barracks, EnemyDir, 100) }\n"
		    "for(u){ u.harvest(4); u.attack(LessHealthy) }",
		    MS_RTS_DSL_PARSE_NOT,
		    "for(Unit u){if(not u.is(Worker)) then {u.moveToUnit(Ally,LessHealthy)} u.train(Ranged,Left,15) "
		    "for(Unit u){u.idle()} u.build(Barracks,EnemyDir,100)} for(Unit u){u.harvest(4) u.attack(LessHealthy)}");
	/* salve of Not */
	{
		char *s = parse_print(&e, "for(Unit u){if(not u.canAttack()) then {u.idle()}}", MS_RTS_DSL_PARSE_NOT,
				      MS_RTS_DSL_FORM_SALVE);
		assert_string_equal(s, "S;For_S;S;If_B_then_S;B;Not;B;CanAttack;S;C;Idle");
		ms_ctx_mfree(e.ctx, s);
	}
	/* the paper and salve spellings, braces, ';', comments, parameterless calls */
	expect_java(&e,
		    "# a comment\nfor (Unit u) { Attack(Weakest); Idle; u.MoveAway // another\n"
		    " if (HaveUnitsAttacking(2)) { { Harvest(3) } } else MoveToUnit(Enemy,Random) }",
		    0,
		    "for(Unit u){u.attack(Weakest) u.idle() u.moveAway() if(HaveQtdUnitsAttacking(2)) then "
		    "{u.harvest(3)} else { u.moveToUnit(Enemy,Random)}}");
	expect_java(&e, "for(u){if(u.is_Type(Base)) u.train(Worker,Up,1) if(IsBuilder) Build(Base,Down,0)}", 0,
		    "for(Unit u){if(u.is(Base)) then {u.train(Worker,Up,1)} if(u.isBuilder()) then "
		    "{u.build(Base,Down,0)}}");
	/* a braceless else belongs to the nearest if */
	expect_java(&e, "for(u) if(u.canAttack()) if(u.canHarvest()) u.idle() else u.moveAway()", 0,
		    "for(Unit u){if(u.canAttack()) then {if(u.canHarvest()) then {u.idle()} else { u.moveAway()}}}");
	/* nothing at all is Empty; a run of statements is right-nested */
	expect_java(&e, "  \n# nothing\n", 0, "e");
	assert_int_equal(ms_dsl_prog_len(e.p), 1);
	expect_java(&e, "for(u){u.idle() u.idle() u.idle()}", 0, "for(Unit u){u.idle() u.idle() u.idle()}");
	{
		char *s = parse_print(&e, "for(u){u.idle() u.idle() u.idle()}", 0, MS_RTS_DSL_FORM_SALVE);
		assert_string_equal(s, "S;For_S;S;S_S;S;C;Idle;S;S_S;S;C;Idle;S;C;Idle");
		ms_ctx_mfree(e.ctx, s);
	}
	/* the indented form of 2.1 (b) */
	{
		char *s = parse_print(&e,
				      "for(Unit u){u.harvest(4) if(u.canAttack()) then {u.attack(Closest)} else { e}} "
				      "u.idle()",
				      MS_RTS_DSL_PARSE_UNBOUND, MS_RTS_DSL_FORM_PRETTY);
		assert_string_equal(s, "for(Unit u){\n\tu.harvest(4)\n\tif(u.canAttack()) then {\n\t\tu.attack(Closest)\n"
				       "\t} else {\n\t\te\n\t}\n}\nu.idle()");
		ms_ctx_mfree(e.ctx, s);
	}
	env_free(&e);
}

static void test_rts_dsl_text__errors_name_line_column_and_expectation(void **state)
{
	env e;
	(void)state;
	env_init(&e, 0);
	expect_error(&e, "for(Unit u){\n  u.attack(Nearest)\n}", 0, "line 2, column 12: expected a target rule");
	expect_error(&e, "for(Unit u){\n  u.attack(Nearest)\n}", 0, "Strongest, Weakest");
	expect_error(&e, "for(Unit u){u.train(Ranged,Left,11)}", 0, "line 1, column 33: expected a number");
	expect_error(&e, "for(Unit u){u.train(Ranged,Left)}", 0, "expected ',' before argument 3 of Train");
	expect_error(&e, "for(Unit u){u.harvest(4}", 0, "column 24: expected ')'");
	expect_error(&e, "for(Unit u){u.harvest(4)", 0, "expected '}'");
	expect_error(&e, "for(Unit u){u.dance()}", 0, "column 15: expected a statement");
	expect_error(&e, "for(Unit u){u.canAttack()}", 0, "found the condition 'canAttack'");
	expect_error(&e, "for(Unit u){if(u.idle()) then {e}}", 0, "found the command 'idle'");
	expect_error(&e, "for(Unit v){e}", 0, "line 1, column 10: expected 'u'");
	expect_error(&e, "for(Unit u){e}}", 0, "line 1, column 15: expected a statement");
	expect_error(&e, "for(Unit u){if(not u.canAttack()) then {e}}", 0, "column 16: negation is not part of dialect A");
	/* the grammar must have Not too */
	expect_error(&e, "for(Unit u){if(not u.canAttack()) then {e}}", MS_RTS_DSL_PARSE_NOT, "negation");
	expect_error(&e, "for(Unit u){\n\tu.harvest(2)\n}\nu.attack(Closest)", 0,
		     "line 4, column 1: Attack uses the unit u outside any for loop");
	expect_error(&e, "if(u.canHarvest()) then {for(u){e}}", 0, "line 1, column 4: CanHarvest uses the unit u");
	expect_error(&e, "S;For_S;S;C;Harvest;11", 0, "line 1, column 21 (token 6): expected a token of N");
	expect_error(&e, "S;For_S;S;C;Harvest", 0, "(token 6): expected a token of N, found the end");
	expect_error(&e, "S;For_S;S;Empty;S", 0, "(token 5): expected the end of the program");
	expect_error(&e, "S;C;Idle", 0, "node 1 (Idle) uses the unit u outside any for loop");
	expect_error(&e, "for(Unit u){S}", 0, "expected a statement");
	expect_error(&e, "for(Unit u){e}\x01", 0, "byte 0x01");
	/* with the flags */
	expect_java(&e, "u.attack(Closest)", MS_RTS_DSL_PARSE_UNBOUND, "u.attack(Closest)");
	expect_java(&e, "for(Unit u){S} if(B) then {C} u.train(T,D,N)", MS_RTS_DSL_PARSE_HOLES | MS_RTS_DSL_PARSE_UNBOUND,
		    "for(Unit u){S} if(B) then {C} u.train(T,D,N)");
	assert_int_equal(ms_dsl_hole_count(e.p), 6);
	env_free(&e);
}

/* Random programs print and parse back: Java and indented forms to the same
 * Java text, salve to the identical tree. */
static void round_trip(env *e, int holes)
{
	char *java = NULL, *pretty = NULL, *salve = NULL, *again = NULL;
	unsigned flags = MS_RTS_DSL_PARSE_UNBOUND | (holes ? MS_RTS_DSL_PARSE_HOLES : 0);

	assert_int_equal(ms_rts_dsl_print(e->p, MS_RTS_DSL_FORM_JAVA, &java, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_print(e->p, MS_RTS_DSL_FORM_PRETTY, &pretty, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_print(e->p, MS_RTS_DSL_FORM_SALVE, &salve, NULL), MS_OK);
	if (ms_rts_dsl_parse(e->q, "java", java, strlen(java), flags))
		fail_msg("%s\n  %s", ms_ctx_last_error(e->ctx), java);
	assert_int_equal(ms_rts_dsl_print(e->q, MS_RTS_DSL_FORM_JAVA, &again, NULL), MS_OK);
	assert_string_equal(again, java);
	ms_ctx_mfree(e->ctx, again);
	if (ms_rts_dsl_parse(e->q, "pretty", pretty, strlen(pretty), flags))
		fail_msg("%s\n  %s", ms_ctx_last_error(e->ctx), pretty);
	assert_int_equal(ms_rts_dsl_print(e->q, MS_RTS_DSL_FORM_JAVA, &again, NULL), MS_OK);
	assert_string_equal(again, java);
	ms_ctx_mfree(e->ctx, again);
	if (ms_rts_dsl_parse(e->q, "salve", salve, strlen(salve), flags))
		fail_msg("%s\n  %s", ms_ctx_last_error(e->ctx), salve);
	if (!ms_dsl_equal(e->p, e->q))
		fail_msg("salve round trip changed the tree: %s", salve);
	ms_ctx_mfree(e->ctx, java);
	ms_ctx_mfree(e->ctx, pretty);
	ms_ctx_mfree(e->ctx, salve);
}

static void test_rts_dsl_text__random_programs_round_trip_in_every_form(void **state)
{
	env e;
	ms_jrandom rng;
	ms_dsl_prog *hole;
	int n_random = 0;
	(void)state;
	env_init(&e, MS_RTS_DSL_GRAMMAR_GEN_RANDOM);
	ms_jrandom_init(&rng, 20240611);
	assert_int_equal(ms_dsl_prog_new(e.ctx, &hole, e.g), MS_OK);
	for (int k = 0; k < 3000; k++) {
		assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 0), MS_OK);
		round_trip(&e, 0);
		/* grown by the synthesizers' neighbourhood */
		for (int m = 0; m < 3; m++)
			assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, NULL), MS_OK);
		round_trip(&e, 0);
		{
			char *java = NULL;
			assert_int_equal(ms_rts_dsl_print(e.p, MS_RTS_DSL_FORM_JAVA, &java, NULL), MS_OK);
			n_random += strstr(java, ",Random)") != NULL || strstr(java, "(Random)") != NULL;
			ms_ctx_mfree(e.ctx, java);
		}
	}
	/* sketches: a random node replaced by a hole of its non-terminal */
	for (int k = 0; k < 1000; k++) {
		int32_t at;
		assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 9), MS_OK);
		ms_jrandom_next_int_bounded(&rng, ms_dsl_prog_len(e.p), &at);
		ms_dsl_prog_clear(hole);
		assert_int_equal(ms_dsl_prog_push(hole, ms_dsl_hole(ms_dsl_node_nt(e.p, at))), MS_OK);
		assert_int_equal(ms_dsl_prog_finish(hole, ms_dsl_node_nt(e.p, at)), MS_OK);
		assert_int_equal(ms_dsl_replace(e.p, at, hole, 0), MS_OK);
		assert_int_equal(ms_dsl_hole_count(e.p), 1);
		round_trip(&e, 1);
	}
	assert_true(n_random > 0);
	ms_dsl_prog_free(hole);
	env_free(&e);
}

static void test_rts_dsl_text__paper_programs_parse_and_print_back_unchanged(void **state)
{
	static const char *const files[] = { "sketch-sa-o-16x16.txt", "sketch-sa-o-24x24.txt", "sketch-sa-o-32x32.txt",
					     "sketch-sa-o-64x64.txt" };
	env e;
	(void)state;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	env_init(&e, 0);
	for (int i = 0; i < 4; i++) {
		char path[2048], text[8192], *java = NULL;
		size_t n;
		FILE *f;
		snprintf(path, sizeof(path), "%s/programs/paper/%s", ms_test_shared(), files[i]);
		if (!(f = fopen(path, "r")))
			fail_msg("cannot open %s", path);
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
			text[--n] = '\0';
		if (ms_rts_dsl_parse_file(e.p, path, 0))
			fail_msg("%s", ms_ctx_last_error(e.ctx));
		assert_int_equal(ms_rts_dsl_check_bound(e.p, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_print(e.p, MS_RTS_DSL_FORM_JAVA, &java, NULL), MS_OK);
		assert_string_equal(java, text);
		ms_ctx_mfree(e.ctx, java);
		round_trip(&e, 0);
	}
	env_free(&e);
}

/* The dissertation's Python-like listings, line numbers included, read as
 * printed (section 5.2.11.1). */
static void test_rts_dsl_text__dissertation_listing_form(void **state)
{
	env e;
	(void)state;
	env_init(&e, MS_RTS_DSL_GRAMMAR_NOT);
	expect_java(&e,
		    "1 def Sketch-SA-0-16x16(state s):\n"
		    "2     for u in s:\n"
		    "3         u.train(Ranged, Right, 4)\n"
		    "4         u.harvest(9)\n"
		    "5         u.attack(Closest)\n"
		    "6         u.train(Worker, Up, 1)\n"
		    "7\n",
		    0, "for(Unit u){u.train(Ranged,Right,4) u.harvest(9) u.attack(Closest) u.train(Worker,Up,1)}");
	expect_java(&e,
		    "8 def Sketch-SA-0-24x24(state s):\n"
		    "9     for u in s:\n"
		    "10        if not u.isBuilder():\n"
		    "11            u.moveToUnit(Ally, LessHealthy)\n"
		    "12        u.train(Ranged, Left, 15)\n"
		    "13        for u in s:\n"
		    "14            u.idle()\n"
		    "15        u.build(Barracks, EnemyDir, 100)\n"
		    "16    for u in s:\n"
		    "17        u.harvest(4)\n"
		    "18        u.attack(LessHealthy)\n",
		    MS_RTS_DSL_PARSE_NOT,
		    "for(Unit u){if(not u.isBuilder()) then {u.moveToUnit(Ally,LessHealthy)} u.train(Ranged,Left,15) "
		    "for(Unit u){u.idle()} u.build(Barracks,EnemyDir,100)} for(Unit u){u.harvest(4) u.attack(LessHealthy)}");
	/* the same without the extension: the error names the listing's line */
	expect_error(&e,
		     "for u in s:\n"
		     "    if not u.isBuilder():\n"
		     "        u.moveToUnit(Ally, LessHealthy)\n",
		     0, "line 2, column 8: negation is not part of dialect A");
	/* if / else, and the 64x64 listing as printed: its `if` sits outside every loop */
	expect_java(&e,
		    "for u in s:\n"
		    "    u.build(Barracks, Left, 10)\n"
		    "    if HaveUnitsAttacking(4):\n"
		    "        u.attack(Farthest)\n"
		    "    else:\n"
		    "        u.idle()\n"
		    "    u.train(Ranged, Down, 50)\n",
		    0,
		    "for(Unit u){u.build(Barracks,Left,10) if(HaveQtdUnitsAttacking(4)) then {u.attack(Farthest)} else { "
		    "u.idle()} u.train(Ranged,Down,50)}");
	expect_error(&e,
		     "35 def Sketch-SA-0-64x64(state s):\n"
		     "36     for u in s:\n"
		     "37         u.attack(Weakest)\n"
		     "41     for u in s:\n"
		     "42         u.build(Barracks, Left, 10)\n"
		     "43     if HaveUnitsAttacking(4):\n"
		     "44         u.attack(Farthest)\n"
		     "45     else:\n"
		     "46         u.idle()\n"
		     "47     u.train(Ranged, Down, 50)\n",
		     0, "line 7, column 12: Attack uses the unit u outside any for loop");
	expect_error(&e, "for u in s:\n    u.idle()\n      u.idle()\n", 0,
		     "line 3, column 7: indentation does not match");
	expect_error(&e, "def p(state s):\n    for u in s:\n", 0, "line 2, column 5: expected an indented block");
	expect_error(&e, "for v in s:\n    u.idle()\n", 0, "line 1, column 5: expected 'u'");
	env_free(&e);
}

/* LLD Synthesis2's uncapped commands: build(T,D), train(T,D), harvest() and their salve tokens
 * without N are the N value inf (a grammar with MS_RTS_DSL_GRAMMAR_LLD); the salve-lld form drops
 * every cap, whatever its value, and reads back as inf. */
static void test_rts_dsl_text__lld_commands_without_a_cap(void **state)
{
	env e;
	char *s;
	(void)state;
	env_init(&e, MS_RTS_DSL_GRAMMAR_LLD);
	expect_java(&e, "for(Unit u){u.build(Barracks,Right) u.train(Worker,EnemyDir) u.harvest() u.harvest}", 0,
		    "for(Unit u){u.build(Barracks,Right,inf) u.train(Worker,EnemyDir,inf) u.harvest(inf) u.harvest(inf)}");
	s = parse_print(&e, "for(Unit u){u.build(Barracks,Right,2) u.harvest(inf) if(HasNumberOfUnits(Worker,3)) "
			    "then {u.train(Worker,Up,5)}}",
			0, MS_RTS_DSL_FORM_SALVE_LLD);
	assert_string_equal(s, "S;For_S;S;S_S;S;C;Build;Barracks;Right;S;S_S;S;C;Harvest;S;If_B_then_S;B;"
			       "HasNumberOfUnits;Worker;3;S;C;Train;Worker;Up");
	expect_java(&e, s, 0,
		    "for(Unit u){u.build(Barracks,Right,inf) u.harvest(inf) if(HasNumberOfUnits(Worker,3)) then "
		    "{u.train(Worker,Up,inf)}}");
	ms_ctx_mfree(e.ctx, s);
	/* the SL tokens still read, N given; a program ending in Harvest reads inf */
	expect_java(&e, "S;For_S;S;S_S;S;C;Harvest;4;S;C;Harvest", 0, "for(Unit u){u.harvest(4) u.harvest(inf)}");
	/* a condition's N is never optional */
	expect_error(&e, "for(Unit u){if(HasNumberOfUnits(Worker)) then {u.idle()}}", 0, "expected ','");
	env_free(&e);
	/* without the flag neither form reads, and inf is no number */
	env_init(&e, 0);
	expect_error(&e, "for(Unit u){u.harvest()}", 0, "expected a number");
	expect_error(&e, "S;For_S;S;C;Harvest", 0, "expected a token of N");
	expect_error(&e, "for(Unit u){u.harvest(inf)}", 0, "expected a number");
	assert_int_equal(ms_dsl_prod_find(e.g, "inf"), MS_ENOTFOUND);
	env_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_text__spec_examples),
		cmocka_unit_test(test_rts_dsl_text__errors_name_line_column_and_expectation),
		cmocka_unit_test(test_rts_dsl_text__random_programs_round_trip_in_every_form),
		cmocka_unit_test(test_rts_dsl_text__paper_programs_parse_and_print_back_unchanged),
		cmocka_unit_test(test_rts_dsl_text__dissertation_listing_form),
		cmocka_unit_test(test_rts_dsl_text__lld_commands_without_a_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
