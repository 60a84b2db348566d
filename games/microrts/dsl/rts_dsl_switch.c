/*
 * Opponent switches: a bot that plays one program for the opening, looks
 * at what the enemy has at a fixed cycle, and from then on plays the
 * program made against the known opponent whose signature is nearest
 * (within a radius; otherwise a default program). Programs keep no memory
 * between ticks, so changing program mid-game needs no hand-over.
 *
 * Text form (one item a line; '#' starts a comment outside programs):
 *
 *   microsynth-switch 1
 *   cycle K
 *   radius R
 *   program NAME
 *   ...any text form of ms_rts_dsl_parse...
 *   end
 *   before NAME          the opening, cycles < K
 *   default NAME         after K when no case is within R (default: before)
 *   case LABEL SEAT F0 .. F8 NAME
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rts_dsl_internal.h"
#include "core/buf.h"

#define SW_MAX_PROGS 32
#define SW_MAX_CASES 64
#define SW_LABEL_MAX 64

typedef struct sw_case {
	char label[SW_LABEL_MAX];
	int seat;
	double f[MS_RTS_SWITCH_FEATURES];
	int prog; /* index into progs */
} sw_case;

typedef struct sw_bot {
	ms_dsl_grammar *g;
	int n_progs;
	char names[SW_MAX_PROGS][SW_LABEL_MAX];
	ms_bot *bots[SW_MAX_PROGS];
	int before, dflt; /* program indices */
	int cycle;
	double radius;
	int n_cases;
	sw_case cases[SW_MAX_CASES];
	/* per game */
	int chosen;   /* program index after the switch, -1 before it */
	int chosen_case; /* case index, -1: the default */
	double seen[MS_RTS_SWITCH_FEATURES];
} sw_bot;

int ms_rts_switch_features(const ms_rts_state *s, int player, double f[MS_RTS_SWITCH_FEATURES])
{
	const ms_rts_utt *utt = ms_rts_state_utt(s);
	int n = ms_rts_state_unit_count(s);
	static const char *const kinds[6] = { "Worker", "Light", "Heavy", "Ranged", "Base", "Barracks" };
	ms_rts_unit u, v;

	if (player < 0 || player > 1)
		return MS_EINVAL;
	for (int k = 0; k < MS_RTS_SWITCH_FEATURES; k++)
		f[k] = 0;
	f[6] = ms_rts_state_resources(s, 1 - player);
	for (int i = 0; i < n; i++) {
		const ms_rts_unit_type *t;
		if (ms_rts_state_unit(s, i, &u) || u.player < 0)
			continue;
		if (u.player == player) {
			f[8]++;
			continue;
		}
		t = ms_rts_utt_type(utt, u.type);
		for (int k = 0; t && k < 6; k++)
			if (!strcmp(t->name, kinds[k]))
				f[k]++;
		if (!t || !t->can_move)
			continue;
		/* an enemy unit within 4 cells of one of ours: rushes show here first */
		for (int j = 0; j < n; j++) {
			if (ms_rts_state_unit(s, j, &v) || v.player != player)
				continue;
			if (abs(v.x - u.x) + abs(v.y - u.y) <= 4) {
				f[7]++;
				break;
			}
		}
	}
	return MS_OK;
}

static int sw_reset(ms_bot *b)
{
	sw_bot *sw = b->impl;
	int rc = MS_OK;
	sw->chosen = -1;
	sw->chosen_case = -1;
	for (int k = 0; k < MS_RTS_SWITCH_FEATURES; k++)
		sw->seen[k] = 0;
	for (int p = 0; p < sw->n_progs && !rc; p++)
		rc = ms_bot_reset(sw->bots[p]);
	return rc;
}

double ms_rts_switch_distance(const double a[MS_RTS_SWITCH_FEATURES], const double b[MS_RTS_SWITCH_FEATURES])
{
	double d = 0;
	for (int k = 0; k < MS_RTS_SWITCH_FEATURES; k++)
		d += fabs(a[k] - b[k]);
	return d;
}

