/*
 * microsynth planetwars: replay the official engine's playbacks with the
 * native bots, native matches, a bot speaking the official protocol on
 * stdin/stdout, the seed report's GA and the evolved-vs-original tournament.
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
#include <zlib.h>

#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "cli.h"
#include "synth_front.h"

#define CMD "planetwars"

extern char **environ;

/* A context, or NULL after saying so on stderr. */
static ms_ctx *new_ctx(void)
{
	ms_ctx *ctx = NULL;
	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth %s: out of memory for a context\n", CMD);
		return NULL;
	}
	return ctx;
}

/* Says on stderr that an allocation failed; CLI_FAIL. */
static int out_of_memory(const char *what)
{
	fprintf(stderr, "microsynth %s: out of memory (%s)\n", CMD, what);
	return CLI_FAIL;
}


void cmd_planetwars_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth planetwars replay DIR [--maps DIR] [--limit N] [--max-turns N]\n"
		"       microsynth planetwars play --map FILE|N --p1 BOT --p2 BOT [--max-turns N] [--seed S] [--maps DIR]\n"
		"       microsynth planetwars bot BOT [--seed S]\n"
		"       microsynth planetwars evolve --out DIR [--generations N | --time T] [--seed S] [--threads N]\n"
		"                [--population 60] [--players 6] [--maps-per-pair 10] [--p-champion 0.7]\n"
		"                [--champions 20] [--crossovers 60] [--mutation 0.04] [--init-range 1]\n"
		"                [--eval-maps 20] [--max-turns 200] [--maps DIR]\n"
		"       microsynth planetwars tournament --p1 BOT --p2 BOT [--maps DIR] [--seed S] [--max-turns N]\n"
		"       microsynth planetwars bench [--games N] [--p1 BOT] [--p2 BOT] [--maps DIR]\n"
		"       microsynth planetwars bench --official STARTER_DIR [--games N] [--maps DIR]\n"
		"       microsynth planetwars plot DIR/evolve.csv -o FILE.svg\n\n"
		"replay      for every mapM_A_B.playback.gz (+ .result) in DIR, plays A vs B natively on\n"
		"            maps/mapM.txt (--maps, default DIR/../maps) and compares every turn: planets\n"
		"            exactly, fleets as a multiset, then turns and winner. Prints the first\n"
		"            divergence of each game. Last line: games=N divergences=D (exit 1 if D > 0).\n"
		"play        one native match; last line: winner= turns= ships1= ships2= forfeit=\n"
		"bot         speaks the official protocol: reads states ending in 'go', answers orders\n"
		"            and 'go' (for tools/PlayGame.jar: \"microsynth planetwars bot Forecast\").\n"
		"evolve      the seed report's GA (every constant an option; the report's 120 children\n"
		"            are kept, not its later \"hundred\"). Checkpoint DIR/gen_NNNN.txt per\n"
		"            generation (resumes from the last), DIR/evolve.csv, DIR/best.txt.\n"
		"            Deterministic per seed whatever --threads. --generations N counts from\n"
		"            generation 0 (a resume plays the rest); --time stops between generations.\n"
		"tournament  p1 vs p2 on every map of --maps, both seats; last line: wins= draws= losses=\n"
		"            (of p1) games= plus per seat.\n"
		"bench       native games per second (one thread). With --official (a checkout of the\n"
		"            starter package): the same example-bot games in tools/PlayGame.jar, one\n"
		"            by one, and natively; last line ends ratio= (native / official games per s).\n"
		"plot        the GA's win rate per generation (vs the original, and in its tournaments).\n\n"
		"BOT: BullyBot, DualBot, ProspectorBot, RageBot, RandomBot (seeded by --seed),\n"
		"     Forecast (the hand-weighted original), Forecast:FILE (32 parameters) or\n"
		"     program:FILE (a gain program of `microsynth synth --game planetwars`).\n"
		"Maps default to $MS_SHARED_DIR/data/planetwars/maps or ../shared beside the build.\n");
}

/* ---- shared helpers ---- */

static int pw_data_dir(const char *sub, char *out, size_t size)
{
	const char *env = getenv("MS_SHARED_DIR");
	if (env && *env) {
		snprintf(out, size, "%s/data/planetwars/%s", env, sub);
		struct stat st;
		if (!stat(out, &st))
			return 0;
	}
	char exe[4096];
	if (cli_exe_dir(exe, sizeof exe) == 0) {
		static const char *const rel[] = { "/../../../shared/data/planetwars/", "/../../shared/data/planetwars/" };
		for (size_t i = 0; i < 2; i++) {
			snprintf(out, size, "%s%s%s", exe, rel[i], sub);
			struct stat st;
			if (!stat(out, &st))
				return 0;
		}
	}
	return -1;
}

