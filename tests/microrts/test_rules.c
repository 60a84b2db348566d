/*
 * Rule fixtures: each file in tests/microrts/rules/ is a small scenario (an
 * ASCII map, actions, cycles) with expectations, one cmocka test per file.
 * The format is described in tests/README.md ("Rule fixtures").
 */
#include "support/testutil.h"

#include <dirent.h>
#include <stdio.h>

#include "microsynth/microrts.h"

#define MAX_PAIRS 64

typedef struct fixture {
	const char *path;
	int line;
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_rts_pair pending[2][MAX_PAIRS];
	int npending[2];
	int version, policy;
	int64_t seed;
} fixture;

#define FAIL(f, ...)                                                 \
	do {                                                         \
		print_error("%s:%d: ", (f)->path, (f)->line);        \
		print_error(__VA_ARGS__);                            \
		print_error("\n");                                   \
		fail();                                              \
	} while (0)

static int dir_of(const char *w)
{
	static const char *const names[] = { "up", "right", "down", "left" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(w, names[i]))
			return i;
	return -2;
}

static int action_type(const char *w)
{
	static const char *const names[] = { "none", "move", "harvest", "return", "produce", "attack" };
	for (int i = 0; i < 6; i++)
		if (!strcmp(w, names[i]))
			return i;
	return -1;
}

/* Type letter: $ resource, B base, K barracks, W worker, L light, H heavy, A ranged. */
static int type_of(fixture *f, char c)
{
	const char *names = "$BKWLHA";
	const char *p = strchr(names, c);
	if (!p || !c)
		FAIL(f, "unknown unit letter '%c'", c);
	return (int)(p - names);
}

/* Reads "map WxH" and the rows after it into XML, loads it. */
static void read_map(fixture *f, FILE *in, int w, int h, int r0, int r1)
{
	char xml[65536], units[49152], terrain[4096], row[1024];
	size_t ul = 0;
	int id = 1;

	assert_true(w * h < (int)sizeof(terrain));
	units[0] = '\0';
	for (int y = 0; y < h; y++) {
		char *tok, *save;
		int x = 0;
		if (!fgets(row, sizeof(row), in))
			FAIL(f, "map ends early");
		f->line++;
		for (tok = strtok_r(row, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save), x++) {
			int type, player = -1, hp = -1, res = 0;
			char *p = tok + 1;
			if (x >= w)
				FAIL(f, "row %d has more than %d cells", y, w);
			terrain[x + y * w] = tok[0] == '#' ? '1' : '0';
			if (tok[0] == '.' || tok[0] == '#')
				continue;
			type = type_of(f, tok[0]);
			if (type == 0) {
				res = (int)strtol(p, &p, 10);
			} else {
				player = *p++ - '0';
				if (*p == '+')
					res = (int)strtol(p + 1, &p, 10);
				if (*p == ':')
					hp = (int)strtol(p + 1, &p, 10);
			}
			if (hp < 0)
				hp = ms_rts_utt_type(f->utt, type)->hp;
			ul += (size_t)snprintf(units + ul, sizeof(units) - ul,
					       "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
					       "resources=\"%d\" hitpoints=\"%d\"/>\n",
					       ms_rts_utt_type(f->utt, type)->name, id++, player, x, y, res, hp);
		}
		if (x != w)
			FAIL(f, "row %d has %d cells, not %d", y, x, w);
	}
	terrain[w * h] = '\0';
	snprintf(xml, sizeof(xml),
		 "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
		 "<rts.Player ID=\"0\" resources=\"%d\"/><rts.Player ID=\"1\" resources=\"%d\"/></players>"
		 "<units>%s</units></rts.PhysicalGameState>",
		 w, h, terrain, r0, r1, units);
	ms_rts_state_free(f->s);
	if (ms_rts_state_from_map_xml(f->ctx, &f->s, f->utt, f->path, xml, strlen(xml), f->seed))
		FAIL(f, "map: %s", ms_ctx_last_error(f->ctx));
}

