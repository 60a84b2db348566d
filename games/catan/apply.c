/* Catan: the effect of each action (catanatron's apply_action, with the
 * thesis profile's differences as options). Chance outcomes are taken from
 * the action when forced, else drawn from the caller's generator. */
#include <string.h>
#include "catan_internal.h"

static void next_seat(ms_catan_state *s, int dir)
{
	s->cur = (uint8_t)((s->cur + dir + s->n) % s->n);
	s->turn_seat = s->cur;
	s->turns++;
}

static void check_win(ms_catan_state *s)
{
	for (int p = 0; p < s->n; p++)
		if (s->p[p].actual_vp >= s->rules.vps_to_win)
			s->winner = (int8_t)p;
}

static void pay(ms_catan_state *s, int seat, int r, int k)
{
	s->p[seat].res[r] = (int16_t)(s->p[seat].res[r] + k);
	s->bank[r] = (int16_t)(s->bank[r] - k);
}

static void produce(ms_catan_state *s, int number)
{
	const ms_catan_board *b = s->board;
	int want[MS_CATAN_MAX_PLAYERS][5], total[5] = { 0 };
	memset(want, 0, sizeof want);
	for (int i = 0; i < b->n_by_num[number]; i++) {
		int h = b->by_num[number][i];
		if (h == s->robber)
			continue;
		for (int c = 0; c < 6; c++) {
			int n = b->hex_node[h][c], o = s->node_owner[n] - 1;
			if (o < 0)
				continue;
			want[o][b->hex_res[h]] += s->node_city[n] ? 2 : 1;
			total[b->hex_res[h]] += s->node_city[n] ? 2 : 1;
		}
	}
	for (int r = 0; r < 5; r++) {
		if (s->rules.bank_limit && total[r] > s->bank[r])
			continue; /* the bank cannot pay everyone: nobody gets it */
		for (int p = 0; p < s->n; p++)
			if (want[p][r])
				pay(s, p, r, want[p][r]);
	}
}

static int first_discarder(const ms_catan_state *s, int from, int limit)
{
	for (int p = from; p < s->n; p++)
		if (ms_catan_hand(s, p) > limit)
			return p;
	return -1;
}

static void apply_roll(ms_catan_state *s, ms_catan_action *a, uint64_t *rng)
{
	if (a->v[0] < 1 || a->v[0] > 6 || a->v[1] < 1 || a->v[1] > 6) {
		a->v[0] = (int8_t)(1 + ms_catan_rand(rng, 6));
		a->v[1] = (int8_t)(1 + ms_catan_rand(rng, 6));
	}
	s->p[a->seat].has_rolled = 1;
	if (a->v[0] + a->v[1] != 7) {
		produce(s, a->v[0] + a->v[1]);
		s->prompt = MS_CATAN_P_PLAY_TURN;
		return;
	}
	int d = first_discarder(s, 0, s->rules.discard_limit);
	if (d < 0) {
		s->prompt = MS_CATAN_P_MOVE_ROBBER;
		return;
	}
	s->prompt = MS_CATAN_P_DISCARD;
	s->discard_round = 0;
	s->cur = (uint8_t)(s->rules.discard_by_roller ? a->seat : d);
}

