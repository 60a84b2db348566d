/* Catan rules: profiles, the start of a game and the legal actions (the
 * effects of actions are in apply.c). catanatron's generator is followed
 * step by step, since its recorded games are the proof. */
#include <string.h>
#include "catan_internal.h"

int ms_catan_rules_profile(ms_catan_rules *r, int profile)
{
	memset(r, 0, sizeof *r);
	r->version = MS_CATAN_RULES_VERSION;
	r->profile = profile;
	r->vps_to_win = 10;
	r->discard_limit = 7;
	r->turns_limit = 1000;
	if (profile == MS_CATAN_PROFILE_CATANATRON) {
		r->bank_limit = 19;
		r->win_every_action = 1;
		r->deck_shuffled = 1;
		r->dev_same_turn = 1;
		return MS_OK;
	}
	if (profile == MS_CATAN_PROFILE_THESIS) {
		r->road_lr_from_vp = 8;
		r->discard_by_roller = 1;
		r->monopoly_quirk = 1;
		r->yop_quirk = 1;
		r->knight_before_roll_only = 1;
		return MS_OK;
	}
	return MS_EINVAL;
}

int ms_catan_profile_by_name(const char *name)
{
	if (!strcmp(name, "catanatron"))
		return MS_CATAN_PROFILE_CATANATRON;
	if (!strcmp(name, "thesis"))
		return MS_CATAN_PROFILE_THESIS;
	return -1;
}

int ms_catan_init(ms_ctx *ctx, ms_catan_state *s, const ms_catan_board *b, const ms_catan_rules *rules, int n,
		  const uint8_t *deck, uint64_t *rng)
{
	static const uint8_t counts[5] = { 14, 2, 2, 2, 5 };
	if (!b || !rules || rules->version != MS_CATAN_RULES_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "catan: missing board or unknown rules version");
	if (n < 2 || n > MS_CATAN_MAX_PLAYERS)
		return ms_ctx_error(ctx, MS_EINVAL, "catan: %d players (2-4 allowed)", n);
	memset(s, 0, sizeof *s);
	s->board = b;
	s->rules = *rules;
	s->n = (uint8_t)n;
	s->prompt = MS_CATAN_P_INITIAL_SETTLEMENT;
	s->initial_phase = 1;
	s->robber = b->desert;
	s->winner = -1;
	s->road_holder = -1;
	s->buildable = (1ull << MS_CATAN_NODES) - 1;
	for (int r = 0; r < 5; r++)
		s->bank[r] = (int16_t)(rules->bank_limit ? rules->bank_limit : 19);
	for (int p = 0; p < n; p++) {
		s->p[p].roads_left = 15;
		s->p[p].settlements_left = 5;
		s->p[p].cities_left = 4;
	}
	memcpy(s->deck_count, counts, sizeof counts);
	s->deck_len = 25;
	for (int c = 0, k = 0; c < 5; c++)
		for (int i = 0; i < counts[c]; i++)
			s->deck[k++] = (uint8_t)c;
	if (deck) {
		uint8_t seen[5] = { 0 };
		for (int k = 0; k < 25; k++) {
			if (deck[k] > 4 || ++seen[deck[k]] > counts[deck[k]])
				return ms_ctx_error(ctx, MS_EINVAL, "catan: the given deck is not the 25 standard cards");
			s->deck[k] = deck[k];
		}
	} else if (rules->deck_shuffled && rng) {
		for (int i = 24; i > 0; i--) {
			int j = (int)ms_catan_rand(rng, (uint32_t)i + 1);
			uint8_t t = s->deck[i];
			s->deck[i] = s->deck[j];
			s->deck[j] = t;
		}
	}
	return MS_OK;
}

int ms_catan_hand(const ms_catan_state *s, int seat)
{
	const int16_t *r = s->p[seat].res;
	return r[0] + r[1] + r[2] + r[3] + r[4];
}

int ms_catan_over(const ms_catan_state *s)
{
	return s->winner >= 0 || s->turns >= s->rules.turns_limit;
}

static int can_afford(const ms_catan_player *p, int wood, int brick, int sheep, int wheat, int ore)
{
	return p->res[0] >= wood && p->res[1] >= brick && p->res[2] >= sheep && p->res[3] >= wheat && p->res[4] >= ore;
}

int catan__can_play(const ms_catan_state *s, int seat, int card)
{
	const ms_catan_player *p = &s->p[seat];
	int have = p->dev[card] - (s->rules.dev_same_turn ? 0 : p->dev_new[card]);
	return !p->played_dev && have >= 1;
}

