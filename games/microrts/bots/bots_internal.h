/*
 * Shared by the native scripted bots: the per-decision view of the engine
 * state the official bots query (GameState.free, the state's resource
 * usage), A* path finding, and AbstractionLayerAI with its abstract actions.
 */
#ifndef MS_GAMES_MICRORTS_BOTS_INTERNAL_H
#define MS_GAMES_MICRORTS_BOTS_INTERNAL_H

#include "microsynth/arena.h"
#include "microsynth/bots.h"
#include "microsynth/memo.h"
#include "core/hash.h"
#include "../engine/rts.h"
#include "bot_actions.h"

enum { BF_RESOURCE = 1, BF_STOCKPILE = 2 };

/* A unit's position and its index in the state's unit list. */
typedef struct bf_unit {
	int x, y, i;
} bf_unit;

/*
 * What a decision reads from the state again and again, computed once per
 * decision: the cells targeted by pending moves and productions
 * (GameState.free excludes them; they are also the state's ResourceUsage
 * cells) and the stock held by pending productions; for a deciding player
 * also the units the bots scan, by role, in unit-list order (the order the
 * Java loops visit them, which decides their ties). The frame's arena holds
 * the decision's scratch (its own unit lists and the bots'), released by
 * the next bot_frame_begin.
 */
typedef struct bot_frame {
	ms_ctx *ctx;
	ms_arena *scratch;  /* created at the first bot_scratch, reset by each begin */
	const ms_rts_state *s;
	int w, h;
	uint8_t *pend;      /* [cells] 1: a pending MOVE or PRODUCE targets the cell */
	int *pend_cells;    /* the cells set in pend, cleared by the next decision */
	int n_pend;
	int pend_cost[2];   /* ResourceUsage cost of the pending actions */
	int player;         /* the deciding player, -1: none (no lists) */
	const ms_rts_utt *roles_of; /* the table `role` was computed for */
	uint8_t role[MS_RTS_MAX_TYPES]; /* BF_* bits per unit type */
	bf_unit *own;       /* [units] units of the player (scratch) */
	bf_unit *others;    /* [units] units of any other player but the neutral one (scratch) */
	bf_unit *res;       /* [units] resources (scratch) */
	bf_unit *stock;     /* [units] stockpiles of the player (scratch) */
	int n_own, n_others, n_res, n_stock;
	int cap_cells;
	uint64_t serial;    /* counts decisions, so per-decision caches can tell */
} bot_frame;

/*
 * Scratch of A* searches, grown to the largest map seen. `mark[c] == gen`
 * when cell c was looked at in the current search; OPEN is a bucket per f
 * value (see astar.c). `comp` labels the connected regions of the cells
 * that neither walls nor units that cannot move occupy: a search whose
 * target is out of its start's regions fails without exploring them. The
 * labels hold while the terrain and those units' cells (`fixed`, in
 * unit-list order) stay as they were.
 */
typedef struct bot_astar {
	int cap, cap_f;
	uint32_t gen;
	uint32_t *mark;
	int *parent, *cost, *next; /* [cells] */
	int16_t *px, *py;          /* [cells] coordinates of the cells pushed (sides <= MS_RTS_MAX_SIDE) */
	int *head;                 /* [cap_f] last cell pushed with that f, -1: none */
	int *comp;                 /* [cells] region label, 0: wall or unit that cannot move */
	uint8_t *terrain;          /* [cells] the terrain comp was built on */
	int *fixed;                /* [cells] the fixed units' cells comp was built with */
	int n_fixed, comp_w, comp_h;
	const bot_frame *seen_frame; /* comp checked for this frame's decision ... */
	uint64_t seen_serial;        /* ... number */
	/*
	 * Memo of answers (the bot's ms_bot.memo, NULL: none). A search reads
	 * the terrain, the units' cells, the pending cells, the reserved ones,
	 * start, target and range: the key digests them all. terrain_hash is
	 * made with comp; cells_hash for one decision of one frame.
	 */
	ms_memo *memo;
	uint64_t terrain_hash[2], cells_hash[2];
	const bot_frame *hash_frame;
	uint64_t hash_serial;
} bot_astar;

