/*
 * Engine objects from plain values (rts_import.h): what a host that keeps
 * the game in its own objects uses instead of a text format. The state's
 * dynamic part is replaced in place, clearing only the cells the previous
 * units occupied, so a decision costs time in the units, not the map.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/rts_import.h"
#include "games/microrts/engine/utt_internal.h"

/* Times and durations are added in int: keep every sum far from overflow. */
#define MS_IMPORT_MAX_TIME 1000000000

static int in_time_range(int t)
{
	return t >= 0 && t <= MS_IMPORT_MAX_TIME;
}

int ms_rts_utt_from_types(ms_ctx *ctx, ms_rts_utt **out, const ms_rts_unit_type *types, int n, int version,
			  int conflict_policy)
{
	ms_rts_utt *u;
	int rc = MS_OK;

	*out = NULL;
	if (!types || n < 1 || n > MS_RTS_MAX_TYPES)
		return ms_ctx_error(ctx, MS_ERANGE, "unit type table: %d types (expected 1..%d)", n, MS_RTS_MAX_TYPES);
	if (!(u = rts_utt_alloc(ctx)))
		return ms_ctx_error(ctx, MS_ENOMEM, "unit type table: out of memory");
	u->version = version;
	u->conflict_policy = conflict_policy;
	for (int i = 0; i < n && !rc; i++) {
		ms_rts_unit_type t = types[i];
		char what[64];

		snprintf(what, sizeof(what), "unit type table: type %d", i);
		/* A name that fills the buffer has lost its terminator. */
		if (!memchr(t.name, '\0', sizeof(t.name))) {
			rc = ms_ctx_error(ctx, MS_ERANGE, "%s: name longer than %d bytes", what,
					  MS_RTS_TYPE_NAME_MAX - 1);
			break;
		}
		if (t.id != i) {
			rc = ms_ctx_error(ctx, MS_EINVAL, "%s ('%s') has ID %d; ids must be positions", what, t.name,
					  t.id);
			break;
		}
		if (t.n_produces < 0 || t.n_produces > n || t.n_produced_by < 0 || t.n_produced_by > n) {
			rc = ms_ctx_error(ctx, MS_ERANGE,
					  "%s ('%s'): %d produces / %d produced-by entries for %d types", what, t.name,
					  t.n_produces, t.n_produced_by, n);
			break;
		}
		for (int k = 0; k < t.n_produces && !rc; k++)
			if (t.produces[k] < 0 || t.produces[k] >= n)
				rc = ms_ctx_error(ctx, MS_ERANGE, "%s ('%s') produces unknown type id %d", what, t.name,
						  t.produces[k]);
		for (int k = 0; k < t.n_produced_by && !rc; k++)
			if (t.produced_by[k] < 0 || t.produced_by[k] >= n)
				rc = ms_ctx_error(ctx, MS_ERANGE, "%s ('%s') is produced by unknown type id %d", what,
						  t.name, t.produced_by[k]);
		if (!rc && !(in_time_range(t.produce_time) && in_time_range(t.move_time) &&
			     in_time_range(t.attack_time) && in_time_range(t.harvest_time) &&
			     in_time_range(t.return_time)))
			rc = ms_ctx_error(ctx, MS_ERANGE, "%s ('%s'): a duration is outside 0..%d", what, t.name,
					  MS_IMPORT_MAX_TIME);
		if (!rc)
			rc = rts_utt_check_type(ctx, u, &t, what);
		if (!rc)
			u->types[u->n_types++] = t;
	}
	if (rc) {
		ms_rts_utt_free(u);
		return rc;
	}
	rts_utt_finish(u);
	*out = u;
	return MS_OK;
}

int ms_rts_state_set_terrain(ms_rts_state *s, const uint8_t *terrain)
{
	uint8_t *t = rts_terrain(s);

	if (!terrain) {
		memset(t, 0, (size_t)s->cells);
		return MS_OK;
	}
	/* The rules test "!= 0" in some places and read the value in others
	 * (JSON, traces): keep what Java keeps, 0 or 1. */
	for (int i = 0; i < s->cells; i++)
		t[i] = terrain[i] != 0;
	return MS_OK;
}

