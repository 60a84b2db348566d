/*
 * The MicroRTS DSL interpreter on small fixtures (tests/dsl/rts/, one .txt each):
 * every command and condition, the assign-once rule, busy and unassigned
 * units, target rules and their tie-breaks, directions and the map-edge
 * aliasing, caps and the budget, the action layer's reservations. Each
 * file is one cmocka test; a failed expectation names its file and line.
 *
 * Fixture lines (# starts a comment):
 *   utt V                 unit type table version for the next map (default 2)
 *   map W H [R0 R1]       the next H lines are the map (cells separated by spaces,
 *                         as in tests/microrts/rules: . # $N, or a unit letter B K
 *                         W L H A, its player, optional +R carried and :HP);
 *                         units get ids 1, 2, ... in reading order
 *   busy ID ACTION        issue ACTION for unit ID (it becomes busy)
 *   cycle N               run N cycles
 *   program TEXT          the program (any text form); program! also accepts
 *                         commands outside loops, program+not the not extension
 *   forder list|bil       iteration order of for
 *   decide P              the program decides for player P
 *   pair ID ACTION        ... the PlayerAction gives unit ID exactly ACTION
 *   nopair ID | pairs N
 *   assign ID KIND ...    the abstract-action map holds, for unit ID: attack ID|none,
 *                         harvest RES BASE, build TYPE X Y, train TYPE DIR|none,
 *                         move X Y, idle
 *   noassign ID | assigns N | order ID...   (insertion order of the map)
 *   error TEXT            the decision fails with a message containing TEXT
 * ACTION: none D, move DIR, harvest DIR, return DIR, produce DIR TYPE, attack X Y.
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/rts_dsl.h"

#ifndef RTS_FIXTURES
#define RTS_FIXTURES "rts"
#endif

typedef struct fx {
	const char *file;
	int line;
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *prog;
	ms_rts_dsl_interp *it;
	int utt_version, for_order;
	ms_rts_pair pairs[512];
	int n_pairs, decided, rc;
	char err[512];
} fx;

#define FAIL(f, ...)                                                                     \
	do {                                                                             \
		char m_[512];                                                            \
		snprintf(m_, sizeof(m_), __VA_ARGS__);                                   \
		fail_msg("%s:%d: %s", (f)->file, (f)->line, m_);                         \
	} while (0)

static const char *const dirs[4] = { "up", "right", "down", "left" };

static int dir_of(const char *w)
{
	for (int d = 0; d < 4; d++)
		if (!strcmp(w, dirs[d]))
			return d;
	return -2;
}

static int type_of(fx *f, const char *name)
{
	int t = ms_rts_utt_find(f->utt, name);
	if (t < 0)
		FAIL(f, "unknown unit type %s", name);
	return t;
}

/* Parses an ACTION from the words at w[0..]. */
static ms_rts_action parse_action(fx *f, char **w, int nw)
{
	ms_rts_action a = { -1, -1, -1, -1, -1 };

	if (nw < 1)
		FAIL(f, "missing action");
	if (!strcmp(w[0], "none") && nw == 2) {
		a.type = MS_RTS_NONE;
		a.parameter = atoi(w[1]);
	} else if (!strcmp(w[0], "attack") && nw == 3) {
		a.type = MS_RTS_ATTACK;
		a.x = atoi(w[1]);
		a.y = atoi(w[2]);
	} else if ((!strcmp(w[0], "move") || !strcmp(w[0], "harvest") || !strcmp(w[0], "return")) && nw == 2) {
		a.type = !strcmp(w[0], "move") ? MS_RTS_MOVE : !strcmp(w[0], "harvest") ? MS_RTS_HARVEST : MS_RTS_RETURN;
		a.parameter = dir_of(w[1]);
	} else if (!strcmp(w[0], "produce") && nw == 3) {
		a.type = MS_RTS_PRODUCE;
		a.parameter = dir_of(w[1]);
		a.unit_type = type_of(f, w[2]);
	} else {
		FAIL(f, "bad action '%s'", w[0]);
	}
	if (a.parameter == -2)
		FAIL(f, "bad direction");
	return a;
}

static void action_text(const ms_rts_utt *utt, const ms_rts_action *a, char *buf, size_t size)
{
	switch (a->type) {
	case MS_RTS_NONE:
		snprintf(buf, size, "none %d", a->parameter);
		break;
	case MS_RTS_ATTACK:
		snprintf(buf, size, "attack %d %d", a->x, a->y);
		break;
	case MS_RTS_PRODUCE:
		snprintf(buf, size, "produce %s %s", a->parameter >= 0 && a->parameter < 4 ? dirs[a->parameter] : "?",
			 a->unit_type >= 0 ? ms_rts_utt_type(utt, a->unit_type)->name : "?");
		break;
	default:
		snprintf(buf, size, "%s %s", a->type == MS_RTS_MOVE ? "move" : a->type == MS_RTS_HARVEST ? "harvest" : "return",
			 a->parameter >= 0 && a->parameter < 4 ? dirs[a->parameter] : "?");
	}
}

static int same_action(const ms_rts_action *a, const ms_rts_action *b)
{
	if (a->type != b->type)
		return 0;
	if (a->type == MS_RTS_ATTACK)
		return a->x == b->x && a->y == b->y;
	if (a->type == MS_RTS_PRODUCE)
		return a->parameter == b->parameter && a->unit_type == b->unit_type;
	return a->parameter == b->parameter;
}

