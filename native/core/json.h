/*
 * Thin helpers over cJSON: parse with a position in the error, typed field
 * access whose errors name the document and the field.
 * `what` names the document in messages ("state", "player action", a path).
 */
#ifndef MS_CORE_JSON_H
#define MS_CORE_JSON_H

#include <cjson/cJSON.h>

#include "microsynth/common.h"

/**
 * Parses `len` bytes of `text` (need not be NUL-terminated). On failure the
 * context gets "WHAT: line L, column C: invalid JSON near '...'" and
 * MS_EPARSE is returned. Free the result with cJSON_Delete.
 */
int ms_json_parse(ms_ctx *ctx, const char *what, const char *text, size_t len, cJSON **out);

/** Fetches member `key` of object `obj`, which must exist and be of the type. */
int ms_json_get_int(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int *out);
int ms_json_get_long(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int64_t *out);
int ms_json_get_double(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, double *out);
int ms_json_get_bool(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int *out);
int ms_json_get_string(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const char **out);
int ms_json_get_array(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const cJSON **out);
int ms_json_get_object(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const cJSON **out);

/** Converts a JSON number to int, failing on fractions or overflow. */
int ms_json_as_int(ms_ctx *ctx, const char *what, const char *field, const cJSON *item, int *out);

/** Prints compactly into the context's allocator (free with ms_ctx_mfree). */
int ms_json_print(ms_ctx *ctx, const cJSON *item, char **out);

#endif
