/*
 * The services every algorithm calls, one way: the door through which
 * scores are asked for (syn_eval: cache, checkpoint replay, live batches on
 * the evaluator), the budget and its phases, best programs, statistics,
 * progress and the CSV log, and the search's random draws. Algorithms
 * (sa.c, uct.c, ...) call these; these call the evaluator (eval.c), the
 * cache (cache.c) and the checkpoint log (ckpt.c), never an algorithm.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "synth_internal.h"
#include "core/clock.h"

int syn_replaying(const ms_synth *s)
{
	return s->next_index < s->log.rec.n;
}

double syn_elapsed(ms_synth *s)
{
	if (syn_replaying(s))
		return s->next_index > 0 ? (double)s->log.rec.v[s->next_index - 1].ms / 1000.0 : 0.0;
	return s->t_offset + (ms_now() - s->t_start);
}

/* Called when replay ends: live time continues from the log's last time. */
void syn_start_live_clock(ms_synth *s)
{
	double last = 0;
	if (s->log.rec.n > 0)
		last = (double)s->log.rec.v[s->log.rec.n - 1].ms / 1000.0;
	for (int i = 0; i < s->log.evt.n; i++)
		if ((double)s->log.evt.v[i].ms / 1000.0 > last)
			last = (double)s->log.evt.v[i].ms / 1000.0;
	s->t_offset = last;
	s->t_start = ms_now();
}

double syn_uniform(ms_synth *s)
{
	return ms_jrandom_next_double(&s->rng);
}

int syn_below(ms_synth *s, int n)
{
	int32_t v = 0;
	if (n <= 1)
		return 0;
	(void)ms_jrandom_next_int_bounded(&s->rng, n, &v);
	return v;
}

int syn_prog_new(ms_synth *s, ms_dsl_prog **out)
{
	return ms_dsl_prog_new(s->ctx, out, s->pb->grammar);
}

const ms_dsl_gen_options *syn_gen_opts(const ms_synth *s)
{
	return s->pb->gen.version == MS_DSL_GEN_OPTIONS_VERSION ? &s->pb->gen : NULL;
}

int syn_problem_gave(ms_synth *s, int rc, const ms_dsl_prog *p, const char *hook)
{
	if (rc == 0 && ms_dsl_prog_nt(p) != s->start_nt)
		return ms_ctx_error(s->ctx, MS_EINVAL, "problem %s: %s gave no finished program of the start symbol",
				    s->pb->name ? s->pb->name : "?", hook);
	return rc;
}

int syn_generate(ms_synth *s, ms_dsl_prog *p)
{
	if (s->pb->generate)
		return syn_problem_gave(s, s->pb->generate(s->pb->user, p, &s->rng), p, "generate");
	return ms_dsl_generate(p, s->start_nt, &s->rng, syn_gen_opts(s));
}

void syn_phase(ms_synth *s, int phase, int phase_id, long long c_limit, double deadline)
{
	s->phase = phase;
	s->phase_id = phase_id;
	s->c_limit = c_limit;
	s->phase_deadline = deadline;
}

/* ---- statistics, progress and CSV ---- */

static void fill_stats(const ms_synth *s, ms_synth_stats *st, double elapsed)
{
	memset(st, 0, sizeof *st);
	st->elapsed = elapsed;
	double f = 0;
	if (s->o.max_evals > 0)
		f = (double)s->evals[MS_SYNTH_PSI] / (double)s->o.max_evals;
	if (s->o.max_seconds > 0 && elapsed / s->o.max_seconds > f)
		f = elapsed / s->o.max_seconds;
	st->fraction = f > 1 ? 1 : f;
	st->evals_psi = s->evals[MS_SYNTH_PSI];
	st->evals_c = s->evals[MS_SYNTH_C];
	st->cache_hits = s->hits;
	st->replayed = s->replayed;
	st->best_psi = s->best_score[MS_SYNTH_PSI];
	st->best_c = s->best_score[MS_SYNTH_C];
	st->phase = s->phase;
	st->replaying = syn_replaying(s);
	st->timed = s->o.max_seconds > 0;
}

