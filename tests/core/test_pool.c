#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "support/testutil.h"

#include <stdatomic.h>
#include <time.h>

#include "core/pool.h"

typedef struct jobs {
	long n;
	atomic_int *runs;  /* per index */
	long fail_a, fail_b; /* indices that fail (-1: none) */
	int threads;
	ms_ctx *caller;
	atomic_int bad_worker, bad_ctx;
} jobs;

/* A few microseconds of work that varies by index, so timings interleave. */
static void spin(long i)
{
	struct timespec ts = { 0, (i * 7919 % 13) * 20000 };
	nanosleep(&ts, NULL);
}

static int job(void *ud, ms_ctx *ctx, long i, int worker)
{
	jobs *j = ud;

	atomic_fetch_add(&j->runs[i], 1);
	if (worker < 0 || worker >= j->threads)
		atomic_store(&j->bad_worker, 1);
	if ((worker == 0) != (ctx == j->caller))
		atomic_store(&j->bad_ctx, 1);
	spin(i);
	if (i == j->fail_a || i == j->fail_b)
		return ms_ctx_error(ctx, i == j->fail_a ? MS_ERANGE : MS_EPARSE, "job %ld failed", i);
	return MS_OK;
}

static void setup(jobs *j, ms_ctx *ctx, long n, int threads, long fail_a, long fail_b)
{
	memset(j, 0, sizeof *j);
	j->n = n;
	j->runs = calloc((size_t)(n > 0 ? n : 1), sizeof *j->runs);
	assert_non_null(j->runs);
	j->fail_a = fail_a;
	j->fail_b = fail_b;
	j->threads = threads < 1 ? 1 : threads;
	j->caller = ctx;
}

static void test_pool__every_index_runs_once_on_any_number_of_threads(void **state)
{
	static const int threads[] = { 0, 1, 2, 3, 8 };
	static const long sizes[] = { 0, 1, 5, 200 };
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
			jobs j;
			long failed = 7;
			setup(&j, ctx, sizes[s], threads[t], -1, -1);
			assert_int_equal(ms_pool_for(ctx, j.n, threads[t], job, &j, &failed), MS_OK);
			assert_int_equal(failed, -1);
			for (long i = 0; i < j.n; i++)
				assert_int_equal(atomic_load(&j.runs[i]), 1);
			assert_int_equal(atomic_load(&j.bad_worker), 0);
			assert_int_equal(atomic_load(&j.bad_ctx), 0);
			free(j.runs);
		}
	ms_ctx_free(ctx);
}

/* Two failing jobs: the lower index's status and message, whatever the threads and timing. */
static void test_pool__the_lowest_failed_index_is_reported_whatever_the_threads(void **state)
{
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (int rep = 0; rep < 20; rep++)
		for (int threads = 1; threads <= 6; threads++) {
			jobs j;
			long failed = -1;
			setup(&j, ctx, 120, threads, 91, 37);
			assert_int_equal(ms_pool_for(ctx, j.n, threads, job, &j, &failed), MS_EPARSE);
			assert_int_equal(failed, 37);
			assert_string_equal(ms_ctx_last_error(ctx), "job 37 failed");
			for (long i = 0; i <= 37; i++) /* every index below the failure ran */
				assert_int_equal(atomic_load(&j.runs[i]), 1);
			for (long i = 38; i < j.n; i++)
				assert_true(atomic_load(&j.runs[i]) <= 1);
			free(j.runs);
		}
	ms_ctx_free(ctx);
}

/* No memory for the workers: MS_ENOMEM, no job ran, nothing leaked. */
static void test_pool__no_memory_for_the_workers_runs_no_job(void **state)
{
	ms_test_alloc t = { 0 };
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);

	(void)state;
	assert_non_null(ctx);
	for (long fail = 1; fail <= 3; fail++) { /* the worker array, then each worker's context */
		jobs j;
		long live = t.live;
		setup(&j, ctx, 10, 3, -1, -1);
		t.calls = 0;
		t.fail_at = fail;
		assert_int_equal(ms_pool_for(ctx, j.n, 3, job, &j, NULL), MS_ENOMEM);
		t.fail_at = 0;
		assert_non_null(strstr(ms_ctx_last_error(ctx), "pool: out of memory"));
		for (long i = 0; i < j.n; i++)
			assert_int_equal(atomic_load(&j.runs[i]), 0);
		assert_int_equal(t.live, live);
		free(j.runs);
	}
	ms_ctx_free(ctx);
}

static void *set_flag(void *arg)
{
	*(int *)arg = 42;
	return arg;
}

static void test_pool__a_started_thread_runs_and_joins(void **state)
{
	ms_ctx *ctx;
	pthread_t tid;
	int flag = 0;
	void *ret = NULL;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_thread_start(ctx, &tid, set_flag, &flag, "a test thread"), MS_OK);
	assert_int_equal(pthread_join(tid, &ret), 0);
	assert_ptr_equal(ret, &flag);
	assert_int_equal(flag, 42);
	assert_int_equal(ms_thread_start(NULL, &tid, set_flag, &flag, NULL), MS_OK); /* no context: no message */
	assert_int_equal(pthread_join(tid, NULL), 0);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool__every_index_runs_once_on_any_number_of_threads),
		cmocka_unit_test(test_pool__the_lowest_failed_index_is_reported_whatever_the_threads),
		cmocka_unit_test(test_pool__no_memory_for_the_workers_runs_no_job),
		cmocka_unit_test(test_pool__a_started_thread_runs_and_joins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
