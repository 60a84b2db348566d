/* Choosing the representation by time (issue 46, item 2): grounding stops at
 * the caller's deadline, and when the rules did ground, random playouts are
 * timed on the network and on the fallback and the faster is kept. On
 * othello the network ran slower than the fallback; answers are identical
 * either way, so only speed depends on the choice. */
#include <string.h>

#include "gdl_internal.h"
#include "microsynth/rng.h"
#include "core/clock.h"

enum {
	CHOOSE_STEPS = 2000, /* steps timed at most per representation: small games choose in milliseconds */
	CHOOSE_PLIES = 200   /* a playout restarts from the initial state after this many */
};

/* What grounding recorded, once compiled or abandoned. */
static void ground_rules_free(ms_gdl *g)
{
	gdl_ivec_free(g->ctx, &g->gr_head);
	gdl_ivec_free(g->ctx, &g->gr_start);
	gdl_ivec_free(g->ctx, &g->gr_lits);
}

void gdl_ground_stop(ms_gdl *g, int why)
{
	g->grounding = 0;
	ground_rules_free(g);
	if (why == MS_GDL_REP_NETWORK)
		return; /* compiled: the network holds the ground rules */
	g->overflow = 1;
	if (g->rep == MS_GDL_REP_NETWORK)
		g->rep = why;
	gdl_net_free(g);
}

int gdl_ground_late(ms_gdl *g)
{
	/* a join step is well under a microsecond: reading the clock every 1,024
	 * of them costs nothing and overshoots the deadline by about a millisecond */
	if (!g->grounding || g->deadline <= 0)
		return 0;
	if (!g->late && !(++g->ticks & 1023u))
		g->late = ms_now() >= g->deadline;
	return g->late;
}

/* Random joint moves from the initial state on machine m (restarting at a
 * terminal state or after CHOOSE_PLIES) until `max` steps or `secs` seconds:
 * steps per second, 0 if the evaluation fails or nothing can be played. The
 * same seed on both representations plays the same moves. */
static double time_playouts(ms_gdl *g, ms_gdl_machine *m, double secs, long max)
{
	size_t w = ms_gdl_state_words(g);
	uint64_t *st = ms_ctx_calloc(g->ctx, w, sizeof *st), *nx = ms_ctx_calloc(g->ctx, w, sizeof *nx);
	int *joint = ms_ctx_calloc(g->ctx, (size_t)g->nroles + 1, sizeof *joint);
	uint64_t rng = 46;
	long steps = 0;
	int plies = 0, ok = st && nx && joint;
	double t0 = ms_now(), el = 0;
	if (ok)
		ms_gdl_initial(g, st);
	while (ok && steps < max && (el = ms_now() - t0) < secs) {
		if (ms_gdl_machine_set(m, st)) {
			ok = 0;
			break;
		}
		int restart = ms_gdl_terminal(m) || plies >= CHOOSE_PLIES;
		for (int r = 0; r < g->nroles && !restart; r++) {
			const int *mv;
			int n = ms_gdl_legal(m, r, &mv);
			if (n > 0)
				joint[r] = mv[ms_rng_below(&rng, (uint32_t)n)];
			restart = n <= 0;
		}
		if (restart && !plies)
			break; /* nothing to play from the initial state */
		if (restart) {
			ms_gdl_initial(g, st);
			plies = 0;
			continue;
		}
		if (ms_gdl_next(m, joint, nx)) {
			ok = 0;
			break;
		}
		memcpy(st, nx, w * sizeof *st);
		steps++;
		plies++;
	}
	el = ms_now() - t0;
	ms_ctx_mfree(g->ctx, st);
	ms_ctx_mfree(g->ctx, nx);
	ms_ctx_mfree(g->ctx, joint);
	return ok && steps && el > 0 ? (double)steps / el : 0;
}

int gdl_choose(ms_gdl *g)
{
	double secs = g->opts.choose_seconds;
	if (!g->net || !(secs > 0))
		return MS_OK;
	ms_gdl_machine *m = NULL;
	int rc = ms_gdl_machine_new(g->ctx, &m, g);
	if (rc)
		return rc;
	g->rate_net = time_playouts(g, m, secs, CHOOSE_STEPS);
	ms_gdl_machine_free(m);
	struct gdl_net *net = g->net;
	g->net = NULL; /* a machine made now evaluates first-order */
	if (!(rc = ms_gdl_machine_new(g->ctx, &m, g)))
		g->rate_fo = time_playouts(g, m, secs, CHOOSE_STEPS);
	ms_gdl_machine_free(m);
	g->net = net;
	if (!rc && g->rate_fo > g->rate_net) {
		gdl_net_free(g);
		g->rep = MS_GDL_REP_FASTER;
	}
	return rc;
}