void ms_synth_get_stats(const ms_synth *s, ms_synth_stats *out)
{
	fill_stats(s, out, syn_elapsed((ms_synth *)s));
}

static void csv_score(FILE *f, double v)
{
	if (v >= 0)
		fprintf(f, ",%.6f", v);
	else
		fputs(",", f);
}

int syn_csv_line(ms_synth *s, double elapsed)
{
	static const char *const phase[] = { "search", "sketch", "br" };
	if (!s->csv)
		return 0;
	fprintf(s->csv, "%.3f", elapsed);
	csv_score(s->csv, s->best_score[MS_SYNTH_PSI]);
	csv_score(s->csv, s->best_score[MS_SYNTH_C]);
	fprintf(s->csv, ",%lld,%lld,%s\n", s->evals[MS_SYNTH_PSI], s->evals[MS_SYNTH_C], phase[s->phase]);
	if (fflush(s->csv) != 0 || ferror(s->csv))
		return ms_ctx_error(s->ctx, MS_EIO, "CSV log %s: write failed", s->o.csv);
	return 0;
}

/* ---- the budget ---- */

/*
 * Every evaluation request and every iteration that may end a phase
 * passes here, in an order fixed by the algorithm. Time-dependent answers
 * (a sketch run's share of the clock) are logged with their position
 * (evaluation index, checks since that index was taken) so a replay
 * answers the same way at the same point.
 */
int syn_check(ms_synth *s, int kind)
{
	long long checks = s->checks++;
	if (s->stop_asked)
		return SYN_STOP;
	long long done = s->evals[kind] + s->pending[kind];
	if (kind == MS_SYNTH_PSI && s->o.max_evals > 0 && done >= s->o.max_evals) {
		s->stop_reason = SYN_STOP_BUDGET;
		return SYN_STOP;
	}
	if (kind == MS_SYNTH_C && s->c_limit > 0 && done >= s->c_limit)
		return SYN_PHASE;
	syn_log *l = &s->log;
	if (l->next_evt < l->evt.n) {
		const syn_event *e = &l->evt.v[l->next_evt];
		if (e->index == s->next_index && e->checks == checks && e->phase_id == s->phase_id) {
			l->next_evt++;
			return SYN_PHASE;
		}
		if (e->index < s->next_index || (e->index == s->next_index && e->checks < checks))
			return ms_ctx_error(s->ctx, MS_EINVAL,
					    "checkpoint %s: the sketch run that ended at evaluation %lld ends elsewhere now "
					    "(the options, the problem or the build differ from the recorded run)",
					    l->path, e->index);
		return 0;
	}
	if (syn_replaying(s))
		return 0;
	if (s->o.max_seconds > 0 || s->phase_deadline > 0) {
		double t = syn_elapsed(s);
		if (s->o.max_seconds > 0 && t >= s->o.max_seconds) {
			s->stop_reason = SYN_STOP_BUDGET;
			return SYN_STOP;
		}
		if (s->phase_deadline > 0 && t >= s->phase_deadline) {
			int rc = s->log.f ? syn_log_append_event(s, s->next_index, checks, s->phase_id) : 0;
			return rc < 0 ? rc : SYN_PHASE;
		}
	}
	return 0;
}

/*
 * Called when an iteration evaluated nothing (only cache hits): after
 * SYN_IDLE_MAX of those in a row, the space reachable from here is
 * exhausted; the sketch run, or the search, ends.
 */
int syn_idle(ms_synth *s)
{
	if (++s->idle <= SYN_IDLE_MAX)
		return 0;
	s->idle = 0;
	if (s->phase == MS_SYNTH_PHASE_SKETCH)
		return SYN_PHASE;
	s->stop_reason = SYN_STOP_EXHAUSTED;
	return SYN_STOP;
}

