/*
 * The match memo (rts_reach.h): per match slot, the last few programs'
 * results with the nodes their matches read and what the matches did,
 * most recently used first.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "microsynth/microrts.h"
#include "core/vec.h"
#include "games/microrts/synth/rts_reach.h"

/* Most places two programs may differ at for a replay to be tried: past it they are not neighbours. */
enum { MAX_DIFF = 16 };

/* The entries' bytes at most: a 64x64 match records megabytes of actions, and the pre-game search runs
 * inside the tournament's JVM process. A match that would pass it is not kept. */
#define MEMO_BYTES (512L << 20)

typedef struct entry {
	int n;               /* nodes held; 0: empty */
	int cap_sym, cap_ends, cap_mark;
	ms_dsl_sym *sym;     /* the program's nodes, */
	int32_t *ends;       /* their subtree ends, */
	uint8_t *mark;       /* and what its match read of them */
	rts_reach_result r;
	/* the match (rts_reach_rec's fields, copied) */
	int seat;
	rts_reach_event *ev;
	int n_ev, cap_ev;
	ms_rts_pair *pairs;
	int n_pairs, cap_pairs;
	uint8_t *dec;
	int n_dec, cap_dec;
} entry;

/*
 * A replay that fails costs its cycles up to where the match parts; one
 * that answers saves a match. When the entry nearest the program fails,
 * the next nearest is replayed while such second tries have saved at least
 * the time they lost (CPU seconds, per slot): on most maps they answer
 * often, on some (long replays of costly programs) they lose. Only time
 * depends on it; every answer is a replayed match.
 */
enum {
	SECOND_TRIAL = 8,   /* second tries made before their account decides */
	SECOND_PROBE = 16   /* while it says no, one in this many is tried anyway: programs change */
};

typedef struct slot {
	pthread_mutex_t mu;
	entry *w;            /* [ways] */
	rts_reach_counts k;
	double match_s;      /* CPU seconds of the slot's last match played */
	double saved_s, lost_s; /* second tries: matches saved minus their replays; failed ones */
	long second;         /* second tries made */
	int passed;          /* second tries passed over since the last one */
} slot;

struct rts_reach_memo {
	ms_ctx *ctx;         /* the memo's own; entries of a slot change under its lock only */
	int slots, ways;
	slot *s;
	atomic_long bytes;   /* the entries' buffers */
};

/* A place where two programs differ: node `node` of the kept one, read as `kind` there. */
typedef struct diff_at {
	int node;
	uint8_t kind;
} diff_at;

/* ---- the memo ------------------------------------------------------------------ */

int rts_reach_memo_new(ms_ctx *err, rts_reach_memo **out, int slots, int ways)
{
	rts_reach_memo *m;
	ms_ctx *own;
	int rc, ok = 1;

	*out = NULL;
	if (slots < 1 || ways < 1)
		return ms_ctx_error(err, MS_EINVAL, "match memo: %d slots of %d entries", slots, ways);
	if ((rc = ms_ctx_new(&own, NULL)) < 0)
		return ms_ctx_error(err, rc, "match memo: cannot make its context");
	if (!(m = ms_ctx_calloc(own, 1, sizeof *m)) || !(m->s = ms_ctx_calloc(own, (size_t)slots, sizeof *m->s))) {
		if (m)
			ms_ctx_mfree(own, m);
		ms_ctx_free(own);
		return ms_ctx_error(err, MS_ENOMEM, "match memo: out of memory");
	}
	m->ctx = own;
	m->ways = ways;
	atomic_init(&m->bytes, 0);
	for (; m->slots < slots && ok; m->slots++) {
		slot *s = &m->s[m->slots];
		if (!(s->w = ms_ctx_calloc(own, (size_t)ways, sizeof *s->w)))
			ok = 0;
		else if (pthread_mutex_init(&s->mu, NULL) != 0) {
			ms_ctx_mfree(own, s->w);
			ok = 0;
		}
	}
	if (!ok) {
		m->slots--;
		rts_reach_memo_free(m);
		return ms_ctx_error(err, MS_ENOMEM, "match memo: out of memory");
	}
	*out = m;
	return MS_OK;
}

static void entry_dispose(ms_ctx *ctx, entry *e)
{
	ms_ctx_mfree(ctx, e->sym);
	ms_ctx_mfree(ctx, e->ends);
	ms_ctx_mfree(ctx, e->mark);
	ms_ctx_mfree(ctx, e->ev);
	ms_ctx_mfree(ctx, e->pairs);
	ms_ctx_mfree(ctx, e->dec);
	memset(e, 0, sizeof *e);
}

