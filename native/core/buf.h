/* A growable byte buffer on the context's allocator, for building text. */
#ifndef MS_CORE_BUF_H
#define MS_CORE_BUF_H

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
 * The next line of text[*at..len) into [*ls, *le), without its newline (nor
 * a CR before it); advances *at. 0 at the end of the text.
 */
int ms_text_next_line(const char *text, size_t len, size_t *at, size_t *ls, size_t *le);

/**
 * Reads a whole file of at most 16 MiB into a NUL-terminated string (free
 * with ms_ctx_mfree); errors name `what` and `path`.
 */
int ms_read_text_file(ms_ctx *ctx, const char *path, const char *what, char **out, size_t *len);

#endif
