/*
 * Whole matches from bytes (issue 22). The fuzz target for bots decides once
 * on a fresh bot, which cannot see what a long synthesis does to a bot: the
 * same object deciding thousands of times, on maps whose sizes and unit
 * counts change between matches, so per-decision buffers grow while counts
 * of the previous decision still point into them. A session keeps its two
 * bots for all its matches.
 *
 * Layout of the input (any length; missing bytes come from a generator
 * seeded with the input's hash): 6 header bytes (table, policy, flags, the
 * two bots, match count; a program side adds 3 bytes), then per match 8
 * bytes (width, height, wall percentage, units, cycles (2), stocks, seed),
 * the resource amount, one byte per cell (wall or not) and 3 bytes per unit
 * (type and owner, x, y).
 */
#include "match_session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/dsl.h"
#include "microsynth/jrandom.h"
#include "microsynth/microrts.h"
#include "microsynth/rts_dsl.h"
#include "core/hash.h"

/* The work of one session, bounded so an input stays well inside
 * libFuzzer's per-input timeout under ASan (about 2 s at most). */
#define SESSION_MAX_CYCLES 4000
#define SESSION_MAX_WORK 1500000L
#define MAP_MAX_UNITS 200

typedef struct reader {
	const uint8_t *d;
	size_t n, at;
	ms_jrandom rng;
} reader;

static unsigned byte(reader *r)
{
	if (r->at < r->n)
		return r->d[r->at++];
	return (unsigned)ms_jrandom_next(&r->rng, 8);
}

static unsigned word(reader *r)
{
	unsigned hi = byte(r);
	return hi << 8 | byte(r);
}

static int64_t fnv(const uint8_t *d, size_t n)
{
	uint64_t h = MS_FNV_OFFSET;
	for (size_t i = 0; i < n; i++)
		h = ms_fnv1a_step(h, d[i]);
	return (int64_t)(h >> 1);
}

