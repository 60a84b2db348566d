/* Private to games/gdl: the ground network's layout (prop.c) for the machine. */
#ifndef MS_GDL_NET_H
#define MS_GDL_NET_H

#include "gdl_internal.h"

typedef struct gdl_net {
	int nprops;
	int *prop_of_term; /* -1: never true; 0: always true (static) */
	gdl_ivec code;     /* per rule: head, nlits, then prop << 1 | negated */
	gdl_ivec seg;      /* per segment: code start, recursive; then the end */
	int nseg, phase2;  /* segments [0, phase2) need a state, [phase2, nseg) a move */
} gdl_net;

void gdl_net_run(const gdl_net *n, uint8_t *val, int s0, int s1);

#endif