int syn_listen(ms_synth *s, syn_listener_fn fn, void *ud)
{
	if (s->n_listen == SYN_MAX_LISTENERS)
		return ms_ctx_error(s->ctx, MS_ERANGE, "search: more than %d listeners", SYN_MAX_LISTENERS);
	s->listen[s->n_listen].fn = fn;
	s->listen[s->n_listen++].ud = ud;
	return 0;
}

void syn_unlisten(ms_synth *s, syn_listener_fn fn, void *ud)
{
	for (int i = 0; i < s->n_listen; i++)
		if (s->listen[i].fn == fn && s->listen[i].ud == ud) {
			memmove(&s->listen[i], &s->listen[i + 1], sizeof s->listen[0] * (size_t)(s->n_listen - i - 1));
			s->n_listen--;
			return;
		}
}

int syn_set_best(ms_synth *s, const ms_dsl_prog *p, double score)
{
	int rc = ms_dsl_prog_copy(s->best[MS_SYNTH_PSI], p);
	if (rc < 0)
		return rc;
	s->own_best = 1;
	s->best_score[MS_SYNTH_PSI] = score;
	return syn_replaying(s) ? 0 : syn_csv_line(s, syn_elapsed(s));
}

/* ---- evaluation ---- */

/* Room for a batch of n requests (each array has its own capacity: a failure leaves all valid). */
static int reserve_batch(ms_synth *s, int n)
{
	int rc;
	if ((rc = ms_vec_reserve(s->ctx, &s->batch, n)) < 0 || (rc = ms_vec_reserve(s->ctx, &s->seeds, n)) < 0 ||
	    (rc = ms_vec_reserve(s->ctx, &s->slot, n)) < 0 || (rc = ms_vec_reserve(s->ctx, &s->fresh, n)) < 0)
		return rc;
	return 0;
}

/* Accounts for one fresh score (replayed or live), in index order: best programs, log, CSV, progress. */
static int account(ms_synth *s, long long index, const ms_dsl_prog *p, int kind, double score, int failed, int live)
{
	int rc;
	s->evals[kind]++;
	int improved = !(s->own_best && kind == MS_SYNTH_PSI) && (s->best_score[kind] < 0 || score > s->best_score[kind]);
	if (improved) {
		if ((rc = ms_dsl_prog_copy(s->best[kind], p)) < 0)
			return rc;
		s->best_score[kind] = score;
	}
	if (live && s->log.f && (rc = syn_log_append_eval(s, index, p, kind, score, failed, improved)) < 0)
		return rc;
	for (int i = 0; i < s->n_listen; i++)
		if ((rc = s->listen[i].fn(s->listen[i].ud, p, kind, score, failed)) < 0)
			return rc;
	double t = syn_elapsed(s);
	if (live && improved && (rc = syn_csv_line(s, t)) < 0)
		return rc;
	if (s->o.progress) {
		ms_synth_stats st;
		fill_stats(s, &st, t);
		st.improved = improved;
		st.last_kind = kind;
		st.last_score = score;
		if (s->o.progress(s->o.progress_ud, &st)) {
			s->stop_reason = SYN_STOP_CALLBACK;
			s->stop_asked = 1;
		}
	}
	return 0;
}

typedef struct live_ctx {
	ms_synth *s;
	ms_dsl_prog *const *progs;
	double *scores;
	long long first;
	int kind;
	int rc;
} live_ctx;

/* The evaluator hands over results in order as they complete: log each at once. */
static void live_done(void *ud, int j, double score, int failed)
{
	live_ctx *lc = ud;
	ms_synth *s = lc->s;
	if (lc->rc < 0)
		return;
	const ms_dsl_prog *p = lc->progs[s->slot.v[j]];
	lc->scores[s->slot.v[j]] = score;
	s->pending[lc->kind]--;
	lc->rc = account(s, lc->first + j, p, lc->kind, score, failed, 1);
}

