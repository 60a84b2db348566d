/*
 * Synthesis across MPI ranks. Rank 0's evaluator gets one remote worker
 * per other rank: the worker sends its task (the program in token form,
 * kind, opponent, shard, seed) and waits for the status, sum and weight,
 * which the evaluator combines in task order as it does its threads'.
 * Ranks > 0 evaluate with their own copy of the problem on `--threads K`
 * worker threads, K tasks in flight; they say K in their reply to rank 0's
 * hello, and rank 0 opens K slots for them. Numbers travel as raw bytes:
 * every rank runs the same build on the same architecture (as mpirun of
 * one binary does).
 *
 * Threads and MPI: rank 0's slot threads call MPI one at a time under a
 * lock (MPI_THREAD_SERIALIZED). A serving rank funnels every MPI call
 * through its main thread: the workers only see queues. Not
 * MPI_THREAD_MULTIPLE, because Open MPI's blocking calls spin, so K
 * workers each waiting in MPI_Recv would burn the cores they evaluate on,
 * while the funnel's main thread sleeps on a condition variable whenever
 * its K workers are all busy (rank 0 then cannot send it anything).
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/pool.h"
#include "cli.h"
#include "synth_mpi.h"

/*
 * HELLO: rank 0's problem fingerprint, before any task; READY: a serving
 * rank's thread count in reply; COUNTS: rank 0 asks for the problem's
 * counters after the search, COUNTED brings them; PROBLEM (self-play): the
 * programs the next problem is made of, ending the current one. A result's
 * tag is TAG_RESULT + the task's `reply` (the slot's number on that rank),
 * so K replies in flight from one rank each find their slot.
 */
enum {
	TAG_TASK = 1,
	TAG_PROBLEM = 2,
	TAG_STOP = 3,
	TAG_HELLO = 4,
	TAG_READY = 5,
	TAG_COUNTS = 6,
	TAG_COUNTED = 7,
	TAG_RESULT = 16
};

typedef struct task_head {
	int32_t kind, opponent, shard, nt;
	uint64_t seed;
	int32_t reply, pad;
} task_head;

typedef struct result_head {
	int32_t rc, pad;
	double sum, weight;
	double seconds; /* the evaluation's time on the serving rank */
} result_head;

/*
 * MPI is started once per process, so its state is per process too. The
 * evaluator's threads call MPI one at a time under `mu` (MPI_THREAD_SERIALIZED).
 */
static struct {
	int started, rank, size;
	/* rank 0: tasks the other ranks evaluated, the bytes both ways, seconds from send to reply and evaluating */
	long long remote_tasks, bytes;
	double round_trip, evaluating;
	/* rank 0: remote slot i is slot slot_k[i] of rank slot_rank[i] */
	int *slot_rank, *slot_k, n_slots;
	/* rank 0: tasks sent to each rank and not answered yet, and the most there ever were on one rank */
	int *in_flight, most_in_flight;
	/* rank 0: per rank (the first SYNTH_MPI_MAX_RANKS), the tasks it answered and its seconds evaluating them */
	long long rank_tasks[SYNTH_MPI_MAX_RANKS];
	double rank_eval[SYNTH_MPI_MAX_RANKS];
	/* serving ranks: the problem's counters (synth_mpi_set_counts) */
	synth_mpi_counts_fn counts;
	void *counts_user;
	pthread_mutex_t mu;
} g_mpi = { 0, -1, 0, 0, 0, 0, 0, NULL, NULL, 0, NULL, 0, { 0 }, { 0 }, NULL, NULL, PTHREAD_MUTEX_INITIALIZER };

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int launched_by_mpi(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int synth_mpi_rank(void)
{
	int provided = 0;
	if (g_mpi.started)
		return g_mpi.rank;
	if (!launched_by_mpi())
		return -1;
	/* MPI's default error handler ends the whole job, so a failed call never leaves a rank waiting */
	MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
	g_mpi.started = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &g_mpi.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g_mpi.size);
	if (provided < MPI_THREAD_SERIALIZED) {
		fprintf(stderr, "microsynth: rank %d: this MPI cannot be called from several threads\n", g_mpi.rank);
		MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
	}
	return g_mpi.rank;
}