/* What e's buffers hold. */
static long entry_bytes(const entry *e)
{
	return (long)e->cap_sym * (long)sizeof *e->sym + (long)e->cap_ends * (long)sizeof *e->ends + e->cap_mark +
	       (long)e->cap_ev * (long)sizeof *e->ev + (long)e->cap_pairs * (long)sizeof *e->pairs + e->cap_dec;
}

void rts_reach_memo_free(rts_reach_memo *m)
{
	if (!m)
		return;
	ms_ctx *own = m->ctx;
	for (int i = 0; i < m->slots; i++) {
		for (int k = 0; k < m->ways; k++)
			entry_dispose(own, &m->s[i].w[k]);
		ms_ctx_mfree(own, m->s[i].w);
		pthread_mutex_destroy(&m->s[i].mu);
	}
	ms_ctx_mfree(own, m->s);
	ms_ctx_mfree(own, m);
	ms_ctx_free(own);
}

void rts_reach_get_counts(rts_reach_memo *m, rts_reach_counts *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < m->slots; i++) {
		pthread_mutex_lock(&m->s[i].mu);
		out->lookups += m->s[i].k.lookups;
		out->hits += m->s[i].k.hits;
		out->replays += m->s[i].k.replays;
		out->replay_hits += m->s[i].k.replay_hits;
		pthread_mutex_unlock(&m->s[i].mu);
	}
}

/* ---- the program's side ------------------------------------------------------- */

int rts_reach_prog_set(rts_reach_prog *q, const ms_dsl_prog *p, const ms_rts_state *initial, ms_memo *memo)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	int n = ms_dsl_prog_len(p);

	if (ms_vec_grow(q->ctx, (void **)&q->fors, &q->cap, (long long)n + 1, sizeof *q->fors))
		return MS_ENOMEM;
	q->p = p;
	q->fors[0] = 0;
	for (int i = 0; i < n; i++)
		q->fors[i + 1] = q->fors[i] +
				 (!ms_dsl_is_hole(sym[i]) && ms_dsl_prod_op(g, sym[i]) == MS_RTS_DSL_S_FOR);
	q->random = ms_rts_dsl_draws_random(p);
	/* a replay's scratch state and interpreter belong to one map */
	if (initial != q->initial) {
		ms_rts_state_free(q->s);
		q->s = NULL;
	}
	if (memo != q->memo || initial != q->initial) {
		ms_rts_dsl_interp_free(q->it);
		q->it = NULL;
	}
	q->initial = initial;
	q->memo = memo;
	return MS_OK;
}

void rts_reach_prog_dispose(rts_reach_prog *q)
{
	ms_ctx_mfree(q->ctx, q->fors);
	ms_ctx_mfree(q->ctx, q->buf);
	ms_rts_state_free(q->s);
	ms_rts_dsl_interp_free(q->it);
	ms_ctx *ctx = q->ctx;
	memset(q, 0, sizeof *q);
	q->ctx = ctx;
}

/* ---- recording ----------------------------------------------------------------- */

int rts_reach_rec_start(rts_reach_rec *r, int n, int seat)
{
	/* the decision's marks, then the match's */
	if (ms_vec_grow(r->ctx, (void **)&r->marks, &r->cap_marks, 2LL * n, 1))
		return MS_ENOMEM;
	r->n = n;
	r->all = r->marks + n;
	r->seat = seat;
	memset(r->marks, 0, (size_t)n * 2);
	r->n_ev = r->n_pairs = r->n_dec = 0;
	r->lost = 0;
	return MS_OK;
}

void rts_reach_rec_dispose(rts_reach_rec *r)
{
	ms_ctx_mfree(r->ctx, r->marks);
	ms_ctx_mfree(r->ctx, r->ev);
	ms_ctx_mfree(r->ctx, r->pairs);
	ms_ctx_mfree(r->ctx, r->dec);
	ms_ctx *ctx = r->ctx;
	memset(r, 0, sizeof *r);
	r->ctx = ctx;
}