/* Forced discards are counts per resource; open ones are a random half. */
static int apply_discard(ms_ctx *ctx, ms_catan_state *s, ms_catan_action *a, uint64_t *rng)
{
	ms_catan_player *p = &s->p[a->seat];
	int hand = ms_catan_hand(s, a->seat), half = hand / 2;
	if (s->rules.discard_by_roller && hand <= s->rules.discard_limit)
		half = 0;
	if (a->v[0] < 0) {
		int left[5];
		for (int r = 0; r < 5; r++)
			left[r] = p->res[r], a->v[r] = 0;
		for (int k = 0, n = hand; k < half; k++, n--) {
			int pick = (int)ms_catan_rand(rng, (uint32_t)n), r = 0;
			while (pick >= left[r])
				pick -= left[r++];
			left[r]--;
			a->v[r]++;
		}
	}
	for (int r = 0; r < 5; r++)
		if (a->v[r] < 0 || a->v[r] > p->res[r])
			return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d cannot discard %d of resource %d", a->seat,
					    a->v[r], r);
	for (int r = 0; r < 5; r++)
		pay(s, a->seat, r, -a->v[r]);
	if (s->rules.discard_by_roller) {
		if (++s->discard_round >= s->n)
			s->prompt = MS_CATAN_P_MOVE_ROBBER;
		return MS_OK;
	}
	/* catanatron compares later discarders with a literal 7 */
	int d = first_discarder(s, s->cur + 1, s->rules.profile == MS_CATAN_PROFILE_CATANATRON ? 7 : s->rules.discard_limit);
	if (d >= 0) {
		s->cur = (uint8_t)d;
	} else {
		s->cur = s->turn_seat;
		s->prompt = MS_CATAN_P_MOVE_ROBBER;
	}
	return MS_OK;
}

static int apply_robber(ms_ctx *ctx, ms_catan_state *s, ms_catan_action *a, uint64_t *rng)
{
	int victim = a->v[1];
	s->robber = (uint8_t)a->v[0];
	s->prompt = MS_CATAN_P_PLAY_TURN;
	if (victim < 0)
		return MS_OK;
	if (victim >= s->n || ms_catan_hand(s, victim) == 0)
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d has no card to steal", victim);
	if (a->v[2] < 0) {
		int pick = (int)ms_catan_rand(rng, (uint32_t)ms_catan_hand(s, victim)), r = 0;
		while (pick >= s->p[victim].res[r])
			pick -= s->p[victim].res[r++];
		a->v[2] = (int8_t)r;
	}
	if (a->v[2] > 4 || s->p[victim].res[a->v[2]] < 1)
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d holds no resource %d to steal", victim, a->v[2]);
	s->p[victim].res[a->v[2]]--;
	s->p[a->seat].res[a->v[2]]++;
	return MS_OK;
}

static int apply_buy(ms_ctx *ctx, ms_catan_state *s, ms_catan_action *a, uint64_t *rng)
{
	int card = a->v[0], at = -1;
	if (s->deck_len == 0)
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: the development deck is empty");
	if (card < 0) {
		if (s->rules.deck_shuffled) {
			at = s->deck_len - 1;
		} else {
			int pick = (int)ms_catan_rand(rng, s->deck_len);
			card = 0;
			while (pick >= s->deck_count[card])
				pick -= s->deck_count[card++];
		}
	}
	if (at < 0) {
		/* catanatron removes the first card of that type from the list */
		for (int k = 0; k < s->deck_len && at < 0; k++)
			if (s->deck[k] == card)
				at = k;
		if (at < 0)
			return ms_ctx_error(ctx, MS_EILLEGAL, "catan: no card %d left in the deck", card);
	}
	card = s->deck[at];
	memmove(s->deck + at, s->deck + at + 1, (size_t)(s->deck_len - at - 1));
	s->deck_len--;
	s->deck_count[card]--;
	a->v[0] = (int8_t)card;
	ms_catan_player *p = &s->p[a->seat];
	p->dev[card]++;
	p->dev_new[card]++;
	if (card == MS_CATAN_VP_CARD)
		p->actual_vp++;
	pay(s, a->seat, MS_CATAN_SHEEP, -1);
	pay(s, a->seat, MS_CATAN_WHEAT, -1);
	pay(s, a->seat, MS_CATAN_ORE, -1);
	return MS_OK;
}

