/*
 * RandomBiasedAI and RandomAI: one random legal action per idle unit, kept
 * only when its resource usage fits what is already used.
 *
 * RandomBiasedAI draws from util.Sampler's static generator (its own field
 * `r` is never read); the bot's generator stands for that one and is
 * `new Random(seed)`, so a Java run whose Sampler.generator was seeded with
 * the same seed (Match --seed S seeds it with S * 1000003 + 3) draws the
 * same numbers. The Java generator is JVM-wide: when both seats play
 * RandomBiasedAI in one JVM they share one stream, which two native bots
 * do not.
 *
 * RandomAI (PlayerActionGenerator.getRandom) creates a fresh, unseeded
 * java.util.Random on every call, so no seed reproduces it; the native bot
 * draws the same way from a generator of its own, seeded once.
 */
#include <string.h>

#include "bots_internal.h"

/* Legal actions of one unit: at most 4 attacks or more with range > 1,
 * harvests/returns 4, produces 4 per type, moves 4, NONE. */
#define RND_MAX_LEGAL 4096

typedef struct rnd_bot {
	ms_jrandom rng;
	int biased;
	uint8_t *used; /* [cells] cells of the accumulated resource usage */
	int cap;
	bot_frame f;   /* the state's own usage */
	ms_rts_action legal[RND_MAX_LEGAL];
} rnd_bot;

/* The cell a MOVE or PRODUCE targets, or -1 for actions that use none. */
static int rnd_target(const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a)
{
	int d = a->parameter, x, y;

	if ((a->type != MS_RTS_MOVE && a->type != MS_RTS_PRODUCE) || d < 0 || d > 3)
		return -1;
	x = u->x + rts_dx[d];
	y = u->y + rts_dy[d];
	return rts_inside(s, x, y) ? x + y * s->width : -1;
}

/* ResourceUsage.consistentWith of the action's usage against the accumulated one. */
static int rnd_fits(const rnd_bot *r, const ms_rts_state *s, const ms_rts_utt *utt, const ms_rts_unit *u,
		    const ms_rts_action *a, const int cost[2], int *cell, int *add)
{
	*cell = rnd_target(s, u, a);
	*add = 0;
	if (*cell >= 0 && r->used[*cell])
		return 0;
	if (a->type == MS_RTS_PRODUCE && u->player >= 0 && u->player < 2) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, a->unit_type);
		*add = t ? t->cost : 0;
		if (*add && cost[u->player] + *add > 0 &&
		    cost[u->player] + *add > ms_rts_state_resources(s, u->player))
			return 0;
	}
	return 1;
}

