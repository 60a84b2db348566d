/*
 * Traces (rts.Trace XML, plain or zipped) and their replay. An entry keeps
 * only what replay compares and issues: time, stocks, units in list order,
 * and the recorded unit actions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <zip.h>

#include "core/buf.h"
#include "core/xml.h"
#include "games/microrts/engine/rts_xml.h"

/* Zip bombs stop here; the largest official trace is well under 10 MB. */
#define TRACE_MAX_BYTES (512u * 1024u * 1024u)

typedef struct trace_action {
	int64_t unit_id;
	int unit;        /* index of the unit in its entry, resolved at load */
	ms_rts_action action;
} trace_action;

typedef struct trace_entry {
	int time;
	int resources[2];
	int n_units;
	ms_rts_unit *units;
	int n_actions;
	trace_action *actions;
} trace_entry;

struct ms_rts_trace {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *initial; /* the first entry's map, terrain included */
	int n_entries;
	trace_entry *entries;
};

void ms_rts_trace_free(ms_rts_trace *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n_entries; i++) {
		ms_ctx_mfree(t->ctx, t->entries[i].units);
		ms_ctx_mfree(t->ctx, t->entries[i].actions);
	}
	ms_ctx_mfree(t->ctx, t->entries);
	ms_rts_state_free(t->initial);
	ms_rts_utt_free(t->utt);
	ms_ctx_mfree(t->ctx, t);
}

int ms_rts_trace_entry_count(const ms_rts_trace *t)
{
	return t->n_entries;
}

const ms_rts_state *ms_rts_trace_initial(const ms_rts_trace *t)
{
	return t->initial;
}

int rts_action_from_xml(ms_ctx *ctx, const ms_rts_utt *utt, const char *what, xmlNodePtr node,
			ms_rts_action *out)
{
	int rc;

	out->type = 0;
	out->parameter = -1;
	out->x = 0;
	out->y = 0;
	out->unit_type = -1;
	if ((rc = ms_xml_attr_int(ctx, what, node, "type", &out->type)))
		return rc;
	if (out->type < MS_RTS_NONE || out->type > MS_RTS_ATTACK)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: unknown action type %d", what,
				    xmlGetLineNo(node), out->type);
	if (ms_xml_has_attr(node, "parameter") &&
	    (rc = ms_xml_attr_int(ctx, what, node, "parameter", &out->parameter)))
		return rc;
	if (ms_xml_has_attr(node, "x") && (rc = ms_xml_attr_int(ctx, what, node, "x", &out->x)))
		return rc;
	if (ms_xml_has_attr(node, "y") && (rc = ms_xml_attr_int(ctx, what, node, "y", &out->y)))
		return rc;
	if (ms_xml_has_attr(node, "unitType")) {
		char name[MS_RTS_TYPE_NAME_MAX];
		if ((rc = ms_xml_attr_str(ctx, what, node, "unitType", name, sizeof(name))))
			return rc;
		out->unit_type = ms_rts_utt_find(utt, name);
		if (out->unit_type < 0)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: unknown unit type '%s'", what,
					    xmlGetLineNo(node), name);
	}
	if (out->type == MS_RTS_PRODUCE && out->unit_type < 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: produce action without unitType", what,
				    xmlGetLineNo(node));
	return MS_OK;
}

static int read_entry(ms_ctx *ctx, ms_rts_trace *t, const char *what, xmlNodePtr e, trace_entry *te)
{
	ms_rts_state *s = NULL;
	xmlNodePtr pgs, acts;
	int rc, n;

	memset(te, 0, sizeof(*te));
	if ((rc = ms_xml_attr_int(ctx, what, e, "time", &te->time)) ||
	    (rc = ms_xml_need_child(ctx, what, e, "rts.PhysicalGameState", &pgs)) ||
	    (rc = rts_state_from_pgs(ctx, &s, t->utt, what, pgs, 0)))
		return rc;
	te->resources[0] = s->resources[0];
	te->resources[1] = s->resources[1];
	te->n_units = s->n_units;
	te->units = ms_ctx_calloc(ctx, (size_t)(s->n_units ? s->n_units : 1), sizeof(ms_rts_unit));
	if (!te->units) {
		rc = MS_ENOMEM;
		goto done;
	}
	for (int i = 0; i < s->n_units; i++)
		te->units[i] = rts_units(s)[i].u;
	if (!t->initial) {
		t->initial = s;
		s = NULL;
	}
	acts = ms_xml_child(e, "actions");
	n = 0;
	for (xmlNodePtr a = ms_xml_child(acts, "action"); a; a = ms_xml_next(a, "action"))
		n++;
	te->actions = ms_ctx_calloc(ctx, (size_t)(n ? n : 1), sizeof(trace_action));
	if (!te->actions) {
		rc = MS_ENOMEM;
		goto done;
	}
	for (xmlNodePtr a = ms_xml_child(acts, "action"); a; a = ms_xml_next(a, "action")) {
		trace_action *ta = &te->actions[te->n_actions];
		xmlNodePtr ua;
		if ((rc = ms_xml_attr_long(ctx, what, a, "unitID", &ta->unit_id)) ||
		    (rc = ms_xml_need_child(ctx, what, a, "UnitAction", &ua)) ||
		    (rc = rts_action_from_xml(ctx, t->utt, what, ua, &ta->action)))
			goto done;
		ta->unit = -1;
		for (int j = 0; j < te->n_units && ta->unit < 0; j++)
			if (te->units[j].id == ta->unit_id)
				ta->unit = j;
		if (ta->unit < 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: action for unit %lld, which the entry lacks",
					  what, xmlGetLineNo(a), (long long)ta->unit_id);
			goto done;
		}
		te->n_actions++;
	}
