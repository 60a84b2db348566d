/*
 * Planet Wars rules: maps and protocol states, orders, the time step, the
 * end test, and the text the engine sends each player.
 *
 * Source of truth: the challenge's specification, checked against the
 * official engine's playbacks (../shared/data/planetwars/playbacks, all 400
 * replay exactly, see tools/planetwars/cmd_planetwars.c). Where the engine does
 * something the specification does not say, the playbacks win:
 *  - one step is growth of owned planets, then every fleet advances, then a
 *    battle on each planet in id order (the playback of a step shows a
 *    fleet launched this turn with total - 1 turns left);
 *  - the turn limit is tested as "more than max steps", so a 200-turn game
 *    runs 201 steps (every full-length playback has 201 entries);
 *  - an order of zero ships is legal and launches an empty fleet (BullyBot
 *    sends 1/2 = 0 ships and the playbacks carry those fleets).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/planetwars/pw_internal.h"
#include "core/buf.h"
#include "core/vec.h"

int pw_trip(double ax, double ay, double bx, double by)
{
	double dx = ax - bx, dy = ay - by;
	/* This file is compiled with -ffp-contract=off: Java never fuses dx*dx + dy*dy. */
	double d = ceil(sqrt(dx * dx + dy * dy));
	return d < 2147483647.0 ? (int)d : 2147483647; /* parsing bounds coordinates; views of views too */
}

/*
 * Java's String.format("%f", v): the shortest decimal digits that read
 * back as v (what Double.toString produces), rounded half-up to six
 * decimals. C's %f rounds the exact binary value instead, which differs
 * when those digits end in a 5 at the seventh decimal.
 */
static void java_format_f(double v, char *out, size_t size)
{
	char e[40], dig[64];
	int nd = 0, exp10 = 0, neg = signbit(v) ? 1 : 0;
	double a = fabs(v);
	if (a == 0 || !isfinite(a)) {
		snprintf(out, size, "%s%f", neg ? "-" : "", a);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(e, sizeof e, "%.*e", prec - 1, a);
		if (strtod(e, NULL) == a)
			break;
	}
	/* e is d.ddddde[+-]xx */
	char *p = e;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			dig[nd++] = *p;
	exp10 = atoi(p + 1);
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	/* digits dig[0..nd) with the point after position exp10 + 1 */
	char buf[400];
	int pos = exp10 + 1, len = 0;
	if (pos < 0) {
		for (int i = 0; i < -pos && len < 300; i++)
			buf[len++] = '0';
		pos = 0;
	}
	for (int i = 0; i < nd; i++)
		buf[len++] = dig[i];
	while (len < pos + 7)
		buf[len++] = '0';
	int carry = buf[pos + 6] >= '5';
	for (int i = pos + 5; i >= 0 && carry; i--) {
		if (buf[i] == '9') {
			buf[i] = '0';
		} else {
			buf[i]++;
			carry = 0;
		}
	}
	size_t o = 0;
	if (neg && o + 1 < size)
		out[o++] = '-';
	if (carry && o + 1 < size)
		out[o++] = '1';
	if (pos == 0 && !carry && o + 1 < size)
		out[o++] = '0';
	for (int i = 0; i < pos && o + 1 < size; i++)
		out[o++] = buf[i];
	if (o + 1 < size)
		out[o++] = '.';
	for (int i = pos; i < pos + 6 && o + 1 < size; i++)
		out[o++] = buf[i];
	out[o] = 0;
}

static void free_parts(ms_ctx *ctx, ms_pw_state *s)
{
	if (!s)
		return;
	ms_ctx_mfree(ctx, s->planets);
	ms_ctx_mfree(ctx, s->fleets);
	if (s->owns_tables) {
		ms_ctx_mfree(ctx, s->dist);
		ms_ctx_mfree(ctx, s->vdist);
		ms_ctx_mfree(ctx, s->vplanets);
	}
	ms_ctx_mfree(ctx, s);
}

