/*
 * Decoupled UCT for GDL (gdl.h) on two small rule sets in rules/: a forced
 * win that random playouts hide (trap.kif) and a simultaneous move where
 * each role has a dominant choice (dominant.kif). Also: same seed, same
 * statistics; the played subtree kept; transpositions pooled (switches.kif);
 * four roles' 14,641 joint moves a state (four_bids.kif);
 * options refused with their name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "microsynth/gdl.h"

static const char *rules_dir = ".";

typedef struct fixture {
	ms_ctx *ctx;
	ms_gdl *g;
	ms_gdl_machine *m;
	uint64_t st[4];
} fixture;

static void open_rules(fixture *f, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", rules_dir, name);
	ms_gdl_options o = { .version = MS_GDL_OPTIONS_VERSION };
	assert_int_equal(ms_ctx_new(&f->ctx, NULL), MS_OK);
	assert_int_equal(ms_gdl_load(f->ctx, &f->g, path, &o), MS_OK);
	assert_true(ms_gdl_state_words(f->g) <= 4);
	assert_int_equal(ms_gdl_machine_new(f->ctx, &f->m, f->g), MS_OK);
	ms_gdl_initial(f->g, f->st);
}

static void close_rules(fixture *f)
{
	ms_gdl_machine_free(f->m);
	ms_gdl_free(f->g);
	ms_ctx_free(f->ctx);
}

/* Role r's move written `text` (move ids differ between roles). */
static int move_id(const ms_gdl *g, int r, const char *text)
{
	char buf[256];
	for (int mv = 0; mv < ms_gdl_num_moves(g); mv++) {
		ms_gdl_move_text(g, mv, buf, sizeof buf);
		if (ms_gdl_move_role(g, mv) == r && !strcmp(buf, text))
			return mv;
	}
	fail_msg("no move %s", text);
	return -1;
}

/* variant 0: plain UCT; 1: the history heuristic; 2: transpositions. */
static ms_gdl_uct *new_uct(fixture *f, long sims, uint64_t seed, int variant)
{
	ms_gdl_uct_options o;
	ms_gdl_uct *u = NULL;
	ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
	o.simulations = sims, o.seed = seed, o.history = variant == 1, o.transpositions = variant == 2 ? 4096 : 0;
	assert_int_equal(ms_gdl_uct_new(f->ctx, &u, f->g, &o), MS_OK);
	return u;
}

/* Plays `joint` from f->st (and tells u). */
static void play(fixture *f, ms_gdl_uct *u, const int *joint)
{
	uint64_t nx[4];
	assert_int_equal(ms_gdl_machine_set(f->m, f->st), MS_OK);
	assert_int_equal(ms_gdl_next(f->m, joint, nx), MS_OK);
	ms_gdl_uct_played(u, joint);
	memcpy(f->st, nx, sizeof nx);
}

/* Random playouts rate left at 90% and right at 10%; minimax says right, then 7. */
static void test_gdl_uct__finds_the_forced_win_that_playouts_hide(void **state)
{
	(void)state;
	for (int variant = 0; variant <= 2; variant++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			fixture f;
			open_rules(&f, "trap.kif");
			int white = ms_gdl_role_index(f.g, "white"), joint[2];
			ms_gdl_uct *u = new_uct(&f, 3000, seed, variant);
			assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
			assert_int_equal(joint[white], move_id(f.g, white, "right"));
			long vl, vr;
			double ml, mr;
			ms_gdl_uct_root_stats(u, white, move_id(f.g, white, "left"), &vl, &ml);
			ms_gdl_uct_root_stats(u, white, move_id(f.g, white, "right"), &vr, &mr);
			assert_true(vr > vl && mr > ml);
			joint[1 - white] = move_id(f.g, 1 - white, "noop");
			play(&f, u, joint);
			joint[white] = move_id(f.g, white, "noop"), joint[1 - white] = move_id(f.g, 1 - white, "(pick 3)");
			play(&f, u, joint);
			assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
			assert_int_equal(joint[white], move_id(f.g, white, "(guess 7)"));
			ms_gdl_uct_free(u);
			close_rules(&f);
		}
}

