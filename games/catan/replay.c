/* Replaying catanatron 3.2.1 recordings (../shared/data/catan/README.md):
 * the legal set and the state digest are rebuilt in catanatron's JSON
 * spelling and compared as text with the recording, step by step. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "catan_internal.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/json.h"

int catan__board_from_cjson(ms_ctx *ctx, const void *obj, ms_catan_board **out);

static const char *const type_name[MS_CATAN_ACTION_TYPES] = {
	"ROLL", "MOVE_ROBBER", "DISCARD", "BUILD_ROAD", "BUILD_SETTLEMENT", "BUILD_CITY", "BUY_DEVELOPMENT_CARD",
	"PLAY_KNIGHT_CARD", "PLAY_YEAR_OF_PLENTY", "PLAY_MONOPOLY", "PLAY_ROAD_BUILDING", "MARITIME_TRADE", "END_TURN", "BANK_TRADE"
};
static const char *const prompt_name[] = { "BUILD_INITIAL_SETTLEMENT", "BUILD_INITIAL_ROAD", "PLAY_TURN", "DISCARD",
					   "MOVE_ROBBER", "OVER" };

typedef struct replay {
	ms_ctx *ctx;
	const char *path;
	ms_catan_board *board;
	ms_catan_state s;
	char colors[MS_CATAN_MAX_PLAYERS][16];
	void (*report)(void *ud, const char *line);
	void *ud;
} replay;

static void say(replay *r, const char *fmt, ...) MS_PRINTF(2, 3);
static void say(replay *r, const char *fmt, ...)
{
	char line[1400];
	va_list ap;
	int k = snprintf(line, sizeof line, "%s: ", r->path);
	va_start(ap, fmt);
	vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
	va_end(ap);
	if (r->report)
		r->report(r->ud, line);
}

/* An action (legal form: no outcome) in catanatron's compact JSON. */
static int action_json(const replay *r, const ms_catan_action *a, char *out, size_t cap)
{
	const ms_catan_board *b = r->s.board;
	int k = snprintf(out, cap, "[\"%s\",\"%s\",", r->colors[a->seat], type_name[a->type]);
	char *p = out + k;
	size_t left = cap - (size_t)k;
	switch (a->type) {
	case MS_CATAN_MOVE_ROBBER:
		if (a->v[1] >= 0)
			snprintf(p, left, "[[%d,%d,%d],\"%s\",null]]", b->cube[a->v[0]][0], b->cube[a->v[0]][1],
				 b->cube[a->v[0]][2], r->colors[a->v[1]]);
		else
			snprintf(p, left, "[[%d,%d,%d],null,null]]", b->cube[a->v[0]][0], b->cube[a->v[0]][1],
				 b->cube[a->v[0]][2]);
		break;
	case MS_CATAN_BUILD_ROAD:
		snprintf(p, left, "[%d,%d]]", b->edge_a[a->v[0]], b->edge_b[a->v[0]]);
		break;
	case MS_CATAN_BUILD_SETTLEMENT:
	case MS_CATAN_BUILD_CITY:
		snprintf(p, left, "%d]", a->v[0]);
		break;
	case MS_CATAN_PLAY_YOP:
		if (a->v[1] >= 0)
			snprintf(p, left, "[\"%s\",\"%s\"]]", catan__res_name[a->v[0]], catan__res_name[a->v[1]]);
		else
			snprintf(p, left, "[\"%s\"]]", catan__res_name[a->v[0]]);
		break;
	case MS_CATAN_PLAY_MONOPOLY:
		snprintf(p, left, "\"%s\"]", catan__res_name[a->v[0]]);
		break;
	case MS_CATAN_MARITIME_TRADE: {
		int m = snprintf(p, left, "[");
		for (int i = 0; i < 4; i++)
			m += snprintf(p + m, left - (size_t)m, i < a->v[1] ? "\"%s\"," : "null,", catan__res_name[a->v[0]]);
		snprintf(p + m, left - (size_t)m, "\"%s\"]]", catan__res_name[a->v[2]]);
		break;
	}
	default:
		snprintf(p, left, "null]");
	}
	return MS_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_texts(ms_ctx *ctx, char **t, int m)
{
	for (int i = 0; t && i < m; i++)
		cJSON_free(t[i]);
	ms_ctx_mfree(ctx, t);
}

/* The recorded list's m entries as compact JSON texts (free with
 * free_texts), or NULL when out of memory. */
static char **recorded_texts(ms_ctx *ctx, const cJSON *list, int m)
{
	char **t = ms_ctx_calloc(ctx, (size_t)m + 1, sizeof *t);
	int k = 0;
	for (const cJSON *e = list ? list->child : NULL; t && e && k < m; e = e->next)
		if (!(t[k++] = cJSON_PrintUnformatted(e))) {
			free_texts(ctx, t, k);
			return NULL;
		}
	return t;
}

/* Compares our legal set with the recorded list; 1 if equal, 0 if not, <0 on an error. */
static int legal_equal(replay *r, const cJSON *legal, long step)
{
	enum { W = 96 };
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	char mine[MS_CATAN_MAX_ACTIONS][W], *ours[MS_CATAN_MAX_ACTIONS];
	int n = ms_catan_legal(&r->s, acts), m = cJSON_GetArraySize(legal), ok = 1;
	char **theirs = recorded_texts(r->ctx, legal, m);
	if (!theirs)
		return ms_ctx_error(r->ctx, MS_ENOMEM, "%s: step %ld: out of memory for the legal list", r->path, step);
	for (int i = 0; i < n; i++) {
		ours[i] = mine[i];
		action_json(r, &acts[i], ours[i], (size_t)W);
	}
	qsort(ours, (size_t)n, sizeof *ours, cmp_str);
	qsort(theirs, (size_t)m, sizeof *theirs, cmp_str);
	int i = 0, j = 0;
	while (i < n || j < m) {
		int c = i >= n ? 1 : j >= m ? -1 : strcmp(ours[i], theirs[j] ? theirs[j] : "");
		if (c == 0) {
			i++, j++;
			continue;
		}
		if (ok)
			say(r, "step %ld: legal set differs (%d ours, %d recorded)", step, n, m);
		ok = 0;
		say(r, "  %s %s", c < 0 ? "only ours:" : "only recorded:", c < 0 ? ours[i] : theirs[j]);
		if (c < 0)
			i++;
		else
			j++;
	}
	free_texts(r->ctx, theirs, m);
	return ok;
}

static void digest(const replay *r, ms_buf *o)
{
	const ms_catan_state *s = &r->s;
	const int8_t *rc = s->board->cube[s->robber];
	ms_buf_printf(o, "{\"cur\":%d,\"turn_idx\":%d,\"prompt\":\"%s\",\"turns\":%d,\"robber\":[%d,%d,%d],", s->cur,
		      s->turn_seat, prompt_name[s->prompt], s->turns, rc[0], rc[1], rc[2]);
	ms_buf_printf(o, "\"bank\":[%d,%d,%d,%d,%d],\"devdeck\":%d,\"free_roads\":%d,", s->bank[0], s->bank[1],
		      s->bank[2], s->bank[3], s->bank[4], s->deck_len, s->road_building ? s->free_roads : 0);
	if (s->road_holder >= 0)
		ms_buf_printf(o, "\"road\":[\"%s\",%d],\"players\":[", r->colors[s->road_holder], s->road_length);
	else
		ms_buf_printf(o, "\"road\":[null,%d],\"players\":[", s->road_length);
	for (int i = 0; i < s->n; i++) {
		const ms_catan_player *p = &s->p[i];
		static const char *const tf[2] = { "false", "true" };
		ms_buf_printf(o, "%s[%d,%d,%d,%d,%s,%s,%s,%s,%d,%d,%d,%d,%d,%d,%d", i ? "," : "", p->vp, p->roads_left,
			      p->settlements_left, p->cities_left, tf[p->has_road], tf[p->has_army], tf[p->has_rolled],
			      tf[p->played_dev], p->actual_vp, p->longest, p->res[0], p->res[1], p->res[2], p->res[3],
			      p->res[4]);
		for (int c = 0; c < 5; c++)
			ms_buf_printf(o, ",%d,%d", p->dev[c], p->played[c]);
		ms_buf_printf(o, "]");
	}
	ms_buf_printf(o, "],\"buildings\":[");
	int first = 1;
	for (int n = 0; n < MS_CATAN_NODES; n++)
		if (s->node_owner[n]) {
			ms_buf_printf(o, "%s[%d,\"%s\",\"%s\"]", first ? "" : ",", n, r->colors[s->node_owner[n] - 1],
				      s->node_city[n] ? "CITY" : "SETTLEMENT");
			first = 0;
		}
	ms_buf_printf(o, "],\"roads\":[");
	first = 1;
	/* sorted by (a, b): scan node pairs in order */
	for (int a = 0; a < MS_CATAN_NODES; a++)
		for (int c = a + 1; c < MS_CATAN_NODES; c++) {
			int e = ms_catan_board_edge_of(s->board, a, c);
			if (e >= 0 && s->edge_owner[e]) {
				ms_buf_printf(o, "%s[%d,%d,\"%s\"]", first ? "" : ",", a, c, r->colors[s->edge_owner[e] - 1]);
				first = 0;
			}
		}
	ms_buf_printf(o, "]}");
}

static int digest_equal(replay *r, const cJSON *want, long step)
{
	ms_buf mine;
	ms_buf_init(&mine, r->ctx);
	digest(r, &mine);
	char *theirs = cJSON_PrintUnformatted(want);
	int ok = theirs && mine.data && !strcmp(mine.data, theirs);
	if (!ok && theirs && mine.data) {
		size_t i = 0;
		while (mine.data[i] && mine.data[i] == theirs[i])
			i++;
		size_t from = i > 60 ? i - 60 : 0;
		say(r, "step %ld: digest differs at byte %zu:\n  ours:     ...%.140s\n  recorded: ...%.140s", step, i,
		    mine.data + from, theirs + from);
	}
	cJSON_free(theirs);
	ms_buf_dispose(&mine);
	return ok;
}

static int seat_of(const replay *r, const cJSON *c)
{
	for (int i = 0; cJSON_IsString(c) && i < r->s.n; i++)
		if (!strcmp(c->valuestring, r->colors[i]))
			return i;
	return -1;
}

static int res_of(const cJSON *c)
{
	for (int i = 0; cJSON_IsString(c) && i < 5; i++)
		if (!strcmp(c->valuestring, catan__res_name[i]))
			return i;
	return -1;
}

static int hex_of(const replay *r, const cJSON *co)
{
	for (int h = 0; cJSON_GetArraySize(co) == 3 && h < MS_CATAN_HEXES; h++) {
		int k = 0;
		while (k < 3 && cJSON_IsNumber(cJSON_GetArrayItem(co, k)) &&
		       cJSON_GetArrayItem(co, k)->valueint == r->s.board->cube[h][k])
			k++;
		if (k == 3)
			return h;
	}
	return -1;
}

static int type_of(const cJSON *t)
{
	for (int i = 0; cJSON_IsString(t) && i < MS_CATAN_ACTION_TYPES; i++)
		if (!strcmp(t->valuestring, type_name[i]))
			return i;
	return -1;
}

/* The recorded action with its outcome, as one of ours. */
static int parse_value(replay *r, const cJSON *v, ms_catan_action *a)
{
	const cJSON *x;
	int i = 0;
	switch (a->type) {
	case MS_CATAN_ROLL:
		a->v[0] = (int8_t)(cJSON_GetArrayItem(v, 0) ? cJSON_GetArrayItem(v, 0)->valueint : 0);
		a->v[1] = (int8_t)(cJSON_GetArrayItem(v, 1) ? cJSON_GetArrayItem(v, 1)->valueint : 0);
		return a->v[0] >= 1 && a->v[0] <= 6 && a->v[1] >= 1 && a->v[1] <= 6 ? 0 : -1;
	case MS_CATAN_DISCARD:
		memset(a->v, 0, sizeof a->v);
		cJSON_ArrayForEach(x, v)
		{
			int k = res_of(x);
			if (k < 0)
				return -1;
			a->v[k]++;
		}
		return cJSON_IsArray(v) ? 0 : -1;
	case MS_CATAN_MOVE_ROBBER:
		a->v[0] = (int8_t)hex_of(r, cJSON_GetArrayItem(v, 0));
		x = cJSON_GetArrayItem(v, 1);
		a->v[1] = (int8_t)(cJSON_IsNull(x) ? -1 : seat_of(r, x));
		x = cJSON_GetArrayItem(v, 2);
		a->v[2] = (int8_t)(cJSON_IsNull(x) ? -1 : res_of(x));
		return a->v[0] >= 0 && (a->v[1] >= 0 || cJSON_IsNull(cJSON_GetArrayItem(v, 1))) ? 0 : -1;
	case MS_CATAN_BUILD_ROAD:
		if (!cJSON_IsNumber(cJSON_GetArrayItem(v, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(v, 1)))
			return -1;
		a->v[0] = (int8_t)ms_catan_board_edge_of(r->s.board, cJSON_GetArrayItem(v, 0)->valueint,
							 cJSON_GetArrayItem(v, 1)->valueint);
		return a->v[0] >= 0 ? 0 : -1;
	case MS_CATAN_BUILD_SETTLEMENT:
	case MS_CATAN_BUILD_CITY:
		a->v[0] = (int8_t)(cJSON_IsNumber(v) && v->valueint >= 0 && v->valueint < MS_CATAN_NODES ? v->valueint : -1);
		return a->v[0] >= 0 ? 0 : -1;
	case MS_CATAN_BUY_DEV:
		for (i = 0; i < 5 && !(cJSON_IsString(v) && !strcmp(v->valuestring, catan__dev_name[i])); i++)
			;
		a->v[0] = (int8_t)i;
		return i < 5 ? 0 : -1;
	case MS_CATAN_PLAY_YOP:
		a->v[0] = (int8_t)res_of(cJSON_GetArrayItem(v, 0));
		a->v[1] = (int8_t)(cJSON_GetArraySize(v) > 1 ? res_of(cJSON_GetArrayItem(v, 1)) : -1);
		return a->v[0] >= 0 ? 0 : -1;
	case MS_CATAN_PLAY_MONOPOLY:
		a->v[0] = (int8_t)res_of(v);
		return a->v[0] >= 0 ? 0 : -1;
	case MS_CATAN_MARITIME_TRADE:
		a->v[1] = 0;
		for (i = 0; i < 4; i++)
			if (!cJSON_IsNull(cJSON_GetArrayItem(v, i)))
				a->v[0] = (int8_t)res_of(cJSON_GetArrayItem(v, i)), a->v[1]++;
		a->v[2] = (int8_t)res_of(cJSON_GetArrayItem(v, 4));
		return a->v[0] >= 0 && a->v[2] >= 0 ? 0 : -1;
	default:
		return 0;
	}
}

static int parse_act(replay *r, const cJSON *act, ms_catan_action *a)
{
	memset(a, 0, sizeof *a);
	memset(a->v, -1, sizeof a->v);
	memset(a->w, 0, sizeof a->w);
	int seat = seat_of(r, cJSON_GetArrayItem(act, 0)), type = type_of(cJSON_GetArrayItem(act, 1));
	if (seat < 0 || type < 0)
		return -1;
	a->seat = (uint8_t)seat;
	a->type = (uint8_t)type;
	return parse_value(r, cJSON_GetArrayItem(act, 2), a);
}

/* An optional integer field of the header in [lo, hi]: 0 when absent. */
static int header_int(replay *r, const cJSON *h, const char *key, int lo, int hi, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, key);
	int x;
	if (!v)
		return 0;
	if (ms_json_as_int(r->ctx, r->path, key, v, &x) < 0 || x < lo || x > hi)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: \"%s\" must be an integer in [%d, %d]", r->path, key,
				    lo, hi);
	*out = x;
	return 1;
}

