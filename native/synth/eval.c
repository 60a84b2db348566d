/*
 * The evaluator: the caller's thread and threads - 1 helpers take
 * (program, shard) tasks in order from a shared counter. Shard results
 * are combined in shard order by the caller's thread, so a score never
 * depends on which thread computed what; each thread evaluates its own
 * copy of the program in its own context (worker 0 is the caller's), so
 * problems can allocate, print and fail freely.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "synth_internal.h"
#include "core/hash.h"
#include "core/pool.h"

typedef struct eval_task {
	int prog, opp, shard; /* opp: index into the population, or -1 */
	double sum, weight;
	int rc;
	int done;
} eval_task;

typedef struct eval_worker {
	ms_synth_eval *ev;
	int id;
	ms_ctx *ctx;
	void *state;
	ms_dsl_prog *copy;
	pthread_t tid;
	int started;
	int slot; /* a remote worker's slot, or -1 for a local one */
} eval_worker;

struct ms_synth_eval {
	ms_ctx *ctx;
	const ms_synth_problem *pb;
	int threads;
	eval_worker *w;
	/* remote workers (ms_synth_eval_add_remote): threads that hand tasks to fn */
	eval_worker *rw;
	int n_remote;
	ms_synth_remote_fn remote_fn;
	void *remote_user;
	int have_sync;
	pthread_mutex_t mu;
	pthread_cond_t work, done;

	/* the population Psi is measured against (problems with opponents) */
	int *pop_id;
	double *pop_w;
	int n_pop;

	/* the batch in progress */
	const ms_dsl_prog *const *progs;
	const uint64_t *seeds;
	int kind;
	eval_task *task;
	int n_task, task_cap, next, n_done;
	int quit;
	int err_rc;          /* first negative status of a task */
	int err_task;
	char err[512];
};

uint64_t ms_synth_eval_seed(uint64_t seed, uint64_t index)
{
	/* SplitMix64 finaliser over seed and index, twice, so nearby seeds and indices decorrelate. */
	uint64_t z = seed + MS_SPLITMIX_GAMMA * (index + 1);
	for (int r = 0; r < 2; r++)
		z = ms_splitmix64_mix(z) + MS_SPLITMIX_GAMMA;
	return z;
}

static int shards_of(const ms_synth_problem *pb, int kind)
{
	return pb->shards[kind] > 0 ? pb->shards[kind] : 1;
}

/* One task on local worker w (its copy of the program is task->prog). */
static int eval_one(const ms_synth_problem *pb, eval_worker *w, const ms_synth_task *task, double *sum,
		    double *weight)
{
	if (syn_problem_eval_vs(pb))
		return pb->eval_vs(pb->user, w->state, w->ctx, task->prog, task->kind, task->opponent, task->shard,
				   task->seed, sum, weight);
	return pb->eval(pb->user, w->state, w->ctx, task->prog, task->kind, task->shard, task->seed, sum, weight);
}

/* Runs task t on worker w; records the first error's message (tasks after an error are skipped). */
static void run_task(ms_synth_eval *ev, eval_worker *w, int t)
{
	eval_task *k = &ev->task[t];
	const ms_synth_problem *pb = ev->pb;
	int skip;
	if (ev->have_sync)
		pthread_mutex_lock(&ev->mu);
	skip = ev->err_rc < 0;
	if (ev->have_sync)
		pthread_mutex_unlock(&ev->mu);
	if (skip) {
		k->rc = 0;
		k->sum = k->weight = 0;
		return;
	}
	int rc = ms_dsl_prog_copy(w->copy, ev->progs[k->prog]);
	k->sum = k->weight = 0;
	ms_synth_task task = { w->copy, ev->kind, k->opp >= 0 ? ev->pop_id[k->opp] : -1, k->shard, ev->seeds[k->prog] };
	if (rc == 0 && w->slot >= 0)
		rc = ev->remote_fn(ev->remote_user, w->slot, w->ctx, &task, &k->sum, &k->weight);
	else if (rc == 0)
		rc = eval_one(pb, w, &task, &k->sum, &k->weight);
	if (rc > 0 && rc != MS_SYNTH_FAILED)
		rc = ms_ctx_error(w->ctx, MS_EINVAL, "problem %s: eval returned %d (expected 0, MS_SYNTH_FAILED or an error)",
				  pb->name ? pb->name : "?", rc);
	k->rc = rc;
	if (rc < 0) {
		if (ev->have_sync)
			pthread_mutex_lock(&ev->mu);
		if (ev->err_rc == 0) {
			ev->err_rc = rc;
			ev->err_task = t;
			snprintf(ev->err, sizeof ev->err, "%s", ms_ctx_last_error(w->ctx));
		}
		if (ev->have_sync)
			pthread_mutex_unlock(&ev->mu);
	}
}

