/*
 * Replays for the browser view: an official trace (rts.Trace XML, plain or
 * zipped) or one of our recordings (.rec.gz, tests/README.md), turned into
 * the state of every cycle on demand.
 *
 * Both record what happens at some cycles (a trace: each decision point's
 * state and actions; a recording: every cycle's generators and actions), so
 * the states between are rebuilt in the native engine the way `replay` and
 * `diff` rebuild them: from the first state, issue what was recorded at a
 * cycle, run the cycle. Traces resynchronise unit ids by cell and type at
 * every entry, as Trace.getGameStateAtCycle does. The whole file is replayed
 * once when it is opened (so a bad file fails there, with its message), and
 * a copy of the state is kept every CKPT_EVERY cycles, so a seek replays at
 * most that many cycles.
 *
 * The trace's elements are read with the engine's own readers (rts_xml.h);
 * what is here is only the walk over entries that ms_rts_trace_load keeps
 * to itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zip.h>

#include "core/vec.h"
#include "core/xml.h"
#include "games/microrts/engine/rts_xml.h"
#include "recording.h"
#include "view.h"

#define CKPT_EVERY 64
#define REPLAY_MAX_BYTES (512u * 1024u * 1024u)

/* What the file records at one cycle, applied before that cycle runs. */
typedef struct rp_event {
	int time;
	int has_rng; /* a recording's R line */
	int64_t next_id, rng_damage, rng_conflict;
	int n_sync;  /* a trace entry's units: ids are taken by cell and type */
	ms_rts_unit *sync;
	int np[2];
	ms_rts_pair *pairs[2];
} rp_event;

struct view_replay {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *initial, *cur;
	rp_event *ev;
	int n_ev, cap_ev;
	int last;       /* the last cycle */
	int next_ev;    /* the first event cur has not applied */
	ms_rts_state **ckpt; /* the state at cycle k * CKPT_EVERY, before its events */
	int *ckpt_ev;
	int n_ckpt;
	char *names[2];
};

static rp_event *push_event(view_replay *r, int time)
{
	if (ms_vec_grow(NULL, (void **)&r->ev, &r->cap_ev, (long long)r->n_ev + 1, sizeof *r->ev) < 0)
		return NULL;
	memset(&r->ev[r->n_ev], 0, sizeof(rp_event));
	r->ev[r->n_ev].time = time;
	return &r->ev[r->n_ev++];
}

void view_replay_free(view_replay *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->n_ev; i++) {
		free(r->ev[i].sync);
		free(r->ev[i].pairs[0]);
		free(r->ev[i].pairs[1]);
	}
	free(r->ev);
	for (int i = 0; i < r->n_ckpt; i++)
		ms_rts_state_free(r->ckpt[i]);
	free(r->ckpt);
	free(r->ckpt_ev);
	ms_rts_state_free(r->cur);
	ms_rts_state_free(r->initial);
	ms_rts_utt_free(r->utt);
	free(r->names[0]);
	free(r->names[1]);
	free(r);
}

/* ---- official traces ----------------------------------------------------------- */

/* The first entry of a zip, or MS_ENOTFOUND when the file is no zip. */
static int read_zip(ms_ctx *ctx, const char *path, char **out, size_t *len)
{
	int zerr = 0, rc = MS_OK;
	zip_t *za = zip_open(path, ZIP_RDONLY, &zerr);
	zip_stat_t st;
	zip_file_t *zf = NULL;
	zip_int64_t got;

	*out = NULL;
	if (!za) {
		zip_error_t ze;
		if (zerr == ZIP_ER_NOZIP)
			return MS_ENOTFOUND;
		zip_error_init_with_code(&ze, zerr);
		rc = ms_ctx_error(ctx, MS_EIO, "%s: cannot open: %s", path, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		return rc;
	}
	if (zip_get_num_entries(za, 0) < 1 || zip_stat_index(za, 0, 0, &st) || !(st.valid & ZIP_STAT_SIZE) ||
	    st.size > REPLAY_MAX_BYTES) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: the zip holds no readable trace", path);
		goto done;
	}
	if (!(*out = malloc((size_t)st.size + 1))) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory", path);
		goto done;
	}
	if (!(zf = zip_fopen_index(za, 0, 0)) || (got = zip_fread(zf, *out, st.size)) < 0 || (zip_uint64_t)got != st.size) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: cannot decompress the zip's first entry", path);
		free(*out);
		*out = NULL;
		goto done;
	}
	(*out)[st.size] = '\0';
	*len = (size_t)st.size;
done:
	if (zf)
		zip_fclose(zf);
	zip_discard(za);
	return rc;
}