static int sw_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	sw_bot *sw = b->impl;
	int p;

	*n = 0;
	if (ms_rts_state_time(s) < sw->cycle) {
		p = sw->before;
	} else {
		if (sw->chosen < 0) {
			double best = 0;
			int rc = ms_rts_switch_features(s, player, sw->seen);
			if (rc)
				return ms_ctx_error(b->ctx, rc, "switch: player %d", player);
			sw->chosen = sw->dflt;
			for (int c = 0; c < sw->n_cases; c++) {
				double d;
				if (sw->cases[c].seat != player)
					continue;
				d = ms_rts_switch_distance(sw->seen, sw->cases[c].f);
				if (d <= sw->radius && (sw->chosen_case < 0 || d < best)) {
					best = d;
					sw->chosen_case = c;
					sw->chosen = sw->cases[c].prog;
				}
			}
		}
		p = sw->chosen;
	}
	return ms_bot_decide(sw->bots[p], player, s, out, max, n);
}

static void sw_free(ms_bot *b)
{
	sw_bot *sw = b->impl;
	if (!sw)
		return;
	for (int p = 0; p < sw->n_progs; p++)
		ms_bot_free(sw->bots[p]);
	ms_dsl_grammar_free(sw->g);
	ms_ctx_mfree(b->ctx, sw);
	b->impl = NULL;
}

static const ms_bot_ops sw_ops = { "Switch", "ai.microsynth.Switch", sw_reset, sw_decide, sw_free };

static int sw_new(ms_ctx *ctx, ms_bot **out, const ms_rts_utt *utt, int64_t seed, sw_bot **swp)
{
	ms_bot *b;
	sw_bot *sw;
	int rc = ms_bot_alloc(ctx, &b, &sw_ops, sizeof(*sw), utt, seed, "switch");
	if (rc)
		return rc;
	sw = b->impl;
	sw->chosen = sw->chosen_case = -1;
	*out = b;
	*swp = sw;
	return MS_OK;
}

int ms_rts_prefix_bot_new(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *before, int cycle, const ms_dsl_prog *p,
			  const ms_rts_utt *utt, int64_t seed)
{
	sw_bot *sw;
	int rc;

	*out = NULL;
	if (!before || !p || cycle < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "prefix bot: needs two programs and a cycle >= 0");
	if ((rc = sw_new(ctx, out, utt, seed, &sw)))
		return rc;
	sw->n_progs = 2;
	sw->before = 0;
	sw->dflt = 1;
	sw->cycle = cycle;
	if ((rc = ms_rts_dsl_bot_new(ctx, &sw->bots[0], before, utt, seed)) ||
	    (rc = ms_rts_dsl_bot_new(ctx, &sw->bots[1], p, utt, seed))) {
		ms_bot_free(*out);
		*out = NULL;
	}
	return rc;
}

/* ---- the text form ---------------------------------------------------------- */

static int find_prog(const sw_bot *sw, const char *name)
{
	for (int p = 0; p < sw->n_progs; p++)
		if (!strcmp(sw->names[p], name))
			return p;
	return -1;
}

