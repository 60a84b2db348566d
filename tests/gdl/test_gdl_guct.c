/*
 * StatGUCT, GUCT and SGUCT (gdl.h) on the shared rule files: the function
 * is the same for a seed and gives own material a positive weight and the
 * opponent's a negative one (breakthrough here; checkers, 8 s, with the
 * argument "checkers" under the sweep label); each of GUCT's four uses
 * acts as it should at the root; SGUCT's learning lowers the error on
 * UCT's own values. Skipped without ../shared.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "microsynth/gdl.h"

typedef struct fixture {
	ms_ctx *ctx;
	ms_gdl *g;
	ms_gdl_eval *e;
} fixture;

/* Loads rulesheets-2010/<name>.kif and builds its function with `seed`; skips without the shared data. */
static void open_game(fixture *f, const char *name, uint64_t seed)
{
	const char *shared = getenv("MS_SHARED_DIR");
	char path[4096];
	if (!shared || !*shared)
		skip();
	snprintf(path, sizeof path, "%s/data/gdl/kif/rulesheets-2010/%s.kif", shared, name);
	ms_gdl_options o = { .version = MS_GDL_OPTIONS_VERSION };
	ms_gdl_stat_options so;
	ms_gdl_stat_options_init(&so, MS_GDL_STAT_OPTIONS_VERSION);
	so.seed = seed;
	assert_int_equal(ms_ctx_new(&f->ctx, NULL), MS_OK);
	assert_int_equal(ms_gdl_load(f->ctx, &f->g, path, &o), MS_OK);
	assert_int_equal(ms_gdl_stat_build(f->ctx, &f->e, f->g, &so), MS_OK);
}

static void close_game(fixture *f)
{
	ms_gdl_eval_free(f->e);
	ms_gdl_free(f->g);
	ms_ctx_free(f->ctx);
}

static void test_gdl_stat__same_seed_same_function(void **state)
{
	(void)state;
	fixture a, b;
	char ta[512], tb[512];
	open_game(&a, "connectFour", 3);
	open_game(&b, "connectFour", 3);
	for (int r = 0; r < 2; r++) {
		assert_int_equal(ms_gdl_eval_terms(a.e, r), 30);
		assert_int_equal(ms_gdl_eval_terms(b.e, r), 30);
		assert_true(ms_gdl_eval_constant(a.e, r) == ms_gdl_eval_constant(b.e, r));
		for (int i = 0; i < 30; i++) {
			ms_gdl_eval_term_text(a.e, r, i, ta, sizeof ta);
			ms_gdl_eval_term_text(b.e, r, i, tb, sizeof tb);
			assert_string_equal(ta, tb);
			assert_true(ms_gdl_eval_weight(a.e, r, i) == ms_gdl_eval_weight(b.e, r, i));
		}
	}
	close_game(&a);
	close_game(&b);
}

/* +1 if `piece` is one of own[], -1 if one of opp[], 0 otherwise. */
static int side(const char *piece, const char *const *own, const char *const *opp)
{
	for (int i = 0; own[i]; i++)
		if (!strcmp(piece, own[i]))
			return 1;
	for (int i = 0; opp[i]; i++)
		if (!strcmp(piece, opp[i]))
			return -1;
	return 0;
}

/*
 * Role r's material terms: "(SYM ? ? P)" (sign of P's side) and
 * "(SYM ? ? P)-(SYM ? ? Q)" (P's side, if Q is the other side). Each must
 * weigh with its sign; returns how many there are.
 */
static int check_material(const fixture *f, int r, const char *sym, const char *const *own, const char *const *opp)
{
	char text[512], pa[64], pb[64], prefix[80];
	int n = 0;
	snprintf(prefix, sizeof prefix, "(%s ? ? ", sym);
	for (int i = 0; i < ms_gdl_eval_terms(f->e, r); i++) {
		ms_gdl_eval_term_text(f->e, r, i, text, sizeof text);
		size_t k = strlen(prefix);
		if (strncmp(text, prefix, k) || sscanf(text + k, "%63[^)]", pa) != 1)
			continue;
		int s = side(pa, own, opp);
		const char *rest = text + k + strlen(pa) + 1;
		if (*rest == '-') {
			if (strncmp(rest + 1, prefix, k) || sscanf(rest + 1 + k, "%63[^)]", pb) != 1 || side(pb, own, opp) != -s)
				continue;
		} else if (*rest) {
			continue;
		}
		if (!s)
			continue;
		double w = ms_gdl_eval_weight(f->e, r, i);
		if (s * w <= 0)
			fail_msg("%s weighs %g for %s", text, w, ms_gdl_role_name(f->g, r));
		n++;
	}
	return n;
}

