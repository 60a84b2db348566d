/*
 * Payloads of the SocketAI protocol: unit type tables and game states in,
 * player actions out. The engine's own readers do the work; this file adds
 * what only the protocol needs: XML game states (the engine reads maps and
 * traces, not GameState.toxml), states sent without their constants, and
 * Java's run-length terrain whose final one-cell run is missing (spec
 * appendix A7).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libxml/tree.h>

#include "core/json.h"
#include "core/xml.h"
#include "games/microrts/rts.h"
#include "server_internal.h"

void srv_constants_clear(ms_ctx *ctx, srv_constants *c)
{
	ms_ctx_mfree(ctx, c->terrain);
	c->terrain = NULL;
	c->width = c->height = 0;
}

int srv_constants_keep(ms_ctx *ctx, srv_constants *c, const ms_rts_state *s)
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s), same;
	char *t;

	same = c->terrain && c->width == w && c->height == h;
	for (int y = 0; same && y < h; y++)
		for (int x = 0; same && x < w; x++)
			same = c->terrain[x + y * w] == (char)('0' + ms_rts_state_terrain(s, x, y));
	if (same)
		return MS_OK;
	t = ms_ctx_malloc(ctx, (size_t)w * (size_t)h + 1);
	if (!t)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory keeping a %dx%d terrain", w, h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			t[x + y * w] = (char)('0' + ms_rts_state_terrain(s, x, y));
	t[(size_t)w * (size_t)h] = '\0';
	srv_constants_clear(ctx, c);
	c->terrain = t;
	c->width = w;
	c->height = h;
	return MS_OK;
}

int srv_sniff(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
			continue;
		if (ch == '{' || ch == '[')
			return MS_SERVER_LANG_JSON;
		if (ch == '<')
			return MS_SERVER_LANG_XML;
		break;
	}
	return MS_SERVER_LANG_AUTO;
}

/*
 * Java's encoder never writes a final run of length 1, so a compressed
 * terrain may cover one cell less than the map: returns the letter that
 * completes it (the other letter than the last run's), or 0 when `t` is not
 * compressed or needs nothing.
 */
static char missing_last_cell(const char *t, long cells)
{
	long n = 0;
	char last = 0;

	if (!strchr(t, 'A') && !strchr(t, 'B'))
		return 0;
	for (const char *p = t; *p;) {
		long run = 1;
		char ch = *p++;
		if (ch != 'A' && ch != 'B')
			return 0;
		if (*p >= '0' && *p <= '9') {
			run = 0;
			while (*p >= '0' && *p <= '9' && run <= cells)
				run = run * 10 + (*p++ - '0');
		}
		n += run;
		if (n > cells)
			return 0;
		last = ch;
	}
	return n == cells - 1 ? (last == 'A' ? 'B' : 'A') : 0;
}

/* The terrain text completed by one letter, on the context's allocator. */
static char *complete_terrain(ms_ctx *ctx, const char *t, char letter)
{
	size_t n = strlen(t);
	char *s = ms_ctx_malloc(ctx, n + 2);

	if (s) {
		memcpy(s, t, n);
		s[n] = letter;
		s[n + 1] = '\0';
	}
	return s;
}

int srv_read_utt(ms_ctx *ctx, int lang, const char *text, size_t len, ms_rts_utt **out)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if (lang == MS_SERVER_LANG_JSON)
		return ms_rts_utt_from_json(ctx, out, text, len);
	if ((rc = ms_xml_read_memory(ctx, "unit type table", text, len, &doc)))
		return rc;
	rc = rts_utt_from_xml(ctx, out, "unit type table", xmlDocGetRootElement(doc));
	xmlFreeDoc(doc);
	return rc;
}

/* ---- JSON states ----------------------------------------------------------- */

/*
 * The engine reads the full form; when that fails, look for what this file
 * can repair (missing constants, the short compressed terrain), repair it in
 * the parsed tree and read the tree's text again. Only the rare forms pay
 * for the second parse.
 */
