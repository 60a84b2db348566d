/*
 * Readable programs (issue 40): the rules that need no match, the proof's
 * cycle-by-cycle equality, and simplification on matches. The matches play
 * on walls10x10.xml of tests/dsl/simplify (argument 1: that folder), a map
 * made for these tests, short (games of 1,500 cycles at most).
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"

static const char *fixtures;

typedef struct env {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p, *q;
	ms_rts_utt *utt;
	char map[2048];
} env;

static void env_open(env *e)
{
	memset(e, 0, sizeof *e);
	assert_int_equal(ms_ctx_new(&e->ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(e->ctx, &e->g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(e->ctx, &e->p, e->g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(e->ctx, &e->q, e->g), MS_OK);
	assert_int_equal(ms_rts_utt_new(e->ctx, &e->utt, 2, 1), MS_OK);
	snprintf(e->map, sizeof e->map, "%s/walls10x10.xml", fixtures ? fixtures : ".");
}

static void env_close(env *e)
{
	ms_rts_utt_free(e->utt);
	ms_dsl_prog_free(e->p);
	ms_dsl_prog_free(e->q);
	ms_dsl_grammar_free(e->g);
	ms_ctx_free(e->ctx);
}

static void parse(env *e, ms_dsl_prog *p, const char *text)
{
	if (ms_rts_dsl_parse(p, "test program", text, strlen(text), 0))
		fail_msg("%s", ms_ctx_last_error(e->ctx));
}

/* The indented form of p, in a buffer of the test. */
static const char *pretty(env *e, const ms_dsl_prog *p, char *buf, size_t size)
{
	char *s = NULL;
	assert_int_equal(ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &s, NULL), MS_OK);
	snprintf(buf, size, "%s", s);
	ms_ctx_mfree(e->ctx, s);
	return buf;
}

static ms_rts_proof *proof(env *e, const char *const *opps, int n_opps, int max_cycles)
{
	const char *maps[1] = { e->map };
	ms_rts_proof_options o = { .version = MS_RTS_PROOF_OPTIONS_VERSION,
				.maps = maps,
				.n_maps = 1,
				.opponents = opps,
				.n_opponents = n_opps,
				.max_cycles = max_cycles };
	ms_rts_proof *pr = NULL;
	if (ms_rts_proof_new(e->ctx, &pr, &o))
		fail_msg("%s", ms_ctx_last_error(e->ctx));
	return pr;
}

/* ---- lines ---------------------------------------------------------------- */

static void test_rts_dsl_simplify__line_map_follows_the_indented_form(void **state)
{
	env e;
	ms_jrandom rng;
	char text[65536];
	int line_of[4096];
	(void)state;
	env_open(&e);
	ms_jrandom_init(&rng, 40);
	for (int k = 0; k < 200; k++) {
		int n = 0, printed = 1;
		assert_int_equal(ms_rts_dsl_generate(e.p, &rng, 1 + k % 9), MS_OK);
		for (int m = 0; m < k % 5; m++)
			assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, NULL), MS_OK);
		assert_true(ms_dsl_prog_len(e.p) <= 4096);
		assert_int_equal(ms_rts_dsl_line_map(e.p, line_of, &n), MS_OK);
		pretty(&e, e.p, text, sizeof text);
		for (const char *c = text; *c; c++)
			printed += *c == '\n';
		assert_int_equal(n, printed);
		/* every command sits on a line that starts with its text (after the tabs) */
		for (int i = 0; i < ms_dsl_prog_len(e.p); i++) {
			const char *l = text;
			if (ms_dsl_prod_op(e.g, ms_dsl_prog_nodes(e.p)[i]) != MS_RTS_DSL_ATTACK)
				continue;
			for (int j = 1; j < line_of[i]; j++)
				l = strchr(l, '\n') + 1;
			while (*l == '\t')
				l++;
			assert_memory_equal(l, "u.attack(", 9);
		}
	}
	env_close(&e);
}

/* ---- rules without matches ------------------------------------------------- */

