/* Catan: the board layout and helpers shared by games/catan (not public). */
#ifndef MS_GAMES_CATAN_INTERNAL_H
#define MS_GAMES_CATAN_INTERNAL_H

#include "microsynth/catan.h"

struct ms_catan_board {
	ms_ctx *ctx; /* its allocator: ms_catan_board_free needs no context */
	int8_t hex_res[MS_CATAN_HEXES];       /* -1 desert */
	int8_t hex_num[MS_CATAN_HEXES];       /* 0 desert */
	int8_t cube[MS_CATAN_HEXES][3];
	uint8_t hex_node[MS_CATAN_HEXES][6];  /* corners N, NE, SE, S, SW, NW */
	uint8_t node_deg[MS_CATAN_NODES];
	uint8_t node_nbr[MS_CATAN_NODES][3];
	uint8_t node_edge[MS_CATAN_NODES][3]; /* edge to node_nbr[i] */
	uint8_t node_nhex[MS_CATAN_NODES];
	uint8_t node_hex[MS_CATAN_NODES][3];
	uint8_t edge_a[MS_CATAN_EDGES], edge_b[MS_CATAN_EDGES]; /* a < b */
	int8_t port[MS_CATAN_NODES];          /* -1, 0-4 (2:1), 5 (3:1) */
	uint8_t desert;
	uint8_t n_by_num[13];
	uint8_t by_num[13][2];                /* land hexes per dice number */
};

/* One hex of a board description before the topology is built. */
typedef struct catan__hexdef {
	int cube[3];
	int land;       /* 1 land, 2 port */
	int resource;   /* land: -1 desert; port: -1 3:1 else resource */
	int number;
	int facing;     /* port: side index E, SE, SW, W, NW, NE */
	int ids[6];     /* land: given corner ids, or -1 to number them here */
} catan__hexdef;

/* Builds the topology from hex definitions; `n` entries. */
int catan__board_build(ms_ctx *ctx, ms_catan_board *b, const catan__hexdef *defs, int n, const char *what);

/* JSettlers v1 coordinate bytes of the land hexes and nodes (board.c); MS_EINVAL off the standard frame. */
int catan__js_coords(const ms_catan_board *b, int hex_coord[MS_CATAN_HEXES], int node_coord[MS_CATAN_NODES]);

extern const char *const catan__res_name[5];
extern const char *const catan__dev_name[5];

static inline int catan__popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* rules.c */
/* An action with up to three values; the rest and its outcome unset (-1). */
static inline ms_catan_action catan__act(int type, int seat, int v0, int v1, int v2)
{
	ms_catan_action a = { (uint8_t)type, (uint8_t)seat, { (int8_t)v0, (int8_t)v1, (int8_t)v2, -1, -1 }, { 0, 0, 0, 0, 0 } };
	return a;
}

int catan__can_play(const ms_catan_state *s, int seat, int card);
int catan__road_options(const ms_catan_state *s, int seat, int need_money, ms_catan_action *out);
uint64_t catan__comp_union(const ms_catan_state *s, int seat);
void catan__rates(const ms_catan_state *s, int seat, int rate[5]);

/* Road components and Longest Road (road.c). */
int catan__longest_in(const ms_catan_state *s, uint64_t nodes, int seat);
void catan__road_built(ms_catan_state *s, int seat, int edge, int *prev_holder);
void catan__settlement_cuts(ms_catan_state *s, int seat, int node);
void catan__keep_longest_road(ms_catan_state *s, int prev_holder);
int catan__thesis_longest(const ms_catan_state *s, int seat);
void catan__thesis_update_lr(ms_catan_state *s);

#endif
