/* Catan boards: the topology built from hex coordinates, and the readers
 * (catanatron tile table, JSettlers v1 BOARDLAYOUT, seeded random). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "catan_internal.h"
#include "microsynth/mcts.h"
#include "microsynth/rng.h"

const char *const catan__res_name[5] = { "WOOD", "BRICK", "SHEEP", "WHEAT", "ORE" };
const char *const catan__dev_name[5] = { "KNIGHT", "YEAR_OF_PLENTY", "MONOPOLY", "ROAD_BUILDING", "VICTORY_POINT" };

/* Cube directions in side order E, SE, SW, W, NW, NE (z grows southward). */
static const int dir_cube[6][3] = { { 1, -1, 0 }, { 0, -1, 1 }, { -1, 0, 1 }, { -1, 1, 0 }, { 0, 1, -1 }, { 1, 0, -1 } };
/* Corners N, NE, SE, S, SW, NW: the two neighbouring hexes sharing each. */
static const int corner_dirs[6][2] = { { 4, 5 }, { 5, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 } };
/* Side (E, SE, SW, W, NW, NE) -> its two corners. */
static const int side_corners[6][2] = { { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 5 }, { 5, 0 }, { 0, 1 } };

static int cube_code(const int c[3])
{
	return (c[0] + 8) * 17 + (c[2] + 8);
}

/* A corner is named by the three hexes that share it. */
static uint32_t corner_key(const int cube[3], int corner)
{
	int k[3], t;
	k[0] = cube_code(cube);
	for (int i = 0; i < 2; i++) {
		const int *d = dir_cube[corner_dirs[corner][i]];
		int c[3] = { cube[0] + d[0], cube[1] + d[1], cube[2] + d[2] };
		k[i + 1] = cube_code(c);
	}
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (k[j] < k[i]) {
				t = k[i];
				k[i] = k[j];
				k[j] = t;
			}
	return ((uint32_t)k[0] << 20) | ((uint32_t)k[1] << 10) | (uint32_t)k[2];
}

typedef struct corner_table {
	uint32_t key[MS_CATAN_NODES];
	int id[MS_CATAN_NODES];
	int n;
} corner_table;

static int corner_find(const corner_table *t, uint32_t key)
{
	for (int i = 0; i < t->n; i++)
		if (t->key[i] == key)
			return t->id[i];
	return -1;
}

static int add_edge(ms_catan_board *b, int *ne, int a, int c)
{
	if (a > c) {
		int t = a;
		a = c;
		c = t;
	}
	for (int i = 0; i < b->node_deg[a]; i++)
		if (b->node_nbr[a][i] == c)
			return 0;
	if (*ne >= MS_CATAN_EDGES || b->node_deg[a] >= 3 || b->node_deg[c] >= 3)
		return -1;
	b->edge_a[*ne] = (uint8_t)a;
	b->edge_b[*ne] = (uint8_t)c;
	b->node_nbr[a][b->node_deg[a]] = (uint8_t)c;
	b->node_edge[a][b->node_deg[a]++] = (uint8_t)*ne;
	b->node_nbr[c][b->node_deg[c]] = (uint8_t)a;
	b->node_edge[c][b->node_deg[c]++] = (uint8_t)*ne;
	(*ne)++;
	return 0;
}

/* Numbers the corners of the land hexes (or checks the given numbering). */
static int build_nodes(ms_ctx *ctx, ms_catan_board *b, corner_table *t, const catan__hexdef *defs, int n,
		       const char *what)
{
	int h = 0, seen[MS_CATAN_NODES] = { 0 };
	for (int i = 0; i < n; i++) {
		if (defs[i].land != 1)
			continue;
		if (h >= MS_CATAN_HEXES)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: more than %d land hexes", what, MS_CATAN_HEXES);
		for (int k = 0; k < 3; k++)
			b->cube[h][k] = (int8_t)defs[i].cube[k];
		b->hex_res[h] = (int8_t)defs[i].resource;
		b->hex_num[h] = (int8_t)defs[i].number;
		for (int c = 0; c < 6; c++) {
			uint32_t key = corner_key(defs[i].cube, c);
			int id = corner_find(t, key), want = defs[i].ids[c];
			if (id < 0) {
				id = want >= 0 ? want : t->n;
				if (id >= MS_CATAN_NODES || t->n >= MS_CATAN_NODES || seen[id])
					return ms_ctx_error(ctx, MS_EPARSE, "%s: hex %d corner %d: node id %d is out of range or reused",
							    what, i, c, id);
				seen[id] = 1;
				t->key[t->n] = key;
				t->id[t->n++] = id;
			} else if (want >= 0 && want != id) {
				return ms_ctx_error(ctx, MS_EPARSE, "%s: hex %d corner %d: node %d, but the same corner is node %d",
						    what, i, c, want, id);
			}
			b->hex_node[h][c] = (uint8_t)id;
			if (b->node_nhex[id] >= 3)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: node %d touches more than 3 hexes", what, id);
			b->node_hex[id][b->node_nhex[id]++] = (uint8_t)h;
		}
		h++;
	}
	if (h != MS_CATAN_HEXES || t->n != MS_CATAN_NODES)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: %d land hexes with %d corners (want 19 and 54)", what, h, t->n);
	return MS_OK;
}

