/*
 * A live match for the browser view, one cycle per call, played exactly as
 * `microsynth play` plays it (ms_bot_play_observed's loop: both players
 * decide on the same state, player 0's action is issued, then player 1's,
 * then one cycle; the same seeds), so the page ends where play ends.
 *
 * A program player is the DSL interpreter behind a bot of this file rather
 * than ms_bot_make's, so that after every decision its abstract-action map
 * (ms_rts_dsl_assignments: unit and program node) can be credited to the
 * lines of the indented form (ms_rts_dsl_line_map), as `dsl explain` credits
 * them: "fired" when the unit got the action, "busy" when the unit was still
 * carrying out an earlier one and nothing was issued. The interpreter runs
 * with every_decision on, which decides the same but never skips a tick, so
 * the busy counts cover every cycle.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/jrandom.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "view.h"

typedef struct view_prog {
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_rts_dsl_interp *it;
	int n_nodes, n_lines;
	int *line_of;
	char *text;
	long *fired, *busy;
	int *now;
} view_prog;

struct view_match {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s, *view;
	ms_bot *bot[2];
	view_prog *prog[2]; /* owned by the bot's impl, NULL for other players */
	ms_rts_pair *pairs[2];
	int max_pairs, max_cycles, po, over;
	char *name[2];
};

/* ---- program players ------------------------------------------------------- */

/* Credits each abstract action of the decision to its line: fired when its unit got a pair, else busy. */
static void prog_tally(view_prog *vp, const ms_rts_pair *out, int n)
{
	int na = 0;
	const ms_rts_dsl_assignment *as = ms_rts_dsl_assignments(vp->it, &na);

	memset(vp->now, 0, sizeof(*vp->now) * (size_t)(vp->n_lines + 1));
	for (int j = 0; j < na; j++) {
		int line, got = 0;
		if (as[j].node < 0 || as[j].node >= vp->n_nodes)
			continue;
		line = vp->line_of[as[j].node];
		if (line < 1 || line > vp->n_lines)
			continue;
		for (int k = 0; k < n && !got; k++)
			got = out[k].unit.id == as[j].unit;
		if (got) {
			vp->fired[line]++;
			vp->now[line] = 1;
		} else {
			vp->busy[line]++;
			if (!vp->now[line])
				vp->now[line] = 2;
		}
	}
}

static int prog_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	view_prog *vp = b->impl;
	int rc = ms_rts_dsl_decide(vp->it, player, s, out, max, n);
	if (!rc)
		prog_tally(vp, out, *n);
	return rc;
}

static int prog_reset(ms_bot *b)
{
	(void)b;
	return MS_OK; /* the interpreter keeps nothing between ticks */
}

static void prog_free(ms_bot *b)
{
	view_prog *vp = b->impl;
	if (!vp)
		return;
	ms_rts_dsl_interp_free(vp->it);
	ms_dsl_prog_free(vp->p);
	ms_dsl_grammar_free(vp->g);
	ms_ctx_mfree(b->ctx, vp->text);
	ms_ctx_mfree(b->ctx, vp->line_of);
	ms_ctx_mfree(b->ctx, vp->fired);
	ms_ctx_mfree(b->ctx, vp->busy);
	ms_ctx_mfree(b->ctx, vp->now);
	ms_ctx_mfree(b->ctx, vp);
	b->impl = NULL;
}

static const ms_bot_ops prog_ops = { "Program", "ai.microsynth.Program", prog_reset, prog_decide, prog_free };

/* Parses the program as ms_rts_dsl_bot_from_text does (default grammar and flags), maps its lines. */
static int prog_load(ms_ctx *ctx, view_prog *vp, const char *what, const char *text, size_t len, int64_t seed)
{
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .every_decision = 1 };
	int rc;

	if ((rc = ms_rts_dsl_grammar_new(ctx, &vp->g, 0)) || (rc = ms_dsl_prog_new(ctx, &vp->p, vp->g)) ||
	    (rc = ms_rts_dsl_parse(vp->p, what, text, len, 0)))
		return rc;
	vp->n_nodes = ms_dsl_prog_len(vp->p);
	if (!(vp->line_of = ms_ctx_calloc(ctx, (size_t)vp->n_nodes + 1, sizeof(int))))
		return MS_ENOMEM;
	if ((rc = ms_rts_dsl_line_map(vp->p, vp->line_of, &vp->n_lines)) ||
	    (rc = ms_rts_dsl_print(vp->p, MS_RTS_DSL_FORM_PRETTY, &vp->text, NULL)))
		return rc;
	vp->fired = ms_ctx_calloc(ctx, (size_t)vp->n_lines + 1, sizeof(long));
	vp->busy = ms_ctx_calloc(ctx, (size_t)vp->n_lines + 1, sizeof(long));
	vp->now = ms_ctx_calloc(ctx, (size_t)vp->n_lines + 1, sizeof(int));
	if (!vp->fired || !vp->busy || !vp->now)
		return MS_ENOMEM;
	return ms_rts_dsl_interp_new(ctx, &vp->it, vp->p, seed, &o);
}

