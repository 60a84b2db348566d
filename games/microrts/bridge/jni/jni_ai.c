/*
 * The JNI bot's native half (see jni_ai.h for the array formats). A handle
 * owns a context, a unit type table built from the Java table's stats, the
 * bot, the map's terrain and a state rebuilt in place from each packed
 * state. Bots keep per-game memory keyed by unit id, and the ids are the
 * Java ones, so rebuilding the state every decision loses nothing.
 */

#include "jni_ai.h"

#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/rts_import.h"
#include "microsynth/rts_synth.h"
#include "core/clock.h"

struct ms_jni_ai {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *bot;
	char *spec;
	int64_t seed;
	int w, h;
	uint8_t *terrain;    /* [w*h], NULL until a map is given */
	ms_rts_state *state; /* built on the first decision of a map */
	ms_rts_pair *pairs;  /* the bot's reply */
	uint8_t *taken;      /* [cells]: unit already has a pair in the output */
	int cap;             /* capacity of pairs and taken, in units */
	int64_t decide_ns;
	int64_t decisions, dropped;
	int32_t *in, *out; /* ms_jni_ai_buffers */
	int in_cap, out_cap;
};

/* The table's stats as packed by the Java side, checked field by field. */
static int unpack_utt(ms_ctx *ctx, ms_rts_utt **out, const int32_t *p, int len, const char *const *names,
		      int n_names)
{
	ms_rts_unit_type types[MS_RTS_MAX_TYPES];
	int n, at = 3;

	*out = NULL;
	if (!p || len < 3)
		return ms_ctx_error(ctx, MS_EINVAL, "unit type table: %d ints, the header alone needs 3", len);
	if (p[0] != MS_JNI_PACK_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "unit type table: pack version %d, this library reads %d",
				    (int)p[0], MS_JNI_PACK_VERSION);
	n = p[2];
	if (n < 1 || n > MS_RTS_MAX_TYPES)
		return ms_ctx_error(ctx, MS_ERANGE, "unit type table: %d types (this build takes 1..%d)", n,
				    MS_RTS_MAX_TYPES);
	if (n_names != n)
		return ms_ctx_error(ctx, MS_EINVAL, "unit type table: %d types but %d names", n, n_names);
	memset(types, 0, sizeof(types));
	for (int i = 0; i < n; i++) {
		ms_rts_unit_type *t = &types[i];
		int *lists[2] = { t->produces, t->produced_by }, *counts[2] = { &t->n_produces, &t->n_produced_by };

		if (len - at < MS_JNI_TYPE_FIXED_INTS)
			return ms_ctx_error(ctx, MS_EINVAL, "unit type table: type %d is cut short", i);
		if (!names[i] || strlen(names[i]) >= MS_RTS_TYPE_NAME_MAX)
			return ms_ctx_error(ctx, MS_ERANGE,
					    "unit type table: type %d has no name or one longer than %d bytes", i,
					    MS_RTS_TYPE_NAME_MAX - 1);
		snprintf(t->name, sizeof(t->name), "%s", names[i]);
		t->id = p[at++];
		t->cost = p[at++];
		t->hp = p[at++];
		t->min_damage = p[at++];
		t->max_damage = p[at++];
		t->attack_range = p[at++];
		t->produce_time = p[at++];
		t->move_time = p[at++];
		t->attack_time = p[at++];
		t->harvest_time = p[at++];
		t->return_time = p[at++];
		t->harvest_amount = p[at++];
		t->sight_radius = p[at++];
		t->is_resource = p[at++] != 0;
		t->is_stockpile = p[at++] != 0;
		t->can_harvest = p[at++] != 0;
		t->can_move = p[at++] != 0;
		t->can_attack = p[at++] != 0;
		for (int l = 0; l < 2; l++) {
			int k = at < len ? p[at++] : -1;
			if (k < 0 || k > MS_RTS_MAX_TYPES || len - at < k)
				return ms_ctx_error(ctx, MS_EINVAL, "unit type table: type %d ('%s') has a bad %s list",
						    i, t->name, l ? "producedBy" : "produces");
			*counts[l] = k;
			for (int j = 0; j < k; j++)
				lists[l][j] = p[at++];
		}
	}
	if (at != len)
		return ms_ctx_error(ctx, MS_EINVAL, "unit type table: %d ints left over", len - at);
	return ms_rts_utt_from_types(ctx, out, types, n, 0, p[1]);
}

