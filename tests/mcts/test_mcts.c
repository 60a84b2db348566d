/* The MCTS core (mcts.h) on toy games whose best moves are known: Nim, a
 * safe move against a gamble behind a chance node, and priors; keeping the
 * subtree below a move; a game choosing its own moves; Max child by the sum. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "microsynth/mcts.h"

/* ---- Nim: take 1-3 from a pile; whoever takes the last stone wins ------- */

typedef struct nim {
	int pile, player, winner;
} nim;

static int nim_legal(void *ud, const void *s, void *moves, int max)
{
	(void)ud;
	const nim *n = s;
	int k = 0, *mv = moves;
	for (int t = 1; t <= 3 && t <= n->pile && k < max; t++)
		mv[k++] = t;
	return k;
}

static int nim_apply(void *ud, void *s, const void *move, uint64_t *rng)
{
	(void)ud, (void)rng;
	nim *n = s;
	n->pile -= *(const int *)move;
	if (n->pile == 0)
		n->winner = n->player;
	n->player = 1 - n->player;
	return 0;
}

static int nim_terminal(void *ud, const void *s)
{
	(void)ud;
	return ((const nim *)s)->pile == 0;
}

static int nim_rewards(void *ud, const void *s, double *r)
{
	(void)ud;
	const nim *n = s;
	r[0] = n->winner == 0;
	r[1] = n->winner == 1;
	return 0;
}

static int nim_to_move(void *ud, const void *s)
{
	(void)ud;
	return ((const nim *)s)->player;
}

static ms_mcts_game nim_game(void)
{
	ms_mcts_game g;
	memset(&g, 0, sizeof g);
	g.state_size = sizeof(nim);
	g.move_size = sizeof(int);
	g.n_players = 2;
	g.legal = nim_legal;
	g.apply = nim_apply;
	g.terminal = nim_terminal;
	g.rewards = nim_rewards;
	g.to_move = nim_to_move;
	return g;
}

static int best_nim_move(int pile, int rule, long iterations, uint64_t seed, int *nodes)
{
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g = nim_game();
	nim root = { pile, 0, -1 };
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = iterations;
	o.rule = rule;
	o.seed = seed;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	int best = ms_mcts_best_child(m, 0, 0.0);
	assert_true(best > 0);
	int move = *(const int *)ms_mcts_move(m, best);
	if (nodes)
		*nodes = ms_mcts_node_count(m);
	assert_int_equal(ms_mcts_visits(m, 0), iterations);
	ms_mcts_free(m);
	ms_ctx_free(ctx);
	return move;
}

/* The winning move leaves a multiple of 4. */
static void test_mcts_uct__finds_the_winning_nim_moves(void **st)
{
	(void)st;
	assert_int_equal(best_nim_move(5, MS_MCTS_UCB1, 3000, 1, NULL), 1);
	assert_int_equal(best_nim_move(6, MS_MCTS_UCB1, 3000, 2, NULL), 2);
	assert_int_equal(best_nim_move(7, MS_MCTS_UCB1, 3000, 3, NULL), 3);
	assert_int_equal(best_nim_move(11, MS_MCTS_UCB1, 20000, 4, NULL), 3);
}

static void test_mcts_search__same_seed_same_tree(void **st)
{
	(void)st;
	int a, b;
	assert_int_equal(best_nim_move(1000, MS_MCTS_MAX_CHILD, 500, 9, &a),
			 best_nim_move(1000, MS_MCTS_MAX_CHILD, 500, 9, &b));
	assert_int_equal(a, b);
	assert_int_equal(a, 501); /* one node per iteration (no end is reached), plus the root */
}

/* ---- a safe 0.5 against a gamble that pays 1 with probability p ---------- */

typedef struct gamble {
	int stage; /* 0 choose, 1 chance, 2 over */
	double value, p;
} gamble;

static int g_legal(void *ud, const void *s, void *moves, int max)
{
	(void)ud, (void)max;
	int *mv = moves;
	const gamble *g = s;
	mv[0] = g->stage == 0 ? 0 : 10; /* safe / win */
	mv[1] = g->stage == 0 ? 1 : 11; /* gamble / lose */
	return 2;
}