static int build_ports(ms_ctx *ctx, ms_catan_board *b, const corner_table *t, const catan__hexdef *defs, int n,
		       const char *what)
{
	for (int i = 0; i < n; i++) {
		if (defs[i].land != 2)
			continue;
		int f = defs[i].facing;
		if (f < 0 || f > 5)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: port hex %d: bad facing %d", what, i, f);
		for (int k = 0; k < 2; k++) {
			int node = corner_find(t, corner_key(defs[i].cube, side_corners[f][k]));
			if (node < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: port hex %d faces the sea, not land", what, i);
			b->port[node] = (int8_t)(defs[i].resource < 0 ? 5 : defs[i].resource);
		}
	}
	return MS_OK;
}

int catan__board_build(ms_ctx *ctx, ms_catan_board *b, const catan__hexdef *defs, int n, const char *what)
{
	corner_table t;
	int rc, ne = 0, deserts = 0;
	memset(b, 0, sizeof *b);
	memset(&t, 0, sizeof t);
	memset(b->port, -1, sizeof b->port);
	if ((rc = build_nodes(ctx, b, &t, defs, n, what)) < 0)
		return rc;
	/* Sides in catanatron's order (E, SE, SW, W, NW, NE) so that each node's
	 * neighbours come in the order its graph library lists them. */
	for (int h = 0; h < MS_CATAN_HEXES; h++)
		for (int sd = 0; sd < 6; sd++)
			if (add_edge(b, &ne, b->hex_node[h][side_corners[sd][0]], b->hex_node[h][side_corners[sd][1]]) < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: hex %d: inconsistent corners", what, h);
	if (ne != MS_CATAN_EDGES)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: %d land edges (want 72)", what, ne);
	for (int h = 0; h < MS_CATAN_HEXES; h++) {
		int num = b->hex_num[h];
		if (b->hex_res[h] < 0) {
			if (!deserts++)
				b->desert = (uint8_t)h;
			continue;
		}
		if (b->hex_res[h] > 4 || num < 2 || num > 12 || num == 7 || b->n_by_num[num] >= 2)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: land hex %d: bad resource %d or number %d", what, h,
					    b->hex_res[h], num);
		b->by_num[num][b->n_by_num[num]++] = (uint8_t)h;
	}
	if (deserts != 1)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: %d deserts (want 1)", what, deserts);
	return build_ports(ctx, b, &t, defs, n, what);
}

/* Allocates a board and builds it from `defs`. */
static int new_board(ms_ctx *ctx, const catan__hexdef *defs, int n, const char *what, ms_catan_board **out)
{
	int rc;
	ms_catan_board *b = ms_ctx_malloc(ctx, sizeof *b);
	if (!b)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory", what);
	if ((rc = catan__board_build(ctx, b, defs, n, what)) < 0) {
		ms_ctx_mfree(ctx, b);
		return rc;
	}
	b->ctx = ctx; /* after the build, which clears the board */
	*out = b;
	return MS_OK;
}

/* ---- catanatron's tile table ---------------------------------------------- */

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static const char *const corner_names[6] = { "NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST" };
static const char *const side_names[6] = { "EAST", "SOUTHEAST", "SOUTHWEST", "WEST", "NORTHWEST", "NORTHEAST" };

static int json_tile(ms_ctx *ctx, const cJSON *t, int i, catan__hexdef *d)
{
	const cJSON *co = cJSON_GetObjectItemCaseSensitive(t, "coordinate");
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(t, "type");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(t, "resource");
	const cJSON *num = cJSON_GetObjectItemCaseSensitive(t, "number");
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(t, "nodes");
	if (!cJSON_IsArray(co) || cJSON_GetArraySize(co) != 3 || !cJSON_IsString(ty))
		return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: needs \"coordinate\" [x,y,z] and \"type\"", i);
	for (int k = 0; k < 3; k++) {
		const cJSON *v = cJSON_GetArrayItem(co, k);
		if (!cJSON_IsNumber(v) || v->valueint < -4 || v->valueint > 4)
			return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: bad coordinate", i);
		d->cube[k] = v->valueint;
	}
	d->resource = cJSON_IsString(res) ? name_index(res->valuestring, catan__res_name, 5) : -1;
	if (cJSON_IsString(res) && d->resource < 0)
		return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: unknown resource \"%s\"", i, res->valuestring);
	d->number = cJSON_IsNumber(num) ? num->valueint : 0;
	for (int c = 0; c < 6; c++)
		d->ids[c] = -1;
	if (!strcmp(ty->valuestring, "RESOURCE_TILE") || !strcmp(ty->valuestring, "DESERT")) {
		d->land = 1;
		if (!strcmp(ty->valuestring, "DESERT"))
			d->resource = -1, d->number = 0;
		else if (d->resource < 0)
			return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: resource tile without a resource", i);
		for (int c = 0; cJSON_IsObject(nodes) && c < 6; c++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(nodes, corner_names[c]);
			if (!cJSON_IsNumber(v) || v->valueint < 0 || v->valueint >= MS_CATAN_NODES)
				return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: corner %s: bad node id", i,
						    corner_names[c]);
			d->ids[c] = v->valueint;
		}
	} else if (!strcmp(ty->valuestring, "PORT")) {
		const cJSON *dir = cJSON_GetObjectItemCaseSensitive(t, "direction");
		d->land = 2;
		d->facing = cJSON_IsString(dir) ? name_index(dir->valuestring, side_names, 6) : -1;
		if (d->facing < 0)
			return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: port without a valid \"direction\"", i);
	} else if (strcmp(ty->valuestring, "WATER") != 0) {
		return ms_ctx_error(ctx, MS_EPARSE, "board JSON: tiles[%d]: unknown type \"%s\"", i, ty->valuestring);
	}
	return MS_OK;
}

