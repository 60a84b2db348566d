/*
 * JSON forms of states, unit type tables and player actions. Java builds
 * them by string concatenation, so the separators below are copied from
 * its behaviour exactly (comma-space inside objects, bare commas between
 * array elements, " ," between player-action elements, and "x":X,"y":Y).
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "games/microrts/engine/rts.h"

/* The builders below append without checking: the buffer's error is
 * sticky, and each public function asks it once, at ms_buf_finish. */
static void put_action(ms_buf *b, const ms_rts_utt *utt, const ms_rts_action *a)
{
	ms_buf_printf(b, "{\"type\":%d", a->type);
	if (a->type == MS_RTS_ATTACK) {
		ms_buf_printf(b, ", \"x\":%d,\"y\":%d", a->x, a->y);
	} else {
		if (a->parameter != -1)
			ms_buf_printf(b, ", \"parameter\":%d", a->parameter);
		if (a->unit_type >= 0 && a->unit_type < utt->n_types)
			ms_buf_printf(b, ", \"unitType\":\"%s\"", utt->types[a->unit_type].name);
	}
	ms_buf_puts(b, "}");
}

/* Java's run-length encoder, including its quirk: a final run of length 1
 * is not written at all. */
static void put_compressed_terrain(ms_buf *b, const ms_rts_state *s)
{
	const uint8_t *t = rts_cterrain(s);
	int i = 0;

	while (i < s->cells) {
		int j = i;
		while (j < s->cells && (t[j] != 0) == (t[i] != 0))
			j++;
		if (j - i == 1) {
			if (j < s->cells)
				ms_buf_puts(b, t[i] ? "B" : "A");
		} else {
			ms_buf_printf(b, "%c%d", t[i] ? 'B' : 'A', j - i);
		}
		i = j;
	}
}

static void put_pgs(ms_buf *b, const ms_rts_state *s, int flags)
{
	const rts_unit *us = rts_cunits(s);

	ms_buf_puts(b, "{");
	if (flags & MS_RTS_JSON_CONSTANTS) {
		ms_buf_printf(b, "\"width\":%d,\"height\":%d,\"terrain\":\"", s->width, s->height);
		if (flags & MS_RTS_JSON_COMPRESS_TERRAIN) {
			put_compressed_terrain(b, s);
		} else {
			for (int i = 0; i < s->cells; i++) {
				char c = (char)('0' + rts_cterrain(s)[i]);
				ms_buf_append(b, &c, 1);
			}
		}
		ms_buf_puts(b, "\",");
	}
	ms_buf_printf(b, "\"players\":[{\"ID\":0, \"resources\":%d},{\"ID\":1, \"resources\":%d}],\"units\":[",
		      s->resources[0], s->resources[1]);
	for (int i = 0; i < s->n_units && !ms_buf_status(b); i++) {
		const ms_rts_unit *u = &us[i].u;
		ms_buf_printf(b, "%s{\"type\":\"%s\", \"ID\":%lld, \"player\":%d, \"x\":%d, \"y\":%d, "
				 "\"resources\":%d, \"hitpoints\":%d}",
			      i ? "," : "", s->utt->types[u->type].name, (long long)u->id, u->player, u->x, u->y,
			      u->resources, u->hitpoints);
	}
	ms_buf_puts(b, "]}");
}

int ms_rts_state_to_json(ms_ctx *ctx, char **out, const ms_rts_state *s, int flags)
{
	const rts_assign *as = rts_cassigns(s);
	ms_buf b;

	ms_buf_init(&b, ctx);
	ms_buf_printf(&b, "{\"time\":%d,\"pgs\":", s->time);
	put_pgs(&b, s, flags);
	ms_buf_puts(&b, ",\"actions\":[");
	for (int k = 0; k < s->n_assign && !ms_buf_status(&b); k++) {
		ms_buf_printf(&b, "%s{\"ID\":%lld, \"time\":%d, \"action\":", k ? "," : "",
			      (long long)rts_cunits(s)[as[k].unit].u.id, as[k].time);
		put_action(&b, s->utt, &as[k].action);
		ms_buf_puts(&b, "}");
	}
	ms_buf_puts(&b, "]}");
	return ms_buf_finish(&b, out);
}

static void put_names(ms_buf *b, const ms_rts_utt *utt, const int *ids, int n)
{
	ms_buf_puts(b, "[");
	for (int i = 0; i < n; i++)
		ms_buf_printf(b, "%s\"%s\"", i ? ", " : "", utt->types[ids[i]].name);
	ms_buf_puts(b, "]");
}

static const char *tf(int v)
{
	return v ? "true" : "false";
}