static int g_apply(void *ud, void *s, const void *move, uint64_t *rng)
{
	(void)ud, (void)rng;
	gamble *g = s;
	int mv = *(const int *)move;
	if (mv == 0)
		g->stage = 2, g->value = 0.5;
	else if (mv == 1)
		g->stage = 1;
	else
		g->stage = 2, g->value = mv == 10 ? 1.0 : 0.0;
	return 0;
}

static int g_terminal(void *ud, const void *s)
{
	(void)ud;
	return ((const gamble *)s)->stage == 2;
}

static int g_rewards(void *ud, const void *s, double *r)
{
	(void)ud;
	r[0] = ((const gamble *)s)->value;
	return 0;
}

static int g_to_move(void *ud, const void *s)
{
	(void)ud;
	return ((const gamble *)s)->stage == 1 ? MS_MCTS_CHANCE : 0;
}

static int g_weights(void *ud, const void *s, const void *moves, int n, double *w)
{
	(void)ud, (void)moves, (void)n;
	w[0] = ((const gamble *)s)->p;
	w[1] = 1 - ((const gamble *)s)->p;
	return 0;
}

static int gamble_choice(double p, int *chance_visits, int *win_visits)
{
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g;
	gamble root = { 0, 0, p };
	memset(&g, 0, sizeof g);
	g.state_size = sizeof(gamble);
	g.move_size = sizeof(int);
	g.n_players = 1;
	g.legal = g_legal, g.apply = g_apply, g.terminal = g_terminal, g.rewards = g_rewards, g.to_move = g_to_move;
	g.chance_weights = g_weights;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 4000;
	o.c = 0.3;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	int best = ms_mcts_best_child(m, 0, 0.0), move = *(const int *)ms_mcts_move(m, best);
	*chance_visits = *win_visits = 0;
	for (int ch = ms_mcts_child_first(m, 0); ch >= 0; ch = ms_mcts_child_next(m, ch))
		if (*(const int *)ms_mcts_move(m, ch) == 1) {
			assert_int_equal(ms_mcts_player(m, ch), MS_MCTS_CHANCE);
			*chance_visits = ms_mcts_visits(m, ch);
			for (int o2 = ms_mcts_child_first(m, ch); o2 >= 0; o2 = ms_mcts_child_next(m, o2))
				if (*(const int *)ms_mcts_move(m, o2) == 10)
					*win_visits = ms_mcts_visits(m, o2);
		}
	ms_mcts_free(m);
	ms_ctx_free(ctx);
	return move;
}

static void test_mcts_chance__outcomes_follow_their_weights(void **st)
{
	(void)st;
	int cv, wv;
	assert_int_equal(gamble_choice(0.3, &cv, &wv), 0);
	assert_int_equal(gamble_choice(0.8, &cv, &wv), 1);
	assert_true(cv > 1000);
	double share = (double)wv / cv;
	assert_true(share > 0.74 && share < 0.86);
}

/* ---- priors: equal playouts, the prior decides the Max child ------------- */

static int nim_prior(void *ud, const void *parent, const void *child, const void *move, int player, double *q,
		      int *visits)
{
	(void)ud, (void)parent, (void)child, (void)visits;
	if (*(const int *)move == 2)
		q[player] = 5.0;
	return 0;
}

static void test_mcts_prior__adds_once_to_the_new_child(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g = nim_game();
	nim root = { 1000, 0, -1 };
	g.prior = nim_prior;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 3;
	o.rule = MS_MCTS_MAX_CHILD;
	o.max_playout_steps = 1; /* a cut-off: the rewards of an unfinished game are 0 */
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	int best = ms_mcts_best_child(m, 0, 0.0);
	assert_int_equal(*(const int *)ms_mcts_move(m, best), 2);
	assert_int_equal(ms_mcts_visits(m, best), 1);
	assert_true(ms_mcts_q(m, best)[0] == 5.0);
	assert_true(ms_mcts_q(m, 0)[0] == 0.0); /* the prior is not backed up */
	ms_mcts_free(m);
	ms_ctx_free(ctx);
}

static void test_mcts_new__rejects_a_game_without_callbacks_or_a_bad_rule(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g = nim_game();
	g.apply = NULL;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_EINVAL);
	assert_null(m);
	g = nim_game();
	o.rule = MS_MCTS_MAX_SUM + 1;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_EINVAL);
	assert_null(m);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "rule"));
	ms_ctx_free(ctx);
}

/* ---- keeping a subtree, and a game that chooses its own moves ------------ */