uint64_t catan__comp_union(const ms_catan_state *s, int seat)
{
	uint64_t u = 0;
	for (int i = 0; i < s->n_comp[seat]; i++)
		u |= s->comp[seat][i];
	return u;
}

/* catanatron Board.buildable_edges: open edges at the non-enemy nodes of the
 * seat's components. Writes edges as a bit set over 72 edges. */
static void buildable_edges(const ms_catan_state *s, int seat, uint64_t out[2])
{
	const ms_catan_board *b = s->board;
	uint64_t nodes = catan__comp_union(s, seat);
	out[0] = out[1] = 0;
	for (int n = 0; n < MS_CATAN_NODES; n++) {
		if (!((nodes >> n) & 1) || (s->node_owner[n] && s->node_owner[n] != seat + 1))
			continue;
		for (int i = 0; i < b->node_deg[n]; i++) {
			int e = b->node_edge[n][i];
			if (!s->edge_owner[e])
				out[e >> 6] |= 1ull << (e & 63);
		}
	}
}

int catan__road_options(const ms_catan_state *s, int seat, int need_money, ms_catan_action *out)
{
	uint64_t set[2];
	int k = 0;
	if (s->p[seat].roads_left == 0 || (need_money && !can_afford(&s->p[seat], 1, 1, 0, 0, 0)))
		return 0;
	buildable_edges(s, seat, set);
	for (int e = 0; e < MS_CATAN_EDGES; e++)
		if ((set[e >> 6] >> (e & 63)) & 1)
			out[k++] = catan__act(MS_CATAN_BUILD_ROAD, seat, e, -1, -1);
	return k;
}

static int robber_options(const ms_catan_state *s, int seat, ms_catan_action *out)
{
	const ms_catan_board *b = s->board;
	int k = 0;
	for (int h = 0; h < MS_CATAN_HEXES; h++) {
		unsigned victims = 0;
		if (h == s->robber)
			continue;
		for (int c = 0; c < 6; c++) {
			int o = s->node_owner[b->hex_node[h][c]] - 1;
			if (o >= 0 && o != seat && ms_catan_hand(s, o) >= 1)
				victims |= 1u << o;
		}
		if (!victims)
			out[k++] = catan__act(MS_CATAN_MOVE_ROBBER, seat, h, -1, -1);
		for (int o = 0; o < s->n; o++)
			if ((victims >> o) & 1)
				out[k++] = catan__act(MS_CATAN_MOVE_ROBBER, seat, h, o, -1);
	}
	return k;
}

/* catanatron year_of_plenty_possibilities: pairs the bank can pay, else the
 * single cards it can. */
static int yop_options(const ms_catan_state *s, int seat, ms_catan_action *out)
{
	unsigned singles = 0;
	int k = 0, unlimited = !s->rules.bank_limit;
	for (int i = 0; i < 5; i++)
		for (int j = i; j < 5; j++) {
			int need_i = i == j ? 2 : 1;
			if (unlimited || (s->bank[i] >= need_i && s->bank[j] >= 1)) {
				out[k++] = catan__act(MS_CATAN_PLAY_YOP, seat, i, j, -1);
			} else {
				singles |= (s->bank[i] >= 1 ? 1u << i : 0) | (s->bank[j] >= 1 ? 1u << j : 0);
			}
		}
	for (int i = 0; i < 5; i++)
		if ((singles >> i) & 1)
			out[k++] = catan__act(MS_CATAN_PLAY_YOP, seat, i, -1, -1);
	return k;
}

/* Trade rates per resource from the ports the seat has built on. */
void catan__rates(const ms_catan_state *s, int seat, int rate[5])
{
	int any = 0;
	unsigned two = 0;
	for (int n = 0; n < MS_CATAN_NODES; n++) {
		int pt = s->board->port[n];
		if (pt < 0 || s->node_owner[n] != seat + 1)
			continue;
		if (pt == 5)
			any = 1;
		else
			two |= 1u << pt;
	}
	for (int r = 0; r < 5; r++)
		rate[r] = ((two >> r) & 1) ? 2 : any ? 3 : 4;
}

static int trade_options(const ms_catan_state *s, int seat, ms_catan_action *out)
{
	int rate[5], k = 0;
	catan__rates(s, seat, rate);
	for (int r = 0; r < 5; r++) {
		if (s->p[seat].res[r] < rate[r])
			continue;
		for (int j = 0; j < 5; j++)
			if (j != r && (!s->rules.bank_limit || s->bank[j] > 0))
				out[k++] = catan__act(MS_CATAN_MARITIME_TRADE, seat, r, rate[r], j);
	}
	return k;
}

