/* Options shared by the gdl commands that run searchers: `gdl play` and `gdl serve`. */
#ifndef MS_TOOLS_GDL_COMMON_H
#define MS_TOOLS_GDL_COMMON_H

#include "microsynth/gdl.h"

/* A UCT, GUCT or SGUCT player's knobs, as the command line sets them: the library's (gdl.h). */
typedef ms_gdl_player_options gdl_agent_opts;

void gdl_agent_opts_default(gdl_agent_opts *a);

/* --c --tau --keep --playout-limit --history --transpositions, GUCT's and SGUCT's
 * options and StatGUCT's statistics (gdl_stat_option, whose --keep is shadowed by
 * the tree's): 1 if `opt` is one of them (its value `val` used), -1 (reported) if
 * its value is bad, 0 if it is not one of them. */
int gdl_agent_option(gdl_agent_opts *a, const char *opt, const char *val);

#endif
