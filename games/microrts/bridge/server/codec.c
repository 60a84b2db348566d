/*
 * Payloads of the SocketAI protocol: unit type tables and game states in,
 * player actions out. The engine's public readers do the work (JSON and XML
 * states, map constants kept from an earlier state, Java's short run-length
 * terrain: spec appendix A7); this file only repairs JSON states and writes
 * XML player actions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
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

int srv_read_utt(ms_ctx *ctx, int lang, const char *text, size_t len, ms_rts_utt **out)
{
	int rc;

	*out = NULL;
	if (lang == MS_SERVER_LANG_JSON)
		return ms_rts_utt_from_json(ctx, out, text, len);
	rc = ms_rts_utt_from_xml(ctx, out, "unit type table", text, len);
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
		if ((rc = ms_rts_terrain_complete(ctx, &fixed, terrain->valuestring, (long)w->valueint * h->valueint)))
			goto done;
		if (fixed) {
			cJSON *t;
			if (!(t = cJSON_CreateString(fixed)) || !cJSON_ReplaceItemInObjectCaseSensitive(pgs, "terrain", t)) {
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

int srv_read_state(ms_ctx *ctx, int lang, const ms_rts_utt *utt, const srv_constants *c, const char *text,
		   size_t len, int64_t seed, ms_rts_state **out)
{
	*out = NULL;
	if (lang == MS_SERVER_LANG_JSON)
		return read_state_json(ctx, utt, c, text, len, seed, out);
	{
		ms_rts_map_constants mc = { c->width, c->height, c->terrain };
		return ms_rts_state_from_xml(ctx, out, utt, "state", text, len, c->terrain ? &mc : NULL, seed);
	}
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