static void *worker_main(void *arg)
{
	eval_worker *w = arg;
	ms_synth_eval *ev = w->ev;
	pthread_mutex_lock(&ev->mu);
	for (;;) {
		while (!ev->quit && ev->next >= ev->n_task)
			pthread_cond_wait(&ev->work, &ev->mu);
		if (ev->quit)
			break;
		int t = ev->next++;
		pthread_mutex_unlock(&ev->mu);
		run_task(ev, w, t);
		pthread_mutex_lock(&ev->mu);
		ev->task[t].done = 1;
		ev->n_done++;
		pthread_cond_broadcast(&ev->done);
	}
	pthread_mutex_unlock(&ev->mu);
	return NULL;
}

void ms_synth_eval_free(ms_synth_eval *ev)
{
	if (!ev)
		return;
	if (ev->have_sync) {
		pthread_mutex_lock(&ev->mu);
		ev->quit = 1;
		pthread_cond_broadcast(&ev->work);
		pthread_mutex_unlock(&ev->mu);
	}
	for (int i = 0; ev->w && i < ev->threads + ev->n_remote; i++) {
		eval_worker *w = i < ev->threads ? &ev->w[i] : &ev->rw[i - ev->threads];
		if (w->started)
			pthread_join(w->tid, NULL);
		if (w->state && ev->pb->worker_free)
			ev->pb->worker_free(ev->pb->user, w->state);
		ms_dsl_prog_free(w->copy);
		ms_ctx_free(w->ctx);
	}
	if (ev->have_sync) {
		pthread_mutex_destroy(&ev->mu);
		pthread_cond_destroy(&ev->work);
		pthread_cond_destroy(&ev->done);
	}
	ms_ctx_mfree(ev->ctx, ev->w);
	ms_ctx_mfree(ev->ctx, ev->rw);
	ms_ctx_mfree(ev->ctx, ev->task);
	ms_ctx_mfree(ev->ctx, ev->pop_id);
	ms_ctx_mfree(ev->ctx, ev->pop_w);
	ms_ctx_mfree(ev->ctx, ev);
}

/* The mutex and condition variables the threads share (once). */
static int sync_start(ms_synth_eval *ev)
{
	if (ev->have_sync)
		return 0;
	if (pthread_mutex_init(&ev->mu, NULL) != 0)
		return ms_ctx_error(ev->ctx, MS_ERROR, "evaluator: cannot create a mutex");
	if (pthread_cond_init(&ev->work, NULL) != 0) {
		pthread_mutex_destroy(&ev->mu);
		return ms_ctx_error(ev->ctx, MS_ERROR, "evaluator: cannot create a condition variable");
	}
	if (pthread_cond_init(&ev->done, NULL) != 0) {
		pthread_cond_destroy(&ev->work);
		pthread_mutex_destroy(&ev->mu);
		return ms_ctx_error(ev->ctx, MS_ERROR, "evaluator: cannot create a condition variable");
	}
	ev->have_sync = 1;
	return 0;
}