/* Fills the frame for a decision of `player` (0 or 1; -1: the pending
 * cells and costs only) on `s`, keeping its buffers between calls. */
int bot_frame_begin(ms_ctx *ctx, bot_frame *f, const ms_rts_state *s, int player);
void bot_frame_dispose(ms_ctx *ctx, bot_frame *f);
/* n elements of `size` bytes valid until the next bot_frame_begin (zeroed
 * when `zero`), or NULL with MS_ENOMEM in the context. */
void *bot_scratch(bot_frame *f, size_t n, size_t size, int zero);
/* n int arrays of len[k] elements into *parts[k], carved from one scratch
 * allocation (a decision asks once, not once per array); 0 or MS_ENOMEM. */
int bot_scratch_ints(bot_frame *f, int **const parts[], const size_t len[], int n);
/* GameState.free(x, y) for an in-map cell. */
static inline int bot_frame_free(const bot_frame *f, int x, int y)
{
	int c = x + y * f->w;
	return !rts_cterrain(f->s)[c] && !rts_cgrid(f->s)[c] && !f->pend[c];
}
/* CoacAI.nextPos: where the unit at index `ui` stands once its pending
 * MOVE ends (where it stands when it has none). */
static inline void bot_next_pos(const ms_rts_state *s, int ui, int *x, int *y)
{
	const rts_unit *u = &rts_cunits(s)[ui];
	*x = u->u.x;
	*y = u->u.y;
	if (u->slot >= 0) {
		const ms_rts_action *a = &rts_cassigns(s)[u->slot].action;
		if (a->type == MS_RTS_MOVE && a->parameter >= 0 && a->parameter < 4)
			*x += rts_dx[a->parameter], *y += rts_dy[a->parameter];
	}
}
/* Index of the unit with `id` in the frame's state, or -1. `hint` is where
 * it may be (where it was in an earlier decision: removals only move units
 * down the list), -1 for no idea. Ids are taken as unique, as the engine
 * makes them: the bots key their memory by id. */
int bot_frame_find(const bot_frame *f, int64_t id, int hint);

int bot_astar_grow(ms_ctx *ctx, bot_astar *a, int cells);
void bot_astar_dispose(ms_ctx *ctx, bot_astar *a);
/*
 * findPathToPositionInRange: *dir receives the first step's direction, or
 * -1 for "no action". `reserved` lists cells (x + y*w) treated as blocked.
 */
void bot_astar_find(bot_astar *a, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		    int n_reserved, int *dir);

/* The official layer's abstract actions (ai.abstraction.*); AL_OWN: an
 * action a bot defines itself (CoacAI's ai.coac.* classes, in coac.c),
 * completed and executed by its `own` operations. */
enum { AL_MOVE, AL_ATTACK, AL_HARVEST, AL_BUILD, AL_TRAIN, AL_IDLE, AL_OWN };

struct bot_al;
struct al_entry;
typedef struct al_action_ops {
	/* AbstractAction.completed */
	int (*completed)(struct bot_al *al, struct al_entry *a, const ms_rts_unit *u);
	/* AbstractAction.execute: 1 and *out when it yields a unit action */
	int (*execute)(struct bot_al *al, struct al_entry *a, const ms_rts_unit *u, ms_rts_action *out);
} al_action_ops;

typedef struct al_entry {
	int64_t unit;   /* the unit it commands */
	int ui;         /* its index in the state of the decision, -1: dead */
	int kind;
	const al_action_ops *own; /* kind AL_OWN: the bot's operations */
	int x, y;       /* Move and Build target */
	int64_t target; /* Attack target, Harvest resource (-1: none) */
	int64_t base;   /* Harvest stockpile (-1: none) */
	int ti, bi;     /* their indices, as hints (bot_frame_find) */
	/* Where target and base stood when last seen: Java keeps the unit
	 * objects, so a dead stockpile still has its last position. */
	int tx, ty, bx, by;
	int type;       /* Build and Train unit type */
	int dir;        /* TrainDirection's side */
	int done;       /* Train's completed flag */
} al_entry;

/*
 * AbstractionLayerAI: an insertion-ordered map unit -> abstract action
 * (Java's LinkedHashMap: replacing keeps the place, a new key appends).
 */