/* A DSL program as a bot that owns its grammar and program. */
typedef struct owned_prog {
	ms_dsl_grammar *g;
	ms_dsl_prog *prog;
	ms_pw_bot inner;
} owned_prog;

static int owned_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	owned_prog *o = ud;
	return o->inner.turn(ctx, o->inner.ud, v, out);
}

static void owned_release(ms_ctx *ctx, void *ud)
{
	owned_prog *o = ud;
	ms_pw_bot_release(ctx, &o->inner);
	ms_dsl_prog_free(o->prog);
	ms_dsl_grammar_free(o->g);
	free(o);
}

static int program_bot(ms_ctx *ctx, const char *path, ms_pw_bot *out)
{
	owned_prog *o = calloc(1, sizeof *o);
	if (!o)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory");
	int rc = ms_pw_dsl_grammar_new(ctx, &o->g);
	if (!rc)
		rc = ms_dsl_prog_new(ctx, &o->prog, o->g);
	if (!rc)
		rc = ms_pw_dsl_load(ctx, o->prog, path);
	if (!rc)
		rc = ms_pw_bot_program(ctx, &o->inner, o->prog);
	if (rc) {
		ms_dsl_prog_free(o->prog);
		ms_dsl_grammar_free(o->g);
		free(o);
		return rc;
	}
	*out = (ms_pw_bot){ "program", o, owned_turn, owned_release };
	return MS_OK;
}

/* A bot by name, Forecast:FILE (32 parameters) or program:FILE (a DSL program). */
static int make_bot(ms_ctx *ctx, const char *spec, uint64_t seed, ms_pw_bot *out)
{
	if (!strncmp(spec, "program:", 8))
		return program_bot(ctx, spec + 8, out);
	if (!strncmp(spec, "Forecast:", 9)) {
		double p[MS_PW_FORECAST_PARAMS];
		int rc = ms_pw_forecast_load(ctx, spec + 9, p);
		if (rc)
			return rc;
		return ms_pw_bot_forecast(ctx, out, p);
	}
	return ms_pw_bot_by_name(ctx, out, spec, seed);
}

static int load_map(ms_ctx *ctx, const char *maps_dir, const char *map, ms_pw_state **out)
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

