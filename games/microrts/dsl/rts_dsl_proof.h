/* Shared by rts_dsl_proof.c and rts_dsl_simplify.c: what the public API of a proof does not give. */
#ifndef MS_GAMES_MICRORTS_DSL_PROOF_H
#define MS_GAMES_MICRORTS_DSL_PROOF_H

#include "microsynth/rts_dsl.h"

/* The context a proof reports its errors in (the one it was made with). */
ms_ctx *rd_proof_ctx(const ms_rts_proof *pr);

#endif