static int unit_index(fixture *f, long id)
{
	int i = ms_rts_state_find_unit(f->s, id);
	if (i < 0)
		FAIL(f, "no unit %ld", id);
	return i;
}

static void flush(fixture *f)
{
	for (int p = 0; p < 2; p++) {
		if (f->npending[p] &&
		    ms_rts_issue_safe(f->ctx, f->s, f->pending[p], f->npending[p], NULL))
			FAIL(f, "issue: %s", ms_ctx_last_error(f->ctx));
		f->npending[p] = 0;
	}
}

/* "move right", "produce down Worker", "attack 3 4", "none 7" */
static ms_rts_action parse_action(fixture *f, char **w, int n)
{
	ms_rts_action a = { 0, -1, -1, -1, -1 };

	if (n < 1 || (a.type = action_type(w[0])) < 0)
		FAIL(f, "bad action");
	if (a.type == MS_RTS_ATTACK) {
		if (n < 3)
			FAIL(f, "attack needs X Y");
		a.x = atoi(w[1]);
		a.y = atoi(w[2]);
	} else if (a.type == MS_RTS_NONE) {
		a.parameter = n > 1 ? atoi(w[1]) : -1;
	} else {
		if (n < 2 || (a.parameter = dir_of(w[1])) < -1)
			FAIL(f, "bad direction");
		if (a.type == MS_RTS_PRODUCE) {
			if (n < 3 || (a.unit_type = ms_rts_utt_find(f->utt, w[2])) < 0)
				FAIL(f, "produce needs a type name");
		}
	}
	return a;
}