/* syn_eval, and syn_eval_seeded when `given` holds the seeds (never with the cache: a score is then the seed's). */
static int eval_batch(ms_synth *s, ms_dsl_prog *const *progs, int n, int kind, int use_cache, const uint64_t *given,
		      double *scores, int *n_done)
{
	int rc, outcome = 0, m = 0, reached = 0;
	long long first = -1;
	*n_done = 0;
	if ((rc = reserve_batch(s, n)) < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		ms_dsl_prog *p = progs[i];
		s->fresh.v[i] = 0;
		if (use_cache && syn_cache_get(&s->cache[kind], p, &scores[i])) {
			s->hits++;
			reached = i + 1;
			continue;
		}
		if ((outcome = syn_check(s, kind)) != 0)
			break;
		long long index = s->next_index++;
		s->checks = 0;
		s->idle = 0;
		s->fresh.v[i] = 1;
		reached = i + 1;
		if (index < s->log.rec.n) {
			const syn_record *r = &s->log.rec.v[index];
			if (r->kind != kind || r->hash != ms_dsl_hash(p))
				return ms_ctx_error(s->ctx, MS_EINVAL,
						    "checkpoint %s: evaluation %lld was of another program than this search asks for "
						    "(the options, the problem or the build differ from the recorded run)",
						    s->log.path, index);
			scores[i] = r->score;
			s->replayed++;
			if ((rc = account(s, index, p, kind, r->score, r->failed, 0)) < 0)
				return rc;
			if (index + 1 == s->log.rec.n)
				syn_start_live_clock(s);
			continue;
		}
		if (first < 0)
			first = index;
		s->batch.v[m] = p;
		s->seeds.v[m] = given ? given[i] : ms_synth_eval_seed(s->o.seed, (uint64_t)index);
		s->slot.v[m] = i;
		s->pending[kind]++;
		m++;
	}
	if (outcome < 0)
		return outcome;
	if (m > 0) {
		live_ctx lc = { s, progs, scores, first, kind, 0 };
		rc = ms_synth_eval_programs(s->ev, s->batch.v, m, kind, s->seeds.v, NULL, NULL, live_done, &lc);
		s->pending[kind] = 0;
		if (rc < 0)
			return rc;
		if (lc.rc < 0)
			return lc.rc;
	}
	if (outcome == 0 && m == 0 && reached == n) {
		int any = 0;
		for (int i = 0; i < n; i++)
			any |= s->fresh.v[i];
		/* all cache hits: still a point where the clock or an exhausted space may end the phase */
		if (!any && (outcome = syn_idle(s)) == 0)
			outcome = syn_check(s, kind);
		if (outcome < 0)
			return outcome;
	}
	/* into the cache only now, replayed or live alike: a batch never hits itself */
	for (int i = 0; use_cache && i < reached; i++)
		if (s->fresh.v[i] && (rc = syn_cache_put(&s->cache[kind], progs[i], scores[i])) < 0)
			return rc;
	*n_done = reached;
	if (s->stop_asked)
		return SYN_STOP;
	return outcome;
}

int syn_eval(ms_synth *s, ms_dsl_prog *const *progs, int n, int kind, int use_cache, double *scores, int *n_done)
{
	return eval_batch(s, progs, n, kind, use_cache, NULL, scores, n_done);
}

int syn_eval_seeded(ms_synth *s, ms_dsl_prog *const *progs, int n, int kind, const uint64_t *seeds, double *scores,
		    int *n_done)
{
	return eval_batch(s, progs, n, kind, 0, seeds, scores, n_done);
}

int syn_eval1(ms_synth *s, ms_dsl_prog *p, int kind, int use_cache, double *score)
{
	int n_done;
	return syn_eval(s, &p, 1, kind, use_cache, score, &n_done);
}

/* ---- life cycle ---- */