static int run_replay(int argc, char **argv)
{
	const char *dir = NULL, *maps = NULL;
	long limit = -1, max_turns = 200;
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
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, dir, strerror(errno));
		return CLI_USAGE;
	}
	size_t n = 0, cap = 64;
	char **names = malloc(cap * sizeof *names);
	int oom = !names;
	for (struct dirent *e; !oom && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 12 && !strcmp(e->d_name + l - 12, ".playback.gz")) {
			if (n == cap) {
				char **nn = realloc(names, cap * 2 * sizeof *names);
				if (!(oom = !nn))
					names = nn, cap *= 2;
			}
			if (!oom && !(oom = !(names[n] = strdup(e->d_name))))
				n++;
		}
	}
	closedir(d);
	ms_ctx *ctx = oom ? NULL : new_ctx();
	if (!ctx) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return oom ? out_of_memory("the playback names") : CLI_FAIL;
	}
	qsort(names, n, sizeof *names, cmp_str);
	long games = 0, divergences = 0, bad_input = 0, total_turns = 0;
	double t0 = cli_now();
	for (size_t i = 0; i < n && (limit < 0 || games < limit); i++) {
		char base[1024], a[128], b[128], path[8192];
		int mapno;
		snprintf(base, sizeof base, "%.*s", (int)(strlen(names[i]) - 12), names[i]);
		char *u1 = strchr(base, '_'), *u2 = u1 ? strchr(u1 + 1, '_') : NULL;
		if (sscanf(base, "map%d_", &mapno) != 1 || !u1 || !u2 || strchr(u2 + 1, '_')) {
			fprintf(stderr, "%s: name is not mapM_A_B.playback.gz\n", names[i]);
			bad_input++;
			continue;
		}
		snprintf(a, sizeof a, "%.*s", (int)(u2 - u1 - 1), u1 + 1);
		snprintf(b, sizeof b, "%s", u2 + 1);
		char mapname[32];
		snprintf(mapname, sizeof mapname, "%d", mapno);
		ms_pw_state *map = NULL;
		if (load_map(ctx, maps, mapname, &map)) {
			fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
			bad_input++;
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		size_t len;
		char *text = read_gz(path, &len);
		int rturns, rwinner;
		snprintf(path, sizeof path, "%s/%s.result", dir, base);
		char err[256] = "";
		replay_ud ud = { 0 };
		if (!text) {
			fprintf(stderr, "%s: cannot read the playback\n", base);
			bad_input++;
		} else if (read_result(path, &rturns, &rwinner)) {
			fprintf(stderr, "%s: cannot read turns= and the winner line\n", path);
			bad_input++;
		} else if (parse_playback(text, ms_pw_num_planets(map), &ud.turns, &ud.nturns, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", base, err);
			bad_input++;
		} else {
			ms_pw_bot p1, p2;
			ms_pw_result res;
			games++;
			if (make_bot(ctx, a, 1, &p1) || make_bot(ctx, b, 2, &p2)) {
				fprintf(stderr, "%s: %s\n", base, ms_ctx_last_error(ctx));
				bad_input++;
				games--;
			} else {
				int rc = ms_pw_play(ctx, map, &p1, &p2, (int)max_turns, replay_observe, &ud, &res);
				if (rc < 0) {
					snprintf(ud.msg, sizeof ud.msg, "error: %s", ms_ctx_last_error(ctx));
				} else if (!rc && !ud.msg[0]) {
					if (res.turns != ud.nturns || res.turns != rturns || res.winner != rwinner)
						snprintf(ud.msg, sizeof ud.msg,
							 "result: official turns=%d (playback %d) winner=%d, native turns=%d winner=%d%s",
							 rturns, ud.nturns, rwinner, res.turns, res.winner,
							 res.forfeit ? " (forfeit)" : "");
				}
				total_turns += ud.k;
				if (ud.msg[0]) {
					divergences++;
					printf("DIVERGE %s: %s\n", base, ud.msg);
				}
				ms_pw_bot_release(ctx, &p1);
				ms_pw_bot_release(ctx, &p2);
			}
			free_turns(ud.turns, ud.nturns);
		}
		free(text);
		ms_pw_state_free(ctx, map);
	}
	double secs = cli_now() - t0;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ms_ctx_free(ctx);
	if (games == 0 && !bad_input) {
		fprintf(stderr, "microsynth %s: no *.playback.gz in %s\n", CMD, dir);
		return CLI_USAGE;
	}
	printf("turns=%ld seconds=%.3f bad_input=%ld games=%ld divergences=%ld\n", total_turns, secs, bad_input, games,
	       divergences);
	if (bad_input)
		return CLI_USAGE;
	return divergences ? CLI_FAIL : CLI_OK;
}

/* ---- play ---- */

/* The options `play` and `tournament` share; `map` only for play. */
typedef struct {
	const char *map, *a, *b, *maps;
	long max_turns, seed;
} pw_match_opts;

static int parse_match_opts(int argc, char **argv, const char *sub, int want_map, pw_match_opts *o)
{
	*o = (pw_match_opts){ .max_turns = 200, .seed = 1 };
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

static int run_play(int argc, char **argv)
{
	pw_match_opts o;
	if (parse_match_opts(argc, argv, "play", 1, &o))
		return CLI_USAGE;
	const char *map = o.map, *a = o.a, *b = o.b, *maps = o.maps;
	long max_turns = o.max_turns, seed = o.seed;
	if (!map || !a || !b)
		return cli_usage_error(CMD, "play needs --map, --p1 and --p2");
	char mapsbuf[4096];
	if (!maps && !pw_data_dir("maps", mapsbuf, sizeof mapsbuf))
		maps = mapsbuf;
	ms_ctx *ctx = new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_state *m = NULL;
	ms_pw_bot p1 = { 0 }, p2 = { 0 };
	int ret = CLI_USAGE;
	if (load_map(ctx, maps, map, &m) || make_bot(ctx, a, (uint64_t)seed, &p1) ||
	    make_bot(ctx, b, (uint64_t)seed + 1, &p2)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
	} else {
		ms_pw_result r;
		if (ms_pw_play(ctx, m, &p1, &p2, (int)max_turns, NULL, NULL, &r)) {
			fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
			ret = CLI_FAIL;
		} else {
			if (r.forfeit)
				fprintf(stderr, "forfeit: %s\n", ms_ctx_last_error(ctx));
			printf("winner=%d turns=%d ships1=%d ships2=%d forfeit=%d\n", r.winner, r.turns, r.ships[1],
			       r.ships[2], r.forfeit);
			ret = CLI_OK;
		}
	}
	ms_pw_bot_release(ctx, &p1);
	ms_pw_bot_release(ctx, &p2);
	ms_pw_state_free(ctx, m);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- bot (the official protocol on stdin/stdout) ---- */

static int run_bot(int argc, char **argv)
{
	const char *name = NULL;
	long seed = 1;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647L, &seed))
				return CLI_USAGE;
		} else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "bot: unknown option '%s'", argv[i]);
		else
			name = argv[i];
	}
	if (!name)
		return cli_usage_error(CMD, "bot: which bot?");
	ms_ctx *ctx = new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_bot bot;
	ms_pw_orders *ord = NULL;
	if (make_bot(ctx, name, (uint64_t)seed, &bot) || ms_pw_orders_new(ctx, &ord)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	size_t cap = 1 << 14, len = 0;
	char *msg = malloc(cap);
	char line[4096];
	int ret = msg ? CLI_OK : out_of_memory("the state buffer"), turn = 0;
	while (msg && fgets(line, sizeof line, stdin)) {
		size_t l = strlen(line);
		char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, "go", 2) && (t[2] == '\n' || t[2] == '\r' || t[2] == 0 || t[2] == ' ')) {
			msg[len] = 0;
			ms_pw_state *s = NULL;
			char what[64];
			snprintf(what, sizeof what, "state of turn %d", ++turn);
			if (ms_pw_state_parse(ctx, &s, msg, what)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ret = CLI_USAGE;
				break;
			}
			ms_pw_orders_clear(ord);
			if (bot.turn(ctx, bot.ud, s, ord)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ms_pw_state_free(ctx, s);
				ret = CLI_FAIL;
				break;
			}
			for (int i = 0; i < ms_pw_orders_count(ord); i++) {
				const ms_pw_order *o = ms_pw_orders_at(ord, i);
				printf("%d %d %d\n", o->source, o->dest, o->ships);
			}
			printf("go\n");
			fflush(stdout);
			ms_pw_state_free(ctx, s);
			len = 0;
			continue;
		}
		if (len + l + 1 > cap) {
			while (len + l + 1 > cap)
				cap *= 2;
			char *nm = realloc(msg, cap);
			if (!nm) {
				ret = out_of_memory("a state of more than 16 MiB");
				break;
			}
			msg = nm;
		}
		memcpy(msg + len, line, l);
		len += l;
	}
	free(msg);
	ms_pw_orders_free(ctx, ord);
	ms_pw_bot_release(ctx, &bot);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- GA, tournament, bench ---- */

