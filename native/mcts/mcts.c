/* The MCTS core (mcts.h): a node pool in growable arrays indexed by node id
 * (states, Q vectors, moves and untried-move lists side by side, each grown
 * by core/vec.h with a capacity of its own), rebuilt by every search. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "microsynth/mcts.h"
#include "core/hash.h"
#include "core/vec.h"
#include "core/opts.h"
#include "microsynth/rng.h"

typedef struct node {
	int parent, first_child, last_child, next;
	int player;
	int visits;
	int terminal;
	int untried_off, untried_n; /* chance nodes and `choose`: the whole list, never consumed */
	int n_children;
} node;

struct ms_mcts {
	ms_ctx *ctx;
	ms_mcts_game g;
	ms_mcts_options o;
	uint64_t rng;
	node *nodes;
	unsigned char *states, *moves, *upool;
	double *q;
	int n_nodes, cap_nodes;    /* the four per-node arrays share one capacity */
	int upool_len, upool_cap;  /* in moves */
	unsigned char *fixed;      /* one block: legal_buf, then scratch */
	unsigned char *legal_buf;  /* MS_MCTS_MAX_MOVES moves */
	unsigned char *scratch;    /* a playout state */
	double r[MS_MCTS_MAX_PLAYERS];
	/* `choose`'s own move (ms_mcts_choose_own), valid for the call that set it */
	unsigned char own[MS_MCTS_MAX_MOVE_SIZE];
	int have_own;
};

int ms_mcts_options_init(ms_mcts_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_MCTS_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->iterations = 1000;
	o->rule = MS_MCTS_UCB1;
	o->c = 1.0;
	o->seed = 1;
	return MS_OK;
}

/* The per-node arrays, one list for growing and freeing them. */
static int node_cols(ms_mcts *m, ms_vec_col *c)
{
	c[0] = (ms_vec_col){ (void **)&m->nodes, sizeof(node) };
	c[1] = (ms_vec_col){ (void **)&m->states, m->g.state_size };
	c[2] = (ms_vec_col){ (void **)&m->moves, m->g.move_size };
	c[3] = (ms_vec_col){ (void **)&m->q, sizeof(double) * (size_t)m->g.n_players };
	return 4;
}

