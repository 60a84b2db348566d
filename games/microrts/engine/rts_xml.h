/*
 * The engine's libxml2 half (map_xml.c, state_xml.c, utt_io.c, trace.c):
 * readers of XML elements. Kept out of rts.h so that the pure half of the
 * engine, and everything that includes rts.h, needs no libxml2 headers.
 */
#ifndef MS_GAMES_MICRORTS_RTS_XML_H
#define MS_GAMES_MICRORTS_RTS_XML_H

#include <libxml/tree.h>

#include "games/microrts/engine/rts.h"

/* Builds a state from an rts.PhysicalGameState element. */
int rts_state_from_pgs(ms_ctx *ctx, ms_rts_state **out, const ms_rts_utt *utt, const char *what,
		       xmlNodePtr pgs, int64_t seed);

/* Reads an rts.units.UnitTypeTable element. */
int rts_utt_from_xml(ms_ctx *ctx, ms_rts_utt **out, const char *what, xmlNodePtr node);

/* Reads a UnitAction element (XML defaults: parameter -1, x 0, y 0). */
int rts_action_from_xml(ms_ctx *ctx, const ms_rts_utt *utt, const char *what, xmlNodePtr node,
			ms_rts_action *out);

#endif