static void free_maps(ms_ctx *ctx, ms_pw_state **v, int n);

/* Every mapN.txt of `dir`, N = 1, 2, ... while they exist. */
static int load_maps(ms_ctx *ctx, const char *dir, ms_pw_state ***out, int *n)
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
		if (k == cap) {
			cap *= 2;
			ms_pw_state **nv = realloc(v, (size_t)cap * sizeof *nv);
			if (!nv) {
				free_maps(ctx, v, k);
				return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for %d maps", dir, cap);
			}
			v = nv;
		}
		if (ms_pw_state_load(ctx, &v[k], path)) {
			for (int j = 0; j < k; j++)
				ms_pw_state_free(ctx, v[j]);
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

static void free_maps(ms_ctx *ctx, ms_pw_state **v, int n)
{
	for (int i = 0; i < n; i++)
		ms_pw_state_free(ctx, v[i]);
	free(v);
}

static const char *maps_default(const char *maps, char *buf, size_t size)
{
	if (maps)
		return maps;
	if (!pw_data_dir("maps", buf, size))
		return buf;
	return NULL;
}


typedef struct evolve_ud {
	const char *out;
	const ms_pw_ga_options *o;
	double t0, budget;
	FILE *csv;
	int generations_done;
	long games;
	double last_vs;
} evolve_ud;

static int write_params(FILE *f, const double *p)
{
	for (int i = 0; i < MS_PW_FORECAST_PARAMS; i++)
		fprintf(f, "%.17g%s", p[i], i % 4 == 3 ? "\n" : " ");
	return 0;
}

static int write_checkpoint(const char *dir, int gen, const ms_pw_ga_options *o, const double *pop, const uint64_t *rng)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/gen_%04d.txt", dir, gen);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "# microsynth planetwars GA checkpoint: the population at the start of generation %d\n", gen);
	fprintf(f, "generation %d\npopulation %d\nrng %llu %llu %llu %llu\n", gen, o->population,
		(unsigned long long)rng[0], (unsigned long long)rng[1], (unsigned long long)rng[2],
		(unsigned long long)rng[3]);
	for (int i = 0; i < o->population; i++) {
		for (int k = 0; k < MS_PW_FORECAST_PARAMS; k++)
			fprintf(f, "%.17g%c", pop[i * MS_PW_FORECAST_PARAMS + k], k == MS_PW_FORECAST_PARAMS - 1 ? '\n' : ' ');
	}
	int bad = ferror(f);
	bad |= fclose(f);
	if (bad || rename(tmp, path))
		return -1;
	return 0;
}

