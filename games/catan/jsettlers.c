/* The engine side of tools/catan_jsettlers.py, our agents' client for a
 * JSettlers server: at each of our decisions the client sends its view of
 * the game in JSettlers's terms (seats, coordinate bytes, game states; the
 * cards it cannot see already determinized), the state is rebuilt from it,
 * the agent decides, and the answer goes back in the same terms.
 *
 * Seats are rotated so that JSettlers's first player is our seat 0: the
 * engine's setup order (0..n-1, then back) is then the server's. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "core/buf.h"
#include "catan_internal.h"

/* JSettlers game states (SOCGame) that ask something of a player. */
enum {
	JS_START1A = 5, JS_START1B = 6, JS_START2A = 10, JS_START2B = 11, JS_ROLL_OR_CARD = 15, JS_PLAY1 = 20,
	JS_PLACING_ROBBER = 33, JS_FREE_ROAD1 = 40, JS_FREE_ROAD2 = 41, JS_WAITING_FOR_DISCARDS = 50
};

/* JSettlers resource order (clay, ore, sheep, wheat, wood) -> ours, and back. */
static const int from_js[5] = { MS_CATAN_BRICK, MS_CATAN_ORE, MS_CATAN_SHEEP, MS_CATAN_WHEAT, MS_CATAN_WOOD };
static const int to_js[5] = { 4, 0, 2, 3, 1 };

typedef struct js_view {
	ms_ctx *ctx;
	const ms_catan_board *b;
	int hex_coord[MS_CATAN_HEXES], node_coord[MS_CATAN_NODES];
	int first, n;
} js_view;

static int seat_of(const js_view *v, int js)
{
	return (js - v->first + v->n) % v->n;
}

static int js_seat(const js_view *v, int seat)
{
	return (seat + v->first) % v->n;
}

static int node_of(const js_view *v, int coord)
{
	for (int i = 0; i < MS_CATAN_NODES; i++)
		if (v->node_coord[i] == coord)
			return i;
	return -1;
}

/* An edge's coordinate is its first node's (the two differ by 0x11), or one
 * below its first node's (they differ by 0x0F): SOCBoard's edge geometry. */
static int edge_coord(const js_view *v, int edge)
{
	int a = v->node_coord[v->b->edge_a[edge]], c = v->node_coord[v->b->edge_b[edge]];
	int lo = a < c ? a : c, hi = a < c ? c : a;
	return hi - lo == 0x11 ? lo : lo - 1;
}

static int edge_of(const js_view *v, int coord)
{
	for (int e = 0; e < MS_CATAN_EDGES; e++)
		if (edge_coord(v, e) == coord)
			return e;
	return -1;
}

static int get_int(const cJSON *o, const char *key, int dflt)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(j) ? j->valueint : dflt;
}

/* Reads an array of `n` small counts. */
static int get_counts(js_view *v, const cJSON *o, const char *key, int n, int *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *x;
	int k = 0;
	memset(out, 0, sizeof(int) * (size_t)n);
	if (!a)
		return MS_OK;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: \"%s\" is not an array of %d counts", key, n);
	cJSON_ArrayForEach(x, a)
	{
		if (!cJSON_IsNumber(x) || x->valueint < 0 || x->valueint > 99)
			return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: \"%s\"[%d] is not a count", key, k);
		out[k++] = x->valueint;
	}
	return MS_OK;
}

static void occupy(ms_catan_state *s, int node, int seat, int city)
{
	const ms_catan_board *b = s->board;
	s->node_owner[node] = (uint8_t)(seat + 1);
	s->node_city[node] = (uint8_t)city;
	s->buildable &= ~(1ull << node);
	for (int i = 0; i < b->node_deg[node]; i++)
		s->buildable &= ~(1ull << b->node_nbr[node][i]);
}

