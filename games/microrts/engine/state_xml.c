/*
 * Game states in GameState.toxml's form, as the SocketAI protocol sends
 * them (the libxml2 half of the engine, beside map_xml.c): the root
 * (rts.GameState or rts.PartiallyObservableGameState) with its time, the
 * rts.PhysicalGameState, and the <actions> of units in progress. A state
 * may omit the map constants (width, height, terrain), which an earlier
 * state gave; Java's run-length terrain may lack its final one-cell run.
 */
#include <stdio.h>
#include <string.h>

#include "core/xml.h"
#include "games/microrts/engine/rts_xml.h"

/* Puts the kept constants into a PhysicalGameState element that lacks them. */
static int add_constants(ms_ctx *ctx, const char *what, xmlNodePtr pgs, const ms_rts_map_constants *c)
{
	char num[16];

	if (!c || !c->terrain)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: rts.PhysicalGameState has no width, height "
						    "and terrain, and no earlier state (preGameAnalysis) gave them",
				    what, xmlGetLineNo(pgs));
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

/* Completes a run-length terrain one cell short (sizes out of range are left to the state reader). */
static int fix_terrain(ms_ctx *ctx, const char *what, xmlNodePtr pgs)
{
	xmlNodePtr t = ms_xml_child(pgs, "terrain");
	xmlChar *txt;
	char *fixed = NULL;
	int w, h, rc;

	if (!t || ms_xml_attr_int(ctx, what, pgs, "width", &w) || ms_xml_attr_int(ctx, what, pgs, "height", &h) ||
	    w <= 0 || h <= 0 || w > MS_RTS_MAX_SIDE || h > MS_RTS_MAX_SIDE) {
		ms_ctx_clear_error(ctx);
		return MS_OK;
	}
	if (!(txt = xmlNodeGetContent(t)))
		return MS_ENOMEM;
	rc = ms_rts_terrain_complete(ctx, &fixed, (const char *)txt, (long)w * h);
	if (rc == MS_OK && fixed)
		xmlNodeSetContent(t, BAD_CAST fixed);
	ms_ctx_mfree(ctx, fixed);
	xmlFree(txt);
	return rc;
}

/* GameState.fromXML's <actions>: each child is one unit's pending action. */
static int read_actions(ms_ctx *ctx, const char *what, ms_rts_state *s, xmlNodePtr actions)
{
	int rc;

	for (xmlNodePtr e = ms_xml_child(actions, NULL); e; e = ms_xml_next(e, NULL)) {
		char where[160];
		int64_t id;
		int t, ui;
		xmlNodePtr uan;
		ms_rts_action a;

		snprintf(where, sizeof(where), "%s: line %ld", what, xmlGetLineNo(e));
		if ((rc = ms_xml_attr_long(ctx, what, e, "ID", &id)) || (rc = ms_xml_attr_int(ctx, what, e, "time", &t)) ||
		    (rc = ms_xml_need_child(ctx, what, e, "UnitAction", &uan)) ||
		    (rc = rts_action_from_xml(ctx, s->utt, what, uan, &a)))
			return rc;
		ui = ms_rts_state_find_unit(s, id);
		if (ui < 0)
			return ms_ctx_error(ctx, MS_ENOTFOUND, "%s: action for unit ID %lld, which is not in the state",
					    where, (long long)id);
		if (!ms_rts_state_unit_idle(s, ui))
			return ms_ctx_error(ctx, MS_EPARSE, "%s: unit %lld has two actions", where, (long long)id);
		rts_assign_append(s, ui, t, &a);
	}
	return MS_OK;
}

int ms_rts_state_from_xml(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
			  const char *text, size_t len, const ms_rts_map_constants *constants, int64_t seed)
{
	xmlDocPtr doc;
	xmlNodePtr root, pgs;
	ms_rts_state *s = NULL;
	int rc, time;

	*out = NULL;
	if (!what)
		what = "state";
	if ((rc = ms_xml_read_memory(ctx, what, text, len, &doc)))
		return rc;
	/* Java reads the root whatever its name (rts.GameState, or
	 * rts.PartiallyObservableGameState for a filtered view). */
	root = xmlDocGetRootElement(doc);
	if ((rc = ms_xml_attr_int(ctx, what, root, "time", &time)) ||
	    (rc = ms_xml_need_child(ctx, what, root, "rts.PhysicalGameState", &pgs)))
		goto done;
	if (time < 0) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "%s: negative time %d", what, time);
		goto done;
	}
	if (!ms_xml_has_attr(pgs, "width") && !ms_xml_has_attr(pgs, "height") && !ms_xml_child(pgs, "terrain"))
		rc = add_constants(ctx, what, pgs, constants);
	else
		rc = fix_terrain(ctx, what, pgs);
	if (rc) {
		if (rc == MS_ENOMEM)
			ms_ctx_error(ctx, rc, "%s: out of memory", what);
		goto done;
	}
	if ((rc = rts_state_from_pgs(ctx, &s, utt, what, pgs, seed)))
		goto done;
	s->time = time;
	if ((rc = read_actions(ctx, what, s, ms_xml_child(root, "actions"))))
		goto done;
	*out = s;
	s = NULL;
done:
	ms_rts_state_free(s);
	xmlFreeDoc(doc);
	return rc;
}

int ms_rts_utt_from_xml(ms_ctx *ctx, ms_rts_utt **out, const char *what, const char *text, size_t len)
{
	xmlDocPtr doc;
	int rc;

	*out = NULL;
	if (!what)
		what = "unit type table";
	if ((rc = ms_xml_read_memory(ctx, what, text, len, &doc)))
		return rc;
	rc = rts_utt_from_xml(ctx, out, what, xmlDocGetRootElement(doc));
	xmlFreeDoc(doc);
	return rc;
}
