/*
 * Whole files, plain or gzip-compressed, in memory: the one reader of
 * recordings (Catan's *.jsonl.gz, Planet Wars' playbacks). It needs zlib,
 * so it stays out of the dependency-free sources (ms_read_text_file in
 * core/buf.h is the plain one they use); both share ms_read_all's loop.
 */
#ifndef MS_CORE_FILE_H
#define MS_CORE_FILE_H

#include <stddef.h>

#include "microsynth/common.h"

/**
 * Reads the file at `path`, gunzipped if it is gzip (zlib passes any other
 * file through as it is), into a NUL-terminated string of *len bytes (free
 * with ms_ctx_mfree); at most `max` bytes once uncompressed. Errors name
 * `what` and `path`: MS_EIO (cannot open, read error or corrupt gzip),
 * MS_ERANGE (over `max`), MS_ENOMEM.
 */
int ms_read_file(ms_ctx *ctx, const char *path, const char *what, size_t max, char **out, size_t *len);

#endif
