/* The thesis's MCTS and UCT agents (spec 5.3, 5.4) on the library's MCTS
 * core: the pre-selecting tree generator, the fast estimate as prior,
 * Eq 4.1 reward, Simple playouts, and the move buffer. */
#include <string.h>
#include "catan_internal.h"
#include "catan_agents.h"

int catan__setup_nodes(const ms_catan_state *s, int port_clause, int *out);

/* spec 5.3.b after the roll: only cities if any, else only settlements,
 * else roads, card purchase and use, bank trades and the end of the turn. */
static int after_roll_actions(const ms_catan_state *s, const ms_catan_action *legal, int n, int preselect,
			      ms_catan_action *out)
{
	int seat = s->cur, k = 0, rate[5];
	const ms_catan_player *p = &s->p[seat];
	for (int pass = 0; pass < 2 && !k; pass++)
		for (int i = 0; i < n; i++)
			if (legal[i].type == (pass ? MS_CATAN_BUILD_SETTLEMENT : MS_CATAN_BUILD_CITY))
				out[k++] = legal[i];
	if (k && preselect)
		return k;
	if (!preselect) /* preSelect = False: every city and settlement joins the list */
		for (int i = 0; i < n; i++)
			if (legal[i].type == MS_CATAN_BUILD_SETTLEMENT && !(k && out[0].type == MS_CATAN_BUILD_SETTLEMENT))
				out[k++] = legal[i];
	for (int i = 0; i < n; i++)
		if (legal[i].type == MS_CATAN_BUILD_ROAD || (legal[i].type == MS_CATAN_BUY_DEV && !p->has_army) ||
		    legal[i].type == MS_CATAN_PLAY_ROAD_BUILDING || legal[i].type == MS_CATAN_END_TURN)
			out[k++] = legal[i];
	if (catan__can_play(s, seat, MS_CATAN_MONOPOLY))
		for (int r = 0; r < 5; r++)
			out[k++] = catan__act(MS_CATAN_PLAY_MONOPOLY, seat, r, -1, -1);
	if (catan__can_play(s, seat, MS_CATAN_YOP))
		for (int a = 0; a < 5; a++)
			for (int b = 0; b < 5; b++)
				out[k++] = catan__act(MS_CATAN_PLAY_YOP, seat, a, b, -1);
	catan__rates(s, seat, rate);
	for (int r = 0; r < 5; r++)
		for (int j = 0; j < 5 && p->res[r] >= rate[r]; j++)
			if (j != r) {
				ms_catan_action t = catan__act(MS_CATAN_BANK_TRADE, seat, 0, 0, -1);
				memset(t.v, 0, sizeof t.v);
				t.v[r] = (int8_t)rate[r];
				t.w[j] = 1;
				out[k++] = t;
			}
	return k;
}

/* spec 5.3.b robber: hexes next to opponents' buildings, not next to our own. */
static int robber_actions(const ms_catan_state *s, const ms_catan_action *legal, int n, ms_catan_action *out)
{
	const ms_catan_board *b = s->board;
	int seat = s->cur, k = 0;
	for (int v = 0; v < MS_CATAN_NODES; v++) {
		int o = s->node_owner[v] - 1;
		if (o < 0 || o == seat)
			continue;
		for (int i = 0; i < b->node_nhex[v]; i++) {
			int h = b->node_hex[v][i], mine = 0;
			for (int c = 0; c < 6; c++)
				mine |= s->node_owner[b->hex_node[h][c]] == seat + 1;
			if (mine || h == s->robber)
				continue;
			out[k] = catan__act(MS_CATAN_MOVE_ROBBER, seat, h, ms_catan_hand(s, o) > 0 ? o : -1, -1);
			k++;
		}
	}
	if (!k)
		for (int i = 0; i < n; i++)
			out[k++] = legal[i];
	return k;
}

int catan__tree_actions(const ms_catan_state *s, const ms_catan_simple_options *o, int preselect, ms_catan_action *out)
{
	ms_catan_action legal[MS_CATAN_MAX_ACTIONS];
	int n = ms_catan_legal(s, legal), seat = s->cur, nodes[MS_CATAN_NODES], k = 0;
	if (n == 0)
		return 0;
	switch (s->prompt) {
	case MS_CATAN_P_INITIAL_SETTLEMENT:
		k = catan__setup_nodes(s, o->port_clause, nodes);
		for (int i = 0; i < k; i++)
			out[i] = catan__act(MS_CATAN_BUILD_SETTLEMENT, seat, nodes[i], -1, -1);
		return k;
	case MS_CATAN_P_MOVE_ROBBER:
		return robber_actions(s, legal, n, out);
	case MS_CATAN_P_PLAY_TURN:
		if (s->road_building)
			break;
		if (!s->p[seat].has_rolled) {
			int knight = o->forced_knight && catan__can_play(s, seat, MS_CATAN_KNIGHT);
			out[0] = catan__act(knight ? MS_CATAN_PLAY_KNIGHT : MS_CATAN_ROLL, seat, -1, -1, -1);
			return 1;
		}
		return after_roll_actions(s, legal, n, preselect, out);
	default:
		break;
	}
	memcpy(out, legal, sizeof(ms_catan_action) * (size_t)n);
	return n;
}