/* Too few simulations fall for the trap: the test above can fail. */
static void test_gdl_uct__few_simulations_fall_for_the_trap(void **state)
{
	(void)state;
	fixture f;
	open_rules(&f, "trap.kif");
	int white = ms_gdl_role_index(f.g, "white"), joint[2];
	ms_gdl_uct *u = new_uct(&f, 12, 1, 0);
	assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
	assert_int_equal(joint[white], move_id(f.g, white, "left"));
	ms_gdl_uct_free(u);
	close_rules(&f);
}

/* Each role picks its own part of the joint move on its own statistics. */
static void test_gdl_uct__simultaneous_roles_each_find_their_dominant_move(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		fixture f;
		open_rules(&f, "dominant.kif");
		int joint[2];
		ms_gdl_uct *u = new_uct(&f, 600, seed, 0);
		assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
		long vh;
		double mh;
		ms_gdl_uct_root_stats(u, 0, joint[0], &vh, &mh);
		assert_true(vh > 300);
		for (int r = 0; r < 2; r++)
			assert_int_equal(joint[r], move_id(f.g, r, "(play high)"));
		/* untried parts first: every level of each role was tried */
		for (int mv = 0; mv < ms_gdl_num_moves(f.g); mv++) {
			long v;
			double mean;
			ms_gdl_uct_root_stats(u, ms_gdl_move_role(f.g, mv), mv, &v, &mean);
			assert_true(v >= 1);
		}
		ms_gdl_uct_free(u);
		close_rules(&f);
	}
}

/* 11^4 joint moves a state, more than the core lists: the node lists a
 * cover of each role's moves, the roles' picks combine into joint moves of
 * their own, and every role finds its dominant bid in both rounds. */
static void test_gdl_uct__a_joint_space_too_large_to_list(void **state)
{
	(void)state;
	fixture f;
	open_rules(&f, "four_bids.kif");
	int joint[4];
	ms_gdl_uct *u = new_uct(&f, 3000, 7, 0);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
		for (int r = 0; r < 4; r++)
			assert_int_equal(joint[r], move_id(f.g, r, "(bid 10)"));
		for (int mv = 0; mv < ms_gdl_num_moves(f.g); mv++) { /* every bid of every role was tried */
			long v;
			double mean;
			ms_gdl_uct_root_stats(u, ms_gdl_move_role(f.g, mv), mv, &v, &mean);
			assert_true(v >= 1);
		}
		play(&f, u, joint);
	}
	assert_int_equal(ms_gdl_machine_set(f.m, f.st), MS_OK);
	assert_true(ms_gdl_terminal(f.m));
	int goal = -1;
	assert_int_equal(ms_gdl_goal(f.m, 2, &goal), MS_OK);
	assert_int_equal(goal, 100);
	ms_gdl_uct_free(u);
	close_rules(&f);
}

static void test_gdl_uct__same_seed_same_statistics(void **state)
{
	(void)state;
	fixture f;
	open_rules(&f, "trap.kif");
	int ja[2], jb[2];
	ms_gdl_uct *a = new_uct(&f, 400, 9, 1), *b = new_uct(&f, 400, 9, 1);
	assert_int_equal(ms_gdl_uct_search(a, f.st, ja), MS_OK);
	assert_int_equal(ms_gdl_uct_search(b, f.st, jb), MS_OK);
	assert_memory_equal(ja, jb, sizeof ja);
	assert_int_equal(ms_gdl_uct_nodes(a), ms_gdl_uct_nodes(b));
	for (int mv = 0; mv < ms_gdl_num_moves(f.g); mv++) {
		long va, vb;
		double ma, mb;
		ms_gdl_uct_root_stats(a, ms_gdl_move_role(f.g, mv), mv, &va, &ma);
		ms_gdl_uct_root_stats(b, ms_gdl_move_role(f.g, mv), mv, &vb, &mb);
		assert_int_equal(va, vb);
		assert_true(ma == mb);
	}
	ms_gdl_uct_free(a);
	ms_gdl_uct_free(b);
	close_rules(&f);
}

/* Root visits after the played move: the kept child's (less its own expansion) plus the new ones. */
static long root_visits(const fixture *f, const ms_gdl_uct *u, int role)
{
	long total = 0, v;
	double mean;
	for (int mv = 0; mv < ms_gdl_num_moves(f->g); mv++)
		if (ms_gdl_move_role(f->g, mv) == role) {
			ms_gdl_uct_root_stats(u, role, mv, &v, &mean);
			total += v;
		}
	return total;
}

