#define _POSIX_C_SOURCE 200809L
/*
 * microsynth planetwars bench: native games per second, and with --official
 * the example bots' games in the official engine beside the same games
 * natively.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "microsynth/planetwars.h"
#include "cli.h"
#include "kit/proc.h"
#include "pw_common.h"

/* One game in the official engine: its wall time, turns and winner from its stderr. */
static int official_game(const char *starter, const char *map, const char *a, const char *b, double *secs,
			 int *turns, int *winner)
{
	char tmp[] = "/tmp/microsynth_pw_XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	/* no shell: the paths go as arguments; PlayGame itself splits each
	 * bot's command at spaces */
	char jar[4096], cmd_a[4096], cmd_b[4096];
	snprintf(jar, sizeof jar, "%s/tools/PlayGame.jar", starter);
	snprintf(cmd_a, sizeof cmd_a, "java -jar %s/example_bots/%s.jar", starter, a);
	snprintf(cmd_b, sizeof cmd_b, "java -jar %s/example_bots/%s.jar", starter, b);
	char max_turns[16];
	snprintf(max_turns, sizeof max_turns, "%d", MS_PW_MAX_TURNS);
	char *argv[] = { "java", "-jar", jar, (char *)map, "1000", max_turns, "/dev/null", cmd_a, cmd_b, NULL };
	const proc_io io = { .out = PROC_NULL, .err = PROC_FD, .err_fd = fd };
	pid_t pid;
	int rc = -1;
	double t0 = cli_now();
	if (!proc_spawn(argv, &io, &pid, NULL))
		rc = proc_wait(pid, -1);
	else
		fprintf(stderr, "microsynth %s: cannot start java for %s: %s\n", CMD, jar, strerror(errno));
	close(fd);
	*secs = cli_now() - t0;
	FILE *f = fopen(tmp, "r");
	*turns = 0;
	*winner = -1;
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "Turn ", 5))
			(*turns)++;
		else if (!strncmp(line, "Player 1 Wins!", 14))
			*winner = 1;
		else if (!strncmp(line, "Player 2 Wins!", 14))
			*winner = 2;
		else if (!strncmp(line, "Draw!", 5))
			*winner = 0;
	}
	if (f)
		fclose(f);
	remove(tmp);
	return rc == 0 && *winner >= 0 ? 0 : -1;
}

/* Native speed: games per second of a pairing over the maps (one thread); with
 * --official, the example bots' games in the official engine beside the same games natively. */
int cmd_pw_bench(int argc, char **argv)
{
	const char *maps = NULL, *a = "Forecast", *b = "Forecast", *official = NULL;
	long games = 200;
	int games_set = 0;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--maps") && i + 1 < argc)
			maps = argv[++i];
		else if (!strcmp(argv[i], "--p1") && i + 1 < argc)
			a = argv[++i];
		else if (!strcmp(argv[i], "--p2") && i + 1 < argc)
			b = argv[++i];
		else if (!strcmp(argv[i], "--official") && i + 1 < argc)
			official = argv[++i];
		else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--games", argv[++i], 1, 100000000L, &games))
				return CLI_USAGE;
			games_set = 1;
		} else
			return cli_usage_error(CMD, "bench: unknown option '%s'", argv[i]);
	}
	char mbuf[4096];
	maps = pw_maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "bench: no maps (--maps DIR or MS_SHARED_DIR)");
	if (official && strchr(official, ' '))
		return cli_usage_error(CMD, "bench: PlayGame splits the bots' commands at spaces: a starter path "
					    "with a space is not supported");
	if (official && !games_set)
		games = 8;
	ms_ctx *ctx;
	ms_pw_state **mv;
	int nm, ret = pw_open_maps(CMD, maps, &ctx, &mv, &nm);
	if (ret)
		return ret;
	static const char *const ex[] = { "BullyBot", "DualBot", "ProspectorBot", "RageBot" };
	/* official mode: game g is map 1 + 4 (g / 16) (as the playbacks), pair g % 16 */
	long turns = 0, reps = 0;
	double secs = 0, t0 = cli_now();
	do {
		for (long g = 0; g < games && ret == CLI_OK; g++) {
			const char *x_name = official ? ex[(g % 16) / 4] : a, *y_name = official ? ex[g % 4] : b;
			int m = official ? (int)((1 + 4 * (g / 16)) - 1) % nm : (int)(g % nm);
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			if (ms_pw_bot_make(ctx, &x, x_name, (uint64_t)g) || ms_pw_bot_make(ctx, &y, y_name, (uint64_t)g + 1) ||
			    ms_pw_play(ctx, mv[m], &x, &y, MS_PW_MAX_TURNS, NULL, NULL, &r)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ret = CLI_USAGE;
			} else
				turns += r.turns;
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
		}
		reps++;
		secs = cli_now() - t0;
	} while (official && ret == CLI_OK && secs < 1.0);
	double native_gps = (double)games * reps / secs;
	if (ret == CLI_OK && !official)
		printf("p1=%s p2=%s games=%ld turns=%ld seconds=%.3f games_per_s=%.1f turns_per_s=%.0f\n", a, b, games,
		       turns, secs, games / secs, turns / secs);
	if (ret == CLI_OK && official) {
		double osecs = 0;
		int mismatches = 0;
		for (long g = 0; g < games && ret == CLI_OK; g++) {
			const char *x_name = ex[(g % 16) / 4], *y_name = ex[g % 4];
			int mapno = (int)(1 + 4 * (g / 16));
			char path[4096];
			snprintf(path, sizeof path, "%s/map%d.txt", maps, mapno);
			double s1;
			int ot, ow;
			if (official_game(official, path, x_name, y_name, &s1, &ot, &ow)) {
				fprintf(stderr, "microsynth %s: the official engine failed on map%d %s vs %s\n", CMD, mapno,
					x_name, y_name);
				ret = CLI_FAIL;
				break;
			}
			osecs += s1;
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			ms_pw_bot_make(ctx, &x, x_name, 0);
			ms_pw_bot_make(ctx, &y, y_name, 0);
			ms_pw_play(ctx, mv[(mapno - 1) % nm], &x, &y, MS_PW_MAX_TURNS, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			mismatches += r.turns != ot || r.winner != ow;
		}
		if (ret == CLI_OK)
			printf("games=%ld official_seconds=%.2f official_games_per_s=%.3f native_games_per_s=%.1f "
			       "result_mismatches=%d ratio=%.0f\n",
			       games, osecs, games / osecs, native_gps, mismatches, native_gps / (games / osecs));
	}
	pw_free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}
