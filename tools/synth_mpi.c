/*
 * Synthesis across MPI ranks. Rank 0's evaluator gets one remote worker
 * per other rank: the worker sends its task (the program in token form,
 * kind, opponent, shard, seed) and waits for the status, sum and weight,
 * which the evaluator combines in task order as it does its threads'.
 * Ranks > 0 evaluate each task with their own copy of the problem. Numbers
 * travel as raw bytes: every rank runs the same build on the same
 * architecture (as mpirun of one binary does).
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

#include "cli.h"
#include "synth_mpi.h"

/* HELLO: rank 0's problem fingerprint, before any task */
enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3, TAG_HELLO = 4 };

typedef struct task_head {
	int32_t kind, opponent, shard, nt;
	uint64_t seed;
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
	pthread_mutex_t mu;
} g_mpi = { 0, -1, 0, 0, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER };

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
		fprintf(stderr, "microsynth synth: rank %d: this MPI cannot be called from several threads\n", g_mpi.rank);
		MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
	}
	return g_mpi.rank;
}

static void nap(void)
{
	struct timespec ts = { 0, 20000 }; /* 20 us: short next to any evaluation */
	nanosleep(&ts, NULL);
}

/* Sends buf to rank `dest` without holding the lock while the transfer waits. */
static void send_locked(const void *buf, int n, int dest, int tag)
{
	MPI_Request req;
	int done = 0;
	pthread_mutex_lock(&g_mpi.mu);
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

/* The next message of `tag` from `src`, in a malloc'd buffer (NULL when out of memory). */
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
		}
		pthread_mutex_unlock(&g_mpi.mu);
		if (flag)
			return buf;
		nap();
	}
}

/* The remote worker of slot `slot`: rank slot + 1 evaluates the task. */
static int remote_eval(void *user, int slot, ms_ctx *ctx, const ms_synth_task *t, double *sum, double *weight)
{
	int dest = slot + 1;
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
	task_head h = { t->kind, t->opponent, t->shard, ms_dsl_prog_nt(t->prog), t->seed };
	memcpy(msg, &h, sizeof h);
	memcpy(msg + sizeof h, text, len);
	ms_ctx_mfree(ctx, text);
	double t0 = now();
	send_locked(msg, (int)n, dest, TAG_TASK);
	free(msg);

	int got = 0;
	char *res = recv_locked(dest, TAG_RESULT, &got);
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
	pthread_mutex_unlock(&g_mpi.mu);
	if (r.rc < 0)
		rc = ms_ctx_error(ctx, r.rc, "rank %d: %s", dest, res + sizeof r);
	else
		rc = r.rc, *sum = r.sum, *weight = r.weight;
	free(res);
	return rc;
}

int synth_mpi_attach(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb)
{
	if (!g_mpi.started || g_mpi.size < 2)
		return 0;
	/* the servers check they built the same problem (the same command on every rank) */
	const char *fp = pb->fingerprint;
	fp = fp ? fp : "";
	for (int r = 1; r < g_mpi.size; r++)
		MPI_Send(fp, (int)strlen(fp) + 1, MPI_BYTE, r, TAG_HELLO, MPI_COMM_WORLD);
	return ms_synth_eval_add_remote(ms_synth_evaluator(s), g_mpi.size - 1, remote_eval, NULL);
}

/* One task in buf[0..n) evaluated into the reply *r (an error's message in msg). */
static void serve_one(ms_ctx *ctx, ms_synth_eval *ev, ms_dsl_prog *p, const char *buf, int n, result_head *r,
		      const char **msg)
{
	task_head h;
	memset(r, 0, sizeof *r);
	*msg = "";
	if (n < (int)sizeof h) {
		r->rc = ms_ctx_error(ctx, MS_EPARSE, "a task of %d bytes", n);
	} else {
		memcpy(&h, buf, sizeof h);
		int rc = ms_dsl_parse_tokens(p, buf + sizeof h, (size_t)n - sizeof h, ' ', h.nt);
		if (rc >= 0) {
			ms_synth_task t = { p, h.kind, h.opponent, h.shard, h.seed };
			double t0 = now();
			rc = ms_synth_eval_task(ev, &t, &r->sum, &r->weight);
			r->seconds = now() - t0;
		}
		r->rc = rc;
	}
	if (r->rc < 0)
		*msg = ms_ctx_last_error(ctx);
}

/* Ends the job when this rank built another problem than rank 0's. */
static void check_fingerprint(const ms_synth_problem *pb, const char *fp0)
{
	const char *fp = pb->fingerprint ? pb->fingerprint : "";
	if (strcmp(fp, fp0)) {
		fprintf(stderr,
			"microsynth synth: rank %d built another problem than rank 0 (fingerprint '%s', rank 0's '%s'): "
			"run the same command on every rank\n",
			g_mpi.rank, fp, fp0);
		MPI_Abort(MPI_COMM_WORLD, CLI_USAGE);
	}
}

int synth_mpi_serve(ms_ctx *ctx, const ms_synth_problem *pb)
{
	ms_synth_eval *ev = NULL;
	ms_dsl_prog *p = NULL;
	char *buf = NULL, *reply = NULL;
	size_t cap = 0;

	if (ms_synth_eval_new(ctx, &ev, pb, 1, NULL) < 0 || ms_dsl_prog_new(ctx, &p, pb->grammar) < 0) {
		fprintf(stderr, "microsynth synth: rank %d: %s\n", g_mpi.rank, ms_ctx_last_error(ctx));
		MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
	}
	for (;;) {
		MPI_Status st;
		int n = 0;
		MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &n);
		if ((size_t)n + 1 > cap) {
			free(buf);
			cap = (size_t)n + 1;
			buf = malloc(cap);
			if (!buf) {
				fprintf(stderr, "microsynth synth: rank %d: out of memory for a task of %d bytes\n", g_mpi.rank, n);
				MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
			}
		}
		MPI_Recv(buf, n, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (st.MPI_TAG == TAG_STOP)
			break;
		if (st.MPI_TAG == TAG_HELLO) {
			buf[n] = 0;
			check_fingerprint(pb, buf);
			continue;
		}
		result_head r;
		const char *msg;
		serve_one(ctx, ev, p, buf, n, &r, &msg);
		size_t m = sizeof r + strlen(msg);
		char *out = realloc(reply, m);
		if (!out) {
			fprintf(stderr, "microsynth synth: rank %d: out of memory for a reply\n", g_mpi.rank);
			MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
		}
		reply = out;
		memcpy(reply, &r, sizeof r);
		memcpy(reply + sizeof r, msg, m - sizeof r);
		MPI_Send(reply, (int)m, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
	free(buf);
	free(reply);
	ms_dsl_prog_free(p);
	ms_synth_eval_free(ev);
	return CLI_OK;
}

/* Rank 0's account of the other ranks' work: per task, the bytes both ways and the time outside evaluation. */
static void report(void)
{
	long long n = g_mpi.remote_tasks;
	double per = n > 0 ? 1.0 / (double)n : 0;
	fprintf(stderr,
		"microsynth synth: MPI: %d ranks; ranks 1-%d evaluated %lld tasks; per task %.0f bytes, %.1f us round "
		"trip, %.1f us evaluating, %.1f us communicating\n",
		g_mpi.size, g_mpi.size - 1, n, (double)g_mpi.bytes * per, 1e6 * g_mpi.round_trip * per,
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
	g_mpi.started = 0;
	return rc;
}