#define DISCARD_SEQ 64

/* spec 5.3.b discards (thesis rules, hand over the limit): up to
 * discard_samples (at most CATAN_DISCARD_SAMPLES) random halves, each drawn
 * as an ordered sequence of cards; a sequence equal to an earlier one is
 * dropped, so equal multisets can recur (TC2 compares the sequences).
 * Halves over DISCARD_SEQ cards are never compared. */
static int discard_actions(catan__search *cs, const ms_catan_state *s, ms_catan_action *out)
{
	uint8_t seq[CATAN_DISCARD_SAMPLES][DISCARD_SEQ];
	const ms_catan_player *p = &s->p[s->cur];
	int hand = ms_catan_hand(s, s->cur), half = hand / 2, k = 0;
	for (int t = 0; t < cs->discard_samples && t < CATAN_DISCARD_SAMPLES; t++) {
		int left[5], n = hand;
		ms_catan_action a = catan__act(MS_CATAN_DISCARD, s->cur, 0, 0, 0);
		memset(a.v, 0, sizeof a.v);
		for (int r = 0; r < 5; r++)
			left[r] = p->res[r];
		for (int j = 0; j < half; j++, n--) {
			int pick = (int)ms_catan_rand(ms_mcts_rng(cs->m), (uint32_t)n), r = 0;
			while (pick >= left[r])
				pick -= left[r++];
			left[r]--;
			a.v[r]++;
			if (j < DISCARD_SEQ)
				seq[k][j] = (uint8_t)r;
		}
		int seen = 0;
		for (int i = 0; i < k && !seen && half <= DISCARD_SEQ; i++)
			seen = !memcmp(seq[i], seq[k], (size_t)half);
		if (!seen)
			out[k++] = a;
	}
	return k;
}

/* The tree's actions: the generator above, and sampled discards. */
static int search_actions(catan__search *cs, const ms_catan_state *s, ms_catan_action *out)
{
	/* thesis rules: the roller's discards (TC2's local loop), or each player's (a JSettlers server) */
	if (s->prompt == MS_CATAN_P_DISCARD &&
	    (s->rules.discard_by_roller || s->rules.profile == MS_CATAN_PROFILE_THESIS) && cs->discard_samples > 1 &&
	    ms_catan_hand(s, s->cur) > s->rules.discard_limit)
		return discard_actions(cs, s, out);
	return catan__tree_actions(s, &cs->simple, cs->preselect, out);
}

/* ---- the game as the MCTS core sees it ----------------------------------- */

static int g_legal(void *ud, const void *s, void *moves, int max)
{
	catan__search *cs = ud;
	(void)max;
	return search_actions(cs, s, moves);
}

static int g_apply(void *ud, void *s, const void *move, uint64_t *rng)
{
	catan__search *cs = ud;
	return ms_catan_apply(cs->ctx, s, move, rng, NULL);
}

static int g_terminal(void *ud, const void *s)
{
	(void)ud;
	return ms_catan_over(s);
}

/* Eq 4.1: VP/10 for everyone, plus 2 * 100 / t for the winner. */
void catan__reward(const ms_catan_state *s, double *r)
{
	int t = catan__turns_after_setup(s);
	for (int p = 0; p < s->n; p++)
		r[p] = s->p[p].actual_vp / 10.0;
	if (s->winner >= 0)
		r[s->winner] += 200.0 / (t > 0 ? t : 1);
}

static int g_rewards(void *ud, const void *s, double *r)
{
	(void)ud;
	catan__reward(s, r);
	return 0;
}

static int g_to_move(void *ud, const void *s)
{
	(void)ud;
	return ((const ms_catan_state *)s)->cur;
}

static int g_prior(void *ud, const void *parent, const void *child, const void *move, int player, double *q,
		    int *visits)
{
	(void)ud, (void)parent, (void)visits;
	q[player] = ms_catan_estimate(child, move) / 20.0;
	return 0;
}