static void nap(void)
{
	struct timespec ts = { 0, 20000 }; /* 20 us: short next to any evaluation */
	nanosleep(&ts, NULL);
}

/* Sends task buf to rank `dest` without holding the lock while the transfer waits. */
static void send_locked(const void *buf, int n, int dest, int tag)
{
	MPI_Request req;
	int done = 0;
	pthread_mutex_lock(&g_mpi.mu);
	if (++g_mpi.in_flight[dest] > g_mpi.most_in_flight)
		g_mpi.most_in_flight = g_mpi.in_flight[dest];
	MPI_Isend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &req);
	pthread_mutex_unlock(&g_mpi.mu);
	for (;;) {
		pthread_mutex_lock(&g_mpi.mu);
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		pthread_mutex_unlock(&g_mpi.mu);
		if (done)
			return;
		nap();
	}
}

/* The next result of `tag` from `src`, in a malloc'd buffer (NULL when out of memory). */
static char *recv_locked(int src, int tag, int *n)
{
	MPI_Status st;
	int flag = 0;
	char *buf = NULL;
	for (;;) {
		pthread_mutex_lock(&g_mpi.mu);
		MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			MPI_Get_count(&st, MPI_BYTE, n);
			buf = malloc((size_t)*n + 1);
			/* received even without memory (into a byte), so the stream stays in step */
			char one;
			MPI_Recv(buf ? buf : &one, buf ? *n : 1, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			g_mpi.remote_tasks++;
			g_mpi.in_flight[src]--;
		}
		pthread_mutex_unlock(&g_mpi.mu);
		if (flag)
			return buf;
		nap();
	}
}

/* The remote worker of slot `slot`: slot slot_k[slot] of rank slot_rank[slot] evaluates the task. */
static int remote_eval(void *user, int slot, ms_ctx *ctx, const ms_synth_task *t, double *sum, double *weight)
{
	int dest = g_mpi.slot_rank[slot], reply = g_mpi.slot_k[slot];
	char *text = NULL;
	size_t len = 0;
	(void)user;
	int rc = ms_dsl_print_tokens(t->prog, ' ', &text, &len);
	if (rc < 0)
		return rc;
	if (len > INT_MAX - sizeof(task_head)) {
		ms_ctx_mfree(ctx, text);
		return ms_ctx_error(ctx, MS_ERANGE, "rank %d: a program of %zu bytes is too long to send", dest, len);
	}
	size_t n = sizeof(task_head) + len;
	char *msg = malloc(n);
	if (!msg) {
		ms_ctx_mfree(ctx, text);
		return ms_ctx_error(ctx, MS_ENOMEM, "rank %d: out of memory", dest);
	}
	task_head h = { t->kind, t->opponent, t->shard, ms_dsl_prog_nt(t->prog), t->seed, reply, 0 };
	memcpy(msg, &h, sizeof h);
	memcpy(msg + sizeof h, text, len);
	ms_ctx_mfree(ctx, text);
	double t0 = now();
	send_locked(msg, (int)n, dest, TAG_TASK);
	free(msg);

	int got = 0;
	char *res = recv_locked(dest, TAG_RESULT + reply, &got);
	if (!res)
		return ms_ctx_error(ctx, MS_ENOMEM, "rank %d: out of memory for its result", dest);
	result_head r;
	if (got < (int)sizeof r) {
		free(res);
		return ms_ctx_error(ctx, MS_EPARSE, "rank %d: a result of %d bytes", dest, got);
	}
	memcpy(&r, res, sizeof r);
	res[got] = 0;
	pthread_mutex_lock(&g_mpi.mu);
	g_mpi.bytes += (long long)n + got;
	g_mpi.round_trip += now() - t0;
	g_mpi.evaluating += r.seconds;
	if (dest < SYNTH_MPI_MAX_RANKS) {
		g_mpi.rank_tasks[dest]++;
		g_mpi.rank_eval[dest] += r.seconds;
	}
	pthread_mutex_unlock(&g_mpi.mu);
	if (r.rc < 0)
		rc = ms_ctx_error(ctx, r.rc, "rank %d: %s", dest, res + sizeof r);
	else
		rc = r.rc, *sum = r.sum, *weight = r.weight;
	free(res);
	return rc;
}

