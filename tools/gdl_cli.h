/* Shared by the `microsynth gdl` subcommands (tools/cmd_gdl*.c). */
#ifndef MS_TOOLS_GDL_CLI_H
#define MS_TOOLS_GDL_CLI_H

#include "microsynth/gdl.h"

/* Loads a rule file (fallback: never ground); a message on stderr and NULL if it fails. */
ms_gdl *gdl_cli_load(ms_ctx *ctx, const char *path, int fallback);
/* microsynth gdl bench (cmd_gdl_bench.c); argv[1] is "bench". */
int gdl_bench(int argc, char **argv);

#endif