static void test_gdl_stat__breakthrough_own_material_positive_opponents_negative(void **state)
{
	(void)state;
	fixture f;
	static const char *const white[] = { "white", NULL }, *const black[] = { "black", NULL };
	open_game(&f, "breakthrough", 1);
	assert_true(check_material(&f, ms_gdl_role_index(f.g, "white"), "cellHolds", white, black) >= 1);
	assert_true(check_material(&f, ms_gdl_role_index(f.g, "black"), "cellHolds", black, white) >= 1);
	close_game(&f);
}

static void test_gdl_stat__checkers_black_own_material_positive_opponents_negative(void **state)
{
	(void)state;
	fixture f, g;
	static const char *const black[] = { "bp", "bk", NULL }, *const white[] = { "wp", "wk", NULL };
	open_game(&f, "checkers", 1);
	open_game(&g, "checkers", 1);
	int r = ms_gdl_role_index(f.g, "black");
	assert_true(check_material(&f, r, "cell", black, white) >= 2);
	for (int i = 0; i < ms_gdl_eval_terms(f.e, r); i++)
		assert_true(ms_gdl_eval_weight(f.e, r, i) == ms_gdl_eval_weight(g.e, r, i));
	close_game(&f);
	close_game(&g);
}

/* Role 0's reward (eval / 100, clamped) after each of its root moves in tic-tac-toe (role 1: noop). */
static int root_evals(const fixture *f, int *moves, double *val)
{
	ms_gdl_machine *m;
	uint64_t st[4], nx[4];
	const int *mv, *noop;
	assert_true(ms_gdl_state_words(f->g) <= 4);
	assert_int_equal(ms_gdl_machine_new(f->ctx, &m, f->g), MS_OK);
	ms_gdl_initial(f->g, st);
	assert_int_equal(ms_gdl_machine_set(m, st), MS_OK);
	int n = ms_gdl_legal(m, 0, &mv);
	assert_int_equal(ms_gdl_legal(m, 1, &noop), 1);
	for (int i = 0; i < n; i++) {
		int joint[2] = { mv[i], noop[0] };
		moves[i] = mv[i];
		assert_int_equal(ms_gdl_next(m, joint, nx), MS_OK);
		val[i] = fmin(1, fmax(0, ms_gdl_eval_state(f->e, 0, nx) / 100));
	}
	ms_gdl_machine_free(m);
	return n;
}

/* A GUCT search from tic-tac-toe's start with the given use of the eval; role 0's move into *played. */
static ms_gdl_uct *guct(const fixture *f, long sims, double cutoff, double replace, int order, int prior, int *played)
{
	ms_gdl_uct_options o;
	ms_gdl_uct *u;
	uint64_t st[4];
	int joint[2];
	ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
	o.eval = f->e, o.simulations = sims, o.cutoff = cutoff, o.replace = replace, o.order = order, o.prior = prior;
	assert_int_equal(ms_gdl_uct_new(f->ctx, &u, f->g, &o), MS_OK);
	ms_gdl_initial(f->g, st);
	assert_int_equal(ms_gdl_uct_search(u, st, joint), MS_OK);
	*played = joint[0];
	return u;
}

/* With p = 1 (cut at once) or q = 1 (replaced), a root move tried once scores its position's eval. */
static void test_gdl_guct__cutoff_and_replacement_score_new_leaves_by_eval(void **state)
{
	(void)state;
	fixture f;
	int moves[16], played;
	double val[16];
	open_game(&f, "tictactoe", 1);
	int n = root_evals(&f, moves, val);
	assert_int_equal(n, 9);
	for (int use = 0; use < 2; use++) {
		ms_gdl_uct *u = guct(&f, n, use == 0 ? 1.0 : 0.0, use == 1 ? 1.0 : 0.0, 0, 0, &played);
		for (int i = 0; i < n; i++) {
			long vis;
			double mean;
			ms_gdl_uct_root_stats(u, 0, moves[i], &vis, &mean);
			assert_int_equal(vis, 1);
			assert_true(fabs(mean - val[i]) < 1e-12);
		}
		ms_gdl_uct_free(u);
	}
	close_game(&f);
}

