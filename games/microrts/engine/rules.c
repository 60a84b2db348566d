/*
 * The rules of rts.GameState / rts.UnitAction: legal actions, resource
 * usage, issueSafe and issue with move-conflict resolution, the cycle.
 * Orders follow Java's exactly (see spec section 17): pending actions run
 * in insertion order, units are scanned in unit-list order, neighbours up,
 * right, down, left.
 */
#include <string.h>

#include "games/microrts/engine/rts.h"

int ms_rts_action_duration(const ms_rts_utt *utt, const ms_rts_action *a, int type)
{
	const ms_rts_unit_type *t = &utt->types[type];

	switch (a->type) {
	case MS_RTS_MOVE: return t->move_time;
	case MS_RTS_ATTACK: return t->attack_time;
	case MS_RTS_HARVEST: return t->harvest_time;
	case MS_RTS_RETURN: return t->move_time; /* not returnTime: Java's rule */
	case MS_RTS_PRODUCE:
		return a->unit_type >= 0 && a->unit_type < utt->n_types ? utt->types[a->unit_type].produce_time : 0;
	default: return a->parameter;
	}
}

static ms_rts_action make(int type, int parameter, int x, int y, int unit_type)
{
	ms_rts_action a;

	a.type = type;
	a.parameter = parameter;
	a.x = x;
	a.y = y;
	a.unit_type = unit_type;
	return a;
}

static ms_rts_action none_of(int duration)
{
	return make(MS_RTS_NONE, duration, -1, -1, -1);
}

/* Cell free for a move or a production: inside, no wall, no unit. */
static int cell_open(const ms_rts_state *s, int x, int y)
{
	return rts_inside(s, x, y) && rts_cterrain(s)[x + y * s->width] == 0 && rts_unit_at(s, x, y) < 0;
}

#define PUSH(act)                        \
	do {                             \
		if (n < max)             \
			out[n] = (act);  \
		n++;                     \
	} while (0)

int ms_rts_legal_actions(const ms_rts_state *s, const ms_rts_unit *u, int none_duration,
			 ms_rts_action *out, int max)
{
	const ms_rts_utt *utt = s->utt;
	const ms_rts_unit_type *t = &utt->types[u->type];
	const rts_unit *us = rts_cunits(s);
	int nb[4], n = 0;

	for (int d = 0; d < 4; d++)
		nb[d] = rts_unit_at(s, u->x + rts_dx[d], u->y + rts_dy[d]);
	if (t->can_attack) {
		if (t->attack_range == 1) {
			for (int d = 0; d < 4; d++) {
				const ms_rts_unit *v = nb[d] >= 0 ? &us[nb[d]].u : NULL;
				if (v && v->player >= 0 && v->player != u->player)
					PUSH(make(MS_RTS_ATTACK, -1, v->x, v->y, -1));
			}
		} else {
			int r2 = t->attack_range * t->attack_range;
			for (int i = 0; i < s->n_units; i++) {
				const ms_rts_unit *v = &us[i].u;
				int dx = v->x - u->x, dy = v->y - u->y;
				if (v->player >= 0 && v->player != u->player && dx * dx + dy * dy <= r2)
					PUSH(make(MS_RTS_ATTACK, -1, v->x, v->y, -1));
			}
		}
	}
	if (t->can_harvest) {
		for (int d = 0; d < 4; d++) {
			const ms_rts_unit *v = nb[d] >= 0 ? &us[nb[d]].u : NULL;
			if (!v)
				continue;
			if (u->resources == 0 && utt->types[v->type].is_resource)
				PUSH(make(MS_RTS_HARVEST, d, -1, -1, -1));
			else if (u->resources > 0 && utt->types[v->type].is_stockpile && v->player == u->player)
				PUSH(make(MS_RTS_RETURN, d, -1, -1, -1));
		}
	}
	for (int k = 0; k < t->n_produces; k++) {
		int pt = t->produces[k];
		if (u->player < 0 || u->player > 1 || s->resources[u->player] < utt->types[pt].cost)
			continue;
		for (int d = 0; d < 4; d++)
			if (cell_open(s, u->x + rts_dx[d], u->y + rts_dy[d]))
				PUSH(make(MS_RTS_PRODUCE, d, -1, -1, pt));
	}
	if (t->can_move)
		for (int d = 0; d < 4; d++)
			if (cell_open(s, u->x + rts_dx[d], u->y + rts_dy[d]))
				PUSH(make(MS_RTS_MOVE, d, -1, -1, -1));
	PUSH(none_of(none_duration));
	return n;
}