/* The header's rule fields, honoured (a game recorded to 8 VP replays to 8)
 * or refused by name; the format, when given, must be the one we read. */
static int header_rules(replay *r, const cJSON *h, int n, ms_catan_rules *rules)
{
	static const char format[] = "catanatron-3.2.1-steps/1";
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(h, "format");
	int players = n, rc;
	if (f && (!cJSON_IsString(f) || strcmp(f->valuestring, format)))
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: \"format\" is not \"%s\"", r->path, format);
	if ((rc = header_int(r, h, "num_players", 2, MS_CATAN_MAX_PLAYERS, &players)) < 0)
		return rc;
	if (players != n)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: \"num_players\" is %d but \"colors\" lists %d",
				    r->path, players, n);
	if ((rc = header_int(r, h, "vps_to_win", 1, 1000, &rules->vps_to_win)) < 0 ||
	    (rc = header_int(r, h, "discard_limit", 0, 1000, &rules->discard_limit)) < 0 ||
	    (rc = header_int(r, h, "turns_limit", 1, 1000000, &rules->turns_limit)) < 0)
		return rc;
	return MS_OK;
}

/* The header: colours, board, deck order, rules, start digest. */
static int start_game(replay *r, const cJSON *h, long *diverged)
{
	const cJSON *colors = cJSON_GetObjectItemCaseSensitive(h, "colors");
	const cJSON *deck = cJSON_GetObjectItemCaseSensitive(h, "devdeck_order");
	ms_catan_rules rules;
	uint8_t order[25];
	int n = cJSON_GetArraySize(colors), rc;
	if (!cJSON_IsArray(colors) || n < 2 || n > MS_CATAN_MAX_PLAYERS)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: \"colors\" must list 2-4 colours", r->path);
	for (int i = 0; i < n; i++) {
		const cJSON *c = cJSON_GetArrayItem(colors, i);
		if (!cJSON_IsString(c) || strlen(c->valuestring) >= sizeof r->colors[i])
			return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: bad colour %d", r->path, i);
		strcpy(r->colors[i], c->valuestring);
	}
	if (deck && cJSON_GetArraySize(deck) != 25)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: \"devdeck_order\" must hold 25 cards", r->path);
	for (int k = 0; deck && k < 25; k++) {
		const cJSON *c = cJSON_GetArrayItem(deck, k);
		int t = 0;
		while (t < 5 && !(cJSON_IsString(c) && !strcmp(c->valuestring, catan__dev_name[t])))
			t++;
		if (t == 5)
			return ms_ctx_error(r->ctx, MS_EPARSE, "%s: header: unknown card in \"devdeck_order\"", r->path);
		order[k] = (uint8_t)t;
	}
	if ((rc = catan__board_from_cjson(r->ctx, h, &r->board)) < 0)
		return ms_ctx_error(r->ctx, rc, "%s: header: %s", r->path, ms_ctx_last_error(r->ctx));
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_CATANATRON);
	if ((rc = header_rules(r, h, n, &rules)) < 0)
		return rc;
	if ((rc = ms_catan_init(r->ctx, &r->s, r->board, &rules, n, deck ? order : NULL, NULL)) < 0)
		return rc;
	if (!digest_equal(r, cJSON_GetObjectItemCaseSensitive(h, "start"), -1))
		(*diverged)++;
	return MS_OK;
}

