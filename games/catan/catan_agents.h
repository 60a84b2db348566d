/* Catan agents: the search agents' private state (not public). */
#ifndef MS_GAMES_CATAN_AGENTS_H
#define MS_GAMES_CATAN_AGENTS_H

#include "microsynth/catan.h"
#include "microsynth/mcts.h"

#define CATAN_BUFFER 32
#define CATAN_DISCARD_SAMPLES 100 /* spec 5.3.b: random halves tried per discard node */

typedef struct catan__search {
	ms_ctx *ctx;
	ms_mcts *m;
	ms_catan_simple_options simple;
	int seat;
	int preselect; /* spec 5.3.b preSelect (default 1) */
	int discard_samples; /* thesis-rule discards in the tree: 100, or 1 (the engine's one random half) */
	ms_catan_action buf[CATAN_BUFFER]; /* the move buffer (spec 5.3.a) */
	int n_buf, at_buf;
	long searches, nodes;
} catan__search;

typedef struct catan__alphabeta {
	ms_ctx *ctx;
	ms_catan_simple_options simple;
	int depth, root;
	uint64_t rng;
	long nodes, budget, node_limit;
	long searches, total_nodes;
} catan__alphabeta;

int catan__alphabeta_act(catan__alphabeta *ab, const ms_catan_state *s, ms_catan_action *out);

int catan__search_init(ms_ctx *ctx, catan__search *cs, long iterations, int rule, double c, uint64_t seed);
int catan__search_act(catan__search *cs, const ms_catan_state *s, ms_catan_action *out);
int catan__tree_actions(const ms_catan_state *s, const ms_catan_simple_options *o, int preselect, ms_catan_action *out);
void catan__reward(const ms_catan_state *s, double *r);
int catan__turns_after_setup(const ms_catan_state *s);

#endif
