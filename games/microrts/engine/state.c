/* Game states: one flat block, unit bookkeeping, terrain text (maps are read in map_xml.c). */
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "games/microrts/engine/rts.h"

const int rts_dx[4] = { 0, 1, 0, -1 };
const int rts_dy[4] = { -1, 0, 1, 0 };

static size_t align_up(size_t n)
{
	return (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
}

int rts_state_alloc(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, int w, int h, int64_t seed)
{
	ms_rts_state *s;
	size_t cells, off_grid, off_terrain, off_units, off_assign, bytes;

	*out = NULL;
	if (w < 1 || h < 1 || w > MS_RTS_MAX_SIDE || h > MS_RTS_MAX_SIDE)
		return ms_ctx_error(ctx, MS_ERANGE, "map size %dx%d: each side must be 1..%d", w, h, MS_RTS_MAX_SIDE);
	cells = (size_t)w * (size_t)h;
	if (cells >= UINT16_MAX)
		return ms_ctx_error(ctx, MS_ERANGE, "map size %dx%d: too many cells", w, h);
	/* Fixed-size parts first, the unit and action arrays last: a copy
	 * takes the fixed part and only the used prefix of each array. */
	off_grid = align_up(sizeof(ms_rts_state));
	off_terrain = off_grid + cells * sizeof(uint16_t);
	off_units = align_up(off_terrain + cells);
	off_assign = align_up(off_units + cells * sizeof(rts_unit));
	bytes = align_up(off_assign + cells * sizeof(rts_assign));
	s = ms_ctx_malloc(ctx, bytes);
	if (!s)
		return MS_ENOMEM;
	memset(s, 0, off_units); /* the arrays are read only below their counts */
	s->bytes = bytes;
	s->ctx = ctx;
	s->utt = utt;
	s->width = w;
	s->height = h;
	s->cells = (int)cells;
	s->off_units = off_units;
	s->off_assign = off_assign;
	s->off_grid = off_grid;
	s->off_terrain = off_terrain;
	s->next_key = 1;
	s->next_end = INT32_MAX;
	/* Two generators as in Java (UnitAction.r and GameState.r), seeded
	 * apart so that one stream does not mirror the other. */
	ms_jrandom_init(&s->rng_damage, seed);
	ms_jrandom_init(&s->rng_conflict, seed ^ INT64_C(0x2545F4914F6CDD1D));
	*out = s;
	return MS_OK;
}

/* Header, grid and terrain, then the used units and pending actions. */
static void copy_used(ms_rts_state *dst, const ms_rts_state *src)
{
	ms_ctx *own = dst->ctx;

	memcpy(dst, src, src->off_units);
	dst->ctx = own;
	memcpy((char *)dst + src->off_units, (const char *)src + src->off_units,
	       (size_t)src->n_units * sizeof(rts_unit));
	memcpy((char *)dst + src->off_assign, (const char *)src + src->off_assign,
	       (size_t)src->n_assign * sizeof(rts_assign));
}

int ms_rts_state_clone(ms_ctx *ctx, ms_rts_state **out, const ms_rts_state *s)
{
	ms_rts_state *c = ms_ctx_malloc(ctx, s->bytes);

	*out = NULL;
	if (!c)
		return MS_ENOMEM;
	c->ctx = ctx;
	copy_used(c, s);
	*out = c;
	return MS_OK;
}

int ms_rts_state_copy(ms_rts_state *dst, const ms_rts_state *src)
{
	if (dst == src)
		return MS_OK;
	if (dst->bytes != src->bytes || dst->width != src->width || dst->height != src->height)
		return MS_EINVAL;
	copy_used(dst, src);
	return MS_OK;
}

size_t ms_rts_state_copied_bytes(const ms_rts_state *s)
{
	return s->off_units + (size_t)s->n_units * sizeof(rts_unit) + (size_t)s->n_assign * sizeof(rts_assign);
}

void ms_rts_state_free(ms_rts_state *s)
{
	if (s)
		ms_ctx_mfree(s->ctx, s);
}

size_t ms_rts_state_bytes(const ms_rts_state *s) { return s->bytes; }
const ms_rts_utt *ms_rts_state_utt(const ms_rts_state *s) { return s->utt; }
int ms_rts_state_time(const ms_rts_state *s) { return s->time; }
int ms_rts_state_width(const ms_rts_state *s) { return s->width; }
int ms_rts_state_height(const ms_rts_state *s) { return s->height; }
int ms_rts_state_unit_count(const ms_rts_state *s) { return s->n_units; }
int ms_rts_state_assignment_count(const ms_rts_state *s) { return s->n_assign; }
int64_t ms_rts_state_next_id(const ms_rts_state *s) { return s->next_id; }
void ms_rts_state_set_next_id(ms_rts_state *s, int64_t id) { s->next_id = id; }

int ms_rts_state_terrain(const ms_rts_state *s, int x, int y)
{
	return rts_inside(s, x, y) ? rts_cterrain(s)[x + y * s->width] : 1;
}

int ms_rts_state_resources(const ms_rts_state *s, int player)
{
	return player == 0 || player == 1 ? s->resources[player] : 0;
}

int ms_rts_state_unit(const ms_rts_state *s, int i, ms_rts_unit *out)
{
	if (i < 0 || i >= s->n_units)
		return MS_ERANGE;
	*out = rts_cunits(s)[i].u;
	return MS_OK;
}

int ms_rts_state_unit_at(const ms_rts_state *s, int x, int y)
{
	return rts_unit_at(s, x, y);
}

int ms_rts_state_find_unit(const ms_rts_state *s, int64_t id)
{
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++)
		if (us[i].u.id == id)
			return i;
	return -1;
}

