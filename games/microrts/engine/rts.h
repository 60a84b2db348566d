/* MicroRTS engine internals shared by the engine's files (and its bots). */
#ifndef MS_GAMES_MICRORTS_RTS_H
#define MS_GAMES_MICRORTS_RTS_H


#include "microsynth/jrandom.h"
#include "microsynth/microrts.h"

struct ms_rts_utt {
	ms_ctx *ctx; /* allocator that owns the table */
	int version;
	int conflict_policy;
	int n_types;
	int max_attack_range;
	ms_rts_unit_type types[MS_RTS_MAX_TYPES];
};

/* A unit plus its identity inside the state. Java keys pending actions by
 * object identity, and trace replay rewrites ids, so the key is separate
 * from the id. */
typedef struct rts_unit {
	ms_rts_unit u;
	uint32_t key;
	int slot; /* index of its pending action, -1 when idle */
} rts_unit;

/* A pending action. `unit` indexes the unit list (kept right when units
 * are removed); `end` = issue time + duration, cached because the cycle
 * tests it for every pending action. */
typedef struct rts_assign {
	uint32_t key;
	int unit;
	int time;
	int end;
	int use_cell;    /* ResourceUsage: the cell reserved (-1: none) */
	int use_cost[2]; /* ... and the stock reserved per player */
	ms_rts_action action;
} rts_assign;

/*
 * The state is one block: this header, then the arrays at the offsets
 * below (offsets, not pointers, so a memcpy is a complete clone). There is
 * room for one unit per cell, the most the rules allow, and one pending
 * action per unit.
 */
struct ms_rts_state {
	size_t bytes;
	ms_ctx *ctx; /* its allocator (ms_rts_state_free needs no context); a copy keeps its own */
	const ms_rts_utt *utt;
	int width, height, cells;
	int time;
	int cancel_counter;
	int64_t next_id;
	uint32_t next_key;
	int resources[2];
	int n_units;
	int n_assign;
	int next_end;   /* no pending action ends before this time (a lower bound) */
	int count[2];   /* units owned by each player */
	ms_jrandom rng_damage;   /* UnitAction.r in Java */
	ms_jrandom rng_conflict; /* GameState.r in Java */
	size_t off_units, off_assign, off_grid, off_terrain;
};

static inline rts_unit *rts_units(ms_rts_state *s) { return (rts_unit *)((char *)s + s->off_units); }
static inline const rts_unit *rts_cunits(const ms_rts_state *s) { return (const rts_unit *)((const char *)s + s->off_units); }
static inline rts_assign *rts_assigns(ms_rts_state *s) { return (rts_assign *)((char *)s + s->off_assign); }
static inline const rts_assign *rts_cassigns(const ms_rts_state *s) { return (const rts_assign *)((const char *)s + s->off_assign); }
/* grid[cell] = 1 + index of the unit on the cell, 0 when empty */
static inline uint16_t *rts_grid(ms_rts_state *s) { return (uint16_t *)((char *)s + s->off_grid); }
static inline const uint16_t *rts_cgrid(const ms_rts_state *s) { return (const uint16_t *)((const char *)s + s->off_grid); }
static inline uint8_t *rts_terrain(ms_rts_state *s) { return (uint8_t *)((char *)s + s->off_terrain); }
static inline const uint8_t *rts_cterrain(const ms_rts_state *s) { return (const uint8_t *)((const char *)s + s->off_terrain); }

extern const int rts_dx[4];
extern const int rts_dy[4];

static inline int rts_inside(const ms_rts_state *s, int x, int y)
{
	return x >= 0 && y >= 0 && x < s->width && y < s->height;
}

/* Index of the unit on (x, y), or -1 (also outside the map). */
static inline int rts_unit_at(const ms_rts_state *s, int x, int y)
{
	return rts_inside(s, x, y) ? (int)rts_cgrid(s)[x + y * s->width] - 1 : -1;
}

/* Allocates a state for a w x h map with nothing on it. */
int rts_state_alloc(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, int w, int h, int64_t seed);

/* Appends a unit (map order); fails on a taken cell or a full state. */
int rts_state_add_unit(ms_ctx *ctx, ms_rts_state *s, const ms_rts_unit *u, const char *what);

/* Decodes a terrain string (digits, or Java's run-length form). */
int rts_terrain_decode(ms_ctx *ctx, ms_rts_state *s, const char *what, const char *text);

/* Sets a pending action's `end` and usage, and lowers the state's next_end. */
void rts_assign_update(ms_rts_state *s, rts_assign *a);

/* Appends a pending action for unit `ui` (which has none), issued at cycle `time`. */
void rts_assign_append(ms_rts_state *s, int ui, int time, const ms_rts_action *a);

/* Index of the unit with `key`, or -1. */
int rts_find_key(const ms_rts_state *s, uint32_t key);

/* Points each unit at its pending action again after actions moved. */
void rts_reslot(ms_rts_state *s);

/* Removes unit `i` and its pending action, keeping the others' order. */
void rts_remove_unit(ms_rts_state *s, int i);

#endif