static int end_matches(replay *r, const cJSON *e, long steps)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(e, "winner");
	const cJSON *turns = cJSON_GetObjectItemCaseSensitive(e, "turns");
	int want = cJSON_IsNull(w) ? -1 : seat_of(r, w);
	if (!ms_catan_over(&r->s) || want != r->s.winner || !cJSON_IsNumber(turns) || turns->valueint != r->s.turns) {
		say(r, "end after %ld steps: over=%d winner %d (recorded %d), turns %d", steps, ms_catan_over(&r->s),
		    r->s.winner, want, r->s.turns);
		return 0;
	}
	return 1;
}

/* legal[pick] must be the act without its chance outcome (catanatron's own
 * verifier's second check): 1 if so, 0 (said) if not, <0 on a bad field. */
static int pick_matches(replay *r, const cJSON *line, const ms_catan_action *a, long i)
{
	const cJSON *legal = cJSON_GetObjectItemCaseSensitive(line, "legal");
	const cJSON *pick = cJSON_GetObjectItemCaseSensitive(line, "pick");
	char mine[128];
	int m = cJSON_GetArraySize(legal), k;
	if (ms_json_as_int(r->ctx, r->path, "pick", pick, &k) < 0 || k < 0 || k >= m)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: step %ld: \"pick\" must index \"legal\" (%d actions)", r->path,
				    i, m);
	action_json(r, a, mine, sizeof mine);
	char *theirs = cJSON_PrintUnformatted(cJSON_GetArrayItem(legal, k));
	if (!theirs)
		return ms_ctx_error(r->ctx, MS_ENOMEM, "%s: step %ld: out of memory", r->path, i);
	int same = !strcmp(mine, theirs);
	if (!same)
		say(r, "step %ld: pick %d names %s, but the act is %s", i, k, theirs, mine);
	cJSON_free(theirs);
	return same;
}

