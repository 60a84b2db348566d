/* Private to games/gdl: the ground network's layout (prop.c) for the machine.
 *
 * Ground rules are compiled, per segment (one stratum), into tries over their
 * literals: rules that share a prefix of literals test it once, and a false
 * literal skips every rule below it. Code: an op >= 0 tests literal
 * op = prop << 1 | negated and, when it fails, jumps by the next int (the
 * subtree's length); an op < 0 sets proposition ~op.
 *
 * Segments that need a joint move (phase 2) are split further into slots:
 * slot 0 holds the rules without a positive `does` literal, slot 1 + k those
 * whose first positive `does` literal is the k-th does proposition (that
 * literal dropped), so a step runs only the slots of the moves played. */
#ifndef MS_GDL_NET_H
#define MS_GDL_NET_H

#include "gdl_internal.h"

typedef struct gdl_net {
	int nprops;
	int *prop_of_term; /* -1: never true; 0: always true (static) */
	int *does_slot;    /* per proposition: its slot if it is a does atom, else 0 */
	int ndoes;         /* does propositions: phase-2 segments have 1 + ndoes slots */
	int nheads;        /* distinct rule heads: a bound on what one evaluation sets */
	gdl_ivec code;     /* the tries */
	gdl_ivec slot;     /* per slot: code start, end */
	gdl_ivec seg;      /* per segment: first slot, recursive */
	int nseg, phase2;  /* segments [0, phase2) need a state, [phase2, nseg) a move */
} gdl_net;

/* Runs the state segments [0, phase2); appends every proposition it sets to
 * dirty (room for nheads) and returns their count. */
int gdl_net_state(const gdl_net *n, uint8_t *val, int *dirty);
/* Runs the move segments for the given does slots (one per role, each >= 1,
 * or 0 for none); appends what it sets to dirty, returns the count. */
int gdl_net_move(const gdl_net *n, uint8_t *val, const int *slots, int nslots, int *dirty);

#endif
