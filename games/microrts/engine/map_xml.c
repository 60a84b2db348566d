/*
 * Maps: rts.PhysicalGameState XML (map files and the maps inside traces)
 * into states. Kept apart from state.c so that the engine builds without
 * libxml2 (the JNI bridge does).
 */
#include <stdio.h>
#include <string.h>

#include "core/xml.h"
#include "games/microrts/engine/rts_xml.h"

static int read_terrain(ms_ctx *ctx, ms_rts_state *s, const char *what, xmlNodePtr node)
{
	xmlChar *txt = xmlNodeGetContent(node);
	char where[300];
	int rc;

	if (!txt)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory reading terrain", what);
	snprintf(where, sizeof(where), "%s: line %ld", what, xmlGetLineNo(node));
	rc = rts_terrain_decode(ctx, s, where, (const char *)txt);
	xmlFree(txt);
	return rc;
}

int rts_state_from_pgs(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
		       xmlNodePtr pgs, int64_t seed)
{
	ms_rts_state *s = NULL;
	xmlNodePtr node;
	int w, h, np = 0, rc;
	int64_t max_id = -1;

	*out = NULL;
	if ((rc = ms_xml_attr_int(ctx, what, pgs, "width", &w)) ||
	    (rc = ms_xml_attr_int(ctx, what, pgs, "height", &h)))
		return rc;
	if ((rc = rts_state_alloc(ctx, &s, utt, w, h, seed)))
		return rc;
	if ((rc = ms_xml_need_child(ctx, what, pgs, "terrain", &node)) ||
	    (rc = read_terrain(ctx, s, what, node)) ||
	    (rc = ms_xml_need_child(ctx, what, pgs, "players", &node)))
		goto fail;
	/* Java reads every child element, whatever its name. */
	for (xmlNodePtr p = ms_xml_child(node, NULL); p; p = ms_xml_next(p, NULL)) {
		int id, res;
		if ((rc = ms_xml_attr_int(ctx, what, p, "ID", &id)) ||
		    (rc = ms_xml_attr_int(ctx, what, p, "resources", &res)))
			goto fail;
		if (id != np || np >= 2) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: player ID %d where %s expected",
					  what, xmlGetLineNo(p), id, np >= 2 ? "no third player is" : np ? "1 is" : "0 is");
			goto fail;
		}
		s->resources[np++] = res;
	}
	if (np != 2) {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: %d players; the engine plays exactly 2", what, np);
		goto fail;
	}
	if ((rc = ms_xml_need_child(ctx, what, pgs, "units", &node)))
		goto fail;
	/* Any element name: old maps write <rts.units.Light>, which Java rejects
	 * for its missing type attribute, and so do we. */
	for (xmlNodePtr e = ms_xml_child(node, NULL); e; e = ms_xml_next(e, NULL)) {
		ms_rts_unit u;
		char tname[MS_RTS_TYPE_NAME_MAX], where[300];
		int64_t id;

		snprintf(where, sizeof(where), "%s: line %ld", what, xmlGetLineNo(e));
		if ((rc = ms_xml_attr_str(ctx, what, e, "type", tname, sizeof(tname))) ||
		    (rc = ms_xml_attr_long(ctx, what, e, "ID", &id)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "player", &u.player)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "x", &u.x)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "y", &u.y)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "resources", &u.resources)) ||
		    (rc = ms_xml_attr_int(ctx, what, e, "hitpoints", &u.hitpoints)))
			goto fail;
		u.id = id;
		u.type = ms_rts_utt_find(utt, tname);
		if (u.type < 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unknown unit type '%s'", where, tname);
			goto fail;
		}
		if (u.player < -1 || u.player > 1) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unit %lld has player %d (expected -1, 0 or 1)",
					  where, (long long)id, u.player);
			goto fail;
		}
		if (ms_rts_state_find_unit(s, id) >= 0) {
			rc = ms_ctx_error(ctx, MS_EPARSE, "%s: unit ID %lld appears twice", where, (long long)id);
			goto fail;
		}
		if ((rc = rts_state_add_unit(ctx, s, &u, where)))
			goto fail;
		if (id > max_id)
			max_id = id;
	}
	/* Java's counter is process-wide; ours starts past the loaded ids. */
	s->next_id = max_id + 1;
	*out = s;
	return MS_OK;
fail:
	ms_rts_state_free(s);
	return rc;
}

/* The map document's root element becomes the state. */
static int from_doc(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
		    xmlDocPtr doc, int64_t seed)
{
	xmlNodePtr root;
	int rc = ms_xml_root(ctx, what, doc, "rts.PhysicalGameState", &root);

	if (!rc)
		rc = rts_state_from_pgs(ctx, out, utt, what, root, seed);
	xmlFreeDoc(doc);
	return rc;
}

int ms_rts_state_from_map_xml(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
			      const char *xml, size_t len, int64_t seed)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if ((rc = ms_xml_read_memory(ctx, what, xml, len, &doc)))
		return rc;
	return from_doc(ctx, out, utt, what, doc, seed);
}

int ms_rts_state_load_map(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *path,
			  int64_t seed)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if ((rc = ms_xml_read_file(ctx, path, &doc)))
		return rc;
	return from_doc(ctx, out, utt, path, doc, seed);
}