static int subtree_size(const ms_mcts *m, int nd)
{
	int n = 1;
	for (int ch = ms_mcts_child_first(m, nd); ch >= 0; ch = ms_mcts_child_next(m, ch)) {
		assert_int_equal(ms_mcts_parent(m, ch), nd);
		n += subtree_size(m, ch);
	}
	return n;
}

static void test_mcts_advance__keeps_the_subtree_below_the_move(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g = nim_game();
	nim root = { 10, 0, -1 };
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 2000;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	int c = -1, take = 2;
	for (int ch = ms_mcts_child_first(m, 0); ch >= 0; ch = ms_mcts_child_next(m, ch))
		if (*(const int *)ms_mcts_move(m, ch) == take)
			c = ch;
	assert_true(c > 0);
	int visits = ms_mcts_visits(m, c), size = subtree_size(m, c);
	double q0 = ms_mcts_q(m, c)[0];
	assert_true(size > 1 && size < ms_mcts_node_count(m));
	assert_int_equal(ms_mcts_advance(m, &take), 1);
	assert_int_equal(ms_mcts_node_count(m), size);
	assert_int_equal(subtree_size(m, 0), size);
	assert_int_equal(ms_mcts_parent(m, 0), -1);
	assert_int_equal(ms_mcts_visits(m, 0), visits);
	assert_true(ms_mcts_q(m, 0)[0] == q0);
	assert_int_equal(((const nim *)ms_mcts_state(m, 0))->pile, 8);
	assert_int_equal(ms_mcts_search_more(m), MS_OK);
	assert_int_equal(ms_mcts_visits(m, 0), visits + 2000);
	assert_int_equal(subtree_size(m, 0), ms_mcts_node_count(m));
	int absent = 7;
	assert_int_equal(ms_mcts_advance(m, &absent), 0);
	assert_false(ms_mcts_has_tree(m));
	assert_int_equal(ms_mcts_search_more(m), MS_EINVAL);
	ms_mcts_free(m);
	ms_ctx_free(ctx);
}

/* Always the last listed move (take the most): the tree is one path. */
static int take_last(void *ud, ms_mcts *m, int node, const void *moves, int n, uint64_t *rng)
{
	(void)ud, (void)m, (void)node, (void)moves, (void)rng;
	return n - 1;
}

static void test_mcts_choose__the_game_picks_every_move(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g = nim_game();
	g.choose = take_last;
	nim root = { 10, 0, -1 };
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 50;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	/* 10 -> 7 -> 4 -> 1 -> 0: five nodes, one child each but the last */
	assert_int_equal(ms_mcts_node_count(m), 5);
	int nd = 0, depth = 0, n;
	for (; ms_mcts_child_first(m, nd) >= 0; nd = ms_mcts_child_first(m, nd), depth++) {
		assert_int_equal(ms_mcts_child_next(m, ms_mcts_child_first(m, nd)), -1);
		assert_non_null(ms_mcts_node_moves(m, nd, &n));
		assert_int_equal(ms_mcts_untried(m, nd), n - 1);
	}
	assert_int_equal(depth, 4);
	assert_true(ms_mcts_terminal(m, nd));
	assert_int_equal(ms_mcts_visits(m, 0), 50);
	ms_mcts_free(m);
	ms_ctx_free(ctx);
}

/* ---- Max child by the mean and by the sum ------------------------------- */

/* One player picks 0 or 1, then 20 forced steps; the line of 0 pays 0.1 but
 * carries a prior of 1.0, the line of 1 pays 0.5. */
typedef struct lure {
	int step, choice;
} lure;

static int lure_legal(void *ud, const void *s, void *moves, int max)
{
	(void)ud, (void)max;
	int *mv = moves;
	mv[0] = 0;
	mv[1] = 1;
	return ((const lure *)s)->step == 0 ? 2 : 1;
}

static int lure_apply(void *ud, void *s, const void *move, uint64_t *rng)
{
	(void)ud, (void)rng;
	lure *l = s;
	if (l->step++ == 0)
		l->choice = *(const int *)move;
	return 0;
}

static int lure_terminal(void *ud, const void *s)
{
	(void)ud;
	return ((const lure *)s)->step > 20;
}

static int lure_rewards(void *ud, const void *s, double *r)
{
	(void)ud;
	r[0] = ((const lure *)s)->choice == 0 ? 0.1 : 0.5;
	return 0;
}

