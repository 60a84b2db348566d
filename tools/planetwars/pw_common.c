/* The planetwars subcommands' shared helpers: contexts, bots by spec, map loading. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "core/vec.h"
#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "cli.h"
#include "synth_front.h"

#include "pw_common.h"

/* A context, or NULL after saying so on stderr. */
ms_ctx *pw_new_ctx(void)
{
	ms_ctx *ctx = NULL;
	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth %s: out of memory for a context\n", CMD);
		return NULL;
	}
	return ctx;
}

/* Says on stderr that an allocation failed; CLI_FAIL. */
int pw_out_of_memory(const char *what)
{
	fprintf(stderr, "microsynth %s: out of memory (%s)\n", CMD, what);
	return CLI_FAIL;
}


/* ---- shared helpers ---- */

int pw_data_dir(const char *sub, char *out, size_t size)
{
	char rel[256];
	snprintf(rel, sizeof rel, "data/planetwars/%s", sub);
	return cli_shared_path(rel, out, size);
}

int pw_load_map(ms_ctx *ctx, const char *maps_dir, const char *map, ms_pw_state **out)
{
	char path[4096];
	char *end;
	long n = strtol(map, &end, 10);
	if (*map && !*end && n > 0)
		snprintf(path, sizeof path, "%s/map%ld.txt", maps_dir ? maps_dir : ".", n);
	else
		snprintf(path, sizeof path, "%s", map);
	return ms_pw_state_load(ctx, out, path);
}

void pw_free_maps(ms_ctx *ctx, ms_pw_state **v, int n);

/* Every mapN.txt of `dir`, N = 1, 2, ... while they exist. */
int pw_load_maps(ms_ctx *ctx, const char *dir, ms_pw_state ***out, int *n)
{
	int cap = 128, k = 0;
	ms_pw_state **v = calloc((size_t)cap, sizeof *v);
	if (!v)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for the maps", dir);
	for (int i = 1;; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/map%d.txt", dir, i);
		if (!cli_is_file(path))
			break;
		if (ms_vec_grow(NULL, (void **)&v, &cap, k + 1, sizeof *v) < 0) {
			pw_free_maps(ctx, v, k);
			return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for %d maps", dir, k + 1);
		}
		if (ms_pw_state_load(ctx, &v[k], path)) {
			for (int j = 0; j < k; j++)
				ms_pw_state_free(v[j]);
			free(v);
			return -1;
		}
		k++;
	}
	if (k == 0) {
		free(v);
		ms_ctx_error(ctx, MS_ENOTFOUND, "%s: no map1.txt", dir);
		return -1;
	}
	*out = v;
	*n = k;
	return 0;
}

void pw_free_maps(ms_ctx *ctx, ms_pw_state **v, int n)
{
	for (int i = 0; i < n; i++)
		ms_pw_state_free(v[i]);
	free(v);
}

int pw_open_maps(const char *cmd, const char *dir, ms_ctx **ctx, ms_pw_state ***mv, int *nm)
{
	*mv = NULL;
	*nm = 0;
	if (!(*ctx = pw_new_ctx()))
		return CLI_FAIL;
	if (pw_load_maps(*ctx, dir, mv, nm)) {
		fprintf(stderr, "microsynth %s: %s\n", cmd, ms_ctx_last_error(*ctx));
		ms_ctx_free(*ctx);
		*ctx = NULL;
		return CLI_USAGE;
	}
	return CLI_OK;
}

const char *pw_maps_default(const char *maps, char *buf, size_t size)
{
	if (maps)
		return maps;
	if (!pw_data_dir("maps", buf, size))
		return buf;
	return NULL;
}

int pw_parse_match_opts(int argc, char **argv, const char *sub, int want_map, pw_match_opts *o)
{
	*o = (pw_match_opts){ .max_turns = MS_PW_MAX_TURNS, .seed = 1 };
	for (int i = 2; i < argc; i++) {
		if (want_map && !strcmp(argv[i], "--map") && i + 1 < argc)
			o->map = argv[++i];
		else if (!strcmp(argv[i], "--p1") && i + 1 < argc)
			o->a = argv[++i];
		else if (!strcmp(argv[i], "--p2") && i + 1 < argc)
			o->b = argv[++i];
		else if (!strcmp(argv[i], "--maps") && i + 1 < argc)
			o->maps = argv[++i];
		else if (!strcmp(argv[i], "--max-turns") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--max-turns", argv[++i], 1, 100000, &o->max_turns))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647L, &o->seed))
				return CLI_USAGE;
		} else
			return cli_usage_error(CMD, "%s: unknown option '%s'", sub, argv[i]);
	}
	return CLI_OK;
}