/* Rank 0: slot i's rank and number there, the ranks taken in turn so the first slots spread over them. */
static int map_slots(ms_ctx *ctx, const int *threads)
{
	int n = 0, most = 0, *tag_ub = NULL, flag = 0;
	for (int r = 1; r < g_mpi.size; r++) {
		n += threads[r];
		most = threads[r] > most ? threads[r] : most;
	}
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
	if (flag && *tag_ub < TAG_RESULT + most)
		return ms_ctx_error(ctx, MS_ERANGE, "MPI: %d threads on one rank, but this MPI's tags end at %d", most,
				    *tag_ub);
	free(g_mpi.slot_rank);
	free(g_mpi.slot_k);
	free(g_mpi.in_flight);
	g_mpi.slot_rank = malloc(sizeof *g_mpi.slot_rank * (size_t)n);
	g_mpi.slot_k = malloc(sizeof *g_mpi.slot_k * (size_t)n);
	g_mpi.in_flight = calloc((size_t)g_mpi.size, sizeof *g_mpi.in_flight);
	if (!g_mpi.slot_rank || !g_mpi.slot_k || !g_mpi.in_flight)
		return ms_ctx_error(ctx, MS_ENOMEM, "MPI: out of memory for %d slots", n);
	g_mpi.n_slots = 0;
	for (int k = 0; k < most; k++)
		for (int r = 1; r < g_mpi.size; r++)
			if (k < threads[r]) {
				g_mpi.slot_rank[g_mpi.n_slots] = r;
				g_mpi.slot_k[g_mpi.n_slots++] = k;
			}
	return 0;
}