/* Map rows to rts.PhysicalGameState XML. */
static void load_map(fx *f, FILE *in, int w, int h, int r0, int r1)
{
	static const struct { char c; const char *name; } letters[] = { { 'B', "Base" }, { 'K', "Barracks" },
		{ 'W', "Worker" }, { 'L', "Light" }, { 'H', "Heavy" }, { 'A', "Ranged" } };
	size_t cap = 65536, len = 0;
	char *xml = malloc(cap), *terrain = calloc((size_t)(w * h + 1), 1), line[4096];
	int id = 1;
	char units[60000];
	size_t ulen = 0;

	units[0] = '\0';
	for (int y = 0; y < h; y++) {
		char *tok, *save = NULL;
		int x = 0;
		if (!fgets(line, sizeof(line), in))
			FAIL(f, "map ends early");
		f->line++;
		for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save), x++) {
			if (x >= w)
				FAIL(f, "map row %d too long", y);
			terrain[x + y * w] = tok[0] == '#' ? '1' : '0';
			if (tok[0] == '.' || tok[0] == '#')
				continue;
			if (tok[0] == '$') {
				ulen += (size_t)snprintf(units + ulen, sizeof(units) - ulen,
							 "<rts.units.Unit type=\"Resource\" ID=\"%d\" player=\"-1\" x=\"%d\" y=\"%d\" "
							 "resources=\"%d\" hitpoints=\"1\"></rts.units.Unit>",
							 id++, x, y, atoi(tok + 1));
				continue;
			}
			{
				const char *name = NULL, *p = tok + 2;
				int player = tok[1] - '0', carried = 0, hp;
				for (size_t k = 0; k < sizeof(letters) / sizeof(letters[0]); k++)
					if (letters[k].c == tok[0])
						name = letters[k].name;
				if (!name || player < 0 || player > 1)
					FAIL(f, "bad cell '%s'", tok);
				hp = ms_rts_utt_type(f->utt, type_of(f, name))->hp;
				while (*p) {
					if (*p == '+')
						carried = (int)strtol(p + 1, (char **)&p, 10);
					else if (*p == ':')
						hp = (int)strtol(p + 1, (char **)&p, 10);
					else
						FAIL(f, "bad cell '%s'", tok);
				}
				ulen += (size_t)snprintf(units + ulen, sizeof(units) - ulen,
							 "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
							 "resources=\"%d\" hitpoints=\"%d\"></rts.units.Unit>",
							 name, id++, player, x, y, carried, hp);
			}
		}
		if (x != w)
			FAIL(f, "map row %d has %d cells, not %d", y, x, w);
	}
	len = (size_t)snprintf(xml, cap,
			       "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
			       "<rts.Player ID=\"0\" resources=\"%d\"></rts.Player><rts.Player ID=\"1\" resources=\"%d\">"
			       "</rts.Player></players><units>%s</units></rts.PhysicalGameState>",
			       w, h, terrain, r0, r1, units);
	ms_rts_state_free(f->s);
	f->s = NULL;
	if (ms_rts_state_from_map_xml(f->ctx, &f->s, f->utt, f->file, xml, len, 0))
		FAIL(f, "map: %s", ms_ctx_last_error(f->ctx));
	free(xml);
	free(terrain);
	f->decided = 0;
}

static int unit_index(fx *f, int64_t id)
{
	int i = ms_rts_state_find_unit(f->s, id);
	if (i < 0)
		FAIL(f, "no unit %lld", (long long)id);
	return i;
}

static const ms_rts_pair *pair_of(fx *f, int64_t id)
{
	for (int i = 0; i < f->n_pairs; i++)
		if (f->pairs[i].unit.id == id)
			return &f->pairs[i];
	return NULL;
}

static const ms_rts_dsl_assignment *assign_of(fx *f, int64_t id, int *n_out)
{
	int n;
	const ms_rts_dsl_assignment *a = ms_rts_dsl_assignments(f->it, &n);
	if (n_out)
		*n_out = n;
	for (int i = 0; i < n; i++)
		if (a[i].unit == id)
			return &a[i];
	return NULL;
}

static void need_decision(fx *f)
{
	if (!f->decided)
		FAIL(f, "expectation before 'decide'");
	if (f->rc)
		FAIL(f, "the decision failed: %s", f->err);
}

static void check_assign(fx *f, char **w, int nw)
{
	static const char *const kinds[] = { "move", "attack", "harvest", "build", "train", "idle" };
	int64_t id = atoll(w[1]);
	const ms_rts_dsl_assignment *a;
	int kind = -1;

	need_decision(f);
	a = assign_of(f, id, NULL);
	if (!a)
		FAIL(f, "unit %lld has no abstract action", (long long)id);
	for (int k = 0; k < 6; k++)
		if (!strcmp(w[2], kinds[k]))
			kind = k;
	if (kind < 0)
		FAIL(f, "bad kind %s", w[2]);
	if (a->kind != kind)
		FAIL(f, "unit %lld has abstract action %s, not %s", (long long)id, kinds[a->kind], w[2]);
	switch (kind) {
	case MS_RTS_DSL_AA_ATTACK:
		if (nw != 4 || a->target != (!strcmp(w[3], "none") ? -1 : atoll(w[3])))
			FAIL(f, "unit %lld attacks %lld", (long long)id, (long long)a->target);
		break;
	case MS_RTS_DSL_AA_HARVEST:
		if (nw != 5 || a->target != atoll(w[3]) || a->base != atoll(w[4]))
			FAIL(f, "unit %lld harvests %lld into %lld", (long long)id, (long long)a->target, (long long)a->base);
		break;
	case MS_RTS_DSL_AA_BUILD:
		if (nw != 6 || a->unit_type != type_of(f, w[3]) || a->x != atoi(w[4]) || a->y != atoi(w[5]))
			FAIL(f, "unit %lld builds type %d at (%d,%d)", (long long)id, a->unit_type, a->x, a->y);
		break;
	case MS_RTS_DSL_AA_TRAIN:
		if (nw != 5 || a->unit_type != type_of(f, w[3]) ||
		    a->pref != (!strcmp(w[4], "none") ? -1 : dir_of(w[4])))
			FAIL(f, "unit %lld trains type %d preferring %d", (long long)id, a->unit_type, a->pref);
		break;
	case MS_RTS_DSL_AA_MOVE:
		if (nw != 5 || a->x != atoi(w[3]) || a->y != atoi(w[4]))
			FAIL(f, "unit %lld moves to (%d,%d)", (long long)id, a->x, a->y);
		break;
	default:
		break;
	}
}