static int read_checkpoint(const char *path, int population, int *gen, double *pop, uint64_t *rng)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1 << 14];
	int p = -1, ok = 0, row = 0;
	unsigned long long r[4];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "generation %d", gen) == 1)
			continue;
		if (sscanf(line, "population %d", &p) == 1)
			continue;
		if (sscanf(line, "rng %llu %llu %llu %llu", &r[0], &r[1], &r[2], &r[3]) == 4) {
			ok = 1;
			continue;
		}
		if (p != population || row >= population)
			break;
		char *c = line;
		for (int k = 0; k < MS_PW_FORECAST_PARAMS; k++) {
			char *e;
			pop[row * MS_PW_FORECAST_PARAMS + k] = strtod(c, &e);
			if (e == c) {
				fclose(f);
				return -1;
			}
			c = e;
		}
		row++;
	}
	fclose(f);
	if (!ok || p != population || row != population)
		return -1;
	for (int i = 0; i < 4; i++)
		rng[i] = r[i];
	return 0;
}

static int on_generation(void *ud_, const ms_pw_ga_generation *g)
{
	evolve_ud *u = ud_;
	if (write_checkpoint(u->out, g->generation + 1, u->o, g->population, g->rng)) {
		fprintf(stderr, "microsynth %s: cannot write the checkpoint in %s\n", CMD, u->out);
		return MS_EIO;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/best.txt", u->out);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "# best of generation %d: tournament win rate %.4f, vs original %.4f\n", g->generation,
			g->best_rate, g->vs_original);
		write_params(f, g->best_params);
		fclose(f);
	}
	fprintf(u->csv, "%d,%ld,%d,%.6f,%.6f,%.6f,%.3f\n", g->generation, g->games, g->best, g->best_rate,
		g->vs_original, g->diversity, g->seconds);
	fflush(u->csv);
	u->generations_done++;
	u->games += g->games;
	u->last_vs = g->vs_original;
	double el = cli_now() - u->t0;
	fprintf(stderr, "gen %d: best=%d rate=%.3f vs_original=%.3f diversity=%.3f %.1fs (total %.0fs)\n",
		g->generation, g->best, g->best_rate, g->vs_original, g->diversity, g->seconds, el);
	if (u->budget > 0 && el + g->seconds > u->budget)
		return 1; /* the next generation would not fit */
	return 0;
}

