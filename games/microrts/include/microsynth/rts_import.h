/*
 * Building MicroRTS engine objects from plain values, for hosts that hold
 * the game in their own objects and hand it over field by field (the JNI
 * bridge packs a Java GameState into int arrays once per decision). No
 * text format is involved: a unit type table from its types' stats, an
 * empty state of a given size and terrain, then the state's dynamic part
 * (time, stocks, units, pending actions) replaced in place as often as
 * needed, in time proportional to the units, not to the map.
 *
 * Validation is that of the map and JSON readers: a unit off the map, on a
 * taken cell, of an unknown type or owner, a repeated id, a pending action
 * naming no unit or a unit twice, an unknown action or unit type are
 * errors naming the offending element; nothing here trusts its input.
 */
#ifndef MICROSYNTH_RTS_IMPORT_H
#define MICROSYNTH_RTS_IMPORT_H

#include "microsynth/microrts.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A table from `n` types (1..MS_RTS_MAX_TYPES) in id order: `types[i].id`
 * must be i, names unique and non-empty, stats non-negative (min_damage <=
 * max_damage), produces/produced_by ids below `n`. `version` is recorded
 * as the table's version (1..3 for the official tables, 0 for others); the
 * rules read only the stats and `conflict_policy`.
 */
MS_EXTERN int ms_rts_utt_from_types(ms_ctx *ctx, ms_rts_utt **out, const ms_rts_unit_type *types, int n,
				    int version, int conflict_policy);

/**
 * An empty `w` x `h` state at time 0 with no units and empty stocks.
 * `terrain` holds w*h cells row by row (0 free, anything else a wall;
 * NULL: all free). `seed` seeds the state's generators as in
 * ms_rts_state_load_map. `utt` must outlive the state.
 */
MS_EXTERN int ms_rts_state_new(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, int w, int h,
			       const uint8_t *terrain, int64_t seed);

/** Replaces the terrain (w*h cells as in ms_rts_state_new) of a state of that size. */
MS_EXTERN int ms_rts_state_set_terrain(ms_rts_state *s, const uint8_t *terrain);

/**
 * Empties the state (no units, no pending actions) and sets its time and
 * the two players' stocks; the map size, terrain and generators stay. The
 * next production id restarts at 0 and follows the units added.
 */
MS_EXTERN int ms_rts_state_reset_dynamic(ms_ctx *ctx, ms_rts_state *s, int time, int resources0,
					 int resources1);

/**
 * Appends a unit (unit-list order is the order of the calls). `u->player`
 * is -1 for neutral units (resource fields), else 0 or 1. `*index` (may be
 * NULL) receives its index. The next production id becomes larger than
 * every id added.
 */
MS_EXTERN int ms_rts_state_add_unit(ms_ctx *ctx, ms_rts_state *s, const ms_rts_unit *u, int *index);

/**
 * Appends a pending action (execution order is the order of the calls)
 * for the unit at `unit_index`, issued at cycle `issued_at`
 * (UnitActionAssignment.time). The action is taken as the engine holds it:
 * it is not checked for legality (the engine admitted it when it was
 * issued), only for being an action the rules can run.
 */
MS_EXTERN int ms_rts_state_add_pending(ms_ctx *ctx, ms_rts_state *s, int unit_index, int issued_at,
				       const ms_rts_action *a);

#ifdef __cplusplus
}
#endif
#endif
