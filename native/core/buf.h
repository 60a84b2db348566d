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

#endif