static int run_evolve(int argc, char **argv)
{
	ms_pw_ga_options o;
	ms_pw_ga_defaults(&o);
	const char *out = NULL, *maps = NULL;
	long generations = -1, v;
	double budget = 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!val)
			return cli_usage_error(CMD, "evolve: '%s' needs a value or is unknown", a);
		i++;
		char *end;
		if (!strcmp(a, "--out"))
			out = val;
		else if (!strcmp(a, "--maps"))
			maps = val;
		else if (!strcmp(a, "--time")) {
			if (synth_parse_duration(val, &budget))
				return CLI_USAGE;
		} else if (!strcmp(a, "--p-champion") || !strcmp(a, "--mutation") || !strcmp(a, "--init-range")) {
			double d = strtod(val, &end);
			if (end == val || *end)
				return cli_usage_error(CMD, "evolve: %s '%s' is not a number", a, val);
			if (!strcmp(a, "--p-champion"))
				o.p_champion = d;
			else if (!strcmp(a, "--mutation"))
				o.mutation = d;
			else
				o.init_range = d;
		} else {
			static const char *const names[] = { "--generations", "--seed", "--threads", "--population", "--players",
							     "--maps-per-pair", "--champions", "--crossovers", "--eval-maps",
							     "--max-turns" };
			int k = -1;
			for (int j = 0; j < 10; j++)
				if (!strcmp(a, names[j]))
					k = j;
			if (k < 0)
				return cli_usage_error(CMD, "evolve: unknown option '%s'", a);
			if (cli_parse_int(CMD, a, val, 0, 2147483647L, &v))
				return CLI_USAGE;
			switch (k) {
			case 0: generations = v; break;
			case 1: o.seed = (uint64_t)v; break;
			case 2: o.threads = (int)v; break;
			case 3: o.population = (int)v; break;
			case 4: o.players = (int)v; break;
			case 5: o.maps_per_pair = (int)v; break;
			case 6: o.champions = (int)v; break;
			case 7: o.crossovers = (int)v; break;
			case 8: o.eval_maps = (int)v; break;
			default: o.max_turns = (int)v; break;
			}
		}
	}
	if (!out)
		return cli_usage_error(CMD, "evolve needs --out DIR");
	if (generations < 0 && budget <= 0)
		return cli_usage_error(CMD, "evolve needs --generations N or --time T");
	if (generations < 0)
		generations = 1000000;
	char mbuf[4096];
	maps = maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "evolve: no maps (--maps DIR or MS_SHARED_DIR)");
	ms_ctx *ctx = new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_state **mv = NULL;
	int nm = 0;
	if (load_maps(ctx, maps, &mv, &nm)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	char mk[4096];
	snprintf(mk, sizeof mk, "%s", out);
	for (char *c = mk + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(mk, 0777);
			*c = '/';
		}
	mkdir(mk, 0777);
	double *pop = malloc((size_t)o.population * MS_PW_FORECAST_PARAMS * sizeof(double) + 1);
	uint64_t rng[4] = { 0, 0, 0, 0 };
	int first = 0, ret = CLI_OK;
	if (!pop) {
		ret = out_of_memory("the population");
		goto done;
	}
	/* resume from the last checkpoint */
	DIR *d = opendir(out);
	int last = -1;
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			int g;
			char tail[8];
			if (sscanf(e->d_name, "gen_%d.tx%1s", &g, tail) == 2 && g > last)
				last = g;
		}
		closedir(d);
	}
	char path[4096];
	if (last >= 0) {
		snprintf(path, sizeof path, "%s/gen_%04d.txt", out, last);
		if (read_checkpoint(path, o.population, &first, pop, rng)) {
			fprintf(stderr, "microsynth %s: %s is not a checkpoint of a population of %d\n", CMD, path,
				o.population);
			ret = CLI_USAGE;
			goto done;
		}
		fprintf(stderr, "resuming from %s (generation %d)\n", path, first);
	} else {
		ms_pw_ga_seed(rng, o.seed);
		ms_pw_ga_init_population(&o, rng, pop);
		if (write_checkpoint(out, 0, &o, pop, rng)) {
			fprintf(stderr, "microsynth %s: cannot write in %s\n", CMD, out);
			ret = CLI_USAGE;
			goto done;
		}
	}
	snprintf(path, sizeof path, "%s/evolve.csv", out);
	int fresh = !cli_is_file(path);
	evolve_ud u = { .out = out, .o = &o, .t0 = cli_now(), .budget = budget };
	u.csv = fopen(path, "a");
	if (!u.csv) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, path);
		ret = CLI_USAGE;
		goto done;
	}
	if (fresh)
		fprintf(u.csv, "generation,games,best,best_rate,vs_original,diversity,seconds\n");
	int todo = (int)(generations > first ? generations - first : 0);
	if (budget > 0 && generations == 1000000)
		todo = 1000000;
	int rc = ms_pw_ga_run(ctx, &o, (const ms_pw_state *const *)mv, nm, pop, rng, first, todo, on_generation, &u);
	fclose(u.csv);
	if (rc < 0) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ret = rc == MS_EINVAL ? CLI_USAGE : CLI_FAIL;
		goto done;
	}
	printf("generations=%d last_generation=%d games=%ld seconds=%.1f vs_original=%.4f best=%s/best.txt\n",
	       u.generations_done, first + u.generations_done - 1, u.games, cli_now() - u.t0, u.last_vs, out);
done:
	free(pop);
	free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}

