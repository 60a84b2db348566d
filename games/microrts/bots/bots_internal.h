/*
 * Shared by the native scripted bots: the per-decision view of the engine
 * state the official bots query (GameState.free, the state's resource
 * usage), A* path finding, and AbstractionLayerAI with its abstract actions.
 */
#ifndef MS_GAMES_MICRORTS_BOTS_INTERNAL_H
#define MS_GAMES_MICRORTS_BOTS_INTERNAL_H

#include "microsynth/bots.h"
#include "../rts.h"

/*
 * What a decision reads from the state again and again, computed once:
 * the cells targeted by pending moves and productions (GameState.free
 * excludes them; they are also the state's ResourceUsage cells) and the
 * stock held by pending productions.
 */
typedef struct bot_frame {
	const ms_rts_state *s;
	int w, h;
	uint8_t *pend;    /* [w*h] 1: a pending MOVE or PRODUCE targets the cell */
	int pend_cost[2]; /* ResourceUsage cost of the pending actions */
} bot_frame;

/* Scratch arrays of one A* search, grown to the largest map seen. */
typedef struct bot_astar {
	int cap;
	int8_t *cache; /* per cell: 0 unknown, 1 free, -1 blocked */
	int *closed, *cost;
	uint8_t *added;
	int *open_cell, *open_h, *open_parent;
} bot_astar;

int bot_frame_init(ms_ctx *ctx, bot_frame *f, const ms_rts_state *s);
void bot_frame_dispose(ms_ctx *ctx, bot_frame *f);
/* GameState.free(x, y) for an in-map cell. */
int bot_frame_free(const bot_frame *f, int x, int y);

int bot_astar_grow(ms_ctx *ctx, bot_astar *a, int cells);
void bot_astar_dispose(ms_ctx *ctx, bot_astar *a);
/*
 * findPathToPositionInRange: *dir receives the first step's direction, or
 * -1 for "no action". `reserved` lists cells (x + y*w) treated as blocked.
 */
void bot_astar_find(bot_astar *a, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		    int n_reserved, int *dir);

/* Abstract actions (ai.abstraction.*). */
enum { AL_MOVE, AL_ATTACK, AL_HARVEST, AL_BUILD, AL_TRAIN, AL_IDLE };

typedef struct al_entry {
	int64_t unit;   /* the unit it commands */
	int kind;
	int x, y;       /* Move and Build target */
	int64_t target; /* Attack target, Harvest resource (-1: none) */
	int64_t base;   /* Harvest stockpile (-1: none) */
	/* Where target and base stood when last seen: Java keeps the unit
	 * objects, so a dead stockpile still has its last position. */
	int tx, ty, bx, by;
	int type;       /* Build and Train unit type */
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
	uint8_t *acc;     /* [cells] arbitration cells */
	uint8_t *in_out;  /* [units] unit already has an action in the result */
	int cap_cells;
	ms_rts_pair *desires;
	int cap_desires;
	bot_frame f;      /* valid during a decision */
} bot_al;

void bot_al_init(bot_al *al, ms_ctx *ctx);
void bot_al_dispose(bot_al *al);
void bot_al_clear(bot_al *al);
/* The entry of unit `id`, or NULL. */
al_entry *bot_al_get(bot_al *al, int64_t id);
/* Sets the unit's action (a fresh one), keeping its place if it had one. */
int bot_al_set(bot_al *al, const al_entry *a);

int bot_al_move(bot_al *al, int64_t u, int x, int y);
int bot_al_train(bot_al *al, int64_t u, int type);
int bot_al_build(bot_al *al, int64_t u, int type, int x, int y);
int bot_al_harvest(bot_al *al, int64_t u, int64_t target, int64_t base);
int bot_al_attack(bot_al *al, int64_t u, int64_t target);
int bot_al_idle(bot_al *al, int64_t u);

/* Starts a decision on `s` (the frame used by translate and the helpers). */
int bot_al_begin(bot_al *al, const ms_rts_state *s);
/* translateActions, then ends the decision. */
int bot_al_translate(bot_al *al, int player, ms_rts_pair *out, int max, int *n);

/* findBuildingPosition: a cell index or -1. `reserved` has `n` cells. */
int bot_al_building_position(const ms_rts_state *s, const int *reserved, int n, int dx, int dy);

/* Bot constructors (the registry lives in bot.c). */
int bot_rush_new(ms_bot *b, const char *military);
int bot_passive_new(ms_bot *b);
int bot_random_biased_new(ms_bot *b);
int bot_random_new(ms_bot *b);

#endif
