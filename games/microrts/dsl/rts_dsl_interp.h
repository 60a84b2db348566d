/*
 * The dialect-A interpreter's state (rts_dsl_interp.c) and its compiler
 * (rts_dsl_compile.c): a program as flat nodes, and per tick the loops'
 * memory, counters and unit lists.
 */
#ifndef MICROSYNTH_RTS_DSL_INTERP_H
#define MICROSYNTH_RTS_DSL_INTERP_H

#include "rts_dsl_internal.h"

typedef struct rd_node {
	int op;
	int k[3];  /* children: S/B nodes, or parameter nodes */
	int t;     /* T value index, -1 none */
	int d;     /* D value index */
	int n;     /* N value */
	int o;     /* Op value index */
	int tp;    /* Tp value index */
	int at, ad, an, ao, atp; /* the nodes holding T, D, N, Op and Tp (reach marks), -1 none */
	int end;   /* one past the subtree */
	int rnd;   /* subtree draws Random targets */
	int inner; /* a for whose body holds another for */
	int loops; /* the subtree holds a for (itself included) */
} rd_node;

/* Memory of a for node within a tick (see the header comment). */
typedef struct rd_for {
	uint32_t tick;
	uint32_t v0, v1;
} rd_for;

struct ms_rts_dsl_interp {
	ms_ctx *ctx;
	rd_node *code;
	rd_for *fors;
	int n_code, cap_code;
	ms_jrandom rng;
	ms_rts_dsl_options opts;
	rd_layer L;
	/* the unit type table the ids below belong to */
	const ms_rts_utt *utt;
	int tmap[RD_T_COUNT]; /* DSL type -> table id, -1 when absent */
	int id_worker, id_base, id_barracks, id_light, id_heavy, id_ranged;
	/* per tick */
	uint32_t tick, version;
	long iters, loop_budget; /* loop iterations this decision; past the budget the decision stops */
	int cut;
	int player, R;
	int n_own[MS_RTS_MAX_TYPES], n_other[MS_RTS_MAX_TYPES];
	int n_build[MS_RTS_MAX_TYPES], n_train[MS_RTS_MAX_TYPES];
	int n_harvest, n_attack;
	int any_enemy, any_opponent;
	/* This decision's unit lists (indices in list order, so every scan
	 * meets its units in the order a scan of the whole list would):
	 * units with an owner, ours, the others', resources, our stockpiles.
	 * Big maps hold mostly resources, which most scans skip. */
	int *live, *own, *enemy, *res, *stock;
	int n_live, n_own_ix, n_enemy, n_res, n_stock, cap_ix;
	/* Per unit, computed on first use in a decision (stamp == dec): the
	 * nearest enemy's and opponent's squared distance, and whether an
	 * enemy has the unit in its attack range. The state does not change
	 * during a decision, so neither do they. */
	uint32_t *stamp;
	int *enemy_d2, *opp_d2, *in_range;
	uint32_t dec;
	int min_enemy_hp, max_enemy_damage;
	ms_rts_dsl_assignment *pub;
	int n_pub, cap_pub;
	rd_view view; /* the last decision's, for a decision that repeats it */
	long repeats;
	long skips;   /* decisions with no unit free, answered empty */
	long cuts;    /* decisions stopped by the loop budget */
};

/* Compiles `p` into it->code (grown as needed); resets the loops' memory. */
int rd_compile(ms_rts_dsl_interp *it, const ms_dsl_prog *p);

#endif