done:
	ms_rts_state_free(s);
	return rc;
}

static int parse_trace(ms_ctx *ctx, ms_rts_trace *t, const char *what, const char *xml, size_t len)
{
	xmlDocPtr doc;
	xmlNodePtr root, node, entries;
	int rc, n = 0;

	if ((rc = ms_xml_read_memory(ctx, what, xml, len, &doc)))
		return rc;
	if ((rc = ms_xml_root(ctx, what, doc, "rts.Trace", &root)) ||
	    (rc = ms_xml_need_child(ctx, what, root, "rts.units.UnitTypeTable", &node)) ||
	    (rc = rts_utt_from_xml(ctx, &t->utt, what, node)) ||
	    (rc = ms_xml_need_child(ctx, what, root, "entries", &entries)))
		goto done;
	for (xmlNodePtr e = ms_xml_child(entries, "rts.TraceEntry"); e; e = ms_xml_next(e, "rts.TraceEntry"))
		n++;
	if (n == 0) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: trace has no entries", what);
		goto done;
	}
	t->entries = ms_ctx_calloc(ctx, (size_t)n, sizeof(trace_entry));
	if (!t->entries) {
		rc = MS_ENOMEM;
		goto done;
	}
	for (xmlNodePtr e = ms_xml_child(entries, "rts.TraceEntry"); e; e = ms_xml_next(e, "rts.TraceEntry")) {
		if ((rc = read_entry(ctx, t, what, e, &t->entries[t->n_entries])))
			goto done;
		t->n_entries++;
	}
done:
	xmlFreeDoc(doc);
	return rc;
}

/* Reads the first entry of a zip, or returns MS_ENOTFOUND if not a zip. */
static int read_zip(ms_ctx *ctx, const char *path, char **out, size_t *len)
{
	int zerr = 0, rc = MS_OK;
	zip_t *za = zip_open(path, ZIP_RDONLY, &zerr);
	zip_stat_t st;
	zip_file_t *zf = NULL;
	char *buf = NULL;
	zip_int64_t got;

	*out = NULL;
	if (!za) {
		if (zerr == ZIP_ER_NOZIP)
			return MS_ENOTFOUND;
		if (zerr == ZIP_ER_NOENT || zerr == ZIP_ER_OPEN || zerr == ZIP_ER_READ)
			return ms_ctx_error(ctx, MS_EIO, "%s: cannot open: %s", path, strerror(errno));
		return ms_ctx_error(ctx, MS_EPARSE, "%s: not a readable zip (libzip error %d)", path, zerr);
	}
	if (zip_get_num_entries(za, 0) < 1 || zip_stat_index(za, 0, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: zip holds no readable entry", path);
		goto done;
	}
	if (st.size > TRACE_MAX_BYTES) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "%s: zip entry of %llu bytes is too large", path,
				  (unsigned long long)st.size);
		goto done;
	}
	buf = ms_ctx_malloc(ctx, (size_t)st.size + 1);
	zf = buf ? zip_fopen_index(za, 0, 0) : NULL;
	if (!buf) {
		rc = MS_ENOMEM;
		goto done;
	}
	if (!zf || (got = zip_fread(zf, buf, st.size)) < 0 || (zip_uint64_t)got != st.size) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: cannot decompress the first zip entry", path);
		goto done;
	}
	buf[st.size] = '\0';
	*out = buf;
	*len = (size_t)st.size;
	buf = NULL;
done:
	if (zf)
		zip_fclose(zf);
	zip_discard(za);
	ms_ctx_mfree(ctx, buf);
	return rc;
}

static int read_file(ms_ctx *ctx, const char *path, char **out, size_t *len)
{
	return ms_read_file_upto(ctx, path, "trace", TRACE_MAX_BYTES, out, len);
}

int ms_rts_trace_load(ms_ctx *ctx, ms_rts_trace **out, const char *path)
{
	ms_rts_trace *t;
	char *xml = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	rc = read_zip(ctx, path, &xml, &len);
	if (rc == MS_ENOTFOUND)
		rc = read_file(ctx, path, &xml, &len);
	if (rc)
		return rc;
	t = ms_ctx_calloc(ctx, 1, sizeof(*t));
	if (!t) {
		ms_ctx_mfree(ctx, xml);
		return MS_ENOMEM;
	}
	t->ctx = ctx;
	rc = parse_trace(ctx, t, path, xml, len);
	ms_ctx_mfree(ctx, xml);
	if (rc) {
		ms_rts_trace_free(t);
		return rc;
	}
	*out = t;
	return MS_OK;
}