/* The pieces of one seat: settlements and cities by node, roads by edge. */
static int place_pieces(js_view *v, ms_catan_state *s, const cJSON *pl, int seat)
{
	static const char *const keys[3] = { "settlements", "cities", "roads" };
	ms_catan_player *p = &s->p[seat];
	for (int k = 0; k < 3; k++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(pl, keys[k]), *x;
		cJSON_ArrayForEach(x, a)
		{
			int coord = cJSON_IsNumber(x) ? x->valueint : -1;
			int id = k < 2 ? node_of(v, coord) : edge_of(v, coord);
			if (id < 0 || (k < 2 ? s->node_owner[id] != 0 : s->edge_owner[id] != 0))
				return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: %s coordinate %d (0x%x) is off the board or taken",
						    keys[k], coord, (unsigned)coord);
			if (k == 2) {
				s->edge_owner[id] = (uint8_t)(seat + 1);
				p->roads_left--;
				continue;
			}
			occupy(s, id, seat, k);
			if (k == 0)
				p->settlements_left--;
			else
				p->cities_left--;
			p->n_settlements_built++;
			p->vp = (int16_t)(p->vp + 1 + k);
		}
	}
	return MS_OK;
}

/* Road components as node sets: the nodes joined by the seat's roads, never
 * continued through an opponent's building, plus lone buildings. */
static void components(ms_catan_state *s, int seat)
{
	const ms_catan_board *b = s->board;
	uint64_t done = 0;
	s->n_comp[seat] = 0;
	for (int start = 0; start < MS_CATAN_NODES; start++) {
		int touched = s->node_owner[start] == seat + 1;
		for (int i = 0; i < b->node_deg[start]; i++)
			touched |= s->edge_owner[b->node_edge[start][i]] == seat + 1;
		if (!touched || ((done >> start) & 1) || (s->node_owner[start] && s->node_owner[start] != seat + 1))
			continue;
		uint64_t set = 1ull << start;
		int stack[MS_CATAN_NODES], top = 0;
		stack[top++] = start;
		while (top) {
			int n = stack[--top];
			if (s->node_owner[n] && s->node_owner[n] != seat + 1)
				continue; /* kept in the set, not continued (catanatron's components) */
			for (int i = 0; i < b->node_deg[n]; i++) {
				int nb = b->node_nbr[n][i];
				if (s->edge_owner[b->node_edge[n][i]] == seat + 1 && !((set >> nb) & 1)) {
					set |= 1ull << nb;
					stack[top++] = nb;
				}
			}
		}
		done |= set;
		if (s->n_comp[seat] < MS_CATAN_MAX_COMPONENTS)
			s->comp[seat][s->n_comp[seat]++] = set;
	}
}

static int prompt_of(js_view *v, int state, ms_catan_state *s)
{
	switch (state) {
	case JS_START1A:
	case JS_START2A:
		s->prompt = MS_CATAN_P_INITIAL_SETTLEMENT;
		return MS_OK;
	case JS_START1B:
	case JS_START2B:
		s->prompt = MS_CATAN_P_INITIAL_ROAD;
		return MS_OK;
	case JS_ROLL_OR_CARD:
	case JS_PLAY1:
	case JS_FREE_ROAD1:
	case JS_FREE_ROAD2:
		s->prompt = MS_CATAN_P_PLAY_TURN;
		return MS_OK;
	case JS_PLACING_ROBBER:
		s->prompt = MS_CATAN_P_MOVE_ROBBER;
		return MS_OK;
	case JS_WAITING_FOR_DISCARDS:
		s->prompt = MS_CATAN_P_DISCARD;
		return MS_OK;
	default:
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: game state %d asks nothing of us", state);
	}
}