/* One step line; returns 1 to go on, 0 at a divergence, <0 on bad input. */
static int step(replay *r, const cJSON *line, long i, ms_catan_replay_stats *st)
{
	const cJSON *act = cJSON_GetObjectItemCaseSensitive(line, "act");
	ms_catan_action a;
	uint64_t none = 0;
	int same;
	if (ms_catan_over(&r->s)) {
		say(r, "step %ld: the game is already over here", i);
		return 0;
	}
	if ((same = legal_equal(r, cJSON_GetObjectItemCaseSensitive(line, "legal"), i)) < 0)
		return same;
	st->legal_mismatches += !same;
	if (parse_act(r, act, &a) < 0)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s: step %ld: unreadable \"act\"", r->path, i);
	if ((same = pick_matches(r, line, &a, i)) <= 0)
		return same;
	if (ms_catan_apply(r->ctx, &r->s, &a, &none, NULL) < 0) {
		say(r, "step %ld: %s", i, ms_ctx_last_error(r->ctx));
		return 0;
	}
	if (!digest_equal(r, cJSON_GetObjectItemCaseSensitive(line, "after"), i))
		return 0;
	return 1;
}

static int replay_text(replay *r, char *text, ms_catan_replay_stats *st)
{
	long i = 0, div = 0;
	int rc = MS_OK, ended = 0;
	char *line = text, *nl;
	for (long lineno = 1; line && *line; lineno++, line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!*line)
			continue;
		cJSON *j = cJSON_Parse(line);
		if (!j) {
			rc = ms_ctx_error(r->ctx, MS_EPARSE, "%s: line %ld: not valid JSON", r->path, lineno);
			break;
		}
		if (lineno == 1) {
			rc = start_game(r, j, &div);
		} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "end"))) {
			div += !end_matches(r, j, i);
			ended = 1;
		} else {
			int k = step(r, j, i++, st);
			if (k <= 0) {
				div++;
				rc = k < 0 ? k : MS_OK;
				ended = 1;
				cJSON_Delete(j);
				break;
			}
		}
		cJSON_Delete(j);
		if (rc < 0 || div)
			break;
	}
	if (rc == MS_OK && !ended && !div)
		div += (say(r, "no end line"), 1);
	st->steps += i;
	st->divergences += div;
	return rc;
}