int ms_rts_state_set_unit_id(ms_rts_state *s, int i, int64_t id)
{
	if (i < 0 || i >= s->n_units)
		return MS_ERANGE;
	rts_units(s)[i].u.id = id;
	return MS_OK;
}

int rts_find_key(const ms_rts_state *s, uint32_t key)
{
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++)
		if (us[i].key == key)
			return i;
	return -1;
}

int ms_rts_state_unit_idle(const ms_rts_state *s, int i)
{
	const rts_assign *as = rts_cassigns(s);

	if (i < 0 || i >= s->n_units)
		return 0;
	(void)as;
	return rts_cunits(s)[i].slot < 0;
}

int ms_rts_state_assignment(const ms_rts_state *s, int i, int *unit_index, ms_rts_action *action,
			    int *issued_at)
{
	const rts_assign *a;

	if (i < 0 || i >= s->n_assign)
		return MS_ERANGE;
	a = &rts_cassigns(s)[i];
	if (unit_index)
		*unit_index = a->unit;
	if (action)
		*action = a->action;
	if (issued_at)
		*issued_at = a->time;
	return MS_OK;
}

int rts_state_add_unit(ms_ctx *ctx, ms_rts_state *s, const ms_rts_unit *u, const char *what)
{
	rts_unit *nu;

	if (!rts_inside(s, u->x, u->y))
		return ms_ctx_error(ctx, MS_ERANGE, "%s: unit %lld at (%d, %d) is outside the %dx%d map",
				    what, (long long)u->id, u->x, u->y, s->width, s->height);
	if (u->type < 0 || u->type >= s->utt->n_types)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: unit %lld has unknown type %d", what, (long long)u->id, u->type);
	if (rts_unit_at(s, u->x, u->y) >= 0)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: unit %lld at (%d, %d): cell already holds unit %lld",
				    what, (long long)u->id, u->x, u->y,
				    (long long)rts_cunits(s)[rts_unit_at(s, u->x, u->y)].u.id);
	if (s->n_units >= s->cells)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: more units than cells", what);
	nu = &rts_units(s)[s->n_units];
	nu->u = *u;
	nu->key = s->next_key++;
	nu->slot = -1;
	rts_grid(s)[u->x + u->y * s->width] = (uint16_t)(s->n_units + 1);
	s->n_units++;
	if (u->player == 0 || u->player == 1)
		s->count[u->player]++;
	return MS_OK;
}