void ms_pw_state_free(ms_pw_state *s)
{
	if (s)
		free_parts(s->ctx, s);
}

static int fleet_reserve(ms_ctx *ctx, ms_pw_state *s, int need)
{
	if (need <= s->fcap)
		return MS_OK;
	if (ms_vec_grow(ctx, (void **)&s->fleets, &s->fcap, need, sizeof *s->fleets) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory for %d fleets", need);
	return MS_OK;
}

/* Distance tables and printed coordinates of a state that owns them. */
static int build_tables(ms_ctx *ctx, ms_pw_state *s)
{
	size_t n = (size_t)s->np;
	s->dist = ms_ctx_malloc(ctx, n * n * sizeof(int));
	s->vdist = ms_ctx_malloc(ctx, n * n * sizeof(int));
	s->vplanets = ms_ctx_malloc(ctx, n * sizeof(ms_pw_planet));
	s->owns_tables = 1;
	if (!s->dist || !s->vdist || !s->vplanets)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory for %d planets", s->np);
	for (int i = 0; i < s->np; i++) {
		char t[400];
		s->vplanets[i] = s->planets[i];
		java_format_f(s->planets[i].x, t, sizeof t);
		s->vplanets[i].x = strtod(t, NULL);
		java_format_f(s->planets[i].y, t, sizeof t);
		s->vplanets[i].y = strtod(t, NULL);
	}
	for (int i = 0; i < s->np; i++)
		for (int j = 0; j < s->np; j++) {
			const ms_pw_planet *a = &s->planets[i], *b = &s->planets[j];
			const ms_pw_planet *va = &s->vplanets[i], *vb = &s->vplanets[j];
			s->dist[i * s->np + j] = pw_trip(a->x, a->y, b->x, b->y);
			s->vdist[i * s->np + j] = pw_trip(va->x, va->y, vb->x, vb->y);
		}
	return MS_OK;
}

/* ---- parsing ---- */

static int parse_int_tok(ms_ctx *ctx, const char *tok, const char *what, int line, const char *field, long lo,
			 long hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(tok, &end, 10);
	if (end == tok || *end || errno)
		return ms_ctx_error(ctx, MS_EPARSE, "%s:%d: %s '%s' is not an integer", what, line, field, tok);
	if (v < lo || v > hi)
		return ms_ctx_error(ctx, MS_ERANGE, "%s:%d: %s %ld outside [%ld, %ld]", what, line, field, v, lo, hi);
	*out = (int)v;
	return MS_OK;
}

static int parse_double_tok(ms_ctx *ctx, const char *tok, const char *what, int line, const char *field,
			    double *out)
{
	char *end;
	errno = 0;
	double v = strtod(tok, &end);
	if (end == tok || *end || !isfinite(v))
		return ms_ctx_error(ctx, MS_EPARSE, "%s:%d: %s '%s' is not a finite number", what, line, field, tok);
	if (fabs(v) > 1e7) /* trip lengths must fit an int */
		return ms_ctx_error(ctx, MS_ERANGE, "%s:%d: %s %s outside [-1e7, 1e7]", what, line, field, tok);
	*out = v;
	return MS_OK;
}

#define PW_MAX_TOKENS 8
#define PW_INT_MAX 1000000000L
/* Distance tables are planets squared; the official maps have 23 planets. */
#define PW_MAX_PLANETS 1000

/* The state being parsed and where the parser is. */
typedef struct pw_parser {
	ms_ctx *ctx;
	ms_pw_state *s;
	const char *what;
	int lineno, pcap;
	int *fleet_line, flcap; /* the line of each fleet, for the errors found after the last line */
} pw_parser;

/* Splits line (comments cut) into at most PW_MAX_TOKENS + 1 tokens; more than PW_MAX_TOKENS counts as that + 1. */
static int pw_tokenize(char *line, char **tok)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	int nt = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r\v\f", &save); t; t = strtok_r(NULL, " \t\r\v\f", &save)) {
		if (nt == PW_MAX_TOKENS) {
			nt++;
			break;
		}
		tok[nt++] = t;
	}
	return nt;
}

