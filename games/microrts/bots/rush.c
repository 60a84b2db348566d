/*
 * WorkerRush, LightRush, HeavyRush and RangedRush (ai.abstraction.*): the
 * scripted rushes of the official jar, deciding through the abstraction
 * layer. `military` is NULL for WorkerRush, else the type the barracks
 * trains; the four share the harvesting and attacking rules.
 */
#include <string.h>

#include "bots_internal.h"

typedef struct rush {
	bot_al al;
	int worker, base, barracks, military; /* type ids; military -1 for WorkerRush */
	int64_t *workers;                     /* scratch: worker ids */
	int cap_workers;
	int *reserved;
	int cap_reserved;
} rush;

static int manhattan(const ms_rts_unit *a, const ms_rts_unit *b)
{
	return abs(a->x - b->x) + abs(a->y - b->y);
}

/* attackClosest: the nearest unit of another (non-neutral) player, the
 * earliest in unit-list order on ties. */
static int attack_closest(rush *r, const ms_rts_state *s, const ms_rts_unit *u, int player)
{
	const rts_unit *us = rts_cunits(s);
	int best = -1, bd = 0;

	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *o = &us[i].u;
		int d;
		if (o->player < 0 || o->player == player)
			continue;
		d = manhattan(o, u);
		if (best < 0 || d < bd) {
			best = i;
			bd = d;
		}
	}
	if (best < 0)
		return MS_OK;
	return bot_al_attack(&r->al, u->id, us[best].u.id);
}

/* buildIfNotAlreadyBuilding */
static int build_if_not_already(rush *r, const ms_rts_state *s, const ms_rts_unit *u, int type, int *nres)
{
	al_entry *cur = bot_al_get(&r->al, u->id);
	int pos;

	if (cur && cur->kind == AL_BUILD && cur->type == type)
		return MS_OK;
	pos = bot_al_building_position(s, r->reserved, *nres, u->x, u->y);
	r->reserved[(*nres)++] = pos;
	/* Java's % and / on -1 give the unreachable site (-1, 0) */
	return bot_al_build(&r->al, u->id, type, pos % s->width, pos / s->width);
}

/* The harvester rule: nearest resource and own stockpile; 1 when assigned. */
static int harvester(rush *r, const ms_rts_state *s, const ms_rts_unit *u, int player, int *assigned)
{
	const rts_unit *us = rts_cunits(s);
	const ms_rts_unit_type *types = s->utt->types;
	int res = -1, base = -1, rd = 0, bd = 0, rc;
	al_entry *cur;

	*assigned = 0;
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *o = &us[i].u;
		int d = manhattan(o, u);
		if (types[o->type].is_resource && (res < 0 || d < rd)) {
			res = i;
			rd = d;
		}
		if (types[o->type].is_stockpile && o->player == player && (base < 0 || d < bd)) {
			base = i;
			bd = d;
		}
	}
	/* The jar's rushes (2022 build) assign a harvester only when both a
	 * resource and an own stockpile exist, whatever it carries. */
	if (res < 0 || base < 0)
		return MS_OK;
	*assigned = 1;
	cur = bot_al_get(&r->al, u->id);
	if (cur && cur->kind == AL_HARVEST && cur->target == us[res].u.id && cur->base == us[base].u.id)
		return MS_OK;
	if ((rc = bot_al_harvest(&r->al, u->id, us[res].u.id, us[base].u.id)))
		return rc;
	cur = bot_al_get(&r->al, u->id);
	cur->tx = us[res].u.x;
	cur->ty = us[res].u.y;
	cur->bx = us[base].u.x;
	cur->by = us[base].u.y;
	return MS_OK;
}

