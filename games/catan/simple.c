/* The thesis's Simple agent (spec 5.1: random play with pre-selection) and
 * its fast estimate of an action (spec 5.3.c). Each quirk of the thesis
 * code is an option, on by default. */
#include <string.h>
#include "catan_internal.h"
#include "core/opts.h"

int ms_catan_simple_options_init(ms_catan_simple_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_CATAN_SIMPLE_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->port_clause = 1;
	o->yop_lumber_bug = 1;
	o->army_blocks_cards = 1;
	o->forced_knight = 1;
	o->tree_variants = 0;
	return MS_OK;
}

static int producing_hexes(const ms_catan_board *b, int node)
{
	int k = 0;
	for (int i = 0; i < b->node_nhex[node]; i++)
		k += b->hex_res[b->node_hex[node][i]] >= 0;
	return k;
}

/* Setup nodes touching more than one producing hex, or a port. */
int catan__setup_nodes(const ms_catan_state *s, int port_clause, int *out);
int catan__setup_nodes(const ms_catan_state *s, int port_clause, int *out)
{
	int k = 0, all = 0;
	for (int n = 0; n < MS_CATAN_NODES; n++)
		if ((s->buildable >> n) & 1) {
			all++;
			if (producing_hexes(s->board, n) > 1 || (port_clause && s->board->port[n] >= 0))
				out[k++] = n;
		}
	if (k)
		return k;
	for (int n = 0; n < MS_CATAN_NODES; n++)
		if ((s->buildable >> n) & 1)
			out[k++] = n;
	return all ? k : 0;
}

/* The resources held least (ties listed in tied[]); returns how many. */
static int scarcest(const ms_catan_player *p, int tied[5])
{
	int min = p->res[0], k = 0;
	for (int r = 1; r < 5; r++)
		if (p->res[r] < min)
			min = p->res[r];
	for (int r = 0; r < 5; r++)
		if (p->res[r] == min)
			tied[k++] = r;
	return k;
}

static int pick_scarcest(const ms_catan_player *p, uint64_t *rng)
{
	int tied[5], k = scarcest(p, tied);
	return tied[ms_catan_rand(rng, (uint32_t)k)];
}

/* spec 5.1.b: k random lots at the seat's rates, each paid by one of the
 * scarcest resources (the scarcest may be one being given). */
static int bank_trade(const ms_catan_state *s, int seat, int tree, uint64_t *rng, ms_catan_action *out)
{
	const ms_catan_player *p = &s->p[seat];
	int rate[5], lots[5], total = 0;
	catan__rates(s, seat, rate);
	if (tree) { /* the first trade the tree generator lists */
		for (int r = 0; r < 5; r++)
			if (p->res[r] >= rate[r]) {
				*out = catan__act(MS_CATAN_BANK_TRADE, seat, 0, 0, -1);
				memset(out->v, 0, sizeof out->v);
				out->v[r] = (int8_t)rate[r];
				out->w[r == 0 ? 1 : 0] = 1;
				return 1;
			}
		return 0;
	}
	for (int r = 0; r < 5; r++)
		total += lots[r] = p->res[r] / rate[r];
	if (total == 0)
		return 0;
	int k = (int)ms_catan_rand(rng, (uint32_t)total);
	if (k == 0)
		return 0;
	*out = catan__act(MS_CATAN_BANK_TRADE, seat, 0, 0, -1);
	memset(out->v, 0, sizeof out->v);
	for (int i = 0, left = total; i < k; i++, left--) {
		int pick = (int)ms_catan_rand(rng, (uint32_t)left), r = 0;
		while (pick >= lots[r])
			pick -= lots[r++];
		lots[r]--;
		out->v[r] = (int8_t)(out->v[r] + rate[r]);
	}
	for (int i = 0; i < k; i++)
		out->w[pick_scarcest(p, rng)]++;
	return 1;
}