int ms_mcts_new(ms_ctx *ctx, ms_mcts **out, const ms_mcts_game *g, const ms_mcts_options *o)
{
	*out = NULL;
	if (!g || !o || o->version != MS_MCTS_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "mcts: missing game or unknown options version");
	if (!g->legal || !g->apply || !g->terminal || !g->rewards || !g->to_move || !g->state_size ||
	    !g->move_size || g->move_size > MS_MCTS_MAX_MOVE_SIZE || g->n_players < 1 ||
	    g->n_players > MS_MCTS_MAX_PLAYERS || o->iterations < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "mcts: the game lacks a required callback or has bad sizes");
	if (o->rule < MS_MCTS_UCB1 || o->rule > MS_MCTS_MAX_SUM)
		return ms_ctx_error(ctx, MS_EINVAL, "mcts: unknown selection rule %d", o->rule);
	ms_mcts *m = ms_ctx_calloc(ctx, 1, sizeof *m);
	if (!m)
		return ms_ctx_error(ctx, MS_ENOMEM, "mcts: out of memory");
	m->ctx = ctx;
	m->g = *g;
	m->o = *o;
	m->rng = o->seed;
	/* the scratch state starts on a boundary fit for any type the game keeps in it */
	size_t lb = (g->move_size * MS_MCTS_MAX_MOVES + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
	m->fixed = ms_ctx_malloc(ctx, lb + g->state_size);
	if (!m->fixed) {
		ms_mcts_free(m);
		return ms_ctx_error(ctx, MS_ENOMEM, "mcts: out of memory");
	}
	m->legal_buf = m->fixed;
	m->scratch = m->fixed + lb;
	*out = m;
	return MS_OK;
}

static void release_states(ms_mcts *m)
{
	if (m->g.release)
		for (int i = 0; i < m->n_nodes; i++)
			m->g.release(m->g.ud, m->states + (size_t)i * m->g.state_size);
	m->n_nodes = 0;
	m->upool_len = 0;
}

void ms_mcts_free(ms_mcts *m)
{
	if (!m)
		return;
	release_states(m);
	ms_vec_col cols[4];
	ms_vec_dispose_cols(m->ctx, cols, node_cols(m, cols));
	ms_ctx_mfree(m->ctx, m->upool);
	ms_ctx_mfree(m->ctx, m->fixed);
	ms_ctx_mfree(m->ctx, m);
}

uint64_t *ms_mcts_rng(ms_mcts *m)
{
	return &m->rng;
}

/* Room for one more node in each of the four arrays (1,024 at first). */
static int reserve_node(ms_mcts *m)
{
	int n = m->n_nodes;
	if (n < m->cap_nodes)
		return MS_OK;
	long long need = n < 1024 ? 1024 : (long long)n + 1;
	ms_vec_col cols[4];
	if (ms_vec_grow_cols(m->ctx, &m->cap_nodes, need, cols, node_cols(m, cols)))
		return ms_ctx_error(m->ctx, MS_ENOMEM, "mcts: no room for %lld nodes: %s", need, ms_ctx_last_error(m->ctx));
	return MS_OK;
}

static unsigned char *state_at(const ms_mcts *m, int i)
{
	return m->states + (size_t)i * m->g.state_size;
}

/* A callback's failure as the search's error (its message kept). */
static int cb_failed(ms_mcts *m, int rc, const char *what)
{
	return ms_ctx_error(m->ctx, rc, "mcts: the game's %s() failed: %s", what, ms_ctx_last_error(m->ctx));
}

static int copy_state(ms_mcts *m, void *dst, const void *src)
{
	int rc;
	if (!m->g.copy) {
		memcpy(dst, src, m->g.state_size);
		return MS_OK;
	}
	return (rc = m->g.copy(m->g.ud, dst, src)) < 0 ? cb_failed(m, rc, "copy") : MS_OK;
}

/* Fills in player, terminal and the move list of node i from its state. */
static int describe(ms_mcts *m, int i)
{
	node *nd = &m->nodes[i];
	const void *s = state_at(m, i);
	nd->terminal = m->g.terminal(m->g.ud, s) != 0;
	nd->player = nd->terminal ? 0 : m->g.to_move(m->g.ud, s);
	nd->untried_off = m->upool_len;
	nd->untried_n = 0;
	if (nd->terminal)
		return MS_OK;
	int n = m->g.legal(m->g.ud, s, m->legal_buf, MS_MCTS_MAX_MOVES);
	if (n < 0)
		return ms_ctx_error(m->ctx, MS_ERROR, "mcts: the game's legal() failed (%d)", n);
	long long need = (long long)m->upool_len + n;
	if (need > m->upool_cap &&
	    ms_vec_grow(m->ctx, (void **)&m->upool, &m->upool_cap, need < 4096 ? 4096 : need, m->g.move_size))
		return ms_ctx_error(m->ctx, MS_ENOMEM, "mcts: no room for %lld untried moves: %s", need,
				    ms_ctx_last_error(m->ctx));
	memcpy(m->upool + (size_t)m->upool_len * m->g.move_size, m->legal_buf, (size_t)n * m->g.move_size);
	m->upool_len += n;
	m->nodes[i].untried_n = n;
	return MS_OK;
}

/* A child of `parent` reached by `move` (a pointer outside the pools). */
static int add_child(ms_mcts *m, int parent, const void *move, int *out)
{
	int rc, i;
	if ((rc = reserve_node(m)) < 0)
		return rc;
	i = m->n_nodes++;
	node *nd = &m->nodes[i];
	memset(nd, 0, sizeof *nd);
	nd->parent = parent;
	nd->first_child = nd->last_child = nd->next = -1;
	memcpy(m->moves + (size_t)i * m->g.move_size, move, m->g.move_size);
	/* counted before anything can fail, so release_states frees what the copy made */
	if ((rc = copy_state(m, state_at(m, i), state_at(m, parent))) < 0) {
		m->n_nodes--;
		return rc;
	}
	double *q = m->q + (size_t)i * (size_t)m->g.n_players;
	memset(q, 0, sizeof(double) * (size_t)m->g.n_players);
	if ((rc = m->g.apply(m->g.ud, state_at(m, i), move, &m->rng)) < 0)
		return ms_ctx_error(m->ctx, rc, "mcts: the game's apply() failed on an expansion: %s",
				    ms_ctx_last_error(m->ctx));
	if (m->g.prior && (rc = m->g.prior(m->g.ud, state_at(m, parent), state_at(m, i), move, m->nodes[parent].player,
					    q, &m->nodes[i].visits)) < 0)
		return cb_failed(m, rc, "prior");
	node *p = &m->nodes[parent];
	p->n_children++;
	if (p->last_child >= 0)
		m->nodes[p->last_child].next = i;
	else
		p->first_child = i;
	p->last_child = i;
	*out = i;
	return describe(m, i);
}

/* Q[player] (the sum over players at joint-move nodes), divided by the
 * visits unless the rule ranks by the sum. */
static double value_for(const ms_mcts *m, int child, int player, int by_sum)
{
	const double *q = m->q + (size_t)child * (size_t)m->g.n_players;
	double v = 0;
	if (player >= 0) {
		v = q[player];
	} else {
		for (int k = 0; k < m->g.n_players; k++)
			v += q[k];
	}
	return by_sum ? v : v / m->nodes[child].visits;
}

/* UCB1 for the node's player (sum of players at joint-move nodes); without
 * the exploration term if `greedy`, ranking by the sum under MAX_SUM. */
static int ucb_child(const ms_mcts *m, int nd, double c, int greedy)
{
	int best = -1, player = m->nodes[nd].player, by_sum = m->o.rule == MS_MCTS_MAX_SUM;
	double best_v = -INFINITY, logn = log((double)(m->nodes[nd].visits > 0 ? m->nodes[nd].visits : 1));
	greedy |= by_sum;
	for (int ch = m->nodes[nd].first_child; ch >= 0; ch = m->nodes[ch].next) {
		double v;
		if (m->nodes[ch].visits <= 0)
			v = INFINITY;
		else
			v = value_for(m, ch, player, by_sum) +
			    (greedy ? 0.0 : c * sqrt(2.0 * logn / m->nodes[ch].visits));
		if (v > best_v || best < 0) {
			best_v = v;
			best = ch;
		}
	}
	return best;
}

/* The child of `nd` reached by `mv`, or -1. */
static int find_child(const ms_mcts *m, int nd, const void *mv)
{
	for (int ch = m->nodes[nd].first_child; ch >= 0; ch = m->nodes[ch].next)
		if (!memcmp(m->moves + (size_t)ch * m->g.move_size, mv, m->g.move_size))
			return ch;
	return -1;
}

/* Samples an outcome at a chance node; returns its child (new or old). */
static int chance_step(ms_mcts *m, int nd, int *created, int *out)
{
	node *n = &m->nodes[nd];
	const unsigned char *outs = m->upool + (size_t)n->untried_off * m->g.move_size;
	double w[MS_MCTS_MAX_MOVES], total = 0;
	int k = 0;
	for (int i = 0; i < n->untried_n; i++)
		w[i] = 1.0;
	if (m->g.chance_weights && (k = m->g.chance_weights(m->g.ud, state_at(m, nd), outs, n->untried_n, w)) < 0)
		return cb_failed(m, k, "chance_weights");
	for (int i = 0; i < n->untried_n; i++)
		total += w[i] > 0 ? w[i] : 0;
	double x = ms_rng_unit(&m->rng) * total;
	for (k = 0; k < n->untried_n - 1; k++) {
		x -= w[k] > 0 ? w[k] : 0;
		if (x < 0)
			break;
	}
	const unsigned char *mv = outs + (size_t)k * m->g.move_size;
	int ch = find_child(m, nd, mv);
	if (ch >= 0) {
		*created = 0;
		*out = ch;
		return MS_OK;
	}
	unsigned char move[MS_MCTS_MAX_MOVE_SIZE];
	memcpy(move, mv, m->g.move_size);
	*created = 1;
	return add_child(m, nd, move, out);
}

/* The game's choice at node nd; returns its child (new or old). */
static int choose_step(ms_mcts *m, int nd, int *created, int *out)
{
	const node *n = &m->nodes[nd];
	const unsigned char *list = m->upool + (size_t)n->untried_off * m->g.move_size;
	m->have_own = 0;
	int k = m->g.choose(m->g.ud, m, nd, list, n->untried_n, &m->rng);
	int own = k == MS_MCTS_CHOSE_OWN && m->have_own;
	if (!own && (k < 0 || k >= n->untried_n))
		return ms_ctx_error(m->ctx, k < 0 ? k : MS_ERROR, "mcts: the game's choose() failed (%d of %d moves)",
				    k, n->untried_n);
	unsigned char move[MS_MCTS_MAX_MOVE_SIZE];
	memcpy(move, own ? m->own : list + (size_t)k * m->g.move_size, m->g.move_size);
	*out = find_child(m, nd, move);
	*created = *out < 0;
	return *created ? add_child(m, nd, move, out) : MS_OK;
}

/* Takes an untried move of node nd, chosen uniformly, into move[]. */
static void take_untried(ms_mcts *m, int nd, unsigned char *move)
{
	node *n = &m->nodes[nd];
	size_t ms = m->g.move_size;
	int k = (int)ms_rng_below(&m->rng, (uint32_t)n->untried_n);
	unsigned char *base = m->upool + (size_t)n->untried_off * ms;
	memcpy(move, base + (size_t)k * ms, ms);
	memmove(base + (size_t)k * ms, base + (size_t)(k + 1) * ms, (size_t)(n->untried_n - k - 1) * ms);
	n->untried_n--;
}

/* Descends and expands; *leaf is the node to play out from. */
static int tree_policy(ms_mcts *m, int *leaf)
{
	int nd = 0, rc;
	for (;;) {
		const node *n = &m->nodes[nd];
		if (n->terminal || (n->untried_n == 0 && n->first_child < 0)) {
			*leaf = nd;
			return MS_OK;
		}
		if (n->player == MS_MCTS_CHANCE || m->g.choose) {
			int created, ch;
			rc = n->player == MS_MCTS_CHANCE ? chance_step(m, nd, &created, &ch)
							 : choose_step(m, nd, &created, &ch);
			if (rc < 0)
				return rc;
			nd = ch;
			if (created) {
				*leaf = nd;
				return MS_OK;
			}
			continue;
		}
		if (n->untried_n > 0) {
			unsigned char move[MS_MCTS_MAX_MOVE_SIZE];
			take_untried(m, nd, move);
			return add_child(m, nd, move, leaf);
		}
		nd = m->g.select ? m->g.select(m->g.ud, m, nd, n->player, m->o.c, &m->rng)
				 : ucb_child(m, nd, m->o.c, m->o.rule != MS_MCTS_UCB1);
		if (nd < 0 || nd >= m->n_nodes)
			return ms_ctx_error(m->ctx, MS_ERROR, "mcts: selection returned no child");
	}
}

/* The default playout: uniform moves (chance outcomes by weight) until the
 * end or the cut-off, then the reward vector. */
static int default_playout(ms_mcts *m, void *s, double *r)
{
	for (int steps = 0; !m->g.terminal(m->g.ud, s); steps++) {
		if (m->o.max_playout_steps > 0 && steps >= m->o.max_playout_steps)
			break;
		int n = m->g.legal(m->g.ud, s, m->legal_buf, MS_MCTS_MAX_MOVES), k;
		if (n < 0)
			return ms_ctx_error(m->ctx, MS_ERROR, "mcts: the game's legal() failed in a playout (%d)", n);
		if (n == 0)
			break;
		if (m->g.to_move(m->g.ud, s) == MS_MCTS_CHANCE && m->g.chance_weights) {
			double w[MS_MCTS_MAX_MOVES], total = 0;
			int rc = m->g.chance_weights(m->g.ud, s, m->legal_buf, n, w);
			if (rc < 0)
				return cb_failed(m, rc, "chance_weights");
			for (k = 0; k < n; k++)
				total += w[k] > 0 ? w[k] : 0;
			double x = ms_rng_unit(&m->rng) * total;
			for (k = 0; k < n - 1; k++)
				if ((x -= w[k] > 0 ? w[k] : 0) < 0)
					break;
		} else {
			k = (int)ms_rng_below(&m->rng, (uint32_t)n);
		}
		if (m->g.apply(m->g.ud, s, m->legal_buf + (size_t)k * m->g.move_size, &m->rng) < 0)
			return ms_ctx_error(m->ctx, MS_ERROR, "mcts: the game's apply() failed in a playout");
	}
	int rc = m->g.rewards(m->g.ud, s, r);
	return rc < 0 ? cb_failed(m, rc, "rewards") : MS_OK;
}

static int iterate(ms_mcts *m)
{
	int leaf, rc;
	if ((rc = tree_policy(m, &leaf)) < 0)
		return rc;
	if ((rc = copy_state(m, m->scratch, state_at(m, leaf))) < 0)
		return rc;
	memset(m->r, 0, sizeof(double) * (size_t)m->g.n_players);
	if (m->nodes[leaf].terminal)
		rc = m->g.rewards(m->g.ud, m->scratch, m->r);
	else if (m->g.playout)
		rc = m->g.playout(m->g.ud, m->scratch, &m->rng, m->r);
	else
		rc = default_playout(m, m->scratch, m->r);
	if (m->g.release)
		m->g.release(m->g.ud, m->scratch);
	if (rc < 0)
		return ms_ctx_error(m->ctx, rc, "mcts: playout failed: %s", ms_ctx_last_error(m->ctx));
	for (int nd = leaf; nd >= 0; nd = m->nodes[nd].parent) {
		double *q = m->q + (size_t)nd * (size_t)m->g.n_players;
		m->nodes[nd].visits++;
		for (int k = 0; k < m->g.n_players; k++)
			q[k] += m->r[k];
	}
	if (m->g.on_backup && (rc = m->g.on_backup(m->g.ud, m, leaf, m->r)) < 0)
		return cb_failed(m, rc, "on_backup");
	return MS_OK;
}

int ms_mcts_search(ms_mcts *m, const void *root)
{
	int rc;
	release_states(m);
	if ((rc = reserve_node(m)) < 0)
		return rc;
	node *r = &m->nodes[0];
	memset(r, 0, sizeof *r);
	r->parent = r->first_child = r->last_child = r->next = -1;
	if ((rc = copy_state(m, state_at(m, 0), root)) < 0)
		return rc;
	m->n_nodes = 1;
	memset(m->q, 0, sizeof(double) * (size_t)m->g.n_players);
	memset(m->moves, 0, m->g.move_size);
	if ((rc = describe(m, 0)) < 0)
		return rc;
	return ms_mcts_search_more(m);
}

int ms_mcts_search_more(ms_mcts *m)
{
	int rc;
	if (m->n_nodes < 1)
		return ms_ctx_error(m->ctx, MS_EINVAL, "mcts: no tree to continue (search first)");
	for (long it = 0; it < m->o.iterations; it++)
		if ((rc = iterate(m)) < 0)
			return rc;
	return MS_OK;
}

int ms_mcts_has_tree(const ms_mcts *m)
{
	return m->n_nodes > 0;
}

/* Moves kept node i to slot j <= i (ids ascending, so nothing unread is overwritten). */
static void move_node(ms_mcts *m, int i, int j, const int *map, int *upool_len)
{
	size_t ss = m->g.state_size, ms = m->g.move_size, np = (size_t)m->g.n_players;
	node *nd = &m->nodes[j];
	*nd = m->nodes[i];
	nd->parent = j == 0 ? -1 : map[nd->parent];
	nd->first_child = nd->first_child >= 0 ? map[nd->first_child] : -1;
	nd->last_child = nd->last_child >= 0 ? map[nd->last_child] : -1;
	nd->next = j == 0 || nd->next < 0 ? -1 : map[nd->next];
	memmove(state_at(m, j), state_at(m, i), ss);
	memmove(m->moves + (size_t)j * ms, m->moves + (size_t)i * ms, ms);
	memmove(m->q + (size_t)j * np, m->q + (size_t)i * np, np * sizeof(double));
	memmove(m->upool + (size_t)*upool_len * ms, m->upool + (size_t)nd->untried_off * ms,
		(size_t)nd->untried_n * ms);
	nd->untried_off = *upool_len;
	*upool_len += nd->untried_n;
}

int ms_mcts_advance(ms_mcts *m, const void *move)
{
	int c = m->n_nodes > 0 ? find_child(m, 0, move) : -1;
	int *map = c >= 0 ? ms_ctx_malloc(m->ctx, sizeof(int) * (size_t)m->n_nodes) : NULL;
	if (!map) {
		release_states(m);
		return 0;
	}
	/* A node is kept if it is c or its parent is kept; parents precede children. */
	int kept = 0;
	for (int i = 0; i < m->n_nodes; i++) {
		map[i] = i == c || (i > c && map[m->nodes[i].parent] >= 0) ? kept++ : -1;
		if (map[i] < 0 && m->g.release)
			m->g.release(m->g.ud, state_at(m, i));
	}
	int upool_len = 0;
	for (int i = c; i < m->n_nodes; i++)
		if (map[i] >= 0)
			move_node(m, i, map[i], map, &upool_len);
	m->n_nodes = kept;
	m->upool_len = upool_len;
	ms_ctx_mfree(m->ctx, map);
	return 1;
}

/* ---- reading the tree ------------------------------------------------------ */

static int valid(const ms_mcts *m, int nd)
{
	return nd >= 0 && nd < m->n_nodes;
}

int ms_mcts_node_count(const ms_mcts *m)
{
	return m->n_nodes;
}

int ms_mcts_parent(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->nodes[nd].parent : -1;
}

int ms_mcts_child_first(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->nodes[nd].first_child : -1;
}

int ms_mcts_child_next(const ms_mcts *m, int ch)
{
	return valid(m, ch) ? m->nodes[ch].next : -1;
}

const void *ms_mcts_move(const ms_mcts *m, int nd)
{
	return valid(m, nd) && nd > 0 ? m->moves + (size_t)nd * m->g.move_size : NULL;
}

const void *ms_mcts_state(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? state_at(m, nd) : NULL;
}

int ms_mcts_player(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->nodes[nd].player : 0;
}

int ms_mcts_visits(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->nodes[nd].visits : 0;
}

const double *ms_mcts_q(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->q + (size_t)nd * (size_t)m->g.n_players : NULL;
}

int ms_mcts_terminal(const ms_mcts *m, int nd)
{
	return valid(m, nd) ? m->nodes[nd].terminal : 0;
}

int ms_mcts_untried(const ms_mcts *m, int nd)
{
	if (!valid(m, nd) || m->nodes[nd].player == MS_MCTS_CHANCE)
		return 0;
	int left = m->nodes[nd].untried_n - (m->g.choose ? m->nodes[nd].n_children : 0);
	return left > 0 ? left : 0; /* own moves (ms_mcts_choose_own) make children beyond the list */
}

void ms_mcts_choose_own(ms_mcts *m, const void *move)
{
	memcpy(m->own, move, m->g.move_size);
	m->have_own = 1;
}

const void *ms_mcts_node_moves(const ms_mcts *m, int nd, int *n)
{
	*n = valid(m, nd) ? m->nodes[nd].untried_n : 0;
	return valid(m, nd) ? m->upool + (size_t)m->nodes[nd].untried_off * m->g.move_size : NULL;
}

int ms_mcts_best_child(const ms_mcts *m, int nd, double c)
{
	if (!valid(m, nd))
		return -1;
	if (m->nodes[nd].player == MS_MCTS_CHANCE)
		return ms_mcts_most_visited(m, nd);
	return ucb_child(m, nd, c, c == 0.0);
}

int ms_mcts_most_visited(const ms_mcts *m, int nd)
{
	int best = -1;
	for (int ch = valid(m, nd) ? m->nodes[nd].first_child : -1; ch >= 0; ch = m->nodes[ch].next)
		if (best < 0 || m->nodes[ch].visits > m->nodes[best].visits)
			best = ch;
	return best;
}