static int pw_parse_planet(pw_parser *ps, char **tok, int nt)
{
	ms_ctx *ctx = ps->ctx;
	ms_pw_state *s = ps->s;
	const char *what = ps->what;
	int lineno = ps->lineno, rc;
	if (nt != 6)
		return ms_ctx_error(ctx, MS_EPARSE, "%s:%d: a planet line is 'P x y owner ships growth' (%d fields, not %d)",
				    what, lineno, 6, nt);
	if (s->nf > 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s:%d: planet after a fleet line", what, lineno);
	if (s->np == PW_MAX_PLANETS)
		return ms_ctx_error(ctx, MS_ERANGE, "%s:%d: more than %d planets", what, lineno, PW_MAX_PLANETS);
	if (ms_vec_grow(ctx, (void **)&s->planets, &ps->pcap, s->np + 1, sizeof *s->planets) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	ms_pw_planet *pl = &s->planets[s->np];
	if ((rc = parse_double_tok(ctx, tok[1], what, lineno, "x", &pl->x)) ||
	    (rc = parse_double_tok(ctx, tok[2], what, lineno, "y", &pl->y)) ||
	    (rc = parse_int_tok(ctx, tok[3], what, lineno, "owner", 0, 2, &pl->owner)) ||
	    (rc = parse_int_tok(ctx, tok[4], what, lineno, "ships", 0, PW_INT_MAX, &pl->ships)) ||
	    (rc = parse_int_tok(ctx, tok[5], what, lineno, "growth", 0, 1000000, &pl->growth)))
		return rc;
	for (int i = 0; i < s->np; i++)
		if (s->planets[i].x == pl->x && s->planets[i].y == pl->y)
			return ms_ctx_error(ctx, MS_EINVAL, "%s:%d: planet %d at the position of planet %d", what, lineno,
					    s->np, i);
	s->np++;
	return MS_OK;
}

static int pw_parse_fleet(pw_parser *ps, char **tok, int nt)
{
	ms_ctx *ctx = ps->ctx;
	ms_pw_state *s = ps->s;
	const char *what = ps->what;
	int lineno = ps->lineno, rc;
	if (nt != 7)
		return ms_ctx_error(
			ctx, MS_EPARSE,
			"%s:%d: a fleet line is 'F owner ships source destination total remaining' (%d fields, not %d)",
			what, lineno, 7, nt);
	if ((rc = fleet_reserve(ctx, s, s->nf + 1)))
		return rc;
	if (ms_vec_grow(ctx, (void **)&ps->fleet_line, &ps->flcap, s->nf + 1, sizeof *ps->fleet_line) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	ms_pw_fleet *f = &s->fleets[s->nf];
	if ((rc = parse_int_tok(ctx, tok[1], what, lineno, "owner", 1, 2, &f->owner)) ||
	    (rc = parse_int_tok(ctx, tok[2], what, lineno, "ships", 0, PW_INT_MAX, &f->ships)) ||
	    (rc = parse_int_tok(ctx, tok[3], what, lineno, "source", 0, PW_INT_MAX, &f->source)) ||
	    (rc = parse_int_tok(ctx, tok[4], what, lineno, "destination", 0, PW_INT_MAX, &f->dest)) ||
	    (rc = parse_int_tok(ctx, tok[5], what, lineno, "total turns", 0, PW_INT_MAX, &f->total)) ||
	    (rc = parse_int_tok(ctx, tok[6], what, lineno, "remaining turns", 0, PW_INT_MAX, &f->remaining)))
		return rc;
	ps->fleet_line[s->nf++] = lineno;
	return MS_OK;
}

/* Reads every line of text into ps->s. */
static int pw_parse_lines(pw_parser *ps, const char *text)
{
	const char *p = text;
	char line[1024];
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		ps->lineno++;
		if (n >= sizeof line)
			return ms_ctx_error(ps->ctx, MS_EPARSE, "%s:%d: line longer than %zu bytes", ps->what, ps->lineno,
					    sizeof line - 1);
		memcpy(line, p, n);
		line[n] = 0;
		p = nl ? nl + 1 : p + n;
		char *tok[PW_MAX_TOKENS + 1];
		int nt = pw_tokenize(line, tok), rc;
		if (nt == 0)
			continue;
		if (!strcmp(tok[0], "P"))
			rc = pw_parse_planet(ps, tok, nt);
		else if (!strcmp(tok[0], "F"))
			rc = pw_parse_fleet(ps, tok, nt);
		else
			rc = ms_ctx_error(ps->ctx, MS_EPARSE, "%s:%d: unknown line '%s' (expected P or F)", ps->what,
					  ps->lineno, tok[0]);
		if (rc)
			return rc;
	}
	return MS_OK;
}

/* What can only be checked once every line is read: some planet, fleets between planets that exist. */
static int pw_check_parsed(const pw_parser *ps)
{
	const ms_pw_state *s = ps->s;
	if (s->np == 0)
		return ms_ctx_error(ps->ctx, MS_EPARSE, "%s: no planets", ps->what);
	for (int i = 0; i < s->nf; i++) {
		const ms_pw_fleet *f = &s->fleets[i];
		if (f->source >= s->np || f->dest >= s->np)
			return ms_ctx_error(ps->ctx, MS_ERANGE, "%s:%d: fleet between planets %d and %d, the map has %d",
					    ps->what, ps->fleet_line[i], f->source, f->dest, s->np);
	}
	return MS_OK;
}

int ms_pw_state_parse(ms_ctx *ctx, ms_pw_state **out, const char *text, const char *what)
{
	*out = NULL;
	if (!what)
		what = "<text>";
	ms_pw_state *s = ms_ctx_calloc(ctx, 1, sizeof *s);
	if (!s)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	s->ctx = ctx;
	pw_parser ps = { ctx, s, what, 0, 0, NULL, 0 };
	int rc = pw_parse_lines(&ps, text);
	if (!rc)
		rc = pw_check_parsed(&ps);
	ms_ctx_mfree(ctx, ps.fleet_line);
	if (!rc)
		rc = build_tables(ctx, s);
	if (rc) {
		free_parts(ctx, s);
		return rc;
	}
	*out = s;
	return MS_OK;
}

int ms_pw_state_load(ms_ctx *ctx, ms_pw_state **out, const char *path)
{
	*out = NULL;
	char *buf = NULL;
	size_t n = 0;
	int rc = ms_read_file_upto(ctx, path, "map", (size_t)64 << 20, &buf, &n);
	if (rc < 0)
		return rc;
	if (memchr(buf, 0, n)) {
		ms_ctx_mfree(ctx, buf);
		return ms_ctx_error(ctx, MS_EPARSE, "%s: contains a NUL byte", path);
	}
	rc = ms_pw_state_parse(ctx, out, buf, path);
	ms_ctx_mfree(ctx, buf);
	return rc;
}

int ms_pw_state_clone(ms_ctx *ctx, ms_pw_state **out, const ms_pw_state *src)
{
	*out = NULL;
	ms_pw_state *s = ms_ctx_calloc(ctx, 1, sizeof *s);
	if (!s)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	*s = *src;
	s->ctx = ctx;
	s->planets = NULL;
	s->fleets = NULL;
	s->fcap = 0;
	s->owns_tables = 1;
	size_t n = (size_t)src->np;
	s->planets = ms_ctx_malloc(ctx, n * sizeof *s->planets);
	s->dist = ms_ctx_malloc(ctx, n * n * sizeof(int));
	s->vdist = ms_ctx_malloc(ctx, n * n * sizeof(int));
	s->vplanets = ms_ctx_malloc(ctx, n * sizeof *s->vplanets);
	if (!s->planets || !s->dist || !s->vdist || !s->vplanets || fleet_reserve(ctx, s, src->nf > 0 ? src->nf : 1)) {
		free_parts(ctx, s);
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	}
	memcpy(s->planets, src->planets, n * sizeof *s->planets);
	memcpy(s->dist, src->dist, n * n * sizeof(int));
	memcpy(s->vdist, src->vdist, n * n * sizeof(int));
	memcpy(s->vplanets, src->vplanets, n * sizeof *s->vplanets);
	if (src->nf)
		memcpy(s->fleets, src->fleets, (size_t)src->nf * sizeof *s->fleets);
	*out = s;
	return MS_OK;
}

/* ---- accessors ---- */

int ms_pw_num_planets(const ms_pw_state *s) { return s->np; }
const ms_pw_planet *ms_pw_planet_at(const ms_pw_state *s, int i) { return &s->planets[i]; }
int ms_pw_num_fleets(const ms_pw_state *s) { return s->nf; }
const ms_pw_fleet *ms_pw_fleet_at(const ms_pw_state *s, int i) { return &s->fleets[i]; }
int ms_pw_turn(const ms_pw_state *s) { return s->turn; }
int ms_pw_distance(const ms_pw_state *s, int a, int b) { return pw_dist(s, a, b); }

int ms_pw_ships(const ms_pw_state *s, int player)
{
	long long n = 0; /* saturated: absurd maps must not overflow */
	for (int i = 0; i < s->np; i++)
		if (s->planets[i].owner == player)
			n += s->planets[i].ships;
	for (int i = 0; i < s->nf; i++)
		if (s->fleets[i].owner == player)
			n += s->fleets[i].ships;
	return n > INT_MAX ? INT_MAX : (int)n;
}

int ms_pw_production(const ms_pw_state *s, int player)
{
	long long n = 0;
	for (int i = 0; i < s->np; i++)
		if (s->planets[i].owner == player)
			n += s->planets[i].growth;
	return n > INT_MAX ? INT_MAX : (int)n;
}

int ms_pw_alive(const ms_pw_state *s, int player)
{
	for (int i = 0; i < s->np; i++)
		if (s->planets[i].owner == player)
			return 1;
	for (int i = 0; i < s->nf; i++)
		if (s->fleets[i].owner == player)
			return 1;
	return 0;
}

/* ---- rules ---- */

int ms_pw_issue(ms_ctx *ctx, ms_pw_state *s, int player, int source, int dest, int ships)
{
	if (source < 0 || source >= s->np || dest < 0 || dest >= s->np)
		return ms_ctx_error(ctx, MS_ERANGE, "player %d: order '%d %d %d' names a planet outside 0..%d", player,
				    source, dest, ships, s->np - 1);
	ms_pw_planet *p = &s->planets[source];
	if (p->owner != player)
		return ms_ctx_error(ctx, MS_EILLEGAL, "player %d: order '%d %d %d': planet %d is not the player's",
				    player, source, dest, ships, source);
	if (source == dest)
		return ms_ctx_error(ctx, MS_EILLEGAL, "player %d: order '%d %d %d': source and destination are the same",
				    player, source, dest, ships);
	if (ships < 0 || ships > p->ships)
		return ms_ctx_error(ctx, MS_EILLEGAL, "player %d: order '%d %d %d': %d ships asked, planet %d holds %d",
				    player, source, dest, ships, ships, source, p->ships);
	int rc = fleet_reserve(ctx, s, s->nf + 1);
	if (rc)
		return rc;
	p->ships -= ships;
	int d = s->dist[source * s->np + dest];
	s->fleets[s->nf++] = (ms_pw_fleet){ player, ships, source, dest, d, d };
	return MS_OK;
}

void ms_pw_step(ms_pw_state *s)
{
	for (int i = 0; i < s->np; i++)
		if (s->planets[i].owner > 0)
			s->planets[i].ships = pw_sat_add(s->planets[i].ships, s->planets[i].growth);
	int landing = 0;
	for (int i = 0; i < s->nf; i++) {
		ms_pw_fleet *f = &s->fleets[i];
		f->remaining = f->remaining > 0 ? f->remaining - 1 : 0;
		landing |= f->remaining == 0;
	}
	if (landing) {
		/* Forces per owner of each planet a fleet lands on, then its battle
		 * (pw_battle), in blocks of 64 planets. */
		int np = s->np;
		long long forces[64][3];
		for (int base = 0; base < np; base += 64) {
			int hi = base + 64 < np ? base + 64 : np;
			unsigned char hit[64] = { 0 };
			for (int i = base; i < hi; i++) {
				forces[i - base][0] = forces[i - base][1] = forces[i - base][2] = 0;
				forces[i - base][s->planets[i].owner] = s->planets[i].ships;
			}
			for (int i = 0; i < s->nf; i++) {
				const ms_pw_fleet *f = &s->fleets[i];
				if (f->remaining == 0 && f->dest >= base && f->dest < hi) {
					forces[f->dest - base][f->owner] += f->ships;
					hit[f->dest - base] = 1;
				}
			}
			for (int i = base; i < hi; i++) {
				if (!hit[i - base])
					continue;
				pw_battle(forces[i - base], &s->planets[i].owner, &s->planets[i].ships);
			}
		}
		int k = 0;
		for (int i = 0; i < s->nf; i++)
			if (s->fleets[i].remaining > 0)
				s->fleets[k++] = s->fleets[i];
		s->nf = k;
	}
	s->turn++;
}

int ms_pw_winner(const ms_pw_state *s, int max_turns)
{
	int alive1 = ms_pw_alive(s, 1), alive2 = ms_pw_alive(s, 2);
	if (s->turn > max_turns) {
		/* The engine compares the ships of the players still alive; with
		 * none alive it would loop forever, which we call a draw. */
		if (alive1 && alive2) {
			int a = ms_pw_ships(s, 1), b = ms_pw_ships(s, 2);
			return a > b ? 1 : b > a ? 2 : 0;
		}
		return alive1 ? 1 : alive2 ? 2 : 0;
	}
	if (alive1 && alive2)
		return -1;
	return alive1 ? 1 : alive2 ? 2 : 0;
}

/* ---- the protocol ---- */

static int pov_switch(int pov, int owner)
{
	if (owner == pov)
		return 1;
	if (owner == 1)
		return pov;
	return owner;
}

size_t ms_pw_format_view(const ms_pw_state *s, int pov, char *buf, size_t size)
{
	size_t len = 0;
	char x[400], y[400];
	char dummy[1];
	if (!buf || size == 0) {
		buf = dummy;
		size = 1;
	}
#define PW_PUT(...)                                                                                         \
	do {                                                                                                \
		int w_ = snprintf(len < size ? buf + len : dummy, len < size ? size - len : 1, __VA_ARGS__); \
		if (w_ > 0)                                                                                 \
			len += (size_t)w_;                                                                  \
	} while (0)
	for (int i = 0; i < s->np; i++) {
		const ms_pw_planet *p = &s->planets[i];
		java_format_f(p->x, x, sizeof x);
		java_format_f(p->y, y, sizeof y);
		PW_PUT("P %s %s %d %d %d\n", x, y, pov_switch(pov, p->owner), p->ships, p->growth);
	}
	for (int i = 0; i < s->nf; i++) {
		const ms_pw_fleet *f = &s->fleets[i];
		PW_PUT("F %d %d %d %d %d %d\n", pov_switch(pov, f->owner), f->ships, f->source, f->dest, f->total,
		       f->remaining);
	}
	PW_PUT("go\n");
#undef PW_PUT
	if (buf == dummy)
		dummy[0] = 0;
	return len;
}

int ms_pw_make_view(ms_ctx *ctx, const ms_pw_state *s, int pov, ms_pw_state **view)
{
	ms_pw_state *v = *view;
	if (v && (v->np != s->np || v->vdist != s->vdist)) {
		ms_pw_state_free(v);
		v = *view = NULL;
	}
	if (!v) {
		v = ms_ctx_calloc(ctx, 1, sizeof *v);
		if (!v)
			return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
		v->ctx = ctx;
		v->np = s->np;
		v->planets = ms_ctx_malloc(ctx, (size_t)s->np * sizeof *v->planets);
		if (!v->planets) {
			free_parts(ctx, v);
			return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
		}
		v->is_view = 1;
		v->owns_tables = 0;
		v->dist = s->dist;
		v->vdist = s->vdist;
		v->vplanets = s->vplanets;
		*view = v;
	}
	if (fleet_reserve(ctx, v, s->nf))
		return ms_ctx_last_status(ctx);
	for (int i = 0; i < s->np; i++) {
		ms_pw_planet p = s->planets[i];
		p.x = s->vplanets[i].x;
		p.y = s->vplanets[i].y;
		p.owner = pov_switch(pov, p.owner);
		v->planets[i] = p;
	}
	for (int i = 0; i < s->nf; i++) {
		ms_pw_fleet f = s->fleets[i];
		f.owner = pov_switch(pov, f.owner);
		v->fleets[i] = f;
	}
	v->nf = s->nf;
	v->turn = s->turn;
	return MS_OK;
}

/* ---- orders ---- */

int ms_pw_orders_new(ms_ctx *ctx, ms_pw_orders **out)
{
	ms_pw_orders *o = ms_ctx_calloc(ctx, 1, sizeof *o);
	if (!o)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	o->ctx = ctx;
	*out = o;
	return MS_OK;
}

void ms_pw_orders_free(ms_pw_orders *o)
{
	if (!o)
		return;
	ms_ctx_mfree(o->ctx, o->v);
	ms_ctx_mfree(o->ctx, o);
}

void ms_pw_orders_clear(ms_pw_orders *o) { o->n = 0; }
int ms_pw_orders_count(const ms_pw_orders *o) { return o->n; }
const ms_pw_order *ms_pw_orders_at(const ms_pw_orders *o, int i) { return &o->v[i]; }

int ms_pw_orders_add(ms_pw_orders *o, int source, int dest, int ships)
{
	if (ms_vec_grow(o->ctx, (void **)&o->v, &o->cap, (long long)o->n + 1, sizeof *o->v) < 0)
		return ms_ctx_error(o->ctx, MS_ENOMEM, "planetwars: out of memory for orders");
	o->v[o->n++] = (ms_pw_order){ source, dest, ships };
	return MS_OK;
}

int ms_pw_order_parse(ms_ctx *ctx, const char *line, const char *what, ms_pw_order *out, int *go)
{
	*go = 0;
	if (!what)
		what = "order";
	const char *p = line;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '\n'))
		n--;
	if (n == 2 && (p[0] == 'g' || p[0] == 'G') && (p[1] == 'o' || p[1] == 'O')) {
		*go = 1;
		return MS_OK;
	}
	long v[3];
	const char *q = p, *end = p + n;
	for (int k = 0; k < 3; k++) {
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		char *e;
		errno = 0;
		v[k] = q < end ? strtol(q, &e, 10) : 0;
		if (q >= end || e == q || e > end || errno || v[k] < -PW_INT_MAX || v[k] > PW_INT_MAX ||
		    (e < end && *e != ' ' && *e != '\t'))
			return ms_ctx_error(ctx, MS_EPARSE,
					    "%s: '%.*s' is not an order 'source destination ships' or 'go'", what,
					    (int)(n > 80 ? 80 : n), p);
		q = e;
	}
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q != end)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: '%.*s' has more than three numbers", what,
				    (int)(n > 80 ? 80 : n), p);
	out->source = (int)v[0];
	out->dest = (int)v[1];
	out->ships = (int)v[2];
	return MS_OK;
}