static void run_line(fx *f, FILE *in, char *line)
{
	char *w[16], *save = NULL, *rest;
	int nw = 0;
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *t = strtok_r(line, " \t\r\n", &save); t && nw < 16; t = strtok_r(NULL, " \t\r\n", &save))
		w[nw++] = t;
	if (nw == 0 || w[0][0] == '#')
		return;
	if (!strcmp(w[0], "utt") && nw == 2) {
		f->utt_version = atoi(w[1]);
		ms_rts_utt_free(f->utt);
		f->utt = NULL;
		assert_int_equal(ms_rts_utt_new(f->ctx, &f->utt, f->utt_version, 1), MS_OK);
	} else if (!strcmp(w[0], "map") && (nw == 3 || nw == 5)) {
		load_map(f, in, atoi(w[1]), atoi(w[2]), nw == 5 ? atoi(w[3]) : 5, nw == 5 ? atoi(w[4]) : 5);
	} else if (!strcmp(w[0], "busy") && nw >= 3) {
		int i = unit_index(f, atoll(w[1]));
		ms_rts_pair p;
		ms_rts_state_unit(f->s, i, &p.unit);
		p.action = parse_action(f, w + 2, nw - 2);
		if (ms_rts_issue_safe(f->ctx, f->s, &p, 1, NULL) || ms_rts_state_unit_idle(f->s, i))
			FAIL(f, "could not make unit %s busy: %s", w[1], ms_ctx_last_error(f->ctx));
		f->decided = 0;
	} else if (!strcmp(w[0], "cycle") && nw == 2) {
		for (int k = 0; k < atoi(w[1]); k++)
			assert_int_equal(ms_rts_cycle(f->ctx, f->s, NULL), MS_OK);
		f->decided = 0;
	} else if ((!strcmp(w[0], "program") || !strcmp(w[0], "program!") || !strcmp(w[0], "program+not")) && nw >= 2) {
		unsigned flags = !strcmp(w[0], "program!") ? MS_RTS_DSL_PARSE_UNBOUND
				 : !strcmp(w[0], "program+not") ? MS_RTS_DSL_PARSE_NOT : 0;
		/* every decision run: the fixtures check the abstract-action map of busy units too */
		ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .for_order = f->for_order, .check_regions = 1,
				       .check_cells = 1, .every_decision = 1 };
		rest = strstr(copy, w[0]) + strlen(w[0]);
		if (ms_rts_dsl_parse(f->prog, f->file, rest, strlen(rest), flags))
			FAIL(f, "program: %s", ms_ctx_last_error(f->ctx));
		ms_rts_dsl_interp_free(f->it);
		f->it = NULL;
		if (ms_rts_dsl_interp_new(f->ctx, &f->it, f->prog, 1, &o))
			FAIL(f, "interpreter: %s", ms_ctx_last_error(f->ctx));
		f->decided = 0;
	} else if (!strcmp(w[0], "forder") && nw == 2) {
		f->for_order = !strcmp(w[1], "bil") ? MS_RTS_DSL_FOR_BIL : MS_RTS_DSL_FOR_LIST;
	} else if (!strcmp(w[0], "decide") && nw == 2) {
		if (!f->it || !f->s)
			FAIL(f, "decide needs a map and a program");
		f->rc = ms_rts_dsl_decide(f->it, atoi(w[1]), f->s, f->pairs, 512, &f->n_pairs);
		snprintf(f->err, sizeof(f->err), "%s", f->rc ? ms_ctx_last_error(f->ctx) : "");
		f->decided = 1;
	} else if (!strcmp(w[0], "error") && nw >= 2) {
		rest = strstr(copy, "error") + 6;
		rest[strcspn(rest, "\r\n")] = '\0';
		if (!f->decided || !f->rc)
			FAIL(f, "the decision did not fail");
		if (!strstr(f->err, rest))
			FAIL(f, "error \"%s\" does not contain \"%s\"", f->err, rest);
	} else if (!strcmp(w[0], "pair") && nw >= 3) {
		const ms_rts_pair *p;
		ms_rts_action want;
		char got[64], exp[64];
		need_decision(f);
		want = parse_action(f, w + 2, nw - 2);
		p = pair_of(f, atoll(w[1]));
		action_text(f->utt, &want, exp, sizeof(exp));
		if (!p)
			FAIL(f, "unit %s has no pair (expected %s)", w[1], exp);
		action_text(f->utt, &p->action, got, sizeof(got));
		if (!same_action(&p->action, &want))
			FAIL(f, "unit %s: got %s, expected %s", w[1], got, exp);
	} else if (!strcmp(w[0], "nopair") && nw == 2) {
		need_decision(f);
		if (pair_of(f, atoll(w[1]))) {
			char got[64];
			action_text(f->utt, &pair_of(f, atoll(w[1]))->action, got, sizeof(got));
			FAIL(f, "unit %s has a pair: %s", w[1], got);
		}
	} else if (!strcmp(w[0], "pairs") && nw == 2) {
		need_decision(f);
		if (f->n_pairs != atoi(w[1]))
			FAIL(f, "%d pairs, expected %s", f->n_pairs, w[1]);
	} else if (!strcmp(w[0], "assign") && nw >= 3) {
		check_assign(f, w, nw);
	} else if (!strcmp(w[0], "noassign") && nw == 2) {
		need_decision(f);
		if (assign_of(f, atoll(w[1]), NULL))
			FAIL(f, "unit %s has an abstract action", w[1]);
	} else if (!strcmp(w[0], "assigns") && nw == 2) {
		int n;
		need_decision(f);
		assign_of(f, -1, &n);
		if (n != atoi(w[1]))
			FAIL(f, "%d abstract actions, expected %s", n, w[1]);
	} else if (!strcmp(w[0], "order")) {
		int n;
		const ms_rts_dsl_assignment *a;
		need_decision(f);
		a = ms_rts_dsl_assignments(f->it, &n);
		if (n != nw - 1)
			FAIL(f, "%d abstract actions, expected %d", n, nw - 1);
		for (int k = 1; k < nw; k++)
			if (a[k - 1].unit != atoll(w[k]))
				FAIL(f, "abstract action %d is unit %lld, expected %s", k, (long long)a[k - 1].unit, w[k]);
	} else {
		FAIL(f, "unknown fixture line: %s", copy);
	}
}

