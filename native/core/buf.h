/* The library's side of microsynth/buf.h: line and whole-file readers. */
#ifndef MS_CORE_BUF_H
#define MS_CORE_BUF_H

#include <stdio.h>

#include "microsynth/buf.h"

/**
 * The next line of `f` into b (replacing what it held), without its newline
 * (nor a CR before it), of any length: 1, or 0 at the end of the file, or
 * MS_ENOMEM.
 */
int ms_buf_read_line(ms_buf *b, FILE *f);

/** A source for ms_read_all: up to `cap` bytes into dst; their count, 0 at the end, -1 on an error. */
typedef long (*ms_read_fn)(void *src, char *dst, size_t cap);

/**
 * Everything `rd` gives, up to `max` bytes, as one NUL-terminated string
 * (free with ms_ctx_mfree); errors name `what` and `path`. The one loop
 * behind the file readers (ms_read_text_file here, ms_read_file in
 * core/file.h for gzip).
 */
int ms_read_all(ms_ctx *ctx, ms_read_fn rd, void *src, size_t max, const char *what, const char *path, char **out,
		size_t *len);


/** The same with the bound given (SIZE_MAX: none), for files that grow with a run (checkpoints). */
int ms_read_file_upto(ms_ctx *ctx, const char *path, const char *what, size_t max, char **out, size_t *len);

#endif