int ms_rts_utt_to_json(ms_ctx *ctx, char **out, const ms_rts_utt *utt)
{
	ms_buf b;

	ms_buf_init(&b, ctx);
	ms_buf_printf(&b, "{\"moveConflictResolutionStrategy\":%d,\"unitTypes\":[", utt->conflict_policy);
	for (int i = 0; i < utt->n_types; i++) {
		const ms_rts_unit_type *t = &utt->types[i];
		ms_buf_printf(&b,
			      "%s{\"ID\":%d, \"name\":\"%s\", \"cost\":%d, \"hp\":%d, \"minDamage\":%d, "
			      "\"maxDamage\":%d, \"attackRange\":%d, \"produceTime\":%d, \"moveTime\":%d, "
			      "\"attackTime\":%d, \"harvestTime\":%d, \"returnTime\":%d, \"harvestAmount\":%d, "
			      "\"sightRadius\":%d, \"isResource\":%s, \"isStockpile\":%s, \"canHarvest\":%s, "
			      "\"canMove\":%s, \"canAttack\":%s, \"produces\":",
			      i ? ", " : "", t->id, t->name, t->cost, t->hp, t->min_damage, t->max_damage,
			      t->attack_range, t->produce_time, t->move_time, t->attack_time, t->harvest_time,
			      t->return_time, t->harvest_amount, t->sight_radius, tf(t->is_resource),
			      tf(t->is_stockpile), tf(t->can_harvest), tf(t->can_move), tf(t->can_attack));
		put_names(&b, utt, t->produces, t->n_produces);
		ms_buf_puts(&b, ", \"producedBy\":");
		put_names(&b, utt, t->produced_by, t->n_produced_by);
		ms_buf_puts(&b, "}");
	}
	ms_buf_puts(&b, "]}");
	return ms_buf_finish(&b, out);
}

int ms_rts_player_action_to_json(ms_ctx *ctx, char **out, const ms_rts_state *s, const ms_rts_pair *pairs, int n)
{
	ms_buf b;

	ms_buf_init(&b, ctx);
	ms_buf_puts(&b, "[");
	for (int i = 0; i < n && !ms_buf_status(&b); i++) {
		ms_buf_printf(&b, "%s{\"unitID\":%lld, \"unitAction\":", i ? " ," : "", (long long)pairs[i].unit.id);
		put_action(&b, s->utt, &pairs[i].action);
		ms_buf_puts(&b, "}");
	}
	ms_buf_puts(&b, "]");
	return ms_buf_finish(&b, out);
}

/* minimal-json getters with Java's defaults for missing keys. */
static int opt_int(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int def, int *out)
{
	if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
		*out = def;
		return MS_OK;
	}
	return ms_json_get_int(ctx, what, obj, key, out);
}

static int opt_long(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int64_t def, int64_t *out)
{
	if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
		*out = def;
		return MS_OK;
	}
	return ms_json_get_long(ctx, what, obj, key, out);
}

static int read_action(ms_ctx *ctx, const ms_rts_utt *utt, const char *what, const cJSON *o, ms_rts_action *a)
{
	const cJSON *ut;
	int rc;

	if (!cJSON_IsObject(o))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: unit action is not an object", what);
	if ((rc = opt_int(ctx, what, o, "type", 0, &a->type)) ||
	    (rc = opt_int(ctx, what, o, "parameter", -1, &a->parameter)) ||
	    (rc = opt_int(ctx, what, o, "x", -1, &a->x)) || (rc = opt_int(ctx, what, o, "y", -1, &a->y)))
		return rc;
	if (a->type < MS_RTS_NONE || a->type > MS_RTS_ATTACK)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: unknown action type %d", what, a->type);
	a->unit_type = -1;
	ut = cJSON_GetObjectItemCaseSensitive(o, "unitType");
	if (ut) {
		if (!cJSON_IsString(ut))
			return ms_ctx_error(ctx, MS_EPARSE, "%s: field 'unitType' is not a string", what);
		a->unit_type = ms_rts_utt_find(utt, ut->valuestring);
		if (a->unit_type < 0)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: unknown unit type '%.40s'", what, ut->valuestring);
	}
	if (a->type == MS_RTS_PRODUCE && a->unit_type < 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: produce action without 'unitType'", what);
	return MS_OK;
}

int ms_rts_player_action_from_json(ms_ctx *ctx, const ms_rts_state *s, const char *text, size_t len,
				   ms_rts_pair *pairs, int max, int *n)
{
	cJSON *root;
	const cJSON *e;
	int rc, i = 0;

	*n = 0;
	if ((rc = ms_json_parse(ctx, "player action", text, len, &root)))
		return rc;
	if (!cJSON_IsArray(root)) {
		cJSON_Delete(root);
		return ms_ctx_error(ctx, MS_EPARSE, "player action: expected a JSON array");
	}
	cJSON_ArrayForEach(e, root) {
		char what[64];
		const cJSON *ua;
		int id, ui;

		snprintf(what, sizeof(what), "player action [%d]", i);
		if (i >= max) {
			rc = ms_ctx_error(ctx, MS_ERANGE, "player action: more than %d elements", max);
			break;
		}
		if (!cJSON_IsObject(e)) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: not an object", what);
			break;
		}
		/* Java reads unitID as a 32-bit int. */
		if ((rc = opt_int(ctx, what, e, "unitID", -1, &id)) ||
		    (rc = ms_json_get_object(ctx, what, e, "unitAction", &ua)) ||
		    (rc = read_action(ctx, s->utt, what, ua, &pairs[i].action)))
			break;
		ui = ms_rts_state_find_unit(s, id);
		if (ui < 0) {
			rc = ms_ctx_error(ctx, MS_ENOTFOUND, "%s: no unit with ID %d", what, id);
			break;
		}
		pairs[i].unit = rts_cunits(s)[ui].u;
		i++;
	}
	cJSON_Delete(root);
	if (rc)
		return rc;
	*n = i;
	return MS_OK;
}

