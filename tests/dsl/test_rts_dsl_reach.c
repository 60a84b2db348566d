/*
 * Reach marks (rts_dsl.h, ms_rts_dsl_options.reach): what one decision of a
 * program reads, on the first state of basesWorkers8x8A (player 0: a Base
 * and a Worker). The Worker harvests, so the rest of the loop body runs for
 * it as for a busy unit; the Base cannot harvest or attack and fails the
 * condition. So the harvest count is read, the attack's target rule is not,
 * the trained type is not, and a program that changes only what was not
 * read decides alike (the match memo's premise).
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/rts_dsl.h"

static const char *maps_dir;

static const char program[] = "for(Unit u){\n"
			      "    u.harvest(5)\n"
			      "    u.attack(Strongest)\n"
			      "    if(HasNumberOfUnits(Worker,100)) then {\n"
			      "        u.train(Light,Left,3)\n"
			      "    }\n"
			      "}\n";

/* The same program where nothing the decision read changed: another target rule, another trained unit. */
static const char unread_changed[] = "for(Unit u){\n"
				     "    u.harvest(5)\n"
				     "    u.attack(Weakest)\n"
				     "    if(HasNumberOfUnits(Worker,100)) then {\n"
				     "        u.train(Heavy,Right,9)\n"
				     "    }\n"
				     "}\n";

/* The first node of production `name`. */
static int node_of(const ms_dsl_prog *p, const char *name)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	for (int i = 0; i < ms_dsl_prog_len(p); i++)
		if (!strcmp(ms_dsl_prod_name(g, nodes[i]), name))
			return i;
	fail_msg("no %s node", name);
	return -1;
}

/* One decision of `text` for player 0 in s; marks into reach (NULL: none); the pairs into out. */
static int decide(ms_ctx *ctx, ms_dsl_grammar *g, const ms_rts_state *s, const char *text, uint8_t *reach,
		  ms_dsl_prog **prog, ms_rts_pair *out, int max)
{
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .reach = reach };
	ms_rts_dsl_interp *it;
	int n;

	assert_int_equal(ms_dsl_prog_new(ctx, prog, g), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(*prog, "test", text, strlen(text), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, *prog, 0, &o), MS_OK);
	assert_int_equal(ms_rts_dsl_decide(it, 0, s, out, max, &n), MS_OK);
	ms_rts_dsl_interp_free(it);
	return n;
}

static void test_rts_dsl_reach__a_decision_marks_what_it_read(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *p, *q;
	ms_rts_pair a[64], b[64];
	uint8_t reach[64] = { 0 };
	char map[4096];
	(void)state;

	if (!maps_dir)
		skip();
	snprintf(map, sizeof map, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	if (ms_rts_state_load_map(ctx, &s, utt, map, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	int na = decide(ctx, g, s, program, reach, &p, a, 64);
	assert_true(ms_dsl_prog_len(p) <= 64);
	int harvest = node_of(p, "Harvest"), attack = node_of(p, "Attack"), train = node_of(p, "Train");
	int cond = node_of(p, "HasNumberOfUnits");
	const int32_t *ends = ms_dsl_prog_ends(p);
	/* the root and the harvest count (the Worker harvests) were read */
	assert_true(reach[0] & MS_RTS_DSL_REACH_READ);
	assert_true(reach[harvest] & MS_RTS_DSL_REACH_READ);
	assert_true(reach[harvest + 1] & MS_RTS_DSL_REACH_READ);
	/* the attack, for the Base, which cannot attack: its target rule is not read */
	assert_true(reach[attack] & MS_RTS_DSL_REACH_READ);
	assert_int_equal(reach[attack + 1], 0);
	/* after its harvest the Worker's rest of the body ran as a busy unit's: some statement above the attack */
	int busy = 0;
	for (int j = 0; j < attack; j++)
		busy |= ends[j] > attack && (reach[j] & MS_RTS_DSL_REACH_BUSY);
	assert_true(busy);
	/* the condition, for the Base, is read whole; the branch it refuses is not */
	for (int j = cond; j < ends[cond]; j++)
		assert_true(reach[j] & MS_RTS_DSL_REACH_READ);
	for (int j = train - 1; j < ends[train]; j++)
		assert_int_equal(reach[j], 0);
	/* the premise: what was not read decides nothing */
	int nb = decide(ctx, g, s, unread_changed, NULL, &q, b, 64);
	assert_int_equal(na, nb);
	assert_true(na > 0);
	for (int k = 0; k < na; k++) {
		assert_true(a[k].unit.id == b[k].unit.id);
		assert_int_equal(a[k].action.type, b[k].action.type);
		assert_int_equal(a[k].action.parameter, b[k].action.parameter);
	}
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_dsl_grammar_free(g);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_rts_dsl_reach__old_options_version_still_works(void **state)
{
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_rts_dsl_interp *it;
	/* a version-2 caller's struct ends before `reach`: what follows it must not be read */
	struct {
		ms_rts_dsl_options o;
	} v2;
	(void)state;

	memset(&v2, 0xAB, sizeof v2);
	memset(&v2.o, 0, offsetof(ms_rts_dsl_options, reach));
	v2.o.version = 2;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(p, "test", program, strlen(program), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 0, &v2.o), MS_OK);
	ms_rts_dsl_interp_free(it);
	v2.o.version = 4;
	assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 0, &v2.o), MS_EINVAL);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_reach__a_decision_marks_what_it_read),
		cmocka_unit_test(test_rts_dsl_reach__old_options_version_still_works),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