int ms_catan_replay_file(ms_ctx *ctx, const char *path, ms_catan_replay_stats *stats,
			 void (*report)(void *ud, const char *line), void *ud)
{
	replay r;
	char *text;
	size_t len;
	int rc;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.path = path;
	r.report = report;
	r.ud = ud;
	/* recordings run to 4 MB; 1 GiB bounds a damaged one */
	if ((rc = ms_read_file(ctx, path, "recording", (size_t)1 << 30, &text, &len)) < 0)
		return rc;
	rc = replay_text(&r, text, stats);
	if (rc == MS_OK)
		stats->games++;
	ms_catan_board_free(r.board);
	ms_ctx_mfree(ctx, text);
	return rc;
}

/* ---- the bridge: our agent inside catanatron's own game loop -------------- */

/* Our action as one of catanatron's legal ones: the same text, else the
 * nearest equivalent (a one-lot bank trade is a maritime trade, Year of
 * Plenty pairs are unordered, a robber move keeps its hex). */
static int match_legal(replay *r, const ms_catan_action *a, char **legal, int m)
{
	char mine[128];
	ms_catan_action x = *a;
	if (x.type == MS_CATAN_BANK_TRADE) {
		int give = -1, get = -1, lots = 0;
		for (int k = 0; k < 5; k++) {
			if (x.v[k] > 0)
				give = k, lots++;
			if (x.w[k] > 0)
				get = k, lots++;
		}
		x.type = MS_CATAN_MARITIME_TRADE;
		x.v[0] = (int8_t)give, x.v[1] = give >= 0 ? a->v[give] : 0, x.v[2] = (int8_t)get;
		if (lots != 2 || give == get)
			x.type = MS_CATAN_END_TURN;
	}
	if (x.type == MS_CATAN_PLAY_YOP && x.v[1] >= 0 && x.v[1] < x.v[0]) {
		int8_t t = x.v[0];
		x.v[0] = x.v[1], x.v[1] = t;
	}
	for (int pass = 0; pass < 2; pass++) {
		action_json(r, &x, mine, sizeof mine);
		for (int i = 0; i < m; i++)
			if (!strcmp(mine, legal[i]))
				return i;
		if (x.type != MS_CATAN_MOVE_ROBBER)
			break;
		x.v[1] = -1; /* no victim there after all */
	}
	if (x.type == MS_CATAN_MOVE_ROBBER || x.type == MS_CATAN_MARITIME_TRADE) {
		/* any legal action of the same type and hex/resource */
		char prefix[128];
		action_json(r, &x, prefix, sizeof prefix);
		size_t cut = strcspn(prefix + 2, "[") + 3;
		for (int i = 0; i < m; i++)
			if (!strncmp(prefix, legal[i], cut < strlen(prefix) ? cut : strlen(prefix)))
				return i;
	}
	return -1;
}