static void use_card(const ms_catan_state *s, int seat, const ms_catan_simple_options *o, uint64_t *rng,
		     ms_catan_action *out)
{
	const ms_catan_player *p = &s->p[seat];
	ms_catan_action opts[3];
	int k = 0;
	if (catan__can_play(s, seat, MS_CATAN_MONOPOLY))
		opts[k++] = catan__act(MS_CATAN_PLAY_MONOPOLY, seat,
			       o->tree_variants ? (int)ms_catan_rand(rng, 5) : pick_scarcest(p, rng), -1, -1);
	if (catan__can_play(s, seat, MS_CATAN_YOP)) {
		int tied[5], r1, r2;
		if (o->tree_variants) {
			r1 = (int)ms_catan_rand(rng, 5);
			r2 = (int)ms_catan_rand(rng, 5);
		} else if (scarcest(p, tied) == 1 && o->yop_lumber_bug) {
			r1 = r2 = MS_CATAN_WOOD;
		} else {
			r1 = pick_scarcest(p, rng);
			r2 = pick_scarcest(p, rng);
		}
		opts[k++] = catan__act(MS_CATAN_PLAY_YOP, seat, r1, r2, -1);
	}
	if (catan__can_play(s, seat, MS_CATAN_ROAD_BUILDING))
		opts[k++] = catan__act(MS_CATAN_PLAY_ROAD_BUILDING, seat, -1, -1, -1);
	*out = k ? opts[ms_catan_rand(rng, (uint32_t)k)] : catan__act(MS_CATAN_END_TURN, seat, -1, -1, -1);
}

static int settlement_nodes(const ms_catan_state *s, int seat, int *out)
{
	uint64_t nodes = catan__comp_union(s, seat) & s->buildable;
	int k = 0;
	for (int n = 0; n < MS_CATAN_NODES; n++)
		if ((nodes >> n) & 1)
			out[k++] = n;
	return k;
}

/* After the roll (spec 5.1 step 4): city, settlement, else a random category. */
static void after_roll(const ms_catan_state *s, const ms_catan_simple_options *o, int self_army, uint64_t *rng,
		       ms_catan_action *out)
{
	int seat = s->cur, nodes[MS_CATAN_NODES], k = 0;
	const ms_catan_player *p = &s->p[seat];
	ms_catan_action roads[MS_CATAN_EDGES];
	if (p->res[3] >= 2 && p->res[4] >= 3 && p->cities_left > 0) {
		for (int n = 0; n < MS_CATAN_NODES; n++)
			if (s->node_owner[n] == seat + 1 && !s->node_city[n])
				nodes[k++] = n;
		if (k) {
			*out = catan__act(MS_CATAN_BUILD_CITY, seat, nodes[ms_catan_rand(rng, (uint32_t)k)], -1, -1);
			return;
		}
	}
	if (p->res[0] >= 1 && p->res[1] >= 1 && p->res[2] >= 1 && p->res[3] >= 1 && p->settlements_left > 0 &&
	    (k = settlement_nodes(s, seat, nodes)) > 0) {
		*out = catan__act(MS_CATAN_BUILD_SETTLEMENT, seat, nodes[ms_catan_rand(rng, (uint32_t)k)], -1, -1);
		return;
	}
	int n_roads = catan__road_options(s, seat, 1, roads), cats[3], nc = 0;
	int army = o->army_blocks_cards ? self_army : 0;
	if (n_roads)
		cats[nc++] = 0;
	if (p->res[2] >= 1 && p->res[3] >= 1 && p->res[4] >= 1 && s->deck_len > 0 && !(o->army_blocks_cards && p->has_army))
		cats[nc++] = 1;
	if (!p->played_dev && p->dev[0] + p->dev[1] + p->dev[2] + p->dev[3] > 0 && !army)
		cats[nc++] = 2;
	if (nc) {
		int c = cats[ms_catan_rand(rng, (uint32_t)nc)];
		if (c == 0)
			*out = roads[ms_catan_rand(rng, (uint32_t)n_roads)];
		else if (c == 1)
			*out = catan__act(MS_CATAN_BUY_DEV, seat, -1, -1, -1);
		else
			use_card(s, seat, o, rng, out);
		return;
	}
	if (!bank_trade(s, seat, o->tree_variants, rng, out))
		*out = catan__act(MS_CATAN_END_TURN, seat, -1, -1, -1);
}

