/*
 * Writing traces in the bytes of Java's Trace.toxml (util.XMLWriter): one
 * tag per line, two spaces of indent per level, every element closed on a
 * line of its own, unit tags ending in " >", entry tags with `time = "T"`.
 * The text is built in memory here; trace_write_io.c writes it to a file
 * or a zip (libzip), so the engine builds without libzip.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "games/microrts/engine/trace_write.h"

struct ms_rts_trace_writer {
	ms_ctx *ctx;
	const ms_rts_utt *utt;
	ms_buf xml;
	int rc; /* first failure; later calls do nothing */
};

static void line(ms_rts_trace_writer *w, int depth, const char *fmt, ...) MS_PRINTF(3, 4);

static void line(ms_rts_trace_writer *w, int depth, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	if (w->rc)
		return;
	for (int i = 0; i < depth && !w->rc; i++)
		w->rc = ms_buf_puts(&w->xml, "  ");
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		w->rc = ms_ctx_error(w->ctx, MS_ERANGE, "trace writer: line too long");
		return;
	}
	if (!w->rc)
		w->rc = ms_buf_append(&w->xml, buf, (size_t)n);
	if (!w->rc)
		w->rc = ms_buf_puts(&w->xml, "\n");
}

static const char *tf(int v)
{
	return v ? "true" : "false";
}

static void put_utt(ms_rts_trace_writer *w, int d)
{
	const ms_rts_utt *u = w->utt;

	line(w, d, "<rts.units.UnitTypeTable moveConflictResolutionStrategy=\"%d\">", u->conflict_policy);
	for (int i = 0; i < u->n_types; i++) {
		const ms_rts_unit_type *t = &u->types[i];
		line(w, d + 1,
		     "<rts.units.UnitType ID=\"%d\" name=\"%s\" cost=\"%d\" hp=\"%d\" minDamage=\"%d\" maxDamage=\"%d\" "
		     "attackRange=\"%d\" produceTime=\"%d\" moveTime=\"%d\" attackTime=\"%d\" harvestTime=\"%d\" "
		     "returnTime=\"%d\" harvestAmount=\"%d\" sightRadius=\"%d\" isResource=\"%s\" isStockpile=\"%s\" "
		     "canHarvest=\"%s\" canMove=\"%s\" canAttack=\"%s\">",
		     t->id, t->name, t->cost, t->hp, t->min_damage, t->max_damage, t->attack_range, t->produce_time,
		     t->move_time, t->attack_time, t->harvest_time, t->return_time, t->harvest_amount, t->sight_radius,
		     tf(t->is_resource), tf(t->is_stockpile), tf(t->can_harvest), tf(t->can_move), tf(t->can_attack));
		for (int k = 0; k < t->n_produces; k++) {
			line(w, d + 2, "<produces type=\"%s\">", u->types[t->produces[k]].name);
			line(w, d + 2, "</produces>");
		}
		for (int k = 0; k < t->n_produced_by; k++) {
			line(w, d + 2, "<producedBy type=\"%s\">", u->types[t->produced_by[k]].name);
			line(w, d + 2, "</producedBy>");
		}
		line(w, d + 1, "</rts.units.UnitType>");
	}
	line(w, d, "</rts.units.UnitTypeTable>");
}

static void put_pgs(ms_rts_trace_writer *w, const ms_rts_state *s, int d)
{
	const rts_unit *us = rts_cunits(s);
	const uint8_t *t = rts_cterrain(s);
	int rc;

	line(w, d, "<rts.PhysicalGameState width=\"%d\" height=\"%d\">", s->width, s->height);
	/* The terrain can exceed line()'s buffer: write it directly. */
	for (int i = 0; i < d + 1 && !w->rc; i++)
		w->rc = ms_buf_puts(&w->xml, "  ");
	if (!w->rc && (rc = ms_buf_puts(&w->xml, "<terrain>")))
		w->rc = rc;
	for (int i = 0; i < s->cells && !w->rc; i++) {
		char c = (char)('0' + t[i]);
		w->rc = ms_buf_append(&w->xml, &c, 1);
	}
	if (!w->rc)
		w->rc = ms_buf_puts(&w->xml, "</terrain>\n");
	line(w, d + 1, "<players>");
	for (int p = 0; p < 2; p++) {
		line(w, d + 2, "<rts.Player ID=\"%d\" resources=\"%d\">", p, s->resources[p]);
		line(w, d + 2, "</rts.Player>");
	}
	line(w, d + 1, "</players>");
	line(w, d + 1, "<units>");
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		line(w, d + 2,
		     "<rts.units.Unit type=\"%s\" ID=\"%lld\" player=\"%d\" x=\"%d\" y=\"%d\" resources=\"%d\" hitpoints=\"%d\" >",
		     s->utt->types[u->type].name, (long long)u->id, u->player, u->x, u->y, u->resources, u->hitpoints);
		line(w, d + 2, "</rts.units.Unit>");
	}
	line(w, d + 1, "</units>");
	line(w, d, "</rts.PhysicalGameState>");
}