static int parse(ms_ctx *ctx, sw_bot *sw, const char *what, const char *text, size_t len, const ms_rts_utt *utt,
		 int64_t seed)
{
	size_t at = 0;
	int line = 0, have_magic = 0, have_before = 0, have_default = 0, rc;
	char buf[512];

	sw->cycle = -1;
	sw->radius = HUGE_VAL;
	if ((rc = ms_rts_dsl_grammar_new(ctx, &sw->g, 0)))
		return rc;
	while ((rc = ms_text_next_content_line(ctx, what, text, len, &at, &line, buf, sizeof buf)) > 0) {
		char word[32], name[SW_LABEL_MAX], extra[2];
		if (sscanf(buf, "%31s", word) != 1)
			continue;
		if (!have_magic) {
			int v;
			if (strcmp(word, "microsynth-switch") || sscanf(buf, "%*s %d %1s", &v, extra) != 1 || v != 1)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected 'microsynth-switch 1'", what,
						    line);
			have_magic = 1;
		} else if (!strcmp(word, "cycle")) {
			if (sscanf(buf, "%*s %d %1s", &sw->cycle, extra) != 1 || sw->cycle < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected 'cycle K' with K >= 0", what,
						    line);
		} else if (!strcmp(word, "radius")) {
			if (sscanf(buf, "%*s %lf %1s", &sw->radius, extra) != 1 || !(sw->radius >= 0))
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected 'radius R' with R >= 0", what,
						    line);
		} else if (!strcmp(word, "program")) {
			size_t start = at, end = at, ls, le;
			ms_dsl_prog *p = NULL;
			int first = line, closed = 0;
			if (sscanf(buf, "%*s %63s %1s", name, extra) != 1)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected 'program NAME'", what, line);
			if (find_prog(sw, name) >= 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: program %s defined twice", what, line,
						    name);
			if (sw->n_progs == SW_MAX_PROGS)
				return ms_ctx_error(ctx, MS_ERANGE, "%s: line %d: more than %d programs", what, line,
						    SW_MAX_PROGS);
			while (ms_text_next_line(text, len, &at, &ls, &le)) {
				line++;
				if (le - ls == 3 && !memcmp(text + ls, "end", 3)) {
					closed = 1;
					break;
				}
				end = at;
			}
			if (!closed)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: program %s has no 'end'", what, first,
						    name);
			if ((rc = ms_dsl_prog_new(ctx, &p, sw->g)))
				return rc;
			snprintf(buf, sizeof(buf), "%s: program %s (from line %d)", what, name, first + 1);
			rc = ms_rts_dsl_parse(p, buf, text + start, end - start, 0);
			if (!rc)
				rc = ms_rts_dsl_bot_new(ctx, &sw->bots[sw->n_progs], p, utt, seed);
			ms_dsl_prog_free(p);
			if (rc)
				return rc;
			snprintf(sw->names[sw->n_progs++], SW_LABEL_MAX, "%s", name);
		} else if (!strcmp(word, "before") || !strcmp(word, "default")) {
			int p;
			if (sscanf(buf, "%*s %63s %1s", name, extra) != 1)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected '%s NAME'", what, line, word);
			if ((p = find_prog(sw, name)) < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: no program %s above", what, line, name);
			if (word[0] == 'b') {
				sw->before = p;
				have_before = 1;
			} else {
				sw->dflt = p;
				have_default = 1;
			}
		} else if (!strcmp(word, "case")) {
			sw_case *c;
			double *f;
			int got;
			if (sw->n_cases == SW_MAX_CASES)
				return ms_ctx_error(ctx, MS_ERANGE, "%s: line %d: more than %d cases", what, line,
						    SW_MAX_CASES);
			c = &sw->cases[sw->n_cases];
			f = c->f;
			got = sscanf(buf, "%*s %63s %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %63s %1s", c->label, &c->seat,
				     &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], name, extra);
			if (got != 12 || c->seat < 0 || c->seat > 1)
				return ms_ctx_error(ctx, MS_EPARSE,
						    "%s: line %d: expected 'case LABEL SEAT F0 .. F8 PROGRAM' (seat 0 or 1, "
						    "%d numbers)",
						    what, line, MS_RTS_SWITCH_FEATURES);
			if ((c->prog = find_prog(sw, name)) < 0)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: no program %s above", what, line, name);
			sw->n_cases++;
		} else {
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: unknown item '%s'", what, line, word);
		}
	}
	if (rc < 0)
		return rc;
	if (!have_magic)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: empty (expected 'microsynth-switch 1')", what);
	if (sw->cycle < 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: no 'cycle K' line", what);
	if (!have_before)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: no 'before NAME' line", what);
	if (!have_default)
		sw->dflt = sw->before;
	return MS_OK;
}

int ms_rts_switch_bot_new(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
			  const ms_rts_utt *utt, int64_t seed)
{
	sw_bot *sw;
	int rc;

	*out = NULL;
	if (!utt || !text)
		return ms_ctx_error(ctx, MS_EINVAL, "switch: no text or no unit type table");
	if ((rc = sw_new(ctx, out, utt, seed, &sw)))
		return rc;
	if ((rc = parse(ctx, sw, what, text, len, utt, seed))) {
		ms_bot_free(*out);
		*out = NULL;
	}
	return rc;
}

int ms_rts_switch_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	return ms_rts_bot_from_spec_text(ctx, out, spec, "switch", ms_rts_switch_bot_new, utt, seed);
}

int ms_rts_switch_bot_choice(const ms_bot *b, const char **label, double seen[MS_RTS_SWITCH_FEATURES])
{
	const sw_bot *sw;
	if (!b || b->ops != &sw_ops)
		return MS_EINVAL;
	sw = b->impl;
	if (label)
		*label = sw->chosen < 0 ? NULL : sw->chosen_case < 0 ? "default" : sw->cases[sw->chosen_case].label;
	if (seen)
		memcpy(seen, sw->seen, sizeof(sw->seen));
	return sw->chosen < 0 ? MS_ENOTFOUND : MS_OK;
}
