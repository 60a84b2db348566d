/*
 * Synthesis across MPI ranks (issue 27): rank 0 runs the search, every
 * other rank serves evaluation tasks of the same problem (built from the
 * same command line). Without MPI in the build these do nothing.
 */
#ifndef MS_TOOLS_SYNTH_MPI_H
#define MS_TOOLS_SYNTH_MPI_H

#include <stdint.h>

#include "microsynth/synth.h"

/* Ranks whose work rank 0 accounts for in --progress-json (more are served, not listed). */
#define SYNTH_MPI_MAX_RANKS 1024
/* Counters a problem keeps per process (a MicroRTS problem's opponent faults), summed over the ranks. */
#define SYNTH_MPI_COUNTS 4
typedef void (*synth_mpi_counts_fn)(void *user, int64_t out[SYNTH_MPI_COUNTS]);
/* A self-play game's problem made of earlier programs (ms_synth_selfplay_game's make). */
typedef int (*synth_mpi_make_fn)(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n,
				 const ms_synth_problem **pb, void **handle);

#ifdef MS_HAVE_MPI
/* This process's rank once MPI is started (here, when launched by mpirun or srun); -1 otherwise. */
int synth_mpi_rank(void);
/* Ranks > 0: serves tasks of `pb` on `threads` worker threads until rank 0 says stop; the exit status. */
int synth_mpi_serve(ms_ctx *ctx, const ms_synth_problem *pb, int threads);
/* Rank 0: the other ranks as remote workers of the search's evaluator. */
int synth_mpi_attach(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb);
/* At exit: rank 0 stops the servers; every rank leaves MPI. Returns rc. */
int synth_mpi_end(int rc);
/* Before synth_new: how a serving rank reads its problem's counters (fn NULL: none, zeros). */
void synth_mpi_set_counts(synth_mpi_counts_fn fn, void *user);
/* Rank 0, after the search: adds the serving ranks' counters to sum (nothing without other ranks). */
void synth_mpi_sum_counts(int64_t sum[SYNTH_MPI_COUNTS]);
/* Rank 0, self-play: sends each iteration's programs to the ranks (they make the same problem), then attaches. */
int synth_mpi_attach_vs(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb, const ms_dsl_prog *const *progs,
			int n);
/* Ranks > 0, self-play: per problem rank 0 announces, make it from its programs (of grammar g), serve, release. */
int synth_mpi_serve_games(ms_ctx *ctx, const ms_dsl_grammar *g, int threads, synth_mpi_make_fn make,
			  void (*release)(void *ud, void *handle), void *ud);
/* Rank 0: ranks 1.. in order, the tasks each answered and its seconds evaluating them; how many (0 alone). */
int synth_mpi_rank_work(long long *tasks, double *seconds, int cap);
#else
static inline int synth_mpi_rank_work(long long *tasks, double *seconds, int cap)
{
	(void)tasks;
	(void)seconds;
	(void)cap;
	return 0;
}
static inline int synth_mpi_rank(void)
{
	return -1;
}
static inline int synth_mpi_serve(ms_ctx *ctx, const ms_synth_problem *pb, int threads)
{
	(void)ctx;
	(void)pb;
	(void)threads;
	return 1;
}
static inline int synth_mpi_attach(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb)
{
	(void)ctx;
	(void)s;
	(void)pb;
	return 0;
}
static inline int synth_mpi_end(int rc)
{
	return rc;
}
static inline void synth_mpi_set_counts(synth_mpi_counts_fn fn, void *user)
{
	(void)fn;
	(void)user;
}
static inline void synth_mpi_sum_counts(int64_t sum[SYNTH_MPI_COUNTS])
{
	(void)sum;
}
static inline int synth_mpi_attach_vs(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb,
				      const ms_dsl_prog *const *progs, int n)
{
	(void)ctx;
	(void)s;
	(void)pb;
	(void)progs;
	(void)n;
	return 0;
}
static inline int synth_mpi_serve_games(ms_ctx *ctx, const ms_dsl_grammar *g, int threads, synth_mpi_make_fn make,
					void (*release)(void *ud, void *handle), void *ud)
{
	(void)ctx;
	(void)g;
	(void)threads;
	(void)make;
	(void)release;
	(void)ud;
	return 1;
}
#endif

#endif