static void play_card(ms_catan_state *s, int seat, int card)
{
	ms_catan_player *p = &s->p[seat];
	p->dev[card]--;
	if (p->dev_new[card] > p->dev[card])
		p->dev_new[card] = p->dev[card];
	p->played_dev = 1;
	p->played[card]++;
	if (card != MS_CATAN_KNIGHT || p->played[card] < 3)
		return;
	int holder = -1;
	for (int o = 0; o < s->n; o++)
		if (s->p[o].has_army)
			holder = o;
	if (holder == seat || (holder >= 0 && s->p[holder].played[MS_CATAN_KNIGHT] >= p->played[card]))
		return;
	p->has_army = 1;
	p->vp += 2;
	p->actual_vp += 2;
	if (holder >= 0) {
		s->p[holder].has_army = 0;
		s->p[holder].vp -= 2;
		s->p[holder].actual_vp -= 2;
	}
}

static void lr_after_build(ms_catan_state *s, int prev)
{
	if (s->rules.profile == MS_CATAN_PROFILE_CATANATRON)
		catan__keep_longest_road(s, prev);
	else if (s->lr_active || !s->rules.road_lr_from_vp)
		catan__thesis_update_lr(s);
}

static void apply_settlement(ms_catan_state *s, int seat, int node)
{
	ms_catan_player *p = &s->p[seat];
	const ms_catan_board *b = s->board;
	int prev = s->road_holder;
	s->node_owner[node] = (uint8_t)(seat + 1);
	p->settlements_left--;
	p->vp++;
	p->actual_vp++;
	p->last_settlement = (uint8_t)node;
	p->n_settlements_built++;
	if (s->initial_phase) {
		if (s->n_comp[seat] < MS_CATAN_MAX_COMPONENTS)
			s->comp[seat][s->n_comp[seat]++] = 1ull << node;
	} else {
		catan__settlement_cuts(s, seat, node);
		for (int r = 0; r < 4; r++)
			pay(s, seat, r, -1);
	}
	s->buildable &= ~(1ull << node);
	for (int i = 0; i < b->node_deg[node]; i++)
		s->buildable &= ~(1ull << b->node_nbr[node][i]);
	if (s->initial_phase) {
		if (p->n_settlements_built == 2)
			for (int i = 0; i < b->node_nhex[node]; i++)
				if (b->hex_res[b->node_hex[node][i]] >= 0)
					pay(s, seat, b->hex_res[b->node_hex[node][i]], 1);
		s->prompt = MS_CATAN_P_INITIAL_ROAD;
	} else {
		lr_after_build(s, prev);
	}
}

static void apply_initial_road(ms_catan_state *s)
{
	int built = 0;
	for (int p = 0; p < s->n; p++)
		built += s->p[p].n_settlements_built;
	if (built < s->n) {
		next_seat(s, 1);
		s->prompt = MS_CATAN_P_INITIAL_SETTLEMENT;
	} else if (built == s->n) {
		s->prompt = MS_CATAN_P_INITIAL_SETTLEMENT;
	} else if (built == 2 * s->n) {
		s->initial_phase = 0;
		s->prompt = MS_CATAN_P_PLAY_TURN;
	} else {
		next_seat(s, -1);
		s->prompt = MS_CATAN_P_INITIAL_SETTLEMENT;
	}
}

static void apply_road(ms_catan_state *s, int seat, int edge)
{
	int prev;
	ms_catan_action tmp[MS_CATAN_EDGES];
	s->edge_owner[edge] = (uint8_t)(seat + 1);
	s->p[seat].roads_left--;
	catan__road_built(s, seat, edge, &prev);
	if (s->initial_phase) {
		apply_initial_road(s);
		return;
	}
	if (s->road_building && s->free_roads > 0) {
		lr_after_build(s, prev);
		s->free_roads--;
		if (s->free_roads == 0 || !ms_catan_legal(s, tmp))
			s->road_building = 0, s->free_roads = 0;
		return;
	}
	pay(s, seat, MS_CATAN_WOOD, -1);
	pay(s, seat, MS_CATAN_BRICK, -1);
	lr_after_build(s, prev);
}