static int one_player(js_view *v, ms_catan_state *s, const cJSON *pl, int js)
{
	int seat = seat_of(v, js), res[5], dev[5], dev_new[5], played[5], rc;
	ms_catan_player *p = &s->p[seat];
	if ((rc = place_pieces(v, s, pl, seat)) < 0 || (rc = get_counts(v, pl, "res", 5, res)) < 0 ||
	    (rc = get_counts(v, pl, "dev", 5, dev)) < 0 || (rc = get_counts(v, pl, "dev_new", 5, dev_new)) < 0 ||
	    (rc = get_counts(v, pl, "played", 5, played)) < 0)
		return rc;
	for (int r = 0; r < 5; r++) {
		p->res[from_js[r]] = (int16_t)res[r];
		p->dev[r] = (uint8_t)dev[r];
		p->dev_new[r] = (uint8_t)(dev_new[r] < dev[r] ? dev_new[r] : dev[r]);
		p->played[r] = (uint8_t)played[r];
	}
	components(s, seat);
	p->longest = (uint8_t)catan__thesis_longest(s, seat);
	s->road_len[seat] = p->longest;
	return MS_OK;
}

/* Titles, victory points, the deck and whose decision it is. */
static int finish_state(js_view *v, const cJSON *snap, ms_catan_state *s, int state)
{
	int deck[5], rc, cur = get_int(snap, "current", -1), me = get_int(snap, "me", -1);
	int lr = get_int(snap, "longest", -1), la = get_int(snap, "largest", -1), robber = get_int(snap, "robber", -1);
	if (cur < 0 || cur >= v->n || me < 0 || me >= v->n || lr >= v->n || la >= v->n)
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: seats current=%d me=%d longest=%d largest=%d", cur, me, lr,
				    la);
	if ((rc = get_counts(v, snap, "deck", 5, deck)) < 0)
		return rc;
	s->deck_len = 0;
	for (int c = 0; c < 5; c++) {
		s->deck_count[c] = (uint8_t)deck[c];
		for (int i = 0; i < deck[c] && s->deck_len < 25; i++)
			s->deck[s->deck_len++] = (uint8_t)c;
	}
	if (lr >= 0)
		s->p[seat_of(v, lr)].has_road = 1, s->road_holder = (int8_t)seat_of(v, lr);
	if (la >= 0)
		s->p[seat_of(v, la)].has_army = 1;
	for (int p = 0; p < v->n; p++) {
		ms_catan_player *pl = &s->p[p];
		pl->vp = (int16_t)(pl->vp + 2 * pl->has_road + 2 * pl->has_army);
		pl->actual_vp = (int16_t)(pl->vp + pl->dev[MS_CATAN_VP_CARD]);
	}
	s->road_length = s->road_holder >= 0 ? s->road_len[s->road_holder] : 0;
	s->robber = 255;
	for (int h = 0; h < MS_CATAN_HEXES; h++)
		if (v->hex_coord[h] == robber)
			s->robber = (uint8_t)h;
	if (s->robber == 255)
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: the robber's hex %d (0x%x) is not a land hex", robber,
				    (unsigned)robber);
	s->turn_seat = (uint8_t)seat_of(v, cur);
	s->cur = (uint8_t)seat_of(v, me);
	s->initial_phase = state < JS_ROLL_OR_CARD;
	s->turns = (int16_t)(2 * (v->n - 1) + get_int(snap, "turns", 0));
	s->p[s->turn_seat].has_rolled = (uint8_t)(state == JS_PLAY1 || get_int(snap, "rolled", 0));
	s->p[s->turn_seat].played_dev = (uint8_t)get_int(snap, "played_dev", 0);
	if (state == JS_FREE_ROAD1 || state == JS_FREE_ROAD2)
		s->road_building = 1, s->free_roads = (uint8_t)(state == JS_FREE_ROAD1 ? 2 : 1);
	if (s->prompt == MS_CATAN_P_INITIAL_ROAD) {
		int node = node_of(v, get_int(snap, "last_settlement", -1));
		if (node < 0 || s->node_owner[node] != s->cur + 1)
			return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: placing a setup road without our last settlement");
		s->p[s->cur].last_settlement = (uint8_t)node;
	}
	return MS_OK;
}