static void run_file(const char *name)
{
	char path[1024], line[4096];
	FILE *in;
	fx f;

	memset(&f, 0, sizeof(f));
	snprintf(path, sizeof(path), "%s/%s", RTS_FIXTURES, name);
	f.file = name;
	in = fopen(path, "r");
	if (!in)
		fail_msg("cannot open fixture %s", path);
	assert_int_equal(ms_ctx_new(&f.ctx, NULL), MS_OK);
	f.utt_version = 2;
	assert_int_equal(ms_rts_utt_new(f.ctx, &f.utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(f.ctx, &f.g, MS_RTS_DSL_GRAMMAR_NOT), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f.ctx, &f.prog, f.g), MS_OK);
	while (fgets(line, sizeof(line), in)) {
		f.line++;
		run_line(&f, in, line);
	}
	fclose(in);
	ms_rts_dsl_interp_free(f.it);
	ms_dsl_prog_free(f.prog);
	ms_dsl_grammar_free(f.g);
	ms_rts_state_free(f.s);
	ms_rts_utt_free(f.utt);
	ms_ctx_free(f.ctx);
}

#define FIXTURE(name)                                                     \
	static void test_rts_dsl_interp__##name(void **state)             \
	{                                                                 \
		(void)state;                                              \
		run_file(#name ".txt");                                   \
	}
FIXTURE(attack)
FIXTURE(build)
FIXTURE(train)
FIXTURE(harvest)
FIXTURE(idle_and_moves)
FIXTURE(conditions)
FIXTURE(control)
FIXTURE(translate)

/*
 * The interpreter skips a loop that changed nothing and would find nothing
 * changed; running every loop in full (as Java does) must give the same
 * abstract actions and the same PlayerAction, on random programs (nested
 * loops included) and on states of a real match, for both players.
 */
static void test_rts_dsl_interp__loop_shortcut_changes_no_decision(void **state)
{
	static const char map[] =
		"<rts.PhysicalGameState width=\"8\" height=\"8\"><terrain>"
		"0000000000000000000000000000000000000000000000000000000000000000</terrain><players>"
		"<rts.Player ID=\"0\" resources=\"12\"></rts.Player><rts.Player ID=\"1\" resources=\"12\"></rts.Player>"
		"</players><units>"
		"<rts.units.Unit type=\"Resource\" ID=\"0\" player=\"-1\" x=\"0\" y=\"0\" resources=\"20\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Resource\" ID=\"9\" player=\"-1\" x=\"7\" y=\"7\" resources=\"20\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Base\" ID=\"1\" player=\"0\" x=\"2\" y=\"1\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Barracks\" ID=\"5\" player=\"0\" x=\"1\" y=\"4\" resources=\"0\" hitpoints=\"4\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Base\" ID=\"3\" player=\"1\" x=\"5\" y=\"6\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Barracks\" ID=\"6\" player=\"1\" x=\"6\" y=\"3\" resources=\"0\" hitpoints=\"4\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"4\" player=\"1\" x=\"6\" y=\"6\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"</units></rts.PhysicalGameState>";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s, *states[20];
	ms_bot *bots[2];
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_jrandom rng;
	ms_rts_pair pa[128], pb[128];
	int nstates = 0, compared = 0, nested = 0;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "8x8", map, strlen(map), 0), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &bots[0], "WorkerRush", utt, 0), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &bots[1], "LightRush", utt, 0), MS_OK);
	for (int t = 0; t < 400 && nstates < 20; t++) {
		int n, go = 0;
		if (t % 20 == 0)
			assert_int_equal(ms_rts_state_clone(ctx, &states[nstates++], s), MS_OK);
		for (int pl = 0; pl < 2; pl++) {
			assert_int_equal(ms_bot_decide(bots[pl], pl, s, pa, 128, &n), MS_OK);
			assert_int_equal(ms_rts_issue_safe(ctx, s, pa, n, NULL), MS_OK);
		}
		assert_int_equal(ms_rts_cycle(ctx, s, &go), MS_OK);
		if (go)
			break;
	}
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	ms_jrandom_init(&rng, 77);
	for (int k = 0; k < 400; k++) {
		ms_rts_dsl_interp *fast, *full;
		ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .for_order = MS_RTS_DSL_FOR_LIST, .full_loops = 1,
				       .every_decision = 1, .check_cells = 1 };
		/* the loops' shortcut alone (the abstract actions of a decision with no unit free are compared too) */
		ms_rts_dsl_options of = { .version = MS_RTS_DSL_OPTIONS_VERSION, .every_decision = 1 };
		char *text = NULL;
		assert_int_equal(ms_rts_dsl_generate(p, &rng, 9), MS_OK);
		for (int m = 0; m < k % 4; m++)
			assert_int_equal(ms_rts_dsl_mutate(p, &rng, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_print(p, MS_RTS_DSL_FORM_JAVA, &text, NULL), MS_OK);
		nested += strstr(text, "for(Unit u){for(Unit u)") != NULL;
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &fast, p, 3, &of), MS_OK);
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &full, p, 3, &o), MS_OK);
		for (int i = 0; i < nstates; i++)
			for (int pl = 0; pl < 2; pl++) {
				int na, nb, ra, rb, ka, kb;
				const ms_rts_dsl_assignment *aa, *ab;
				ra = ms_rts_dsl_decide(fast, pl, states[i], pa, 128, &na);
				rb = ms_rts_dsl_decide(full, pl, states[i], pb, 128, &nb);
				if (ra != rb || na != nb)
					fail_msg("program %s: decisions differ on state %d, player %d", text, i, pl);
				for (int j = 0; j < na; j++)
					if (pa[j].unit.id != pb[j].unit.id || !same_action(&pa[j].action, &pb[j].action))
						fail_msg("program %s: pair %d differs on state %d, player %d", text, j, i, pl);
				aa = ms_rts_dsl_assignments(fast, &ka);
				ab = ms_rts_dsl_assignments(full, &kb);
				if (ka != kb)
					fail_msg("program %s: abstract actions differ on state %d", text, i);
				for (int j = 0; j < ka; j++)
					if (aa[j].unit != ab[j].unit || aa[j].kind != ab[j].kind || aa[j].target != ab[j].target ||
					    aa[j].base != ab[j].base || aa[j].x != ab[j].x || aa[j].y != ab[j].y ||
					    aa[j].unit_type != ab[j].unit_type || aa[j].pref != ab[j].pref || aa[j].node != ab[j].node)
						fail_msg("program %s: abstract action %d differs on state %d", text, j, i);
				compared += ra == MS_OK;
			}
		ms_rts_dsl_interp_free(fast);
		ms_rts_dsl_interp_free(full);
		ms_ctx_mfree(ctx, text);
	}
	assert_true(compared > 1000);
	assert_true(nested > 20);
	for (int i = 0; i < nstates; i++)
		ms_rts_state_free(states[i]);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/*
 * Loops drawing Random targets are never skipped, so nested ones cost
 * units^depth: the loop budget stops such a decision. What it assigned
 * until then is exactly the start of what the whole decision assigns, and
 * a decision within the budget is not touched.
 */