static void test_rts_dsl_simplify__static_rules_fold_types_and_drop_commands_no_unit_can_run(void **state)
{
	env e;
	char got[4096];
	(void)state;
	env_open(&e);
	parse(&e, e.p,
	      "for(Unit u){"
	      "  if(u.canHarvest()) then {"
	      "    if(u.canAttack()) then {u.harvest(3)} else {u.build(Barracks,Down,2)}"
	      "    u.attack(Closest) u.moveAway() for(Unit u){u.idle()}"
	      "  }"
	      "  u.build(Worker,Left,2) u.train(Light,Down,0)"
	      "  if(HasNumberOfUnits(Worker,0)) then {u.train(Worker,Up,3)}"
	      "  if(HasLessNumberOfUnits(Base,0)) then {u.attack(Weakest)}"
	      "  e u.attack(Strongest) u.idle() u.train(Worker,Right,2)"
	      "}");
	assert_int_equal(ms_rts_dsl_simplify_static(e.p, e.utt), MS_OK);
	assert_string_equal(pretty(&e, e.p, got, sizeof got),
			    "for(Unit u){\n"
			    "\tif(u.canHarvest()) then {\n"
			    "\t\tu.harvest(3)\n"
			    "\t\tu.attack(Closest)\n"
			    "\t\tfor(Unit u){\n"
			    "\t\t\tu.idle()\n"
			    "\t\t}\n"
			    "\t}\n"
			    "\tu.train(Worker,Up,3)\n"
			    "\tu.attack(Strongest)\n"
			    "\tu.train(Worker,Right,2)\n"
			    "}");
	/* a program the rules cannot shorten is left as it is */
	parse(&e, e.q, got);
	assert_int_equal(ms_rts_dsl_simplify_static(e.q, e.utt), MS_OK);
	assert_true(ms_dsl_equal(e.p, e.q));
	/* a condition that reads u outside every for stays (Java throws there) */
	assert_int_equal(ms_rts_dsl_parse(e.p, "t", "if(u.canAttack()) then {e}", 26, MS_RTS_DSL_PARSE_UNBOUND), MS_OK);
	assert_int_equal(ms_rts_dsl_simplify_static(e.p, e.utt), MS_OK);
	assert_string_equal(pretty(&e, e.p, got, sizeof got), "if(u.canAttack()) then {\n\te\n}");
	env_close(&e);
}

/* The rules are exact: random programs play every match alike after them. */
static void test_rts_dsl_simplify__static_rules_change_no_decision_of_random_programs(void **state)
{
	static const char *const opps[] = { "WorkerRush", "LightRush" };
	env e;
	ms_jrandom rng;
	ms_rts_proof *pr;
	int changed = 0;
	(void)state;
	env_open(&e);
	pr = proof(&e, opps, 2, 600);
	ms_jrandom_init(&rng, 4040);
	for (int k = 0; k < 60; k++) {
		int equal = 0;
		ms_rts_proof_diff d;
		/* what synthesis plays: a random program inside for(Unit u), then mutated */
		assert_int_equal(ms_rts_dsl_generate(e.q, &rng, 2 + k % 8), MS_OK);
		ms_dsl_prog_clear(e.p);
		assert_int_equal(ms_dsl_prog_push(e.p, (ms_dsl_sym)ms_dsl_prod_find(e.g, "For_S")), MS_OK);
		for (int i = 0; i < ms_dsl_prog_len(e.q); i++)
			assert_int_equal(ms_dsl_prog_push(e.p, ms_dsl_prog_nodes(e.q)[i]), MS_OK);
		assert_int_equal(ms_dsl_prog_finish(e.p, 0), MS_OK);
		for (int m = 0; m < 1 + k % 6; m++)
			assert_int_equal(ms_rts_dsl_mutate(e.p, &rng, NULL), MS_OK);
		assert_int_equal(ms_dsl_prog_copy(e.q, e.p), MS_OK);
		assert_int_equal(ms_rts_dsl_simplify_static(e.q, e.utt), MS_OK);
		if (ms_dsl_equal(e.p, e.q))
			continue;
		changed++;
		assert_int_equal(ms_rts_proof_record(pr, e.p), MS_OK);
		assert_int_equal(ms_rts_proof_compare(pr, e.q, &equal, &d), MS_OK);
		if (!equal) {
			char a[8192], b[8192];
			fail_msg("program %d: %s\nbefore:\n%s\nafter:\n%s", k, d.message, pretty(&e, e.p, a, sizeof a),
				 pretty(&e, e.q, b, sizeof b));
		}
	}
	print_message("%d of 60 random programs shortened by the rules, all playing alike\n", changed);
	assert_true(changed >= 20);
	ms_rts_proof_free(pr);
	env_close(&e);
}

/* ---- equality, cycle by cycle ---------------------------------------------- */