static void apply_end_turn(ms_catan_state *s, int seat)
{
	ms_catan_player *p = &s->p[seat];
	p->played_dev = 0;
	p->has_rolled = 0;
	memset(p->dev_new, 0, sizeof p->dev_new);
	if (s->rules.road_lr_from_vp && !s->lr_active && p->actual_vp >= s->rules.road_lr_from_vp) {
		s->lr_active = 1;
		catan__thesis_update_lr(s);
	}
	if (!s->rules.win_every_action && p->actual_vp >= s->rules.vps_to_win)
		s->winner = (int8_t)seat;
	next_seat(s, 1);
	s->prompt = MS_CATAN_P_PLAY_TURN;
}

static void apply_monopoly(ms_catan_state *s, int seat, int r)
{
	/* thesis: the JSettlers code is used as a 0-based index (spec 3.2) */
	static const int quirk[5] = { -1, MS_CATAN_ORE, MS_CATAN_WHEAT, MS_CATAN_WOOD, MS_CATAN_SHEEP };
	if (s->rules.monopoly_quirk)
		r = quirk[r];
	for (int o = 0; r >= 0 && o < s->n; o++)
		if (o != seat) {
			s->p[seat].res[r] = (int16_t)(s->p[seat].res[r] + s->p[o].res[r]);
			s->p[o].res[r] = 0;
		}
	play_card(s, seat, MS_CATAN_MONOPOLY);
}

static void apply_yop(ms_catan_state *s, int seat, int r1, int r2)
{
	if (s->rules.yop_quirk) {
		/* thesis: the counts of brick and of ore chosen become JSettlers
		 * indices (brick, ore, wool) of the two cards gained (spec 3.2) */
		static const int js[3] = { MS_CATAN_BRICK, MS_CATAN_ORE, MS_CATAN_SHEEP };
		int nb = (r1 == MS_CATAN_BRICK) + (r2 == MS_CATAN_BRICK), no = (r1 == MS_CATAN_ORE) + (r2 == MS_CATAN_ORE);
		r1 = js[nb];
		r2 = js[no];
	}
	pay(s, seat, r1, 1);
	if (r2 >= 0)
		pay(s, seat, r2, 1);
	play_card(s, seat, MS_CATAN_YOP);
}

static int apply_trade(ms_ctx *ctx, ms_catan_state *s, const ms_catan_action *a)
{
	if (a->v[0] < 0 || a->v[0] > 4 || a->v[2] < 0 || a->v[2] > 4 || s->p[a->seat].res[a->v[0]] < a->v[1])
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d cannot give %d of resource %d", a->seat, a->v[1],
				    a->v[0]);
	pay(s, a->seat, a->v[0], -a->v[1]);
	pay(s, a->seat, a->v[2], 1);
	return MS_OK;
}