static void test_rts_dsl_interp__loop_budget_stops_a_decision_where_it_ends(void **state)
{
	static const char *const progs[] = {
		"for(Unit u){for(Unit u){for(Unit u){u.moveToUnit(Ally,Random)} u.harvest(3)} u.attack(Random)}",
		"for(Unit u){u.idle() for(Unit u){u.moveToUnit(Enemy,Random) for(Unit u){u.attack(Random)}}}",
		"for(Unit u){for(Unit u){for(Unit u){for(Unit u){for(Unit u){u.moveToUnit(Ally,Random)}}}}}",
	};
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_rts_pair pa[128], pb[128];
	char *xml = ms_test_crowded_map(8, 8, 40);
	int cut_with_actions = 0, whole = 0;
	(void)state;
	assert_non_null(xml);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "crowded", xml, strlen(xml), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(ms_rts_dsl_parse(p, "test", progs[k], strlen(progs[k]), 0), MS_OK);
		for (long budget = 1; budget <= 300000; budget = budget * 3 + 1) {
			ms_rts_dsl_options ob = { .version = MS_RTS_DSL_OPTIONS_VERSION, .every_decision = 1,
						  .loop_budget = budget };
			ms_rts_dsl_options oa = { .version = MS_RTS_DSL_OPTIONS_VERSION, .every_decision = 1 };
			ms_rts_dsl_interp *a, *b;
			const ms_rts_dsl_assignment *xa, *xb;
			int na, nb, ka, kb;
			assert_int_equal(ms_rts_dsl_interp_new(ctx, &a, p, 5, &oa), MS_OK);
			assert_int_equal(ms_rts_dsl_interp_new(ctx, &b, p, 5, &ob), MS_OK);
			assert_int_equal(ms_rts_dsl_decide(a, 0, s, pa, 128, &na), MS_OK);
			assert_int_equal(ms_rts_dsl_decide(b, 0, s, pb, 128, &nb), MS_OK);
			assert_int_equal(ms_rts_dsl_cuts(a), 0);
			xa = ms_rts_dsl_assignments(a, &ka);
			xb = ms_rts_dsl_assignments(b, &kb);
			assert_true(kb <= ka);
			for (int j = 0; j < kb; j++) {
				assert_int_equal(xa[j].unit, xb[j].unit);
				assert_int_equal(xa[j].kind, xb[j].kind);
				assert_int_equal(xa[j].target, xb[j].target);
				assert_int_equal(xa[j].node, xb[j].node);
			}
			if (ms_rts_dsl_cuts(b)) {
				assert_int_equal(ms_rts_dsl_cuts(b), 1);
				cut_with_actions += kb > 0 && kb < ka;
			} else {
				assert_int_equal(kb, ka);
				whole++;
			}
			ms_rts_dsl_interp_free(a);
			ms_rts_dsl_interp_free(b);
		}
	}
	assert_true(cut_with_actions >= 4);
	assert_true(whole >= 1);
	/* 41 units, loops five deep: 41^5 iterations without the default budget */
	{
		ms_rts_dsl_interp *it;
		int n, k;
		assert_int_equal(ms_rts_dsl_parse(p, "test", progs[2], strlen(progs[2]), 0), MS_OK);
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 5, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_decide(it, 0, s, pa, 128, &n), MS_OK);
		assert_int_equal(ms_rts_dsl_cuts(it), 1);
		ms_rts_dsl_assignments(it, &k);
		assert_true(k > 0);
		ms_rts_dsl_interp_free(it);
	}
	/* a negative budget is refused; a version 3 struct has none and gets the default */
	{
		ms_rts_dsl_interp *it = NULL;
		ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .loop_budget = -1 };
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 5, &o), MS_EINVAL);
		assert_null(it);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "loop budget -1"));
		o.version = 3;
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 5, &o), MS_OK);
		ms_rts_dsl_interp_free(it);
	}
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	free(xml);
}

