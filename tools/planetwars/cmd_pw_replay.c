/*
 * microsynth planetwars replay: the official engine's playbacks (read and
 * checked by games/planetwars/playback.c) replayed with the native bots.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/vec.h"
#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "cli.h"
#include "core/file.h"
#include "synth_front.h"

#include "pw_common.h"

/* ---- replay ---- */

typedef struct replay_ud {
	ms_ctx *ctx;
	const ms_pw_playback *pb;
	int k;
	char msg[512];
} replay_ud;

static int replay_observe(void *ud_, const ms_pw_state *s)
{
	replay_ud *ud = ud_;
	return ms_pw_playback_check(ud->ctx, ud->pb, ud->k++, s, ud->msg, sizeof ud->msg);
}

static int read_result(const char *path, int *turns, int *winner)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[256];
	*turns = -1;
	*winner = -1;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "turns=", 6))
			*turns = atoi(line + 6);
		else if (!strncmp(line, "Player 1 Wins!", 14))
			*winner = 1;
		else if (!strncmp(line, "Player 2 Wins!", 14))
			*winner = 2;
		else if (!strncmp(line, "Draw!", 5))
			*winner = 0;
	}
	fclose(f);
	return *turns >= 0 && *winner >= 0 ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's *.playback.gz, sorted; -1 (errno set or *oom) if they cannot be listed. */
static int replay_list(const char *dir, char ***out, size_t *nout, int *oom)
{
	DIR *d = opendir(dir);
	*oom = 0;
	if (!d)
		return -1;
	size_t n = 0;
	int cap = 64;
	char **names = malloc((size_t)cap * sizeof *names);
	*oom = !names;
	for (struct dirent *e; !*oom && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 12 && !strcmp(e->d_name + l - 12, ".playback.gz")) {
			*oom = ms_vec_grow(NULL, (void **)&names, &cap, (long long)n + 1, sizeof *names) < 0;
			if (!*oom && !(*oom = !(names[n] = strdup(e->d_name))))
				n++;
		}
	}
	closedir(d);
	if (!*oom)
		qsort(names, n, sizeof *names, cmp_str);
	*out = names;
	*nout = n;
	return *oom ? -1 : 0;
}

typedef struct replay_stats {
	long games, divergences, bad_input, total_turns;
} replay_stats;

/* Plays a parsed playback's game natively (bots a and b) against its turns and result. */
static void replay_play(ms_ctx *ctx, const ms_pw_state *map, const char *base, const char *a, const char *b,
			long max_turns, int rturns, int rwinner, replay_ud *ud, replay_stats *st)
{
	ms_pw_bot p1, p2;
	ms_pw_result res;
	if (ms_pw_bot_make(ctx, &p1, a, 1) || ms_pw_bot_make(ctx, &p2, b, 2)) {
		fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
		st->bad_input++;
		return;
	}
	st->games++;
	int rc = ms_pw_play(ctx, map, &p1, &p2, (int)max_turns, replay_observe, ud, &res);
	if (rc < 0) {
		snprintf(ud->msg, sizeof ud->msg, "error: %s", ms_ctx_last_error(ctx));
	} else if (!rc && !ud->msg[0]) {
		int nturns = ms_pw_playback_turns(ud->pb);
		if (res.turns != nturns || res.turns != rturns || res.winner != rwinner)
			snprintf(ud->msg, sizeof ud->msg,
				 "result: official turns=%d (playback %d) winner=%d, native turns=%d winner=%d%s", rturns,
				 nturns, rwinner, res.turns, res.winner, res.forfeit ? " (forfeit)" : "");
	}
	st->total_turns += ud->k;
	if (ud->msg[0]) {
		st->divergences++;
		printf("DIVERGE %s: %s\n", base, ud->msg);
	}
	ms_pw_bot_release(ctx, &p1);
	ms_pw_bot_release(ctx, &p2);
}