int ms_jni_ai_new(ms_jni_ai **out, const char *spec, const int32_t *utt, int utt_len, const char *const *names,
		  int n_names, int64_t seed, char *err, size_t err_size)
{
	ms_jni_ai *ai = NULL;
	ms_ctx *ctx = NULL;
	int rc;

	*out = NULL;
	if (err_size)
		err[0] = '\0';
	if ((rc = ms_ctx_new(&ctx, NULL))) {
		snprintf(err, err_size, "microsynth: cannot create a context (%s)", ms_status_name(rc));
		return rc;
	}
	if (!(ai = ms_ctx_calloc(ctx, 1, sizeof(*ai)))) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "out of memory");
		goto fail;
	}
	ai->ctx = ctx;
	ai->seed = seed;
	if (!spec || !spec[0]) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "empty bot spec (expected a native bot name or program:FILE)");
		goto fail;
	}
	if ((rc = unpack_utt(ctx, &ai->utt, utt, utt_len, names, n_names)) || (rc = ms_jni_ai_set_bot(ai, spec)))
		goto fail;
	*out = ai;
	return MS_OK;
fail:
	snprintf(err, err_size, "%s", ms_ctx_last_error(ctx));
	ms_jni_ai_free(ai);
	if (!ai)
		ms_ctx_free(ctx);
	return rc;
}

/* The reply pairs and their units' marks: one capacity, grown and freed from this list. */
static int reply_cols(ms_jni_ai *ai, ms_vec_col *c)
{
	c[0] = (ms_vec_col){ (void **)&ai->pairs, sizeof *ai->pairs };
	c[1] = (ms_vec_col){ (void **)&ai->taken, sizeof *ai->taken };
	return 2;
}

void ms_jni_ai_free(ms_jni_ai *ai)
{
	ms_ctx *ctx;

	if (!ai)
		return;
	ctx = ai->ctx;
	ms_bot_free(ai->bot);
	ms_rts_state_free(ai->state);
	ms_rts_utt_free(ai->utt);
	ms_ctx_mfree(ctx, ai->spec);
	ms_ctx_mfree(ctx, ai->terrain);
	ms_vec_col cols[2];
	ms_vec_dispose_cols(ctx, cols, reply_cols(ai, cols));
	ms_ctx_mfree(ctx, ai->in);
	ms_ctx_mfree(ctx, ai->out);
	ms_ctx_mfree(ctx, ai);
	ms_ctx_free(ctx);
}

ms_ctx *ms_jni_ai_ctx(ms_jni_ai *ai)
{
	return ai->ctx;
}

const char *ms_jni_ai_error(const ms_jni_ai *ai)
{
	return ms_ctx_last_error(ai->ctx);
}

const char *ms_jni_ai_bot_name(const ms_jni_ai *ai)
{
	return ai->bot && ai->bot->ops && ai->bot->ops->name ? ai->bot->ops->name : ai->spec ? ai->spec : "";
}

/* A fresh bot for `spec` on `utt`; reset, as before a game. */
static int make_bot(ms_jni_ai *ai, ms_bot **out, const char *spec, const ms_rts_utt *utt)
{
	int rc = ms_bot_make(ai->ctx, out, spec, utt, ai->seed);

	if (!rc && (rc = ms_bot_reset(*out))) {
		ms_bot_free(*out);
		*out = NULL;
	}
	return rc;
}

int ms_jni_ai_set_bot(ms_jni_ai *ai, const char *spec)
{
	ms_bot *bot = NULL;
	char *copy;
	int rc;

	if (!spec || !spec[0])
		return ms_ctx_error(ai->ctx, MS_EINVAL, "empty bot spec (expected a native bot name or program:FILE)");
	if (!(copy = ms_ctx_strdup(ai->ctx, spec)))
		return ms_ctx_error(ai->ctx, MS_ENOMEM, "out of memory");
	if ((rc = make_bot(ai, &bot, spec, ai->utt))) {
		ms_ctx_mfree(ai->ctx, copy);
		return rc;
	}
	ms_bot_free(ai->bot);
	ms_ctx_mfree(ai->ctx, ai->spec);
	ai->bot = bot;
	ai->spec = copy;
	return MS_OK;
}

int ms_jni_ai_set_table(ms_jni_ai *ai, const int32_t *utt, int utt_len, const char *const *names, int n_names)
{
	ms_rts_utt *table = NULL;
	ms_bot *bot = NULL;
	int rc;

	if ((rc = unpack_utt(ai->ctx, &table, utt, utt_len, names, n_names)))
		return rc;
	if ((rc = make_bot(ai, &bot, ai->spec, table))) {
		ms_rts_utt_free(table);
		return rc;
	}
	/* The state points at the old table: rebuilt on the next decision. */
	ms_rts_state_free(ai->state);
	ai->state = NULL;
	ms_bot_free(ai->bot);
	ms_rts_utt_free(ai->utt);
	ai->bot = bot;
	ai->utt = table;
	return MS_OK;
}

int ms_jni_ai_reset(ms_jni_ai *ai)
{
	return ms_bot_reset(ai->bot);
}

