/* Private to the library: the context's layout and shared helpers. */
#ifndef MS_CORE_INTERNAL_H
#define MS_CORE_INTERNAL_H

#include <stdarg.h>

#include "microsynth/common.h"

#define MS_ERRMSG_MAX 512

struct ms_ctx {
	ms_allocator alloc;
	int errcode;
	char errmsg[MS_ERRMSG_MAX];
};

int ms_ctx_verror(ms_ctx *ctx, int status, const char *fmt, va_list ap) MS_PRINTF(3, 0);

#endif