static void describe_unit(char *buf, size_t size, const ms_rts_utt *utt, const ms_rts_unit *u)
{
	snprintf(buf, size, "%s#%lld p%d (%d,%d) hp=%d res=%d", utt->types[u->type].name, (long long)u->id,
		 u->player, u->x, u->y, u->hitpoints, u->resources);
}

/* Compares the live state with an entry; on a difference writes detail. */
static int same_as_entry(const ms_rts_state *s, const trace_entry *e, char *detail, size_t size)
{
	const rts_unit *us = rts_cunits(s);
	char a[128], b[128];

	for (int p = 0; p < 2; p++)
		if (s->resources[p] != e->resources[p]) {
			snprintf(detail, size, "time %d: player %d has %d resources, trace %d", e->time, p,
				 s->resources[p], e->resources[p]);
			return 0;
		}
	for (int i = 0; i < s->n_units || i < e->n_units; i++) {
		const ms_rts_unit *x = i < s->n_units ? &us[i].u : NULL, *y = i < e->n_units ? &e->units[i] : NULL;
		if (x && y && x->id == y->id && x->type == y->type && x->player == y->player && x->x == y->x &&
		    x->y == y->y && x->hitpoints == y->hitpoints && x->resources == y->resources)
			continue;
		if (x)
			describe_unit(a, sizeof(a), s->utt, x);
		else
			snprintf(a, sizeof(a), "none");
		if (y)
			describe_unit(b, sizeof(b), s->utt, y);
		else
			snprintf(b, sizeof(b), "none");
		snprintf(detail, size, "time %d: unit %d is %s, trace %s (%d vs %d units)", e->time, i, a, b,
			 s->n_units, e->n_units);
		return 0;
	}
	return 1;
}

int ms_rts_trace_replay(ms_ctx *ctx, const ms_rts_trace *t, ms_rts_replay_result *res)
{
	ms_rts_state *s = NULL;
	ms_rts_pair *pairs[2] = { NULL, NULL };
	int np[2], rc, max_actions = 1;

	memset(res, 0, sizeof(*res));
	res->first_bad = -1;
	for (int i = 0; i < t->n_entries; i++)
		if (t->entries[i].n_actions > max_actions)
			max_actions = t->entries[i].n_actions;
	pairs[0] = ms_ctx_calloc(ctx, (size_t)max_actions, sizeof(ms_rts_pair));
	pairs[1] = ms_ctx_calloc(ctx, (size_t)max_actions, sizeof(ms_rts_pair));
	if (!pairs[0] || !pairs[1]) {
		rc = MS_ENOMEM;
		goto done;
	}
	if ((rc = ms_rts_state_clone(ctx, &s, t->initial)))
		goto done;
	for (int i = 0; i < t->n_entries; i++) {
		const trace_entry *e = &t->entries[i];
		char detail[sizeof(res->detail)];
		rts_unit *us;

		while (s->time < e->time)
			if ((rc = ms_rts_cycle(ctx, s, NULL)))
				goto done;
		/* Java's ids come from a process-wide counter: take the trace's ids
		 * for units on the same cell with the same type (Trace replay). */
		us = rts_units(s);
		for (int j = 0; j < e->n_units; j++) {
			int k = rts_unit_at(s, e->units[j].x, e->units[j].y);
			if (k >= 0 && e->units[j].type == us[k].u.type)
				us[k].u.id = e->units[j].id;
		}
		res->entries++;
		if (s->time != e->time || !same_as_entry(s, e, detail, sizeof(detail))) {
			if (s->time != e->time)
				snprintf(detail, sizeof(detail), "entry %d: trace time %d is behind state time %d",
					 i, e->time, s->time);
			if (res->divergent++ == 0) {
				res->first_bad = i;
				snprintf(res->detail, sizeof(res->detail), "%s", detail);
			}
		}
		/* Split by owner, keeping order; player 0 issues first. */
		np[0] = np[1] = 0;
		for (int k = 0; k < e->n_actions; k++) {
			const ms_rts_unit *u = &e->units[e->actions[k].unit];
			/* After a divergence a unit may be missing: skip its action. */
			if ((u->player != 0 && u->player != 1) || rts_unit_at(s, u->x, u->y) < 0)
				continue;
			pairs[u->player][np[u->player]].unit = *u;
			pairs[u->player][np[u->player]].action = e->actions[k].action;
			np[u->player]++;
		}
		for (int p = 0; p < 2; p++)
			if ((rc = ms_rts_issue_safe(ctx, s, pairs[p], np[p], NULL)))
				goto done;
	}
	res->cycles = s->time;
	res->winner = ms_rts_winner(s);
done:
	ms_ctx_mfree(ctx, pairs[0]);
	ms_ctx_mfree(ctx, pairs[1]);
	ms_rts_state_free(s);
	return rc;
}