int ms_jni_ai_set_map(ms_jni_ai *ai, int w, int h, const int8_t *terrain)
{
	uint8_t *t;
	size_t cells;

	if (w < 1 || h < 1 || w > MS_RTS_MAX_SIDE || h > MS_RTS_MAX_SIDE)
		return ms_ctx_error(ai->ctx, MS_ERANGE, "map size %dx%d: each side must be 1..%d", w, h,
				    MS_RTS_MAX_SIDE);
	cells = (size_t)w * (size_t)h;
	if (!(t = ms_ctx_malloc(ai->ctx, cells)))
		return ms_ctx_error(ai->ctx, MS_ENOMEM, "map %dx%d: out of memory", w, h);
	for (size_t i = 0; i < cells; i++)
		t[i] = terrain && terrain[i] != 0;
	if (ai->state && (ai->w != w || ai->h != h)) {
		ms_rts_state_free(ai->state);
		ai->state = NULL;
	}
	if (ai->state)
		ms_rts_state_set_terrain(ai->state, t);
	ms_ctx_mfree(ai->ctx, ai->terrain);
	ai->terrain = t;
	ai->w = w;
	ai->h = h;
	return MS_OK;
}

/* State, reply and mark buffers for the current map. */
static int prepare(ms_jni_ai *ai)
{
	int cells = ai->w * ai->h, rc;

	if (!ai->terrain)
		return ms_ctx_error(ai->ctx, MS_EINVAL, "no map: the terrain must be given before a decision");
	if (!ai->state && (rc = ms_rts_state_new(ai->ctx, &ai->state, ai->utt, ai->w, ai->h, ai->terrain, ai->seed)))
		return rc;
	if (ai->cap < cells) {
		/* At most one unit per cell, and a bot answers once per unit. */
		int old = ai->cap;
		ms_vec_col cols[2];
		if (ms_vec_grow_cols(ai->ctx, &ai->cap, cells, cols, reply_cols(ai, cols)) < 0)
			return ms_ctx_error(ai->ctx, MS_ENOMEM, "out of memory for %d units", cells);
		memset(ai->taken + old, 0, (size_t)(ai->cap - old)); /* marks are cleared after each use */
	}
	return MS_OK;
}

