/* Shared by the files of the MicroRTS DSL (games/microrts/dsl). */
#ifndef MS_GAMES_MICRORTS_DSL_INTERNAL_H
#define MS_GAMES_MICRORTS_DSL_INTERNAL_H

#include "microsynth/rts_dsl.h"
#include "games/microrts/engine/rts.h"
#include "core/buf.h"
#include "core/hash.h"
#include "microsynth/memo.h"

/* Non-terminal ids, in the order of the grammar table. */
enum { RD_NT_S = 0, RD_NT_C, RD_NT_B, RD_NT_T, RD_NT_N, RD_NT_D, RD_NT_OP, RD_NT_TP, RD_NT_COUNT };

/* Parameter value indices (list order of spec section 5). */
enum { RD_T_BASE = 0, RD_T_BARRACKS, RD_T_WORKER, RD_T_RANGED, RD_T_LIGHT, RD_T_HEAVY, RD_T_COUNT };
enum { RD_D_RIGHT = 0, RD_D_LEFT, RD_D_UP, RD_D_DOWN, RD_D_ENEMYDIR, RD_D_COUNT };
enum { RD_OP_STRONGEST = 0, RD_OP_WEAKEST, RD_OP_CLOSEST, RD_OP_FARTHEST, RD_OP_LESSHEALTHY, RD_OP_MOSTHEALTHY,
       RD_OP_RANDOM, RD_OP_COUNT };
enum { RD_TP_ALLY = 0, RD_TP_ENEMY, RD_TP_COUNT };
/* LLD's uncapped Build/Train/Harvest: the N value "inf" (MS_RTS_DSL_VAL_N | RD_N_INF), which the
 * interpreter reads as RD_N_INF_VALUE, more than any count or distance a map of MS_RTS_MAX_SIDE
 * cells a side can hold (products with it are taken in 64 bits). */
enum { RD_N_INF = 0x0FFF, RD_N_INF_VALUE = 1 << 20 };

extern const char *const rd_type_names[RD_T_COUNT];

/* 1 when the production (by op) reads the loop unit `u`. */
int rd_op_uses_unit(int op);
/* 1 for a command op. */
static inline int rd_op_is_command(int op)
{
	return op >= MS_RTS_DSL_ATTACK && op <= MS_RTS_DSL_TRAIN;
}

/* ---- the DSL's action layer (rts_dsl_layer.c) ------------------------------ */

/* One abstract action of this tick; units by index in the state's list. */
typedef struct rd_aa {
	int unit;
	int kind;         /* MS_RTS_DSL_AA_* */
	int target, base; /* unit indices, -1 for none */
	int x, y;         /* Move destination, Build site (may lie off the map) */
	int type;         /* Build / Train type id */
	int pref;         /* Train's preferred direction */
	int node;         /* program node that assigned it */
} rd_aa;

/*
 * Per-decision view of the state plus the scratch memory of the layer.
 * Cell marks are stamps (mark[c] == stamp means set) so that nothing is
 * cleared per decision or per search: the cost of a decision follows the
 * units and the cells a search visits, not the map's size.
 */
/*
 * A* expansions allowed per decision, over all of its searches. Beyond it a
 * search finds no path (the unit does not move this cycle). It bounds the
 * decision time on large maps (a search of an unreachable target visits its
 * whole region, and a program may search for every unit in nested loops) to
 * a few milliseconds, well inside the competition's 100 ms; being a count,
 * not a clock, it keeps decisions deterministic, so synthesis and the
 * harness see the same bot.
 */
#define RD_ASTAR_BUDGET 400000L
/* loop iterations per decision (ms_rts_dsl_options.loop_budget) */
#define RD_LOOP_BUDGET 250000L

