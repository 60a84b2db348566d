/* The library context: allocator and last error. */
#include "microsynth/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/opts.h"

static void *std_malloc(void *ud, size_t size) { (void)ud; return malloc(size); }
static void *std_realloc(void *ud, void *p, size_t size) { (void)ud; return realloc(p, size); }
static void std_free(void *ud, void *p) { (void)ud; free(p); }

static const ms_allocator std_allocator = { std_malloc, std_realloc, std_free, NULL };

const char *ms_version(void)
{
	return MS_VERSION_STRING;
}

const char *ms_status_name(int status)
{
	switch (status) {
	case MS_OK: return "MS_OK";
	case MS_ERROR: return "MS_ERROR";
	case MS_ENOMEM: return "MS_ENOMEM";
	case MS_EINVAL: return "MS_EINVAL";
	case MS_EPARSE: return "MS_EPARSE";
	case MS_EIO: return "MS_EIO";
	case MS_ENOTFOUND: return "MS_ENOTFOUND";
	case MS_ERANGE: return "MS_ERANGE";
	case MS_EILLEGAL: return "MS_EILLEGAL";
	case MS_EUNSUPPORTED: return "MS_EUNSUPPORTED";
	default: return "MS_E?";
	}
}

int ms_ctx_new(ms_ctx **out, const ms_ctx_options *opts)
{
	const ms_allocator *a = &std_allocator;
	ms_ctx *ctx;

	if (!out)
		return MS_EINVAL;
	*out = NULL;
	if (opts) {
		if (opts->version != MS_CTX_OPTIONS_VERSION)
			return MS_EINVAL;
		if (opts->allocator) {
			a = opts->allocator;
			if (!a->malloc_fn || !a->realloc_fn || !a->free_fn)
				return MS_EINVAL;
		}
	}
	ctx = a->malloc_fn(a->ud, sizeof(*ctx));
	if (!ctx)
		return MS_ENOMEM;
	memset(ctx, 0, sizeof(*ctx));
	ctx->alloc = *a;
	*out = ctx;
	return MS_OK;
}

void ms_ctx_free(ms_ctx *ctx)
{
	if (!ctx)
		return;
	ctx->alloc.free_fn(ctx->alloc.ud, ctx);
}

const char *ms_ctx_last_error(const ms_ctx *ctx)
{
	return ctx ? ctx->errmsg : "";
}

int ms_ctx_last_status(const ms_ctx *ctx)
{
	return ctx ? ctx->errcode : MS_OK;
}

void ms_ctx_clear_error(ms_ctx *ctx)
{
	if (!ctx)
		return;
	ctx->errcode = MS_OK;
	ctx->errmsg[0] = '\0';
}

int ms_ctx_verror(ms_ctx *ctx, int status, const char *fmt, va_list ap)
{
	if (!ctx)
		return status;
	/* Formatted apart first: callers prefix the context's own message
	 * ("--map %s: %s", ..., ms_ctx_last_error(ctx)), and printing a string
	 * into itself is undefined (it came out as "--map x: --map x: ot found"). */
	char msg[sizeof(ctx->errmsg)];
	ctx->errcode = status;
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		snprintf(msg, sizeof(msg), "%s", ms_status_name(status));
	memcpy(ctx->errmsg, msg, sizeof(msg));
	return status;
}

int ms_ctx_error(ms_ctx *ctx, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_ctx_verror(ctx, status, fmt, ap);
	va_end(ap);
	return status;
}

void *ms_ctx_malloc(ms_ctx *ctx, size_t size)
{
	void *p = ctx->alloc.malloc_fn(ctx->alloc.ud, size ? size : 1);

	if (!p)
		ms_ctx_error(ctx, MS_ENOMEM, "out of memory allocating %zu bytes", size);
	return p;
}

void *ms_ctx_calloc(ms_ctx *ctx, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size) {
		ms_ctx_error(ctx, MS_ENOMEM, "allocation of %zu x %zu bytes overflows", n, size);
		return NULL;
	}
	p = ms_ctx_malloc(ctx, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *ms_ctx_realloc(ms_ctx *ctx, void *ptr, size_t size)
{
	void *p = ctx->alloc.realloc_fn(ctx->alloc.ud, ptr, size ? size : 1);

	if (!p)
		ms_ctx_error(ctx, MS_ENOMEM, "out of memory reallocating %zu bytes", size);
	return p;
}

void ms_ctx_mfree(ms_ctx *ctx, void *ptr)
{
	if (ptr)
		ctx->alloc.free_fn(ctx->alloc.ud, ptr);
}

char *ms_ctx_strdup(ms_ctx *ctx, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = ms_ctx_malloc(ctx, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

int ms_ctx_options_init(ms_ctx_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_CTX_OPTIONS_VERSION);
}
