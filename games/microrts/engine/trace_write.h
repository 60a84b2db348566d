/*
 * The trace writer's two halves: trace_write.c builds the trace text in
 * memory (no library beyond the C runtime), trace_write_io.c writes it.
 */
#ifndef MS_GAMES_MICRORTS_TRACE_WRITE_H
#define MS_GAMES_MICRORTS_TRACE_WRITE_H

#include "games/microrts/engine/rts.h"

/*
 * Appends the final entry and the closing tags; `*data` / `*len` receive
 * the whole text, owned by the writer (valid until it is freed). A writer
 * is closed once.
 */
int rts_trace_writer_close(ms_rts_trace_writer *w, const ms_rts_state *final_state, const char **data,
			   size_t *len);

/* The context the writer allocates from and reports errors to. */
ms_ctx *rts_trace_writer_ctx(const ms_rts_trace_writer *w);

#endif
