/*
 * The official engine's playbacks (PlayGame's output, one game per file):
 * the map, then after '|' one entry per turn separated by ':', each the
 * turn's planets as owner.ships then its fleets as
 * owner.ships.source.dest.total.remaining, separated by ','. Empty entries
 * and items are skipped, as the engine's viewer does. The replay command
 * checks the native engine against them turn by turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/planetwars/pw_internal.h"
#include "core/vec.h"

typedef struct pb_fleet {
	int v[6]; /* owner, ships, source, dest, total, remaining */
} pb_fleet;

struct ms_pw_playback {
	ms_ctx *ctx; /* its allocator: ms_pw_playback_free needs no context */
	int np;
	MS_VEC(int) planets;   /* turn k's planet i: [(k * np + i) * 2] owner, then ships */
	MS_VEC(int) first;     /* turn k's fleets: fleets.v[first.v[k] .. first.v[k + 1]) */
	MS_VEC(pb_fleet) fleets; /* per turn, sorted */
};

static int cmp_fleet(const void *a, const void *b)
{
	const pb_fleet *x = a, *y = b;
	for (int i = 0; i < 6; i++)
		if (x->v[i] != y->v[i])
			return x->v[i] < y->v[i] ? -1 : 1;
	return 0;
}

/* The next token of *p up to `delim` (NUL-terminated in place), skipping empty ones as strtok does; NULL at the end. */
static char *next_token(char **p, char delim)
{
	char *s = *p;
	while (*s == delim)
		s++;
	if (!*s)
		return NULL;
	char *e = strchr(s, delim);
	if (e)
		*e++ = 0;
	else
		e = s + strlen(s);
	*p = e;
	return s;
}

/* Up to six integers separated by '.'; their count. */
static int item_numbers(const char *c, int v[6])
{
	int nv = 0;
	while (nv < 6) {
		char *end;
		long x = strtol(c, &end, 10);
		if (end == c)
			break;
		v[nv++] = x > 2147483647L ? 2147483647 : x < -2147483647L - 1 ? -2147483647 - 1 : (int)x;
		c = end;
		if (*c != '.')
			break;
		c++;
	}
	return nv;
}

/* One turn's entry (trimmed, not empty) as turn number n. */
static int parse_turn(ms_ctx *ctx, ms_pw_playback *pb, char *e, int n, const char *what)
{
	int np = pb->np, idx = 0, rc;
	if ((rc = ms_vec_reserve(ctx, &pb->planets, (long long)pb->planets.n + 2LL * np)) < 0)
		return rc;
	for (char *it, *p = e; (it = next_token(&p, ',')); idx++) {
		int v[6], nv = item_numbers(it, v);
		if (idx < np) {
			if (nv != 2)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: turn %d: planet item '%s' is not owner.ships", what, n,
						    it);
			pb->planets.v[pb->planets.n++] = v[0];
			pb->planets.v[pb->planets.n++] = v[1];
		} else {
			if (nv != 6)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: turn %d: fleet item '%s' is not six numbers", what,
						    n, it);
			pb_fleet *f = ms_vec_push(ctx, &pb->fleets);
			if (!f)
				return MS_ENOMEM;
			memcpy(f->v, v, sizeof v);
		}
	}
	if (idx < np)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: turn %d: %d planets, the map has %d", what, n, idx, np);
	int *next = ms_vec_push(ctx, &pb->first);
	if (!next)
		return MS_ENOMEM;
	*next = pb->fleets.n;
	int from = pb->first.v[pb->first.n - 2];
	if (pb->fleets.n > from)
		qsort(pb->fleets.v + from, (size_t)(pb->fleets.n - from), sizeof(pb_fleet), cmp_fleet);
	return 0;
}

static int parse_turns(ms_ctx *ctx, ms_pw_playback *pb, char *text, const char *what)
{
	char *bar = strchr(text, '|');
	if (!bar)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: no '|' in the playback", what);
	int *zero = ms_vec_push(ctx, &pb->first);
	if (!zero)
		return MS_ENOMEM;
	*zero = 0;
	int n = 0, rc;
	for (char *e, *p = bar + 1; (e = next_token(&p, ':'));) {
		while (*e == ' ' || *e == '\n' || *e == '\r')
			e++;
		size_t l = strlen(e);
		while (l && (e[l - 1] == '\n' || e[l - 1] == '\r' || e[l - 1] == ' '))
			e[--l] = 0;
		if (*e && (rc = parse_turn(ctx, pb, e, ++n, what)) < 0)
			return rc;
	}
	return 0;
}