typedef struct rd_layer {
	ms_ctx *ctx;
	const ms_rts_state *s;
	const rts_unit *units;
	const uint8_t *terrain;
	const uint16_t *grid;
	int n_units, w, h, cells, player;
	uint32_t tick;      /* stamp of this decision */
	uint32_t *pend;     /* a pending MOVE/PRODUCE targets the cell */
	uint32_t *ru;       /* claimed by a desire of this translation */
	uint32_t *acc;      /* claimed in the PlayerAction being composed */
	int pend_cost[2];   /* stock held by pending productions */
	uint32_t search;    /* stamp of the current A* search */
	long expanded;      /* A* expansions in this decision (bounded: budget) */
	long budget;        /* RD_ASTAR_BUDGET, or the options' path_budget (tests) */
	uint32_t *seen;     /* put on OPEN in this search */
	int *next;          /* [cell] the cell below it on its OPEN stack */
	uint8_t *first;     /* [cell] the first step of the path the search reached it by */
	int cap_cells;
	/*
	 * The cells a search may not enter, kept between decisions
	 * (rts_dsl_cells.c): blk[c] RD_BLK_BLOCKED; cx, cy each cell's
	 * coordinates (cells < 65535 a side); bk_occ the cells blocked by units
	 * and pending actions at the last update (bk_flag 1), bk_terrain the
	 * terrain it was made on.
	 */
	uint8_t *blk, *bk_flag, *bk_terrain;
	uint16_t *cx, *cy;
	int *bk_occ, bk_n_occ, bk_w, bk_h, bk_ok;
	uint32_t bk_tick;   /* the decision blk was brought up to */
	uint64_t bk_hash[2]; /* Zobrist digest of the cells blk blocks (rd_zobrist_flip) */
	/*
	 * Path memo (rts_dsl_layer.c): a search's answer and expansions under
	 * a key made of every input it reads (the blocked cells' digest, the
	 * claimed cells' digest when it avoids them, start, target, range, map
	 * size). The table outlives the bot: a synthesis hands one to every
	 * match a worker plays, whose neighbouring programs repeat most searches.
	 */
	ms_memo *memo;
	uint64_t ru_hash[2]; /* digest of the cells claimed in this decision (ru) */
	int check_memo;     /* run every search the memo answers and compare (tests) */
	int memo_wrong;     /* an answer differed */
	int check_cells;    /* compare blk with the state at every update (tests) */
	int cells_wrong;    /* it differed */
	/*
	 * Regions (rts_dsl_regions.c): the 4-connected components of the cells
	 * a search may enter, labelled when a search first needs them and then
	 * kept up to date from decision to decision, and split in place when a
	 * desire claims a cell, so a search whose goal cells all lie outside the
	 * start's regions is known to fail without running; it is charged the
	 * expansions the search would have made (the start's regions' size),
	 * budget included.
	 */
	int *lab;           /* [cell] region, or -1 for a cell no search may enter */
	int *lab_size;      /* [region] cells (room for 2 * cells regions) */
	int n_lab;          /* regions labelled */
	int *lab_queue;     /* 4 queues of `cells` cells: the labelling's, a split's searches */
	uint32_t *lab_vis;  /* [cell] == lab_stamp: visited by the current split */
	uint8_t *lab_own;   /* [cell] which of a split's searches visited it */
	uint32_t lab_stamp; /* stamp of the current split */
	uint32_t lab_tick;  /* decision the labels were made for (0: none) */
	int lab_ru;         /* the labels leave out the cells claimed by desires */
	int lab_ok;         /* lab holds labels of some state of the map in lab_terrain */
	int lab_w, lab_h;
	uint8_t *lab_terrain; /* [cell] the terrain the labels were made on */
	int *occ;           /* the cells the labels hold blocked but for terrain; then 2 scratch lists */
	int n_occ;
	int *claims;        /* cells claimed by desires in this decision (n_claims) */
	int n_claims;
	long unreached;     /* expansions of searches in vain in this decision */
	int lab_want;       /* label at the first search (searches went in vain) */
	int check_regions;  /* compare every update of the labels with a fresh labelling (tests) */
	int regions_wrong;  /* an update differed from it */
	int *lab_check;     /* the comparison's scratch (allocated on first use) */
	int full_paths;   /* run every search in full (the first version; for tests and the bench) */
	rd_aa *aa;          /* the abstract-action map, insertion order */
	int n_aa, cap_aa;
	int *aa_of;         /* [unit] index in aa, or -1 */
	uint8_t *in_out;    /* [unit] has a pair in the PlayerAction */
	int cap_units;
	ms_rts_pair *desires;
	int cap_desires;
} rd_layer;

