/*
 * WorkerRush, LightRush, HeavyRush and RangedRush (ai.abstraction.*): the
 * scripted rushes of the official jar, deciding through the abstraction
 * layer. `military` is NULL for WorkerRush, else the type the barracks
 * trains; the four share the harvesting and attacking rules.
 */
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"

typedef struct rush {
	bot_al al;
	int worker, base, barracks, military; /* type ids; military -1 for WorkerRush */
	int *units;                           /* scratch: unit indices by role, 5 x cap_units */
	int cap_units;
	int *workers;                         /* the workers' part of it */
	int *idle;                            /* the part for workers without a Harvest */
	int reserved[2];                      /* building sites chosen in this decision */
} rush;

/* The unit nearest to (x, y) by Manhattan distance, the earliest in `list`
 * (unit-list order) on ties; -1 when the list is empty. The key (distance,
 * place in the list) keeps the loop free of branches. */
static int nearest(const bf_unit *list, int n, int x, int y)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < n; i++) {
		uint64_t key = (uint64_t)(abs(list[i].x - x) + abs(list[i].y - y)) << 32 | (uint32_t)i;
		best = key < best ? key : best;
	}
	return n ? list[(uint32_t)best].i : -1;
}

/* attackClosest: the nearest unit of another (non-neutral) player. */
static int attack_closest(rush *r, int ui)
{
	const bot_frame *f = &r->al.f;
	const ms_rts_unit *u = &rts_cunits(f->s)[ui].u;
	int best = nearest(f->others, f->n_others, u->x, u->y);

	return best < 0 ? MS_OK : bot_al_attack(&r->al, ui, best);
}

/* buildIfNotAlreadyBuilding */
static int build_if_not_already(rush *r, int ui, int type, int *nres)
{
	const ms_rts_state *s = r->al.f.s;
	const ms_rts_unit *u = &rts_cunits(s)[ui].u;
	al_entry *cur = bot_al_get(&r->al, ui);
	int pos;

	if (cur && cur->kind == AL_BUILD && cur->type == type)
		return MS_OK;
	pos = bot_al_building_position(s, r->reserved, *nres, u->x, u->y);
	r->reserved[(*nres)++] = pos;
	/* Java's % and / on -1 give the unreachable site (-1, 0) */
	return bot_al_build(&r->al, ui, type, pos % s->width, pos / s->width);
}

/*
 * The harvester rule: nearest resource and own stockpile. *idle receives 1
 * when the worker got no Harvest. The 2022 jar assigns one only when both
 * exist, whatever the worker carries. Since 2023 a carrying worker is sent
 * to the nearest stockpile alone (kept when its Harvest already heads
 * there), so it can bring its load home after the resources ran out.
 */
static int harvester(rush *r, int ui, int *idle)
{
	const bot_frame *f = &r->al.f;
	const rts_unit *us = rts_cunits(f->s);
	const ms_rts_unit *u = &us[ui].u;
	int res = nearest(f->res, f->n_res, u->x, u->y), base = nearest(f->stock, f->n_stock, u->x, u->y);
	const al_entry *cur;

	*idle = 0;
	if (r->al.edition == MS_PATH_EDITION_2023 && u->resources > 0) {
		if (base < 0) {
			*idle = 1;
			return MS_OK;
		}
		cur = bot_al_get(&r->al, ui);
		if (cur && cur->kind == AL_HARVEST && cur->base == us[base].u.id)
			return MS_OK;
		return bot_al_harvest(&r->al, ui, -1, base);
	}
	if (res < 0 || base < 0) {
		*idle = 1;
		return MS_OK;
	}
	cur = bot_al_get(&r->al, ui);
	if (cur && cur->kind == AL_HARVEST && cur->target == us[res].u.id && cur->base == us[base].u.id)
		return MS_OK;
	return bot_al_harvest(&r->al, ui, res, base);
}

/* Takes the next worker to build `type` when none is owned and the stock
 * (less what this decision spent) pays for it. */
static int build_one(rush *r, int type, int owned, int *head, int nw, int *spent, int *nres)
{
	const ms_rts_state *s = r->al.f.s;
	int cost = s->utt->types[type].cost, rc;

	if (owned || *head >= nw || s->resources[r->al.f.player] < cost + *spent)
		return MS_OK;
	if ((rc = build_if_not_already(r, r->workers[(*head)++], type, nres)))
		return rc;
	*spent += cost;
	return MS_OK;
}

/*
 * Workers that get no Harvest: the 2022 jar leaves them alone; since 2023
 * they attack the nearest enemy, after every other worker had its turn
 * (WorkerRush puts its harvester back at the end of its free workers, the
 * military rushes collect the still-free ones and send them last).
 */