/* One rts.TraceEntry: its units (for the id resync) and its actions split by owner. */
static int trace_entry(view_replay *r, const char *what, xmlNodePtr e)
{
	ms_ctx *ctx = r->ctx;
	ms_rts_state *s = NULL;
	xmlNodePtr pgs, acts;
	rp_event *ev;
	int time, rc, n = 0;

	if ((rc = ms_xml_attr_int(ctx, what, e, "time", &time)) ||
	    (rc = ms_xml_need_child(ctx, what, e, "rts.PhysicalGameState", &pgs)) ||
	    (rc = rts_state_from_pgs(ctx, &s, r->utt, what, pgs, 0)))
		return rc;
	if (!r->initial) {
		r->initial = s; /* the first entry's map, terrain included */
		s = NULL;
	}
	acts = ms_xml_child(e, "actions");
	for (xmlNodePtr a = ms_xml_child(acts, "action"); a; a = ms_xml_next(a, "action"))
		n++;
	if (!(ev = push_event(r, time)) || !(ev->sync = calloc((size_t)ms_rts_state_unit_count(s ? s : r->initial) + 1,
							      sizeof(ms_rts_unit))) ||
	    !(ev->pairs[0] = calloc((size_t)n + 1, sizeof(ms_rts_pair))) ||
	    !(ev->pairs[1] = calloc((size_t)n + 1, sizeof(ms_rts_pair)))) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory", what);
		goto done;
	}
	ev->n_sync = ms_rts_state_unit_count(s ? s : r->initial);
	for (int i = 0; i < ev->n_sync; i++)
		ms_rts_state_unit(s ? s : r->initial, i, &ev->sync[i]);
	for (xmlNodePtr a = ms_xml_child(acts, "action"); a; a = ms_xml_next(a, "action")) {
		int64_t id;
		xmlNodePtr ua;
		ms_rts_pair pr;
		int k = -1;
		if ((rc = ms_xml_attr_long(ctx, what, a, "unitID", &id)) ||
		    (rc = ms_xml_need_child(ctx, what, a, "UnitAction", &ua)) ||
		    (rc = rts_action_from_xml(ctx, r->utt, what, ua, &pr.action)))
			goto done;
		for (int j = 0; j < ev->n_sync && k < 0; j++)
			k = ev->sync[j].id == id ? j : -1;
		if (k < 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: an action for unit %lld, which the entry lacks", what,
					  xmlGetLineNo(a), (long long)id);
			goto done;
		}
		pr.unit = ev->sync[k];
		if (pr.unit.player == 0 || pr.unit.player == 1)
			ev->pairs[pr.unit.player][ev->np[pr.unit.player]++] = pr;
	}
done:
	ms_rts_state_free(s);
	return rc;
}

static int trace_parse(view_replay *r, const char *what, const char *xml, size_t len)
{
	xmlDocPtr doc;
	xmlNodePtr root, node, entries;
	int rc;

	if ((rc = ms_xml_read_memory(r->ctx, what, xml, len, &doc)))
		return rc;
	if ((rc = ms_xml_root(r->ctx, what, doc, "rts.Trace", &root)) ||
	    (rc = ms_xml_need_child(r->ctx, what, root, "rts.units.UnitTypeTable", &node)) ||
	    (rc = rts_utt_from_xml(r->ctx, &r->utt, what, node)) ||
	    (rc = ms_xml_need_child(r->ctx, what, root, "entries", &entries)))
		goto done;
	for (xmlNodePtr e = ms_xml_child(entries, "rts.TraceEntry"); e && !rc; e = ms_xml_next(e, "rts.TraceEntry"))
		rc = trace_entry(r, what, e);
	if (!rc && !r->n_ev)
		rc = ms_ctx_error(r->ctx, MS_EPARSE, "%s: the trace has no entries", what);
	if (!rc)
		r->last = r->ev[r->n_ev - 1].time;
done:
	xmlFreeDoc(doc);
	return rc;
}

static int trace_load(view_replay *r, const char *path)
{
	char *xml = NULL;
	size_t len = 0;
	int rc = read_zip(r->ctx, path, &xml, &len);

	if (rc == MS_ENOTFOUND) {
		char *text = NULL;
		if ((rc = ms_read_text_file(r->ctx, &text, &len, path, "trace")))
			return rc;
		rc = trace_parse(r, path, text, len);
		ms_ctx_mfree(r->ctx, text);
		return rc;
	}
	if (!rc)
		rc = trace_parse(r, path, xml, len);
	free(xml);
	return rc;
}

/* ---- recordings ------------------------------------------------------------------- */