typedef struct bot_al {
	ms_ctx *ctx;
	al_entry *e;
	int n, cap;
	bot_astar astar;
	int *ru;          /* cells used by the desires of this translation */
	int n_ru, cap_ru;
	uint8_t *acc;     /* [cells] cells taken by the desires accepted so far */
	int cap_cells;
	int *ent;         /* [units] entry of the unit at that index, -1: none
			   * (during a decision, until translate) */
	uint8_t *in_out;  /* [units] unit already has an action in the result */
	bf_unit *foes;    /* [units] scratch of foes() */
	int cap_units;
	ms_rts_pair *desires;
	int *desire_unit; /* unit index of each desire */
	int cap_desires;
	bot_frame f;      /* valid during a decision */
	int edition;      /* MS_PATH_EDITION_*: when Harvest is completed */
	int fill_wait;    /* NONE duration given to idle units without an action (10; CoacAI's layer: 1) */
	int random_moves; /* CoacAttack moves of this translation the jar draws at random among 2+ */
	ms_jrandom *rng;  /* CoacAttack's side is drawn from it when set (a stochastic bot), else up */
} bot_al;

void bot_al_init(bot_al *al, ms_ctx *ctx);
void bot_al_dispose(bot_al *al);
void bot_al_clear(bot_al *al);
/*
 * During a decision (between bot_al_begin and bot_al_translate) units are
 * named by their index in the decision's state; their entries are kept by
 * unit id across decisions.
 */
/* The entry of the unit at index `ui`, or NULL. */
al_entry *bot_al_get(bot_al *al, int ui);
/* Sets the unit's action (a fresh one), keeping its place if it had one. */
int bot_al_set(bot_al *al, const al_entry *a);

/* Abstract actions for the unit at index `ui`; targets are unit indices too
 * (Harvest's resource may be -1: a carrying worker sent home, 2023). */
int bot_al_move(bot_al *al, int ui, int x, int y);
int bot_al_train(bot_al *al, int ui, int type);
int bot_al_build(bot_al *al, int ui, int type, int x, int y);
int bot_al_harvest(bot_al *al, int ui, int target, int base);
int bot_al_attack(bot_al *al, int ui, int target);
int bot_al_idle(bot_al *al, int ui);
/* An entry of `kind` for the unit at index `ui`, fields unset (targets -1). */
al_entry bot_al_fresh(const bot_al *al, int ui, int kind);

/* What the layer's actions ask of the engine, for a bot's own actions. */
/* GameState.isUnitActionAllowed against the state's own usage. */
int bot_al_allowed(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a);
/* The unit `id` (NULL when dead or none); *hint is where it was last seen and is updated. */
const ms_rts_unit *bot_al_unit_by_id(const bot_frame *f, int64_t id, int *hint);
/* Direction from u to the neighbouring cell (x, y), up, right, down, left; -1 when not adjacent. */
int bot_al_adjacent_dir(const ms_rts_unit *u, int x, int y);
/* The first step of the layer's path finding towards (x, y) within `range`, or -1. */
int bot_al_path(bot_al *al, const ms_rts_unit *u, int x, int y, int range);
/* Harvest.execute (CoacAI's HarvestReturn executes as it). */
int bot_al_execute_harvest(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out);

/* Starts a decision of `player` (0 or 1) on `s` (the frame used by
 * translate and the helpers). */
int bot_al_begin(bot_al *al, const ms_rts_state *s, int player);
/* translateActions for the decision's player, then ends the decision. */
int bot_al_translate(bot_al *al, ms_rts_pair *out, int max, int *n);

/* Bot constructors, one shape for the registry's table (bot.c): `arg`
 * is the row's argument (the rushes' military unit type), else NULL. */
int bot_rush_new(ms_bot *b, const char *military);
int bot_passive_new(ms_bot *b, const char *arg);
int bot_random_biased_new(ms_bot *b, const char *arg);
int bot_random_new(ms_bot *b, const char *arg);
/* CoacAI (coac.c). */
int bot_coac_new(ms_bot *b, const char *arg);
/* mayari (mayari.c). */
int bot_mayari_new(ms_bot *b, const char *arg);
/* TMA (tma.c). */
int bot_tma_new(ms_bot *b, const char *arg);

#endif
