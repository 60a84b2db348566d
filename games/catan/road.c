/* Road networks: catanatron's connected components (node sets per colour,
 * kept as it keeps them, since buildable places and Longest Road follow
 * from them) and the longest-trail search. */
#include <string.h>
#include "catan_internal.h"

static int enemy(const ms_catan_state *s, int node, int seat)
{
	return s->node_owner[node] && s->node_owner[node] != seat + 1;
}

/* Longest trail from `node` along the seat's roads, never entering an
 * opponent's building (leaving the start node is allowed, as catanatron). */
static int trail(const ms_catan_state *s, int node, int seat, uint8_t *used)
{
	const ms_catan_board *b = s->board;
	int best = 0;
	for (int i = 0; i < b->node_deg[node]; i++) {
		int e = b->node_edge[node][i], nb = b->node_nbr[node][i];
		if (used[e] || s->edge_owner[e] != seat + 1 || enemy(s, nb, seat))
			continue;
		used[e] = 1;
		int len = 1 + trail(s, nb, seat, used);
		used[e] = 0;
		if (len > best)
			best = len;
	}
	return best;
}

int catan__longest_in(const ms_catan_state *s, uint64_t nodes, int seat)
{
	uint8_t used[MS_CATAN_EDGES];
	int best = 0;
	memset(used, 0, sizeof used);
	for (int n = 0; n < MS_CATAN_NODES; n++)
		if ((nodes >> n) & 1) {
			int len = trail(s, n, seat, used);
			if (len > best)
				best = len;
		}
	return best;
}

static int comp_of(const ms_catan_state *s, int seat, int node)
{
	for (int i = 0; i < s->n_comp[seat]; i++)
		if ((s->comp[seat][i] >> node) & 1)
			return i;
	return -1;
}

static void comp_delete(ms_catan_state *s, int seat, int i)
{
	for (int k = i + 1; k < s->n_comp[seat]; k++)
		s->comp[seat][k - 1] = s->comp[seat][k];
	s->n_comp[seat]--;
}

static void comp_append(ms_catan_state *s, int seat, uint64_t set)
{
	if (s->n_comp[seat] < MS_CATAN_MAX_COMPONENTS)
		s->comp[seat][s->n_comp[seat]++] = set;
}

/* catanatron Board.build_road after the road is placed: grow or merge the
 * components, then the candidate length and the board-level record. */
void catan__road_built(ms_catan_state *s, int seat, int edge, int *prev_holder)
{
	int a = s->board->edge_a[edge], c = s->board->edge_b[edge];
	int ai = comp_of(s, seat, a), ci = comp_of(s, seat, c), k;
	uint64_t set;
	if (ai < 0 && ci >= 0 && !enemy(s, a, seat)) {
		s->comp[seat][ci] |= 1ull << a;
		k = ci;
	} else if (ai >= 0 && ci < 0 && !enemy(s, c, seat)) {
		s->comp[seat][ai] |= 1ull << c;
		k = ai;
	} else if (ai >= 0 && ci >= 0 && ai != ci) {
		set = s->comp[seat][ai] | s->comp[seat][ci];
		comp_delete(s, seat, ai > ci ? ai : ci);
		comp_delete(s, seat, ai > ci ? ci : ai);
		comp_append(s, seat, set);
		k = s->n_comp[seat] - 1;
	} else if (ai < 0 && ci < 0) {
		comp_append(s, seat, (1ull << a) | (1ull << c)); /* not reachable by legal play */
		k = s->n_comp[seat] - 1;
	} else {
		k = ai >= 0 ? ai : ci;
	}
	*prev_holder = s->road_holder;
	int cand = catan__longest_in(s, s->comp[seat][k], seat);
	if (cand > s->road_len[seat])
		s->road_len[seat] = (uint8_t)cand;
	if (cand >= 5 && cand > s->road_length) {
		s->road_holder = (int8_t)seat;
		s->road_length = (uint8_t)cand;
	}
}

/* Nodes reached from `start` along the colour's roads, stopping at (but
 * including) opponents' buildings. */