/* One line of a recording; `ev` is the cycle being read (made by its R line). */
static int rec_line(view_replay *r, const char *path, int lineno, char *l, rp_event **ev)
{
	int v, p;
	long long a, b, c;

	if (!strncmp(l, "utt ", 4))
		return sscanf(l + 4, "%d %d", &v, &p) == 2 && !r->utt ? ms_rts_utt_new(r->ctx, &r->utt, v, p)
								      : ms_ctx_error(r->ctx, MS_EPARSE, "%s:%d: bad utt line", path, lineno);
	if (!strncmp(l, "init ", 5))
		return r->utt && !r->initial ? ms_rts_state_from_json(r->ctx, &r->initial, r->utt, l + 5, strlen(l + 5), 0)
					    : ms_ctx_error(r->ctx, MS_EPARSE, "%s:%d: init without utt, or twice", path, lineno);
	if (!strncmp(l, "match ", 6)) {
		char n0[256], n1[256];
		if (sscanf(l + 6, "%*s %*s %*s %*s %255s %255s", n0, n1) == 2 && !r->names[0]) {
			r->names[0] = strdup(n0);
			r->names[1] = strdup(n1);
		}
		return 0;
	}
	if (!r->initial || (l[0] != 'R' && l[0] != 'P' && l[0] != 'S'))
		return 0;
	if (l[0] == 'R') {
		if (sscanf(l + 1, "%lld %lld %lld", &a, &b, &c) != 3)
			return ms_ctx_error(r->ctx, MS_EPARSE, "%s:%d: bad R line", path, lineno);
		int t = r->n_ev ? r->ev[r->n_ev - 1].time + 1 : ms_rts_state_time(r->initial);
		if (!(*ev = push_event(r, t)))
			return ms_ctx_error(r->ctx, MS_ENOMEM, "%s: out of memory", path);
		(*ev)->has_rng = 1;
		(*ev)->next_id = a;
		(*ev)->rng_damage = b;
		(*ev)->rng_conflict = c;
		return 0;
	}
	if (l[0] == 'S')
		return 0; /* the state after the cycle: `diff` compares it, the view rebuilds it */
	if (!*ev || sscanf(l + 1, "%d %d", &p, &v) != 2 || p < 0 || p > 1 || v < 0 || v > 1 << 20)
		return ms_ctx_error(r->ctx, MS_EPARSE, "%s:%d: bad pair list", path, lineno);
	free((*ev)->pairs[p]);
	if (!((*ev)->pairs[p] = calloc((size_t)v + 1, sizeof(ms_rts_pair))))
		return ms_ctx_error(r->ctx, MS_ENOMEM, "%s: out of memory", path);
	{
		ms_rts_pair *const two[2] = { (*ev)->pairs[0], (*ev)->pairs[1] };
		if (rec_parse_p(l, two, (*ev)->np, v) < 0)
			return ms_ctx_error(r->ctx, MS_EPARSE, "%s:%d: bad pair list", path, lineno);
	}
	return 0;
}

static int recording_load(view_replay *r, const char *path)
{
	gzFile f = gzopen(path, "rb");
	rp_event *ev = NULL;
	ms_buf line;
	int lineno = 0, rc = 0;

	if (!f)
		return ms_ctx_error(r->ctx, MS_EIO, "%s: cannot open: %s", path, strerror(errno));
	ms_buf_init(&line, r->ctx);
	while (!rc && rec_read_line(f, &line) >= 0) {
		if (++lineno == 1 && strcmp(line.data, "microsynth-recording 1"))
			rc = ms_ctx_error(r->ctx, MS_EPARSE, "%s: not a recording (line 1)", path);
		else if (lineno > 1)
			rc = rec_line(r, path, lineno, line.data, &ev);
	}
	gzclose(f);
	ms_buf_dispose(&line);
	if (!rc && !r->initial)
		rc = ms_ctx_error(r->ctx, MS_EPARSE, "%s: no initial state", path);
	if (!rc)
		r->last = r->n_ev ? r->ev[r->n_ev - 1].time + 1 : ms_rts_state_time(r->initial);
	return rc;
}

/* ---- cycles ------------------------------------------------------------------------- */

