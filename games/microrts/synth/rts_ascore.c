/* The action score A (rts_ascore.h). */
#include "rts_ascore.h"

#include <string.h>

#include "microsynth/rts_dsl.h"
#include "core/vec.h"

#define PAIRS_MAX 1024 /* a decision's pairs: one per unit at most, and maps hold fewer */

/* One recorded decision: the state the oracle saw and its pairs [first, first + n) of the shard. */
typedef struct entry {
	ms_rts_state *s;
	long first;
	int n;
} entry;

typedef struct shard {
	int seat;
	entry *e;
	int n_e, cap_e;
	ms_rts_pair *pairs;
	int n_p, cap_p;
} shard;

struct rts_ascore {
	ms_ctx *ctx;
	int n;
	shard *sh;
};

int rts_ascore_new(ms_ctx *ctx, int n_shards, rts_ascore **out)
{
	rts_ascore *a = ms_ctx_calloc(ctx, 1, sizeof *a);
	*out = NULL;
	if (!a || !(a->sh = ms_ctx_calloc(ctx, (size_t)n_shards, sizeof *a->sh))) {
		ms_ctx_mfree(ctx, a);
		return ms_ctx_error(ctx, MS_ENOMEM, "action score: out of memory");
	}
	a->ctx = ctx;
	a->n = n_shards;
	*out = a;
	return MS_OK;
}

void rts_ascore_free(rts_ascore *a)
{
	if (!a)
		return;
	for (int k = 0; k < a->n; k++) {
		for (int i = 0; i < a->sh[k].n_e; i++)
			ms_rts_state_free(a->ctx, a->sh[k].e[i].s);
		ms_ctx_mfree(a->ctx, a->sh[k].e);
		ms_ctx_mfree(a->ctx, a->sh[k].pairs);
	}
	ms_ctx_mfree(a->ctx, a->sh);
	ms_ctx_mfree(a->ctx, a);
}

typedef struct rec_ud {
	rts_ascore *a;
	shard *sh;
} rec_ud;

/* The decisions hook: a copy of the state and the oracle's pairs, when it issued any. */
static int on_decisions(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2])
{
	rec_ud *r = ud;
	shard *sh = r->sh;
	int k = 0, rc;
	/* waits (NONE, which the abstraction layer gives every free unit left without an
	 * action) are not counted: an idle program would reproduce them all */
	for (int i = 0; i < n[sh->seat]; i++)
		k += pairs[sh->seat][i].action.type != MS_RTS_NONE;
	if (k <= 0)
		return MS_OK;
	if ((rc = ms_vec_grow(r->a->ctx, (void **)&sh->e, &sh->cap_e, (long long)sh->n_e + 1, sizeof *sh->e)) ||
	    (rc = ms_vec_grow(r->a->ctx, (void **)&sh->pairs, &sh->cap_p, (long long)sh->n_p + k, sizeof *sh->pairs)))
		return rc;
	entry *e = &sh->e[sh->n_e];
	if ((rc = ms_rts_state_clone(r->a->ctx, &e->s, s)))
		return rc;
	e->first = sh->n_p;
	e->n = k;
	for (int i = 0; i < n[sh->seat]; i++)
		if (pairs[sh->seat][i].action.type != MS_RTS_NONE)
			sh->pairs[sh->n_p++] = pairs[sh->seat][i];
	sh->n_e++;
	return MS_OK;
}

int rts_ascore_record(rts_ascore *a, ms_match *m, int shard_i, int seat, ms_match_player oracle, ms_match_player opp)
{
	shard *sh = &a->sh[shard_i];
	rec_ud r = { a, sh };
	ms_bot_hooks h = { NULL, on_decisions, &r };
	ms_match_player pl[2];
	ms_match_result res;
	sh->seat = seat;
	pl[seat] = oracle;
	pl[1 - seat] = opp;
	return ms_match_play_hooked(m, pl, &h, &res);
}

long rts_ascore_actions(const rts_ascore *a, int shard_i)
{
	long n = 0;
	for (int k = 0; k < a->n; k++)
		if (shard_i < 0 || k == shard_i)
			n += a->sh[k].n_p;
	return n;
}

static int same_action(const ms_rts_action *x, const ms_rts_action *y)
{
	return x->type == y->type && x->parameter == y->parameter && x->x == y->x && x->y == y->y &&
	       x->unit_type == y->unit_type;
}

int rts_ascore_eval(const rts_ascore *a, ms_ctx *ctx, const ms_dsl_prog *p, int shard_i, double *matched,
		    double *total)
{
	const shard *sh = &a->sh[shard_i];
	ms_rts_dsl_interp *it = NULL;
	ms_rts_pair *mine = ms_ctx_malloc(ctx, PAIRS_MAX * sizeof *mine);
	long hits = 0;
	int rc = mine ? ms_rts_dsl_interp_new(ctx, &it, p, 0, NULL) : MS_ENOMEM;

	*matched = 0;
	*total = (double)sh->n_p;
	for (int i = 0; rc == MS_OK && i < sh->n_e; i++) {
		const entry *e = &sh->e[i];
		int n = 0;
		rc = ms_rts_dsl_decide(it, sh->seat, e->s, mine, PAIRS_MAX, &n);
		if (rc == MS_EILLEGAL) {
			rc = MS_OK; /* the program fails in this match: the rest is missed */
			break;
		}
		for (int k = 0; rc == MS_OK && k < e->n; k++) {
			const ms_rts_pair *o = &sh->pairs[e->first + k];
			for (int j = 0; j < n; j++)
				if (mine[j].unit.id == o->unit.id) {
					hits += same_action(&mine[j].action, &o->action);
					break;
				}
		}
	}
	ms_rts_dsl_interp_free(it);
	ms_ctx_mfree(ctx, mine);
	*matched = (double)hits;
	return rc;
}
