/* Shared by the planetwars subcommands (cmd_planetwars.c, cmd_pw_*.c): contexts, bots, maps. */
#ifndef MS_TOOLS_PW_COMMON_H
#define MS_TOOLS_PW_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "microsynth/planetwars.h"

#define CMD "planetwars"

/* The options `play` and `tournament` share; `map` only for play. */
typedef struct {
	const char *map, *a, *b, *maps;
	long max_turns, seed;
} pw_match_opts;
int pw_parse_match_opts(int argc, char **argv, const char *sub, int want_map, pw_match_opts *o);

void pw_free_maps(ms_ctx *ctx, ms_pw_state **v, int n);
int pw_load_map(ms_ctx *ctx, const char *maps_dir, const char *map, ms_pw_state **out);
int pw_load_maps(ms_ctx *ctx, const char *dir, ms_pw_state ***out, int *n);
/* A new context and the maps of dir in it; a CLI status, the error printed as
 * command cmd's (the context is freed then). */
int pw_open_maps(const char *cmd, const char *dir, ms_ctx **ctx, ms_pw_state ***mv, int *nm);
const char *pw_maps_default(const char *maps, char *buf, size_t size);
ms_ctx *pw_new_ctx(void);
int pw_out_of_memory(const char *what);
int pw_data_dir(const char *sub, char *out, size_t size);

/* The subcommands in their own files. */
int cmd_pw_replay(int argc, char **argv);
int cmd_pw_evolve(int argc, char **argv);
int cmd_pw_tournament(int argc, char **argv);
int cmd_pw_bench(int argc, char **argv);
int cmd_pw_plot(int argc, char **argv);

#endif