int rts_reach_record(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2])
{
	rts_reach_rec *r = ud;
	/* a decision that runs the program reads its root first */
	int ran = r->n > 0 && r->marks[0] != 0;

	if (r->lost || (!ran && !n[0] && !n[1]))
		return MS_OK;
	/* a recording that runs out of memory is dropped, the match goes on */
	if (ms_vec_grow(r->ctx, (void **)&r->ev, &r->cap_ev, r->n_ev + 1LL, sizeof *r->ev) ||
	    ms_vec_grow(r->ctx, (void **)&r->pairs, &r->cap_pairs, (long long)r->n_pairs + n[0] + n[1],
			sizeof *r->pairs) ||
	    (ran && ms_vec_grow(r->ctx, (void **)&r->dec, &r->cap_dec, (r->n_dec + 1LL) * r->n, 1))) {
		r->lost = 1;
		return MS_OK;
	}
	rts_reach_event *e = &r->ev[r->n_ev++];
	e->cycle = ms_rts_state_time(s);
	e->n[0] = n[0];
	e->n[1] = n[1];
	e->off = r->n_pairs;
	e->dec = -1;
	memcpy(r->pairs + r->n_pairs, pairs[0], sizeof *r->pairs * (size_t)n[0]);
	memcpy(r->pairs + r->n_pairs + n[0], pairs[1], sizeof *r->pairs * (size_t)n[1]);
	r->n_pairs += n[0] + n[1];
	if (ran) {
		uint8_t *d = r->dec + (size_t)r->n_dec * (size_t)r->n;
		memcpy(d, r->marks, (size_t)r->n);
		for (int i = 0; i < r->n; i++)
			r->all[i] |= r->marks[i];
		memset(r->marks, 0, (size_t)r->n);
		e->dec = r->n_dec++;
	}
	return MS_OK;
}

/* ---- comparing programs ------------------------------------------------------- */

/*
 * Entry node i and q's node j stand at the same path. Adds to d[*nd] the
 * places under it where q's runs could read otherwise than e's did (at
 * most MAX_DIFF; -1 past it), stopping at the first when `first`.
 */
static int diff(const entry *e, int i, const rts_reach_prog *q, int j, diff_at *d, int *nd, int first)
{
	const ms_dsl_sym *qs = ms_dsl_prog_nodes(q->p);
	const int32_t *qe = ms_dsl_prog_ends(q->p);
	uint8_t mk = e->mark[i];

	if ((mk & MS_RTS_DSL_REACH_BUSY) && q->fors[qe[j]] > q->fors[j]) {
		if (first || *nd == MAX_DIFF)
			return -1;
		d[(*nd)++] = (diff_at){ i, MS_RTS_DSL_REACH_BUSY };
	}
	if (!(mk & MS_RTS_DSL_REACH_READ))
		return 0;
	if (e->sym[i] != qs[j]) {
		if (first || *nd == MAX_DIFF)
			return -1;
		d[(*nd)++] = (diff_at){ i, MS_RTS_DSL_REACH_READ };
		return 0;
	}
	/* children in preorder: the first right after the node, each next at its sibling's end */
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(q->p);
	for (int k = 0, ci = i + 1, cj = j + 1, arity = ms_dsl_prod_arity(g, qs[j]); k < arity;
	     k++, ci = e->ends[ci], cj = qe[cj])
		if (diff(e, ci, q, cj, d, nd, first) < 0)
			return -1;
	return 0;
}

/* Whether decision `dec` of e read one of the places d. */
static int touched(const entry *e, int dec, const diff_at *d, int nd)
{
	const uint8_t *m = e->dec + (size_t)dec * (size_t)e->n;
	for (int k = 0; k < nd; k++)
		if (m[d[k].node] & d[k].kind)
			return 1;
	return 0;
}

/* 1 when pairs a and b ask the same units for the same actions. */
static int same_pairs(const ms_rts_pair *a, int na, const ms_rts_pair *b, int nb)
{
	if (na != nb)
		return 0;
	for (int k = 0; k < na; k++) {
		const ms_rts_action *x = &a[k].action, *y = &b[k].action;
		if (a[k].unit.id != b[k].unit.id || x->type != y->type || x->parameter != y->parameter || x->x != y->x ||
		    x->y != y->y || x->unit_type != y->unit_type)
			return 0;
	}
	return 1;
}

/* Room for n pairs in q->buf. */
static int buf_room(rts_reach_prog *q, int n)
{
	return ms_vec_grow(q->ctx, (void **)&q->buf, &q->cap_buf, n, sizeof *q->buf);
}

