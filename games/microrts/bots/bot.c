/* The bot registry: native bots by name, and the generic entry points. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bots_internal.h"

/*
 * The registry, written once (bot_rows.h): each row is a bot's name, the
 * Java class it reproduces, its constructor and the constructor's argument,
 * and whether the jar draws unseeded numbers. The name list ms_bot_names()
 * returns, and the native rows of the agent table (ms_rts_agents), are
 * expanded from the same rows.
 */
#include "games/microrts/bots/bot_rows.h"

typedef struct bot_row {
	const char *name, *java;
	int (*make)(ms_bot *b, const char *arg);
	const char *arg;
	int draws_unseeded;
} bot_row;

#define BOT_ROW(name, java, make, arg, unseeded) { name, java, make, arg, unseeded },
#define BOT_NAME(name, java, make, arg, unseeded) name,
static const bot_row rows[] = { BOT_ROWS(BOT_ROW) };
static const char *const names[] = { BOT_ROWS(BOT_NAME) NULL };

const char *const *ms_bot_names(void)
{
	return names;
}

/* The row of a short or Java name, or NULL. */
static const bot_row *lookup(const char *name)
{
	const char *dot = strrchr(name, '.');
	const char *simple = dot ? dot + 1 : name;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcasecmp(simple, rows[i].name) || !strcmp(name, rows[i].java))
			return &rows[i];
	return NULL;
}

const char *ms_bot_for_java_class(const char *java_class)
{
	const bot_row *r = java_class ? lookup(java_class) : NULL;
	return r ? r->name : NULL;
}

int ms_bot_draws_unseeded(const char *name)
{
	const bot_row *r = name ? lookup(name) : NULL;
	return r && r->draws_unseeded;
}

int ms_bot_alloc(ms_ctx *ctx, ms_bot **out, const ms_bot_ops *ops, size_t impl_size, const ms_rts_utt *utt,
		 int64_t seed, const char *what)
{
	ms_bot *b = ms_ctx_calloc(ctx, 1, sizeof(*b));
	void *impl = impl_size ? ms_ctx_calloc(ctx, 1, impl_size) : NULL;

	*out = NULL;
	if (!b || (impl_size && !impl)) {
		ms_ctx_mfree(ctx, b);
		ms_ctx_mfree(ctx, impl);
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory", what);
	}
	b->ops = ops;
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	b->impl = impl;
	*out = b;
	return MS_OK;
}

int ms_bot_new(ms_ctx *ctx, ms_bot **out, const char *name, const ms_rts_utt *utt, int64_t seed)
{
	const bot_row *row;
	ms_bot *b;
	int rc;

	*out = NULL;
	if (!name || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_new: no name or no unit type table");
	if (!(row = lookup(name)))
		return ms_ctx_error(ctx, MS_ENOTFOUND, "no native bot called \"%s\"", name);
	if ((rc = ms_bot_alloc(ctx, &b, NULL, 0, utt, seed, "ms_bot_new")))
		return rc;
	if ((rc = row->make(b, row->arg))) {
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
	ms_bot_hooks h = { observe, NULL, ud };
	return ms_bot_play_hooked(ctx, s, bots, max_cycles, po, trace, winner, &h);
}

int ms_bot_play_hooked(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
		       ms_rts_trace_writer *trace, int *winner, const ms_bot_hooks *h)
{
	ms_bot_hooks none = { NULL, NULL, NULL };
	/* At most one unit per cell, so one pair per cell. */
	int max_pairs = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	ms_rts_pair *pa[2];
	ms_rts_state *view = NULL;
	int n[2], gameover = 0, rc = MS_OK;

	pa[0] = ms_ctx_malloc(ctx, (size_t)max_pairs * sizeof(ms_rts_pair));
	pa[1] = ms_ctx_malloc(ctx, (size_t)max_pairs * sizeof(ms_rts_pair));
	if (!h)
		h = &none;
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
		if (h->decisions && (rc = h->decisions(h->ud, s, (const ms_rts_pair *const *)pa, n)))
			goto done;
		for (int p = 0; p < 2; p++)
			if (n[p] && (rc = ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL)))
				goto done;
		if ((rc = ms_rts_cycle(ctx, s, &gameover)))
			goto done;
		if (h->observe && (rc = h->observe(h->ud, s)))
			goto done;
	}
	if (winner)
		*winner = ms_rts_winner(s);
done:
	ms_ctx_mfree(ctx, pa[0]);
	ms_ctx_mfree(ctx, pa[1]);
	ms_rts_state_free(view);
	return rc;
}
