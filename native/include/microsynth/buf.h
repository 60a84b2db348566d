/*
 * A growable byte buffer on the context's allocator, for building text: the
 * one public piece of the kit, since the command-line tools build their
 * lines, pages and messages with it too.
 */
#ifndef MICROSYNTH_BUF_H
#define MICROSYNTH_BUF_H

#include <stdio.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_buf {
	ms_ctx *ctx;
	char *data; /* always NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
} ms_buf;

MS_EXTERN void ms_buf_init(ms_buf *b, ms_ctx *ctx);
MS_EXTERN void ms_buf_dispose(ms_buf *b);
MS_EXTERN int ms_buf_append(ms_buf *b, const char *s, size_t n);
MS_EXTERN int ms_buf_puts(ms_buf *b, const char *s);
MS_EXTERN int ms_buf_printf(ms_buf *b, const char *fmt, ...) MS_PRINTF(2, 3);
/** Hands the string to the caller (free with ms_ctx_mfree); leaves b empty. */
MS_EXTERN char *ms_buf_detach(ms_buf *b);

/**
 * The next line of text[*at..len) into [*ls, *le), without its newline (nor
 * a CR before it); advances *at. 0 at the end of the text.
 */
MS_EXTERN int ms_text_next_line(const char *text, size_t len, size_t *at, size_t *ls, size_t *le);

/**
 * Reads a whole file of at most 16 MiB into a NUL-terminated string (free
 * with ms_ctx_mfree); errors name `what` and `path`.
 */
MS_EXTERN int ms_read_text_file(ms_ctx *ctx, char **out, size_t *len, const char *path, const char *what);

#ifdef __cplusplus
}
#endif

#endif
