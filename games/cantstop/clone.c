/*
 * Behavioural cloning for Can't Stop (spec 6): data sets of an oracle's
 * decisions, recorded as the reference's play_cantstop.py records them,
 * their text form, and the observation- and action-based scores of a
 * policy against player 1's recorded turns.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "core/buf.h"
#include "core/vec.h"

struct ms_cs_dataset {
	ms_ctx *ctx; /* its allocator: ms_cs_dataset_free needs no context */
	ms_cs_record *rec;
	size_t n;
	int cap; /* ms_vec_grow's */
	int matches;
};

int ms_cs_dataset_new(ms_ctx *ctx, ms_cs_dataset **out)
{
	if (!(*out = ms_ctx_calloc(ctx, 1, sizeof(**out))))
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop data set: out of memory");
	(*out)->ctx = ctx;
	return MS_OK;
}

void ms_cs_dataset_free(ms_cs_dataset *ds)
{
	if (!ds)
		return;
	ms_ctx_mfree(ds->ctx, ds->rec);
	ms_ctx_mfree(ds->ctx, ds);
}

size_t ms_cs_dataset_size(const ms_cs_dataset *ds)
{
	return ds->n;
}

int ms_cs_dataset_matches(const ms_cs_dataset *ds)
{
	return ds->matches;
}

const ms_cs_record *ms_cs_dataset_get(const ms_cs_dataset *ds, size_t i)
{
	return i < ds->n ? &ds->rec[i] : NULL;
}

static int cs_move_valid(const ms_cs_move *m)
{
	if (m->kind == MS_CS_MOVE_YES || m->kind == MS_CS_MOVE_NO)
		return 1;
	return m->kind == MS_CS_MOVE_COLUMNS && (m->n == 1 || m->n == 2) && cs__valid_column(m->col[0]) &&
	       (m->n == 1 || cs__valid_column(m->col[1]));
}