int synth_mpi_attach(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb)
{
	if (!g_mpi.started || g_mpi.size < 2)
		return 0;
	/* the servers check they built the same problem (the same command on every rank) and say their threads */
	const char *fp = pb->fingerprint;
	fp = fp ? fp : "";
	for (int r = 1; r < g_mpi.size; r++)
		MPI_Send(fp, (int)strlen(fp) + 1, MPI_BYTE, r, TAG_HELLO, MPI_COMM_WORLD);
	int *threads = calloc((size_t)g_mpi.size, sizeof *threads);
	if (!threads)
		return ms_ctx_error(ctx, MS_ENOMEM, "MPI: out of memory for %d ranks", g_mpi.size);
	for (int r = 1; r < g_mpi.size; r++) {
		int32_t k = 0;
		MPI_Recv(&k, 4, MPI_BYTE, r, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		threads[r] = k;
	}
	int rc = map_slots(ctx, threads);
	free(threads);
	if (rc < 0)
		return rc;
	return ms_synth_eval_add_remote(ms_synth_evaluator(s), g_mpi.n_slots, remote_eval, NULL);
}

/* progs[0 .. n) packed as parse_programs reads them, in a malloc'd *out of *len bytes. */
static int pack_programs(ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, char **out, size_t *len)
{
	char **text = calloc((size_t)n + 1, sizeof *text);
	size_t *tl = calloc((size_t)n + 1, sizeof *tl), total = 4;
	int rc = text && tl ? 0 : ms_ctx_error(ctx, MS_ENOMEM, "MPI: out of memory for %d programs", n);
	for (int i = 0; i < n && rc == 0; i++) {
		char *t = NULL;
		if ((rc = ms_dsl_print_tokens(progs[i], ' ', &t, &tl[i])) < 0)
			break;
		text[i] = strdup(t);
		ms_ctx_mfree(ms_dsl_prog_ctx(progs[i]), t);
		total += 8 + tl[i];
		if (!text[i] || tl[i] > INT32_MAX || total > INT_MAX)
			rc = ms_ctx_error(ctx, MS_ENOMEM, "MPI: cannot pack program %d for the ranks", i);
	}
	char *m = rc == 0 ? malloc(total) : NULL;
	if (rc == 0 && !m)
		rc = ms_ctx_error(ctx, MS_ENOMEM, "MPI: out of memory for %zu bytes of programs", total);
	if (m) {
		int32_t n32 = n;
		size_t at = 4;
		memcpy(m, &n32, 4);
		for (int i = 0; i < n; i++) {
			int32_t head[2] = { ms_dsl_prog_nt(progs[i]), (int32_t)tl[i] };
			memcpy(m + at, head, 8);
			memcpy(m + at + 8, text[i], tl[i]);
			at += 8 + tl[i];
		}
	}
	for (int i = 0; text && i < n; i++)
		free(text[i]);
	free(text);
	free(tl);
	*out = m;
	*len = total;
	return rc;
}

int synth_mpi_attach_vs(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb, const ms_dsl_prog *const *progs,
			int n)
{
	if (!g_mpi.started || g_mpi.size < 2)
		return 0;
	char *m = NULL;
	size_t len = 0;
	int rc = pack_programs(ctx, progs, n, &m, &len);
	for (int r = 1; rc == 0 && r < g_mpi.size; r++)
		MPI_Send(m, (int)len, MPI_BYTE, r, TAG_PROBLEM, MPI_COMM_WORLD);
	free(m);
	return rc < 0 ? rc : synth_mpi_attach(ctx, s, pb);
}

/* Ends the job from a serving rank's main thread (the only one that calls MPI there). */
static void serve_abort(const char *what, int rc)
{
	fprintf(stderr, "microsynth: rank %d: %s\n", g_mpi.rank, what);
	MPI_Abort(MPI_COMM_WORLD, rc);
}

/* One task in buf[0..n), n >= sizeof(task_head), evaluated into the reply *r (an error's message in msg). */
static void serve_one(ms_ctx *ctx, ms_synth_eval *ev, ms_dsl_prog *p, const char *buf, int n, result_head *r,
		      const char **msg)
{
	task_head h;
	memset(r, 0, sizeof *r);
	*msg = "";
	memcpy(&h, buf, sizeof h);
	int rc = ms_dsl_parse_tokens(p, buf + sizeof h, (size_t)n - sizeof h, ' ', h.nt);
	if (rc >= 0) {
		ms_synth_task t = { p, h.kind, h.opponent, h.shard, h.seed };
		double t0 = now();
		rc = ms_synth_eval_task(ev, &t, &r->sum, &r->weight);
		r->seconds = now() - t0;
	}
	r->rc = rc;
	if (rc < 0)
		*msg = ms_ctx_last_error(ctx);
}

/* Ends the job when this rank built another problem than rank 0's. */
static void check_fingerprint(const ms_synth_problem *pb, const char *fp0)
{
	const char *fp = pb->fingerprint ? pb->fingerprint : "";
	if (strcmp(fp, fp0)) {
		fprintf(stderr,
			"microsynth: rank %d built another problem than rank 0 (fingerprint '%s', rank 0's '%s'): "
			"run the same command on every rank\n",
			g_mpi.rank, fp, fp0);
		MPI_Abort(MPI_COMM_WORLD, CLI_USAGE);
	}
}

/* A message between a serving rank's main thread and its workers: a task in, a reply out (tag: its slot's). */
typedef struct srv_msg {
	char *buf;
	int n, tag;
} srv_msg;

/* A ring of at most `cap` messages: rank 0 keeps at most K tasks in flight per rank. */
typedef struct srv_queue {
	srv_msg *m;
	int head, n, cap;
} srv_queue;

static void q_push(srv_queue *q, srv_msg m)
{
	q->m[(q->head + q->n++) % q->cap] = m;
}

static srv_msg q_pop(srv_queue *q)
{
	srv_msg m = q->m[q->head];
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return m;
}

typedef struct server server;

/* A worker thread: its own context, evaluator (its own problem state) and program. */
typedef struct srv_worker {
	server *sv;
	ms_ctx *ctx;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	pthread_t tid;
	int started;
} srv_worker;

struct server {
	const ms_synth_problem *pb;
	int k;
	char *next; /* the PROBLEM message that ended serving pb (NULL: STOP did) */
	int next_n;
	pthread_mutex_t mu;
	pthread_cond_t work, done; /* work: a task in `in` (or quit); done: a reply in `out` */
	srv_queue in, out;
	int quit;
	srv_worker *w;
};

/* A reply to send: the result and the error's message (buf NULL when out of memory). */
static srv_msg make_reply(const result_head *r, const char *msg, int tag)
{
	srv_msg out = { NULL, (int)(sizeof *r + strlen(msg)), tag };
	out.buf = malloc((size_t)out.n);
	if (out.buf) {
		memcpy(out.buf, r, sizeof *r);
		memcpy(out.buf + sizeof *r, msg, (size_t)out.n - sizeof *r);
	}
	return out;
}

static void *srv_worker_main(void *arg)
{
	srv_worker *w = arg;
	server *sv = w->sv;
	for (;;) {
		pthread_mutex_lock(&sv->mu);
		while (!sv->quit && sv->in.n == 0)
			pthread_cond_wait(&sv->work, &sv->mu);
		if (sv->in.n == 0) {
			pthread_mutex_unlock(&sv->mu);
			return NULL;
		}
		srv_msg t = q_pop(&sv->in);
		pthread_mutex_unlock(&sv->mu);
		result_head r;
		const char *msg;
		serve_one(w->ctx, w->ev, w->p, t.buf, t.n, &r, &msg);
		free(t.buf);
		srv_msg out = make_reply(&r, msg, t.tag);
		pthread_mutex_lock(&sv->mu);
		q_push(&sv->out, out);
		pthread_cond_signal(&sv->done);
		pthread_mutex_unlock(&sv->mu);
	}
}

/* Waits up to `ns` nanoseconds (< 1 s) for a worker's reply; it wakes on a reply at once. */
static void wait_reply(server *sv, long ns)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += ns;
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_sec++, ts.tv_nsec -= 1000000000L;
	pthread_cond_timedwait(&sv->done, &sv->mu, &ts);
}