static int run_tournament(int argc, char **argv)
{
	pw_match_opts o;
	if (parse_match_opts(argc, argv, "tournament", 0, &o))
		return CLI_USAGE;
	const char *a = o.a, *b = o.b, *maps = o.maps;
	long max_turns = o.max_turns, seed = o.seed;
	if (!a || !b)
		return cli_usage_error(CMD, "tournament needs --p1 and --p2");
	char mbuf[4096];
	maps = maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "tournament: no maps (--maps DIR or MS_SHARED_DIR)");
	ms_ctx *ctx = new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_state **mv = NULL;
	int nm = 0, ret = CLI_OK;
	if (load_maps(ctx, maps, &mv, &nm)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	int wdl[2][3] = { { 0 } };
	double t0 = cli_now();
	for (int m = 0; m < nm && ret == CLI_OK; m++)
		for (int seat = 0; seat < 2; seat++) {
			ms_pw_bot x = { 0 }, y = { 0 };
			ms_pw_result r;
			if (make_bot(ctx, a, (uint64_t)seed + 2 * m, &x) || make_bot(ctx, b, (uint64_t)seed + 2 * m + 1, &y)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ms_pw_bot_release(ctx, &x);
				ret = CLI_USAGE;
				break;
			}
			int rc = seat == 0 ? ms_pw_play(ctx, mv[m], &x, &y, (int)max_turns, NULL, NULL, &r)
					   : ms_pw_play(ctx, mv[m], &y, &x, (int)max_turns, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			if (rc) {
				fprintf(stderr, "microsynth %s: map %d: %s\n", CMD, m + 1, ms_ctx_last_error(ctx));
				ret = CLI_FAIL;
				break;
			}
			int mine = seat == 0 ? 1 : 2;
			wdl[seat][r.winner == mine ? 0 : r.winner == 0 ? 1 : 2]++;
		}
	if (ret == CLI_OK)
		printf("seat1=%d-%d-%d seat2=%d-%d-%d seconds=%.2f wins=%d draws=%d losses=%d games=%d\n", wdl[0][0],
		       wdl[0][1], wdl[0][2], wdl[1][0], wdl[1][1], wdl[1][2], cli_now() - t0, wdl[0][0] + wdl[1][0],
		       wdl[0][1] + wdl[1][1], wdl[0][2] + wdl[1][2], 2 * nm);
	free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}

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
	char *argv[] = { "java", "-jar", jar, (char *)map, "1000", "200", "/dev/null", cmd_a, cmd_b, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc = -1, status = 0;
	double t0 = cli_now();
	if (!posix_spawn_file_actions_init(&fa)) {
		if (!posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) &&
		    !posix_spawn_file_actions_adddup2(&fa, fd, 2) && !posix_spawnp(&pid, "java", &fa, NULL, argv, environ)) {
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		} else {
			fprintf(stderr, "microsynth %s: cannot start java for %s: %s\n", CMD, jar, strerror(errno));
		}
		posix_spawn_file_actions_destroy(&fa);
	}
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
static int run_bench(int argc, char **argv)
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
	maps = maps_default(maps, mbuf, sizeof mbuf);
	if (!maps)
		return cli_usage_error(CMD, "bench: no maps (--maps DIR or MS_SHARED_DIR)");
	if (official && strchr(official, ' '))
		return cli_usage_error(CMD, "bench: PlayGame splits the bots' commands at spaces: a starter path "
					    "with a space is not supported");
	if (official && !games_set)
		games = 8;
	ms_ctx *ctx = new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_state **mv = NULL;
	int nm = 0, ret = CLI_OK;
	if (load_maps(ctx, maps, &mv, &nm)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
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
			if (make_bot(ctx, x_name, (uint64_t)g, &x) || make_bot(ctx, y_name, (uint64_t)g + 1, &y) ||
			    ms_pw_play(ctx, mv[m], &x, &y, 200, NULL, NULL, &r)) {
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
			make_bot(ctx, x_name, 0, &x);
			make_bot(ctx, y_name, 0, &y);
			ms_pw_play(ctx, mv[(mapno - 1) % nm], &x, &y, 200, NULL, NULL, &r);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
			mismatches += r.turns != ot || r.winner != ow;
		}
		if (ret == CLI_OK)
			printf("games=%ld official_seconds=%.2f official_games_per_s=%.3f native_games_per_s=%.1f "
			       "result_mismatches=%d ratio=%.0f\n",
			       games, osecs, games / osecs, native_gps, mismatches, native_gps / (games / osecs));
	}
	free_maps(ctx, mv, nm);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- plot: the GA's CSV as an SVG ---- */

static int run_plot(int argc, char **argv)
{
	const char *csv = NULL, *out = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "plot: unknown option '%s'", argv[i]);
		else
			csv = argv[i];
	}
	if (!csv || !out)
		return cli_usage_error(CMD, "plot needs CSV and -o FILE.svg");
	FILE *f = fopen(csv, "r");
	if (!f) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, csv, strerror(errno));
		return CLI_USAGE;
	}
	int cap = 256, n = 0, lineno = 0;
	double *gx = malloc((size_t)cap * sizeof *gx), *vs = malloc((size_t)cap * sizeof *vs),
	       *br = malloc((size_t)cap * sizeof *br);
	char line[512];
	while (gx && vs && br && fgets(line, sizeof line, f)) {
		lineno++;
		if (lineno == 1 && !strncmp(line, "generation,", 11))
			continue;
		int g, best;
		long games;
		double rate, v, div, secs;
		if (sscanf(line, "%d,%ld,%d,%lf,%lf,%lf,%lf", &g, &games, &best, &rate, &v, &div, &secs) != 7) {
			fprintf(stderr, "microsynth %s: %s:%d: not a line of evolve.csv\n", CMD, csv, lineno);
			fclose(f);
			free(gx);
			free(vs);
			free(br);
			return CLI_USAGE;
		}
		if (n == cap) {
			double *col[3] = { gx, vs, br };
			for (int k = 0; k < 3; k++) {
				double *nc = realloc(col[k], (size_t)cap * 2 * sizeof(double));
				if (nc)
					col[k] = nc;
				else
					free(col[k]), col[k] = NULL;
			}
			gx = col[0], vs = col[1], br = col[2];
			if (!gx || !vs || !br)
				break;
			cap *= 2;
		}
		gx[n] = g;
		vs[n] = v;
		br[n] = rate;
		n++;
	}
	fclose(f);
	if (!gx || !vs || !br) {
		free(gx);
		free(vs);
		free(br);
		return out_of_memory("the generations of the CSV");
	}
	FILE *o = n > 0 ? fopen(out, "w") : NULL;
	if (!o) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, n ? "cannot write the SVG" : "no generations in the CSV");
		free(gx);
		free(vs);
		free(br);
		return CLI_USAGE;
	}
	const double W = 640, H = 360, L = 50, R = 20, T = 30, B = 40;
	double xmax = gx[n - 1] > 1 ? gx[n - 1] : 1;