int ms_synth_eval_new(ms_ctx *ctx, ms_synth_eval **out, const ms_synth_problem *pb, int threads,
		      const ms_allocator *worker_alloc)
{
	*out = NULL;
	if (!pb || !syn_problem_version_ok(pb))
		return ms_ctx_error(ctx, MS_EINVAL, "evaluator: problem missing or of an unknown version");
	if ((!pb->eval && !syn_problem_eval_vs(pb)) || !pb->grammar)
		return ms_ctx_error(ctx, MS_EINVAL, "evaluator: problem %s has no eval function or no grammar",
				    pb->name ? pb->name : "?");
	if (syn_problem_opponents(pb) > 0 && !syn_problem_eval_vs(pb))
		return ms_ctx_error(ctx, MS_EINVAL, "evaluator: problem %s has %d opponents but no eval_vs",
				    pb->name ? pb->name : "?", syn_problem_opponents(pb));
	if (threads < 1 || threads > 1024)
		return ms_ctx_error(ctx, MS_EINVAL, "evaluator: %d threads (1 to 1024)", threads);
	ms_synth_eval *ev = ms_ctx_calloc(ctx, 1, sizeof *ev);
	if (!ev)
		return ms_ctx_error(ctx, MS_ENOMEM, "evaluator: out of memory");
	ev->ctx = ctx;
	ev->pb = pb;
	ev->threads = threads;
	int rc = 0;
	if ((rc = ms_synth_eval_set_population(ev, NULL)) < 0)
		goto fail;
	ev->w = ms_ctx_calloc(ctx, (size_t)threads, sizeof *ev->w);
	if (!ev->w) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "evaluator: out of memory");
		goto fail;
	}
	ev->threads = 0; /* counts initialised workers until the end, for cleanup */
	for (int i = 0; i < threads; i++) {
		eval_worker *w = &ev->w[i];
		ms_ctx_options co = { MS_CTX_OPTIONS_VERSION, worker_alloc };
		w->ev = ev;
		w->id = i;
		w->slot = -1;
		ev->threads = i + 1;
		if ((rc = ms_ctx_new(&w->ctx, &co)) < 0) {
			rc = ms_ctx_error(ctx, rc, "evaluator: cannot create the context of thread %d", i);
			goto fail;
		}
		if ((rc = ms_dsl_prog_new(w->ctx, &w->copy, pb->grammar)) < 0) {
			rc = ms_ctx_error(ctx, rc, "evaluator: thread %d: %s", i, ms_ctx_last_error(w->ctx));
			goto fail;
		}
		if (pb->worker_new && (rc = pb->worker_new(pb->user, w->ctx, i, &w->state)) < 0) {
			rc = ms_ctx_error(ctx, rc, "evaluator: problem %s: state of thread %d: %s", pb->name ? pb->name : "?",
					  i, ms_ctx_last_error(w->ctx));
			goto fail;
		}
	}
	if (threads > 1) {
		if ((rc = sync_start(ev)) < 0)
			goto fail;
		for (int i = 1; i < threads; i++) {
			if ((rc = ms_thread_start(ctx, &ev->w[i].tid, worker_main, &ev->w[i], "an evaluator thread")) < 0) {
				rc = ms_ctx_error(ctx, rc, "evaluator: thread %d of %d: %s", i, threads, ms_ctx_last_error(ctx));
				goto fail;
			}
			ev->w[i].started = 1;
		}
	}
	*out = ev;
	return 0;
fail:
	ms_synth_eval_free(ev);
	return rc;
}

/*
 * Score of program i from its tasks (opponents x shards), combined in
 * order: each opponent's score is its shards' sum over their weight, and
 * the program's is the opponents' scores weighted by the population; 1 in
 * *failed if a shard failed or an opponent's shards weighed nothing.
 */
static double combine(const ms_synth_eval *ev, int i, int opps, int shards, int *failed)
{
	double total = 0, total_w = 0;
	int bad = 0;
	for (int o = 0; o < opps; o++) {
		double sum = 0, weight = 0;
		for (int s = 0; s < shards; s++) {
			const eval_task *k = &ev->task[(i * opps + o) * shards + s];
			bad |= k->rc == MS_SYNTH_FAILED;
			sum += k->sum;
			weight += k->weight;
		}
		if (!(weight > 0)) {
			bad = 1;
			break;
		}
		if (opps == 1 && ev->task[i * shards].opp < 0)
			return *failed = bad, bad ? 0 : sum / weight;
		total += ev->pop_w[ev->task[(i * opps + o) * shards].opp] * (sum / weight);
		total_w += ev->pop_w[ev->task[(i * opps + o) * shards].opp];
	}
	if (bad || !(total_w > 0)) {
		*failed = 1;
		return 0;
	}
	*failed = 0;
	return total / total_w;
}