static int64_t join_id(int32_t lo, int32_t hi)
{
	return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

/* Index of the unit with `id`, looked up at (x, y) first. */
static int find_unit(const ms_rts_state *s, int64_t id, int x, int y)
{
	int i = ms_rts_state_unit_at(s, x, y);
	ms_rts_unit u;

	if (i >= 0 && !ms_rts_state_unit(s, i, &u) && u.id == id)
		return i;
	return ms_rts_state_find_unit(s, id);
}

/* Rebuilds ai->state from the packed state. */
static int import_state(ms_jni_ai *ai, const int32_t *p, int len)
{
	ms_ctx *ctx = ai->ctx;
	ms_rts_state *s = ai->state;
	int nu, np, rc;
	const int32_t *e;

	if (!p || len < MS_JNI_STATE_HEADER)
		return ms_ctx_error(ctx, MS_EINVAL, "state: %d ints, the header alone needs %d", len,
				    MS_JNI_STATE_HEADER);
	nu = p[3];
	np = p[4];
	/* A partially observable view lists the pending actions of units it
	 * hides: there may be more of them than units. */
	if (nu < 0 || np < 0 || nu > ai->w * ai->h || np > ai->w * ai->h ||
	    (int64_t)MS_JNI_STATE_HEADER + (int64_t)nu * MS_JNI_UNIT_INTS + (int64_t)np * MS_JNI_PENDING_INTS > len)
		return ms_ctx_error(ctx, MS_EINVAL,
				    "state: %d units and %d pending actions do not fit %d ints on a %dx%d map", nu, np,
				    len, ai->w, ai->h);
	if ((rc = ms_rts_state_reset_dynamic(ctx, s, p[0], p[1], p[2])))
		return rc;
	e = p + MS_JNI_STATE_HEADER;
	for (int i = 0; i < nu; i++, e += MS_JNI_UNIT_INTS) {
		ms_rts_unit u;
		u.type = e[0];
		u.player = e[1];
		u.id = join_id(e[2], e[3]);
		u.x = e[4];
		u.y = e[5];
		u.resources = e[6];
		u.hitpoints = e[7];
		if ((rc = ms_rts_state_add_unit(ctx, s, &u, NULL)))
			return rc;
	}
	for (int k = 0; k < np; k++, e += MS_JNI_PENDING_INTS) {
		ms_rts_action a;
		int ui = find_unit(s, join_id(e[2], e[3]), e[0], e[1]);
		/* A partially observable view keeps the actions of units it no
		 * longer shows; they cannot matter to a decision. */
		if (ui < 0)
			continue;
		a.type = e[5];
		a.parameter = e[6];
		a.x = e[7];
		a.y = e[8];
		a.unit_type = e[9];
		if ((rc = ms_rts_state_add_pending(ctx, s, ui, e[4], &a)))
			return rc;
	}
	return MS_OK;
}

/* Writes the pairs the reply rules allow; returns how many. */
static int filter_reply(ms_jni_ai *ai, int player, int n, int32_t *out, int out_len)
{
	const ms_rts_state *s = ai->state;
	int kept = 0;

	for (int i = 0; i < n; i++) {
		const ms_rts_pair *p = &ai->pairs[i];
		int ui = find_unit(s, p->unit.id, p->unit.x, p->unit.y);
		ms_rts_unit u;
		int32_t *o;

		if (ui < 0 || ms_rts_state_unit(s, ui, &u) || u.player != player || !ms_rts_state_unit_idle(s, ui) ||
		    ai->taken[ui] || (kept + 1) * MS_JNI_PAIR_INTS > out_len) {
			ai->dropped++;
			continue;
		}
		ai->taken[ui] = 1;
		o = out + kept * MS_JNI_PAIR_INTS;
		o[0] = ui;
		o[1] = p->action.type;
		o[2] = p->action.parameter;
		o[3] = p->action.x;
		o[4] = p->action.y;
		o[5] = p->action.unit_type;
		kept++;
	}
	for (int i = 0; i < kept; i++)
		ai->taken[out[i * MS_JNI_PAIR_INTS]] = 0;
	return kept;
}

int ms_jni_ai_decide(ms_jni_ai *ai, int player, const int32_t *state, int len, int32_t *out, int out_len)
{
	int n = 0, rc;
	int64_t t0;

	if (player != 0 && player != 1)
		return ms_ctx_error(ai->ctx, MS_EINVAL, "player %d (expected 0 or 1)", player);
	if ((rc = prepare(ai)) || (rc = import_state(ai, state, len)))
		return rc;
	t0 = ms_now_ns();
	rc = ms_bot_decide(ai->bot, player, ai->state, ai->pairs, ai->cap, &n);
	ai->decide_ns = ms_now_ns() - t0;
	if (rc) {
		char msg[400];
		snprintf(msg, sizeof(msg), "%s", ms_ctx_last_error(ai->ctx));
		return ms_ctx_error(ai->ctx, rc, "%s at cycle %d: %s", ms_jni_ai_bot_name(ai),
				    ms_rts_state_time(ai->state), msg);
	}
	ai->decisions++;
	return filter_reply(ai, player, n, out, out_len);
}

int ms_jni_ai_game_over(ms_jni_ai *ai, int winner)
{
	(void)winner;
	ms_rts_state_free(ai->state);
	ai->state = NULL;
	ms_ctx_mfree(ai->ctx, ai->terrain);
	ai->terrain = NULL;
	return ms_bot_reset(ai->bot);
}

int64_t ms_jni_ai_decide_ns(const ms_jni_ai *ai)
{
	return ai->decide_ns;
}

void ms_jni_ai_counters(const ms_jni_ai *ai, int64_t *decisions, int64_t *dropped)
{
	if (decisions)
		*decisions = ai->decisions;
	if (dropped)
		*dropped = ai->dropped;
}

/* Grows *buf to `need` ints; doubling, so states that grow by a few units
 * do not reallocate every cycle. */
static int grow(ms_ctx *ctx, int32_t **buf, int *cap, int need)
{
	if (ms_vec_grow(ctx, (void **)buf, cap, need, sizeof **buf) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory for %d ints", need);
	return MS_OK;
}

int ms_jni_ai_buffers(ms_jni_ai *ai, int in_len, int out_len, int32_t **in, int32_t **out)
{
	int rc;

	*in = *out = NULL;
	if (in_len < 0 || out_len < 0)
		return ms_ctx_error(ai->ctx, MS_EINVAL, "negative buffer length");
	if ((rc = grow(ai->ctx, &ai->in, &ai->in_cap, in_len ? in_len : 1)) ||
	    (rc = grow(ai->ctx, &ai->out, &ai->out_cap, out_len ? out_len : 1)))
		return rc;
	*in = ai->in;
	*out = ai->out;
	return MS_OK;
}

int ms_jni_ai_pregame(ms_jni_ai *ai, const int32_t *state, int len, const ms_rts_pregame_options *o,
		      ms_rts_pregame_result *res)
{
	ms_rts_state *first = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	if ((rc = prepare(ai)) || (rc = import_state(ai, state, len)) ||
	    (rc = ms_rts_state_clone(ai->ctx, &first, ai->state)))
		return rc;
	rc = ms_rts_pregame(ai->ctx, first, o, res);
	ms_rts_state_free(first);
	return rc;
}