void rts_remove_unit(ms_rts_state *s, int i)
{
	rts_unit *us = rts_units(s);
	rts_assign *as = rts_assigns(s);
	uint16_t *grid = rts_grid(s);
	int n = 0, player = us[i].u.player;

	if (player == 0 || player == 1)
		s->count[player]--;
	grid[us[i].u.x + us[i].u.y * s->width] = 0;
	memmove(&us[i], &us[i + 1], (size_t)(s->n_units - i - 1) * sizeof(*us));
	s->n_units--;
	for (int k = i; k < s->n_units; k++)
		grid[us[k].u.x + us[k].u.y * s->width] = (uint16_t)(k + 1);
	/* Drop its pending action; the others keep their order and follow
	 * their units down the list. */
	for (int k = 0; k < s->n_assign; k++) {
		if (as[k].unit == i)
			continue;
		as[n] = as[k];
		if (as[n].unit > i)
			as[n].unit--;
		n++;
	}
	s->n_assign = n;
	rts_reslot(s);
}

void rts_reslot(ms_rts_state *s)
{
	rts_unit *us = rts_units(s);
	const rts_assign *as = rts_cassigns(s);

	for (int k = 0; k < s->n_units; k++)
		us[k].slot = -1;
	for (int k = 0; k < s->n_assign; k++)
		us[as[k].unit].slot = k;
}

/* Terrain: a digit per cell, or run lengths of A (free) and B (wall). */
int rts_terrain_decode(ms_ctx *ctx, ms_rts_state *s, const char *what, const char *t)
{
	uint8_t *ter = rts_terrain(s);

	if (strchr(t, 'A') || strchr(t, 'B')) {
		int n = 0;
		const char *p = t;
		while (*p) {
			char c = *p++;
			long run = 1;
			if (c != 'A' && c != 'B')
				return ms_ctx_error(ctx, MS_EPARSE, "%s: compressed terrain has '%c' at character %d",
						    what, c, (int)(p - t) - 1);
			if (*p >= '0' && *p <= '9') {
				run = 0;
				while (*p >= '0' && *p <= '9' && run <= s->cells)
					run = run * 10 + (*p++ - '0');
			}
			if (n + run > s->cells)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: compressed terrain is longer than %d cells",
						    what, s->cells);
			memset(ter + n, c == 'B', (size_t)run);
			n += (int)run;
		}
		/* Java's encoder drops a last run of length 1; refuse rather than guess. */
		if (n != s->cells)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: compressed terrain covers %d of %d cells",
					    what, n, s->cells);
		return MS_OK;
	}
	if (strlen(t) < (size_t)s->cells)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: terrain has %zu characters, the %dx%d map needs %d",
				    what, strlen(t), s->width, s->height, s->cells);
	for (int i = 0; i < s->cells; i++) {
		if (t[i] < '0' || t[i] > '9')
			return ms_ctx_error(ctx, MS_EPARSE, "%s: terrain character %d is '%c', not a digit",
					    what, i, t[i]);
		ter[i] = (uint8_t)(t[i] - '0');
	}
	return MS_OK;
}

int ms_rts_state_visible(const ms_rts_state *s, int player, int x, int y)
{
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		int r = s->utt->types[u->type].sight_radius, dx = u->x - x, dy = u->y - y;
		if (u->player == player && dx * dx + dy * dy <= r * r)
			return 1;
	}
	return 0;
}

/*
 * One pass instead of one rts_remove_unit per hidden unit (each of which
 * moves the rest of the list and re-slots every unit): each unit first
 * learns its index in the view (-1: hidden) in its `slot`, then pending
 * actions and units close up in order, as the removals would leave them.
 * The player's units are never hidden, so what they see does not depend on
 * the removals.
 */