void rd_layer_init(rd_layer *L, ms_ctx *ctx);
void rd_layer_dispose(rd_layer *L);
/* Starts a decision: the frame, an empty abstract-action map. */
int rd_layer_begin(rd_layer *L, const ms_rts_state *s, int player);
/* Puts an abstract action for a unit that has none. */
int rd_layer_assign(rd_layer *L, const rd_aa *a);
/* translateActions with fillWithNones(10): the PlayerAction. */
int rd_layer_translate(rd_layer *L, ms_rts_pair *out, int max, int *n);

/* blk: terrain, a unit or a pending action. */
#define RD_BLK_BLOCKED 1

/* Brings blk up to this decision's state (once a decision: at its first search). */
void rd_cells_update(rd_layer *L);

/* Flips cell c in a digest of blocked cells (bk_hash) or of claimed ones (ru_hash, tag 1). */
static inline void rd_zobrist_flip(uint64_t h[2], int c, int tag)
{
	ms_zobrist_flip(h, (uint64_t)(uint32_t)c | (uint64_t)tag << 32);
}

/* GameState.free for an in-map cell. */
static inline int rd_free(const rd_layer *L, int c)
{
	return !L->terrain[c] && !L->grid[c] && L->pend[c] != L->tick;
}

/* The JAR's guarded GameState.free(x, y): off-map coordinates alias
 * through x + y * width; outside the linear range it is false. */
int rd_jar_free(const rd_layer *L, int x, int y);

/*
 * AStarPathFinding from (sx, sy) towards cells within Euclidean `range`
 * of linear position `target` (which may lie off the map). `use_ru`: also
 * avoid the cells claimed by this translation's desires (variant 1).
 * *dir receives the first step, *goal the goal cell (variant 2); both -1
 * when the start already qualifies or no path exists.
 */
void rd_astar(rd_layer *L, int sx, int sy, int target, int range, int use_ru, int *dir, int *goal);

/* Labels up to date for this decision (claims left out with `ru`). */
void rd_regions_label(rd_layer *L, int ru);
/* A desire claims cell x in labels made for this decision. */
void rd_regions_claim(rd_layer *L, int x);
/*
 * The expansions a search from (sx, sy) makes when none of the cells it
 * can reach lies within `range` of (tx, ty): it expands its whole region
 * then. 0 when a goal cell is reachable (or the range is too wide to test),
 * and the search must run.
 */
long rd_regions_unreachable(rd_layer *L, int sx, int sy, int tx, int ty, int range, int use_ru);

/* findBuildingPosition with no reserved cells: a cell index or -1. */
int rd_building_position(const rd_layer *L, int x0, int y0);

/* ---- the last decision's view and answer (rts_dsl_view.c) ------------------ */

typedef struct rd_view_unit {
	ms_rts_unit u;
	int busy;
} rd_view_unit;

typedef struct rd_view {
	const ms_rts_utt *utt;
	int player, max, w, h, n_units, n_assign, res[2];
	rd_view_unit *units;
	int *assign;      /* per pending action: cell, cost of player 0, of player 1 */
	uint8_t *terrain;
	ms_rts_pair *out; /* the answer given in that view */
	int n_out;
	int saved;        /* the fields above hold the last view */
	int answered;     /* ... and out its answer */
	int cap_units, cap_assign, cap_cells, cap_out;
} rd_view;

/* 1 when the view of (s, player, max) is the last one and v->out holds
 * its answer; either way v then holds this view (no answer yet). */
int rd_view_repeat(ms_ctx *ctx, rd_view *v, const ms_rts_state *s, int player, int max);
/* Keeps the answer given in the view rd_view_repeat saved last. */
void rd_view_answer(rd_view *v, const ms_rts_pair *out, int n);
void rd_view_dispose(ms_ctx *ctx, rd_view *v);

/* A decimal digit (the lexer's and the listing rewriter's). */
static inline int rts_dsl_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The dissertation's listing form (rts_dsl_listing.c): 1 if `text` looks like one; its rewrite into braces. */
int rts_dsl_looks_listing(const char *text, size_t len);
int rts_dsl_listing_to_braces(ms_ctx *ctx, const char *what, const char *text, size_t len, ms_buf *out);

#endif
