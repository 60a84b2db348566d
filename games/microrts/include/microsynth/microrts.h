/*
 * The MicroRTS engine: unit type tables, maps, game states, actions, the
 * cycle, traces. It reproduces the official Java engine (the jar from the
 * gym-microrts package) cycle by cycle; see docs/ and the fidelity tests.
 *
 * A state is one flat block of memory: ms_rts_state_clone is a single
 * allocation and memcpy. Unit type tables are immutable once built and are
 * shared (not copied) by the states that use them; a table must outlive
 * its states.
 */
#ifndef MICROSYNTH_MICRORTS_H
#define MICROSYNTH_MICRORTS_H

#include "microsynth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- unit type tables ---------------------------------------------------- */

#define MS_RTS_MAX_TYPES 16
#define MS_RTS_TYPE_NAME_MAX 32

/** Unit type table versions of the official engine. */
enum {
	MS_RTS_UTT_ORIGINAL = 1,           /**< original balance (traces in shared/ use it) */
	MS_RTS_UTT_FINETUNED = 2,          /**< competition default */
	MS_RTS_UTT_NON_DETERMINISTIC = 3   /**< random damage ranges */
};

/** Move-conflict policies. Any other value behaves as CANCEL_BOTH. */
enum {
	MS_RTS_CONFLICT_CANCEL_BOTH = 1,
	MS_RTS_CONFLICT_CANCEL_RANDOM = 2,
	MS_RTS_CONFLICT_CANCEL_ALTERNATING = 3
};

/** One unit type, with the fields and meaning of rts.units.UnitType. */
typedef struct ms_rts_unit_type {
	int id;
	char name[MS_RTS_TYPE_NAME_MAX];
	int cost, hp, min_damage, max_damage, attack_range;
	int produce_time, move_time, attack_time, harvest_time, return_time;
	int harvest_amount, sight_radius;
	int is_resource, is_stockpile, can_harvest, can_move, can_attack;
	int n_produces;
	int produces[MS_RTS_MAX_TYPES];    /**< type ids, in the table's order */
	int n_produced_by;
	int produced_by[MS_RTS_MAX_TYPES];
} ms_rts_unit_type;

typedef struct ms_rts_utt ms_rts_utt;

/** Builds the official table of `version` (1, 2 or 3) with `conflict_policy`. */
MS_EXTERN int ms_rts_utt_new(ms_ctx *ctx, ms_rts_utt **out, int version, int conflict_policy);

/**
 * Reads a table from the official JSON form (UnitTypeTable.toJSON). Fields
 * are read as named (Java's own JSON reader confuses some; see the spec).
 */
MS_EXTERN int ms_rts_utt_from_json(ms_ctx *ctx, ms_rts_utt **out, const char *text, size_t len);

MS_EXTERN void ms_rts_utt_free(ms_rts_utt *utt);
MS_EXTERN int ms_rts_utt_count(const ms_rts_utt *utt);
MS_EXTERN const ms_rts_unit_type *ms_rts_utt_type(const ms_rts_utt *utt, int id);
/** Type id by name, or -1. */
MS_EXTERN int ms_rts_utt_find(const ms_rts_utt *utt, const char *name);
MS_EXTERN int ms_rts_utt_conflict_policy(const ms_rts_utt *utt);
/** Largest attack range over all types. */
MS_EXTERN int ms_rts_utt_max_attack_range(const ms_rts_utt *utt);

/* ---- actions ------------------------------------------------------------- */

enum {
	MS_RTS_NONE = 0,
	MS_RTS_MOVE = 1,
	MS_RTS_HARVEST = 2,
	MS_RTS_RETURN = 3,
	MS_RTS_PRODUCE = 4,
	MS_RTS_ATTACK = 5
};

/** Directions, scanned in this order wherever the engine scans neighbours. */
enum { MS_RTS_DIR_NONE = -1, MS_RTS_UP = 0, MS_RTS_RIGHT = 1, MS_RTS_DOWN = 2, MS_RTS_LEFT = 3 };

/**
 * A unit action (rts.UnitAction). `parameter` is the direction, or the
 * duration of NONE (-1: one cycle); `x`, `y` the target cell of an attack;
 * `unit_type` the type produced (-1 when not set).
 */
typedef struct ms_rts_action {
	int type;
	int parameter;
	int x, y;
	int unit_type;
} ms_rts_action;