/* From a parsed object holding "tiles" (used by the replay too). */
int catan__board_from_cjson(ms_ctx *ctx, const void *obj, ms_catan_board **out);
int catan__board_from_cjson(ms_ctx *ctx, const void *obj, ms_catan_board **out)
{
	const cJSON *tiles = cJSON_GetObjectItemCaseSensitive((const cJSON *)obj, "tiles");
	catan__hexdef defs[64];
	int n = 0, rc;
	*out = NULL;
	if (!cJSON_IsArray(tiles) || cJSON_GetArraySize(tiles) < 19 || cJSON_GetArraySize(tiles) > 64)
		return ms_ctx_error(ctx, MS_EPARSE, "board JSON: needs a \"tiles\" array of 19 to 64 hexes");
	memset(defs, 0, sizeof defs);
	for (const cJSON *t = tiles->child; t; t = t->next, n++)
		if ((rc = json_tile(ctx, t, n, &defs[n])) < 0)
			return rc;
	return new_board(ctx, defs, n, "board JSON", out);
}

int ms_catan_board_from_json(ms_ctx *ctx, ms_catan_board **out, const char *text, size_t len)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	int rc;
	*out = NULL;
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		return ms_ctx_error(ctx, MS_EPARSE, "board JSON: not valid JSON (at byte %ld)",
				    at && at >= text && at <= text + len ? (long)(at - text) : -1L);
	}
	rc = catan__board_from_cjson(ctx, root, out);
	cJSON_Delete(root);
	return rc;
}

/* ---- JSettlers v1 BOARDLAYOUT --------------------------------------------- */

static const int row_len[7] = { 4, 5, 6, 7, 6, 5, 4 };
/* JSettlers resource codes 1-5 (brick, ore, wool, grain, lumber) -> ours. */
static const int js_res[6] = { -1, MS_CATAN_BRICK, MS_CATAN_ORE, MS_CATAN_SHEEP, MS_CATAN_WHEAT, MS_CATAN_WOOD };
/* JSettlers facing 1-6 (NE, E, SE, SW, W, NW) -> our side index. */
static const int js_facing[7] = { -1, 5, 0, 1, 2, 3, 4 };

/* Layout index -> cube coordinate (rows top to bottom, west to east) and
 * JSettlers' hex coordinate byte. */
