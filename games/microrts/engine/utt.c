/*
 * Unit type tables: the three official versions, and the field reader that
 * builds tables from the official JSON and XML forms (the forms themselves
 * are read in utt_io.c). Types keep the official order (Resource, Base,
 * Barracks, Worker, Light, Heavy, Ranged), which fixes their ids.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "games/microrts/engine/utt_internal.h"

enum { T_RESOURCE, T_BASE, T_BARRACKS, T_WORKER, T_LIGHT, T_HEAVY, T_RANGED, T_COUNT };

/* Class defaults of rts.units.UnitType. */
static void type_defaults(ms_rts_unit_type *t, int id, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->id = id;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->cost = 1;
	t->hp = 1;
	t->min_damage = 1;
	t->max_damage = 1;
	t->attack_range = 1;
	t->produce_time = 10;
	t->move_time = 10;
	t->attack_time = 10;
	t->harvest_time = 10;
	t->return_time = 10;
	t->harvest_amount = 1;
	t->sight_radius = 4;
	t->can_move = 1;
	t->can_attack = 1;
}

static void link(ms_rts_utt *u, int producer, int product)
{
	ms_rts_unit_type *p = &u->types[producer], *q = &u->types[product];

	p->produces[p->n_produces++] = product;
	q->produced_by[q->n_produced_by++] = producer;
}

void rts_utt_finish(ms_rts_utt *u)
{
	u->max_attack_range = 0;
	for (int i = 0; i < u->n_types; i++)
		if (u->types[i].attack_range > u->max_attack_range)
			u->max_attack_range = u->types[i].attack_range;
}

ms_rts_utt *rts_utt_alloc(ms_ctx *ctx)
{
	ms_rts_utt *u = ms_ctx_calloc(ctx, 1, sizeof(*u));

	if (u)
		u->ctx = ctx;
	return u;
}

int ms_rts_utt_new(ms_ctx *ctx, ms_rts_utt **out, int version, int conflict_policy)
{
	static const char *const names[T_COUNT] = { "Resource", "Base", "Barracks", "Worker",
						    "Light", "Heavy", "Ranged" };
	ms_rts_utt *u;
	ms_rts_unit_type *t;

	*out = NULL;
	if (version < 1 || version > 3)
		return ms_ctx_error(ctx, MS_EINVAL, "unit type table version %d: expected 1, 2 or 3", version);
	u = rts_utt_alloc(ctx);
	if (!u)
		return MS_ENOMEM;
	u->version = version;
	u->conflict_policy = conflict_policy;
	u->n_types = T_COUNT;
	for (int i = 0; i < T_COUNT; i++)
		type_defaults(&u->types[i], i, names[i]);

	t = &u->types[T_RESOURCE];
	t->is_resource = 1;
	t->can_move = t->can_attack = 0;
	t->sight_radius = 0;

	t = &u->types[T_BASE];
	t->cost = 10;
	t->hp = 10;
	/* Version 3 never sets it: the class default of 10 stays (a real quirk). */
	t->produce_time = version == 1 ? 250 : version == 2 ? 200 : 10;
	t->is_stockpile = 1;
	t->can_move = t->can_attack = 0;
	t->sight_radius = 5;

	t = &u->types[T_BARRACKS];
	t->cost = 5;
	t->hp = 4;
	t->produce_time = version == 1 ? 200 : 100;
	t->can_move = t->can_attack = 0;
	t->sight_radius = 3;

	t = &u->types[T_WORKER];
	t->cost = 1;
	t->hp = 1;
	t->min_damage = version == 3 ? 0 : 1;
	t->max_damage = version == 3 ? 2 : 1;
	t->produce_time = 50;
	t->attack_time = 5;
	t->harvest_time = 20;
	t->can_harvest = 1;
	t->sight_radius = 3;

	t = &u->types[T_LIGHT];
	t->cost = 2;
	t->hp = 4;
	t->min_damage = version == 3 ? 1 : 2;
	t->max_damage = version == 3 ? 3 : 2;
	t->produce_time = 80;
	t->move_time = 8;
	t->attack_time = 5;
	t->sight_radius = 2;

	t = &u->types[T_HEAVY];
	t->cost = version == 1 ? 2 : 3;
	t->hp = version == 1 ? 4 : 8;
	t->min_damage = version == 3 ? 0 : 4;
	t->max_damage = version == 3 ? 6 : 4;
	t->produce_time = 120;
	t->move_time = version == 1 ? 12 : 10;
	t->attack_time = 5;
	t->sight_radius = 2;

	t = &u->types[T_RANGED];
	t->cost = 2;
	t->hp = 1;
	t->min_damage = 1;
	t->max_damage = version == 3 ? 2 : 1;
	t->attack_range = 3;
	t->produce_time = 100;
	t->attack_time = 5;
	t->sight_radius = 3;

	/* produces/producedBy in the order the Java builder adds them */
	link(u, T_BASE, T_WORKER);
	link(u, T_BARRACKS, T_LIGHT);
	link(u, T_BARRACKS, T_HEAVY);
	link(u, T_BARRACKS, T_RANGED);
	link(u, T_WORKER, T_BASE);
	link(u, T_WORKER, T_BARRACKS);
	rts_utt_finish(u);
	*out = u;
	return MS_OK;
}

void ms_rts_utt_free(ms_rts_utt *u)
{
	if (u)
		ms_ctx_mfree(u->ctx, u);
}

int ms_rts_utt_count(const ms_rts_utt *u)
{
	return u->n_types;
}

const ms_rts_unit_type *ms_rts_utt_type(const ms_rts_utt *u, int id)
{
	return id >= 0 && id < u->n_types ? &u->types[id] : NULL;
}