/** A unit as Java serialises it; `player` is -1 for resource fields. */
typedef struct ms_rts_unit {
	int64_t id;
	int type;
	int player;
	int x, y;
	int resources;
	int hitpoints;
} ms_rts_unit;

/**
 * One element of a player action: the unit as the AI saw it (on the live
 * state, a clone, or a trace entry) and what it should do. Issuing maps it
 * to the live unit with the same id on the same cell, else to the first
 * live unit on that cell, as the Java engine does.
 */
typedef struct ms_rts_pair {
	ms_rts_unit unit;
	ms_rts_action action;
} ms_rts_pair;

/* ---- game states --------------------------------------------------------- */

typedef struct ms_rts_state ms_rts_state;

/** Largest width and height accepted (official maps go up to 128). */
#define MS_RTS_MAX_SIDE 256

/**
 * Loads a map (rts.PhysicalGameState XML) into a fresh state at time 0.
 * `seed` seeds the state's two random generators (damage of version 3
 * tables, CANCEL_RANDOM conflicts).
 */
MS_EXTERN int ms_rts_state_load_map(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt,
				    const char *path, int64_t seed);

/** Same as ms_rts_state_load_map from text; `what` names it in errors. */
MS_EXTERN int ms_rts_state_from_map_xml(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt,
					const char *what, const char *xml, size_t len, int64_t seed);

/**
 * One allocation and a flat copy: the fixed part (header, occupancy grid,
 * terrain) in one memcpy, then the used prefixes of the unit and pending
 * action arrays, so the cost follows the units in play, not the map's
 * capacity for them.
 */
MS_EXTERN int ms_rts_state_clone(ms_ctx *ctx, ms_rts_state **out, const ms_rts_state *s);

/** Copies `src` into `dst`, which must have been made from the same map size. */
MS_EXTERN int ms_rts_state_copy(ms_rts_state *dst, const ms_rts_state *src);

MS_EXTERN void ms_rts_state_free(ms_rts_state *s);

/**
 * PartiallyObservableGameState: makes `dst` (same map size as `src`) the
 * view of `src` for `player`: units not owned by `player` (enemies and
 * resource fields) on cells none of the player's units can see are
 * removed, with their pending actions. Terrain, stocks, time and the
 * visible units' actions are kept.
 */
MS_EXTERN int ms_rts_state_observe(ms_rts_state *dst, const ms_rts_state *src, int player);

/** 1 if `player` sees (x, y): some own unit within its sight radius. */
MS_EXTERN int ms_rts_state_visible(const ms_rts_state *s, int player, int x, int y);

/** Bytes of the state's block (room for one unit per cell). */
MS_EXTERN size_t ms_rts_state_bytes(const ms_rts_state *s);

/** Bytes a clone of this state copies now. */
MS_EXTERN size_t ms_rts_state_copied_bytes(const ms_rts_state *s);

MS_EXTERN const ms_rts_utt *ms_rts_state_utt(const ms_rts_state *s);
MS_EXTERN int ms_rts_state_time(const ms_rts_state *s);
MS_EXTERN int ms_rts_state_width(const ms_rts_state *s);
MS_EXTERN int ms_rts_state_height(const ms_rts_state *s);
/** Terrain of (x, y): 0 free, non-zero wall; outside the map counts as wall. */
MS_EXTERN int ms_rts_state_terrain(const ms_rts_state *s, int x, int y);
MS_EXTERN int ms_rts_state_resources(const ms_rts_state *s, int player);
MS_EXTERN int ms_rts_state_unit_count(const ms_rts_state *s);
/** The i-th unit in unit-list order (copied out). */
MS_EXTERN int ms_rts_state_unit(const ms_rts_state *s, int i, ms_rts_unit *out);
/** Index in unit-list order of the unit on (x, y), or -1. */
MS_EXTERN int ms_rts_state_unit_at(const ms_rts_state *s, int x, int y);
/** Index of the unit with `id`, or -1. */
MS_EXTERN int ms_rts_state_find_unit(const ms_rts_state *s, int64_t id);
/** The next id a production will take. */
MS_EXTERN int64_t ms_rts_state_next_id(const ms_rts_state *s);
MS_EXTERN void ms_rts_state_set_next_id(ms_rts_state *s, int64_t next_id);
/** Generators of a state: damage rolls (UnitAction.r), conflicts (GameState.r). */
enum { MS_RTS_RNG_DAMAGE = 0, MS_RTS_RNG_CONFLICT = 1 };

/**
 * Sets a generator's raw 48-bit state (the `seed` field of the Java
 * generator, already scrambled), to follow a Java game whose static
 * generators are also drawn by AI simulations.
 */
