/*
 * Decoupled UCT for GDL (gdl.h) on the MCTS core (mcts.h). A node's move is
 * a joint move; the core's `choose` callback picks each role's part by UCB1
 * on that role's statistics, summed over the children that share the part,
 * so no statistics live outside the core's tree. Playouts call the machine
 * directly; the history heuristic (MAST) is kept per move id.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "microsynth/gdl.h"
#include "microsynth/mcts.h"
#include "gdl_guct.h"
#include "core/hash.h"
#include "core/opts.h"
#include "microsynth/rng.h"

struct ms_gdl_uct {
	ms_ctx *ctx;
	const ms_gdl *g;
	ms_gdl_machine *mach;
	ms_mcts *m;
	ms_gdl_uct_options o;
	int nr, nm;
	size_t words;
	uint64_t *cur, *tmp; /* the state the machine holds; a next state */
	int have_cur;
	int err;       /* first callback failure, reported once the core returns */
	char msg[512];
	double *hsum;  /* history: summed reward of each move for its role */
	long *hn;
	int *trace;    /* joint moves of the last playout (history only) */
	int n_trace, cap_trace;
	/* one role's statistics at a node: distinct moves, visits, summed rewards */
	int *own;
	long *vis;
	double *qs;
	double *w;
	/* transpositions: open addressing on a state hash; used[i] = 1 + entry */
	long tt_cap, tt_n;
	uint64_t *tt_state; /* tt_cap * words */
	double *tt_q;       /* tt_cap * nr */
	long *tt_visits;
	unsigned char *tt_used;
	gdl_guct_cache *gc; /* GUCT: rewards of the positions joint moves lead to */
	double *pe;         /* GUCT: one role's reward after each of its distinct moves at a node */
};

int ms_gdl_uct_options_init(ms_gdl_uct_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_GDL_UCT_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->simulations = 1000;
	o->c = 0.5;
	o->keep_tree = 1;
	o->history_tau = 0.1;
	o->seed = 1;
	o->cutoff = 0.1;
	return MS_OK;
}

static int fail(ms_gdl_uct *u, int rc, const char *fmt, ...) MS_PRINTF(3, 4);
static int fail(ms_gdl_uct *u, int rc, const char *fmt, ...)
{
	if (!u->err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(u->msg, sizeof u->msg, fmt, ap);
		va_end(ap);
		u->err = rc;
	}
	return rc;
}

/* Makes `st` the machine's state unless it already is. */
static int set_state(ms_gdl_uct *u, const uint64_t *st)
{
	if (u->have_cur && !memcmp(u->cur, st, u->words * sizeof *st))
		return MS_OK;
	int rc = ms_gdl_machine_set(u->mach, st);
	u->have_cur = rc == MS_OK;
	if (rc)
		return fail(u, rc, "%s", ms_ctx_last_error(u->ctx));
	memcpy(u->cur, st, u->words * sizeof *st);
	return MS_OK;
}

static double history_mean(const ms_gdl_uct *u, int mv)
{
	return u->hn[mv] ? u->hsum[mv] / (double)u->hn[mv] : 1.0; /* unseen: optimistic */
}

/* ---- transpositions ------------------------------------------------------------ */

static uint64_t state_hash(const ms_gdl_uct *u, const uint64_t *st)
{
	uint64_t h = MS_SPLITMIX_GAMMA;
	for (size_t i = 0; i < u->words; i++) {
		h ^= st[i] + MS_SPLITMIX_GAMMA + (h << 6) + (h >> 2);
		h = (h ^ (h >> 31)) * MS_SPLITMIX_MUL1;
	}
	return h;
}