int ms_rts_utt_find(const ms_rts_utt *u, const char *name)
{
	for (int i = 0; i < u->n_types; i++)
		if (!strcmp(u->types[i].name, name))
			return i;
	return -1;
}

int ms_rts_utt_conflict_policy(const ms_rts_utt *u)
{
	return u->conflict_policy;
}

int ms_rts_utt_max_attack_range(const ms_rts_utt *u)
{
	return u->max_attack_range;
}

/* The stats both serialisations name, and where they live. */
typedef struct field {
	const char *key;
	size_t off;
} field;

static const field ints[] = {
	{ "cost", offsetof(ms_rts_unit_type, cost) },
	{ "hp", offsetof(ms_rts_unit_type, hp) },
	{ "minDamage", offsetof(ms_rts_unit_type, min_damage) },
	{ "maxDamage", offsetof(ms_rts_unit_type, max_damage) },
	{ "attackRange", offsetof(ms_rts_unit_type, attack_range) },
	{ "produceTime", offsetof(ms_rts_unit_type, produce_time) },
	{ "moveTime", offsetof(ms_rts_unit_type, move_time) },
	{ "attackTime", offsetof(ms_rts_unit_type, attack_time) },
	{ "harvestTime", offsetof(ms_rts_unit_type, harvest_time) },
	{ "returnTime", offsetof(ms_rts_unit_type, return_time) },
	{ "harvestAmount", offsetof(ms_rts_unit_type, harvest_amount) },
	{ "sightRadius", offsetof(ms_rts_unit_type, sight_radius) },
};

static const field bools[] = {
	{ "isResource", offsetof(ms_rts_unit_type, is_resource) },
	{ "isStockpile", offsetof(ms_rts_unit_type, is_stockpile) },
	{ "canHarvest", offsetof(ms_rts_unit_type, can_harvest) },
	{ "canMove", offsetof(ms_rts_unit_type, can_move) },
	{ "canAttack", offsetof(ms_rts_unit_type, can_attack) },
};

static int resolve_links(ms_ctx *ctx, ms_rts_utt *u, const rts_pending_names *pn, const char *what)
{
	for (int i = 0; i < u->n_types; i++) {
		ms_rts_unit_type *t = &u->types[i];
		for (int k = 0; k < t->n_produces; k++) {
			int id = ms_rts_utt_find(u, pn->produces[i][k]);
			if (id < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: type '%s' produces unknown type '%s'",
						    what, t->name, pn->produces[i][k]);
			t->produces[k] = id;
		}
		for (int k = 0; k < t->n_produced_by; k++) {
			int id = ms_rts_utt_find(u, pn->produced_by[i][k]);
			if (id < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: type '%s' is produced by unknown type '%s'",
						    what, t->name, pn->produced_by[i][k]);
			t->produced_by[k] = id;
		}
	}
	return MS_OK;
}

int rts_utt_check_type(ms_ctx *ctx, const ms_rts_utt *u, const ms_rts_unit_type *t, const char *what)
{
	if (!t->name[0])
		return ms_ctx_error(ctx, MS_EPARSE, "%s: unit type %d has an empty name", what, t->id);
	if (ms_rts_utt_find(u, t->name) >= 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: unit type '%s' appears twice", what, t->name);
	if (t->cost < 0 || t->hp < 0 || t->min_damage < 0 || t->max_damage < t->min_damage ||
	    t->attack_range < 0 || t->harvest_amount < 0 || t->sight_radius < 0)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: unit type '%s' has a negative or inverted stat",
				    what, t->name);
	if (t->attack_range > MS_RTS_MAX_SIDE)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: unit type '%s' attack range %d is too large",
				    what, t->name, t->attack_range);
	return MS_OK;
}

int rts_utt_read_type(ms_ctx *ctx, const rts_type_reader *r, const void *node, const char *what, const char *name,
		      ms_rts_utt *u, rts_pending_names *pn)
{
	ms_rts_unit_type t;
	int i = u->n_types, id = i, rc;

	if (i >= MS_RTS_MAX_TYPES)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: more than %d unit types", what, MS_RTS_MAX_TYPES);
	if (strlen(name) >= MS_RTS_TYPE_NAME_MAX)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: name '%.40s' is too long", what, name);
	type_defaults(&t, i, name);
	/* Ids are positions: rules and serialisations index types by them. */
	if ((rc = r->get_int(ctx, what, node, "ID", r->required, &id)))
		return rc;
	if (id != i)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: unit type '%s' has ID %d, its position is %d", what, name, id, i);
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		if ((rc = r->get_int(ctx, what, node, ints[k].key, r->required, (int *)((char *)&t + ints[k].off))))
			return rc;
	for (size_t k = 0; k < sizeof(bools) / sizeof(bools[0]); k++)
		if ((rc = r->get_bool(ctx, what, node, bools[k].key, r->required, (int *)((char *)&t + bools[k].off))))
			return rc;
	if ((rc = r->get_names(ctx, what, node, "produces", pn->produces[i], &t.n_produces)) ||
	    (rc = r->get_names(ctx, what, node, "producedBy", pn->produced_by[i], &t.n_produced_by)) ||
	    (rc = rts_utt_check_type(ctx, u, &t, what)))
		return rc;
	u->types[u->n_types++] = t;
	return MS_OK;
}

int rts_utt_complete(ms_ctx *ctx, ms_rts_utt *u, const rts_pending_names *pn, const char *what)
{
	int rc;

	if (u->n_types == 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: no unit types", what);
	if ((rc = resolve_links(ctx, u, pn, what)))
		return rc;
	rts_utt_finish(u);
	return MS_OK;
}