static int lure_to_move(void *ud, const void *s)
{
	(void)ud, (void)s;
	return 0;
}

static int lure_prior(void *ud, const void *parent, const void *child, const void *move, int player, double *q,
		       int *visits)
{
	(void)ud, (void)child, (void)visits;
	if (((const lure *)parent)->step == 0 && *(const int *)move == 0)
		q[player] = 1.0;
	return 0;
}

/* The root's chosen move and the visits of the child of move 0. */
static int lure_choice(int rule, int *visits0)
{
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	ms_mcts_game g;
	lure root = { 0, -1 };
	memset(&g, 0, sizeof g);
	g.state_size = sizeof(lure);
	g.move_size = sizeof(int);
	g.n_players = 1;
	g.legal = lure_legal, g.apply = lure_apply, g.terminal = lure_terminal, g.rewards = lure_rewards;
	g.to_move = lure_to_move, g.prior = lure_prior;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 50;
	o.rule = rule;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
	assert_int_equal(ms_mcts_search(m, &root), MS_OK);
	for (int ch = ms_mcts_child_first(m, 0); ch >= 0; ch = ms_mcts_child_next(m, ch))
		if (*(const int *)ms_mcts_move(m, ch) == 0)
			*visits0 = ms_mcts_visits(m, ch);
	int move = *(const int *)ms_mcts_move(m, ms_mcts_best_child(m, 0, 0.0));
	ms_mcts_free(m);
	ms_ctx_free(ctx);
	return move;
}

/* By the mean the lure's 1.1, 0.6, 0.43 falls below 0.5 at its third visit;
 * by the sum it only grows, so it keeps every visit after the first round. */
static void test_mcts_max_sum__the_first_leader_keeps_every_visit(void **st)
{
	(void)st;
	int v;
	assert_int_equal(lure_choice(MS_MCTS_MAX_CHILD, &v), 1);
	assert_int_equal(v, 3);
	assert_int_equal(lure_choice(MS_MCTS_MAX_SUM, &v), 0);
	assert_int_equal(v, 49);
}

/* A computing callback that fails ends the search with its status and message (options version 2). */
static int failing_rewards(void *ud, const void *s, double *r)
{
	(void)s, (void)r;
	return ms_ctx_error(ud, MS_EINVAL, "no goal in this state");
}

static int failing_backup(void *ud, ms_mcts *m, int leaf, const double *r)
{
	(void)m, (void)leaf, (void)r;
	return ms_ctx_error(ud, MS_ERANGE, "history table full");
}

static void test_mcts__a_failing_callback_ends_the_search_with_its_error(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_mcts *m = NULL;
	ms_mcts_options o;
	nim root = { 5, 0, -1 };
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = 50;
	for (int which = 0; which < 2; which++) {
		ms_mcts_game g = nim_game();
		g.ud = ctx;
		if (which == 0)
			g.rewards = failing_rewards;
		else
			g.on_backup = failing_backup;
		assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_OK);
		assert_int_equal(ms_mcts_search(m, &root), which == 0 ? MS_EINVAL : MS_ERANGE);
		assert_non_null(strstr(ms_ctx_last_error(ctx), which == 0 ? "rewards() failed: no goal in this state"
									   : "on_backup() failed: history table full"));
		ms_mcts_free(m);
	}
	/* an options struct of version 1 (void callbacks) is refused */
	ms_mcts_game g = nim_game();
	o.version = 1;
	assert_int_equal(ms_mcts_new(ctx, &m, &g, &o), MS_EINVAL);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mcts__a_failing_callback_ends_the_search_with_its_error),
		cmocka_unit_test(test_mcts_uct__finds_the_winning_nim_moves),
		cmocka_unit_test(test_mcts_search__same_seed_same_tree),
		cmocka_unit_test(test_mcts_chance__outcomes_follow_their_weights),
		cmocka_unit_test(test_mcts_prior__adds_once_to_the_new_child),
		cmocka_unit_test(test_mcts_new__rejects_a_game_without_callbacks_or_a_bad_rule),
		cmocka_unit_test(test_mcts_advance__keeps_the_subtree_below_the_move),
		cmocka_unit_test(test_mcts_choose__the_game_picks_every_move),
		cmocka_unit_test(test_mcts_max_sum__the_first_leader_keeps_every_visit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