/* The replay's start: the first state, and q's program in its interpreter. */
static int replay_begin(rts_reach_prog *q)
{
	int rc;
	if (!q->s && (rc = ms_rts_state_clone(q->ctx, &q->s, q->initial)))
		return rc;
	if ((rc = ms_rts_state_copy(q->s, q->initial)))
		return rc;
	if (q->it)
		return ms_rts_dsl_interp_set_program(q->it, q->p);
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .path_memo = q->memo, .cut_fails = 1 };
	return ms_rts_dsl_interp_new(q->ctx, &q->it, q->p, 0, &o);
}

/*
 * Replays e's match up to its last decision that read a place of d, with
 * q's program deciding at those: 1 when it decides as e's did at each.
 */
static int replay(const entry *e, rts_reach_prog *q, const diff_at *d, int nd)
{
	int last = -1;
	int rc, gameover = 0, max = ms_rts_state_width(q->initial) * ms_rts_state_height(q->initial) + 1;

	for (int k = 0; k < e->n_ev; k++)
		if (e->ev[k].dec >= 0 && touched(e, e->ev[k].dec, d, nd))
			last = k;
	if (last < 0)
		return 1;
	if ((rc = replay_begin(q)) || (rc = buf_room(q, max)))
		return rc;
	for (int k = 0; k <= last && !gameover;) {
		const rts_reach_event *ev = &e->ev[k];
		if (ms_rts_state_time(q->s) == ev->cycle) {
			const ms_rts_pair *p = e->pairs + ev->off;
			int n;
			if (ev->dec >= 0 && touched(e, ev->dec, d, nd)) {
				/* a decision past the loop budget: the match is played, and lost */
				if ((rc = ms_rts_dsl_decide(q->it, e->seat, q->s, q->buf, max, &n)))
					return rc == MS_EILLEGAL ? 0 : rc;
				if (!same_pairs(q->buf, n, p + (e->seat ? ev->n[0] : 0), ev->n[e->seat]))
					return 0;
			}
			for (int pl = 0; pl < 2; pl++) {
				if (!ev->n[pl])
					continue;
				memcpy(q->buf, p + (pl ? ev->n[0] : 0), sizeof *q->buf * (size_t)ev->n[pl]);
				if ((rc = ms_rts_issue_safe(q->ctx, q->s, q->buf, ev->n[pl], NULL)))
					return rc;
			}
			k++;
		}
		if ((rc = ms_rts_cycle(q->ctx, q->s, &gameover)))
			return rc;
	}
	return 1;
}

/* Moves way k of slot s to the front. */
static void to_front(slot *s, int k)
{
	entry t = s->w[k];
	memmove(s->w + 1, s->w, sizeof *s->w * (size_t)k);
	s->w[0] = t;
}