/* The table slot of `st`, inserting it if `add` and there is room; -1 if absent. */
static long tt_find(ms_gdl_uct *u, const uint64_t *st, int add)
{
	if (!u->tt_cap)
		return -1;
	size_t bytes = u->words * sizeof *st;
	for (long i = (long)(state_hash(u, st) % (uint64_t)u->tt_cap), probes = 0; probes < u->tt_cap;
	     i = (i + 1) % u->tt_cap, probes++) {
		uint64_t *slot = u->tt_state + (size_t)i * u->words;
		if (u->tt_used[i] && !memcmp(slot, st, bytes))
			return i;
		if (!u->tt_used[i]) {
			if (!add || u->tt_n * 10 >= u->tt_cap * 9) /* keep probes short: 90% full is full */
				return -1;
			u->tt_used[i] = 1, u->tt_n++;
			memcpy(slot, st, bytes);
			return i;
		}
	}
	return -1;
}

/* Child ch's summed reward for role r over its own visits: pooled over its state when known. */
static double child_q(ms_gdl_uct *u, const ms_mcts *m, int ch, int r)
{
	long e = tt_find(u, ms_mcts_state(m, ch), 0);
	if (e < 0 || !u->tt_visits[e])
		return ms_mcts_q(m, ch)[r];
	return u->tt_q[(size_t)e * (size_t)u->nr + (size_t)r] / (double)u->tt_visits[e] * ms_mcts_visits(m, ch);
}

/* ---- the game for the core ------------------------------------------------- */

/*
 * Every joint move of the state, role nr-1 varying fastest; or, when there
 * are more than `max` (four roles of 16 moves: 65,536), a list that covers each
 * role's moves (entry j gives role r its move j mod n_r): decoupled UCT
 * keeps statistics per role, so c_choose combines the roles' picks into a
 * joint move that need not be listed (ms_mcts_choose_own). Any combination
 * of legal moves is a legal joint move in GDL.
 */
static int c_legal(void *ud, const void *state, void *moves, int max)
{
	ms_gdl_uct *u = ud;
	int *out = moves, rc, widest = 0, wr = 0;
	const int *lm[MS_MCTS_MAX_PLAYERS];
	int ln[MS_MCTS_MAX_PLAYERS];
	long total = 1;
	if ((rc = set_state(u, state)) < 0)
		return rc;
	for (int r = 0; r < u->nr; r++) {
		ln[r] = ms_gdl_legal(u->mach, r, &lm[r]);
		if (ln[r] <= 0)
			return fail(u, MS_EINVAL, "gdl uct: role %s has no legal move in a non-terminal state",
				    ms_gdl_role_name(u->g, r));
		if (ln[r] > widest)
			widest = ln[r], wr = r;
		total = total > max ? total : total * ln[r];
	}
	if (total <= max) {
		for (long k = 0; k < total; k++)
			for (long r = u->nr - 1, idx = k; r >= 0; idx /= ln[r], r--)
				out[k * u->nr + r] = lm[r][idx % ln[r]];
		return (int)total;
	}
	if (widest > max)
		return fail(u, MS_ERANGE, "gdl uct: role %s has %d legal moves (at most %d per role)",
			    ms_gdl_role_name(u->g, wr), widest, max);
	for (int j = 0; j < widest; j++)
		for (int r = 0; r < u->nr; r++)
			out[j * u->nr + r] = lm[r][j % ln[r]];
	return widest;
}

static int c_apply(void *ud, void *state, const void *move, uint64_t *rng)
{
	ms_gdl_uct *u = ud;
	int rc;
	(void)rng;
	if ((rc = set_state(u, state)) < 0)
		return rc;
	if ((rc = ms_gdl_next(u->mach, move, u->tmp)) < 0)
		return fail(u, rc, "%s", ms_ctx_last_error(u->ctx));
	memcpy(state, u->tmp, u->words * sizeof *u->tmp);
	return MS_OK;
}

/* A state that cannot be evaluated ends the descent; the error is reported after the search. */
static int c_terminal(void *ud, const void *state)
{
	ms_gdl_uct *u = ud;
	return set_state(u, state) < 0 || ms_gdl_terminal(u->mach);
}

static int c_rewards(void *ud, const void *state, double *r)
{
	ms_gdl_uct *u = ud;
	int rc;
	if ((rc = set_state(u, state)) < 0)
		return rc;
	for (int k = 0; k < u->nr; k++) {
		int v = 0;
		if (ms_gdl_goal(u->mach, k, &v) < 0)
			return fail(u, MS_EINVAL, "%s", ms_ctx_last_error(u->ctx));
		r[k] = v / 100.0;
	}
	return MS_OK;
}