int ms_rts_state_from_json(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *text,
			   size_t len, int64_t seed)
{
	cJSON *root;
	const cJSON *pgs, *arr, *e, *terrain;
	ms_rts_state *s = NULL;
	int rc, w, h, time, np = 0, i;
	int64_t max_id = -1;

	*out = NULL;
	if ((rc = ms_json_parse(ctx, "state", text, len, &root)))
		return rc;
	if ((rc = opt_int(ctx, "state", root, "time", 0, &time)) ||
	    (rc = ms_json_get_object(ctx, "state", root, "pgs", &pgs)) ||
	    (rc = opt_int(ctx, "state.pgs", pgs, "width", 8, &w)) ||
	    (rc = opt_int(ctx, "state.pgs", pgs, "height", 8, &h)))
		goto done;
	terrain = cJSON_GetObjectItemCaseSensitive(pgs, "terrain");
	if (!cJSON_IsString(terrain)) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "state.pgs: 'terrain' is missing or not a string "
				  "(a state without constants cannot be read)");
		goto done;
	}
	if ((rc = rts_state_alloc(ctx, &s, utt, w, h, seed)) ||
	    (rc = rts_terrain_decode(ctx, s, "state.pgs", terrain->valuestring)))
		goto done;
	if (time < 0) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "state: negative time %d", time);
		goto done;
	}
	s->time = time;
	if ((rc = ms_json_get_array(ctx, "state.pgs", pgs, "players", &arr)))
		goto done;
	cJSON_ArrayForEach(e, arr) {
		int id, res;
		if ((rc = opt_int(ctx, "state.pgs.players", e, "ID", -1, &id)) ||
		    (rc = opt_int(ctx, "state.pgs.players", e, "resources", 0, &res)))
			goto done;
		if (id != np || np >= 2) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "state.pgs.players[%d]: ID %d out of order", np, id);
			goto done;
		}
		s->resources[np++] = res;
	}
	if (np != 2) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "state.pgs: %d players; the engine plays exactly 2", np);
		goto done;
	}
	if ((rc = ms_json_get_array(ctx, "state.pgs", pgs, "units", &arr)))
		goto done;
	i = 0;
	cJSON_ArrayForEach(e, arr) {
		ms_rts_unit u;
		const char *tname;
		char what[48];

		snprintf(what, sizeof(what), "state.pgs.units[%d]", i++);
		if ((rc = ms_json_get_string(ctx, what, e, "type", &tname)) ||
		    (rc = opt_long(ctx, what, e, "ID", -1, &u.id)) ||
		    (rc = opt_int(ctx, what, e, "player", -1, &u.player)) ||
		    (rc = opt_int(ctx, what, e, "x", 0, &u.x)) || (rc = opt_int(ctx, what, e, "y", 0, &u.y)) ||
		    (rc = opt_int(ctx, what, e, "resources", 0, &u.resources)) ||
		    (rc = opt_int(ctx, what, e, "hitpoints", 1, &u.hitpoints)))
			goto done;
		u.type = ms_rts_utt_find(utt, tname);
		if (u.type < 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unknown unit type '%.40s'", what, tname);
			goto done;
		}
		if (u.player < -1 || u.player > 1) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: player %d (expected -1, 0 or 1)", what, u.player);
			goto done;
		}
		if ((rc = rts_state_add_unit(ctx, s, &u, what)))
			goto done;
		if (u.id > max_id)
			max_id = u.id;
	}
	s->next_id = max_id + 1;
	arr = cJSON_GetObjectItemCaseSensitive(root, "actions");
	i = 0;
	cJSON_ArrayForEach(e, arr) {
		char what[48];
		int64_t id;
		int t, ui;
		ms_rts_action a;
		const cJSON *ao;

		snprintf(what, sizeof(what), "state.actions[%d]", i++);
		if ((rc = opt_long(ctx, what, e, "ID", -1, &id)) || (rc = opt_int(ctx, what, e, "time", 0, &t)) ||
		    (rc = ms_json_get_object(ctx, what, e, "action", &ao)) ||
		    (rc = read_action(ctx, utt, what, ao, &a)))
			goto done;
		ui = ms_rts_state_find_unit(s, id);
		if (ui < 0) {
			rc = ms_ctx_error(ctx, MS_ENOTFOUND, "%s: no unit with ID %lld", what, (long long)id);
			goto done;
		}
		if (!ms_rts_state_unit_idle(s, ui)) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unit %lld has two actions", what, (long long)id);
			goto done;
		}
		rts_assign_append(s, ui, t, &a);
	}
	*out = s;
	s = NULL;
done:
	ms_rts_state_free(s);
	cJSON_Delete(root);
	return rc;
}
