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

/*
 * The error is sticky (as SQLite's sqlite3_str): once an append fails,
 * later ones do nothing and return the same status, so a builder may make
 * all its appends and ask once, at ms_buf_status or ms_buf_finish.
 */
typedef struct ms_buf {
	ms_ctx *ctx;
	char *data; /* always NUL-terminated once anything was appended */
	size_t len;
	size_t cap;
	int status; /* 0, or the first append's failure */
} ms_buf;

MS_EXTERN void ms_buf_init(ms_buf *b, ms_ctx *ctx);
MS_EXTERN void ms_buf_dispose(ms_buf *b);
MS_EXTERN int ms_buf_append(ms_buf *b, const char *s, size_t n);
MS_EXTERN int ms_buf_puts(ms_buf *b, const char *s);
MS_EXTERN int ms_buf_printf(ms_buf *b, const char *fmt, ...) MS_PRINTF(2, 3);
/** Hands the string to the caller (free with ms_ctx_mfree); leaves b empty. */
MS_EXTERN char *ms_buf_detach(ms_buf *b);
/** 0, or the status of the first append that failed since init. */
MS_EXTERN int ms_buf_status(const ms_buf *b);
/**
 * Ends a build: with no failed append, the text into *out (free with
 * ms_ctx_mfree) and 0; otherwise *out NULL, the text freed, and the first
 * failure's status. b is empty and reusable either way.
 */
MS_EXTERN int ms_buf_finish(ms_buf *b, char **out);

/**
 * The next line of text[*at..len) into [*ls, *le), without its newline (nor
 * a CR before it); advances *at. 0 at the end of the text.
 */
MS_EXTERN int ms_text_next_line(const char *text, size_t len, size_t *at, size_t *ls, size_t *le);

/**
 * The next line of text[*at..len) that holds something other than blanks
 * and is not a comment ('#' first after them), copied NUL-terminated into
 * buf (size bytes); *line counts every line read. 1, 0 at the end of the
 * text, or MS_EPARSE for a line of size bytes or more, reported as
 * "WHAT: line N: longer than ... characters".
 */
MS_EXTERN int ms_text_next_content_line(ms_ctx *ctx, const char *what, const char *text, size_t len, size_t *at,
					int *line, char *buf, size_t size);

/**
 * Reads a whole file of at most 16 MiB into a NUL-terminated string (free
 * with ms_ctx_mfree); errors name `what` and `path`.
 */
MS_EXTERN int ms_read_text_file(ms_ctx *ctx, char **out, size_t *len, const char *path, const char *what);

#ifdef __cplusplus
}
#endif

#endif
