#include "core/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ms_buf_init(ms_buf *b, ms_ctx *ctx)
{
	b->ctx = ctx;
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->status = MS_OK;
}

void ms_buf_dispose(ms_buf *b)
{
	ms_ctx_mfree(b->ctx, b->data);
	ms_buf_init(b, b->ctx);
}

static int fail(ms_buf *b, int rc)
{
	b->status = rc;
	return rc;
}

static int reserve(ms_buf *b, size_t extra)
{
	size_t want, cap;
	char *p;

	if (b->status)
		return b->status;
	if (extra > SIZE_MAX - b->len - 1)
		return fail(b, ms_ctx_error(b->ctx, MS_ENOMEM, "buffer of %zu bytes cannot grow by %zu", b->len, extra));
	want = b->len + extra + 1;
	if (want <= b->cap)
		return MS_OK;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	p = ms_ctx_realloc(b->ctx, b->data, cap);
	if (!p)
		return fail(b, MS_ENOMEM);
	b->data = p;
	b->cap = cap;
	return MS_OK;
}

int ms_buf_append(ms_buf *b, const char *s, size_t n)
{
	int rc = reserve(b, n);

	if (rc)
		return rc;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return MS_OK;
}

int ms_buf_puts(ms_buf *b, const char *s)
{
	return ms_buf_append(b, s, strlen(s));
}

int ms_buf_printf(ms_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->status)
		return b->status;
	if (n < 0)
		return fail(b, ms_ctx_error(b->ctx, MS_EINVAL, "bad format string '%s'", fmt));
	rc = reserve(b, (size_t)n);
	if (rc)
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return MS_OK;
}

char *ms_buf_detach(ms_buf *b)
{
	char *p = b->data;

	if (!p)
		p = ms_ctx_strdup(b->ctx, "");
	ms_buf_init(b, b->ctx);
	return p;
}

int ms_buf_status(const ms_buf *b)
{
	return b->status;
}

int ms_buf_finish(ms_buf *b, char **out)
{
	int rc = b->status;

	*out = NULL;
	if (rc) {
		ms_buf_dispose(b);
		return rc;
	}
	*out = ms_buf_detach(b);
	return *out ? MS_OK : MS_ENOMEM;
}

int ms_buf_read_line(ms_buf *b, FILE *f)
{
	char chunk[4096];
	int any = 0;

	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	while (fgets(chunk, sizeof(chunk), f)) {
		size_t n = strlen(chunk);
		int rc = ms_buf_append(b, chunk, n);
		if (rc)
			return rc;
		any = 1;
		if (n && chunk[n - 1] == '\n')
			break;
	}
	if (!any)
		return 0;
	if (b->len && b->data[b->len - 1] == '\n')
		b->data[--b->len] = '\0';
	if (b->len && b->data[b->len - 1] == '\r')
		b->data[--b->len] = '\0';
	return 1;
}

int ms_text_next_line(const char *text, size_t len, size_t *at, size_t *ls, size_t *le)
{
	size_t i = *at;
	if (i >= len)
		return 0;
	*ls = i;
	while (i < len && text[i] != '\n')
		i++;
	*le = i > *ls && text[i - 1] == '\r' ? i - 1 : i;
	*at = i < len ? i + 1 : i;
	return 1;
}

int ms_text_next_content_line(ms_ctx *ctx, const char *what, const char *text, size_t len, size_t *at,
			      int *line, char *buf, size_t size)
{
	size_t ls, le;

	while (ms_text_next_line(text, len, at, &ls, &le)) {
		size_t n = le - ls;
		const char *p;
		++*line;
		if (n >= size)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: longer than %zu characters", what, *line,
					    size - 1);
		memcpy(buf, text + ls, n);
		buf[n] = 0;
		for (p = buf; *p == ' ' || *p == '\t'; p++)
			;
		if (*p && *p != '#')
			return 1;
	}
	return 0;
}

int ms_read_all(ms_ctx *ctx, ms_read_fn rd, void *src, size_t max, const char *what, const char *path, char **out,
		size_t *len)
{
	ms_buf b;
	char chunk[16384];
	long got;
	int rc = MS_OK;

	*out = NULL;
	*len = 0;
	ms_buf_init(&b, ctx);
	while (!rc && (got = rd(src, chunk, sizeof(chunk))) > 0) {
		if ((size_t)got > max - b.len)
			rc = ms_ctx_error(ctx, MS_ERANGE, "%s %s: larger than %zu MiB", what, path, max >> 20);
		else if (ms_buf_append(&b, chunk, (size_t)got))
			rc = ms_ctx_error(ctx, MS_ENOMEM, "%s %s: out of memory", what, path);
	}
	if (!rc && got < 0)
		rc = ms_ctx_error(ctx, MS_EIO, "%s %s: read error", what, path);
	if (!rc && ms_buf_append(&b, "", 0))
		rc = ms_ctx_error(ctx, MS_ENOMEM, "%s %s: out of memory", what, path);
	if (rc) {
		ms_buf_dispose(&b);
		return rc;
	}
	*len = b.len;
	*out = ms_buf_detach(&b);
	return *out ? MS_OK : ms_ctx_error(ctx, MS_ENOMEM, "%s %s: out of memory", what, path);
}

static long read_stdio(void *src, char *dst, size_t cap)
{
	size_t got = fread(dst, 1, cap, src);

	return got > 0 ? (long)got : ferror((FILE *)src) ? -1 : 0;
}

int ms_read_file_upto(ms_ctx *ctx, const char *path, const char *what, size_t max, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	int rc;

	*out = NULL;
	*len = 0;
	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "%s %s: cannot open: %s", what, path, strerror(errno));
	rc = ms_read_all(ctx, read_stdio, f, max, what, path, out, len);
	fclose(f);
	return rc;
}

int ms_read_text_file(ms_ctx *ctx, char **out, size_t *len, const char *path, const char *what)
{
	return ms_read_file_upto(ctx, path, what, (size_t)16 << 20, out, len);
}
