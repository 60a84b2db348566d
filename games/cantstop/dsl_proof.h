/*
 * Proofs of equal play of Can't Stop programs (dsl_proof.c): the matches
 * of one evaluation, played once with a reference program whose every
 * decision is kept, then replayed with candidates that must decide alike.
 * What ms_cs_dsl_equal and ms_cs_dsl_simplify (dsl_simplify.c) stand on.
 */
#ifndef MS_GAMES_CANTSTOP_DSL_PROOF_H
#define MS_GAMES_CANTSTOP_DSL_PROOF_H

#include "dsl_internal.h"

typedef struct csp__proof csp__proof;

/* The matches of `o` (checked) for whole programs of `d`; nothing played yet. */
int csp__new(ms_ctx *ctx, const ms_cs_dsl *d, const ms_cs_dsl_proof_options *o, csp__proof **out);
void csp__free(csp__proof *pr);

/*
 * Plays every match with `p` and keeps its decisions and ends: the
 * reference. The totals must be those ms_cs_dsl_evaluate gives for the
 * same matches (MS_ERROR otherwise: the proof would not replay the
 * evaluation).
 */
int csp__record(csp__proof *pr, const ms_dsl_prog *p);

/*
 * Replays the matches with `p`, each stopped at its first decision that
 * differs from the reference's; `diff` says where (diff->equal 1: none).
 * The match that differed is replayed first next time.
 */
int csp__compare(csp__proof *pr, const ms_dsl_prog *p, ms_cs_dsl_diff *diff);

/* Whole programs of the proof's grammar only (MS_EINVAL naming `what` otherwise). */
int csp__check_program(ms_ctx *ctx, const ms_cs_dsl *d, const ms_dsl_prog *p, const char *what);

#endif