static int c_to_move(void *ud, const void *state)
{
	(void)ud, (void)state;
	return MS_MCTS_SIMULTANEOUS;
}

/* Gibbs sampling on the history: weight exp(mean / tau). */
static int gibbs(ms_gdl_uct *u, const int *mv, int n, uint64_t *rng)
{
	double top = -INFINITY, total = 0;
	for (int i = 0; i < n; i++)
		top = fmax(top, history_mean(u, mv[i]));
	for (int i = 0; i < n; i++)
		total += u->w[i] = exp((history_mean(u, mv[i]) - top) / u->o.history_tau);
	double x = ms_rng_unit(rng) * total;
	int k = 0;
	for (; k < n - 1; k++)
		if ((x -= u->w[k]) < 0)
			break;
	return mv[k];
}

static int trace_push(ms_gdl_uct *u, int mv)
{
	if (ms_vec_grow(u->ctx, (void **)&u->trace, &u->cap_trace, (long long)u->n_trace + 1, sizeof *u->trace))
		return fail(u, MS_ENOMEM, "gdl uct: out of memory for a playout's moves");
	u->trace[u->n_trace++] = mv;
	return MS_OK;
}

static int c_playout(void *ud, void *state, uint64_t *rng, double *r)
{
	ms_gdl_uct *u = ud;
	int joint[MS_MCTS_MAX_PLAYERS], rc;
	u->n_trace = 0;
	const ms_gdl_eval *e = u->o.eval;
	if (e && u->o.replace > 0 && ms_rng_unit(rng) < u->o.replace) {
		gdl_guct_rewards(e, u->nr, state, r);
		return MS_OK;
	}
	for (long steps = 0;; steps++) {
		if ((rc = set_state(u, state)) < 0)
			return rc;
		if (ms_gdl_terminal(u->mach) || (u->o.playout_limit > 0 && steps >= u->o.playout_limit))
			break;
		if (e && u->o.cutoff > 0 && ms_rng_unit(rng) < u->o.cutoff) {
			gdl_guct_rewards(e, u->nr, state, r);
			return u->err;
		}
		for (int k = 0; k < u->nr; k++) {
			const int *mv;
			int n = ms_gdl_legal(u->mach, k, &mv);
			if (n <= 0)
				return fail(u, MS_EINVAL, "gdl uct: role %s has no legal move in a non-terminal state",
					    ms_gdl_role_name(u->g, k));
			joint[k] = u->o.history ? gibbs(u, mv, n, rng) : mv[ms_rng_below(rng, (uint32_t)n)];
			if (u->o.history && (rc = trace_push(u, joint[k])) < 0)
				return rc;
		}
		if ((rc = ms_gdl_next(u->mach, joint, u->tmp)) < 0)
			return fail(u, rc, "%s", ms_ctx_last_error(u->ctx));
		memcpy(state, u->tmp, u->words * sizeof *u->tmp);
	}
	return (rc = c_rewards(u, state, r)) < 0 ? rc : u->err;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/*
 * Role r's statistics at node nd (whose n joint moves are `jm`): its
 * distinct moves in u->own (ascending), their visits and summed rewards
 * from the children. Returns how many moves; *total gets the visits.
 */
static int role_stats(ms_gdl_uct *u, const ms_mcts *m, int nd, const int *jm, int n, int r, long *total)
{
	int d = 0;
	for (int k = 0; k < n; k++)
		u->own[k] = jm[k * u->nr + r];
	qsort(u->own, (size_t)n, sizeof *u->own, cmp_int);
	for (int k = 0; k < n; k++)
		if (!d || u->own[d - 1] != u->own[k])
			u->own[d++] = u->own[k];
	memset(u->vis, 0, sizeof *u->vis * (size_t)d);
	memset(u->qs, 0, sizeof *u->qs * (size_t)d);
	*total = 0;
	for (int ch = ms_mcts_child_first(m, nd); ch >= 0; ch = ms_mcts_child_next(m, ch)) {
		const int *mv = ms_mcts_move(m, ch);
		const int *a = bsearch(&mv[r], u->own, (size_t)d, sizeof *u->own, cmp_int);
		if (!a)
			continue;
		u->vis[a - u->own] += ms_mcts_visits(m, ch);
		u->qs[a - u->own] += child_q(u, m, ch, r);
		*total += ms_mcts_visits(m, ch);
	}
	return d;
}

/*
 * GUCT: into u->pe, role r's reward (eval) after each of its d distinct moves
 * at node nd, taking the first joint move where r plays it (the others' part
 * is the noop in turn-taking games). Cached by (state, joint move).
 */
static int move_evals(ms_gdl_uct *u, const ms_mcts *m, int nd, const int *jm, int n, int r, int d)
{
	const uint64_t *st = ms_mcts_state(m, nd);
	uint64_t h = state_hash(u, st);
	double rw[MS_MCTS_MAX_PLAYERS];
	for (int a = 0, k = 0; a < d; a++) {
		for (k = 0; k < n && jm[k * u->nr + r] != u->own[a]; k++)
			;
		const int *joint = jm + (size_t)k * (size_t)u->nr;
		uint64_t key = gdl_guct_key(h, joint, u->nr);
		const double *hit = gdl_guct_cache_find(u->gc, key);
		if (!hit) {
			int rc;
			if ((rc = set_state(u, st)) < 0)
				return rc;
			if ((rc = ms_gdl_next(u->mach, joint, u->tmp)) < 0)
				return fail(u, rc, "%s", ms_ctx_last_error(u->ctx));
			gdl_guct_rewards(u->o.eval, u->nr, u->tmp, rw);
			gdl_guct_cache_put(u->gc, key, rw);
			hit = rw;
		}
		u->pe[a] = hit[r];
	}
	return MS_OK;
}

/* An untried move of the role (best by eval with GUCT ordering, else by history, ties at random), or -1. */
static int pick_untried(ms_gdl_uct *u, int d, uint64_t *rng)
{
	int pick = -1, ties = 0;
	double best = -INFINITY;
	for (int a = 0; a < d; a++) {
		if (u->vis[a])
			continue;
		double v = u->o.eval && u->o.order ? u->pe[a] : u->o.history ? history_mean(u, u->own[a]) : 0.0;
		if (v > best)
			best = v, ties = 0;
		if (v >= best && ms_rng_below(rng, (uint32_t)++ties) == 0)
			pick = a;
	}
	return pick;
}

static int c_choose(void *ud, ms_mcts *m, int nd, const void *moves, int n, uint64_t *rng)
{
	ms_gdl_uct *u = ud;
	const int *jm = moves;
	int want[MS_MCTS_MAX_PLAYERS];
	for (int r = 0; r < u->nr; r++) {
		long total;
		int d = role_stats(u, m, nd, jm, n, r, &total);
		if (u->o.eval && (u->o.order || u->o.prior > 0) && move_evals(u, m, nd, jm, n, r, d) < 0)
			return u->err;
		if (u->o.eval && u->o.prior > 0) /* the prior: eval worth n visits, so no move is untried */
			for (int a = 0; a < d; a++)
				u->vis[a] += u->o.prior, u->qs[a] += u->o.prior * u->pe[a], total += u->o.prior;
		int pa = pick_untried(u, d, rng), a = pa;
		double best = -INFINITY, logn = log((double)(total > 0 ? total : 1));
		/* ties at random: in a symmetric game, roles that break ties alike
		 * would only ever try the joint moves where they play the same */
		for (int i = 0, ties = 0; pa < 0 && i < d; i++) {
			double v = u->qs[i] / (double)u->vis[i] + u->o.c * sqrt(2.0 * logn / (double)u->vis[i]);
			if (v > best)
				best = v, ties = 0;
			if (v >= best && ms_rng_below(rng, (uint32_t)++ties) == 0)
				a = i;
		}
		want[r] = u->own[a];
	}
	for (int k = 0; k < n; k++)
		if (!memcmp(jm + (size_t)k * (size_t)u->nr, want, sizeof(int) * (size_t)u->nr))
			return k;
	/* a joint space too large to list: the roles' picks are a joint move all the same */
	ms_mcts_choose_own(m, want);
	return MS_MCTS_CHOSE_OWN;
}

/* The history heuristic learns from every simulation: tree moves and playout moves. */
static int c_backup(void *ud, ms_mcts *m, int leaf, const double *r)
{
	ms_gdl_uct *u = ud;
	for (int nd = leaf; u->tt_cap && nd > 0; nd = ms_mcts_parent(m, nd)) {
		long e = tt_find(u, ms_mcts_state(m, nd), 1);
		if (e < 0)
			continue;
		u->tt_visits[e]++;
		for (int k = 0; k < u->nr; k++)
			u->tt_q[(size_t)e * (size_t)u->nr + (size_t)k] += r[k];
	}
	if (!u->o.history)
		return 0;
	for (int nd = leaf; nd > 0; nd = ms_mcts_parent(m, nd)) {
		const int *mv = ms_mcts_move(m, nd);
		for (int k = 0; k < u->nr; k++)
			u->hsum[mv[k]] += r[k], u->hn[mv[k]]++;
	}
	for (long i = 0; i < u->n_trace; i++) {
		int mv = u->trace[i];
		u->hsum[mv] += r[ms_gdl_move_role(u->g, mv)], u->hn[mv]++;
	}
	u->n_trace = 0;
	return 0;
}

/* ---- the player -------------------------------------------------------------- */

static int check_options(ms_ctx *ctx, const ms_gdl *g, const ms_gdl_uct_options *o)
{
	if (!g || !o || o->version != MS_GDL_UCT_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: missing rules or unknown options version");
	if (o->simulations < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: simulations must be at least 1 (got %ld)", o->simulations);
	if (!(o->c >= 0) || !isfinite(o->c))
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: the exploration constant c must be >= 0 (got %g)", o->c);
	if (o->transpositions < 0 || o->transpositions > (1L << 28))
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: transpositions must be 0 to 2^28 table entries (got %ld)",
				    o->transpositions);
	if (o->playout_limit < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: playout_limit must be >= 0 (got %d)", o->playout_limit);
	if (o->history && (!(o->history_tau > 0) || !isfinite(o->history_tau)))
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: history_tau must be > 0 (got %g)", o->history_tau);
	if (ms_gdl_num_roles(g) < 1 || ms_gdl_num_roles(g) > MS_MCTS_MAX_PLAYERS)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl uct: %d roles (1 to %d supported)", ms_gdl_num_roles(g),
				    MS_MCTS_MAX_PLAYERS);
	if (!(o->cutoff >= 0 && o->cutoff <= 1) || !(o->replace >= 0 && o->replace <= 1) ||
	    o->prior < 0 || o->prior > 1000000)
		return ms_ctx_error(ctx, MS_EINVAL,
				    "gdl uct: cutoff and replace must be probabilities and prior 0 to 1e6 visits (got %g, %g, %d)",
				    o->cutoff, o->replace, o->prior);
	return MS_OK;
}

int ms_gdl_uct_new(ms_ctx *ctx, ms_gdl_uct **out, const ms_gdl *g, const ms_gdl_uct_options *o)
{
	int rc;
	*out = NULL;
	if ((rc = check_options(ctx, g, o)) < 0)
		return rc;
	ms_gdl_uct *u = ms_ctx_calloc(ctx, 1, sizeof *u);
	if (!u)
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl uct: out of memory");
	u->ctx = ctx, u->g = g, u->o = *o;
	u->nr = ms_gdl_num_roles(g), u->nm = ms_gdl_num_moves(g), u->words = ms_gdl_state_words(g);
	size_t nm = (size_t)(u->nm > 0 ? u->nm : 1), words = u->words ? u->words : 1;
	u->cur = ms_ctx_calloc(ctx, words, sizeof *u->cur);
	u->tmp = ms_ctx_calloc(ctx, words, sizeof *u->tmp);
	u->hsum = ms_ctx_calloc(ctx, nm, sizeof *u->hsum);
	u->hn = ms_ctx_calloc(ctx, nm, sizeof *u->hn);
	u->own = ms_ctx_calloc(ctx, MS_MCTS_MAX_MOVES, sizeof *u->own);
	u->vis = ms_ctx_calloc(ctx, MS_MCTS_MAX_MOVES, sizeof *u->vis);
	u->qs = ms_ctx_calloc(ctx, MS_MCTS_MAX_MOVES, sizeof *u->qs);
	u->w = ms_ctx_calloc(ctx, nm, sizeof *u->w);
	if (o->transpositions > 0) {
		u->tt_cap = o->transpositions;
		u->tt_state = ms_ctx_calloc(ctx, (size_t)u->tt_cap * words, sizeof *u->tt_state);
		u->tt_q = ms_ctx_calloc(ctx, (size_t)u->tt_cap * (size_t)u->nr, sizeof *u->tt_q);
		u->tt_visits = ms_ctx_calloc(ctx, (size_t)u->tt_cap, sizeof *u->tt_visits);
		u->tt_used = ms_ctx_calloc(ctx, (size_t)u->tt_cap, 1);
	}
	int tt_ok = !u->tt_cap || (u->tt_state && u->tt_q && u->tt_visits && u->tt_used);
	if (!u->cur || !u->tmp || !u->hsum || !u->hn || !u->own || !u->vis || !u->qs || !u->w || !tt_ok) {
		ms_gdl_uct_free(u);
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl uct: out of memory");
	}
	if ((rc = ms_gdl_machine_new(ctx, &u->mach, g)) < 0 ||
	    (o->eval && (rc = gdl_guct_cache_new(ctx, u->nr, &u->gc)) < 0) ||
	    (o->eval && !(u->pe = ms_ctx_calloc(ctx, MS_MCTS_MAX_MOVES, sizeof *u->pe)))) {
		ms_gdl_uct_free(u);
		return rc < 0 ? rc : ms_ctx_error(ctx, MS_ENOMEM, "gdl uct: out of memory");
	}
	ms_mcts_game game = { .state_size = words * sizeof(uint64_t),
			      .move_size = sizeof(int) * (size_t)u->nr,
			      .n_players = u->nr,
			      .ud = u,
			      .legal = c_legal,
			      .apply = c_apply,
			      .terminal = c_terminal,
			      .rewards = c_rewards,
			      .to_move = c_to_move,
			      .playout = c_playout,
			      .on_backup = c_backup,
			      .choose = c_choose };
	ms_mcts_options mo;
	ms_mcts_options_init(&mo, MS_MCTS_OPTIONS_VERSION);
	mo.iterations = o->simulations, mo.c = o->c, mo.seed = o->seed;
	if ((rc = ms_mcts_new(ctx, &u->m, &game, &mo)) < 0) {
		ms_gdl_uct_free(u);
		return rc;
	}
	*out = u;
	return MS_OK;
}

void ms_gdl_uct_free(ms_gdl_uct *u)
{
	if (!u)
		return;
	ms_ctx *ctx = u->ctx;
	ms_mcts_free(u->m);
	ms_gdl_machine_free(u->mach);
	ms_ctx_mfree(ctx, u->cur);
	ms_ctx_mfree(ctx, u->tmp);
	ms_ctx_mfree(ctx, u->hsum);
	ms_ctx_mfree(ctx, u->hn);
	ms_ctx_mfree(ctx, u->trace);
	ms_ctx_mfree(ctx, u->own);
	ms_ctx_mfree(ctx, u->vis);
	ms_ctx_mfree(ctx, u->qs);
	ms_ctx_mfree(ctx, u->w);
	ms_ctx_mfree(ctx, u->tt_state);
	ms_ctx_mfree(ctx, u->tt_q);
	ms_ctx_mfree(ctx, u->tt_visits);
	ms_ctx_mfree(ctx, u->tt_used);
	gdl_guct_cache_free(u->gc);
	ms_ctx_mfree(ctx, u->pe);
	ms_ctx_mfree(ctx, u);
}

/* Role r's most visited move at the root (ties: higher mean, then lower id). */
static int root_choice(ms_gdl_uct *u, int r)
{
	int n, best = -1;
	long total;
	const int *jm = ms_mcts_node_moves(u->m, 0, &n);
	int d = role_stats(u, u->m, 0, jm, n, r, &total);
	for (int a = 0; a < d; a++) {
		if (best < 0 || u->vis[a] > u->vis[best])
			best = a;
		else if (u->vis[a] == u->vis[best] && u->vis[a] &&
			 u->qs[a] / (double)u->vis[a] > u->qs[best] / (double)u->vis[best])
			best = a;
	}
	return u->own[best];
}

int ms_gdl_uct_search(ms_gdl_uct *u, const uint64_t *state, int *joint)
{
	int rc;
	u->err = 0;
	if ((rc = set_state(u, state)) < 0)
		return ms_ctx_error(u->ctx, rc, "%s", u->msg);
	if (ms_gdl_terminal(u->mach))
		return ms_ctx_error(u->ctx, MS_EINVAL, "gdl uct: the state to search from is terminal");
	size_t bytes = u->words * sizeof *state;
	if (u->o.keep_tree && ms_mcts_has_tree(u->m) && !memcmp(ms_mcts_state(u->m, 0), state, bytes))
		rc = ms_mcts_search_more(u->m);
	else
		rc = ms_mcts_search(u->m, state);
	if (u->err)
		return ms_ctx_error(u->ctx, u->err, "%s", u->msg);
	if (rc < 0)
		return rc;
	for (int r = 0; r < u->nr; r++)
		joint[r] = root_choice(u, r);
	return MS_OK;
}

void ms_gdl_uct_played(ms_gdl_uct *u, const int *joint)
{
	/* 0 (the joint move was never expanded) leaves an empty tree: the next search starts afresh */
	if (u->o.keep_tree)
		(void)ms_mcts_advance(u->m, joint);
}

void ms_gdl_uct_root_stats(const ms_gdl_uct *u, int r, int mv, long *visits, double *mean)
{
	*visits = 0;
	double q = 0;
	for (int ch = ms_mcts_child_first(u->m, 0); r >= 0 && r < u->nr && ch >= 0; ch = ms_mcts_child_next(u->m, ch))
		if (((const int *)ms_mcts_move(u->m, ch))[r] == mv) {
			*visits += ms_mcts_visits(u->m, ch);
			q += ms_mcts_q(u->m, ch)[r];
		}
	*mean = *visits ? q / (double)*visits : 0.0;
}

int ms_gdl_uct_nodes(const ms_gdl_uct *u)
{
	return ms_mcts_node_count(u->m);
}

long ms_gdl_uct_table_states(const ms_gdl_uct *u)
{
	return u->tt_n;
}

void ms_gdl_uct_eval_changed(ms_gdl_uct *u)
{
	if (u->gc)
		gdl_guct_cache_clear(u->gc);
}

int ms_gdl_uct_expanded(ms_gdl_uct *u, int r, long min_visits, int (*fn)(void *ud, const uint64_t *state, double value),
			void *ud)
{
	for (int nd = 0; r >= 0 && r < u->nr && nd < ms_mcts_node_count(u->m); nd++) {
		int n, rc;
		long total;
		const int *jm = ms_mcts_node_moves(u->m, nd, &n);
		if (ms_mcts_terminal(u->m, nd) || n <= 0 || ms_mcts_visits(u->m, nd) < min_visits)
			continue;
		int d = role_stats(u, u->m, nd, jm, n, r, &total), all = d > 0;
		double best = -INFINITY;
		for (int a = 0; a < d; a++) {
			all &= u->vis[a] > 0;
			if (u->vis[a])
				best = fmax(best, u->qs[a] / (double)u->vis[a]);
		}
		if (all && (rc = fn(ud, ms_mcts_state(u->m, nd), 100.0 * best)) != 0)
			return rc;
	}
	return MS_OK;
}