#define PX(x) (L + (x) / xmax * (W - L - R))
#define PY(y) (H - B - (y) * (H - T - B))
	fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
	fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(o, "<text x=\"%.0f\" y=\"18\">Planet Wars GA: best of each generation vs the original (solid), its tournament win rate (dashed)</text>\n", L);
	for (int k = 0; k <= 4; k++) {
		double y = k / 4.0;
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", PX(0), PY(y), PX(xmax), PY(y));
		fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", L - 4, PY(y) + 4, y);
	}
	fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">generation (0..%.0f)</text>\n", (L + W - R) / 2, H - 10, xmax);
	const double *ys[2] = { vs, br };
	for (int k = 0; k < 2; k++) {
		fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"", k ? "#888" : "#1f5fbf",
			k ? " stroke-dasharray=\"4 3\"" : "");
		for (int i = 0; i < n; i++)
			fprintf(o, "%.1f,%.1f ", PX(gx[i]), PY(ys[k][i]));
		fprintf(o, "\"/>\n");
	}
	fprintf(o, "</svg>\n");
#undef PX
#undef PY
	int bad = fclose(o);
	free(gx);
	free(vs);
	free(br);
	if (bad) {
		fprintf(stderr, "microsynth %s: cannot write %s\n", CMD, out);
		return CLI_USAGE;
	}
	printf("generations=%d svg=%s\n", n, out);
	return CLI_OK;
}

int cmd_planetwars(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cmd_planetwars_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	if (!strcmp(argv[1], "replay"))
		return run_replay(argc, argv);
	if (!strcmp(argv[1], "play"))
		return run_play(argc, argv);
	if (!strcmp(argv[1], "bot"))
		return run_bot(argc, argv);
	if (!strcmp(argv[1], "evolve"))
		return run_evolve(argc, argv);
	if (!strcmp(argv[1], "tournament"))
		return run_tournament(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return run_bench(argc, argv);
	if (!strcmp(argv[1], "plot"))
		return run_plot(argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s' (replay, play, bot, evolve, tournament, bench, plot)", argv[1]);
}