static int read_state_json(ms_ctx *ctx, const ms_rts_utt *utt, const srv_constants *c, const char *text,
			   size_t len, int64_t seed, ms_rts_state **out)
{
	char first[512];
	cJSON *root = NULL, *pgs, *terrain, *w, *h;
	char *printed = NULL, *fixed = NULL;
	int rc, first_rc, changed = 0;

	rc = ms_rts_state_from_json(ctx, out, utt, text, len, seed);
	if (rc == MS_OK || rc == MS_ENOMEM)
		return rc;
	first_rc = rc;
	snprintf(first, sizeof(first), "%s", ms_ctx_last_error(ctx));
	if (ms_json_parse(ctx, "state", text, len, &root))
		goto keep_first;
	pgs = cJSON_GetObjectItemCaseSensitive(root, "pgs");
	if (!cJSON_IsObject(pgs))
		goto keep_first;
	terrain = cJSON_GetObjectItemCaseSensitive(pgs, "terrain");
	w = cJSON_GetObjectItemCaseSensitive(pgs, "width");
	h = cJSON_GetObjectItemCaseSensitive(pgs, "height");
	if (!terrain && !w && !h) {
		if (!c->terrain) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "state: no width, height and terrain, and no earlier state "
							 "(preGameAnalysis) gave them");
			goto done;
		}
		if (!cJSON_AddNumberToObject(pgs, "width", c->width) ||
		    !cJSON_AddNumberToObject(pgs, "height", c->height) ||
		    !cJSON_AddStringToObject(pgs, "terrain", c->terrain)) {
			rc = ms_ctx_error(ctx, MS_ENOMEM, "state: out of memory adding the map constants");
			goto done;
		}
		changed = 1;
	} else if (cJSON_IsString(terrain) && cJSON_IsNumber(w) && cJSON_IsNumber(h) && w->valueint > 0 &&
		   h->valueint > 0 && w->valueint <= MS_RTS_MAX_SIDE && h->valueint <= MS_RTS_MAX_SIDE) {
		char letter = missing_last_cell(terrain->valuestring, (long)w->valueint * h->valueint);
		if (letter) {
			cJSON *t;
			if (!(fixed = complete_terrain(ctx, terrain->valuestring, letter)) ||
			    !(t = cJSON_CreateString(fixed)) || !cJSON_ReplaceItemInObjectCaseSensitive(pgs, "terrain", t)) {
				rc = ms_ctx_error(ctx, MS_ENOMEM, "state: out of memory completing the terrain");
				goto done;
			}
			changed = 1;
		}
	}
	if (!changed)
		goto keep_first;
	if ((rc = ms_json_print(ctx, root, &printed)))
		goto done;
	rc = ms_rts_state_from_json(ctx, out, utt, printed, strlen(printed), seed);
	goto done;
keep_first:
	rc = ms_ctx_error(ctx, first_rc, "%s", first);
done:
	ms_ctx_mfree(ctx, printed);
	ms_ctx_mfree(ctx, fixed);
	cJSON_Delete(root);
	return rc;
}

/* ---- XML states ------------------------------------------------------------ */

/* Puts the kept constants into a PhysicalGameState element that lacks them. */
static int add_constants(ms_ctx *ctx, xmlNodePtr pgs, const srv_constants *c)
{
	char num[16];

	if (!c->terrain)
		return ms_ctx_error(ctx, MS_EPARSE, "state: line %ld: rts.PhysicalGameState has no width, height "
						    "and terrain, and no earlier state (preGameAnalysis) gave them",
				    xmlGetLineNo(pgs));
	snprintf(num, sizeof(num), "%d", c->width);
	if (!xmlSetProp(pgs, BAD_CAST "width", BAD_CAST num))
		return MS_ENOMEM;
	snprintf(num, sizeof(num), "%d", c->height);
	if (!xmlSetProp(pgs, BAD_CAST "height", BAD_CAST num))
		return MS_ENOMEM;
	if (!ms_xml_child(pgs, "terrain") && !xmlNewTextChild(pgs, NULL, BAD_CAST "terrain", BAD_CAST c->terrain))
		return MS_ENOMEM;
	return MS_OK;
}

static int fix_xml_terrain(ms_ctx *ctx, xmlNodePtr pgs)
{
	xmlNodePtr t = ms_xml_child(pgs, "terrain");
	xmlChar *txt;
	int w, h, rc = MS_OK;
	char letter;

	if (!t || ms_xml_attr_int(ctx, "state", pgs, "width", &w) || ms_xml_attr_int(ctx, "state", pgs, "height", &h) ||
	    w <= 0 || h <= 0 || w > MS_RTS_MAX_SIDE || h > MS_RTS_MAX_SIDE) {
		ms_ctx_clear_error(ctx); /* the engine's reader reports these */
		return MS_OK;
	}
	if (!(txt = xmlNodeGetContent(t)))
		return MS_ENOMEM;
	letter = missing_last_cell((const char *)txt, (long)w * h);
	if (letter) {
		char *fixed = complete_terrain(ctx, (const char *)txt, letter);
		if (fixed)
			xmlNodeSetContent(t, BAD_CAST fixed);
		else
			rc = MS_ENOMEM;
		ms_ctx_mfree(ctx, fixed);
	}
	xmlFree(txt);
	return rc;
}

/* GameState.fromXML's <actions>: each child is one unit's pending action. */
static int read_xml_actions(ms_ctx *ctx, ms_rts_state *s, xmlNodePtr actions)
{
	int rc;

	for (xmlNodePtr e = ms_xml_child(actions, NULL); e; e = ms_xml_next(e, NULL)) {
		char what[64];
		int64_t id;
		int t, ui;
		xmlNodePtr uan;
		ms_rts_action a;

		snprintf(what, sizeof(what), "state: line %ld", xmlGetLineNo(e));
		if ((rc = ms_xml_attr_long(ctx, "state", e, "ID", &id)) ||
		    (rc = ms_xml_attr_int(ctx, "state", e, "time", &t)) ||
		    (rc = ms_xml_need_child(ctx, "state", e, "UnitAction", &uan)) ||
		    (rc = rts_action_from_xml(ctx, s->utt, "state", uan, &a)))
			return rc;
		ui = ms_rts_state_find_unit(s, id);
		if (ui < 0)
			return ms_ctx_error(ctx, MS_ENOTFOUND, "%s: action for unit ID %lld, which is not in the state",
					    what, (long long)id);
		if (!ms_rts_state_unit_idle(s, ui))
			return ms_ctx_error(ctx, MS_EPARSE, "%s: unit %lld has two actions", what, (long long)id);
		rts_assign_append(s, ui, t, &a);
	}
	return MS_OK;
}