static void robber(const ms_catan_state *s, uint64_t *rng, ms_catan_action *out)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS], here[MS_CATAN_MAX_PLAYERS];
	int n = ms_catan_legal(s, acts), hex = (int)ms_catan_rand(rng, MS_CATAN_HEXES - 1), k = 0;
	if (hex >= s->robber)
		hex++;
	for (int i = 0; i < n; i++)
		if (acts[i].v[0] == hex && k < MS_CATAN_MAX_PLAYERS)
			here[k++] = acts[i];
	*out = k ? here[ms_catan_rand(rng, (uint32_t)k)] : acts[ms_catan_rand(rng, (uint32_t)n)];
}

void ms_catan_simple_act(const ms_catan_state *s, const ms_catan_simple_options *o, int self_has_army, uint64_t *rng,
			 ms_catan_action *out)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	int seat = s->cur, nodes[MS_CATAN_NODES], n;
	if (self_has_army < 0)
		self_has_army = s->p[seat].has_army;
	switch (s->prompt) {
	case MS_CATAN_P_INITIAL_SETTLEMENT:
		n = catan__setup_nodes(s, o->port_clause, nodes);
		*out = catan__act(MS_CATAN_BUILD_SETTLEMENT, seat, nodes[ms_catan_rand(rng, (uint32_t)n)], -1, -1);
		return;
	case MS_CATAN_P_MOVE_ROBBER:
		robber(s, rng, out);
		return;
	case MS_CATAN_P_PLAY_TURN:
		if (s->road_building)
			break;
		if (!s->p[seat].has_rolled) {
			int knight = catan__can_play(s, seat, MS_CATAN_KNIGHT);
			if (knight && (o->forced_knight || ms_catan_rand(rng, 2)))
				*out = catan__act(MS_CATAN_PLAY_KNIGHT, seat, -1, -1, -1);
			else
				*out = catan__act(MS_CATAN_ROLL, seat, -1, -1, -1);
			return;
		}
		after_roll(s, o, self_has_army, rng, out);
		return;
	default:
		break;
	}
	n = ms_catan_legal(s, acts); /* setup roads, free roads, discards */
	*out = acts[ms_catan_rand(rng, (uint32_t)n)];
}

int ms_catan_estimate(const ms_catan_state *after, const ms_catan_action *a)
{
	const ms_catan_board *b = after->board;
	const ms_catan_player *p = &after->p[a->seat];
	int e = 0;
	switch (a->type) {
	case MS_CATAN_BUILD_ROAD:
		return 5 / (15 - p->roads_left + 1);
	case MS_CATAN_BUILD_SETTLEMENT: {
		int port = b->port[a->v[0]], bonus = port == 5 ? 2 : port >= 0 ? 1 : 0;
		/* TC2 lists three hexes per node (sea included): the port bonus counts three times */
		return 4 + 2 * producing_hexes(b, a->v[0]) + 3 * bonus;
	}
	case MS_CATAN_BUILD_CITY:
		return 8 + 4 * producing_hexes(b, a->v[0]);
	case MS_CATAN_BUY_DEV:
		return p->has_army ? 1 : 2;
	case MS_CATAN_BANK_TRADE:
	case MS_CATAN_MARITIME_TRADE: {
		const int16_t *r = p->res;
		int any = (r[3] >= 2 && r[4] >= 3) || (r[0] && r[1] && r[2] && r[3]) || (r[0] && r[1]) ||
			  (r[2] && r[3] && r[4]);
		return any ? 1 : 10;
	}
	default:
		return e;
	}
}