int ms_synth_eval_set_population(ms_synth_eval *ev, const ms_synth_population *pop)
{
	int n_opp = syn_problem_opponents(ev->pb);
	int n = pop && pop->n > 0 ? pop->n : n_opp;
	int *id = NULL;
	double *w = NULL;

	if (pop && pop->n < 0)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "population: %d opponents", pop->n);
	if (pop && pop->n > 0 && !pop->opponents)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "population: %d opponents but no numbers", pop->n);
	if (n > 0) {
		id = ms_ctx_malloc(ev->ctx, sizeof *id * (size_t)n);
		w = ms_ctx_malloc(ev->ctx, sizeof *w * (size_t)n);
		if (!id || !w) {
			ms_ctx_mfree(ev->ctx, id);
			ms_ctx_mfree(ev->ctx, w);
			return ms_ctx_error(ev->ctx, MS_ENOMEM, "population: out of memory");
		}
	}
	for (int i = 0; i < n; i++) {
		id[i] = pop && pop->n > 0 ? pop->opponents[i] : i;
		w[i] = pop && pop->n > 0 && pop->weights ? pop->weights[i] : 1.0;
		int bad_id = id[i] < 0 || id[i] >= n_opp, repeated = 0;
		for (int j = 0; j < i; j++)
			repeated |= id[j] == id[i];
		if (bad_id || repeated || !(w[i] > 0) || w[i] > 1e300) {
			int rc = ms_ctx_error(ev->ctx, MS_EINVAL,
					      "population: opponent %d of %d: %s (the problem %s has %d opponents)", i, n,
					      bad_id ? "no such opponent" : repeated ? "given twice" : "weight not > 0",
					      ev->pb->name ? ev->pb->name : "?", n_opp);
			ms_ctx_mfree(ev->ctx, id);
			ms_ctx_mfree(ev->ctx, w);
			return rc;
		}
	}
	ms_ctx_mfree(ev->ctx, ev->pop_id);
	ms_ctx_mfree(ev->ctx, ev->pop_w);
	ev->pop_id = id;
	ev->pop_w = w;
	ev->n_pop = n;
	return 0;
}

int syn_eval_population(const ms_synth_eval *ev, const int **ids, const double **weights)
{
	*ids = ev->pop_id;
	*weights = ev->pop_w;
	return ev->n_pop;
}