/* One decision message: {"start": header (first time), "actions": [...], "legal": [...]}. */
static int serve_line(replay *r, ms_catan_agent *agent, const cJSON *j, int *pick, long *fallbacks)
{
	const cJSON *start = cJSON_GetObjectItemCaseSensitive(j, "start"), *x;
	const cJSON *legal = cJSON_GetObjectItemCaseSensitive(j, "legal");
	long dummy = 0;
	int rc;
	if (start && (rc = start_game(r, start, &dummy)) < 0)
		return rc;
	if (!r->board)
		return ms_ctx_error(r->ctx, MS_EPARSE, "bridge: the first message needs \"start\"");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(j, "actions"))
	{
		ms_catan_action a;
		uint64_t none = 0;
		if (parse_act(r, x, &a) < 0 || ms_catan_apply(r->ctx, &r->s, &a, &none, NULL) < 0)
			return ms_ctx_error(r->ctx, MS_EPARSE, "bridge: cannot apply a logged action (%s)",
					    ms_ctx_last_error(r->ctx));
	}
	int same = legal_equal(r, legal, -1);
	if (same < 0)
		return same;
	if (!same)
		(*fallbacks) += 1000000; /* a different legal set: the replica is wrong */
	int m = cJSON_GetArraySize(legal);
	char **texts = recorded_texts(r->ctx, legal, m);
	if (!texts)
		return ms_ctx_error(r->ctx, MS_ENOMEM, "bridge: out of memory");
	ms_catan_action a;
	rc = ms_catan_agent_act(r->ctx, agent, &r->s, &a);
	*pick = rc < 0 ? -1 : match_legal(r, &a, texts, m);
	if (rc == MS_OK && *pick < 0) {
		(*fallbacks)++;
		*pick = 0;
	}
	free_texts(r->ctx, texts, m);
	return rc;
}