/*
 * Java tests membership in the list above (built with NONE of the action's
 * own duration); with at most one unit per cell these direct tests accept
 * exactly the same actions, without building the list.
 */
int ms_rts_action_legal(const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a)
{
	const ms_rts_utt *utt = s->utt;
	const ms_rts_unit_type *t = &utt->types[u->type];
	const rts_unit *us = rts_cunits(s);
	int d = a->parameter, nx, ny, vi;

	switch (a->type) {
	case MS_RTS_NONE:
		return 1;
	case MS_RTS_ATTACK: {
		int dx = a->x - u->x, dy = a->y - u->y;
		if (!t->can_attack || (vi = rts_unit_at(s, a->x, a->y)) < 0)
			return 0;
		if (us[vi].u.player < 0 || us[vi].u.player == u->player)
			return 0;
		if (t->attack_range == 1)
			return dx * dx + dy * dy == 1;
		return dx * dx + dy * dy <= t->attack_range * t->attack_range;
	}
	default:
		break;
	}
	if (d < 0 || d > 3)
		return 0;
	nx = u->x + rts_dx[d];
	ny = u->y + rts_dy[d];
	switch (a->type) {
	case MS_RTS_MOVE:
		return t->can_move && cell_open(s, nx, ny);
	case MS_RTS_HARVEST:
		vi = rts_unit_at(s, nx, ny);
		return t->can_harvest && u->resources == 0 && vi >= 0 && utt->types[us[vi].u.type].is_resource;
	case MS_RTS_RETURN:
		vi = rts_unit_at(s, nx, ny);
		return t->can_harvest && u->resources > 0 && vi >= 0 &&
		       utt->types[us[vi].u.type].is_stockpile && us[vi].u.player == u->player;
	case MS_RTS_PRODUCE:
		if (u->player < 0 || u->player > 1 || a->unit_type < 0 || a->unit_type >= utt->n_types ||
		    s->resources[u->player] < utt->types[a->unit_type].cost || !cell_open(s, nx, ny))
			return 0;
		for (int k = 0; k < t->n_produces; k++)
			if (t->produces[k] == a->unit_type)
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* ResourceUsage of an action: one cell (or -1) and a cost for one player. */
typedef struct usage {
	int cell;
	int cost[2];
} usage;

static inline void usage_of(const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a, usage *r)
{
	r->cell = -1;
	r->cost[0] = r->cost[1] = 0;
	if (a->type != MS_RTS_MOVE && a->type != MS_RTS_PRODUCE)
		return;
	if (a->parameter >= 0 && a->parameter < 4) {
		int d = a->parameter;
		/* Java computes the index arithmetically, even off the map. */
		r->cell = (u->x + rts_dx[d]) + (u->y + rts_dy[d]) * s->width;
	}
	if (a->type == MS_RTS_PRODUCE && a->unit_type >= 0 && (u->player == 0 || u->player == 1))
		r->cost[u->player] = s->utt->types[a->unit_type].cost;
}

/* ResourceUsage.consistentWith: asymmetric, pairwise, against current stock. */
static int consistent(const ms_rts_state *s, const usage *old, const usage *nu)
{
	if (nu->cell >= 0 && nu->cell == old->cell)
		return 0;
	for (int i = 0; i < 2; i++) {
		int sum;
		if (nu->cost[i] == 0)
			continue;
		sum = old->cost[i] + nu->cost[i];
		if (sum > 0 && sum > s->resources[i])
			return 0;
	}
	return 1;
}

void rts_assign_update(ms_rts_state *s, rts_assign *a)
{
	const ms_rts_unit *u = &rts_cunits(s)[a->unit].u;
	usage r;

	usage_of(s, u, &a->action, &r);
	a->end = a->time + ms_rts_action_duration(s->utt, &a->action, u->type);
	a->use_cell = r.cell;
	a->use_cost[0] = r.cost[0];
	a->use_cost[1] = r.cost[1];
	if (a->end < s->next_end)
		s->next_end = a->end;
}

void rts_assign_append(ms_rts_state *s, int ui, int time, const ms_rts_action *a)
{
	rts_unit *us = rts_units(s);
	rts_assign *as = &rts_assigns(s)[s->n_assign];

	as->key = us[ui].key;
	as->unit = ui;
	as->time = time;
	as->action = *a;
	us[ui].slot = s->n_assign++;
	rts_assign_update(s, as);
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* GameState.issue for one pair whose unit is live unit `ui`. */
static int issue_one(ms_rts_state *s, int ui, ms_rts_action *a)
{
	rts_unit *us = rts_units(s);
	rts_assign *as = rts_assigns(s);
	const ms_rts_unit *u = &us[ui].u;
	usage ru;
	int slot = us[ui].slot;

	usage_of(s, u, a, &ru); /* computed once, as Java does */

	/* An empty usage is consistent with anything; a non-empty one can only
	 * clash with a pending action that reserves something too, since
	 * legality already keeps a cost within the stock. */
	if (ru.cell >= 0 || ru.cost[0] || ru.cost[1]) {
		for (int k = 0; k < s->n_assign; k++) {
			rts_assign *x = &as[k];
			const ms_rts_unit *xu;
			usage xr;

			if (x->use_cell < 0 && !x->use_cost[0] && !x->use_cost[1] &&
			    (!ru.cost[0] || ru.cost[0] <= s->resources[0]) &&
			    (!ru.cost[1] || ru.cost[1] <= s->resources[1]))
				continue;
			xu = &us[x->unit].u;
			xr.cell = x->use_cell;
			xr.cost[0] = x->use_cost[0];
			xr.cost[1] = x->use_cost[1];
			if (consistent(s, &xr, &ru))
				continue;
			if (x->time == s->time) {
				int d1 = ms_rts_action_duration(s->utt, &x->action, xu->type);
				int d2 = ms_rts_action_duration(s->utt, a, u->type);
				int cancel_old = 1, cancel_new = 1;
				int32_t r;

				switch (s->utt->conflict_policy) {
				case MS_RTS_CONFLICT_CANCEL_RANDOM:
					ms_jrandom_next_int_bounded(&s->rng_conflict, 2, &r);
					cancel_new = r == 0;
					cancel_old = r != 0;
					break;
				case MS_RTS_CONFLICT_CANCEL_ALTERNATING:
					cancel_new = s->cancel_counter % 2 == 0;
					cancel_old = !cancel_new;
					s->cancel_counter++;
					break;
				default:
					break;
				}
				if (cancel_old) {
					x->action = none_of(min_int(d1, d2));
					rts_assign_update(s, x);
				}
				if (cancel_new)
					*a = none_of(min_int(d1, d2));
			} else {
				*a = none_of(-1);
			}
		}
	}
	if (slot < 0) {
		slot = s->n_assign++;
		as[slot].key = us[ui].key;
		as[slot].unit = ui;
		us[ui].slot = slot;
	}
	as[slot].action = *a;
	as[slot].time = s->time;
	rts_assign_update(s, &as[slot]);
	return a->type != MS_RTS_NONE;
}

/* Catches what Java would crash on, before anything is changed. */
static int validate_pair(ms_ctx *ctx, const ms_rts_state *s, const ms_rts_pair *p, int i, int owner)
{
	const ms_rts_action *a = &p->action;
	const ms_rts_utt *utt = s->utt;

	if (p->unit.player != owner)
		return ms_ctx_error(ctx, MS_EINVAL, "player action pair %d: unit %lld belongs to player %d, "
				    "the others to player %d", i, (long long)p->unit.id, p->unit.player, owner);
	if (p->unit.type < 0 || p->unit.type >= utt->n_types)
		return ms_ctx_error(ctx, MS_EINVAL, "player action pair %d: unit %lld has unknown type %d",
				    i, (long long)p->unit.id, p->unit.type);
	if (a->type < MS_RTS_NONE || a->type > MS_RTS_ATTACK)
		return ms_ctx_error(ctx, MS_EINVAL, "player action pair %d: unit %lld: unknown action type %d",
				    i, (long long)p->unit.id, a->type);
	if (a->type == MS_RTS_PRODUCE && (a->unit_type < 0 || a->unit_type >= utt->n_types))
		return ms_ctx_error(ctx, MS_EINVAL, "player action pair %d: unit %lld: produce without a valid unit type",
				    i, (long long)p->unit.id);
	if (rts_unit_at(s, p->unit.x, p->unit.y) < 0)
		return ms_ctx_error(ctx, MS_ENOTFOUND, "player action pair %d: no live unit on (%d, %d) for unit %lld",
				    i, p->unit.x, p->unit.y, (long long)p->unit.id);
	return MS_OK;
}

int ms_rts_issue_safe(ms_ctx *ctx, ms_rts_state *s, ms_rts_pair *pairs, int n, int *any_issued)
{
	int owner, any = 0;

	if (any_issued)
		*any_issued = 0;
	if (n <= 0)
		return MS_OK;
	owner = pairs[0].unit.player;
	if (owner != 0 && owner != 1)
		return ms_ctx_error(ctx, MS_EINVAL, "player action pair 0: unit %lld is not owned by a player",
				    (long long)pairs[0].unit.id);
	for (int i = 0; i < n; i++) {
		int rc = validate_pair(ctx, s, &pairs[i], i, owner);
		if (rc)
			return rc;
	}
	/* Legality against the unit as the AI saw it, then the live unit: the
	 * one with that id on that cell, else the first on that cell. Legality
	 * reads only units, terrain and stock, which issuing does not change,
	 * so checking pair by pair equals checking all first. */
	for (int i = 0; i < n; i++) {
		ms_rts_pair *p = &pairs[i];
		int ui;

		if (!ms_rts_action_legal(s, &p->unit, &p->action))
			p->action = none_of(ms_rts_action_duration(s->utt, &p->action, p->unit.type));
		ui = rts_unit_at(s, p->unit.x, p->unit.y);
		p->unit = rts_units(s)[ui].u;
		any |= issue_one(s, ui, &p->action);
	}
	if (any_issued)
		*any_issued = any;
	return MS_OK;
}

/* What a ready action needs of its unit, even if the unit died this cycle. */
typedef struct ready {
	rts_assign a;
	ms_rts_unit u;
} ready;

static int execute(ms_ctx *ctx, ms_rts_state *s, const ready *r)
{
	const ms_rts_utt *utt = s->utt;
	const ms_rts_action *a = &r->a.action;
	/* Its index when the cycle began, unless a removal moved it since. */
	int ui = r->a.unit < s->n_units && rts_cunits(s)[r->a.unit].key == r->a.key ? r->a.unit
									     : rts_find_key(s, r->a.key);
	/* A dead unit's effects go to a scratch copy, as Java's do to the
	 * removed object: they matter only through what they change elsewhere. */
	ms_rts_unit scratch = r->u;
	ms_rts_unit *u = ui >= 0 ? &rts_units(s)[ui].u : &scratch;
	const ms_rts_unit_type *t = &utt->types[u->type];

	switch (a->type) {
	case MS_RTS_MOVE: {
		int d = a->parameter;
		if (d < 0 || d > 3)
			return MS_OK;
		if (ui >= 0) {
			uint16_t *grid = rts_grid(s);
			int nx = u->x + rts_dx[d], ny = u->y + rts_dy[d];
			if (!rts_inside(s, nx, ny) || grid[nx + ny * s->width])
				return ms_ctx_error(ctx, MS_EILLEGAL, "cycle %d: unit %lld cannot move onto (%d, %d)",
						    s->time, (long long)u->id, nx, ny);
			grid[u->x + u->y * s->width] = 0;
			u->x = nx;
			u->y = ny;
			grid[nx + ny * s->width] = (uint16_t)(ui + 1);
		}
		return MS_OK;
	}
	case MS_RTS_ATTACK: {
		int vi = rts_unit_at(s, a->x, a->y), damage;
		rts_unit *v;
		if (vi < 0)
			return MS_OK; /* missed: no random draw */
		damage = t->min_damage;
		if (t->max_damage != t->min_damage) {
			int32_t r2;
			ms_jrandom_next_int_bounded(&s->rng_damage, t->max_damage - t->min_damage + 1, &r2);
			damage += r2;
		}
		v = &rts_units(s)[vi];
		v->u.hitpoints -= damage;
		if (v->u.hitpoints <= 0)
			rts_remove_unit(s, vi);
		return MS_OK;
	}
	case MS_RTS_HARVEST: {
		int d = a->parameter, fi;
		rts_unit *f;
		if (d < 0 || d > 3)
			return MS_OK;
		fi = rts_unit_at(s, u->x + rts_dx[d], u->y + rts_dy[d]);
		if (fi < 0)
			return MS_OK;
		f = &rts_units(s)[fi];
		if (!utt->types[f->u.type].is_resource || !t->can_harvest || u->resources != 0)
			return MS_OK;
		f->u.resources -= t->harvest_amount;
		if (f->u.resources <= 0) {
			rts_remove_unit(s, fi);
			if (ui > fi) /* our unit shifted down by one */
				u = &rts_units(s)[--ui].u;
		}
		u->resources = t->harvest_amount;
		return MS_OK;
	}
	case MS_RTS_RETURN: {
		int d = a->parameter, si;
		if (d < 0 || d > 3)
			return MS_OK;
		si = rts_unit_at(s, u->x + rts_dx[d], u->y + rts_dy[d]);
		if (si < 0 || !utt->types[rts_units(s)[si].u.type].is_stockpile || u->resources <= 0)
			return MS_OK;
		if (u->player == 0 || u->player == 1)
			s->resources[u->player] += u->resources;
		u->resources = 0;
		return MS_OK;
	}
	case MS_RTS_PRODUCE: {
		int d = a->parameter;
		const ms_rts_unit_type *pt;
		ms_rts_unit nu;
		if (d < 0 || d > 3 || a->unit_type < 0 || a->unit_type >= utt->n_types)
			return MS_OK;
		pt = &utt->types[a->unit_type];
		nu.id = s->next_id++; /* consumed even if the production fails */
		nu.type = a->unit_type;
		nu.player = u->player;
		nu.x = u->x + rts_dx[d];
		nu.y = u->y + rts_dy[d];
		nu.resources = 0;
		nu.hitpoints = pt->hp;
		if (u->player < 0 || u->player > 1 || s->resources[u->player] - pt->cost < 0)
			return MS_OK; /* Java prints an error and drops the unit */
		/* issueSafe reserved the cell; Java would throw if it were taken. */
		if (!rts_inside(s, nu.x, nu.y) || rts_unit_at(s, nu.x, nu.y) >= 0)
			return ms_ctx_error(ctx, MS_EILLEGAL, "cycle %d: unit %lld produces onto blocked (%d, %d)",
					    s->time, (long long)u->id, nu.x, nu.y);
		{
			int rc = rts_state_add_unit(ctx, s, &nu, "produce");
			if (rc)
				return rc;
		}
		s->resources[u->player] -= pt->cost;
		return MS_OK;
	}
	default:
		return MS_OK;
	}
}

int ms_rts_cycle(ms_ctx *ctx, ms_rts_state *s, int *gameover)
{
	ready buf[256];
	ready *list = buf;
	rts_assign *as;
	int n = 0, kept = 0, next_end = INT32_MAX, rc = MS_OK;

	if (gameover)
		*gameover = 0;
	s->time++;
	/* Most cycles complete nothing: skip the scan. */
	if (s->time < s->next_end)
		goto out;
	as = rts_assigns(s);
	for (int k = 0; k < s->n_assign; k++)
		n += as[k].end <= s->time;
	if (n > (int)(sizeof(buf) / sizeof(buf[0]))) {
		list = ms_ctx_malloc(ctx, (size_t)n * sizeof(*list));
		if (!list) {
			s->time--;
			return MS_ENOMEM;
		}
	}
	/* Take the ready actions out in order: their units become idle. Java
	 * removes each just before running it; as effects never read pending
	 * actions, removing them all first gives the same result. */
	n = 0;
	for (int k = 0; k < s->n_assign; k++) {
		if (as[k].end <= s->time) {
			list[n].a = as[k];
			list[n].u = rts_cunits(s)[as[k].unit].u;
			n++;
		} else {
			if (as[k].end < next_end)
				next_end = as[k].end;
			as[kept++] = as[k];
		}
	}
	s->n_assign = kept;
	s->next_end = next_end;
	rts_reslot(s);
	for (int i = 0; i < n; i++) {
		int r = execute(ctx, s, &list[i]);
		if (r && rc == MS_OK)
			rc = r; /* finish the cycle: never leave it half-applied */
	}
	if (list != buf)
		ms_ctx_mfree(ctx, list);
out:
	if (gameover)
		*gameover = ms_rts_gameover(s);
	return rc;
}

int ms_rts_gameover(const ms_rts_state *s)
{
	return s->count[0] == 0 || s->count[1] == 0;
}

int ms_rts_winner(const ms_rts_state *s)
{
	if (s->count[0] && !s->count[1])
		return 0;
	if (s->count[1] && !s->count[0])
		return 1;
	return -1;
}