/*
 * A decision with no unit of the player free answers empty without running
 * the program (every_decision off), and one with a unit free runs it; a
 * program with a Random target always runs (its draws must happen).
 */
static void test_rts_dsl_interp__no_unit_free_answers_empty(void **state)
{
	static const char map[] =
		"<rts.PhysicalGameState width=\"6\" height=\"4\"><terrain>000000000000000000000000</terrain><players>"
		"<rts.Player ID=\"0\" resources=\"5\"></rts.Player><rts.Player ID=\"1\" resources=\"5\"></rts.Player>"
		"</players><units>"
		"<rts.units.Unit type=\"Worker\" ID=\"1\" player=\"0\" x=\"0\" y=\"0\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"2\" player=\"0\" x=\"0\" y=\"2\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"3\" player=\"1\" x=\"5\" y=\"3\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"</units></rts.PhysicalGameState>";
	static const char *const progs[] = { "for(Unit u){u.attack(Closest)}", "for(Unit u){u.attack(Random)}" };
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_rts_pair pa[16];
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	for (int k = 0; k < 2; k++) {
		ms_rts_dsl_interp *it;
		ms_rts_pair busy[2];
		int n, na;
		assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "6x4", map, strlen(map), 0), MS_OK);
		assert_int_equal(ms_rts_dsl_parse(p, "test", progs[k], strlen(progs[k]), 0), MS_OK);
		assert_int_equal(ms_rts_dsl_interp_new(ctx, &it, p, 1, NULL), MS_OK);
		/* both free: the program runs, each worker moves towards the enemy */
		assert_int_equal(ms_rts_dsl_decide(it, 0, s, pa, 16, &n), MS_OK);
		assert_int_equal(n, 2);
		assert_int_equal(ms_rts_dsl_skips(it), 0);
		/* one worker busy: the program runs for the other */
		for (int i = 0; i < 2; i++) {
			ms_rts_state_unit(s, i, &busy[i].unit);
			busy[i].action = pa[i].action;
		}
		assert_int_equal(ms_rts_issue_safe(ctx, s, busy, 1, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_decide(it, 0, s, pa, 16, &n), MS_OK);
		assert_int_equal(n, 1);
		assert_int_equal(ms_rts_dsl_skips(it), 0);
		ms_rts_dsl_assignments(it, &na);
		assert_int_equal(na, 2); /* the busy one is assigned too, as the JAR's map counts it */
		/* both busy: nothing to do */
		ms_rts_state_unit(s, 1, &busy[1].unit);
		assert_int_equal(ms_rts_issue_safe(ctx, s, &busy[1], 1, NULL), MS_OK);
		assert_int_equal(ms_rts_dsl_decide(it, 0, s, pa, 16, &n), MS_OK);
		assert_int_equal(n, 0);
		ms_rts_dsl_assignments(it, &na);
		if (k == 0) {
			assert_int_equal(ms_rts_dsl_skips(it), 1);
			assert_int_equal(na, 0);
			assert_int_equal(ms_rts_dsl_path_expansions(it), 0);
		} else {
			assert_int_equal(ms_rts_dsl_skips(it), 0); /* Random: the program ran */
			assert_int_equal(na, 2);
		}
		ms_rts_dsl_interp_free(it);
		ms_rts_state_free(s);
	}
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/*
 * The layer's region test is a shortcut: a search that cannot reach its goal
 * is charged its region's size instead of running. Random and mutated
 * programs play each other on a walled map (an enclosed base, a one-cell
 * door, resources behind walls), a third of the matches with a budget small
 * enough to run out; every cycle, for both players, the interpreter with the
 * shortcut must decide exactly as the one running every search in full
 * (`full_paths`), and count the same expansions against the budget.
 */