double rts_reach_cpu_seconds(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The entry nearest q's program (fewest places to replay) but those in `skip`: its index, or -1; *hit
 * when one needs no replay at all. */
static int nearest(slot *s, int ways, rts_reach_prog *q, int replay_on, unsigned skip, diff_at *best, int *nbest,
		   int *hit)
{
	diff_at d[MAX_DIFF];
	int kbest = -1;

	*nbest = -1;
	for (int k = 0; k < ways && s->w[k].n > 0 && !*hit; k++) {
		int nd = 0;
		if (skip & (1u << k))
			continue;
		if (!replay_on) {
			*hit = diff(&s->w[k], 0, q, 0, d, &nd, 1) == 0;
		} else if (diff(&s->w[k], 0, q, 0, d, &nd, 0) == 0) {
			*hit = nd == 0;
			if (!*hit && (*nbest < 0 || nd < *nbest)) {
				*nbest = nd;
				kbest = k;
				memcpy(best, d, sizeof *d * (size_t)nd);
			}
		}
		if (*hit)
			kbest = k;
	}
	return kbest;
}

int rts_reach_get(rts_reach_memo *m, int slot_ix, rts_reach_prog *q, int replay_on, rts_reach_result *out)
{
	diff_at best[MAX_DIFF];
	int hit = 0, nbest, k, rc = 0;
	unsigned tried = 0;

	if (q->random || slot_ix < 0 || slot_ix >= m->slots)
		return 0;
	slot *s = &m->s[slot_ix];
	pthread_mutex_lock(&s->mu);
	s->k.lookups++;
	k = nearest(s, m->ways, q, replay_on, 0, best, &nbest, &hit);
	if (hit) {
		s->k.hits++;
	} else if (k >= 0) {
		s->k.replays++;
		if ((rc = replay(&s->w[k], q, best, nbest)) == 1) {
			hit = 1;
			s->k.replay_hits++;
		} else if (rc == 0 && (s->second < SECOND_TRIAL || s->saved_s >= s->lost_s || ++s->passed >= SECOND_PROBE)) {
			s->passed = 0;
			tried = 1u << k;
			int k2 = nearest(s, m->ways, q, replay_on, tried, best, &nbest, &hit);
			if (k2 >= 0 && !hit) {
				double t0 = rts_reach_cpu_seconds();
				s->k.replays++;
				s->second++;
				rc = replay(&s->w[k2], q, best, nbest);
				double dt = rts_reach_cpu_seconds() - t0;
				if (rc == 1) {
					s->k.replay_hits++;
					s->saved_s += s->match_s - dt;
				} else {
					s->lost_s += dt;
				}
			}
			hit = rc == 1 || hit;
			k = k2;
		}
	}
	if (hit) {
		*out = s->w[k].r;
		to_front(s, k);
	}
	pthread_mutex_unlock(&s->mu);
	return rc < 0 ? rc : hit;
}

/* Copies recording r into e (in ctx); MS_ENOMEM leaves e empty. */
static int entry_set(ms_ctx *ctx, entry *e, const rts_reach_prog *q, const rts_reach_rec *r)
{
	int n = ms_dsl_prog_len(q->p);

	e->n = 0;
	if (ms_vec_grow(ctx, (void **)&e->sym, &e->cap_sym, n, sizeof *e->sym) ||
	    ms_vec_grow(ctx, (void **)&e->ends, &e->cap_ends, n, sizeof *e->ends) ||
	    ms_vec_grow(ctx, (void **)&e->mark, &e->cap_mark, n, 1) ||
	    ms_vec_grow(ctx, (void **)&e->ev, &e->cap_ev, r->n_ev, sizeof *e->ev) ||
	    ms_vec_grow(ctx, (void **)&e->pairs, &e->cap_pairs, r->n_pairs, sizeof *e->pairs) ||
	    ms_vec_grow(ctx, (void **)&e->dec, &e->cap_dec, (long long)r->n_dec * n, 1))
		return MS_ENOMEM;
	memcpy(e->sym, ms_dsl_prog_nodes(q->p), sizeof *e->sym * (size_t)n);
	memcpy(e->ends, ms_dsl_prog_ends(q->p), sizeof *e->ends * (size_t)n);
	memcpy(e->mark, r->all, (size_t)n);
	memcpy(e->ev, r->ev, sizeof *e->ev * (size_t)r->n_ev);
	memcpy(e->pairs, r->pairs, sizeof *e->pairs * (size_t)r->n_pairs);
	memcpy(e->dec, r->dec, (size_t)r->n_dec * (size_t)n);
	e->n_ev = r->n_ev;
	e->n_pairs = r->n_pairs;
	e->n_dec = r->n_dec;
	e->seat = r->seat;
	e->n = n;
	return MS_OK;
}

int rts_reach_put(rts_reach_memo *m, int slot_ix, const rts_reach_prog *q, const rts_reach_rec *r,
		  const rts_reach_result *res, double seconds)
{
	int rc;

	if (slot_ix < 0 || slot_ix >= m->slots)
		return MS_OK;
	slot *s = &m->s[slot_ix];
	pthread_mutex_lock(&s->mu);
	if (seconds > 0)
		s->match_s = seconds;
	if (q->random || r->lost || r->n != ms_dsl_prog_len(q->p)) {
		pthread_mutex_unlock(&s->mu);
		return MS_OK;
	}
	/* the least recently used entry's buffers take the new one, which goes first */
	to_front(s, m->ways - 1);
	entry *e = &s->w[0];
	long before = entry_bytes(e), need = (long)r->n * (long)(sizeof *e->sym + sizeof *e->ends + 1) +
					     r->n_ev * (long)sizeof *e->ev + r->n_pairs * (long)sizeof *e->pairs +
					     (long)r->n_dec * r->n;
	if (atomic_load(&m->bytes) - before + need > MEMO_BYTES) {
		/* over the budget: the slot gives up its oldest entry instead */
		entry_dispose(m->ctx, e);
		rc = MS_OK;
	} else {
		rc = entry_set(m->ctx, e, q, r);
		e->r = *res;
	}
	atomic_fetch_add(&m->bytes, entry_bytes(e) - before);
	pthread_mutex_unlock(&s->mu);
	return rc;
}