static int rnd_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	rnd_bot *r = b->impl;
	const rts_unit *us = rts_cunits(s);
	int cost[2], k = 0, any = 0, rc;

	*n = 0;
	/* cost[] is indexed by the deciding player's units below */
	if (player < 0 || player > 1)
		return ms_ctx_error(b->ctx, MS_EINVAL, "%s: player %d", b->ops->name, player);
	for (int i = 0; i < s->n_units && !any; i++)
		any = us[i].u.player == player && us[i].slot < 0;
	if (!any) /* GameState.canExecuteAnyAction: nothing drawn */
		return MS_OK;
	if (s->cells > r->cap) {
		ms_ctx_mfree(b->ctx, r->used);
		if (!(r->used = ms_ctx_malloc(b->ctx, (size_t)s->cells))) {
			r->cap = 0;
			return ms_ctx_error(b->ctx, MS_ENOMEM, "%s: out of memory for a %dx%d map", b->ops->name,
					    s->width, s->height);
		}
		r->cap = s->cells;
	}
	/* the usage starts as the state's: every pending move and production */
	if ((rc = bot_frame_begin(b->ctx, &r->f, s, -1)))
		return rc;
	memcpy(r->used, r->f.pend, (size_t)s->cells);
	cost[0] = r->f.pend_cost[0];
	cost[1] = r->f.pend_cost[1];

	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		int nl, pick = -1, none = -1, cell, add;
		if (u->player != player || us[i].slot >= 0)
			continue;
		nl = ms_rts_legal_actions(s, u, 10, r->legal, RND_MAX_LEGAL);
		if (nl > RND_MAX_LEGAL)
			return ms_ctx_error(b->ctx, MS_ERANGE, "%s: unit %lld has %d legal actions", b->ops->name,
					    (long long)u->id, nl);
		if (r->biased) {
			/* Sampler.weighted: 5 for attacks, harvests and returns, else 1 */
			double total = 0, at = 0, x;
			for (int j = 0; j < nl; j++) {
				int t = r->legal[j].type;
				total += t == MS_RTS_ATTACK || t == MS_RTS_HARVEST || t == MS_RTS_RETURN ? 5.0 : 1.0;
				if (t == MS_RTS_NONE)
					none = j;
			}
			x = ms_jrandom_next_double(&r->rng) * total;
			for (int j = 0; j < nl && pick < 0; j++) {
				int t = r->legal[j].type;
				at += t == MS_RTS_ATTACK || t == MS_RTS_HARVEST || t == MS_RTS_RETURN ? 5.0 : 1.0;
				if (at >= x)
					pick = j;
			}
			if (pick < 0 || !rnd_fits(r, s, b->utt, u, &r->legal[pick], cost, &cell, &add))
				pick = none;
		} else {
			/* getRandom: remove a random candidate until one fits (NONE always does) */
			int left = nl;
			while (left > 0 && pick < 0) {
				int32_t j;
				ms_rts_action a;
				if ((rc = ms_jrandom_next_int_bounded(&r->rng, left, &j)))
					return rc;
				a = r->legal[j];
				memmove(&r->legal[j], &r->legal[j + 1], (size_t)(left - j - 1) * sizeof(a));
				r->legal[--left] = a;
				if (rnd_fits(r, s, b->utt, u, &a, cost, &cell, &add))
					pick = left;
			}
		}
		if (pick < 0)
			return ms_ctx_error(b->ctx, MS_EINVAL, "%s: unit %lld has no NONE action", b->ops->name,
					    (long long)u->id);
		if (rnd_fits(r, s, b->utt, u, &r->legal[pick], cost, &cell, &add)) {
			if (cell >= 0)
				r->used[cell] = 1;
			cost[u->player] += add;
		}
		if (k < max) {
			out[k].unit = *u;
			out[k].action = r->legal[pick];
		}
		k++;
	}
	*n = k;
	if (k > max)
		return ms_ctx_error(b->ctx, MS_ERANGE, "%s: %d pairs do not fit in %d", b->ops->name, k, max);
	return MS_OK;
}

/* AI.reset of both does nothing: the generator runs on across games. */
static int rnd_reset(ms_bot *b)
{
	(void)b;
	return MS_OK;
}

static void rnd_free(ms_bot *b)
{
	rnd_bot *r = b->impl;

	if (!r)
		return;
	ms_ctx_mfree(b->ctx, r->used);
	bot_frame_dispose(b->ctx, &r->f);
	ms_ctx_mfree(b->ctx, r);
	b->impl = NULL;
}

static const ms_bot_ops biased_ops = { "RandomBiasedAI", "ai.RandomBiasedAI", rnd_reset, rnd_decide, rnd_free };
static const ms_bot_ops random_ops = { "RandomAI", "ai.RandomAI", rnd_reset, rnd_decide, rnd_free };

static int rnd_new(ms_bot *b, int biased)
{
	rnd_bot *r = ms_ctx_calloc(b->ctx, 1, sizeof(*r));

	if (!r)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "ms_bot_new: out of memory");
	r->biased = biased;
	ms_jrandom_init(&r->rng, b->seed);
	b->impl = r;
	b->ops = biased ? &biased_ops : &random_ops;
	return MS_OK;
}

int bot_random_biased_new(ms_bot *b, const char *arg)
{
	return rnd_new(b, 1);
}

int bot_random_new(ms_bot *b, const char *arg)
{
	return rnd_new(b, 0);
}