/* Applies event e to cur: the recorded generators and ids, then player 0's actions, then 1's. */
static int apply_event(view_replay *r, rp_event *e)
{
	ms_rts_state *s = r->cur;
	int rc;

	if (e->has_rng) {
		ms_rts_state_set_next_id(s, e->next_id);
		ms_rts_state_set_rng(s, MS_RTS_RNG_DAMAGE, e->rng_damage);
		ms_rts_state_set_rng(s, MS_RTS_RNG_CONFLICT, e->rng_conflict);
	}
	for (int j = 0; j < e->n_sync; j++) {
		int k = ms_rts_state_unit_at(s, e->sync[j].x, e->sync[j].y);
		ms_rts_unit u;
		if (k >= 0 && !ms_rts_state_unit(s, k, &u) && u.type == e->sync[j].type)
			ms_rts_state_set_unit_id(s, k, e->sync[j].id);
	}
	for (int p = 0; p < 2; p++) {
		/* a copy: issuing rewrites the pairs, and a seek applies them again */
		ms_rts_pair buf[64], *v = e->np[p] <= 64 ? buf : malloc(sizeof(ms_rts_pair) * (size_t)e->np[p]);
		int k = 0;
		if (!v)
			return ms_ctx_error(r->ctx, MS_ENOMEM, "replay: out of memory");
		for (int i = 0; i < e->np[p]; i++)
			if (ms_rts_state_unit_at(s, e->pairs[p][i].unit.x, e->pairs[p][i].unit.y) >= 0)
				v[k++] = e->pairs[p][i];
		rc = k ? ms_rts_issue_safe(r->ctx, s, v, k, NULL) : 0;
		if (v != buf)
			free(v);
		if (rc)
			return rc;
	}
	return MS_OK;
}

/* One cycle of cur: the events of its time, then the cycle. */
static int advance(view_replay *r)
{
	int rc;
	while (r->next_ev < r->n_ev && r->ev[r->next_ev].time <= ms_rts_state_time(r->cur))
		if ((rc = apply_event(r, &r->ev[r->next_ev++])))
			return rc;
	return ms_rts_cycle(r->ctx, r->cur, NULL);
}

/* Replays everything once, keeping a state every CKPT_EVERY cycles. */
static int build_checkpoints(view_replay *r, const char *path)
{
	int n = r->last / CKPT_EVERY + 1, rc;

	if (!(r->ckpt = calloc((size_t)n, sizeof(*r->ckpt))) || !(r->ckpt_ev = calloc((size_t)n, sizeof(int))))
		return ms_ctx_error(r->ctx, MS_ENOMEM, "%s: out of memory", path);
	if ((rc = ms_rts_state_clone(r->ctx, &r->cur, r->initial)))
		return rc;
	r->next_ev = 0;
	while (ms_rts_state_time(r->cur) < r->last) {
		int t = ms_rts_state_time(r->cur);
		if (t % CKPT_EVERY == 0 && t / CKPT_EVERY == r->n_ckpt) {
			if ((rc = ms_rts_state_clone(r->ctx, &r->ckpt[r->n_ckpt], r->cur)))
				return rc;
			r->ckpt_ev[r->n_ckpt++] = r->next_ev;
		}
		if ((rc = advance(r)))
			return ms_ctx_error(r->ctx, rc, "%s: cycle %d does not replay: %s", path, t, ms_ctx_last_error(r->ctx));
	}
	return MS_OK;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && !strcmp(s + n - k, suf);
}

int view_replay_open(ms_ctx *ctx, view_replay **out, const char *path)
{
	view_replay *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory");
	r->ctx = ctx;
	rc = has_suffix(path, ".rec.gz") || has_suffix(path, ".rec") ? recording_load(r, path) : trace_load(r, path);
	if (!rc && ms_rts_state_time(r->initial) > r->last)
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: entries go back in time", path);
	if (!rc)
		rc = build_checkpoints(r, path);
	if (rc) {
		view_replay_free(r);
		return rc;
	}
	*out = r;
	return MS_OK;
}

int view_replay_cycles(const view_replay *r)
{
	return r->last;
}

const char *view_replay_player(const view_replay *r, int p)
{
	return r->names[p] ? r->names[p] : p ? "player 1" : "player 0";
}

int view_replay_seek(view_replay *r, int cycle, const ms_rts_state **out)
{
	int t0 = ms_rts_state_time(r->initial), rc;

	cycle = cycle < t0 ? t0 : cycle > r->last ? r->last : cycle;
	if (cycle < ms_rts_state_time(r->cur) || cycle - ms_rts_state_time(r->cur) > CKPT_EVERY) {
		int k = cycle / CKPT_EVERY;
		if (k >= r->n_ckpt)
			k = r->n_ckpt - 1;
		if (k >= 0 && ms_rts_state_time(r->ckpt[k]) <= cycle) {
			if ((rc = ms_rts_state_copy(r->cur, r->ckpt[k])))
				return rc;
			r->next_ev = r->ckpt_ev[k];
		} else {
			if ((rc = ms_rts_state_copy(r->cur, r->initial)))
				return rc;
			r->next_ev = 0;
		}
	}
	while (ms_rts_state_time(r->cur) < cycle)
		if ((rc = advance(r)))
			return rc;
	*out = r->cur;
	return MS_OK;
}