MS_EXTERN int ms_rts_state_set_rng(ms_rts_state *s, int which, int64_t raw_state);

/** Changes the id of unit `i` (trace replay resynchronises ids by position). */
MS_EXTERN int ms_rts_state_set_unit_id(ms_rts_state *s, int i, int64_t id);

/** Pending actions ("assignments") in execution order. */
MS_EXTERN int ms_rts_state_assignment_count(const ms_rts_state *s);
/** The i-th assignment: its unit's index, action and issue time. */
MS_EXTERN int ms_rts_state_assignment(const ms_rts_state *s, int i, int *unit_index,
				      ms_rts_action *action, int *issued_at);
/** 1 if unit `i` has no pending action. */
MS_EXTERN int ms_rts_state_unit_idle(const ms_rts_state *s, int i);

/* ---- rules --------------------------------------------------------------- */

/** Duration of `a` for a unit of type `type` (rules of UnitAction.ETA). */
MS_EXTERN int ms_rts_action_duration(const ms_rts_utt *utt, const ms_rts_action *a, int type);

/**
 * The legal actions of unit `i` in the engine's order (attacks, harvests,
 * returns, produces, moves, NONE(none_duration)). Writes at most `max`;
 * returns how many there are (which may exceed `max`).
 */
MS_EXTERN int ms_rts_legal_actions(const ms_rts_state *s, const ms_rts_unit *u, int none_duration,
				   ms_rts_action *out, int max);

/** 1 if `a` is legal for `u` in `s` (GameState.canExecuteAction). */
MS_EXTERN int ms_rts_action_legal(const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a);

/**
 * GameState.issueSafe: issues one player's action. Illegal actions become
 * NONE of the same duration; conflicts are resolved by the table's policy.
 * `pairs` is rewritten as Java rewrites it (replaced actions, live units).
 * Fails without changing the state when the pairs are not all of one owner,
 * name a neutral unit, carry an invalid action, or no live unit stands on
 * a pair's cell. `*any_issued` (may be NULL) tells whether some non-NONE
 * action was assigned.
 */
MS_EXTERN int ms_rts_issue_safe(ms_ctx *ctx, ms_rts_state *s, ms_rts_pair *pairs, int n,
				int *any_issued);

/**
 * GameState.cycle: advances time by one and applies every action that
 * completes. `*gameover` (may be NULL) receives gameover().
 */
MS_EXTERN int ms_rts_cycle(ms_ctx *ctx, ms_rts_state *s, int *gameover);

/** GameState.gameover(): at most one player still has units. */
MS_EXTERN int ms_rts_gameover(const ms_rts_state *s);

/** GameState.winner(): the only player with units, else -1. */
MS_EXTERN int ms_rts_winner(const ms_rts_state *s);

/* ---- JSON (byte-compatible with the official toJSON) ---------------------- */

/** Flags of ms_rts_state_to_json. */
enum {
	MS_RTS_JSON_CONSTANTS = 1,       /**< width, height and terrain (Java's default) */
	MS_RTS_JSON_COMPRESS_TERRAIN = 2 /**< run-length terrain, as Java writes it */
};

/**
 * GameState.toJSON: `{"time":..,"pgs":{..},"actions":[..]}` with Java's exact
 * bytes. The string is allocated with the context (free: ms_ctx_mfree).
 */
MS_EXTERN int ms_rts_state_to_json(ms_ctx *ctx, char **out, const ms_rts_state *s, int flags);

/** Map constants a game state may omit (the SocketAI protocol sends them once). */
typedef struct ms_rts_map_constants {
	int width, height;
	const char *terrain; /**< width * height digits, '0' free, '1' wall */
} ms_rts_map_constants;

/**
 * Reads a game state in GameState.toxml's form, as the SocketAI protocol
 * sends it: the root (rts.GameState or rts.PartiallyObservableGameState)
 * with its time, the rts.PhysicalGameState, and the units' pending
 * <actions>. When the PhysicalGameState has no width, height and terrain,
 * `constants` gives them (NULL: an error); Java's run-length terrain one
 * cell short is completed. `what` names the text in errors (NULL: "state"),
 * with the line and element at fault.
 */
MS_EXTERN int ms_rts_state_from_xml(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
				    const char *xml, size_t len, const ms_rts_map_constants *constants, int64_t seed);

