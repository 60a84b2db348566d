/*
 * Synthesis across MPI ranks (issue 27): rank 0 runs the search, every
 * other rank serves evaluation tasks of the same problem (built from the
 * same command line). Without MPI in the build these do nothing.
 */
#ifndef MS_TOOLS_SYNTH_MPI_H
#define MS_TOOLS_SYNTH_MPI_H

#include "microsynth/synth.h"

#ifdef MS_HAVE_MPI
/* This process's rank once MPI is started (here, when launched by mpirun or srun); -1 otherwise. */
int synth_mpi_rank(void);
/* Ranks > 0: serves tasks of `pb` on `threads` worker threads until rank 0 says stop; the exit status. */
int synth_mpi_serve(ms_ctx *ctx, const ms_synth_problem *pb, int threads);
/* Rank 0: the other ranks as remote workers of the search's evaluator. */
int synth_mpi_attach(ms_ctx *ctx, ms_synth *s, const ms_synth_problem *pb);
/* At exit: rank 0 stops the servers; every rank leaves MPI. Returns rc. */
int synth_mpi_end(int rc);
#else
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
#endif

#endif
