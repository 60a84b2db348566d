/*
 * Can't Stop rules as the reference engine (game.py of era A, optionally
 * era B) implements them: dice, legal lists in CPython set order, advancing,
 * stopping, busting, winning; plus the text form of a state.
 *
 * The board is kept per column (one neutral, one permanent marker per
 * player, the owner once claimed) rather than as the reference's cells of
 * marker lists: the reference never lets two markers of one kind share a
 * column, so the two forms carry the same information.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "core/hash.h"

int ms_cs_height(int c)
{
	return cs__valid_column(c) ? cs__height[c] : 0;
}

/* ---- generator ---------------------------------------------------------- */

void ms_cs_rng_seed(ms_cs_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t ms_cs_rng_next(ms_cs_rng *r)
{
	return ms_splitmix64_next(&r->s);
}

/* Lemire's multiply-and-reject on the high 32 bits of each draw. */
uint32_t ms_cs_rng_below(ms_cs_rng *r, uint32_t n)
{
	uint64_t m = (ms_cs_rng_next(r) >> 32) * (uint64_t)n;
	uint32_t low = (uint32_t)m;

	if (low < n) {
		uint32_t t = (uint32_t)(-n) % n;

		while (low < t) {
			m = (ms_cs_rng_next(r) >> 32) * (uint64_t)n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

void ms_cs_roll(ms_cs_state *s)
{
	/* One draw of 6^4 outcomes gives the four dice. */
	uint32_t v = ms_cs_rng_below(&s->dice, 1296);

	for (int i = 0; i < 4; i++) {
		s->roll[i] = (int8_t)(v % 6 + 1);
		v /= 6;
	}
}

/* ---- moves -------------------------------------------------------------- */

int ms_cs_move_equal(const ms_cs_move *a, const ms_cs_move *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind != MS_CS_MOVE_COLUMNS)
		return 1;
	if (a->n != b->n || a->col[0] != b->col[0])
		return 0;
	return a->n == 1 || a->col[1] == b->col[1];
}

int ms_cs_move_format(const ms_cs_move *m, char *buf, size_t size)
{
	if (m->kind == MS_CS_MOVE_YES)
		return snprintf(buf, size, "y");
	if (m->kind == MS_CS_MOVE_NO)
		return snprintf(buf, size, "n");
	if (m->n == 2)
		return snprintf(buf, size, "%d,%d", m->col[0], m->col[1]);
	return snprintf(buf, size, "%d", m->col[0]);
}

/* Reads a column number at *p; advances *p. */
static int cs_read_int(const char **p, long *out)
{
	char *end;
	long v = strtol(*p, &end, 10);

	if (**p < '0' || **p > '9' || end == *p)
		return -1;
	*p = end;
	*out = v;
	return 0;
}

int ms_cs_move_parse(ms_ctx *ctx, ms_cs_move *m, const char *text)
{
	const char *p = text;
	long a, b;

	memset(m, 0, sizeof(*m));
	if (!strcmp(text, "y") || !strcmp(text, "n")) {
		m->kind = text[0] == 'y' ? MS_CS_MOVE_YES : MS_CS_MOVE_NO;
		return MS_OK;
	}
	if (cs_read_int(&p, &a) || !cs__valid_column((int)a))
		goto bad;
	m->kind = MS_CS_MOVE_COLUMNS;
	m->n = 1;
	m->col[0] = (int8_t)a;
	if (*p == ',') {
		p++;
		if (cs_read_int(&p, &b) || !cs__valid_column((int)b))
			goto bad;
		m->n = 2;
		m->col[1] = (int8_t)b;
	}
	if (*p)
		goto bad;
	return MS_OK;
bad:
	return ctx ? ms_ctx_error(ctx, MS_EPARSE, "cantstop move '%s': expected y, n, a column 2..12 or two "
				  "columns 'a,b'", text) : MS_EPARSE;
}

/* ---- state -------------------------------------------------------------- */

int ms_cs_state_init(ms_ctx *ctx, ms_cs_state *s, int era, uint64_t dice_seed)
{
	if (era != MS_CS_ERA_A && era != MS_CS_ERA_B)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop: unknown era %d (0 = A, 1 = B)", era)
			   : MS_EINVAL;
	memset(s, 0, sizeof(*s));
	memset(s->neutral, -1, sizeof(s->neutral));
	memset(s->marker, -1, sizeof(s->marker));
	s->player = 1;
	s->dice_action = 1;
	s->era = (int8_t)era;
	ms_cs_rng_seed(&s->dice, dice_seed);
	ms_cs_roll(s);
	return MS_OK;
}

/* ---- legal lists ---------------------------------------------------------- */

/*
 * The reference lists its actions by building a Python set of tuples and
 * iterating it, so the order is CPython's: tuple hashes (xxHash-based since
 * 3.8) placed in an open-addressing table with linear probes of up to 9
 * slots, then perturbed probing, resized to the smallest power of two above
 * 4 x used when 3/5 full; iteration is slot order. Keys are packed as
 * n<<8 | first<<4 | second (0 is the empty slot).
 */
#define CS_XXP1 UINT64_C(11400714785074694791)
#define CS_XXP2 UINT64_C(14029467366897019727)
#define CS_XXP5 UINT64_C(2870177450012600261)

static inline uint64_t cs_xx_lane(uint64_t acc, uint64_t x)
{
	acc += x * CS_XXP2;
	acc = (acc << 31) | (acc >> 33);
	return acc * CS_XXP1;
}

static uint64_t cs_tuple_hash(unsigned key)
{
	unsigned n = key >> 8;
	uint64_t acc = cs_xx_lane(CS_XXP5, (key >> 4) & 15u);

	if (n == 2)
		acc = cs_xx_lane(acc, key & 15u);
	acc += (uint64_t)n ^ (CS_XXP5 ^ UINT64_C(3527539));
	return acc == UINT64_MAX ? UINT64_C(1546275796) : acc;
}

/* Returns 1 if placed, 0 if an equal key is there. */
static int cs_set_place(uint16_t *keys, uint64_t *hashes, size_t mask, uint16_t key, uint64_t h)
{
	size_t i = (size_t)(h & mask);
	uint64_t perturb = h;

	for (;;) {
		size_t probes = (i + 9 <= mask) ? 9 : 0;
		size_t j = i;

		for (;;) {
			if (keys[j] == 0) {
				keys[j] = key;
				hashes[j] = h;
				return 1;
			}
			if (keys[j] == key)
				return 0;
			if (probes-- == 0)
				break;
			j++;
		}
		perturb >>= 5;
		i = (size_t)((i * 5 + 1 + perturb) & mask);
	}
}

/* Lists keys[0..n) (with repeats) in CPython set order; returns the count. */
static int cs_set_order(const uint16_t *in, int n, uint16_t *out)
{
	uint16_t keys[32], old_keys[32];
	uint64_t hashes[32], old_hashes[32];
	size_t mask = 7;
	int used = 0, k = 0;

	if (n == 1) {
		out[0] = in[0];
		return 1;
	}
	memset(keys, 0, 8 * sizeof(keys[0]));
	for (int i = 0; i < n; i++) {
		if (!cs_set_place(keys, hashes, mask, in[i], cs_tuple_hash(in[i])))
			continue;
		used++;
		if ((size_t)used * 5 < mask * 3)
			continue;
		/* At most 12 keys: one resize, to 32 slots. */
		size_t size = 8, old_mask = mask;

		while (size <= (size_t)used * 4)
			size <<= 1;
		memcpy(old_keys, keys, (old_mask + 1) * sizeof(keys[0]));
		memcpy(old_hashes, hashes, (old_mask + 1) * sizeof(hashes[0]));
		memset(keys, 0, size * sizeof(keys[0]));
		mask = size - 1;
		for (size_t j = 0; j <= old_mask; j++)
			if (old_keys[j])
				cs_set_place(keys, hashes, mask, old_keys[j], old_hashes[j]);
	}
	for (size_t j = 0; j <= mask; j++)
		if (keys[j])
			out[k++] = keys[j];
	return k;
}

static inline uint16_t cs_key1(int a)
{
	return (uint16_t)(1u << 8 | (unsigned)a << 4);
}

static inline uint16_t cs_key2(int a, int b)
{
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	return (uint16_t)(2u << 8 | (unsigned)a << 4 | (unsigned)b);
}

static inline uint16_t cs_key(const ms_cs_move *m)
{
	return m->n == 2 ? cs_key2(m->col[0], m->col[1]) : cs_key1(m->col[0]);
}

static void cs_unkey(uint16_t key, ms_cs_move *m)
{
	m->kind = MS_CS_MOVE_COLUMNS;
	m->n = (int8_t)(key >> 8);
	m->col[0] = (int8_t)((key >> 4) & 15u);
	m->col[1] = (int8_t)(m->n == 2 ? key & 15u : 0);
}

int cs__set_order(const ms_cs_move *in, int n, ms_cs_move *out)
{
	uint16_t keys[12], listed[12];
	int k;

	n = n > 12 ? 12 : n;
	for (int i = 0; i < n; i++)
		keys[i] = cs_key(&in[i]);
	k = cs_set_order(keys, n, listed);
	for (int i = 0; i < k; i++)
		cs_unkey(listed[i], &out[i]);
	return k;
}

int ms_cs_legal_actions(const ms_cs_state *s, ms_cs_move out[MS_CS_MAX_ACTIONS])
{
	static const ms_cs_move yes_no[2] = { { MS_CS_MOVE_YES, 0, { 0, 0 } }, { MS_CS_MOVE_NO, 0, { 0, 0 } } };
	uint16_t cand[12], keys[12];
	int nc = 0, n, nn = s->n_neutral;
	const int8_t *d = s->roll;

	if (!s->dice_action) {
		out[0] = yes_no[0];
		out[1] = yes_no[1];
		return 2;
	}
	for (int p = 0; p < 3; p++) {
		/* The pairings (d0+d1, d2+d3), (d0+d2, d1+d3), (d0+d3, d1+d2). */
		int a = d[0] + d[p + 1];
		int b = p == 0 ? d[2] + d[3] : p == 1 ? d[1] + d[3] : d[1] + d[2];
		int oa = cs__open(s, a), ob = cs__open(s, b);
		int na = s->neutral[a] >= 0, nb = s->neutral[b] >= 0;
		int va = oa && (nn < 3 || na), vb = ob && (nn < 3 || nb);
		int pair_ok = oa && ob && (nn <= 1 || (nn == 2 ? (na || nb || a == b) : (na && nb)));

		if (pair_ok) {
			cand[nc++] = cs_key2(a, b);
		} else if (va && vb) {
			cand[nc++] = cs_key1(a);
			cand[nc++] = cs_key1(b);
		}
		if (va && !vb)
			cand[nc++] = cs_key1(a);
		if (vb && !va)
			cand[nc++] = cs_key1(b);
	}
	n = cs_set_order(cand, nc, keys);
	for (int i = 0; i < n; i++)
		cs_unkey(keys[i], &out[i]);
	return n;
}

/* ---- playing ---------------------------------------------------------------- */

static void cs_order_remove(ms_cs_state *s, int c)
{
	for (int i = 0; i < s->n_order; i++)
		if (s->order[i] == c) {
			for (int j = i + 1; j < s->n_order; j++)
				s->order[j - 1] = s->order[j];
			s->order[--s->n_order] = 0; /* unused entries stay zero */
			return;
		}
}

static void cs_order_append(ms_cs_state *s, int c)
{
	if (s->n_order < MS_CS_MAX_NEUTRALS)
		s->order[s->n_order++] = (uint8_t)c;
}

/* Saturates: only a score's replay, which checks nothing, could go far. */
static inline void cs_count_neutral(ms_cs_state *s)
{
	if (s->n_neutral < INT8_MAX)
		s->n_neutral++;
}

/* One advance in column c (spec 2.5). */
static void cs_advance_column(ms_cs_state *s, int c)
{
	int top = cs__height[c] - 1, z = s->neutral[c], p = s->marker[s->player][c];
	uint16_t bit = (uint16_t)(1u << c);

	if (z < 0 && p < 0) {
		s->neutral[c] = 0;
		cs_count_neutral(s);
		cs_order_append(s, c);
	} else if (z < 0) {
		/* A neutral is used even when the claim goes through the permanent
		 * marker on the top cell and none is placed (spec 2.11 item 4). */
		cs_count_neutral(s);
		if (p == top) {
			s->won |= bit;
		} else {
			s->neutral[c] = (int8_t)(p + 1);
			cs_order_append(s, c);
		}
	} else if (z == top) {
		if (!(s->won & bit)) {
			s->won |= bit;
			if (s->era == MS_CS_ERA_B) {
				s->neutral[c] = -1;
				cs_order_remove(s, c);
			}
		}
	} else {
		s->neutral[c] = (int8_t)(z + 1);
		cs_order_remove(s, c);
		cs_order_append(s, c);
	}
}

void ms_cs_advance(ms_cs_state *s, const ms_cs_move *m, int reroll)
{
	for (int i = 0; i < m->n && i < 2; i++)
		if (cs__valid_column(m->col[i]))
			cs_advance_column(s, m->col[i]);
	if (s->era == MS_CS_ERA_B && s->n_neutral > 3)
		s->n_neutral = 3;
	s->dice_action = 0;
	if (reroll)
		ms_cs_roll(s);
}

void ms_cs_stop(ms_cs_state *s)
{
	int pl = s->player;

	/* Neutrals become the player's markers, replacing the lower ones. */
	for (int i = 0; i < s->n_order; i++) {
		int c = s->order[i];

		s->marker[pl][c] = s->neutral[c];
		s->neutral[c] = -1;
	}
	for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++) {
		if (!((s->won >> c) & 1u))
			continue;
		if (!s->owner[c])
			s->owner[c] = (int8_t)pl;
		if (s->finished[pl] < UINT8_MAX)
			s->finished[pl]++;
		/* Claiming clears the column, the opponent's progress included. */
		s->marker[1][c] = s->marker[2][c] = -1;
		s->neutral[c] = -1;
	}
	s->won = 0;
	s->player = (int8_t)(3 - pl);
	s->n_neutral = 0;
	memset(s->order, 0, sizeof(s->order));
	s->n_order = 0;
	s->dice_action = 1;
}

void ms_cs_erase_neutrals(ms_cs_state *s)
{
	for (int i = 0; i < s->n_order; i++)
		s->neutral[s->order[i]] = -1;
	memset(s->order, 0, sizeof(s->order));
	s->n_order = 0;
	s->n_neutral = 0;
}

void ms_cs_bust(ms_cs_state *s)
{
	ms_cs_erase_neutrals(s);
	s->won = 0;
	s->player = (int8_t)(3 - s->player);
	ms_cs_roll(s);
}

int ms_cs_winner(const ms_cs_state *s)
{
	if (s->finished[1] >= 3)
		return 1;
	if (s->finished[2] >= 3)
		return 2;
	return 0;
}

int ms_cs_play(ms_ctx *ctx, ms_cs_state *s, const ms_cs_move *m)
{
	if (m->kind == MS_CS_MOVE_COLUMNS) {
		if (!s->dice_action)
			return ctx ? ms_ctx_error(ctx, MS_EILLEGAL, "cantstop: a column move at a yes/no decision")
				   : MS_EILLEGAL;
		if (m->n < 1 || m->n > 2 || !cs__valid_column(m->col[0]) ||
		    (m->n == 2 && !cs__valid_column(m->col[1])))
			return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop: a column move needs 1 or 2 columns in "
						  "2..12") : MS_EINVAL;
		ms_cs_advance(s, m, 1);
		return MS_OK;
	}
	if (m->kind != MS_CS_MOVE_YES && m->kind != MS_CS_MOVE_NO)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop: unknown move kind %d", m->kind) : MS_EINVAL;
	if (s->dice_action)
		return ctx ? ms_ctx_error(ctx, MS_EILLEGAL, "cantstop: a yes/no answer at a column decision")
			   : MS_EILLEGAL;
	if (m->kind == MS_CS_MOVE_NO)
		ms_cs_stop(s);
	else
		s->dice_action = 1;
	return MS_OK;
}

/* ---- text form ---------------------------------------------------------------- */

int ms_cs_state_format(const ms_cs_state *s, char *buf, size_t size)
{
	char tmp[512];
	size_t n = 0;

#define CS_PUT(...)                                                                  \
	do {                                                                          \
		int w_ = snprintf(tmp + n, sizeof(tmp) - n, __VA_ARGS__);                 \
		if (w_ > 0)                                                               \
			n = n + (size_t)w_ < sizeof(tmp) ? n + (size_t)w_ : sizeof(tmp) - 1; \
	} while (0)
	CS_PUT("p=%d phase=%s roll=%d,%d,%d,%d nn=%d", s->player, s->dice_action ? "column" : "yesno", s->roll[0],
	       s->roll[1], s->roll[2], s->roll[3], s->n_neutral);
	for (int i = 0; i < s->n_order; i++)
		CS_PUT("%s%d:%d", i ? "," : " neutral=", s->order[i], s->neutral[s->order[i]]);
	for (int pl = 1; pl <= 2; pl++) {
		int first = 1;

		for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
			if (s->marker[pl][c] >= 0) {
				CS_PUT("%s%d:%d", first ? (pl == 1 ? " m1=" : " m2=") : ",", c, s->marker[pl][c]);
				first = 0;
			}
	}
	if (s->won) {
		int first = 1;

		for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
			if ((s->won >> c) & 1u) {
				CS_PUT("%s%d", first ? " won=" : ",", c);
				first = 0;
			}
	}
	{
		/* A score's replay can claim a column twice: entries beyond the
		 * first owner of a column are written again so the counts survive. */
		int first = 1, owned[3] = { 0, 0, 0 }, any = 0;

		for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
			if (s->owner[c]) {
				CS_PUT("%s%d:%d", first ? " fin=" : ",", c, s->owner[c]);
				owned[s->owner[c]]++;
				any = any ? any : c;
				first = 0;
			}
		for (int pl = 1; pl <= 2; pl++)
			for (int k = owned[pl]; k < s->finished[pl]; k++) {
				int col = any ? any : MS_CS_FIRST_COLUMN;

				for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
					if (s->owner[c] == pl) {
						col = c;
						break;
					}
				CS_PUT("%s%d:%d", first ? " fin=" : ",", col, pl);
				first = 0;
			}
	}
	CS_PUT(" era=%c", s->era == MS_CS_ERA_B ? 'B' : 'A');
#undef CS_PUT
	if (size)
		snprintf(buf, size, "%s", tmp);
	return (int)n;
}

typedef struct cs_parser {
	ms_ctx *ctx;
	const char *what, *text, *p;
} cs_parser;

static int cs_parse_error(cs_parser *ps, const char *msg)
{
	if (!ps->ctx)
		return MS_EPARSE;
	return ms_ctx_error(ps->ctx, MS_EPARSE, "%s: column %d: %s", ps->what ? ps->what : "cantstop state",
			    (int)(ps->p - ps->text) + 1, msg);
}

/* Reads an integer in [lo, hi] at ps->p. */
static int cs_parse_int(cs_parser *ps, long lo, long hi, long *out)
{
	const char *start = ps->p;

	if (cs_read_int(&ps->p, out) || *out < lo || *out > hi) {
		char msg[96];

		ps->p = start;
		snprintf(msg, sizeof(msg), "expected an integer in [%ld, %ld]", lo, hi);
		return cs_parse_error(ps, msg);
	}
	return 0;
}

static int cs_at_item_end(const cs_parser *ps)
{
	return *ps->p == '\0' || *ps->p == ' ' || *ps->p == '\t';
}

/* "c:k,c:k,..." with c a column and k in [0, limit(c)) — limit 0: owner 1..2. */
static int cs_parse_pairs(cs_parser *ps, int owners, int *cols, int *vals, int max, int *count)
{
	int n = 0;

	while (!cs_at_item_end(ps)) {
		long c, v;
		int rc;

		if (n == max)
			return cs_parse_error(ps, "too many entries");
		if ((rc = cs_parse_int(ps, MS_CS_FIRST_COLUMN, MS_CS_LAST_COLUMN, &c)))
			return rc;
		if (*ps->p != ':')
			return cs_parse_error(ps, "expected ':' after the column");
		ps->p++;
		if ((rc = cs_parse_int(ps, owners ? 1 : 0, owners ? 2 : cs__height[c] - 1, &v)))
			return rc;
		cols[n] = (int)c;
		vals[n++] = (int)v;
		if (*ps->p == ',')
			ps->p++;
		else if (!cs_at_item_end(ps))
			return cs_parse_error(ps, "expected ',' or the end of the item");
	}
	*count = n;
	return 0;
}

int ms_cs_state_parse(ms_ctx *ctx, ms_cs_state *s, const char *text, const char *what)
{
	cs_parser ps = { ctx, what, text, text };
	long nn = -1;
	int rc;

	ms_cs_state_init(NULL, s, MS_CS_ERA_A, 0);
	s->roll[0] = s->roll[1] = s->roll[2] = s->roll[3] = 1;
	for (;;) {
		const char *key;
		size_t klen;

		while (*ps.p == ' ' || *ps.p == '\t' || *ps.p == '\n' || *ps.p == '\r')
			ps.p++;
		if (!*ps.p)
			break;
		key = ps.p;
		while (*ps.p && *ps.p != '=' && *ps.p != ' ')
			ps.p++;
		if (*ps.p != '=')
			return cs_parse_error(&ps, "expected key=value");
		klen = (size_t)(ps.p - key);
		ps.p++;
#define CS_KEY(k) (klen == sizeof(k) - 1 && !memcmp(key, k, klen))
		if (CS_KEY("p")) {
			long v;

			if ((rc = cs_parse_int(&ps, 1, 2, &v)))
				return rc;
			s->player = (int8_t)v;
		} else if (CS_KEY("phase")) {
			if (!strncmp(ps.p, "column", 6)) {
				s->dice_action = 1;
				ps.p += 6;
			} else if (!strncmp(ps.p, "yesno", 5)) {
				s->dice_action = 0;
				ps.p += 5;
			} else {
				return cs_parse_error(&ps, "phase is 'column' or 'yesno'");
			}
		} else if (CS_KEY("roll")) {
			for (int i = 0; i < 4; i++) {
				long v;

				if ((rc = cs_parse_int(&ps, 1, 6, &v)))
					return rc;
				s->roll[i] = (int8_t)v;
				if (i < 3) {
					if (*ps.p != ',')
						return cs_parse_error(&ps, "roll needs four dice 'a,b,c,d'");
					ps.p++;
				}
			}
		} else if (CS_KEY("nn")) {
			if ((rc = cs_parse_int(&ps, 0, 100, &nn)))
				return rc;
		} else if (CS_KEY("neutral") || CS_KEY("m1") || CS_KEY("m2")) {
			int cols[MS_CS_MAX_NEUTRALS], vals[MS_CS_MAX_NEUTRALS], n = 0;
			int which = key[0] == 'n' ? 0 : key[1] - '0';

			if ((rc = cs_parse_pairs(&ps, 0, cols, vals, MS_CS_MAX_NEUTRALS, &n)))
				return rc;
			for (int i = 0; i < n; i++) {
				int8_t *slot = which ? &s->marker[which][cols[i]] : &s->neutral[cols[i]];

				if (*slot >= 0)
					return cs_parse_error(&ps, "two markers of one kind in one column");
				*slot = (int8_t)vals[i];
				if (!which)
					s->order[s->n_order++] = (uint8_t)cols[i];
			}
		} else if (CS_KEY("won")) {
			while (!cs_at_item_end(&ps)) {
				long c;

				if ((rc = cs_parse_int(&ps, MS_CS_FIRST_COLUMN, MS_CS_LAST_COLUMN, &c)))
					return rc;
				s->won |= (uint16_t)(1u << c);
				if (*ps.p == ',')
					ps.p++;
				else if (!cs_at_item_end(&ps))
					return cs_parse_error(&ps, "expected ',' or the end of the item");
			}
		} else if (CS_KEY("fin")) {
			int cols[22], vals[22], n = 0;

			if ((rc = cs_parse_pairs(&ps, 1, cols, vals, 22, &n)))
				return rc;
			for (int i = 0; i < n; i++) {
				if (!s->owner[cols[i]])
					s->owner[cols[i]] = (int8_t)vals[i];
				s->finished[vals[i]]++;
			}
		} else if (CS_KEY("era")) {
			if (*ps.p == 'A' || *ps.p == 'B') {
				s->era = *ps.p == 'A' ? MS_CS_ERA_A : MS_CS_ERA_B;
				ps.p++;
			} else {
				return cs_parse_error(&ps, "era is A or B");
			}
		} else {
			ps.p = key;
			return cs_parse_error(&ps, "unknown key (p, phase, roll, nn, neutral, m1, m2, won, fin, era)");
		}
#undef CS_KEY
		if (!cs_at_item_end(&ps))
			return cs_parse_error(&ps, "unexpected text after the value");
	}
	s->n_neutral = (int8_t)(nn >= 0 ? nn : s->n_order);
	return MS_OK;
}