int ms_pw_playback_parse(ms_ctx *ctx, ms_pw_playback **out, const char *text, size_t len, int np, const char *what)
{
	*out = NULL;
	what = what ? what : "playback";
	if (!text || np < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: no text or a negative planet count", what);
	ms_pw_playback *pb = ms_ctx_calloc(ctx, 1, sizeof *pb);
	char *copy = ms_ctx_malloc(ctx, len + 1);
	int rc = MS_ENOMEM;
	if (pb)
		pb->ctx = ctx;
	if (pb && copy) {
		memcpy(copy, text, len);
		copy[len] = 0; /* a NUL inside ends the text, as it ended the file's reading */
		pb->np = np;
		rc = parse_turns(ctx, pb, copy, what);
	} else {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for %zu bytes", what, len);
	}
	ms_ctx_mfree(ctx, copy);
	if (rc < 0) {
		ms_pw_playback_free(pb);
		return rc;
	}
	*out = pb;
	return MS_OK;
}

void ms_pw_playback_free(ms_pw_playback *pb)
{
	if (!pb)
		return;
	ms_ctx *ctx = pb->ctx;
	ms_ctx_mfree(ctx, pb->planets.v);
	ms_ctx_mfree(ctx, pb->first.v);
	ms_ctx_mfree(ctx, pb->fleets.v);
	ms_ctx_mfree(ctx, pb);
}

int ms_pw_playback_turns(const ms_pw_playback *pb)
{
	return pb ? pb->first.n - 1 : 0;
}

/* The first fleet where the sorted lists `a` (official) and `b` (native) differ, as text. */
static void first_difference(const pb_fleet *a, int na, const pb_fleet *b, int nb, char *ta, char *tb, size_t size)
{
	int i = 0;
	while (i < na && i < nb && !cmp_fleet(&a[i], &b[i]))
		i++;
	snprintf(ta, size, "none");
	snprintf(tb, size, "none");
	if (i < na)
		snprintf(ta, size, "%d.%d.%d.%d.%d.%d", a[i].v[0], a[i].v[1], a[i].v[2], a[i].v[3], a[i].v[4], a[i].v[5]);
	if (i < nb)
		snprintf(tb, size, "%d.%d.%d.%d.%d.%d", b[i].v[0], b[i].v[1], b[i].v[2], b[i].v[3], b[i].v[4], b[i].v[5]);
}

int ms_pw_playback_check(ms_ctx *ctx, const ms_pw_playback *pb, int k, const ms_pw_state *s, char *msg,
			 size_t size)
{
	int turns = ms_pw_playback_turns(pb), np = ms_pw_num_planets(s), nf = ms_pw_num_fleets(s);
	if (k >= turns) {
		snprintf(msg, size, "turn %d: native game goes on, the playback has %d turns", k + 1, turns);
		return 1;
	}
	if (k < 0 || np != pb->np)
		return ms_ctx_error(ctx, MS_EINVAL, "playback check: turn %d of %d, %d planets for a playback of %d", k,
				    turns, np, pb->np);
	const int *t = np ? &pb->planets.v[(size_t)k * (size_t)np * 2] : NULL;
	for (int i = 0; i < np; i++) {
		const ms_pw_planet *p = ms_pw_planet_at(s, i);
		if (p->owner != t[2 * i] || p->ships != t[2 * i + 1]) {
			snprintf(msg, size, "turn %d: planet %d official %d.%d native %d.%d", k + 1, i, t[2 * i],
				 t[2 * i + 1], p->owner, p->ships);
			return 1;
		}
	}
	int n_official = pb->first.v[k + 1] - pb->first.v[k];
	const pb_fleet *official = n_official ? &pb->fleets.v[pb->first.v[k]] : NULL;
	pb_fleet *mine = ms_ctx_malloc(ctx, (size_t)(nf ? nf : 1) * sizeof *mine);
	if (!mine)
		return ms_ctx_error(ctx, MS_ENOMEM, "turn %d: out of memory for %d fleets", k + 1, nf);
	for (int i = 0; i < nf; i++) {
		const ms_pw_fleet *f = ms_pw_fleet_at(s, i);
		mine[i] = (pb_fleet){ { f->owner, f->ships, f->source, f->dest, f->total, f->remaining } };
	}
	qsort(mine, (size_t)nf, sizeof *mine, cmp_fleet);
	int bad = nf != n_official;
	for (int i = 0; !bad && i < nf; i++)
		bad = cmp_fleet(&mine[i], &official[i]) != 0;
	if (bad) {
		char a[96], b[96];
		first_difference(official, n_official, mine, nf, a, b, sizeof a);
		snprintf(msg, size, "turn %d: fleets differ (official %d, native %d); first difference: official %s native %s",
			 k + 1, n_official, nf, a, b);
	}
	ms_ctx_mfree(ctx, mine);
	return bad;
}