static void layout_position(int idx, int cube[3], int *coord)
{
	static const int row_start[7] = { 0x17, 0x15, 0x13, 0x11, 0x31, 0x51, 0x71 };
	int r = 0;
	while (idx >= row_len[r])
		idx -= row_len[r++];
	int z = r - 3, xmin = -3 - z < -3 ? -3 : -3 - z;
	cube[0] = xmin + idx;
	cube[2] = z;
	cube[1] = -cube[0] - z;
	*coord = row_start[r] + 0x22 * idx;
}

static int layout_hex(ms_ctx *ctx, int i, long hv, long nv, catan__hexdef *d)
{
	static const int dice[10] = { 2, 3, 4, 5, 6, 8, 9, 10, 11, 12 };
	int coord;
	layout_position(i, d->cube, &coord);
	for (int c = 0; c < 6; c++)
		d->ids[c] = -1;
	if (hv >= 0 && hv <= 5) {
		d->land = 1;
		d->resource = js_res[hv];
		if (hv != 0 && (nv < 0 || nv > 9))
			return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: hex %d: land without a number (%ld)", i, nv);
		d->number = hv == 0 ? 0 : dice[nv];
	} else if (hv >= 7 && hv <= 12) {
		d->land = 2, d->resource = -1, d->facing = js_facing[hv - 6];
	} else if (hv >= 16 && (hv & 15) >= 1 && (hv & 15) <= 5 && ((hv >> 4) & 7) >= 1 && ((hv >> 4) & 7) <= 6 &&
		   hv < 128) {
		d->land = 2, d->resource = js_res[hv & 15], d->facing = js_facing[(hv >> 4) & 7];
	} else if (hv != 6) {
		return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: hex %d: unknown hex value %ld", i, hv);
	}
	return MS_OK;
}

static int layout_numbers(ms_ctx *ctx, const char *text, size_t len, long v[75])
{
	size_t i = 0;
	if (len >= 5 && !memcmp(text, "1014|", 5))
		i = 5;
	while (i < len && text[i] != ',')
		i++;
	if (i >= len)
		return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: no ',' after the game name");
	for (int k = 0; k < 75; k++) {
		char buf[16];
		size_t j = 0;
		if (i >= len || text[i] != ',')
			return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: %d values, want 75 (byte %zu)", k, i);
		i++;
		while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r' && j < sizeof buf - 1)
			buf[j++] = text[i++];
		buf[j] = 0;
		char *end;
		v[k] = strtol(buf, &end, 10);
		if (!j || *end || v[k] < -1 || v[k] > 255)
			return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: value %d (\"%s\") is not an integer in -1..255",
					    k + 1, buf);
	}
	while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' '))
		i++;
	if (i != len)
		return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: trailing text at byte %zu", i);
	return MS_OK;
}

int ms_catan_board_from_layout(ms_ctx *ctx, ms_catan_board **out, const char *text, size_t len)
{
	long v[75];
	catan__hexdef defs[37];
	int rc, robber = -1;
	*out = NULL;
	if ((rc = layout_numbers(ctx, text, len, v)) < 0)
		return rc;
	memset(defs, 0, sizeof defs);
	for (int i = 0; i < 37; i++)
		if ((rc = layout_hex(ctx, i, v[i], v[37 + i], &defs[i])) < 0)
			return rc;
	ms_catan_board *b;
	if ((rc = new_board(ctx, defs, 37, "BOARDLAYOUT", &b)) < 0)
		return rc;
	*out = NULL;
	for (int i = 0, h = 0; i < 37; i++) {
		int cube[3], coord;
		layout_position(i, cube, &coord);
		if (defs[i].land == 1 && coord == v[74])
			robber = h;
		h += defs[i].land == 1;
	}
	if (robber < 0 || robber != b->desert) {
		ms_ctx_mfree(ctx, b);
		return ms_ctx_error(ctx, MS_EPARSE, "BOARDLAYOUT: the robber (%ld) is not on the desert", v[74]);
	}
	*out = b;
	return MS_OK;
}

/* JSettlers v1 coordinates of a board on the standard frame (tc2, random,
 * BOARDLAYOUT): each land hex's coordinate byte and each node's, a hex's
 * corners N, NE, SE, S, SW, NW being coord + 0x01, 0x12, 0x21, 0x10, -0x01,
 * -0x10 (SOCBoard's node offsets, clockwise from the top). */