static void test_rts_dsl_simplify__equality_is_checked_cycle_by_cycle_not_by_outcome(void **state)
{
	static const char *const opps[] = { "PassiveAI" };
	env e;
	ms_rts_proof *pr;
	ms_rts_proof_diff d;
	ms_rts_proof_match mi;
	int equal = 1;
	(void)state;
	env_open(&e);
	parse(&e, e.p, "for(Unit u){u.train(Worker,EnemyDir,4) u.harvest(2) u.attack(Closest)}");
	parse(&e, e.q, "for(Unit u){u.train(Worker,Down,4) u.harvest(2) u.attack(Closest)}");
	pr = proof(&e, opps, 1, 1500);
	/* against PassiveAI, as player 0, both win at the same cycle */
	ms_match_options mo = { .version = MS_MATCH_OPTIONS_VERSION, .map = e.map, .max_cycles = 1500 };
	ms_match *m;
	ms_match_result ra, rb;
	assert_int_equal(ms_match_new(e.ctx, &m, &mo), MS_OK);
	ms_match_player pa[2] = { ms_match_player_program(e.p), ms_match_player_spec("PassiveAI") };
	ms_match_player pb[2] = { ms_match_player_program(e.q), ms_match_player_spec("PassiveAI") };
	assert_int_equal(ms_match_play(m, pa, NULL, &ra), MS_OK);
	assert_int_equal(ms_match_play(m, pb, NULL, &rb), MS_OK);
	assert_int_equal(ra.winner, 0);
	assert_int_equal(rb.winner, ra.winner);
	assert_int_equal(rb.cycles, ra.cycles);
	ms_match_free(m);
	/* but their actions differ: the first difference names cycle, unit and both actions */
	assert_int_equal(ms_rts_proof_record(pr, e.p), MS_OK);
	assert_int_equal(ms_rts_proof_compare(pr, e.q, &equal, &d), MS_OK);
	assert_int_equal(equal, 0);
	assert_int_equal(ms_rts_proof_match_info(pr, d.match, &mi), MS_OK);
	assert_int_equal(mi.seat, 0);
	assert_int_equal(d.cycle, 50);
	assert_int_equal(d.unit, 5);
	assert_string_equal(d.reference, "produce(Worker,right)");
	assert_string_equal(d.candidate, "produce(Worker,up)");
	assert_non_null(strstr(d.message, "cycle 50, unit 5 (Base at 2,1)"));
	assert_int_equal(ms_rts_proof_cycles_compared(pr), 50); /* cycles 0..49 were the same */
	/* a program equals itself on every cycle of every match */
	assert_int_equal(ms_rts_proof_compare(pr, e.p, &equal, &d), MS_OK);
	assert_int_equal(equal, 1);
	assert_int_equal(ms_rts_proof_count(pr), 2);
	ms_rts_proof_match m0, m1;
	assert_int_equal(ms_rts_proof_match_info(pr, 0, &m0), MS_OK);
	assert_int_equal(ms_rts_proof_match_info(pr, 1, &m1), MS_OK);
	assert_int_equal(m0.cycles, ra.cycles);
	assert_int_equal(ms_rts_proof_cycles_compared(pr), m0.cycles + m1.cycles); /* a decision every cycle */
	ms_rts_proof_free(pr);
	env_close(&e);
}

/* ---- simplification on matches ---------------------------------------------- */

static const char *const rushes[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };

static void test_rts_dsl_simplify__known_dead_code_loses_exactly_that_code(void **state)
{
	env e;
	ms_rts_proof *pr;
	ms_rts_simplify_stats st;
	char got[4096];
	(void)state;
	env_open(&e);
	parse(&e, e.p,
	      "for(Unit u){\n"
	      "  u.train(Worker,EnemyDir,4)\n"
	      "  u.harvest(2)\n"
	      "  if(OpponentHasNumberOfUnits(Heavy,5)) then {u.moveAway()}\n" /* never that many heavies */
	      "  u.attack(Closest)\n"
	      "  u.build(Worker,Left,1)\n" /* a worker builds no worker */
	      "  u.idle()\n"               /* after attack: only bases are free, and they cannot idle */
	      "  e\n"
	      "}");
	pr = proof(&e, rushes, 4, 1500);
	assert_int_equal(ms_rts_simplify(pr, e.p, NULL, &st), MS_OK);
	assert_string_equal(pretty(&e, e.p, got, sizeof got),
			    "for(Unit u){\n\tu.train(Worker,EnemyDir,4)\n\tu.harvest(2)\n\tu.attack(Closest)\n}");
	assert_int_equal(st.lines_before, 11);
	assert_int_equal(st.lines_after, 5);
	assert_int_equal(st.matches, 8);
	assert_true(st.cycles_compared > 8 * 100);
	assert_true(st.static_nodes > 0); /* build, idle and e went without a match */
	assert_true(st.kept >= 1);        /* the if needed the matches */
	ms_rts_proof_free(pr);
	env_close(&e);
}

static void test_rts_dsl_simplify__a_program_whose_every_line_matters_is_unchanged(void **state)
{
	env e;
	ms_rts_proof *pr;
	ms_rts_simplify_stats st;
	(void)state;
	env_open(&e);
	parse(&e, e.p,
	      "for(Unit u){\n"
	      "  u.train(Worker,EnemyDir,4)\n"
	      "  if(HasNumberOfWorkersHarvesting(1)) then {u.attack(Closest)} else {u.harvest(2)}\n"
	      "  u.moveToUnit(Enemy,Closest)\n"
	      "}");
	assert_int_equal(ms_dsl_prog_copy(e.q, e.p), MS_OK);
	pr = proof(&e, rushes, 4, 1500);
	assert_int_equal(ms_rts_simplify(pr, e.p, NULL, &st), MS_OK);
	assert_true(ms_dsl_equal(e.p, e.q));
	assert_int_equal(st.lines_after, st.lines_before);
	assert_int_equal(st.nodes_after, st.nodes_before);
	assert_int_equal(st.kept, 0);
	assert_true(st.candidates > 0); /* every removal was tried and refused */
	ms_rts_proof_free(pr);
	env_close(&e);
}

