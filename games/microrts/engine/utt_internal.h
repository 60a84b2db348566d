/*
 * Unit type tables, shared by the engine's files: the field reader that
 * serves both serialisations (utt.c holds the generic part; utt_io.c the
 * JSON and XML accessors, the only part that needs cJSON or libxml2).
 */
#ifndef MS_GAMES_MICRORTS_UTT_INTERNAL_H
#define MS_GAMES_MICRORTS_UTT_INTERNAL_H

#include "games/microrts/engine/rts.h"

/* Names of produces/producedBy, resolved once every type is known. */
typedef struct rts_pending_names {
	char produces[MS_RTS_MAX_TYPES][MS_RTS_MAX_TYPES][MS_RTS_TYPE_NAME_MAX];
	char produced_by[MS_RTS_MAX_TYPES][MS_RTS_MAX_TYPES][MS_RTS_TYPE_NAME_MAX];
} rts_pending_names;

/*
 * Access to one type's fields in either serialisation. XML (Java's writer)
 * always has every field; the JSON reader, like Java's, lets absent stats
 * keep the class defaults (`required` 0).
 */
typedef struct rts_type_reader {
	int (*get_int)(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out);
	int (*get_bool)(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out);
	int (*get_names)(ms_ctx *ctx, const char *what, const void *node, const char *key,
			 char names[][MS_RTS_TYPE_NAME_MAX], int *n);
	int required;
} rts_type_reader;

/* An empty table owned by `ctx` (NULL when out of memory). */
ms_rts_utt *rts_utt_alloc(ms_ctx *ctx);

/* Rejects an empty or repeated name and negative or inverted stats. */
int rts_utt_check_type(ms_ctx *ctx, const ms_rts_utt *u, const ms_rts_unit_type *t, const char *what);

/* Derived values (largest attack range) once the types are in place. */
void rts_utt_finish(ms_rts_utt *u);

/* Reads the type at position u->n_types through `r` and appends it. */
int rts_utt_read_type(ms_ctx *ctx, const rts_type_reader *r, const void *node, const char *what, const char *name,
		      ms_rts_utt *u, rts_pending_names *pn);

/* After the last type: names become ids, then rts_utt_finish. */
int rts_utt_complete(ms_ctx *ctx, ms_rts_utt *u, const rts_pending_names *pn, const char *what);

#endif