/** Reads an rts.units.UnitTypeTable in XML; `what` names it in errors (NULL: "unit type table"). */
MS_EXTERN int ms_rts_utt_from_xml(ms_ctx *ctx, ms_rts_utt **out, const char *what, const char *xml, size_t len);

/**
 * Java's run-length terrain writer (A/B runs) never writes a final run of
 * one cell, so such a text may cover one cell less than the map's `cells`:
 * *out receives the completed text (on ctx's allocator), or NULL when
 * `terrain` is not run-length encoded or lacks nothing.
 */
MS_EXTERN int ms_rts_terrain_complete(ms_ctx *ctx, char **out, const char *terrain, long cells);

/**
 * Reads a GameState JSON (with constants) into a new state. Missing keys
 * take Java's defaults; values Java would accept but the rules cannot
 * (units off the map, two on a cell, unknown types) are errors.
 */
MS_EXTERN int ms_rts_state_from_json(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt,
				     const char *text, size_t len, int64_t seed);

/** UnitTypeTable.toJSON. */
MS_EXTERN int ms_rts_utt_to_json(ms_ctx *ctx, char **out, const ms_rts_utt *utt);

/** PlayerAction.toJSON for `n` pairs (elements joined by " ,", as Java does). */
MS_EXTERN int ms_rts_player_action_to_json(ms_ctx *ctx, char **out, const ms_rts_state *s, const ms_rts_pair *pairs,
					   int n);

/**
 * PlayerAction.fromJSON: reads pairs, resolving unitID against `s`. An
 * unknown unit id is an error (Java would abort the game). Writes at most
 * `max` pairs; `*n` receives the count.
 */
MS_EXTERN int ms_rts_player_action_from_json(ms_ctx *ctx, const ms_rts_state *s, const char *text,
					     size_t len, ms_rts_pair *pairs, int max, int *n);

/* ---- traces -------------------------------------------------------------- */

typedef struct ms_rts_trace ms_rts_trace;

/** Reads a trace (rts.Trace XML), plain or zipped (first zip entry). */
MS_EXTERN int ms_rts_trace_load(ms_ctx *ctx, ms_rts_trace **out, const char *path);
MS_EXTERN void ms_rts_trace_free(ms_rts_trace *t);
MS_EXTERN int ms_rts_trace_entry_count(const ms_rts_trace *t);
/** The state a trace starts from (its map): valid while `t` lives. */
MS_EXTERN const ms_rts_state *ms_rts_trace_initial(const ms_rts_trace *t);

/** Outcome of replaying a trace against the recorded states. */
typedef struct ms_rts_replay_result {
	int entries;      /**< entries compared */
	int divergent;    /**< entries whose state differed */
	int first_bad;    /**< index of the first divergent entry, or -1 */
	int cycles;       /**< cycles run (the final state's time) */
	int winner;       /**< winner() of the final state */
	char detail[512]; /**< unit-level description of the first divergence */
} ms_rts_replay_result;

/**
 * Replays `t` as Trace.getGameStateAtCycle does (cycle to each entry's
 * time, resynchronise ids by position and type, issue player 0's then
 * player 1's actions) and compares every entry's players and units.
 */
MS_EXTERN int ms_rts_trace_replay(ms_ctx *ctx, const ms_rts_trace *t, ms_rts_replay_result *res);

/**
 * Writes a match as an official trace (rts.Trace XML, the bytes of
 * Trace.toxml), so the official trace viewer opens native matches. Entries
 * follow Tournament: the initial map, one entry per decision point where a
 * player action is non-empty (the state before issuing and the pairs as the
 * AIs returned them), and the final map.
 */
typedef struct ms_rts_trace_writer ms_rts_trace_writer;

MS_EXTERN int ms_rts_trace_writer_new(ms_ctx *ctx, ms_rts_trace_writer **out, const ms_rts_state *initial);

/** Adds a decision point (nothing when both actions are empty). */
MS_EXTERN int ms_rts_trace_writer_entry(ms_rts_trace_writer *w, const ms_rts_state *s, const ms_rts_pair *p0,
					int n0, const ms_rts_pair *p1, int n1);

/**
 * Adds the final entry and writes the trace to `path`: a zip holding
 * "game.xml" when the path ends in ".zip", plain XML otherwise.
 */
MS_EXTERN int ms_rts_trace_writer_finish(ms_rts_trace_writer *w, const ms_rts_state *final_state,
					 const char *path);

MS_EXTERN void ms_rts_trace_writer_free(ms_rts_trace_writer *w);

#ifdef __cplusplus
}
#endif
#endif
