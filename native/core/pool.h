/*
 * The library's one pool of threads for independent jobs (as Planet Wars'
 * games, Catan's games, synthesis shards): job(i) for every i in [0, n), on
 * up to `threads` threads, each with its own context, and one error the same
 * whatever the threads and their timing.
 *
 * Indices are handed out in increasing order, and none after a job failed.
 * So every index below a failed one has run, and the error reported (the
 * lowest failed index's) is the first a single thread would have met, as
 * long as each job's outcome depends only on its index. Jobs above it may or
 * may not have run. No global state: the pool lives in the call.
 */
#ifndef MS_CORE_POOL_H
#define MS_CORE_POOL_H

#include <pthread.h>

#include "microsynth/common.h"

/*
 * One job: index i on worker `worker` (0 is the calling thread, with the
 * caller's context; workers 1.. have contexts of their own on the caller's
 * allocator, which must then be thread-safe, as the default one is). A job
 * returns 0, or a negative MS_E* code with its message in `ctx`. Jobs write
 * their results into slots of their own (by index or by worker).
 */
typedef int (*ms_pool_job)(void *ud, ms_ctx *ctx, long i, int worker);

/*
 * Runs job(ud, ctx_w, i, w) for i in [0, n) on min(threads, n) workers (the
 * calling thread is worker 0). Returns 0 when every job returned 0, else the
 * lowest failed index's status with its message in `ctx` (and that index in
 * *failed if `failed` is not NULL; -1 when none failed). MS_ENOMEM if the
 * workers' contexts cannot be made (then no job ran). A thread that cannot
 * be started is not an error: its share runs on the workers that did start.
 */
int ms_pool_for(ms_ctx *ctx, long n, int threads, ms_pool_job job, void *ud, long *failed);

/*
 * A thread that lives beside its caller rather than running jobs (an
 * evaluator's persistent workers, a server's loop, a signal watcher): the
 * one other place the tree starts threads. 0, or MS_ERROR with a message
 * naming `what` in `ctx` (when not NULL); *tid is valid only on 0.
 */
int ms_thread_start(ms_ctx *ctx, pthread_t *tid, void *(*fn)(void *), void *arg, const char *what);

#endif