static void expect(fixture *f, char **w, int n)
{
	ms_rts_unit u;

	if (!strcmp(w[0], "time")) {
		if (ms_rts_state_time(f->s) != atoi(w[1]))
			FAIL(f, "time is %d", ms_rts_state_time(f->s));
	} else if (!strcmp(w[0], "unit")) { /* unit ID X Y [hp H] [res R] */
		ms_rts_state_unit(f->s, unit_index(f, atol(w[1])), &u);
		if (u.x != atoi(w[2]) || u.y != atoi(w[3]))
			FAIL(f, "unit %s is at (%d, %d)", w[1], u.x, u.y);
		for (int i = 4; i + 1 < n; i += 2) {
			int want = atoi(w[i + 1]);
			int got = !strcmp(w[i], "hp") ? u.hitpoints : u.resources;
			if (got != want)
				FAIL(f, "unit %s has %s %d", w[1], w[i], got);
		}
	} else if (!strcmp(w[0], "gone")) {
		if (ms_rts_state_find_unit(f->s, atol(w[1])) >= 0)
			FAIL(f, "unit %s is still there", w[1]);
	} else if (!strcmp(w[0], "resources")) {
		if (ms_rts_state_resources(f->s, 0) != atoi(w[1]) || ms_rts_state_resources(f->s, 1) != atoi(w[2]))
			FAIL(f, "resources are %d %d", ms_rts_state_resources(f->s, 0), ms_rts_state_resources(f->s, 1));
	} else if (!strcmp(w[0], "units")) {
		if (ms_rts_state_unit_count(f->s) != atoi(w[1]))
			FAIL(f, "%d units", ms_rts_state_unit_count(f->s));
	} else if (!strcmp(w[0], "idle")) {
		if (!ms_rts_state_unit_idle(f->s, unit_index(f, atol(w[1]))))
			FAIL(f, "unit %s is busy", w[1]);
	} else if (!strcmp(w[0], "action")) { /* action ID TYPE [PARAM...] */
		int ui = unit_index(f, atol(w[1])), k, found = 0;
		ms_rts_action want = parse_action(f, w + 2, n - 2), got;
		for (k = 0; k < ms_rts_state_assignment_count(f->s); k++) {
			int idx;
			ms_rts_state_assignment(f->s, k, &idx, &got, NULL);
			if (idx == ui) {
				found = 1;
				break;
			}
		}
		if (!found)
			FAIL(f, "unit %s has no pending action", w[1]);
		if (got.type != want.type || got.parameter != want.parameter ||
		    (want.type == MS_RTS_ATTACK && (got.x != want.x || got.y != want.y)))
			FAIL(f, "unit %s has action type %d parameter %d", w[1], got.type, got.parameter);
	} else if (!strcmp(w[0], "order")) { /* unit list order by id */
		for (int i = 1; i < n; i++) {
			if (ms_rts_state_unit(f->s, i - 1, &u) || u.id != atol(w[i]))
				FAIL(f, "unit %d in list order is not %s", i - 1, w[i]);
		}
	} else if (!strcmp(w[0], "gameover")) {
		if (ms_rts_gameover(f->s) != atoi(w[1]))
			FAIL(f, "gameover is %d", ms_rts_gameover(f->s));
	} else if (!strcmp(w[0], "winner")) {
		if (ms_rts_winner(f->s) != atoi(w[1]))
			FAIL(f, "winner is %d", ms_rts_winner(f->s));
	} else if (!strcmp(w[0], "legal") || !strcmp(w[0], "illegal")) { /* legal ID ACTION... */
		ms_rts_action a = parse_action(f, w + 2, n - 2);
		ms_rts_state_unit(f->s, unit_index(f, atol(w[1])), &u);
		if (ms_rts_action_legal(f->s, &u, &a) != (w[0][0] == 'l'))
			FAIL(f, "unit %s: action is%s legal", w[1], w[0][0] == 'l' ? " not" : "");
	} else if (!strcmp(w[0], "legalat")) { /* legalat ID K ACTION: the K-th legal action */
		ms_rts_action list[64], want;
		int k = atoi(w[2]), n2;
		ms_rts_state_unit(f->s, unit_index(f, atol(w[1])), &u);
		n2 = ms_rts_legal_actions(f->s, &u, 10, list, 64);
		want = parse_action(f, w + 3, n - 3);
		if (k < 0 || k >= n2 || k >= 64)
			FAIL(f, "unit %s has %d legal actions", w[1], n2);
		if (list[k].type != want.type || (want.type == MS_RTS_ATTACK ?
		    (list[k].x != want.x || list[k].y != want.y) :
		    (list[k].parameter != want.parameter || list[k].unit_type != want.unit_type)))
			FAIL(f, "legal action %d of unit %s is type %d parameter %d", k, w[1], list[k].type,
			     list[k].parameter);
	} else if (!strcmp(w[0], "legalcount")) {
		ms_rts_action list[64];
		ms_rts_state_unit(f->s, unit_index(f, atol(w[1])), &u);
		if (ms_rts_legal_actions(f->s, &u, 10, list, 64) != atoi(w[2]))
			FAIL(f, "unit %s has %d legal actions", w[1], ms_rts_legal_actions(f->s, &u, 10, list, 64));
	} else if (!strcmp(w[0], "nextid")) {
		if (ms_rts_state_next_id(f->s) != atol(w[1]))
			FAIL(f, "next id is %lld", (long long)ms_rts_state_next_id(f->s));
	} else {
		FAIL(f, "unknown expectation '%s'", w[0]);
	}
}