/* explain: actions per node; the command that never acts counts nothing */
static void test_rts_dsl_simplify__explain_counts_the_actions_of_each_command(void **state)
{
	static const char *const opps[] = { "WorkerRush" };
	env e;
	ms_rts_proof *pr;
	long counts[2 * 64];
	int train = -1, harvest = -1, heavy = -1;
	(void)state;
	env_open(&e);
	parse(&e, e.p, "for(Unit u){u.train(Worker,EnemyDir,4) u.harvest(2) u.train(Heavy,Up,2) u.attack(Closest)}");
	assert_true(ms_dsl_prog_len(e.p) <= 64);
	pr = proof(&e, opps, 1, 1500);
	assert_int_equal(ms_rts_proof_explain(pr, e.p, counts), MS_OK);
	for (int i = 0; i < ms_dsl_prog_len(e.p); i++) {
		const char *name = ms_dsl_prod_name(e.g, ms_dsl_prog_nodes(e.p)[i]);
		if (!strcmp(name, "Train"))
			*(train < 0 ? &train : &heavy) = i;
		else if (!strcmp(name, "Harvest"))
			harvest = i;
	}
	for (int k = 0; k < 2; k++) {
		assert_true(counts[k * ms_dsl_prog_len(e.p) + train] > 0);
		assert_true(counts[k * ms_dsl_prog_len(e.p) + harvest] > 0);
		assert_int_equal(counts[k * ms_dsl_prog_len(e.p) + heavy], 0); /* no barracks */
	}
	ms_rts_proof_free(pr);
	env_close(&e);
}

/* ---- bad input -------------------------------------------------------------- */

static void test_rts_dsl_simplify__java_opponents_and_unknown_maps_are_named(void **state)
{
	static const char *const java[] = { "WorkerRush", "GNS.Droplet" };
	static const char *const missing[] = { "no/such/map.xml" };
	env e;
	ms_rts_proof *pr = NULL;
	(void)state;
	env_open(&e);
	const char *maps[1] = { e.map };
	ms_rts_proof_options o = { .version = MS_RTS_PROOF_OPTIONS_VERSION, .maps = maps, .n_maps = 1, .opponents = java,
				.n_opponents = 2 };
	assert_int_equal(ms_rts_proof_new(e.ctx, &pr, &o), MS_ENOTFOUND);
	assert_null(pr);
	assert_non_null(strstr(ms_ctx_last_error(e.ctx), "opponent 'GNS.Droplet'"));
	o.n_opponents = 1;
	o.maps = missing;
	assert_true(ms_rts_proof_new(e.ctx, &pr, &o) < 0);
	assert_null(pr);
	assert_non_null(strstr(ms_ctx_last_error(e.ctx), "no/such/map.xml"));
	o.maps = maps;
	o.version = 0;
	assert_int_equal(ms_rts_proof_new(e.ctx, &pr, &o), MS_EINVAL);
	/* comparing before recording is refused */
	o.version = MS_RTS_PROOF_OPTIONS_VERSION;
	assert_int_equal(ms_rts_proof_new(e.ctx, &pr, &o), MS_OK);
	int equal = 1;
	parse(&e, e.p, "for(Unit u){u.attack(Closest)}");
	assert_int_equal(ms_rts_proof_compare(pr, e.p, &equal, NULL), MS_EINVAL);
	assert_int_equal(equal, 0);
	ms_rts_proof_free(pr);
	env_close(&e);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_simplify__line_map_follows_the_indented_form),
		cmocka_unit_test(test_rts_dsl_simplify__static_rules_fold_types_and_drop_commands_no_unit_can_run),
		cmocka_unit_test(test_rts_dsl_simplify__static_rules_change_no_decision_of_random_programs),
		cmocka_unit_test(test_rts_dsl_simplify__equality_is_checked_cycle_by_cycle_not_by_outcome),
		cmocka_unit_test(test_rts_dsl_simplify__known_dead_code_loses_exactly_that_code),
		cmocka_unit_test(test_rts_dsl_simplify__a_program_whose_every_line_matters_is_unchanged),
		cmocka_unit_test(test_rts_dsl_simplify__explain_counts_the_actions_of_each_command),
		cmocka_unit_test(test_rts_dsl_simplify__java_opponents_and_unknown_maps_are_named),
	};
	fixtures = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