static void test_gdl_uct__the_played_subtree_is_kept(void **state)
{
	(void)state;
	for (int keep = 0; keep <= 1; keep++) {
		fixture f;
		open_rules(&f, "trap.kif");
		ms_gdl_uct_options o;
		ms_gdl_uct *u = NULL;
		ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
		o.simulations = 500, o.keep_tree = keep;
		assert_int_equal(ms_gdl_uct_new(f.ctx, &u, f.g, &o), MS_OK);
		int white = ms_gdl_role_index(f.g, "white"), joint[2];
		assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
		joint[white] = move_id(f.g, white, "right"), joint[1 - white] = move_id(f.g, 1 - white, "noop");
		long before;
		double mean;
		ms_gdl_uct_root_stats(u, white, joint[white], &before, &mean);
		assert_true(before > 1);
		play(&f, u, joint);
		assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
		assert_int_equal(root_visits(&f, u, 1 - white), keep ? before - 1 + 500 : 500);
		ms_gdl_uct_free(u);
		close_rules(&f);
	}
}

/* Six move orders, one final state: the table holds each state once. */
static void test_gdl_uct__transpositions_pool_equal_states(void **state)
{
	(void)state;
	fixture f;
	open_rules(&f, "switches.kif");
	ms_gdl_uct_options o;
	ms_gdl_uct *u = NULL;
	ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
	o.simulations = 200, o.transpositions = 64;
	assert_int_equal(ms_gdl_uct_new(f.ctx, &u, f.g, &o), MS_OK);
	int joint[1];
	assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_OK);
	assert_int_equal(ms_gdl_uct_nodes(u), 16);
	assert_int_equal(ms_gdl_uct_table_states(u), 7); /* every state but the root's */
	ms_gdl_uct_free(u);
	close_rules(&f);
}

static void expect_option_error(fixture *f, ms_gdl_uct_options *o, const char *needle)
{
	ms_gdl_uct *u = NULL;
	assert_int_equal(ms_gdl_uct_new(f->ctx, &u, f->g, o), MS_EINVAL);
	assert_null(u);
	if (!strstr(ms_ctx_last_error(f->ctx), needle))
		fail_msg("'%s' lacks '%s'", ms_ctx_last_error(f->ctx), needle);
	ms_gdl_uct_options_init(o, MS_GDL_UCT_OPTIONS_VERSION);
}

static void test_gdl_uct__bad_options_and_terminal_states_are_refused(void **state)
{
	(void)state;
	fixture f;
	open_rules(&f, "dominant.kif");
	ms_gdl_uct_options o;
	ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
	o.simulations = 0;
	expect_option_error(&f, &o, "simulations");
	o.c = -1;
	expect_option_error(&f, &o, "exploration constant c");
	o.history = 1, o.history_tau = 0;
	expect_option_error(&f, &o, "history_tau");
	o.playout_limit = -2;
	expect_option_error(&f, &o, "playout_limit");
	o.version = 99;
	expect_option_error(&f, &o, "options version");
	o.transpositions = -1;
	expect_option_error(&f, &o, "transpositions");
	ms_gdl_uct *u = new_uct(&f, 10, 1, 0);
	int joint[2];
	joint[0] = move_id(f.g, 0, "(play high)");
	joint[1] = move_id(f.g, 1, "(play low)");
	play(&f, u, joint);
	assert_int_equal(ms_gdl_uct_search(u, f.st, joint), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f.ctx), "terminal"));
	ms_gdl_uct_free(u);
	close_rules(&f);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rules_dir = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gdl_uct__finds_the_forced_win_that_playouts_hide),
		cmocka_unit_test(test_gdl_uct__few_simulations_fall_for_the_trap),
		cmocka_unit_test(test_gdl_uct__simultaneous_roles_each_find_their_dominant_move),
		cmocka_unit_test(test_gdl_uct__a_joint_space_too_large_to_list),
		cmocka_unit_test(test_gdl_uct__same_seed_same_statistics),
		cmocka_unit_test(test_gdl_uct__the_played_subtree_is_kept),
		cmocka_unit_test(test_gdl_uct__transpositions_pool_equal_states),
		cmocka_unit_test(test_gdl_uct__bad_options_and_terminal_states_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