static int g_playout(void *ud, void *state, uint64_t *rng, double *r)
{
	catan__search *cs = ud;
	ms_catan_state *s = state;
	ms_catan_action a;
	int self_army = s->p[cs->seat].has_army;
	ms_catan_simple_options own = cs->simple;
	own.tree_variants = 1;
	while (!ms_catan_over(s)) {
		ms_catan_simple_act(s, s->cur == cs->seat ? &own : &cs->simple, self_army, rng, &a);
		if (ms_catan_apply(cs->ctx, s, &a, rng, NULL) < 0)
			return MS_ERROR;
		self_army = s->p[cs->seat].has_army;
	}
	catan__reward(s, r);
	return MS_OK;
}

int catan__search_init(ms_ctx *ctx, catan__search *cs, long iterations, int rule, double c, uint64_t seed)
{
	cs->preselect = 1;
	cs->discard_samples = CATAN_DISCARD_SAMPLES;
	ms_mcts_game g;
	ms_mcts_options o;
	memset(&g, 0, sizeof g);
	cs->ctx = ctx;
	ms_catan_simple_options_init(&cs->simple, MS_CATAN_SIMPLE_OPTIONS_VERSION);
	g.state_size = sizeof(ms_catan_state);
	g.move_size = sizeof(ms_catan_action);
	g.n_players = MS_CATAN_MAX_PLAYERS;
	g.ud = cs;
	g.legal = g_legal, g.apply = g_apply, g.terminal = g_terminal, g.rewards = g_rewards, g.to_move = g_to_move;
	g.prior = g_prior, g.playout = g_playout;
	ms_mcts_options_init(&o, MS_MCTS_OPTIONS_VERSION);
	o.iterations = iterations;
	o.rule = rule;
	o.c = c;
	o.seed = seed;
	return ms_mcts_new(ctx, &cs->m, &g, &o);
}

static int same_action(const ms_catan_action *a, const ms_catan_action *b)
{
	return a->type == b->type && a->seat == b->seat && !memcmp(a->v, b->v, sizeof a->v) &&
	       !memcmp(a->w, b->w, sizeof a->w);
}

/* Actions whose result is unknown in advance end the buffered plan (5.3.a). */
static int ends_plan(const ms_catan_action *a)
{
	switch (a->type) {
	case MS_CATAN_ROLL:
	case MS_CATAN_BUY_DEV:
	case MS_CATAN_MOVE_ROBBER:
	case MS_CATAN_DISCARD:
	case MS_CATAN_PLAY_MONOPOLY:
	case MS_CATAN_PLAY_YOP:
	case MS_CATAN_PLAY_KNIGHT:
	case MS_CATAN_END_TURN:
		return 1;
	default:
		return 0;
	}
}

static void build_buffer(catan__search *cs, int chosen)
{
	cs->n_buf = cs->at_buf = 0;
	int nd = chosen;
	while (!ends_plan(ms_mcts_move(cs->m, nd)) && cs->n_buf < CATAN_BUFFER) {
		int next = ms_mcts_best_child(cs->m, nd, 0.0);
		if (next < 0 || ms_mcts_terminal(cs->m, next) || ms_mcts_player(cs->m, nd) != cs->seat)
			break;
		cs->buf[cs->n_buf++] = *(const ms_catan_action *)ms_mcts_move(cs->m, next);
		nd = next;
	}
}

int catan__search_act(catan__search *cs, const ms_catan_state *s, ms_catan_action *out)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	int n = search_actions(cs, s, acts), rc;
	cs->seat = s->cur;
	if (s->prompt == MS_CATAN_P_PLAY_TURN && !s->p[s->cur].has_rolled)
		cs->n_buf = cs->at_buf = 0;
	while (cs->at_buf < cs->n_buf) {
		const ms_catan_action *b = &cs->buf[cs->at_buf++];
		for (int i = 0; i < n; i++)
			if (same_action(b, &acts[i])) {
				*out = *b;
				return MS_OK;
			}
		cs->n_buf = cs->at_buf = 0; /* the plan no longer fits the real state */
	}
	if (n == 1) {
		*out = acts[0];
		return MS_OK;
	}
	/* hidden information: the order of the cards left in the deck is redealt at the root */
	ms_catan_state root = *s;
	for (int i = root.deck_len - 1; i > 0; i--) {
		int j = (int)ms_catan_rand(ms_mcts_rng(cs->m), (uint32_t)i + 1);
		uint8_t t = root.deck[i];
		root.deck[i] = root.deck[j];
		root.deck[j] = t;
	}
	if ((rc = ms_mcts_search(cs->m, &root)) < 0)
		return rc;
	cs->searches++;
	cs->nodes += ms_mcts_node_count(cs->m);
	int best = ms_mcts_best_child(cs->m, 0, 0.0);
	if (best < 0)
		return ms_ctx_error(cs->ctx, MS_ERROR, "catan: the search found no move");
	*out = *(const ms_catan_action *)ms_mcts_move(cs->m, best);
	build_buffer(cs, best);
	return MS_OK;
}