int ms_synth_eval_programs(ms_synth_eval *ev, const ms_dsl_prog *const *progs, int n, int kind,
			   const uint64_t *seeds, double *scores, int *failed, ms_synth_eval_done_fn done, void *ud)
{
	if (kind != MS_SYNTH_PSI && kind != MS_SYNTH_C)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "evaluator: unknown kind %d", kind);
	if (kind == MS_SYNTH_C && !ev->pb->has_c)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "evaluator: problem %s defines no cloning score",
				    ev->pb->name ? ev->pb->name : "?");
	if (n <= 0)
		return 0;
	int shards = shards_of(ev->pb, kind);
	/* Psi of a problem with opponents: every opponent of the population, each in `shards` shards */
	int vs = kind == MS_SYNTH_PSI && ev->n_pop > 0;
	int opps = vs ? ev->n_pop : 1;
	if ((long long)n * opps * shards > (1 << 30))
		return ms_ctx_error(ev->ctx, MS_ERANGE, "evaluator: %d programs of %d x %d shards is too many", n, opps,
				    shards);
	int per = opps * shards; /* tasks per program */
	int n_task = n * per;
	if (ms_vec_grow(ev->ctx, (void **)&ev->task, &ev->task_cap, n_task, sizeof *ev->task) < 0)
		return ms_ctx_error(ev->ctx, MS_ENOMEM, "evaluator: out of memory");
	for (int t = 0; t < n_task; t++)
		ev->task[t] = (eval_task){ .prog = t / per, .opp = vs ? t % per / shards : -1, .shard = t % shards };
	ev->progs = progs;
	ev->seeds = seeds;
	ev->kind = kind;
	ev->err_rc = 0;
	ev->err[0] = 0;

	if (!ev->have_sync) {
		ev->n_task = n_task;
		for (int i = 0; i < n; i++) {
			for (int s = 0; s < per; s++)
				run_task(ev, &ev->w[0], i * per + s);
			if (ev->err_rc < 0)
				break;
			int bad;
			double sc = combine(ev, i, opps, shards, &bad);
			if (scores)
				scores[i] = sc;
			if (failed)
				failed[i] = bad;
			if (done)
				done(ud, i, sc, bad);
		}
	} else {
		pthread_mutex_lock(&ev->mu);
		ev->n_task = n_task;
		ev->next = 0;
		ev->n_done = 0;
		pthread_cond_broadcast(&ev->work);
		int i = 0; /* next program to hand over */
		for (;;) {
			/* hand over, in order, every program whose shards are all done */
			while (i < n && ev->err_rc == 0) {
				int s = 0;
				while (s < per && ev->task[i * per + s].done)
					s++;
				if (s < per)
					break;
				int bad;
				double sc = combine(ev, i, opps, shards, &bad);
				pthread_mutex_unlock(&ev->mu);
				if (scores)
					scores[i] = sc;
				if (failed)
					failed[i] = bad;
				if (done)
					done(ud, i, sc, bad);
				pthread_mutex_lock(&ev->mu);
				i++;
			}
			if (ev->n_done == ev->n_task)
				break;
			if (ev->next < ev->n_task && ev->n_remote == 0) {
				/* the caller works too, as worker 0 (not beside remote workers: it serves the search and their replies) */
				int t = ev->next++;
				pthread_mutex_unlock(&ev->mu);
				run_task(ev, &ev->w[0], t);
				pthread_mutex_lock(&ev->mu);
				ev->task[t].done = 1;
				ev->n_done++;
				continue;
			}
			pthread_cond_wait(&ev->done, &ev->mu);
		}
		/* nobody reads the batch once we return */
		ev->n_task = 0;
		ev->next = 0;
		pthread_mutex_unlock(&ev->mu);
	}
	ev->progs = NULL;
	if (ev->err_rc < 0) {
		const eval_task *k = &ev->task[ev->err_task];
		if (k->opp >= 0)
			return ms_ctx_error(ev->ctx, ev->err_rc,
					    "evaluating program %d of the batch (psi against opponent %d, shard %d): %s",
					    k->prog, ev->pop_id[k->opp], k->shard, ev->err);
		return ms_ctx_error(ev->ctx, ev->err_rc, "evaluating program %d of the batch (%s, shard %d): %s", k->prog,
				    kind == MS_SYNTH_PSI ? "psi" : "C", k->shard, ev->err);
	}
	return 0;
}

int ms_synth_eval_features(ms_synth_eval *ev, const ms_dsl_prog *prog, int opponent, uint64_t seed, int *out)
{
	const ms_synth_problem *pb = ev->pb;
	int n = syn_problem_features(pb);
	eval_worker *w = &ev->w[0];

	if (n <= 0)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "features: problem %s defines none", pb->name ? pb->name : "?");
	if (opponent < -1 || opponent >= syn_problem_opponents(pb))
		return ms_ctx_error(ev->ctx, MS_EINVAL, "features: problem %s has no opponent %d", pb->name ? pb->name : "?",
				    opponent);
	memset(out, 0, sizeof *out * (size_t)n);
	int rc = ms_dsl_prog_copy(w->copy, prog);
	if (rc == 0)
		rc = pb->features(pb->user, w->state, w->ctx, w->copy, opponent, seed, out, n);
	if (rc < 0)
		return ms_ctx_error(ev->ctx, rc, "features of a program: %s", ms_ctx_last_error(w->ctx));
	if (rc == MS_SYNTH_FAILED) {
		memset(out, 0, sizeof *out * (size_t)n);
		return MS_SYNTH_FAILED;
	}
	if (rc != 0)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "problem %s: features returned %d", pb->name ? pb->name : "?", rc);
	for (int j = 0; j < n; j++)
		if (out[j] < 0 || out[j] >= pb->feature_values[j])
			return ms_ctx_error(ev->ctx, MS_EINVAL, "problem %s: feature %d is %d, outside 0..%d",
					    pb->name ? pb->name : "?", j, out[j], pb->feature_values[j] - 1);
	return 0;
}

