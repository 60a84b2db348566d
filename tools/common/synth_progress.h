/*
 * synth --progress-json FILE (every game): JSON lines that `microsynth view
 * --follow` reads. The first line, written when the file is empty, holds the
 * budget, maps and opponents; then a line per new best with the time, the
 * evaluations, the budget's fraction, the best Psi, the best's W/D/L against
 * each opponent when the game computes them, and under MPI the work of each
 * serving rank. Only rank 0 writes.
 */
#ifndef MS_TOOLS_SYNTH_PROGRESS_H
#define MS_TOOLS_SYNTH_PROGRESS_H

#include <stdio.h>

#include "microsynth/synth.h"

/* The best's wins, draws and losses against opponent k into wdl; <0 when unknown (written as null). */
typedef int (*synth_progress_vs_fn)(void *ud, const ms_dsl_prog *best, int k, int wdl[3]);

typedef struct synth_progress_head {
	const char *game, *algo;
	long seed, evals; /* evals, seconds: the budget (0: none) */
	double seconds;
	const char *const *maps, *const *opponents;
	int n_maps, n_opponents;
	synth_progress_vs_fn vs; /* NULL: no W/D/L; else one per opponent */
	void *vs_ud;
} synth_progress_head;

typedef struct synth_progress {
	FILE *f;
	ms_ctx *ctx;
	int pending; /* a new best not written yet (while a checkpoint is replayed) */
	ms_synth *const *s;
	/* the callback that was in so->progress (the bar, Ctrl-C), called first */
	int (*next)(void *ud, const ms_synth_stats *st);
	void *next_ud;
	synth_progress_vs_fn vs; /* the head's */
	void *vs_ud;
	int n_vs;
} synth_progress;

/*
 * Opens path for appending (nothing on an MPI rank > 0), writes the first
 * line if the file is empty, and takes so's progress callback, chaining
 * the one that was there. *s is read at each line (the search, once made).
 * A CLI code; the message on stderr.
 */
int synth_progress_open(synth_progress *p, const char *cmd, const char *path, const synth_progress_head *h,
			ms_synth_options *so, ms_synth *const *s);
void synth_progress_close(synth_progress *p);

#endif