/* A task of n bytes from rank 0 into the workers' queue, after checking its head. */
static void queue_task(server *sv, char *buf, int n)
{
	task_head h;
	if (n < (int)sizeof h)
		serve_abort("rank 0 sent a task shorter than its head (another build of microsynth?)", CLI_FAIL);
	memcpy(&h, buf, sizeof h);
	if (h.reply < 0 || h.reply >= sv->k)
		serve_abort("rank 0 sent a task for a slot this rank does not have", CLI_FAIL);
	pthread_mutex_lock(&sv->mu);
	q_push(&sv->in, (srv_msg){ buf, n, TAG_RESULT + h.reply });
	pthread_cond_signal(&sv->work);
	pthread_mutex_unlock(&sv->mu);
}

/*
 * The main thread: receives tasks and sends the workers' replies until rank
 * 0 says stop. With K tasks in flight nothing can come from rank 0, so it
 * sleeps until a reply; otherwise it polls MPI between waits of 20 us (short
 * next to any evaluation), or of 1 ms once nothing happened for 10 ms (rank 0
 * busy with its final evaluations or a checkpoint: a slower poll costs one
 * batch at most a millisecond and saves the node's cores).
 */
static void serve_loop(server *sv)
{
	int in_flight = 0;
	double last = now();
	for (;;) {
		pthread_mutex_lock(&sv->mu);
		while (in_flight == sv->k && sv->out.n == 0)
			pthread_cond_wait(&sv->done, &sv->mu);
		while (sv->out.n > 0) {
			srv_msg r = q_pop(&sv->out);
			pthread_mutex_unlock(&sv->mu);
			if (!r.buf)
				serve_abort("out of memory for a reply", CLI_FAIL);
			MPI_Send(r.buf, r.n, MPI_BYTE, 0, r.tag, MPI_COMM_WORLD);
			free(r.buf);
			in_flight--;
			pthread_mutex_lock(&sv->mu);
		}
		MPI_Status st;
		int flag = 0, n = 0;
		MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag) {
			wait_reply(sv, in_flight == 0 && now() - last > 0.01 ? 1000000L : 20000L);
			pthread_mutex_unlock(&sv->mu);
			continue;
		}
		pthread_mutex_unlock(&sv->mu);
		last = now();
		MPI_Get_count(&st, MPI_BYTE, &n);
		char *buf = malloc((size_t)n + 1);
		if (!buf)
			serve_abort("out of memory for a message from rank 0", CLI_FAIL);
		MPI_Recv(buf, n, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (st.MPI_TAG == TAG_TASK) {
			queue_task(sv, buf, n);
			in_flight++;
			continue;
		}
		if (st.MPI_TAG == TAG_COUNTS) {
			int64_t c[SYNTH_MPI_COUNTS] = { 0 };
			if (g_mpi.counts)
				g_mpi.counts(g_mpi.counts_user, c);
			MPI_Send(c, (int)sizeof c, MPI_BYTE, 0, TAG_COUNTED, MPI_COMM_WORLD);
		}
		if (st.MPI_TAG == TAG_HELLO) {
			int32_t k = sv->k;
			buf[n] = 0;
			check_fingerprint(sv->pb, buf);
			MPI_Send(&k, 4, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
		}
		if (st.MPI_TAG == TAG_PROBLEM) {
			sv->next = buf;
			sv->next_n = n;
			return;
		}
		free(buf);
		if (st.MPI_TAG == TAG_STOP)
			return;
	}
}

/* The workers' states, made one after another on this thread (a problem's JVM must not start on two at once). */
static void serve_start(server *sv)
{
	for (int i = 0; i < sv->k; i++) {
		srv_worker *w = &sv->w[i];
		w->sv = sv;
		if (ms_ctx_new(&w->ctx, NULL) < 0)
			serve_abort("cannot create a context", CLI_FAIL);
		if (ms_synth_eval_new(w->ctx, &w->ev, sv->pb, 1, NULL) < 0 ||
		    ms_dsl_prog_new(w->ctx, &w->p, sv->pb->grammar) < 0)
			serve_abort(ms_ctx_last_error(w->ctx), CLI_FAIL);
	}
	for (int i = 0; i < sv->k; i++) {
		if (ms_thread_start(NULL, &sv->w[i].tid, srv_worker_main, &sv->w[i], NULL))
			serve_abort("cannot start a worker thread", CLI_FAIL);
		sv->w[i].started = 1;
	}
}

/* Serves pb until STOP (returns NULL) or a PROBLEM message (returned, of *n bytes). */
static char *serve_problem(const ms_synth_problem *pb, int threads, int *n)
{
	server sv = { .pb = pb, .k = threads > 0 ? threads : 1 };
	sv.w = calloc((size_t)sv.k, sizeof *sv.w);
	sv.in.m = calloc((size_t)sv.k, sizeof *sv.in.m);
	sv.out.m = calloc((size_t)sv.k, sizeof *sv.out.m);
	if (!sv.w || !sv.in.m || !sv.out.m)
		serve_abort("out of memory for its worker threads", CLI_FAIL);
	sv.in.cap = sv.out.cap = sv.k;
	if (pthread_mutex_init(&sv.mu, NULL) || pthread_cond_init(&sv.work, NULL) || pthread_cond_init(&sv.done, NULL))
		serve_abort("cannot create a mutex or condition variable", CLI_FAIL);
	serve_start(&sv);
	serve_loop(&sv);
	pthread_mutex_lock(&sv.mu);
	sv.quit = 1;
	pthread_cond_broadcast(&sv.work);
	pthread_mutex_unlock(&sv.mu);
	for (int i = 0; i < sv.k; i++) {
		srv_worker *w = &sv.w[i];
		if (w->started)
			pthread_join(w->tid, NULL);
		ms_dsl_prog_free(w->p);
		ms_synth_eval_free(w->ev);
		ms_ctx_free(w->ctx);
	}
	/* replies nobody waits for (none but after an error on rank 0) */
	while (sv.out.n > 0)
		free(q_pop(&sv.out).buf);
	pthread_cond_destroy(&sv.done);
	pthread_cond_destroy(&sv.work);
	pthread_mutex_destroy(&sv.mu);
	free(sv.w);
	free(sv.in.m);
	free(sv.out.m);
	*n = sv.next_n;
	return sv.next;
}

int synth_mpi_serve(ms_ctx *ctx, const ms_synth_problem *pb, int threads)
{
	int n;
	(void)ctx;
	char *next = serve_problem(pb, threads, &n);
	if (next)
		serve_abort("rank 0 runs another command (it sent a self-play problem): run the same command on every "
			    "rank", CLI_USAGE);
	return CLI_OK;
}

/* A PROBLEM message, int32 n then per program int32 nt, int32 bytes and its tokens, into progs[0 .. n). */
static int parse_programs(ms_ctx *ctx, const ms_dsl_grammar *g, const char *buf, int len, ms_dsl_prog ***out)
{
	int32_t n = 0, head[2];
	int at = 4;
	*out = NULL;
	if (len < 4 || (memcpy(&n, buf, 4), n < 0 || n > len / 8))
		return ms_ctx_error(ctx, MS_EPARSE, "a self-play problem of %d bytes", len);
	ms_dsl_prog **p = calloc((size_t)n + 1, sizeof *p);
	if (!p)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory for %d programs", n);
	*out = p;
	for (int i = 0; i < n; i++) {
		if (len - at < 8 || (memcpy(head, buf + at, 8), head[1] < 0 || head[1] > len - at - 8))
			return ms_ctx_error(ctx, MS_EPARSE, "program %d of a self-play problem cut short", i);
		int rc = ms_dsl_prog_new(ctx, &p[i], g);
		if (rc == 0)
			rc = ms_dsl_parse_tokens(p[i], buf + at + 8, (size_t)head[1], ' ', head[0]);
		if (rc < 0)
			return rc;
		at += 8 + head[1];
	}
	return n;
}

int synth_mpi_serve_games(ms_ctx *ctx, const ms_dsl_grammar *g, int threads, synth_mpi_make_fn make,
			  void (*release)(void *ud, void *handle), void *ud)
{
	char *msg = NULL;
	int n = 0;
	for (;;) {
		if (!msg) { /* between problems: wait for the next, or the end */
			MPI_Status st;
			int flag = 0;
			MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
			if (!flag) {
				struct timespec ts = { 0, 1000000 };
				nanosleep(&ts, NULL);
				continue;
			}
			MPI_Get_count(&st, MPI_BYTE, &n);
			if (!(msg = malloc((size_t)n + 1)))
				serve_abort("out of memory for a message from rank 0", CLI_FAIL);
			MPI_Recv(msg, n, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (st.MPI_TAG == TAG_STOP)
				break;
			if (st.MPI_TAG != TAG_PROBLEM)
				serve_abort("rank 0 runs another command (it sent a message before its self-play problem): "
					    "run the same command on every rank", CLI_USAGE);
		}
		ms_dsl_prog **progs = NULL;
		const ms_synth_problem *pb = NULL;
		void *handle = NULL;
		int np = parse_programs(ctx, g, msg, n, &progs);
		free(msg);
		if (np < 0 || make(ud, ctx, (const ms_dsl_prog *const *)progs, np, &pb, &handle) < 0)
			serve_abort(ms_ctx_last_error(ctx), CLI_FAIL);
		msg = serve_problem(pb, threads, &n);
		release(ud, handle);
		for (int i = 0; progs && progs[i]; i++)
			ms_dsl_prog_free(progs[i]);
		free(progs);
		if (!msg)
			break;
	}
	free(msg);
	return CLI_OK;
}

void synth_mpi_set_counts(synth_mpi_counts_fn fn, void *user)
{
	g_mpi.counts = fn;
	g_mpi.counts_user = user;
}

void synth_mpi_sum_counts(int64_t sum[SYNTH_MPI_COUNTS])
{
	if (!g_mpi.started || g_mpi.rank != 0)
		return;
	/* the search is over, so the slot threads are idle; the lock keeps MPI's calls one at a time anyway */
	pthread_mutex_lock(&g_mpi.mu);
	for (int r = 1; r < g_mpi.size; r++)
		MPI_Send(NULL, 0, MPI_BYTE, r, TAG_COUNTS, MPI_COMM_WORLD);
	for (int r = 1; r < g_mpi.size; r++) {
		int64_t c[SYNTH_MPI_COUNTS];
		MPI_Recv(c, (int)sizeof c, MPI_BYTE, r, TAG_COUNTED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int k = 0; k < SYNTH_MPI_COUNTS; k++)
			sum[k] += c[k];
	}
	pthread_mutex_unlock(&g_mpi.mu);
}

int synth_mpi_rank_work(long long *tasks, double *seconds, int cap)
{
	int n = 0;
	if (!g_mpi.started || g_mpi.rank != 0 || g_mpi.size < 2)
		return 0;
	pthread_mutex_lock(&g_mpi.mu);
	for (int r = 1; r < g_mpi.size && r < SYNTH_MPI_MAX_RANKS && n < cap; r++, n++) {
		tasks[n] = g_mpi.rank_tasks[r];
		seconds[n] = g_mpi.rank_eval[r];
	}
	pthread_mutex_unlock(&g_mpi.mu);
	return n;
}

/* Rank 0's account of the other ranks' work: per task, the bytes both ways and the time outside evaluation. */
static void report(void)
{
	long long n = g_mpi.remote_tasks;
	double per = n > 0 ? 1.0 / (double)n : 0;
	fprintf(stderr,
		"microsynth: MPI: %d ranks; ranks 1-%d evaluated %lld tasks in %d slots, at most %d at once on "
		"one rank; per task %.0f bytes, %.1f us round trip, %.1f us evaluating, %.1f us communicating\n",
		g_mpi.size, g_mpi.size - 1, n, g_mpi.n_slots, g_mpi.most_in_flight, (double)g_mpi.bytes * per, 1e6 * g_mpi.round_trip * per,
		1e6 * g_mpi.evaluating * per, 1e6 * (g_mpi.round_trip - g_mpi.evaluating) * per);
}

int synth_mpi_end(int rc)
{
	if (!g_mpi.started)
		return rc;
	if (g_mpi.rank == 0 && g_mpi.size > 1)
		report();
	if (g_mpi.rank == 0)
		for (int r = 1; r < g_mpi.size; r++)
			MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
	MPI_Finalize();
	free(g_mpi.slot_rank);
	free(g_mpi.slot_k);
	free(g_mpi.in_flight);
	g_mpi.slot_rank = g_mpi.slot_k = g_mpi.in_flight = NULL;
	memset(g_mpi.rank_tasks, 0, sizeof g_mpi.rank_tasks);
	memset(g_mpi.rank_eval, 0, sizeof g_mpi.rank_eval);
	g_mpi.counts = NULL;
	g_mpi.started = 0;
	return rc;
}
