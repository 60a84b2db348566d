/* The bot registry: native bots by name, and the generic entry points. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bots_internal.h"

static const char *const names[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush", "PassiveAI", "RandomBiasedAI",
				     "RandomAI", "CoacAI", "mayari", NULL };
static const char *const java[] = { "ai.abstraction.WorkerRush", "ai.abstraction.LightRush",
				    "ai.abstraction.HeavyRush", "ai.abstraction.RangedRush", "ai.PassiveAI",
				    "ai.RandomBiasedAI", "ai.RandomAI", "ai.coac.CoacAI",
				    "mayariBot.mayari", NULL };

const char *const *ms_bot_names(void)
{
	return names;
}

/* Index in names[] of a short or Java name, or -1. */
static int lookup(const char *name)
{
	const char *dot = strrchr(name, '.');
	const char *simple = dot ? dot + 1 : name;

	for (int i = 0; names[i]; i++)
		if (!strcasecmp(simple, names[i]) || !strcmp(name, java[i]))
			return i;
	return -1;
}

const char *ms_bot_for_java_class(const char *java_class)
{
	int i = java_class ? lookup(java_class) : -1;
	return i < 0 ? NULL : names[i];
}

int ms_bot_draws_unseeded(const char *name)
{
	int i = name ? lookup(name) : -1;
	return i >= 0 && (!strcmp(names[i], "CoacAI") || !strcmp(names[i], "mayari"));
}

int ms_bot_new(ms_ctx *ctx, ms_bot **out, const char *name, const ms_rts_utt *utt, int64_t seed)
{
	ms_bot *b;
	int i, rc;

	*out = NULL;
	if (!name || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_new: no name or no unit type table");
	if ((i = lookup(name)) < 0)
		return ms_ctx_error(ctx, MS_ENOTFOUND, "no native bot called \"%s\"", name);
	if (!(b = ms_ctx_calloc(ctx, 1, sizeof(*b))))
		return ms_ctx_error(ctx, MS_ENOMEM, "ms_bot_new: out of memory");
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	switch (i) {
	case 0:
		rc = bot_rush_new(b, NULL);
		break;
	case 1:
		rc = bot_rush_new(b, "Light");
		break;
	case 2:
		rc = bot_rush_new(b, "Heavy");
		break;
	case 3:
		rc = bot_rush_new(b, "Ranged");
		break;
	case 4:
		rc = bot_passive_new(b);
		break;
	case 5:
		rc = bot_random_biased_new(b);
		break;
	case 7:
		rc = bot_coac_new(b);
		break;
	case 8:
		rc = bot_mayari_new(b);
		break;
	default:
		rc = bot_random_new(b);
		break;
	}
	if (rc) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

void ms_bot_free(ms_bot *b)
{
	if (!b)
		return;
	if (b->ops && b->ops->free)
		b->ops->free(b);
	ms_ctx_mfree(b->ctx, b);
}

int ms_bot_reset(ms_bot *b)
{
	return b->ops->reset(b);
}

int ms_bot_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	int rc = b->ops->decide(b, player, s, out, max, n);
	b->failures += rc != MS_OK;
	return rc;
}

int ms_bot_play(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
		ms_rts_trace_writer *trace, int *winner)
{
	return ms_bot_play_observed(ctx, s, bots, max_cycles, po, trace, winner, NULL, NULL);
}

int ms_bot_play_observed(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
			 ms_rts_trace_writer *trace, int *winner, ms_bot_observer observe, void *ud)
{
	/* At most one unit per cell, so one pair per cell. */
	int max_pairs = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	ms_rts_pair *pa[2];
	ms_rts_state *view = NULL;
	int n[2], gameover = 0, rc = MS_OK;

	pa[0] = ms_ctx_malloc(ctx, (size_t)max_pairs * sizeof(ms_rts_pair));
	pa[1] = ms_ctx_malloc(ctx, (size_t)max_pairs * sizeof(ms_rts_pair));
	if (!pa[0] || !pa[1] || (po && (rc = ms_rts_state_clone(ctx, &view, s)))) {
		rc = rc ? rc : MS_ENOMEM;
		goto done;
	}
	while (!gameover && ms_rts_state_time(s) < max_cycles) {
		for (int p = 0; p < 2; p++) {
			const ms_rts_state *seen = s;
			if (po) {
				ms_rts_state_observe(view, s, p);
				seen = view;
			}
			if ((rc = ms_bot_decide(bots[p], p, seen, pa[p], max_pairs, &n[p]))) {
				char msg[400];
				snprintf(msg, sizeof(msg), "%s", ms_ctx_last_error(ctx));
				ms_ctx_error(ctx, rc, "player %d (%s) at cycle %d: %s", p, bots[p]->ops->name,
					     ms_rts_state_time(s), msg);
				goto done;
			}
		}
		/* The trace keeps the actions as the bots returned them; issuing
		 * rewrites them afterwards. */
		if (trace && (rc = ms_rts_trace_writer_entry(trace, s, pa[0], n[0], pa[1], n[1])))
			goto done;
		for (int p = 0; p < 2; p++)
			if (n[p] && (rc = ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL)))
				goto done;
		if ((rc = ms_rts_cycle(ctx, s, &gameover)))
			goto done;
		if (observe && (rc = observe(ud, s)))
			goto done;
	}
	if (winner)
		*winner = ms_rts_winner(s);
done:
	ms_ctx_mfree(ctx, pa[0]);
	ms_ctx_mfree(ctx, pa[1]);
	ms_rts_state_free(ctx, view);
	return rc;
}