static void put_action(ms_rts_trace_writer *w, const ms_rts_action *a, int d)
{
	char attrs[128];

	if (a->type == MS_RTS_ATTACK) {
		snprintf(attrs, sizeof(attrs), " x=\"%d\" y=\"%d\"", a->x, a->y);
	} else {
		int n = 0;
		attrs[0] = '\0';
		if (a->parameter != -1)
			n = snprintf(attrs, sizeof(attrs), " parameter=\"%d\"", a->parameter);
		if (a->unit_type >= 0 && a->unit_type < w->utt->n_types)
			snprintf(attrs + n, sizeof(attrs) - (size_t)n, " unitType=\"%s\"", w->utt->types[a->unit_type].name);
	}
	line(w, d, "<UnitAction type=\"%d\"%s>", a->type, attrs);
	line(w, d, "</UnitAction>");
}

static void put_entry(ms_rts_trace_writer *w, const ms_rts_state *s, const ms_rts_pair *const pairs[2],
		      const int n[2])
{
	line(w, 2, "<rts.TraceEntry time = \"%d\">", s->time);
	put_pgs(w, s, 3);
	line(w, 3, "<actions>");
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < n[p]; i++) {
			line(w, 4, "<action unitID=\"%lld\">", (long long)pairs[p][i].unit.id);
			put_action(w, &pairs[p][i].action, 5);
			line(w, 4, "</action>");
		}
	line(w, 3, "</actions>");
	line(w, 2, "</rts.TraceEntry>");
}

int ms_rts_trace_writer_new(ms_ctx *ctx, ms_rts_trace_writer **out, const ms_rts_state *initial)
{
	ms_rts_trace_writer *w = ms_ctx_calloc(ctx, 1, sizeof(*w));
	const ms_rts_pair *none[2] = { NULL, NULL };
	const int zero[2] = { 0, 0 };

	*out = NULL;
	if (!w)
		return MS_ENOMEM;
	w->ctx = ctx;
	w->utt = initial->utt;
	ms_buf_init(&w->xml, ctx);
	line(w, 0, "<rts.Trace>");
	put_utt(w, 1);
	line(w, 1, "<entries>");
	put_entry(w, initial, none, zero);
	if (w->rc) {
		int rc = w->rc;
		ms_rts_trace_writer_free(w);
		return rc;
	}
	*out = w;
	return MS_OK;
}

int ms_rts_trace_writer_entry(ms_rts_trace_writer *w, const ms_rts_state *s, const ms_rts_pair *p0, int n0,
			      const ms_rts_pair *p1, int n1)
{
	const ms_rts_pair *pairs[2] = { p0, p1 };
	const int n[2] = { n0, n1 };

	if (w->rc)
		return w->rc;
	if (n0 > 0 || n1 > 0)
		put_entry(w, s, pairs, n);
	return w->rc;
}

int rts_trace_writer_close(ms_rts_trace_writer *w, const ms_rts_state *final_state, const char **data,
			   size_t *len)
{
	const ms_rts_pair *none[2] = { NULL, NULL };
	const int zero[2] = { 0, 0 };

	*data = NULL;
	*len = 0;
	if (w->rc)
		return w->rc;
	put_entry(w, final_state, none, zero);
	line(w, 1, "</entries>");
	line(w, 0, "</rts.Trace>");
	if (w->rc)
		return w->rc;
	*data = w->xml.data;
	*len = w->xml.len;
	return MS_OK;
}

void ms_rts_trace_writer_free(ms_rts_trace_writer *w)
{
	if (!w)
		return;
	ms_buf_dispose(&w->xml);
	ms_ctx_mfree(w->ctx, w);
}

ms_ctx *rts_trace_writer_ctx(const ms_rts_trace_writer *w)
{
	return w->ctx;
}