static int worker_rush_workers(rush *r, int nw, int nbases)
{
	int nres = 0, spent = 0, head = 0, idle = 0, hw = -1, rc;

	if ((rc = build_one(r, r->base, nbases, &head, nw, &spent, &nres)))
		return rc;
	if (head < nw && (rc = harvester(r, hw = r->workers[head++], &idle)))
		return rc;
	for (int i = head; i < nw; i++)
		if ((rc = attack_closest(r, r->workers[i])))
			return rc;
	if (idle && r->al.edition == MS_PATH_EDITION_2023)
		return attack_closest(r, hw);
	return MS_OK;
}

static int military_rush_workers(rush *r, int nw, int nbases, int nbarracks)
{
	int nres = 0, spent = 0, head = 0, n_idle = 0, idle, rc;

	if ((rc = build_one(r, r->base, nbases, &head, nw, &spent, &nres)) ||
	    (rc = build_one(r, r->barracks, nbarracks, &head, nw, &spent, &nres)))
		return rc;
	for (int i = head; i < nw; i++) {
		if ((rc = harvester(r, r->workers[i], &idle)))
			return rc;
		if (idle)
			r->idle[n_idle++] = r->workers[i];
	}
	if (r->al.edition != MS_PATH_EDITION_2023)
		return MS_OK;
	for (int i = 0; i < n_idle; i++)
		if ((rc = attack_closest(r, r->idle[i])))
			return rc;
	return MS_OK;
}

static int rush_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	rush *r = b->impl;
	const ms_rts_unit_type *types = s->utt->types;
	const rts_unit *us = rts_cunits(s);
	const bf_unit *own;
	int P, n_own, nw = 0, nworkers = 0, nbases = 0, nbarracks = 0, ntrain[2] = { 0, 0 }, nmil = 0, rc;
	int *workers, *train[2], *mil;

	*n = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(b->ctx, MS_EINVAL, "%s: player %d", b->ops->name, player);
	if (s->utt != b->utt)
		return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the state uses another unit type table", b->ops->name);
	r->al.edition = b->edition;
	r->al.astar.memo = b->memo;
	if ((rc = bot_al_begin(&r->al, s, player)))
		return rc;
	if (s->n_units > r->cap_units || !r->units) { /* never NULL: a unitless state still offsets it */
		int need = s->n_units > 0 ? s->n_units : 1;
		ms_ctx_mfree(b->ctx, r->units);
		r->cap_units = (r->units = ms_ctx_malloc(b->ctx, sizeof(int) * 5 * (size_t)need)) ? need : 0;
		if (!r->units)
			return ms_ctx_error(b->ctx, MS_ENOMEM, "%s: out of memory", b->ops->name);
	}
	workers = r->workers = r->units;
	train[0] = workers + s->n_units;
	train[1] = train[0] + s->n_units;
	mil = train[1] + s->n_units;
	r->idle = mil + s->n_units;
	P = s->resources[player];
	own = r->al.f.own;
	n_own = r->al.f.n_own;
	/* The Java classes walk the unit list once per role, in this order, and
	 * the abstract actions map keeps insertion order: one pass sorts the
	 * units by role (in list order), then each role is served in turn. */
	for (int k = 0; k < n_own; k++) {
		const rts_unit *u = &us[own[k].i];
		const ms_rts_unit_type *t = &types[u->u.type];
		nworkers += u->u.type == r->worker;
		nbases += u->u.type == r->base;
		nbarracks += u->u.type == r->barracks;
		if (u->slot < 0 && u->u.type == r->base)
			train[0][ntrain[0]++] = own[k].i;
		if (u->slot < 0 && u->u.type == r->barracks)
			train[1][ntrain[1]++] = own[k].i;
		if (u->slot < 0 && t->can_attack && !t->can_harvest)
			mil[nmil++] = own[k].i;
		if (t->can_harvest)
			workers[nw++] = own[k].i;
	}
	if (P >= types[r->worker].cost && (r->military < 0 || nworkers < 1))
		for (int k = 0; k < ntrain[0]; k++)
			if ((rc = bot_al_train(&r->al, train[0][k], r->worker)))
				return rc;
	if (r->military >= 0 && P >= types[r->military].cost)
		for (int k = 0; k < ntrain[1]; k++)
			if ((rc = bot_al_train(&r->al, train[1][k], r->military)))
				return rc;
	for (int k = 0; k < nmil; k++)
		if ((rc = attack_closest(r, mil[k])))
			return rc;
	if (nw) {
		rc = r->military < 0 ? worker_rush_workers(r, nw, nbases)
				     : military_rush_workers(r, nw, nbases, nbarracks);
		if (rc)
			return rc;
	}
	return bot_al_translate(&r->al, out, max, n);
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
	ms_ctx_mfree(b->ctx, r->units);
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
