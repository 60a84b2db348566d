/* A growable byte buffer on the context's allocator, for building text. */
#ifndef MS_CORE_BUF_H
#define MS_CORE_BUF_H

#include <stdio.h>

#include "microsynth/common.h"

typedef struct ms_buf {
	ms_ctx *ctx;
	char *data; /* always NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
} ms_buf;

void ms_buf_init(ms_buf *b, ms_ctx *ctx);
void ms_buf_dispose(ms_buf *b);
int ms_buf_append(ms_buf *b, const char *s, size_t n);
int ms_buf_puts(ms_buf *b, const char *s);
int ms_buf_printf(ms_buf *b, const char *fmt, ...) MS_PRINTF(2, 3);
/** Hands the string to the caller (free with ms_ctx_mfree); leaves b empty. */
char *ms_buf_detach(ms_buf *b);


/**
 * The next line of `f` into b (replacing what it held), without its newline
 * (nor a CR before it), of any length: 1, or 0 at the end of the file, or
 * MS_ENOMEM.
 */
int ms_buf_read_line(ms_buf *b, FILE *f);

/**
 * The next line of text[*at..len) into [*ls, *le), without its newline (nor
 * a CR before it); advances *at. 0 at the end of the text.
 */
int ms_text_next_line(const char *text, size_t len, size_t *at, size_t *ls, size_t *le);

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

/**
 * Reads a whole file of at most 16 MiB into a NUL-terminated string (free
 * with ms_ctx_mfree); errors name `what` and `path`.
 */
int ms_read_text_file(ms_ctx *ctx, const char *path, const char *what, char **out, size_t *len);

/** The same with the bound given (SIZE_MAX: none), for files that grow with a run (checkpoints). */
int ms_read_file_upto(ms_ctx *ctx, const char *path, const char *what, size_t max, char **out, size_t *len);

#endif