static int apply_switch(ms_ctx *ctx, ms_catan_state *s, ms_catan_action *a, uint64_t *rng)
{
	int seat = a->seat;
	switch (a->type) {
	case MS_CATAN_END_TURN:
		apply_end_turn(s, seat);
		return MS_OK;
	case MS_CATAN_BUILD_SETTLEMENT:
		apply_settlement(s, seat, a->v[0]);
		return MS_OK;
	case MS_CATAN_BUILD_ROAD:
		apply_road(s, seat, a->v[0]);
		return MS_OK;
	case MS_CATAN_BUILD_CITY:
		s->node_city[a->v[0]] = 1;
		s->p[seat].settlements_left++;
		s->p[seat].cities_left--;
		s->p[seat].vp++;
		s->p[seat].actual_vp++;
		pay(s, seat, MS_CATAN_WHEAT, -2);
		pay(s, seat, MS_CATAN_ORE, -3);
		return MS_OK;
	case MS_CATAN_BUY_DEV:
		return apply_buy(ctx, s, a, rng);
	case MS_CATAN_ROLL:
		apply_roll(s, a, rng);
		return MS_OK;
	case MS_CATAN_DISCARD:
		return apply_discard(ctx, s, a, rng);
	case MS_CATAN_MOVE_ROBBER:
		return apply_robber(ctx, s, a, rng);
	case MS_CATAN_PLAY_KNIGHT:
		play_card(s, seat, MS_CATAN_KNIGHT);
		s->prompt = MS_CATAN_P_MOVE_ROBBER;
		return MS_OK;
	case MS_CATAN_PLAY_YOP:
		apply_yop(s, seat, a->v[0], a->v[1]);
		return MS_OK;
	case MS_CATAN_PLAY_MONOPOLY:
		apply_monopoly(s, seat, a->v[0]);
		return MS_OK;
	case MS_CATAN_PLAY_ROAD_BUILDING:
		play_card(s, seat, MS_CATAN_ROAD_BUILDING);
		s->road_building = 1;
		s->free_roads = 2;
		{
			/* thesis: with no road to place the card ends at once (catanatron never offers it then) */
			ms_catan_action tmp[MS_CATAN_EDGES];
			if (!catan__road_options(s, seat, s->rules.profile == MS_CATAN_PROFILE_CATANATRON, tmp))
				s->road_building = 0, s->free_roads = 0;
		}
		return MS_OK;
	case MS_CATAN_MARITIME_TRADE:
		return apply_trade(ctx, s, a);
	case MS_CATAN_BANK_TRADE:
		for (int r = 0; r < 5; r++)
			if (a->v[r] < 0 || a->w[r] < 0 || a->v[r] > s->p[seat].res[r])
				return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d cannot offer %d of resource %d", seat,
						    a->v[r], r);
		for (int r = 0; r < 5; r++)
			pay(s, seat, r, a->w[r] - a->v[r]);
		return MS_OK;
	default:
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: unknown action type %d", a->type);
	}
}

/* Index fields in range (legality itself is the generator's business). */
static int fields_ok(const ms_catan_state *s, const ms_catan_action *a)
{
	int v0 = a->v[0], v1 = a->v[1];
	switch (a->type) {
	case MS_CATAN_MOVE_ROBBER:
		return v0 >= 0 && v0 < MS_CATAN_HEXES && v1 >= -1 && v1 < s->n && v1 != a->seat && a->v[2] >= -1 && a->v[2] < 5;
	case MS_CATAN_BUILD_ROAD:
		return v0 >= 0 && v0 < MS_CATAN_EDGES && !s->edge_owner[v0];
	case MS_CATAN_BUILD_SETTLEMENT:
		return v0 >= 0 && v0 < MS_CATAN_NODES && !s->node_owner[v0];
	case MS_CATAN_BUILD_CITY:
		return v0 >= 0 && v0 < MS_CATAN_NODES && s->node_owner[v0] == a->seat + 1 && !s->node_city[v0];
	case MS_CATAN_BUY_DEV:
		return v0 >= -1 && v0 < 5;
	case MS_CATAN_PLAY_YOP:
		return v0 >= 0 && v0 < 5 && v1 >= -1 && v1 < 5;
	case MS_CATAN_PLAY_MONOPOLY:
		return v0 >= 0 && v0 < 5;
	case MS_CATAN_MARITIME_TRADE:
		return v0 >= 0 && v0 < 5 && v1 >= 1 && a->v[2] >= 0 && a->v[2] < 5;
	default:
		return a->type < MS_CATAN_ACTION_TYPES;
	}
}

int ms_catan_apply(ms_ctx *ctx, ms_catan_state *s, const ms_catan_action *a, uint64_t *rng, ms_catan_action *done)
{
	if (!fields_ok(s, a))
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: action type %d of seat %d names a place or card out of range",
				    a->type, a->seat);
	ms_catan_action x = *a;
	if (ms_catan_over(s))
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: the game is over");
	if (x.seat != s->cur)
		return ms_ctx_error(ctx, MS_EILLEGAL, "catan: seat %d acted but seat %d is to move", x.seat, s->cur);
	int rc = apply_switch(ctx, s, &x, rng);
	if (rc < 0)
		return rc;
	if (s->rules.win_every_action)
		check_win(s);
	if (done)
		*done = x;
	return MS_OK;
}
