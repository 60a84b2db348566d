/* microsynth planetwars replay: the official engine's playbacks replayed with the native bots. */
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
#include <zlib.h>

#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "cli.h"
#include "synth_front.h"

#include "pw_common.h"

/* ---- replay ---- */

typedef struct pb_fleet {
	int v[6];
} pb_fleet;

typedef struct pb_turn {
	int np, nf;
	int *planets; /* owner, ships pairs */
	pb_fleet *fleets;
} pb_turn;

typedef struct replay_ud {
	pb_turn *turns;
	int nturns;
	int k;
	char msg[512];
} replay_ud;

static int cmp_fleet(const void *a, const void *b)
{
	const pb_fleet *x = a, *y = b;
	for (int i = 0; i < 6; i++)
		if (x->v[i] != y->v[i])
			return x->v[i] < y->v[i] ? -1 : 1;
	return 0;
}

static char *read_gz(const char *path, size_t *len)
{
	gzFile g = gzopen(path, "rb");
	if (!g)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			break;
		if (cap - n < 4096) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		int got = gzread(g, buf + n, (unsigned)(cap - n - 1));
		if (got < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	gzclose(g);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

static void free_turns(pb_turn *t, int n)
{
	for (int i = 0; i < n; i++) {
		free(t[i].planets);
		free(t[i].fleets);
	}
	free(t);
}

/* The playback's turns after '|': entries separated by ':', items by ','. */
static int parse_playback(char *text, int np, pb_turn **out, int *nout, char *err, size_t errsize)
{
	char *bar = strchr(text, '|');
	if (!bar) {
		snprintf(err, errsize, "no '|' in the playback");
		return -1;
	}
	int cap = 256, n = 0;
	pb_turn *turns = calloc((size_t)cap, sizeof *turns);
	char *save = NULL;
	if (!turns) {
		snprintf(err, errsize, "out of memory for %d turns", cap);
		return -1;
	}
	for (char *e = strtok_r(bar + 1, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		while (*e == ' ' || *e == '\n' || *e == '\r')
			e++;
		size_t l = strlen(e);
		while (l && (e[l - 1] == '\n' || e[l - 1] == '\r' || e[l - 1] == ' '))
			e[--l] = 0;
		if (!*e)
			continue;
		if (n == cap) {
			pb_turn *nt = realloc(turns, (size_t)cap * 2 * sizeof *nt);
			if (!nt) {
				snprintf(err, errsize, "turn %d: out of memory for %d turns", n + 1, cap * 2);
				free_turns(turns, n);
				return -1;
			}
			turns = nt;
			cap *= 2;
		}
		pb_turn *t = &turns[n++];
		memset(t, 0, sizeof *t);
		int items = 1;
		for (char *c = e; *c; c++)
			items += *c == ',';
		t->planets = malloc((size_t)(np > 0 ? np : 1) * 2 * sizeof(int));
		t->fleets = malloc((size_t)(items > np ? items - np : 1) * sizeof(pb_fleet));
		if (!t->planets || !t->fleets) {
			snprintf(err, errsize, "turn %d: out of memory for %d items", n, items);
			free_turns(turns, n);
			return -1;
		}
		char *s2 = NULL;
		int idx = 0;
		for (char *it = strtok_r(e, ",", &s2); it; it = strtok_r(NULL, ",", &s2), idx++) {
			int v[6], nv = 0;
			char *c = it;
			while (nv < 6) {
				char *end;
				long x = strtol(c, &end, 10);
				if (end == c)
					break;
				v[nv++] = (int)x;
				c = end;
				if (*c != '.')
					break;
				c++;
			}
			if (idx < np) {
				if (nv != 2) {
					snprintf(err, errsize, "turn %d: planet item '%s' is not owner.ships", n, it);
					free_turns(turns, n);
					return -1;
				}
				t->planets[2 * idx] = v[0];
				t->planets[2 * idx + 1] = v[1];
				t->np++;
			} else {
				if (nv != 6) {
					snprintf(err, errsize, "turn %d: fleet item '%s' is not six numbers", n, it);
					free_turns(turns, n);
					return -1;
				}
				memcpy(t->fleets[t->nf++].v, v, sizeof v);
			}
		}
		if (t->np != np) {
			snprintf(err, errsize, "turn %d: %d planets, the map has %d", n, t->np, np);
			free_turns(turns, n);
			return -1;
		}
		qsort(t->fleets, (size_t)t->nf, sizeof(pb_fleet), cmp_fleet);
	}
	*out = turns;
	*nout = n;
	return 0;
}

static int replay_observe(void *ud_, const ms_pw_state *s)
{
	replay_ud *ud = ud_;
	int k = ud->k++;
	if (k >= ud->nturns) {
		snprintf(ud->msg, sizeof ud->msg, "turn %d: native game goes on, the playback has %d turns", k + 1,
			 ud->nturns);
		return 1;
	}
	const pb_turn *t = &ud->turns[k];
	int np = ms_pw_num_planets(s);
	for (int i = 0; i < np; i++) {
		const ms_pw_planet *p = ms_pw_planet_at(s, i);
		if (p->owner != t->planets[2 * i] || p->ships != t->planets[2 * i + 1]) {
			snprintf(ud->msg, sizeof ud->msg, "turn %d: planet %d official %d.%d native %d.%d", k + 1, i,
				 t->planets[2 * i], t->planets[2 * i + 1], p->owner, p->ships);
			return 1;
		}
	}
	int nf = ms_pw_num_fleets(s);
	pb_fleet *mine = malloc((size_t)(nf ? nf : 1) * sizeof *mine);
	if (!mine) {
		snprintf(ud->msg, sizeof ud->msg, "turn %d: out of memory for %d fleets", k + 1, nf);
		return 1;
	}
	for (int i = 0; i < nf; i++) {
		const ms_pw_fleet *f = ms_pw_fleet_at(s, i);
		mine[i] = (pb_fleet){ { f->owner, f->ships, f->source, f->dest, f->total, f->remaining } };
	}
	qsort(mine, (size_t)nf, sizeof *mine, cmp_fleet);
	int bad = nf != t->nf;
	for (int i = 0; !bad && i < nf; i++)
		bad = cmp_fleet(&mine[i], &t->fleets[i]) != 0;
	if (bad) {
		int i = 0;
		while (i < nf && i < t->nf && !cmp_fleet(&mine[i], &t->fleets[i]))
			i++;
		char a[96] = "none", b[96] = "none";
		if (i < t->nf)
			snprintf(a, sizeof a, "%d.%d.%d.%d.%d.%d", t->fleets[i].v[0], t->fleets[i].v[1], t->fleets[i].v[2],
				 t->fleets[i].v[3], t->fleets[i].v[4], t->fleets[i].v[5]);
		if (i < nf)
			snprintf(b, sizeof b, "%d.%d.%d.%d.%d.%d", mine[i].v[0], mine[i].v[1], mine[i].v[2], mine[i].v[3],
				 mine[i].v[4], mine[i].v[5]);
		snprintf(ud->msg, sizeof ud->msg, "turn %d: fleets differ (official %d, native %d); first difference: official %s native %s",
			 k + 1, t->nf, nf, a, b);
	}
	free(mine);
	return bad;
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
	size_t n = 0, cap = 64;
	char **names = malloc(cap * sizeof *names);
	*oom = !names;
	for (struct dirent *e; !*oom && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 12 && !strcmp(e->d_name + l - 12, ".playback.gz")) {
			if (n == cap) {
				char **nn = realloc(names, cap * 2 * sizeof *names);
				if (!(*oom = !nn))
					names = nn, cap *= 2;
			}
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
	if (pw_make_bot(ctx, a, 1, &p1) || pw_make_bot(ctx, b, 2, &p2)) {
		fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
		st->bad_input++;
		return;
	}
	st->games++;
	int rc = ms_pw_play(ctx, map, &p1, &p2, (int)max_turns, replay_observe, ud, &res);
	if (rc < 0) {
		snprintf(ud->msg, sizeof ud->msg, "error: %s", ms_ctx_last_error(ctx));
	} else if (!rc && !ud->msg[0]) {
		if (res.turns != ud->nturns || res.turns != rturns || res.winner != rwinner)
			snprintf(ud->msg, sizeof ud->msg,
				 "result: official turns=%d (playback %d) winner=%d, native turns=%d winner=%d%s", rturns,
				 ud->nturns, rwinner, res.turns, res.winner, res.forfeit ? " (forfeit)" : "");
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
	char *text = read_gz(path, &len);
	int rturns, rwinner;
	snprintf(path, sizeof path, "%s/%s.result", dir, base);
	char err[256] = "";
	replay_ud ud = { 0 };
	if (!text) {
		fprintf(stderr, "%s: cannot read the playback\n", base);
		st->bad_input++;
	} else if (read_result(path, &rturns, &rwinner)) {
		fprintf(stderr, "%s: cannot read turns= and the winner line\n", path);
		st->bad_input++;
	} else if (parse_playback(text, ms_pw_num_planets(map), &ud.turns, &ud.nturns, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", base, err);
		st->bad_input++;
	} else {
		replay_play(ctx, map, base, a, b, max_turns, rturns, rwinner, &ud, st);
		free_turns(ud.turns, ud.nturns);
	}
	free(text);
	ms_pw_state_free(ctx, map);
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