int ms_catan_serve(ms_ctx *ctx, const char *agent_spec, uint64_t seed, FILE *in, FILE *out, long *fallbacks)
{
	replay r;
	ms_catan_agent *agent = NULL;
	ms_buf line;
	int rc = MS_OK, got;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.path = "bridge";
	*fallbacks = 0;
	if ((rc = ms_catan_agent_new(ctx, &agent, agent_spec, seed)) < 0)
		return rc;
	ms_buf_init(&line, ctx);
	while (rc == MS_OK && (got = ms_buf_read_line(&line, in)) != 0) {
		if (got < 0) {
			rc = ms_ctx_error(ctx, got, "bridge: out of memory for a line");
			break;
		}
		cJSON *j = cJSON_Parse(line.data);
		int pick = -1;
		if (!j) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "bridge: a line is not JSON");
			break;
		}
		if (cJSON_GetObjectItemCaseSensitive(j, "start")) {
			ms_catan_board_free(r.board);
			r.board = NULL;
		}
		rc = serve_line(&r, agent, j, &pick, fallbacks);
		cJSON_Delete(j);
		if (rc == MS_OK) {
			fprintf(out, "{\"pick\":%d,\"fallbacks\":%ld}\n", pick, *fallbacks);
			fflush(out);
		}
	}
	ms_buf_dispose(&line);
	ms_catan_board_free(r.board);
	ms_catan_agent_free(agent);
	return rc;
}