#define WALLED_W 24
#define WALLED_H 24

/* A 24x24 map: player 1's first base walled in (unreachable), a wall with a
 * one-cell door splitting the rest, resources on both sides and behind walls. */
static void walled_map(char *out, size_t cap)
{
	char terrain[WALLED_W * WALLED_H + 1];
	static const struct {
		const char *type;
		int player, x, y;
	} units[] = {
		{ "Resource", -1, 0, 0 },  { "Resource", -1, 0, 1 },  { "Resource", -1, 12, 22 },
		{ "Resource", -1, 21, 1 }, { "Resource", -1, 5, 20 }, { "Base", 0, 2, 2 },
		{ "Barracks", 0, 4, 8 },   { "Worker", 0, 1, 5 },     { "Worker", 0, 2, 5 },
		{ "Worker", 0, 3, 5 },     { "Worker", 0, 4, 5 },     { "Light", 0, 6, 3 },
		{ "Ranged", 0, 6, 6 },     { "Base", 1, 20, 3 },      { "Worker", 1, 19, 2 },
		{ "Worker", 1, 21, 5 },    { "Base", 1, 20, 20 },     { "Worker", 1, 18, 18 },
		{ "Worker", 1, 19, 18 },   { "Worker", 1, 21, 18 },   { "Heavy", 1, 16, 14 },
		{ "Barracks", 1, 14, 20 },
	};
	size_t n;

	for (int y = 0; y < WALLED_H; y++)
		for (int x = 0; x < WALLED_W; x++) {
			int box = (x == 16 && y <= 8) || (y == 8 && x >= 16);
			int wall = x == 9 && y >= 4 && y != 12;
			terrain[x + y * WALLED_W] = box || wall ? '1' : '0';
		}
	terrain[WALLED_W * WALLED_H] = 0;
	n = (size_t)snprintf(out, cap,
			     "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
			     "<rts.Player ID=\"0\" resources=\"20\"></rts.Player><rts.Player ID=\"1\" resources=\"20\">"
			     "</rts.Player></players><units>",
			     WALLED_W, WALLED_H, terrain);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		n += (size_t)snprintf(out + n, cap - n,
				      "<rts.units.Unit type=\"%s\" ID=\"%zu\" player=\"%d\" x=\"%d\" y=\"%d\" "
				      "resources=\"%d\" hitpoints=\"%d\"></rts.units.Unit>",
				      units[i].type, i, units[i].player, units[i].x, units[i].y,
				      units[i].player < 0 ? 30 : 0, !strcmp(units[i].type, "Base") ? 10 : 4);
	snprintf(out + n, cap - n, "</units></rts.PhysicalGameState>");
}