int ms_cs_dataset_add(ms_ctx *ctx, ms_cs_dataset *ds, const ms_cs_record *r)
{
	if (r->match < 0 || (ds->n && r->match < ds->rec[ds->n - 1].match))
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: record of match %d after match %d", r->match,
				    ds->n ? ds->rec[ds->n - 1].match : 0);
	if (r->player != 1 && r->player != 2)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: player %d (1 or 2)", r->player);
	if (r->round < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: negative round %d", r->round);
	if (!cs_move_valid(&r->action))
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: malformed move in match %d", r->match);
	if (ms_vec_grow(ctx, (void **)&ds->rec, &ds->cap, (long long)ds->n + 1, sizeof *ds->rec) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop data set: out of memory");
	ds->rec[ds->n++] = *r;
	if (r->match + 1 > ds->matches)
		ds->matches = r->match + 1;
	return MS_OK;
}

/* ---- recording ---------------------------------------------------------------- */

/* The turn in progress is kept aside until it ends: a stop commits it, a bust drops it. */
typedef struct cs_recorder {
	ms_cs_dataset *ds;
	ms_cs_record *turn;
	size_t n;
	int cap; /* ms_vec_grow's */
	int match;
	int rounds[3];
} cs_recorder;

static int cs_rec_decision(ms_ctx *ctx, void *ud, const ms_cs_state *before, const ms_cs_move *m)
{
	cs_recorder *rc = ud;
	ms_cs_record *r;

	if (ms_vec_grow(ctx, (void **)&rc->turn, &rc->cap, (long long)rc->n + 1, sizeof *rc->turn) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop data set: out of memory");
	r = &rc->turn[rc->n++];
	memset(r, 0, sizeof(*r));
	r->state = *before;
	r->action = *m;
	r->match = rc->match;
	r->player = before->player;
	r->round = rc->rounds[before->player];
	if (m->kind != MS_CS_MOVE_NO)
		return MS_OK;
	for (size_t i = 0; i < rc->n; i++) {
		int err = ms_cs_dataset_add(ctx, rc->ds, &rc->turn[i]);

		if (err)
			return err;
	}
	rc->rounds[before->player]++;
	rc->n = 0;
	return MS_OK;
}

static void cs_rec_bust(void *ud, const ms_cs_state *before)
{
	((cs_recorder *)ud)->n = 0;
}

#define CS_RECORD_SAFETY_CAP 100000

int ms_cs_dataset_generate(ms_ctx *ctx, ms_cs_dataset **out, const ms_cs_player *p1, const ms_cs_player *p2,
			   int n_matches, int era, uint64_t seed)
{
	cs_recorder rc;
	cs__observer obs = { cs_rec_decision, cs_rec_bust, NULL };
	ms_cs_dataset *ds = NULL;
	int err;

	*out = NULL;
	if (n_matches < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: %d matches", n_matches);
	if (!p1 || !p2 || !p1->yes_no || !p1->column || !p2->yes_no || !p2->column)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop data set: an oracle lacks a callback");
	if ((err = ms_cs_dataset_new(ctx, &ds)))
		return err;
	memset(&rc, 0, sizeof(rc));
	rc.ds = ds;
	obs.ud = &rc;
	for (int m = 0; m < n_matches; m++) {
		uint64_t mseed = ms_cs_match_seed(seed, (uint64_t)m);
		ms_cs_state s;
		ms_cs_rng prng;
		ms_cs_match_result r;

		if ((err = ms_cs_state_init(ctx, &s, era, mseed)))
			goto fail;
		ms_cs_rng_seed(&prng, ms_splitmix64_mix(mseed ^ UINT64_C(0x5851f42d4c957f2d)));
		rc.match = m;
		rc.n = 0;
		rc.rounds[1] = rc.rounds[2] = 0;
		if ((err = cs__run_match(ctx, &s, p1, p2, &prng, CS_RECORD_SAFETY_CAP, &obs, &r)))
			goto fail;
		if (!r.winner) {
			err = ms_ctx_error(ctx, MS_ERANGE, "cantstop data set: match %d did not end within %d decisions",
					   m, CS_RECORD_SAFETY_CAP);
			goto fail;
		}
	}
	ds->matches = n_matches > ds->matches ? n_matches : ds->matches;
	ms_ctx_mfree(ctx, rc.turn);
	*out = ds;
	return MS_OK;
fail:
	ms_ctx_mfree(ctx, rc.turn);
	ms_cs_dataset_free(ds);
	return err;
}

/* ---- text form ------------------------------------------------------------------ */

#define CS_DATASET_HEADER "cantstop-dataset 1"

int ms_cs_dataset_write(ms_ctx *ctx, const ms_cs_dataset *ds, FILE *f)
{
	char state[512], move[16];

	fprintf(f, "%s\n# match player round move state\n", CS_DATASET_HEADER);
	for (size_t i = 0; i < ds->n; i++) {
		const ms_cs_record *r = &ds->rec[i];

		ms_cs_move_format(&r->action, move, sizeof(move));
		ms_cs_state_format(&r->state, state, sizeof(state));
		fprintf(f, "%d %d %d %s %s\n", r->match, r->player, r->round, move, state);
	}
	if (fflush(f) || ferror(f))
		return ms_ctx_error(ctx, MS_EIO, "cantstop data set: write failed");
	return MS_OK;
}

/* Splits off the next space-separated field of *p (NUL-terminating it). */
static char *cs_field(char **p)
{
	char *s = *p, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	e = s;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static int cs_field_int(char *s, long lo, long hi, long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtol(s, &end, 10);
	return (*end || errno || *out < lo || *out > hi) ? -1 : 0;
}

int ms_cs_dataset_read(ms_ctx *ctx, ms_cs_dataset **out, const char *text, size_t len, const char *what)
{
	ms_cs_dataset *ds = NULL;
	char line[1024], where[600];
	size_t pos = 0;
	int lineno = 0, header = 0, err;

	*out = NULL;
	what = what ? what : "cantstop data set";
	if ((err = ms_cs_dataset_new(ctx, &ds)))
		return err;
	while (pos < len) {
		size_t end = pos, n;
		char *p = line, *f_match, *f_player, *f_round, *f_move;
		long match, player, round;
		ms_cs_record r;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		lineno++;
		if (n >= sizeof(line)) {
			err = ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: longer than %zu bytes", what, lineno,
					   sizeof(line) - 1);
			goto fail;
		}
		if (memchr(text + pos, '\0', n)) {
			err = ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: NUL byte", what, lineno);
			goto fail;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		pos = end + 1;
		if (!header) {
			if (strcmp(line, CS_DATASET_HEADER)) {
				err = ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected the header '%s'", what, lineno,
						   CS_DATASET_HEADER);
				goto fail;
			}
			header = 1;
			continue;
		}
		f_match = cs_field(&p);
		if (!f_match || f_match[0] == '#')
			continue;
		f_player = cs_field(&p);
		f_round = cs_field(&p);
		f_move = cs_field(&p);
		memset(&r, 0, sizeof(r));
		if (cs_field_int(f_match, 0, 1000000, &match) || cs_field_int(f_player, 1, 2, &player) ||
		    cs_field_int(f_round, 0, 1000000, &round) || !f_move) {
			err = ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected MATCH PLAYER(1|2) ROUND MOVE STATE",
					   what, lineno);
			goto fail;
		}
		if ((err = ms_cs_move_parse(NULL, &r.action, f_move))) {
			err = ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: bad move '%s' (y, n, c or a,b)", what, lineno,
					   f_move);
			goto fail;
		}
		snprintf(where, sizeof(where), "%s: line %d: state", what, lineno);
		if ((err = ms_cs_state_parse(ctx, &r.state, p, where)))
			goto fail;
		r.match = (int32_t)match;
		r.player = (int8_t)player;
		r.round = (int32_t)round;
		if ((err = ms_cs_dataset_add(ctx, ds, &r))) {
			char msg[256];

			/* The message is formatted into the context's own buffer. */
			snprintf(msg, sizeof(msg), "%s", ms_ctx_last_error(ctx));
			err = ms_ctx_error(ctx, err, "%s: line %d: %s", what, lineno, msg);
			goto fail;
		}
	}
	if (!header) {
		err = ms_ctx_error(ctx, MS_EPARSE, "%s: empty (no '%s' header)", what, CS_DATASET_HEADER);
		goto fail;
	}
	*out = ds;
	return MS_OK;
fail:
	ms_cs_dataset_free(ds);
	return err;
}

int ms_cs_dataset_load(ms_ctx *ctx, ms_cs_dataset **out, const char *path)
{
	char *buf = NULL;
	size_t n = 0;
	int err;

	*out = NULL;
	if ((err = ms_read_file_upto(ctx, path, "cantstop data set", SIZE_MAX, &buf, &n)) < 0)
		return err;
	err = ms_cs_dataset_read(ctx, out, buf, n, path);
	ms_ctx_mfree(ctx, buf);
	return err;
}

int ms_cs_dataset_save(ms_ctx *ctx, const ms_cs_dataset *ds, const char *path)
{
	FILE *f = fopen(path, "wb");
	int err;

	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "%s: cannot create: %s", path, strerror(errno));
	err = ms_cs_dataset_write(ctx, ds, f);
	if (fclose(f) && !err)
		err = ms_ctx_error(ctx, MS_EIO, "%s: write failed", path);
	return err;
}