int catan__js_coords(const ms_catan_board *b, int hex_coord[MS_CATAN_HEXES], int node_coord[MS_CATAN_NODES])
{
	static const int corner[6] = { 0x01, 0x12, 0x21, 0x10, -0x01, -0x10 };
	int found = 0;
	for (int i = 0; i < 37; i++) {
		int cube[3], coord;
		layout_position(i, cube, &coord);
		for (int h = 0; h < MS_CATAN_HEXES; h++) {
			if (b->cube[h][0] != cube[0] || b->cube[h][2] != cube[2])
				continue;
			hex_coord[h] = coord;
			for (int c = 0; c < 6; c++)
				node_coord[b->hex_node[h][c]] = coord + corner[c];
			found++;
		}
	}
	return found == MS_CATAN_HEXES ? MS_OK : MS_EINVAL;
}

static const char tc2_message[] =
	"1014|TestGame,9,6,10,6,6,1,3,3,67,8,3,5,4,1,6,6,2,0,2,3,4,85,8,4,5,1,5,6,6,2,4,5,97,18,6,100,6,"
	"-1,-1,-1,-1,-1,8,9,6,-1,-1,2,1,4,7,-1,-1,5,-1,8,3,5,-1,-1,7,6,2,1,-1,-1,3,0,4,-1,-1,-1,-1,-1,85";

int ms_catan_board_tc2(ms_ctx *ctx, ms_catan_board **out)
{
	return ms_catan_board_from_layout(ctx, out, tc2_message, sizeof tc2_message - 1);
}

uint32_t ms_catan_rand(uint64_t *rng, uint32_t n)
{
	return ms_rng_below(rng, n);
}

static void shuffle(int *v, int n, uint64_t *rng)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)ms_catan_rand(rng, (uint32_t)i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* tc2's frame (its 9 port positions and facings) with shuffled terrains,
 * numbers and port kinds. */
int ms_catan_board_random(ms_ctx *ctx, ms_catan_board **out, uint64_t seed)
{
	long v[75];
	catan__hexdef defs[37];
	int terr[19] = { -1, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4 };
	int nums[18] = { 2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12 };
	int ports[9] = { -1, -1, -1, -1, 0, 1, 2, 3, 4 };
	int rc, h = 0, k = 0, p = 0;
	uint64_t rng = seed;
	*out = NULL;
	if ((rc = layout_numbers(ctx, tc2_message, sizeof tc2_message - 1, v)) < 0)
		return rc;
	memset(defs, 0, sizeof defs);
	for (int i = 0; i < 37; i++)
		if ((rc = layout_hex(ctx, i, v[i], v[37 + i], &defs[i])) < 0)
			return rc;
	shuffle(terr, 19, &rng);
	shuffle(nums, 18, &rng);
	shuffle(ports, 9, &rng);
	for (int i = 0; i < 37; i++) {
		if (defs[i].land == 1) {
			defs[i].resource = terr[h++];
			defs[i].number = defs[i].resource < 0 ? 0 : nums[k++];
		} else if (defs[i].land == 2) {
			defs[i].resource = ports[p++];
		}
	}
	return new_board(ctx, defs, 37, "random board", out);
}

void ms_catan_board_free(ms_catan_board *b)
{
	if (b)
		ms_ctx_mfree(b->ctx, b);
}

int ms_catan_board_hex(const ms_catan_board *b, int hex, int *resource, int *number, int cube[3])
{
	if (hex < 0 || hex >= MS_CATAN_HEXES)
		return MS_EINVAL;
	if (resource)
		*resource = b->hex_res[hex];
	if (number)
		*number = b->hex_num[hex];
	for (int k = 0; cube && k < 3; k++)
		cube[k] = b->cube[hex][k];
	return MS_OK;
}

void ms_catan_board_edge(const ms_catan_board *b, int edge, int *a, int *c)
{
	*a = b->edge_a[edge];
	*c = b->edge_b[edge];
}

int ms_catan_board_edge_of(const ms_catan_board *b, int a, int c)
{
	if (a < 0 || a >= MS_CATAN_NODES)
		return -1;
	for (int i = 0; i < b->node_deg[a]; i++)
		if (b->node_nbr[a][i] == c)
			return b->node_edge[a][i];
	return -1;
}

int ms_catan_board_port(const ms_catan_board *b, int node)
{
	return b->port[node];
}

int ms_catan_board_node_hexes(const ms_catan_board *b, int node, int hexes[3])
{
	for (int i = 0; i < b->node_nhex[node]; i++)
		hexes[i] = b->node_hex[node][i];
	return b->node_nhex[node];
}
