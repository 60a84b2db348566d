/* Game states: one flat block, map loading, unit bookkeeping. */
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "core/xml.h"
#include "games/microrts/rts.h"

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
	memcpy(dst, src, src->off_units);
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

void ms_rts_state_free(ms_ctx *ctx, ms_rts_state *s)
{
	ms_ctx_mfree(ctx, s);
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

static int read_terrain(ms_ctx *ctx, ms_rts_state *s, const char *what, xmlNodePtr node)
{
	xmlChar *txt = xmlNodeGetContent(node);
	char where[300];
	int rc;

	if (!txt)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory reading terrain", what);
	snprintf(where, sizeof(where), "%s: line %ld", what, xmlGetLineNo(node));
	rc = rts_terrain_decode(ctx, s, where, (const char *)txt);
	xmlFree(txt);
	return rc;
}

int rts_state_from_pgs(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
		       xmlNodePtr pgs, int64_t seed)
{
	ms_rts_state *s = NULL;
	xmlNodePtr node;
	int w, h, np = 0, rc;
	int64_t max_id = -1;

	*out = NULL;
	if ((rc = ms_xml_attr_int(ctx, what, pgs, "width", &w)) ||
	    (rc = ms_xml_attr_int(ctx, what, pgs, "height", &h)))
		return rc;
	if ((rc = rts_state_alloc(ctx, &s, utt, w, h, seed)))
		return rc;
	if ((rc = ms_xml_need_child(ctx, what, pgs, "terrain", &node)) ||
	    (rc = read_terrain(ctx, s, what, node)) ||
	    (rc = ms_xml_need_child(ctx, what, pgs, "players", &node)))
		goto fail;
	/* Java reads every child element, whatever its name. */
	for (xmlNodePtr p = ms_xml_child(node, NULL); p; p = ms_xml_next(p, NULL)) {
		int id, res;
		if ((rc = ms_xml_attr_int(ctx, what, p, "ID", &id)) ||
		    (rc = ms_xml_attr_int(ctx, what, p, "resources", &res)))
			goto fail;
		if (id != np || np >= 2) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: player ID %d where %s expected",
					  what, xmlGetLineNo(p), id, np >= 2 ? "no third player is" : np ? "1 is" : "0 is");
			goto fail;
		}
		s->resources[np++] = res;
	}
	if (np != 2) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: %d players; the engine plays exactly 2", what, np);
		goto fail;
	}
	if ((rc = ms_xml_need_child(ctx, what, pgs, "units", &node)))
		goto fail;
	/* Any element name: old maps write <rts.units.Light>, which Java rejects
	 * for its missing type attribute, and so do we. */
	for (xmlNodePtr e = ms_xml_child(node, NULL); e; e = ms_xml_next(e, NULL)) {
		ms_rts_unit u;
		char tname[MS_RTS_TYPE_NAME_MAX], where[300];
		int64_t id;

		snprintf(where, sizeof(where), "%s: line %ld", what, xmlGetLineNo(e));
		if ((rc = ms_xml_attr_str(ctx, what, e, "type", tname, sizeof(tname))) ||
		    (rc = ms_xml_attr_long(ctx, what, e, "ID", &id)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "player", &u.player)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "x", &u.x)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "y", &u.y)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "resources", &u.resources)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "hitpoints", &u.hitpoints)))
			goto fail;
		u.id = id;
		u.type = ms_rts_utt_find(utt, tname);
		if (u.type < 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unknown unit type '%s'", where, tname);
			goto fail;
		}
		if (u.player < -1 || u.player > 1) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unit %lld has player %d (expected -1, 0 or 1)",
					  where, (long long)id, u.player);
			goto fail;
		}
		if (ms_rts_state_find_unit(s, id) >= 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unit ID %lld appears twice", where, (long long)id);
			goto fail;
		}
		if ((rc = rts_state_add_unit(ctx, s, &u, where)))
			goto fail;
		if (id > max_id)
			max_id = id;
	}
	/* Java's counter is process-wide; ours starts past the loaded ids. */
	s->next_id = max_id + 1;
	*out = s;
	return MS_OK;
fail:
	ms_rts_state_free(ctx, s);
	return rc;
}

/* The map document's root element becomes the state. */
static int from_doc(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
		    xmlDocPtr doc, int64_t seed)
{
	xmlNodePtr root;
	int rc = ms_xml_root(ctx, what, doc, "rts.PhysicalGameState", &root);

	if (!rc)
		rc = rts_state_from_pgs(ctx, out, utt, what, root, seed);
	xmlFreeDoc(doc);
	return rc;
}

int ms_rts_state_from_map_xml(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
			      const char *xml, size_t len, int64_t seed)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if ((rc = ms_xml_read_memory(ctx, what, xml, len, &doc)))
		return rc;
	return from_doc(ctx, out, utt, what, doc, seed);
}

int ms_rts_state_load_map(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *path,
			  int64_t seed)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if ((rc = ms_xml_read_file(ctx, path, &doc)))
		return rc;
	return from_doc(ctx, out, utt, path, doc, seed);
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

int ms_rts_state_observe(ms_rts_state *dst, const ms_rts_state *src, int player)
{
	uint8_t seen_small[4096];
	uint8_t *seen = seen_small;
	const rts_unit *us;
	int rc;

	if (player != 0 && player != 1)
		return MS_EINVAL;
	if (dst != src && (rc = ms_rts_state_copy(dst, src)))
		return rc;
	/* Mark what the player's units see; they are never removed, so the
	 * order of removals does not matter. */
	if (dst->cells > (int)sizeof(seen_small)) {
		/* Large maps: test each unit's cell directly. */
		seen = NULL;
	} else {
		memset(seen, 0, (size_t)dst->cells);
		us = rts_cunits(dst);
		for (int i = 0; i < dst->n_units; i++) {
			const ms_rts_unit *u = &us[i].u;
			int r = dst->utt->types[u->type].sight_radius;
			if (u->player != player)
				continue;
			for (int y = u->y - r; y <= u->y + r; y++)
				for (int x = u->x - r; x <= u->x + r; x++)
					if (rts_inside(dst, x, y) && (x - u->x) * (x - u->x) + (y - u->y) * (y - u->y) <= r * r)
						seen[x + y * dst->width] = 1;
		}
	}
	for (int i = dst->n_units - 1; i >= 0; i--) {
		const ms_rts_unit *u = &rts_cunits(dst)[i].u;
		int visible;
		if (u->player == player)
			continue;
		visible = seen ? seen[u->x + u->y * dst->width] : ms_rts_state_visible(dst, player, u->x, u->y);
		if (!visible)
			rts_remove_unit(dst, i);
	}
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