static void test_rts_dsl_interp__region_test_and_repeated_views_change_no_decision(void **state)
{
	static char map[8192];
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *start;
	ms_dsl_grammar *g;
	ms_dsl_prog *p[2];
	ms_jrandom rng;
	ms_rts_pair pa[256], pb[256];
	ms_memo *memo;
	ms_memo_stats st;
	long compared = 0, moves = 0, expansions = 0, spent = 0, repeats = 0, skipped = 0;
	(void)state;
	walled_map(map, sizeof(map));
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &start, utt, "walled", map, strlen(map), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p[0], g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p[1], g), MS_OK);
	/* one memo of path answers for every match, as a synthesis's worker keeps */
	assert_int_equal(ms_memo_new(ctx, &memo, 14), MS_OK);
	ms_jrandom_init(&rng, 28);
	for (int k = 0; k < 120; k++) {
		ms_rts_dsl_interp *fast[2], *full[2];
		/* every third match with a budget small enough to run out */
		long budget = k % 3 == 2 ? 600 + 50 * k : 0;
		ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .for_order = MS_RTS_DSL_FOR_LIST, .full_paths = 1,
				       .path_budget = budget, .every_decision = 1, .check_cells = 1 };
		ms_rts_dsl_options of = { .version = MS_RTS_DSL_OPTIONS_VERSION, .for_order = MS_RTS_DSL_FOR_LIST, .path_budget = budget,
				        .check_regions = 1, .check_cells = 1, .path_memo = memo,
					.check_memo = k % 2 }; /* every other match checks each answer against its search */
		ms_rts_state *s;
		char *text[2] = { NULL, NULL };
		int last_skip[2] = { 0, 0 };
		for (int pl = 0; pl < 2; pl++) {
			/* programs that search: a unit loop around a random body, mutated a little */
			do {
				assert_int_equal(ms_rts_dsl_generate(p[pl], &rng, 9), MS_OK);
				for (int m = 0; m < k % 3; m++)
					assert_int_equal(ms_rts_dsl_mutate(p[pl], &rng, NULL), MS_OK);
				ms_ctx_mfree(ctx, text[pl]);
				assert_int_equal(ms_rts_dsl_print(p[pl], MS_RTS_DSL_FORM_JAVA, &text[pl], NULL), MS_OK);
			} while (strncmp(text[pl], "for(Unit u){", 12) || ms_rts_dsl_interp_new(ctx, &fast[pl], p[pl], 3, &of));
			assert_int_equal(ms_rts_dsl_interp_new(ctx, &full[pl], p[pl], 3, &o), MS_OK);
		}
		assert_int_equal(ms_rts_state_clone(ctx, &s, start), MS_OK);
		for (int t = 0; t < 300; t++) {
			int go = 0;
			for (int pl = 0; pl < 2; pl++) {
				int na, nb, ra, rb, ka, kb;
				const ms_rts_dsl_assignment *aa, *ab;
				long skips = ms_rts_dsl_skips(fast[pl]), reps = ms_rts_dsl_repeats(fast[pl]);
				int idle;
				ra = ms_rts_dsl_decide(fast[pl], pl, s, pa, 256, &na);
				rb = ms_rts_dsl_decide(full[pl], pl, s, pb, 256, &nb);
				if (ra != rb || na != nb)
					fail_msg("program %s: decisions differ at cycle %d, player %d", text[pl], t, pl);
				/* the program did not run: no unit was free now, or at the decision this one repeats */
				if (ms_rts_dsl_repeats(fast[pl]) == reps)
					last_skip[pl] = ms_rts_dsl_skips(fast[pl]) != skips;
				idle = last_skip[pl];
				if (idle) {
					/* no unit was free: the program did not run, nothing came of it */
					if (na)
						fail_msg("program %s: %d actions with no unit free at cycle %d", text[pl], na, t);
					skipped++;
				} else if (ms_rts_dsl_path_expansions(fast[pl]) != ms_rts_dsl_path_expansions(full[pl]))
					fail_msg("program %s: %ld expansions, not %ld, at cycle %d, player %d", text[pl],
						 ms_rts_dsl_path_expansions(fast[pl]), ms_rts_dsl_path_expansions(full[pl]), t, pl);
				expansions += ms_rts_dsl_path_expansions(full[pl]);
				spent += ms_rts_dsl_path_expansions(full[pl]) > (budget ? budget : 400000);
				for (int j = 0; j < na; j++) {
					if (pa[j].unit.id != pb[j].unit.id || !same_action(&pa[j].action, &pb[j].action))
						fail_msg("program %s: pair %d differs at cycle %d, player %d", text[pl], j, t, pl);
					moves += pa[j].action.type == MS_RTS_MOVE;
				}
				aa = ms_rts_dsl_assignments(fast[pl], &ka);
				ab = ms_rts_dsl_assignments(full[pl], &kb);
				if (idle)
					ka = kb = 0;
				if (ka != kb)
					fail_msg("program %s: abstract actions differ at cycle %d", text[pl], t);
				for (int j = 0; j < ka; j++)
					if (aa[j].unit != ab[j].unit || aa[j].kind != ab[j].kind || aa[j].target != ab[j].target ||
					    aa[j].x != ab[j].x || aa[j].y != ab[j].y || aa[j].node != ab[j].node)
						fail_msg("program %s: abstract action %d differs at cycle %d", text[pl], j, t);
				if (ra != MS_OK)
					break;
				compared++;
				assert_int_equal(ms_rts_issue_safe(ctx, s, pa, na, NULL), MS_OK);
			}
			assert_int_equal(ms_rts_cycle(ctx, s, &go), MS_OK);
			if (go)
				break;
		}
		ms_rts_state_free(s);
		for (int pl = 0; pl < 2; pl++) {
			repeats += ms_rts_dsl_repeats(fast[pl]);
			assert_int_equal(ms_rts_dsl_repeats(full[pl]), 0);
			ms_rts_dsl_interp_free(fast[pl]);
			ms_rts_dsl_interp_free(full[pl]);
			ms_ctx_mfree(ctx, text[pl]);
		}
	}
	/* the matches did move units about, decision after decision */
	assert_true(compared > 20000);
	assert_true(moves > 5000);
	assert_true(expansions > 1000000);
	assert_true(spent > 100); /* decisions whose budget ran out */
	assert_true(repeats > compared / 4); /* decisions answered from the last view */
	assert_true(skipped > compared / 10); /* decisions with no unit free */
	ms_memo_get_stats(memo, &st);
	assert_true(st.hits > 1000 && st.hits > st.lookups / 10); /* searches answered from the memo */
	print_message("compared %ld decisions, %ld repeated, %ld with no unit free; %llu of %llu path searches from "
		      "the memo\n", compared, repeats, skipped, (unsigned long long)st.hits, (unsigned long long)st.lookups);
	ms_memo_free(memo);
	ms_dsl_prog_free(p[0]);
	ms_dsl_prog_free(p[1]);
	ms_dsl_grammar_free(g);
	ms_rts_state_free(start);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_interp__attack),
		cmocka_unit_test(test_rts_dsl_interp__build),
		cmocka_unit_test(test_rts_dsl_interp__train),
		cmocka_unit_test(test_rts_dsl_interp__harvest),
		cmocka_unit_test(test_rts_dsl_interp__idle_and_moves),
		cmocka_unit_test(test_rts_dsl_interp__conditions),
		cmocka_unit_test(test_rts_dsl_interp__control),
		cmocka_unit_test(test_rts_dsl_interp__translate),
		cmocka_unit_test(test_rts_dsl_interp__loop_shortcut_changes_no_decision),
		cmocka_unit_test(test_rts_dsl_interp__no_unit_free_answers_empty),
		cmocka_unit_test(test_rts_dsl_interp__loop_budget_stops_a_decision_where_it_ends),
		cmocka_unit_test(test_rts_dsl_interp__region_test_and_repeated_views_change_no_decision),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