/* The thesis's rules where the server plays them: every player over the
 * limit discards (the server asks each), Longest Road as the server awards
 * it, so from the first road on; the rest as in the thesis's searches. */
static void js_rules(ms_catan_rules *r)
{
	ms_catan_rules_profile(r, MS_CATAN_PROFILE_THESIS);
	r->discard_by_roller = 0;
	r->road_lr_from_vp = 0;
}

static int js_state(js_view *v, const cJSON *snap, ms_catan_state *s)
{
	ms_catan_rules rules;
	const cJSON *players = cJSON_GetObjectItemCaseSensitive(snap, "players"), *pl;
	int rc, js = 0, state = get_int(snap, "state", -1);
	js_rules(&rules);
	v->first = get_int(snap, "first", -1);
	v->n = cJSON_GetArraySize(players);
	if (!cJSON_IsArray(players) || v->n < 2 || v->n > MS_CATAN_MAX_PLAYERS || v->first < 0 || v->first >= v->n)
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: a snapshot needs \"players\" (2-4) and \"first\"");
	if ((rc = ms_catan_init(v->ctx, s, v->b, &rules, v->n, NULL, NULL)) < 0 || (rc = prompt_of(v, state, s)) < 0)
		return rc;
	cJSON_ArrayForEach(pl, players)
	{
		if ((rc = one_player(v, s, pl, js++)) < 0)
			return rc;
	}
	return finish_state(v, snap, s, state);
}

static void put_res(cJSON *o, const char *key, const int ours[5])
{
	int js[5];
	for (int r = 0; r < 5; r++)
		js[to_js[r]] = ours[r];
	cJSON_AddItemToObject(o, key, cJSON_CreateIntArray(js, 5));
}

/* The action in JSettlers's terms: {"do": ..., coordinates, seats, resource
 * counts in its order}. */
static cJSON *answer(const js_view *v, const ms_catan_action *a)
{
	static const char *const names[MS_CATAN_ACTION_TYPES] = { "roll", "robber", "discard", "road", "settlement", "city",
								  "buy", "knight", "yop", "monopoly", "roadbuilding",
								  "trade", "end", "trade" };
	cJSON *o = cJSON_CreateObject();
	int give[5] = { 0 }, get[5] = { 0 };
	cJSON_AddStringToObject(o, "do", names[a->type]);
	switch (a->type) {
	case MS_CATAN_MOVE_ROBBER:
		cJSON_AddNumberToObject(o, "coord", v->hex_coord[a->v[0]]);
		cJSON_AddNumberToObject(o, "victim", a->v[1] >= 0 ? js_seat(v, a->v[1]) : -1);
		break;
	case MS_CATAN_DISCARD:
		for (int r = 0; r < 5; r++)
			give[r] = a->v[r];
		put_res(o, "res", give);
		break;
	case MS_CATAN_BUILD_ROAD:
		cJSON_AddNumberToObject(o, "coord", edge_coord(v, a->v[0]));
		break;
	case MS_CATAN_BUILD_SETTLEMENT:
	case MS_CATAN_BUILD_CITY:
		cJSON_AddNumberToObject(o, "coord", v->node_coord[a->v[0]]);
		break;
	case MS_CATAN_PLAY_YOP: /* a single card (a bank short of pairs) is asked twice: the server wants two */
		get[a->v[0]]++;
		get[a->v[1] >= 0 ? a->v[1] : a->v[0]]++;
		put_res(o, "res", get);
		break;
	case MS_CATAN_PLAY_MONOPOLY:
		cJSON_AddNumberToObject(o, "res", to_js[a->v[0]] + 1);
		break;
	case MS_CATAN_MARITIME_TRADE:
		give[a->v[0]] = a->v[1];
		get[a->v[2]] = 1;
		put_res(o, "give", give);
		put_res(o, "get", get);
		break;
	case MS_CATAN_BANK_TRADE:
		for (int r = 0; r < 5; r++)
			give[r] = a->v[r], get[r] = a->w[r];
		put_res(o, "give", give);
		put_res(o, "get", get);
		break;
	default:
		break;
	}
	return o;
}