static void note(ms_session_stats *st, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Keeps the first failure's message. */
static void note(ms_session_stats *st, const char *fmt, ...)
{
	va_list ap;

	if (st->first_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(st->first_error, sizeof(st->first_error), fmt, ap);
	va_end(ap);
}

/* A map XML of w x h drawn from the reader: walls at `pct` percent, up to
 * `want` units on distinct cells, which walls never cover. NULL: no memory. */
static char *random_map(reader *r, int w, int h, int pct, int want, int stock)
{
	static const char *const types[] = { "Base", "Worker", "Worker", "Barracks", "Light", "Heavy", "Ranged",
					     "Resource", "Worker", "Light" };
	static const int hp[] = { 10, 1, 1, 5, 4, 8, 1, 1, 1, 4 };
	int cells = w * h, amount = 1 + (int)byte(r) % 40;
	char *terrain = malloc((size_t)cells + 1), *xml = malloc((size_t)cells + 400 + (size_t)want * 160), *p;
	uint8_t *used = calloc((size_t)cells, 1);
	int64_t id = 1;

	if (!terrain || !xml || !used) {
		free(terrain), free(xml), free(used);
		return NULL;
	}
	for (int c = 0; c < cells; c++)
		terrain[c] = (int)(byte(r) % 100) < pct ? '1' : '0';
	terrain[cells] = 0;
	p = xml + sprintf(xml,
			  "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
			  "<rts.Player ID=\"0\" resources=\"%d\"></rts.Player><rts.Player ID=\"1\" resources=\"%d\">"
			  "</rts.Player></players><units>",
			  w, h, terrain, stock, stock);
	for (int k = 0; k < want; k++) {
		unsigned tb = byte(r);
		int x = (int)byte(r) % w, y = (int)byte(r) % h, t = (int)(tb % 10), pl = t == 7 ? -1 : (int)(tb >> 7);
		if (used[x + y * w])
			continue;
		used[x + y * w] = 1;
		/* a unit's cell is floor: the walls are set again below */
		p += sprintf(p,
			     "<rts.units.Unit type=\"%s\" ID=\"%lld\" player=\"%d\" x=\"%d\" y=\"%d\" resources=\"%d\" "
			     "hitpoints=\"%d\"></rts.units.Unit>",
			     types[t], (long long)id++, pl, x, y, pl < 0 ? amount : 0, hp[t]);
	}
	strcpy(p, "</units></rts.PhysicalGameState>");
	/* clear the walls under units in the terrain text already written */
	{
		char *tt = strstr(xml, "<terrain>") + 9;
		for (int c = 0; c < cells; c++)
			if (used[c])
				tt[c] = '0';
	}
	free(terrain);
	free(used);
	return xml;
}

/* The deepest nesting of loops in `p` (0: none). */
static int loop_depth(const ms_dsl_prog *p, const ms_dsl_grammar *g)
{
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	int n = ms_dsl_prog_len(p), deepest = 0;

	for (int i = 0; i < n; i++) {
		int d = 0;
		for (int a = i; a >= 0; a = ms_dsl_parent(p, a, NULL))
			d += !ms_dsl_is_hole(sym[a]) && ms_dsl_prod_op(g, sym[a]) == MS_RTS_DSL_S_FOR;
		if (d > deepest)
			deepest = d;
	}
	return deepest;
}

/* A bot for `which`: a native bot, or (program) a random DSL program, whose
 * loop nesting goes to *depth. */
static int make_bot(ms_ctx *ctx, reader *r, ms_bot **out, int program, unsigned which, const ms_rts_utt *utt,
		    int edition, int64_t seed, int *depth)
{
	const char *const *names = ms_bot_names();
	int n_names = 0, rc;

	while (names[n_names])
		n_names++;
	if (program) {
		ms_dsl_grammar *g = NULL;
		ms_dsl_prog *p = NULL;
		ms_jrandom rng;
		int muts = (int)(which % 8);
		ms_jrandom_init(&rng, seed ^ (int64_t)word(r));
		rc = ms_rts_dsl_grammar_new(ctx, &g, which & 8 ? MS_RTS_DSL_GRAMMAR_GEN_RANDOM : 0);
		if (!rc)
			rc = ms_dsl_prog_new(ctx, &p, g);
		/* most programs are drawn again until they pass the load-time
		 * check, else most matches would end on the first decision */
		for (int tries = which & 16 ? 1 : 8; tries > 0 && !rc; tries--) {
			rc = ms_rts_dsl_generate(p, &rng, 1 + (int)(byte(r) % 9));
			for (int k = 0; k < muts && !rc; k++)
				rc = ms_rts_dsl_mutate(p, &rng, NULL);
			if (!rc && !ms_rts_dsl_check_bound(p, NULL))
				break;
		}
		if (!rc) {
			*depth = loop_depth(p, g);
			rc = ms_rts_dsl_bot_new(ctx, out, p, utt, seed);
		}
		ms_dsl_prog_free(p);
		ms_dsl_grammar_free(g);
		return rc;
	}
	if ((rc = ms_bot_new(ctx, out, names[which % (unsigned)n_names], utt, seed)))
		return rc;
	return ms_bot_set_edition(*out, edition);
}

/* One match of both bots on `s`, at most `cycles` cycles; counts into st. */
static int play(ms_ctx *ctx, ms_rts_state *s, ms_bot *b[2], const int program[2], int cycles, int po,
		ms_session_stats *st)
{
	int max = ms_rts_state_width(s) * ms_rts_state_height(s) + 1, over = 0, rc = 0;
	ms_rts_pair *pa[2] = { malloc(sizeof(ms_rts_pair) * (size_t)max), malloc(sizeof(ms_rts_pair) * (size_t)max) };
	ms_rts_state *view = NULL;

	if (!pa[0] || !pa[1] || (po && ms_rts_state_clone(ctx, &view, s))) {
		note(st, "session: out of memory for a match");
		rc = -1;
		goto done;
	}
	st->matches++;
	while (!over && ms_rts_state_time(s) < cycles) {
		int n[2] = { 0, 0 };
		for (int p = 0; p < 2; p++) {
			const ms_rts_state *seen = s;
			int e;
			if (po) {
				ms_rts_state_observe(view, s, p);
				seen = view;
			}
			st->decisions++;
			if ((e = ms_bot_decide(b[p], p, seen, pa[p], max, &n[p]))) {
				/* a program that reads u outside a loop fails as Java throws */
				if (program[p] && e == MS_EILLEGAL) {
					st->program_errors++;
				} else {
					st->bot_errors++;
					note(st, "%s (player %d) at cycle %d of a %dx%d map: %s", b[p]->ops->name, p,
					     ms_rts_state_time(s), ms_rts_state_width(s), ms_rts_state_height(s),
					     ms_ctx_last_error(ctx));
					rc = -1;
				}
				goto done;
			}
		}
		for (int p = 0; p < 2; p++)
			if (n[p] && ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL)) {
				st->bot_errors++;
				note(st, "%s (player %d) at cycle %d of a %dx%d map gave an action issueSafe rejects: %s",
				     b[p]->ops->name, p, ms_rts_state_time(s), ms_rts_state_width(s),
				     ms_rts_state_height(s), ms_ctx_last_error(ctx));
				rc = -1;
				goto done;
			}
		if (ms_rts_cycle(ctx, s, &over)) {
			st->bot_errors++;
			note(st, "cycle: %s", ms_ctx_last_error(ctx));
			rc = -1;
			goto done;
		}
		st->cycles++;
	}
done:
	free(pa[0]);
	free(pa[1]);
	ms_rts_state_free(view);
	return rc;
}

int ms_session_play(const uint8_t *data, size_t size, ms_session_stats *st)
{
	reader r = { data, size, 0, { 0 } };
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_bot *b[2] = { NULL, NULL };
	unsigned version, policy, flags, bot0, bot1, n_matches;
	int edition, po, reset, program[2], depth = 0, rc = 0;
	long budget = SESSION_MAX_CYCLES, unit_budget = SESSION_MAX_WORK;
	int64_t seed = fnv(data, size);

	ms_jrandom_init(&r.rng, seed);
	st->sessions++;
	version = 1 + byte(&r) % 3;
	policy = 1 + byte(&r) % 3;
	flags = byte(&r);
	bot0 = byte(&r);
	bot1 = byte(&r);
	n_matches = 1 + byte(&r) % 4;
	edition = flags & 1 ? MS_PATH_EDITION_2023 : MS_PATH_EDITION_2022;
	po = (flags >> 1 & 3) == 3; /* a quarter of the sessions */
	reset = !(flags & 8);
	program[0] = (flags >> 4 & 3) == 0;
	program[1] = 0;
	if (ms_ctx_new(&ctx, NULL)) {
		note(st, "session: no context");
		return -1;
	}
	if (ms_rts_utt_new(ctx, &utt, (int)version, (int)policy) ||
	    make_bot(ctx, &r, &b[0], program[0], bot0, utt, edition, seed, &depth) ||
	    make_bot(ctx, &r, &b[1], program[1], bot1, utt, edition, seed + 1, &depth)) {
		/* a random program may be rejected by the interpreter; nothing else should fail */
		if (!program[0] || !b[1]) {
			note(st, "session setup: %s", ms_ctx_last_error(ctx));
			st->bot_errors++;
			rc = -1;
		}
		goto done;
	}
	for (unsigned m = 0; m < n_matches && budget > 0 && unit_budget > 0 && !rc; m++) {
		int w = 8 + (int)(byte(&r) % 57), h = 8 + (int)(byte(&r) % 57), pct = (int)(byte(&r) % 40);
		int want = (int)(byte(&r) % (MAP_MAX_UNITS + 1)), cycles = 1 + (int)(word(&r) % 3000);
		int stock = (int)(byte(&r) % 30);
		int64_t mseed = seed + (int64_t)byte(&r);
		ms_rts_state *s = NULL;
		char *xml;

		if (want > w * h / 2)
			want = w * h / 2;
		if (cycles > budget)
			cycles = (int)budget;
		/* a cycle's work, about a microsecond per unit (measured under
		 * ASan): the bots compare units with units and search paths over
		 * the map for units (mayari: every combat unit); a program picks
		 * targets among units in loops over units, nested `depth` deep.
		 * The interpreter skips most reruns of inner loops, but not those
		 * drawing Random targets, which cost units^depth. */
		long u1 = want + 1, per = u1 * u1 / 8 + u1 * w * h / 32;
		if (program[0]) {
			per = u1 * u1 / 12;
			for (int k = depth < 2 ? 1 : depth - 1; k > 0 && per <= unit_budget; k--)
				per *= u1;
		}
		if (cycles * per > unit_budget)
			cycles = (int)(unit_budget / per) + 1;
		if (!(xml = random_map(&r, w, h, pct, want, stock))) {
			note(st, "session: out of memory for a map");
			rc = -1;
			break;
		}
		if (ms_rts_state_from_map_xml(ctx, &s, utt, "session map", xml, strlen(xml), mseed)) {
			note(st, "session map: %s", ms_ctx_last_error(ctx));
			st->bot_errors++;
			free(xml);
			rc = -1;
			break;
		}
		free(xml);
		if (reset && m > 0 && (ms_bot_reset(b[0]) || ms_bot_reset(b[1]))) {
			note(st, "reset: %s", ms_ctx_last_error(ctx));
			st->bot_errors++;
			rc = -1;
		} else {
			long before = st->cycles;
			rc = play(ctx, s, b, program, cycles, po, st);
			budget -= st->cycles - before + 1;
			unit_budget -= (st->cycles - before + 1) * per;
		}
		ms_rts_state_free(s);
	}
done:
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}