static uint64_t walk(const ms_catan_state *s, int start, int seat)
{
	uint64_t visited = 0;
	int stack[MS_CATAN_NODES * 3], top = 0;
	stack[top++] = start;
	while (top) {
		int n = stack[--top];
		visited |= 1ull << n;
		if (enemy(s, n, seat))
			continue;
		for (int i = 0; i < s->board->node_deg[n]; i++) {
			int nb = s->board->node_nbr[n][i];
			if (!((visited >> nb) & 1) && s->edge_owner[s->board->node_edge[n][i]] == seat + 1 &&
			    top < MS_CATAN_NODES * 3)
				stack[top++] = nb;
		}
	}
	return visited;
}

/* catanatron Board.build_settlement outside the setup: a settlement between
 * two roads of one opponent splits that opponent's component; its length is
 * recomputed and the record goes to the longest stored length (first seat on
 * ties), with no threshold. */
void catan__settlement_cuts(ms_catan_state *s, int seat, int node)
{
	const ms_catan_board *b = s->board;
	for (int o = 0; o < s->n; o++) {
		int ends[3], n = 0;
		if (o == seat)
			continue;
		for (int i = 0; i < b->node_deg[node]; i++)
			if (s->edge_owner[b->node_edge[node][i]] == o + 1)
				ends[n++] = b->node_nbr[node][i];
		if (n != 2)
			continue;
		uint64_t sa = walk(s, ends[0], o), sc = walk(s, ends[1], o);
		int bi = comp_of(s, o, node);
		if (bi >= 0)
			comp_delete(s, o, bi);
		comp_append(s, o, sa);
		comp_append(s, o, sc);
		int best = 0;
		for (int k = 0; k < s->n_comp[o]; k++) {
			int len = catan__longest_in(s, s->comp[o][k], o);
			if (len > best)
				best = len;
		}
		s->road_len[o] = (uint8_t)best;
		int top = 0;
		for (int p = 1; p < s->n; p++)
			if (s->road_len[p] > s->road_len[top])
				top = p;
		s->road_holder = (int8_t)top;
		s->road_length = s->road_len[top];
	}
}

/* catanatron mantain_longest_road: copy the lengths, move the 2 VP. */
void catan__keep_longest_road(ms_catan_state *s, int prev_holder)
{
	for (int p = 0; p < s->n; p++)
		s->p[p].longest = s->road_len[p];
	if (s->road_holder < 0 || s->road_holder == prev_holder)
		return;
	ms_catan_player *w = &s->p[s->road_holder];
	w->has_road = 1;
	w->vp += 2;
	w->actual_vp += 2;
	if (prev_holder >= 0) {
		ms_catan_player *l = &s->p[prev_holder];
		l->has_road = 0;
		l->vp -= 2;
		l->actual_vp -= 2;
	}
}

/* Thesis: the seat's longest trail over all its roads. */
int catan__thesis_longest(const ms_catan_state *s, int seat)
{
	uint64_t nodes = 0;
	for (int e = 0; e < MS_CATAN_EDGES; e++)
		if (s->edge_owner[e] == seat + 1)
			nodes |= (1ull << s->board->edge_a[e]) | (1ull << s->board->edge_b[e]);
	return catan__longest_in(s, nodes, seat);
}

/* Thesis (TC2 UpdateLongestRoad): the maximum count if >= 5; a holder tied
 * at the maximum keeps it; otherwise the lowest seat with the maximum. */
void catan__thesis_update_lr(ms_catan_state *s)
{
	int best = 0, who = -1;
	for (int p = 0; p < s->n; p++) {
		s->road_len[p] = (uint8_t)catan__thesis_longest(s, p);
		s->p[p].longest = s->road_len[p];
		if (s->road_len[p] > best)
			best = s->road_len[p], who = p;
	}
	int prev = s->road_holder;
	if (best < 5)
		who = -1;
	else if (prev >= 0 && s->road_len[prev] == best)
		who = prev;
	if (who == prev)
		return;
	if (prev >= 0) {
		s->p[prev].has_road = 0;
		s->p[prev].vp -= 2;
		s->p[prev].actual_vp -= 2;
	}
	if (who >= 0) {
		s->p[who].has_road = 1;
		s->p[who].vp += 2;
		s->p[who].actual_vp += 2;
	}
	s->road_holder = (int8_t)who;
	s->road_length = (uint8_t)best;
}
