/* Options shared by the gdl commands: how rules load (every command), and the
 * searchers' (`gdl play` and `gdl serve`). */
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

/* How a command loads its rules: --fallback (a flag each command reads),
 * --ground-seconds S (0: no bound) and --choose-seconds S (0: the network
 * kept untimed); ms_gdl_options' fields of the same names. */
typedef struct gdl_load_opts {
	int fallback;
	double ground_seconds, choose_seconds;
	int goal_directed; /* --goal-directed auto|always|never: 0, 1, -1 */
} gdl_load_opts;

/* 1 if `opt` is --ground-seconds, --choose-seconds or --goal-directed (its value
 * `val` used), -1 (reported) if its value is bad, 0 if it is none of them. */
int gdl_load_option(gdl_load_opts *l, const char *opt, const char *val);

/* Loads a rule file so; NULL after "microsynth gdl: <the error>" on stderr. */
ms_gdl *gdl_load_rules(ms_ctx *ctx, const char *path, const gdl_load_opts *l);

/* " representation=network|fallback why=... ground_s= network_steps_per_s=
 * fallback_steps_per_s=" (the rates when they were timed) into out. */
void gdl_representation_text(const ms_gdl *g, char *out, size_t size);

#endif