/* Ordering: the first simulation tries a move of the best eval; a prior worth many visits keeps the search there. */
static void test_gdl_guct__ordering_and_prior_follow_the_eval(void **state)
{
	(void)state;
	fixture f;
	int moves[16], played;
	double val[16], best = -1;
	open_game(&f, "tictactoe", 1);
	int n = root_evals(&f, moves, val);
	for (int i = 0; i < n; i++)
		best = fmax(best, val[i]);
	ms_gdl_uct *u = guct(&f, 1, 0.0, 0.0, 1, 0, &played);
	for (int i = 0; i < n; i++) {
		long vis;
		double mean;
		ms_gdl_uct_root_stats(u, 0, moves[i], &vis, &mean);
		if (vis)
			assert_true(val[i] == best);
	}
	ms_gdl_uct_free(u);
	u = guct(&f, 40, 0.0, 0.0, 0, 100000, &played);
	for (int i = 0; i < n; i++)
		if (moves[i] == played)
			assert_true(val[i] == best);
	ms_gdl_uct_free(u);
	close_game(&f);
}

static void test_gdl_sguct__learning_lowers_the_error_on_uct_values(void **state)
{
	(void)state;
	fixture f, g;
	ms_gdl_uct_options uo;
	ms_gdl_sguct_options so;
	ms_gdl_sguct_report a, b;
	open_game(&f, "connectFour", 1);
	open_game(&g, "connectFour", 1);
	ms_gdl_uct_options_init(&uo, MS_GDL_UCT_OPTIONS_VERSION);
	ms_gdl_sguct_options_init(&so, MS_GDL_SGUCT_OPTIONS_VERSION);
	uo.simulations = 3000;
	assert_int_equal(ms_gdl_sguct_offline(f.ctx, f.g, f.e, &uo, &so, &a), MS_OK);
	assert_int_equal(ms_gdl_sguct_offline(g.ctx, g.g, g.e, &uo, &so, &b), MS_OK);
	assert_true(a.samples > 50);
	assert_true(a.mse_after < a.mse_before);
	assert_true(a.samples == b.samples && a.mse_after == b.mse_after);
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < ms_gdl_eval_terms(f.e, r); i++)
			assert_true(ms_gdl_eval_weight(f.e, r, i) == ms_gdl_eval_weight(g.e, r, i));
	so.population = 1;
	assert_int_equal(ms_gdl_sguct_refine(f.ctx, f.e, 0, NULL, NULL, 0, &so, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f.ctx), "population"));
	close_game(&f);
	close_game(&g);
}

static void test_gdl_guct__bad_options_are_refused(void **state)
{
	(void)state;
	fixture f;
	ms_gdl_uct_options o;
	ms_gdl_stat_options so;
	ms_gdl_uct *u = NULL;
	ms_gdl_eval *e = NULL;
	open_game(&f, "tictactoe", 1);
	ms_gdl_uct_options_init(&o, MS_GDL_UCT_OPTIONS_VERSION);
	o.eval = f.e, o.cutoff = 1.5;
	assert_int_equal(ms_gdl_uct_new(f.ctx, &u, f.g, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f.ctx), "cutoff"));
	ms_gdl_stat_options_init(&so, MS_GDL_STAT_OPTIONS_VERSION);
	so.sequences = 1;
	assert_int_equal(ms_gdl_stat_build(f.ctx, &e, f.g, &so), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f.ctx), "sequences"));
	assert_null(e);
	close_game(&f);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "checkers")) {
		const struct CMUnitTest sweep[] = {
			cmocka_unit_test(test_gdl_stat__checkers_black_own_material_positive_opponents_negative),
		};
		return cmocka_run_group_tests(sweep, NULL, NULL);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gdl_stat__same_seed_same_function),
		cmocka_unit_test(test_gdl_stat__breakthrough_own_material_positive_opponents_negative),
		cmocka_unit_test(test_gdl_guct__cutoff_and_replacement_score_new_leaves_by_eval),
		cmocka_unit_test(test_gdl_guct__ordering_and_prior_follow_the_eval),
		cmocka_unit_test(test_gdl_sguct__learning_lowers_the_error_on_uct_values),
		cmocka_unit_test(test_gdl_guct__bad_options_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