static int grow(rush *r, ms_ctx *ctx, int units)
{
	if (units + 4 <= r->cap_workers)
		return MS_OK;
	ms_ctx_mfree(ctx, r->workers);
	ms_ctx_mfree(ctx, r->reserved);
	r->cap_workers = r->cap_reserved = 0;
	r->workers = ms_ctx_malloc(ctx, sizeof(int64_t) * (size_t)(units * 2 + 8));
	r->reserved = ms_ctx_malloc(ctx, sizeof(int) * 8);
	if (!r->workers || !r->reserved)
		return ms_ctx_error(ctx, MS_ENOMEM, "bot: out of memory");
	r->cap_workers = units * 2 + 8;
	r->cap_reserved = 8;
	return MS_OK;
}

static int worker_rush_workers(rush *r, const ms_rts_state *s, int player, int nw)
{
	const ms_rts_unit_type *types = s->utt->types;
	int P = s->resources[player], nbases = 0, nres = 0, spent = 0, head = 0, tail = nw, rc;
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++)
		if (us[i].u.type == r->base && us[i].u.player == player)
			nbases++;
	if (nbases == 0 && P >= types[r->base].cost + spent) {
		const ms_rts_unit *u = &us[ms_rts_state_find_unit(s, r->workers[head++])].u;
		if ((rc = build_if_not_already(r, s, u, r->base, &nres)))
			return rc;
		spent += types[r->base].cost;
	}
	if (head < tail) {
		const ms_rts_unit *u = &us[ms_rts_state_find_unit(s, r->workers[head])].u;
		int assigned;
		head++;
		/* an unassigned harvester is simply left alone (the jar does not
		 * send it to attack, unlike later versions of the class) */
		if ((rc = harvester(r, s, u, player, &assigned)))
			return rc;
	}
	for (int i = head; i < tail; i++)
		if ((rc = attack_closest(r, s, &us[ms_rts_state_find_unit(s, r->workers[i])].u, player)))
			return rc;
	return MS_OK;
}

static int military_rush_workers(rush *r, const ms_rts_state *s, int player, int nw)
{
	const ms_rts_unit_type *types = s->utt->types;
	int P = s->resources[player], nbases = 0, nbarracks = 0, nres = 0, spent = 0, head = 0, rc;
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++) {
		if (us[i].u.player != player)
			continue;
		nbases += us[i].u.type == r->base;
		nbarracks += us[i].u.type == r->barracks;
	}
	if (nbases == 0 && head < nw && P >= types[r->base].cost + spent) {
		const ms_rts_unit *u = &us[ms_rts_state_find_unit(s, r->workers[head++])].u;
		if ((rc = build_if_not_already(r, s, u, r->base, &nres)))
			return rc;
		spent += types[r->base].cost;
	}
	if (nbarracks == 0 && head < nw && P >= types[r->barracks].cost + spent) {
		const ms_rts_unit *u = &us[ms_rts_state_find_unit(s, r->workers[head++])].u;
		if ((rc = build_if_not_already(r, s, u, r->barracks, &nres)))
			return rc;
		spent += types[r->barracks].cost;
	}
	/* the jar's rushes leave workers they cannot make harvest alone */
	for (int i = head; i < nw; i++) {
		const ms_rts_unit *u = &us[ms_rts_state_find_unit(s, r->workers[i])].u;
		int assigned;
		if ((rc = harvester(r, s, u, player, &assigned)))
			return rc;
	}
	return MS_OK;
}