/* The view's program bot from a program's text (an ms_rts_text_bot_fn: the library reads specs and files). */
static int prog_bot_from_text(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
			      const ms_rts_utt *utt, int64_t seed)
{
	ms_bot *b;
	int rc;

	if ((rc = ms_bot_alloc(ctx, &b, &prog_ops, sizeof(view_prog), utt, seed, "program player")))
		return rc;
	if ((rc = prog_load(ctx, b->impl, what, text, len, seed))) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

/* ---- the match --------------------------------------------------------------- */

void view_match_free(view_match *m)
{
	if (!m)
		return;
	for (int p = 0; p < 2; p++) {
		ms_bot_free(m->bot[p]);
		ms_ctx_mfree(m->ctx, m->pairs[p]);
		ms_ctx_mfree(m->ctx, m->name[p]);
	}
	ms_rts_state_free(m->view);
	ms_rts_state_free(m->s);
	ms_rts_utt_free(m->utt);
	ms_ctx_mfree(m->ctx, m);
}

/* Player p as play makes it: seeded from the match's seed, edition set, no draws, reset. */
static int make_player(view_match *m, int p, const view_match_opts *o)
{
	int64_t seed = ms_jrandom_match_seed(o->seed, MS_MATCH_RNG_SAMPLER);
	const char *spec = o->spec[p];
	int rc;

	if (!spec || !*spec)
		return ms_ctx_error(m->ctx, MS_EINVAL, "player %d: no player given", p);
	if (!ms_bot_spec_native(spec))
		return ms_ctx_error(m->ctx, MS_ENOTFOUND, "player %d: no native bot called '%s'", p, spec);
	/* a program is told by the agent table's one decoder; the library reads its file or text */
	const char *arg, *form = ms_bot_spec_form(spec, &arg);
	if (form && (!strcmp(form, "program") || !strcmp(form, "program-text"))) {
		if (!(rc = ms_rts_bot_from_spec_text(m->ctx, &m->bot[p], spec, "program", prog_bot_from_text, m->utt,
						     seed)))
			m->prog[p] = m->bot[p]->impl;
	} else
		rc = ms_bot_make(m->ctx, &m->bot[p], spec, m->utt, seed);
	if (!rc && !(rc = ms_bot_set_edition(m->bot[p], o->edition)) && !(rc = ms_bot_set_stochastic(m->bot[p], 0)))
		rc = ms_bot_reset(m->bot[p]);
	if (rc)
		return rc;
	/* a native bot by its own name; programs and other specs as given */
	m->name[p] = ms_ctx_strdup(m->ctx, m->prog[p] || strchr(spec, ':') ? spec : m->bot[p]->ops->name);
	return m->name[p] ? MS_OK : MS_ENOMEM;
}

int view_match_new(ms_ctx *ctx, view_match **out, const view_match_opts *o)
{
	view_match *m = ms_ctx_calloc(ctx, 1, sizeof(*m));
	int rc;

	*out = NULL;
	if (!m)
		return MS_ENOMEM;
	m->ctx = ctx;
	m->max_cycles = o->max_cycles > 0 ? o->max_cycles : 5000;
	m->po = o->po;
	if ((rc = ms_rts_utt_new(ctx, &m->utt, o->utt ? o->utt : 2, o->conflict ? o->conflict : 1)) ||
	    (rc = ms_rts_state_load_map(ctx, &m->s, m->utt, o->map, o->seed)))
		goto fail;
	ms_match_seed_state(m->s, o->seed);
	if (m->po && (rc = ms_rts_state_clone(ctx, &m->view, m->s)))
		goto fail;
	/* at most one unit per cell, so one pair per cell */
	m->max_pairs = ms_rts_state_width(m->s) * ms_rts_state_height(m->s) + 1;
	for (int p = 0; p < 2; p++) {
		if (!(m->pairs[p] = ms_ctx_malloc(ctx, sizeof(ms_rts_pair) * (size_t)m->max_pairs))) {
			rc = MS_ENOMEM;
			goto fail;
		}
		if ((rc = make_player(m, p, o)))
			goto fail;
	}
	m->over = ms_rts_gameover(m->s) || ms_rts_state_time(m->s) >= m->max_cycles;
	*out = m;
	return MS_OK;
fail:
	view_match_free(m);
	return rc;
}

int view_match_step(view_match *m, int *over)
{
	int n[2], gameover = 0, rc;

	*over = m->over;
	if (m->over)
		return MS_OK;
	for (int p = 0; p < 2; p++) {
		const ms_rts_state *seen = m->s;
		if (m->po) {
			ms_rts_state_observe(m->view, m->s, p);
			seen = m->view;
		}
		if ((rc = ms_bot_decide(m->bot[p], p, seen, m->pairs[p], m->max_pairs, &n[p]))) {
			char msg[400];
			snprintf(msg, sizeof(msg), "%s", ms_ctx_last_error(m->ctx));
			m->over = *over = 1;
			return ms_ctx_error(m->ctx, rc, "player %d (%s) at cycle %d: %s", p, m->name[p],
					    ms_rts_state_time(m->s), msg);
		}
	}
	for (int p = 0; p < 2; p++)
		if (n[p] && (rc = ms_rts_issue_safe(m->ctx, m->s, m->pairs[p], n[p], NULL))) {
			m->over = *over = 1;
			return rc;
		}
	if ((rc = ms_rts_cycle(m->ctx, m->s, &gameover))) {
		m->over = *over = 1;
		return rc;
	}
	m->over = *over = gameover || ms_rts_state_time(m->s) >= m->max_cycles;
	return MS_OK;
}

const ms_rts_state *view_match_state(const view_match *m)
{
	return m->s;
}

const char *view_match_player(const view_match *m, int p)
{
	return m->name[p];
}

int view_match_over(const view_match *m)
{
	return m->over;
}

int view_match_program(const view_match *m, int p, view_prog_info *info)
{
	const view_prog *vp = m->prog[p];
	if (!vp)
		return -1;
	info->text = vp->text;
	info->n_lines = vp->n_lines;
	info->fired = vp->fired;
	info->busy = vp->busy;
	info->now = vp->now;
	return 0;
}