/* One decision: the agent's action, its open outcome drawn (a discard's
 * cards), in JSettlers's terms. */
static int decide(js_view *v, ms_catan_agent *agent, const cJSON *snap, uint64_t *rng, cJSON **out)
{
	ms_catan_state s, t;
	ms_catan_action a, done, legal[MS_CATAN_MAX_ACTIONS];
	int rc;
	if ((rc = js_state(v, snap, &s)) < 0)
		return rc;
	if (ms_catan_legal(&s, legal) == 0) {
		*out = cJSON_CreateObject();
		cJSON_AddStringToObject(*out, "do", "none");
		return MS_OK;
	}
	if ((rc = ms_catan_agent_act(v->ctx, agent, &s, &a)) < 0)
		return rc;
	if (a.type == MS_CATAN_DISCARD && a.v[0] < 0) {
		t = s;
		if ((rc = ms_catan_apply(v->ctx, &t, &a, rng, &done)) < 0)
			return rc;
		a = done;
	}
	*out = answer(v, &a);
	return MS_OK;
}

static int serve_line(js_view *v, ms_catan_board **board, ms_catan_agent *agent, const cJSON *j, uint64_t *rng,
		      cJSON **out)
{
	const cJSON *layout = cJSON_GetObjectItemCaseSensitive(j, "layout");
	int rc;
	if (cJSON_IsString(layout)) {
		ms_catan_board_free(*board);
		*board = NULL;
		if ((rc = ms_catan_board_from_layout(v->ctx, board, layout->valuestring, strlen(layout->valuestring))) < 0)
			return rc;
		v->b = *board;
		if ((rc = catan__js_coords(v->b, v->hex_coord, v->node_coord)) < 0)
			return ms_ctx_error(v->ctx, rc, "jsettlers: the board is not on the standard frame");
		*out = cJSON_CreateObject();
		cJSON_AddItemToObject(*out, "nodes", cJSON_CreateIntArray(v->node_coord, MS_CATAN_NODES));
		return MS_OK;
	}
	if (!v->b)
		return ms_ctx_error(v->ctx, MS_EPARSE, "jsettlers: a snapshot before the board's \"layout\"");
	return decide(v, agent, j, rng, out);
}

int ms_catan_js_serve(ms_ctx *ctx, const char *agent_spec, uint64_t seed, FILE *in, FILE *out)
{
	js_view v;
	ms_catan_board *board = NULL;
	ms_catan_agent *agent = NULL;
	ms_buf line;
	uint64_t rng = ~seed; /* the discards' draws, apart from the agent's own */
	int rc, got;
	memset(&v, 0, sizeof v);
	v.ctx = ctx;
	if ((rc = ms_catan_agent_new(ctx, &agent, agent_spec, seed)) < 0)
		return rc;
	ms_buf_init(&line, ctx);
	while (rc == MS_OK && (got = ms_buf_read_line(&line, in)) != 0) {
		cJSON *j = got > 0 ? cJSON_Parse(line.data) : NULL, *o = NULL;
		if (got < 0)
			rc = ms_ctx_error(ctx, got, "jsettlers: out of memory for a line");
		else if (!j)
			rc = ms_ctx_error(ctx, MS_EPARSE, "jsettlers: a line is not JSON");
		else
			rc = serve_line(&v, &board, agent, j, &rng, &o);
		if (o) {
			char *text = cJSON_PrintUnformatted(o);
			fprintf(out, "%s\n", text ? text : "{}");
			fflush(out);
			cJSON_free(text);
			cJSON_Delete(o);
		}
		cJSON_Delete(j);
	}
	ms_buf_dispose(&line);
	ms_catan_board_free(board);
	ms_catan_agent_free(agent);
	return rc;
}