static int build_options(const ms_catan_state *s, int seat, ms_catan_action *out)
{
	const ms_catan_player *p = &s->p[seat];
	int k = 0;
	k += catan__road_options(s, seat, 1, out + k);
	if (p->settlements_left > 0 && can_afford(p, 1, 1, 1, 1, 0)) {
		uint64_t nodes = catan__comp_union(s, seat) & s->buildable;
		for (int n = 0; n < MS_CATAN_NODES; n++)
			if ((nodes >> n) & 1)
				out[k++] = catan__act(MS_CATAN_BUILD_SETTLEMENT, seat, n, -1, -1);
	}
	if (p->cities_left > 0 && can_afford(p, 0, 0, 0, 2, 3))
		for (int n = 0; n < MS_CATAN_NODES; n++)
			if (s->node_owner[n] == seat + 1 && !s->node_city[n])
				out[k++] = catan__act(MS_CATAN_BUILD_CITY, seat, n, -1, -1);
	return k;
}

static int turn_options(const ms_catan_state *s, int seat, ms_catan_action *out)
{
	ms_catan_action tmp[MS_CATAN_EDGES];
	int k = 0;
	int free_need_money = s->rules.profile == MS_CATAN_PROFILE_CATANATRON;
	if (s->road_building)
		return catan__road_options(s, seat, free_need_money, out);
	if (!s->p[seat].has_rolled) {
		out[k++] = catan__act(MS_CATAN_ROLL, seat, -1, -1, -1);
		if (catan__can_play(s, seat, MS_CATAN_KNIGHT))
			out[k++] = catan__act(MS_CATAN_PLAY_KNIGHT, seat, -1, -1, -1);
		return k;
	}
	out[k++] = catan__act(MS_CATAN_END_TURN, seat, -1, -1, -1);
	k += build_options(s, seat, out + k);
	if (can_afford(&s->p[seat], 0, 0, 1, 1, 1) && s->deck_len > 0)
		out[k++] = catan__act(MS_CATAN_BUY_DEV, seat, -1, -1, -1);
	if (catan__can_play(s, seat, MS_CATAN_YOP))
		k += yop_options(s, seat, out + k);
	if (catan__can_play(s, seat, MS_CATAN_MONOPOLY))
		for (int r = 0; r < 5; r++)
			out[k++] = catan__act(MS_CATAN_PLAY_MONOPOLY, seat, r, -1, -1);
	if (catan__can_play(s, seat, MS_CATAN_KNIGHT) && !s->rules.knight_before_roll_only)
		out[k++] = catan__act(MS_CATAN_PLAY_KNIGHT, seat, -1, -1, -1);
	if (catan__can_play(s, seat, MS_CATAN_ROAD_BUILDING) && catan__road_options(s, seat, free_need_money, tmp) > 0)
		out[k++] = catan__act(MS_CATAN_PLAY_ROAD_BUILDING, seat, -1, -1, -1);
	k += trade_options(s, seat, out + k);
	return k;
}

int ms_catan_legal(const ms_catan_state *s, ms_catan_action *out)
{
	int seat = s->cur, k = 0;
	if (ms_catan_over(s))
		return 0;
	switch (s->prompt) {
	case MS_CATAN_P_INITIAL_SETTLEMENT:
		for (int n = 0; n < MS_CATAN_NODES; n++)
			if ((s->buildable >> n) & 1)
				out[k++] = catan__act(MS_CATAN_BUILD_SETTLEMENT, seat, n, -1, -1);
		return k;
	case MS_CATAN_P_INITIAL_ROAD: {
		const ms_catan_board *b = s->board;
		int last = s->p[seat].last_settlement;
		for (int i = 0; i < b->node_deg[last]; i++)
			if (!s->edge_owner[b->node_edge[last][i]])
				out[k++] = catan__act(MS_CATAN_BUILD_ROAD, seat, b->node_edge[last][i], -1, -1);
		return k;
	}
	case MS_CATAN_P_MOVE_ROBBER:
		return robber_options(s, seat, out);
	case MS_CATAN_P_DISCARD:
		out[0] = catan__act(MS_CATAN_DISCARD, seat, -1, -1, -1);
		return 1;
	case MS_CATAN_P_PLAY_TURN:
		return turn_options(s, seat, out);
	default:
		return 0;
	}
}