static int read_state_xml(ms_ctx *ctx, const ms_rts_utt *utt, const srv_constants *c, const char *text, size_t len,
			  int64_t seed, ms_rts_state **out)
{
	xmlDocPtr doc;
	xmlNodePtr root, pgs;
	ms_rts_state *s = NULL;
	int rc, time;

	if ((rc = ms_xml_read_memory(ctx, "state", text, len, &doc)))
		return rc;
	/* Java reads the root whatever its name (rts.GameState, or
	 * rts.PartiallyObservableGameState for a filtered view). */
	root = xmlDocGetRootElement(doc);
	if ((rc = ms_xml_attr_int(ctx, "state", root, "time", &time)) ||
	    (rc = ms_xml_need_child(ctx, "state", root, "rts.PhysicalGameState", &pgs)))
		goto done;
	if (time < 0) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "state: negative time %d", time);
		goto done;
	}
	if (!ms_xml_has_attr(pgs, "width") && !ms_xml_has_attr(pgs, "height") && !ms_xml_child(pgs, "terrain"))
		rc = add_constants(ctx, pgs, c);
	else
		rc = fix_xml_terrain(ctx, pgs);
	if (rc) {
		if (rc == MS_ENOMEM)
			ms_ctx_error(ctx, rc, "state: out of memory");
		goto done;
	}
	if ((rc = rts_state_from_pgs(ctx, &s, utt, "state", pgs, seed)))
		goto done;
	s->time = time;
	if ((rc = read_xml_actions(ctx, s, ms_xml_child(root, "actions"))))
		goto done;
	*out = s;
	s = NULL;
done:
	ms_rts_state_free(ctx, s);
	xmlFreeDoc(doc);
	return rc;
}

int srv_read_state(ms_ctx *ctx, int lang, const ms_rts_utt *utt, const srv_constants *c, const char *text,
		   size_t len, int64_t seed, ms_rts_state **out)
{
	*out = NULL;
	if (lang == MS_SERVER_LANG_JSON)
		return read_state_json(ctx, utt, c, text, len, seed, out);
	return read_state_xml(ctx, utt, c, text, len, seed, out);
}

/* ---- XML player actions ----------------------------------------------------- */

/* One XMLWriter line: indentation, the tag, then the separator (a space). */
static int xml_line(ms_buf *b, int indent, const char *fmt, ...) MS_PRINTF(3, 4);

static int xml_line(ms_buf *b, int indent, const char *fmt, ...)
{
	char tag[256];
	va_list ap;
	int n, rc = MS_OK;

	va_start(ap, fmt);
	n = vsnprintf(tag, sizeof(tag), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tag))
		return ms_ctx_error(b->ctx, MS_ERANGE, "XML tag too long");
	for (int i = 0; i < indent && !rc; i++)
		rc = ms_buf_append(b, " ", 1);
	if (!rc)
		rc = ms_buf_append(b, tag, (size_t)n);
	return rc ? rc : ms_buf_append(b, " ", 1);
}

int srv_player_action_xml(ms_buf *b, const ms_rts_state *s, const ms_rts_pair *pairs, int n)
{
	const ms_rts_utt *utt = ms_rts_state_utt(s);
	int rc = xml_line(b, 0, "<PlayerAction>");

	for (int i = 0; i < n && !rc; i++) {
		const ms_rts_action *a = &pairs[i].action;
		const ms_rts_unit_type *t = a->unit_type >= 0 ? ms_rts_utt_type(utt, a->unit_type) : NULL;
		char attrs[160];

		/* UnitAction.toxml: "type" then a space, then the rest. */
		if (a->type == MS_RTS_ATTACK)
			snprintf(attrs, sizeof(attrs), "type=\"%d\" x=\"%d\" y=\"%d\"", a->type, a->x, a->y);
		else if (a->parameter != -1)
			snprintf(attrs, sizeof(attrs), "type=\"%d\" parameter=\"%d\"%s%s%s", a->type, a->parameter,
				 t ? " unitType=\"" : "", t ? t->name : "", t ? "\"" : "");
		else
			snprintf(attrs, sizeof(attrs), "type=\"%d\" %s%s%s", a->type, t ? "unitType=\"" : "",
				 t ? t->name : "", t ? "\"" : "");
		if ((rc = xml_line(b, 2, "<action unitID=\"%lld\">", (long long)pairs[i].unit.id)) ||
		    (rc = xml_line(b, 4, "<UnitAction %s>", attrs)) || (rc = xml_line(b, 4, "</UnitAction>")))
			break;
		rc = xml_line(b, 2, "</action>");
	}
	return rc ? rc : xml_line(b, 0, "</PlayerAction>");
}