int ms_rts_state_observe(ms_rts_state *dst, const ms_rts_state *src, int player)
{
	struct {
		int x, y, r2;
	} eye[256];
	rts_unit *us;
	rts_assign *as;
	uint16_t *grid;
	int n_eye = 0, many = 0, n, k = 0, na = 0, rc;

	if (player != 0 && player != 1)
		return MS_EINVAL;
	if (dst != src && (rc = ms_rts_state_copy(dst, src)))
		return rc;
	us = rts_units(dst);
	as = rts_assigns(dst);
	grid = rts_grid(dst);
	n = dst->n_units;
	for (int i = 0; i < n && !many; i++) {
		const ms_rts_unit *u = &us[i].u;
		int r = dst->utt->types[u->type].sight_radius;
		if (u->player != player)
			continue;
		if (n_eye == (int)(sizeof(eye) / sizeof(eye[0]))) {
			many = 1; /* more than the table holds: ask ms_rts_state_visible */
			break;
		}
		eye[n_eye].x = u->x;
		eye[n_eye].y = u->y;
		eye[n_eye].r2 = r * r;
		n_eye++;
	}
	for (int i = 0; i < n; i++) {
		const ms_rts_unit *u = &us[i].u;
		int keep = u->player == player;
		if (!keep && many)
			keep = ms_rts_state_visible(dst, player, u->x, u->y);
		for (int e = 0; !keep && !many && e < n_eye; e++) {
			int dx = eye[e].x - u->x, dy = eye[e].y - u->y;
			keep = dx * dx + dy * dy <= eye[e].r2;
		}
		us[i].slot = keep ? k++ : -1;
	}
	if (k < n) {
		for (int j = 0; j < dst->n_assign; j++) {
			if (us[as[j].unit].slot < 0)
				continue;
			as[na] = as[j];
			as[na].unit = us[as[j].unit].slot;
			na++;
		}
		dst->n_assign = na;
		for (int i = 0; i < n; i++) {
			int to = us[i].slot;
			if (to < 0) {
				int p = us[i].u.player;
				grid[us[i].u.x + us[i].u.y * dst->width] = 0;
				if (p == 0 || p == 1)
					dst->count[p]--;
				continue;
			}
			if (to != i)
				us[to] = us[i];
			grid[us[to].u.x + us[to].u.y * dst->width] = (uint16_t)(to + 1);
		}
		dst->n_units = k;
	}
	rts_reslot(dst);
	return MS_OK;
}

int ms_rts_state_set_rng(ms_rts_state *s, int which, int64_t raw)
{
	ms_jrandom *r = which == MS_RTS_RNG_DAMAGE ? &s->rng_damage :
			which == MS_RTS_RNG_CONFLICT ? &s->rng_conflict : NULL;

	if (!r)
		return MS_EINVAL;
	r->seed = (uint64_t)raw & ((UINT64_C(1) << 48) - 1);
	r->have_next_gaussian = 0;
	return MS_OK;
}

/* ---- Java's short run-length terrain ---------------------------------------------- */

/*
 * Java's encoder never writes a final run of length 1, so a compressed
 * terrain may cover one cell less than the map: returns the letter that
 * completes it (the other letter than the last run's), or 0 when `t` is not
 * compressed or needs nothing.
 */
static char missing_last_cell(const char *t, long cells)
{
	long n = 0;
	char last = 0;

	if (!strchr(t, 'A') && !strchr(t, 'B'))
		return 0;
	for (const char *p = t; *p;) {
		long run = 1;
		char ch = *p++;
		if (ch != 'A' && ch != 'B')
			return 0;
		if (*p >= '0' && *p <= '9') {
			run = 0;
			while (*p >= '0' && *p <= '9' && run <= cells)
				run = run * 10 + (*p++ - '0');
		}
		n += run;
		if (n > cells)
			return 0;
		last = ch;
	}
	return n == cells - 1 ? (last == 'A' ? 'B' : 'A') : 0;
}

/* The terrain text completed by one letter, on the context's allocator. */
static char *terrain_plus(ms_ctx *ctx, const char *t, char letter)
{
	size_t n = strlen(t);
	char *s = ms_ctx_malloc(ctx, n + 2);

	if (s) {
		memcpy(s, t, n);
		s[n] = letter;
		s[n + 1] = '\0';
	}
	return s;
}

int ms_rts_terrain_complete(ms_ctx *ctx, char **out, const char *terrain, long cells)
{
	char letter = terrain ? missing_last_cell(terrain, cells) : 0;

	*out = NULL;
	if (!letter)
		return MS_OK;
	if (!(*out = terrain_plus(ctx, terrain, letter)))
		return ms_ctx_error(ctx, MS_ENOMEM, "terrain: out of memory completing %ld cells", cells);
	return MS_OK;
}