static void run_fixture(void **state)
{
	fixture f;
	FILE *in;
	char line[1024];

	memset(&f, 0, sizeof(f));
	f.path = *state;
	f.version = 2;
	f.policy = 1;
	assert_int_equal(ms_ctx_new(&f.ctx, NULL), MS_OK);
	in = fopen(f.path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		char *w[16], *save, *tok;
		int n = 0;
		f.line++;
		for (tok = strtok_r(line, " \t\r\n", &save); tok && n < 16; tok = strtok_r(NULL, " \t\r\n", &save))
			w[n++] = tok;
		if (n == 0 || w[0][0] == '#')
			continue;
		if (!strcmp(w[0], "utt") || !strcmp(w[0], "conflict") || !strcmp(w[0], "seed")) {
			if (!strcmp(w[0], "utt"))
				f.version = atoi(w[1]);
			else if (!strcmp(w[0], "conflict"))
				f.policy = atoi(w[1]);
			else
				f.seed = atoll(w[1]);
			ms_rts_utt_free(f.utt);
			f.utt = NULL;
		} else if (!strcmp(w[0], "map")) { /* map W H [R0 R1] */
			if (!f.utt && ms_rts_utt_new(f.ctx, &f.utt, f.version, f.policy))
				FAIL(&f, "utt: %s", ms_ctx_last_error(f.ctx));
			read_map(&f, in, atoi(w[1]), atoi(w[2]), n > 3 ? atoi(w[3]) : 5, n > 4 ? atoi(w[4]) : 5);
		} else if (!strcmp(w[0], "badmap")) { /* badmap SUBSTRING, then one line of XML */
			char xml[4096];
			ms_rts_state *bad = NULL;
			if (!f.utt && ms_rts_utt_new(f.ctx, &f.utt, f.version, f.policy))
				FAIL(&f, "utt: %s", ms_ctx_last_error(f.ctx));
			if (!fgets(xml, sizeof(xml), in))
				FAIL(&f, "badmap needs a line of XML");
			f.line++;
			if (ms_rts_state_from_map_xml(f.ctx, &bad, f.utt, "badmap", xml, strlen(xml), 0) == MS_OK) {
				ms_rts_state_free(bad);
				FAIL(&f, "map was accepted");
			}
			if (!strstr(ms_ctx_last_error(f.ctx), w[1]))
				FAIL(&f, "error '%s' lacks '%s'", ms_ctx_last_error(f.ctx), w[1]);
		} else if (!strcmp(w[0], "issue")) { /* issue P ID ACTION... */
			int p = atoi(w[1]);
			ms_rts_pair *pr;
			if (p < 0 || p > 1 || f.npending[p] >= MAX_PAIRS)
				FAIL(&f, "bad player");
			pr = &f.pending[p][f.npending[p]++];
			ms_rts_state_unit(f.s, unit_index(&f, atol(w[2])), &pr->unit);
			pr->action = parse_action(&f, w + 3, n - 3);
		} else if (!strcmp(w[0], "flush")) {
			flush(&f);
		} else if (!strcmp(w[0], "cycle")) { /* cycle [N]: flush, then N cycles */
			int k = n > 1 ? atoi(w[1]) : 1;
			flush(&f);
			for (int i = 0; i < k; i++)
				if (ms_rts_cycle(f.ctx, f.s, NULL))
					FAIL(&f, "cycle: %s", ms_ctx_last_error(f.ctx));
		} else if (!strcmp(w[0], "expect")) {
			if (n < 2)
				FAIL(&f, "empty expectation");
			expect(&f, w + 1, n - 1);
		} else {
			FAIL(&f, "unknown command '%s'", w[0]);
		}
	}
	fclose(in);
	ms_rts_state_free(f.s);
	ms_rts_utt_free(f.utt);
	ms_ctx_free(f.ctx);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[256];
	char *paths[256];
	int n = 0, rc;
	DIR *d;
	struct dirent *e;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	d = opendir(argv[1]);
	if (!d) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 2;
	}
	while ((e = readdir(d)) && n < 256) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".txt"))
			continue;
		paths[n] = malloc(strlen(argv[1]) + len + 2);
		sprintf(paths[n], "%s/%s", argv[1], e->d_name);
		n++;
	}
	closedir(d);
	qsort(paths, (size_t)n, sizeof(*paths), cmp_str);
	for (int i = 0; i < n; i++) {
		memset(&tests[i], 0, sizeof(tests[i]));
		tests[i].name = strrchr(paths[i], '/') + 1;
		tests[i].test_func = run_fixture;
		tests[i].initial_state = paths[i];
	}
	if (n < 10) {
		fprintf(stderr, "only %d fixtures found in %s\n", n, argv[1]);
		return 1;
	}
	rc = _cmocka_run_group_tests("microrts_rules", tests, (size_t)n, NULL, NULL);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	return rc;
}