int ms_synth_eval_add_remote(ms_synth_eval *ev, int slots, ms_synth_remote_fn fn, void *user)
{
	if (ev->n_remote > 0)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "evaluator: remote workers already added");
	if (slots < 1 || slots > 65536 || !fn)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "evaluator: %d remote slots (1 to 65536) or no function", slots);
	ev->rw = ms_ctx_calloc(ev->ctx, (size_t)slots, sizeof *ev->rw);
	if (!ev->rw)
		return ms_ctx_error(ev->ctx, MS_ENOMEM, "evaluator: out of memory");
	int rc = sync_start(ev);
	ev->remote_fn = fn;
	ev->remote_user = user;
	/* each remote worker has a context and a copy of the program (to print it), no problem state */
	for (int i = 0; rc == 0 && i < slots; i++) {
		eval_worker *w = &ev->rw[i];
		w->ev = ev;
		w->id = ev->threads + i;
		w->slot = i;
		ev->n_remote = i + 1;
		if ((rc = ms_ctx_new(&w->ctx, NULL)) < 0)
			rc = ms_ctx_error(ev->ctx, rc, "evaluator: cannot create the context of remote slot %d", i);
		else if ((rc = ms_dsl_prog_new(w->ctx, &w->copy, ev->pb->grammar)) < 0)
			rc = ms_ctx_error(ev->ctx, rc, "evaluator: remote slot %d: %s", i, ms_ctx_last_error(w->ctx));
		else if ((rc = ms_thread_start(ev->ctx, &w->tid, worker_main, w, "a thread")) < 0)
			rc = ms_ctx_error(ev->ctx, rc, "evaluator: remote slot %d: %s", i, ms_ctx_last_error(ev->ctx));
		else
			w->started = 1;
	}
	/* on failure the workers made so far stay (they only take tasks); ms_synth_eval_free ends them */
	return rc;
}

int ms_synth_eval_task(ms_synth_eval *ev, const ms_synth_task *task, double *sum, double *weight)
{
	const ms_synth_problem *pb = ev->pb;
	eval_worker *w = &ev->w[0];
	*sum = *weight = 0;
	if (!task || !task->prog || (task->kind != MS_SYNTH_PSI && task->kind != MS_SYNTH_C) ||
	    (task->kind == MS_SYNTH_C && !pb->has_c))
		return ms_ctx_error(ev->ctx, MS_EINVAL, "task: no program or an unknown kind");
	if (task->opponent < -1 || task->opponent >= syn_problem_opponents(pb) ||
	    (task->opponent >= 0 && !syn_problem_eval_vs(pb)))
		return ms_ctx_error(ev->ctx, MS_EINVAL, "task: problem %s has no opponent %d", pb->name ? pb->name : "?",
				    task->opponent);
	if (task->shard < 0 || task->shard >= shards_of(pb, task->kind))
		return ms_ctx_error(ev->ctx, MS_EINVAL, "task: problem %s has no shard %d", pb->name ? pb->name : "?",
				    task->shard);
	int rc = ms_dsl_prog_copy(w->copy, task->prog);
	ms_synth_task mine = *task;
	mine.prog = w->copy;
	if (rc == 0)
		rc = eval_one(pb, w, &mine, sum, weight);
	if (rc < 0)
		return ms_ctx_error(ev->ctx, rc, "task: %s", ms_ctx_last_error(w->ctx));
	if (rc != 0 && rc != MS_SYNTH_FAILED)
		return ms_ctx_error(ev->ctx, MS_EINVAL, "problem %s: eval returned %d", pb->name ? pb->name : "?", rc);
	return rc;
}