/* One playback mapM_A_B.playback.gz of dir with its .result file, replayed on map M of maps. */
static void replay_one(ms_ctx *ctx, const char *dir, const char *maps, const char *name, long max_turns,
		       replay_stats *st)
{
	char base[1024], a[128], b[128], path[8192];
	int mapno;
	snprintf(base, sizeof base, "%.*s", (int)(strlen(name) - 12), name);
	char *u1 = strchr(base, '_'), *u2 = u1 ? strchr(u1 + 1, '_') : NULL;
	if (sscanf(base, "map%d_", &mapno) != 1 || !u1 || !u2 || strchr(u2 + 1, '_')) {
		fprintf(stderr, "%s: name is not mapM_A_B.playback.gz\n", name);
		st->bad_input++;
		return;
	}
	snprintf(a, sizeof a, "%.*s", (int)(u2 - u1 - 1), u1 + 1);
	snprintf(b, sizeof b, "%s", u2 + 1);
	char mapname[32];
	snprintf(mapname, sizeof mapname, "%d", mapno);
	ms_pw_state *map = NULL;
	if (pw_load_map(ctx, maps, mapname, &map)) {
		fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
		st->bad_input++;
		return;
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	char *text = NULL;
	/* playbacks run to a few MB; 256 MiB bounds a damaged one */
	int read_rc = ms_read_file(ctx, path, "playback", (size_t)1 << 28, &text, &len);
	int rturns, rwinner;
	snprintf(path, sizeof path, "%s/%s.result", dir, base);
	ms_pw_playback *pb = NULL;
	if (read_rc < 0) {
		fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
		st->bad_input++;
	} else if (read_result(path, &rturns, &rwinner)) {
		fprintf(stderr, "%s: cannot read turns= and the winner line\n", path);
		st->bad_input++;
	} else if (ms_pw_playback_parse(ctx, &pb, text, len, ms_pw_num_planets(map), base)) {
		fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
		st->bad_input++;
	} else {
		replay_ud ud = { .ctx = ctx, .pb = pb };
		replay_play(ctx, map, base, a, b, max_turns, rturns, rwinner, &ud, st);
		ms_pw_playback_free(pb);
	}
	ms_ctx_mfree(ctx, text);
	ms_pw_state_free(map);
}

int cmd_pw_replay(int argc, char **argv)
{
	const char *dir = NULL, *maps = NULL;
	long limit = -1, max_turns = MS_PW_MAX_TURNS;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--maps") && i + 1 < argc)
			maps = argv[++i];
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--limit", argv[++i], 0, 1000000, &limit))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--max-turns") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--max-turns", argv[++i], 1, 100000, &max_turns))
				return CLI_USAGE;
		} else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "replay: unknown option '%s'", argv[i]);
		else if (!dir)
			dir = argv[i];
		else
			return cli_usage_error(CMD, "replay: one directory only ('%s')", argv[i]);
	}
	if (!dir)
		return cli_usage_error(CMD, "replay: which directory of playbacks?");
	char mapsbuf[4096];
	if (!maps) {
		snprintf(mapsbuf, sizeof mapsbuf, "%s/../maps", dir);
		maps = mapsbuf;
	}
	char **names = NULL;
	size_t n = 0;
	int oom;
	if (replay_list(dir, &names, &n, &oom) && !oom) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, dir, strerror(errno));
		return CLI_USAGE;
	}
	ms_ctx *ctx = oom ? NULL : pw_new_ctx();
	if (!ctx) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return oom ? pw_out_of_memory("the playback names") : CLI_FAIL;
	}
	replay_stats st = { 0 };
	double t0 = cli_now();
	for (size_t i = 0; i < n && (limit < 0 || st.games < limit); i++)
		replay_one(ctx, dir, maps, names[i], max_turns, &st);
	double secs = cli_now() - t0;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ms_ctx_free(ctx);
	if (st.games == 0 && !st.bad_input) {
		fprintf(stderr, "microsynth %s: no *.playback.gz in %s\n", CMD, dir);
		return CLI_USAGE;
	}
	printf("turns=%ld seconds=%.3f bad_input=%ld games=%ld divergences=%ld\n", st.total_turns, secs, st.bad_input,
	       st.games, st.divergences);
	if (st.bad_input)
		return CLI_USAGE;
	return st.divergences ? CLI_FAIL : CLI_OK;
}
