/*
 * A decision's view: everything of the state the interpreter and its layer
 * read (the unit table, the units with whether each is busy, the pending
 * actions' cells and costs, the stocks, the terrain; the grid follows from
 * the units), with the player and the room for the answer.
 *
 * Between two cycles most units are in the middle of an action, and in most
 * cycles none starts or ends one: the view is then the one of the last
 * decision, and so is the decision of a program that draws no Random
 * targets (nothing else the interpreter keeps from one decision to the next
 * changes what it decides). About three decisions in four of a synthesis on
 * the big maps repeat their predecessor's answer this way.
 */
#include <string.h>

#include "core/vec.h"
#include "rts_dsl_internal.h"

void rd_view_dispose(ms_ctx *ctx, rd_view *v)
{
	ms_ctx_mfree(ctx, v->units);
	ms_ctx_mfree(ctx, v->assign);
	ms_ctx_mfree(ctx, v->terrain);
	ms_ctx_mfree(ctx, v->out);
	memset(v, 0, sizeof(*v));
}

/* Room for the view of s and an answer of `max` pairs; 0, or -1 when out of memory (no reuse then). */
static int view_grow(ms_ctx *ctx, rd_view *v, const ms_rts_state *s, int max)
{
	if (ms_vec_grow(ctx, (void **)&v->units, &v->cap_units, s->n_units, sizeof(*v->units)) ||
	    ms_vec_grow(ctx, (void **)&v->assign, &v->cap_assign, s->n_assign, sizeof(int) * 3) ||
	    ms_vec_grow(ctx, (void **)&v->terrain, &v->cap_cells, s->cells, 1) ||
	    ms_vec_grow(ctx, (void **)&v->out, &v->cap_out, max, sizeof(*v->out)))
		return -1;
	return 0;
}

int rd_view_repeat(ms_ctx *ctx, rd_view *v, const ms_rts_state *s, int player, int max)
{
	const rts_unit *us = rts_cunits(s);
	const rts_assign *as = rts_cassigns(s);
	int same = v->answered && v->utt == s->utt && v->player == player && v->max == max && v->w == s->width &&
		   v->h == s->height && v->n_units == s->n_units && v->n_assign == s->n_assign &&
		   v->res[0] == s->resources[0] && v->res[1] == s->resources[1];

	v->answered = v->saved = 0;
	if (max < 0 || view_grow(ctx, v, s, max))
		return 0;
	/* compare and keep the new view in one pass */
	for (int i = 0; i < s->n_units; i++) {
		rd_view_unit *o = &v->units[i];
		int busy = us[i].slot >= 0;
		if (same && (memcmp(&o->u, &us[i].u, sizeof(o->u)) || o->busy != busy))
			same = 0;
		o->u = us[i].u;
		o->busy = busy;
	}
	for (int k = 0; k < s->n_assign; k++) {
		int *a = &v->assign[3 * k];
		if (same && (a[0] != as[k].use_cell || a[1] != as[k].use_cost[0] || a[2] != as[k].use_cost[1]))
			same = 0;
		a[0] = as[k].use_cell;
		a[1] = as[k].use_cost[0];
		a[2] = as[k].use_cost[1];
	}
	if (same && memcmp(v->terrain, rts_cterrain(s), (size_t)s->cells))
		same = 0;
	if (!same)
		memcpy(v->terrain, rts_cterrain(s), (size_t)s->cells);
	v->utt = s->utt;
	v->player = player;
	v->max = max;
	v->w = s->width;
	v->h = s->height;
	v->n_units = s->n_units;
	v->n_assign = s->n_assign;
	v->res[0] = s->resources[0];
	v->res[1] = s->resources[1];
	/* the answer stays for the caller to hand out again */
	v->answered = same;
	v->saved = 1;
	return same;
}

void rd_view_answer(rd_view *v, const ms_rts_pair *out, int n)
{
	if (!v->saved || n < 0 || n > v->cap_out || n > v->max)
		return;
	memcpy(v->out, out, sizeof(*out) * (size_t)n);
	v->n_out = n;
	v->answered = 1;
}