int ms_rts_state_new(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, int w, int h,
		     const uint8_t *terrain, int64_t seed)
{
	int rc;

	*out = NULL;
	if (!utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_rts_state_new: no unit type table");
	if ((rc = rts_state_alloc(ctx, out, utt, w, h, seed)))
		return rc;
	return ms_rts_state_set_terrain(*out, terrain);
}

int ms_rts_state_reset_dynamic(ms_ctx *ctx, ms_rts_state *s, int time, int resources0, int resources1)
{
	const rts_unit *us = rts_cunits(s);
	uint16_t *grid = rts_grid(s);

	if (time < 0 || time > MS_IMPORT_MAX_TIME)
		return ms_ctx_error(ctx, MS_ERANGE, "state: time %d is outside 0..%d", time, MS_IMPORT_MAX_TIME);
	for (int i = 0; i < s->n_units; i++)
		grid[us[i].u.x + us[i].u.y * s->width] = 0;
	s->n_units = 0;
	s->n_assign = 0;
	s->count[0] = s->count[1] = 0;
	s->next_key = 1;
	s->next_id = 0;
	s->next_end = INT32_MAX;
	s->time = time;
	s->resources[0] = resources0;
	s->resources[1] = resources1;
	return MS_OK;
}

int ms_rts_state_add_unit(ms_ctx *ctx, ms_rts_state *s, const ms_rts_unit *u, int *index)
{
	char what[48];
	int rc;

	snprintf(what, sizeof(what), "state: unit %d", s->n_units);
	if (u->player < -1 || u->player > 1)
		return ms_ctx_error(ctx, MS_EINVAL, "%s (ID %lld) has player %d (expected -1, 0 or 1)", what,
				    (long long)u->id, u->player);
	if ((rc = rts_state_add_unit(ctx, s, u, what)))
		return rc;
	if (u->id >= s->next_id)
		s->next_id = u->id + 1;
	if (index)
		*index = s->n_units - 1;
	return MS_OK;
}

int ms_rts_state_add_pending(ms_ctx *ctx, ms_rts_state *s, int unit_index, int issued_at, const ms_rts_action *a)
{
	rts_unit *us = rts_units(s);
	const char *what = "state: pending action";

	if (unit_index < 0 || unit_index >= s->n_units)
		return ms_ctx_error(ctx, MS_ERANGE, "%s %d: unit index %d, the state has %d units", what, s->n_assign,
				    unit_index, s->n_units);
	if (us[unit_index].slot >= 0)
		return ms_ctx_error(ctx, MS_EINVAL, "%s %d: unit %lld already has one", what, s->n_assign,
				    (long long)us[unit_index].u.id);
	if (a->type < MS_RTS_NONE || a->type > MS_RTS_ATTACK)
		return ms_ctx_error(ctx, MS_EINVAL, "%s %d (unit %lld): unknown action type %d", what, s->n_assign,
				    (long long)us[unit_index].u.id, a->type);
	if (a->unit_type < -1 || a->unit_type >= s->utt->n_types ||
	    (a->type == MS_RTS_PRODUCE && a->unit_type < 0))
		return ms_ctx_error(ctx, MS_EINVAL, "%s %d (unit %lld): unit type %d is not in the table", what,
				    s->n_assign, (long long)us[unit_index].u.id, a->unit_type);
	if (issued_at < 0 || issued_at > s->time)
		return ms_ctx_error(ctx, MS_ERANGE, "%s %d (unit %lld): issued at cycle %d, the state is at %d", what,
				    s->n_assign, (long long)us[unit_index].u.id, issued_at, s->time);
	if (a->type == MS_RTS_NONE && (a->parameter < -1 || a->parameter > MS_IMPORT_MAX_TIME))
		return ms_ctx_error(ctx, MS_ERANGE, "%s %d (unit %lld): NONE lasts %d cycles", what, s->n_assign,
				    (long long)us[unit_index].u.id, a->parameter);
	/* One pending action per unit at most, so this never runs past the array. */
	rts_assign_append(s, unit_index, issued_at, a);
	return MS_OK;
}