/* ---- scores ---------------------------------------------------------------------- */

int ms_cs_progress_profile(const ms_cs_state *s, int out[MS_CS_COLUMNS])
{
	int total = 0;

	out[0] = out[1] = 0;
	for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++) {
		int h = cs__height[c], x = 0;

		/* The lowest cell holding exactly two markers, or only player 1's. */
		for (int k = 0; k < h; k++) {
			int m1 = s->marker[1][c] == k;
			int cnt = (s->neutral[c] == k) + m1 + (s->marker[2][c] == k);

			if (cnt == 2 || (cnt == 1 && m1)) {
				x = k + 1;
				break;
			}
		}
		if (s->owner[c] == 1)
			x = h + 1;
		out[c] = x;
		total += x;
	}
	return total;
}

static int cs_check_policy(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *policy, double *score)
{
	*score = 0;
	if (!policy || !policy->yes_no || !policy->column)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop score: the policy lacks a callback");
	if (!ds->n)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop score: empty data set");
	return MS_OK;
}

int ms_cs_score_observation(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *policy, uint64_t seed,
			    double *score)
{
	ms_cs_rng prng;
	double total = 0;
	size_t begin = 0;
	int err, matches = 0;

	if ((err = cs_check_policy(ctx, ds, policy, score)))
		return err;
	ms_cs_rng_seed(&prng, seed);
	while (begin < ds->n) {
		int m = ds->rec[begin].match, oracle_x[MS_CS_COLUMNS], learner_x[MS_CS_COLUMNS], sum_o, sum_min = 0;
		size_t end = begin, last = (size_t)-1;
		ms_cs_state oracle, g;
		int round = -1, stopped = 0;

		while (end < ds->n && ds->rec[end].match == m)
			end++;
		for (size_t i = begin; i < end; i++)
			if (ds->rec[i].player == 1)
				last = i;
		if (last == (size_t)-1)
			return ms_ctx_error(ctx, MS_EINVAL, "cantstop observation score: match %d has no recorded turn "
					    "of player 1", m);
		/* The oracle's final state: its last recorded move applied. */
		oracle = ds->rec[last].state;
		if (ds->rec[last].action.kind == MS_CS_MOVE_NO)
			ms_cs_stop(&oracle);
		else if (ds->rec[last].action.kind == MS_CS_MOVE_YES)
			oracle.dice_action = 1;
		else
			ms_cs_advance(&oracle, &ds->rec[last].action, 0);

		/* The learner's replay: its moves on the recorded states, applied to
		 * its own board, with no bust and no legality check. */
		ms_cs_state_init(NULL, &g, oracle.era, 0);
		for (size_t i = begin; i < end; i++) {
			const ms_cs_record *r = &ds->rec[i];
			ms_cs_move mv;

			if (r->player != 1)
				continue;
			if (r->round != round) {
				if (round >= 0)
					ms_cs_erase_neutrals(&g);
				round = r->round;
				stopped = 0;
			}
			if (stopped)
				continue;
			if ((err = cs__decide(ctx, policy, &r->state, &prng, &mv)))
				return err;
			if (mv.kind == MS_CS_MOVE_NO) {
				ms_cs_stop(&g);
				stopped = 1;
			} else if (mv.kind == MS_CS_MOVE_YES) {
				g.dice_action = 1;
			} else {
				ms_cs_advance(&g, &mv, 0);
			}
			g.player = 1;
		}
		ms_cs_erase_neutrals(&g);
		sum_o = ms_cs_progress_profile(&oracle, oracle_x);
		ms_cs_progress_profile(&g, learner_x);
		if (sum_o == 0)
			return ms_ctx_error(ctx, MS_ERANGE, "cantstop observation score: match %d: the oracle's final "
					    "state has no progress", m);
		for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
			sum_min += learner_x[c] < oracle_x[c] ? learner_x[c] : oracle_x[c];
		total += (double)sum_min / sum_o;
		matches++;
		begin = end;
	}
	*score = total / matches;
	return MS_OK;
}

int ms_cs_score_action(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *policy, uint64_t seed,
		       double *score)
{
	ms_cs_rng prng;
	long agree = 0, all = 0;
	int err;

	if ((err = cs_check_policy(ctx, ds, policy, score)))
		return err;
	ms_cs_rng_seed(&prng, seed);
	for (size_t i = 0; i < ds->n; i++) {
		const ms_cs_record *r = &ds->rec[i];
		ms_cs_move mv;

		if (r->player != 1)
			continue;
		if ((err = cs__decide(ctx, policy, &r->state, &prng, &mv)))
			return err;
		all++;
		agree += ms_cs_move_equal(&mv, &r->action);
	}
	if (!all)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop action score: no record of player 1");
	*score = (double)agree / all;
	return MS_OK;
}
