/* A correct 2-player alpha-beta (spec 5.2): fixed root player, the thesis
 * code's evaluation as the difference between the two seats, depth counted
 * in changes of the player to move, chance drawn once per node from the
 * agent's generator, and a node budget per decision (the thesis observed
 * that even depth 1 was too slow; the budget keeps a decision finite). */
#include <math.h>
#include <string.h>
#include "catan_internal.h"
#include "catan_agents.h"
#include "core/hash.h"

static double score(const ms_catan_state *s, int p)
{
	const ms_catan_player *q = &s->p[p];
	return q->actual_vp + (15 - q->roads_left) + 2 * (5 - q->settlements_left) + 3 * (4 - q->cities_left) +
	       3 * q->has_army + 3 * q->has_road;
}

static double evaluate(const ms_catan_state *s, int root)
{
	if (s->winner >= 0)
		return s->winner == root ? 1e6 : -1e6;
	return score(s, root) - score(s, 1 - root);
}

static double search(catan__alphabeta *ab, const ms_catan_state *s, int depth, double alpha, double beta,
		     uint64_t rng)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	ab->nodes++;
	if (ms_catan_over(s) || depth <= 0 || ab->nodes >= ab->budget)
		return evaluate(s, ab->root);
	int n = catan__tree_actions(s, &ab->simple, 1, acts), max = s->cur == ab->root;
	if (n == 0)
		return evaluate(s, ab->root);
	double best = max ? -INFINITY : INFINITY;
	for (int i = 0; i < n; i++) {
		ms_catan_state c = *s;
		uint64_t r = rng; /* the same chance for every sibling */
		if (ms_catan_apply(ab->ctx, &c, &acts[i], &r, NULL) < 0)
			continue;
		double v = search(ab, &c, depth - (c.cur != s->cur), alpha, beta, r * MS_SPLITMIX_GAMMA + 1);
		if (max) {
			if (v > best)
				best = v;
			if (best > alpha)
				alpha = best;
		} else {
			if (v < best)
				best = v;
			if (best < beta)
				beta = best;
		}
		if (alpha >= beta)
			break;
	}
	return best;
}

int catan__alphabeta_act(catan__alphabeta *ab, const ms_catan_state *s, ms_catan_action *out)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	int n = catan__tree_actions(s, &ab->simple, 1, acts), best = 0;
	if (s->n != 2)
		return ms_ctx_error(ab->ctx, MS_EINVAL, "catan: alphabeta plays 2-player games only");
	if (n <= 0)
		return ms_ctx_error(ab->ctx, MS_EILLEGAL, "catan: no legal action");
	*out = acts[0];
	if (n == 1)
		return MS_OK;
	ab->root = s->cur;
	long before = ab->nodes;
	ab->budget = ab->nodes + ab->node_limit;
	uint64_t rng = ab->rng++;
	double alpha = -INFINITY;
	for (int i = 0; i < n; i++) {
		ms_catan_state c = *s;
		uint64_t r = rng;
		if (ms_catan_apply(ab->ctx, &c, &acts[i], &r, NULL) < 0)
			continue;
		double v = search(ab, &c, ab->depth - (c.cur != s->cur), alpha, INFINITY, r * MS_SPLITMIX_GAMMA + 1);
		if (v > alpha) {
			alpha = v;
			best = i;
		}
	}
	ab->searches++;
	ab->total_nodes += ab->nodes - before;
	*out = acts[best];
	return MS_OK;
}
