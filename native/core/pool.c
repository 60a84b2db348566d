/* The pool of threads for independent jobs (core/pool.h). */
#include "core/pool.h"

#include <pthread.h>
#include <stdio.h>

#include "core/internal.h"

typedef struct pool {
	pthread_mutex_t mu;
	long n, next;
	ms_pool_job job;
	void *ud;
	long err_index; /* the lowest failed index, -1 while none failed */
	int err_status;
	char err[MS_ERRMSG_MAX];
} pool;

typedef struct worker {
	pool *p;
	ms_ctx *ctx;
	int id;
	pthread_t tid;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	pool *p = w->p;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		long i = p->err_index < 0 && p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->mu);
		if (i < 0)
			break;
		int rc = p->job(p->ud, w->ctx, i, w->id);
		if (rc == MS_OK)
			continue;
		pthread_mutex_lock(&p->mu);
		if (p->err_index < 0 || i < p->err_index) {
			p->err_index = i;
			p->err_status = rc;
			snprintf(p->err, sizeof p->err, "%s", ms_ctx_last_error(w->ctx));
		}
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* Contexts for workers 1..k-1 on the caller's allocator; 0 or MS_ENOMEM. */
static int make_contexts(ms_ctx *ctx, worker *w, int k)
{
	ms_ctx_options o = { .version = MS_CTX_OPTIONS_VERSION, .allocator = &ctx->alloc };

	for (int t = 1; t < k; t++)
		if (ms_ctx_new(&w[t].ctx, &o) != MS_OK)
			return ms_ctx_error(ctx, MS_ENOMEM, "pool: out of memory for the context of worker %d of %d", t, k);
	return MS_OK;
}

int ms_pool_for(ms_ctx *ctx, long n, int threads, ms_pool_job job, void *ud, long *failed)
{
	pool p = { .n = n, .next = 0, .job = job, .ud = ud, .err_index = -1 };
	worker one = { .p = &p, .ctx = ctx, .id = 0 }, *w = &one;
	int k = threads < 1 ? 1 : threads, started = 1, rc;

	if (failed)
		*failed = -1;
	if (n <= 0)
		return MS_OK;
	if (k > n)
		k = (int)n;
	if (pthread_mutex_init(&p.mu, NULL) != 0)
		return ms_ctx_error(ctx, MS_ERROR, "pool: cannot make a mutex");
	if (k > 1 && !(w = ms_ctx_calloc(ctx, (size_t)k, sizeof *w))) {
		pthread_mutex_destroy(&p.mu);
		return ms_ctx_error(ctx, MS_ENOMEM, "pool: out of memory for %d workers", k);
	}
	for (int t = 0; t < k; t++)
		w[t].p = &p, w[t].id = t;
	w[0].ctx = ctx;
	rc = make_contexts(ctx, w, k);
	/* the calling thread is worker 0; a worker that cannot start leaves its share to the others */
	while (rc == MS_OK && started < k && pthread_create(&w[started].tid, NULL, work, &w[started]) == 0)
		started++;
	if (rc == MS_OK)
		work(&w[0]);
	for (int t = 1; t < started; t++)
		pthread_join(w[t].tid, NULL);
	for (int t = 1; t < k; t++)
		ms_ctx_free(w[t].ctx);
	if (w != &one)
		ms_ctx_mfree(ctx, w);
	pthread_mutex_destroy(&p.mu);
	if (rc != MS_OK)
		return rc;
	if (p.err_index < 0)
		return MS_OK;
	if (failed)
		*failed = p.err_index;
	return ms_ctx_error(ctx, p.err_status, "%s", p.err);
}

int ms_thread_start(ms_ctx *ctx, pthread_t *tid, void *(*fn)(void *), void *arg, const char *what)
{
	int e = pthread_create(tid, NULL, fn, arg);

	if (!e)
		return 0;
	return ctx ? ms_ctx_error(ctx, MS_ERROR, "cannot start %s (pthread_create: %d)", what ? what : "a thread", e)
		   : MS_ERROR;
}