static int rush_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	rush *r = b->impl;
	const ms_rts_unit_type *types = s->utt->types;
	const rts_unit *us = rts_cunits(s);
	int P, nw = 0, rc;

	*n = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(b->ctx, MS_EINVAL, "%s: player %d", b->ops->name, player);
	if (s->utt != b->utt)
		return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the state uses another unit type table", b->ops->name);
	if ((rc = bot_al_begin(&r->al, s)) || (rc = grow(r, b->ctx, s->n_units)))
		return rc;
	P = s->resources[player];

	if (r->military < 0) {
		for (int i = 0; i < s->n_units; i++) {
			const ms_rts_unit *u = &us[i].u;
			if (u->type == r->base && u->player == player && us[i].slot < 0 && P >= types[r->worker].cost)
				if ((rc = bot_al_train(&r->al, u->id, r->worker)))
					return rc;
		}
	} else {
		int nworkers = 0;
		for (int i = 0; i < s->n_units; i++)
			nworkers += us[i].u.type == r->worker && us[i].u.player == player;
		for (int i = 0; i < s->n_units; i++) {
			const ms_rts_unit *u = &us[i].u;
			if (u->type == r->base && u->player == player && us[i].slot < 0 && nworkers < 1 &&
			    P >= types[r->worker].cost)
				if ((rc = bot_al_train(&r->al, u->id, r->worker)))
					return rc;
		}
		for (int i = 0; i < s->n_units; i++) {
			const ms_rts_unit *u = &us[i].u;
			if (u->type == r->barracks && u->player == player && us[i].slot < 0 &&
			    P >= types[r->military].cost)
				if ((rc = bot_al_train(&r->al, u->id, r->military)))
					return rc;
		}
	}
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		const ms_rts_unit_type *t = &types[u->type];
		if (t->can_attack && !t->can_harvest && u->player == player && us[i].slot < 0)
			if ((rc = attack_closest(r, s, u, player)))
				return rc;
	}
	for (int i = 0; i < s->n_units; i++)
		if (types[us[i].u.type].can_harvest && us[i].u.player == player)
			r->workers[nw++] = us[i].u.id;
	if (nw) {
		rc = r->military < 0 ? worker_rush_workers(r, s, player, nw) : military_rush_workers(r, s, player, nw);
		if (rc)
			return rc;
	}
	return bot_al_translate(&r->al, player, out, max, n);
}

static int rush_reset(ms_bot *b)
{
	bot_al_clear(&((rush *)b->impl)->al);
	return MS_OK;
}

static void rush_free(ms_bot *b)
{
	rush *r = b->impl;
	if (!r)
		return;
	bot_al_dispose(&r->al);
	ms_ctx_mfree(b->ctx, r->workers);
	ms_ctx_mfree(b->ctx, r->reserved);
	ms_ctx_mfree(b->ctx, r);
	b->impl = NULL;
}

static const ms_bot_ops worker_rush_ops = { "WorkerRush", "ai.abstraction.WorkerRush", rush_reset, rush_decide,
					    rush_free };
static const ms_bot_ops light_rush_ops = { "LightRush", "ai.abstraction.LightRush", rush_reset, rush_decide,
					   rush_free };
static const ms_bot_ops heavy_rush_ops = { "HeavyRush", "ai.abstraction.HeavyRush", rush_reset, rush_decide,
					   rush_free };
static const ms_bot_ops ranged_rush_ops = { "RangedRush", "ai.abstraction.RangedRush", rush_reset, rush_decide,
					    rush_free };

int bot_rush_new(ms_bot *b, const char *military)
{
	rush *r = ms_ctx_calloc(b->ctx, 1, sizeof(rush));
	const char *need[4] = { "Worker", "Base", "Barracks", military };

	if (!r)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "bot: out of memory");
	bot_al_init(&r->al, b->ctx);
	r->worker = ms_rts_utt_find(b->utt, "Worker");
	r->base = ms_rts_utt_find(b->utt, "Base");
	r->barracks = ms_rts_utt_find(b->utt, "Barracks");
	r->military = military ? ms_rts_utt_find(b->utt, military) : -1;
	b->impl = r;
	b->ops = !military ? &worker_rush_ops
		 : !strcmp(military, "Light") ? &light_rush_ops
		 : !strcmp(military, "Heavy") ? &heavy_rush_ops
					      : &ranged_rush_ops;
	for (int i = 0; i < 4; i++)
		if (need[i] && ms_rts_utt_find(b->utt, need[i]) < 0)
			return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the unit type table has no type \"%s\"", b->ops->name,
					    need[i]);
	return MS_OK;
}
