/*
 * microsynth: status codes, version and the library context.
 *
 * Every fallible function returns an int: 0 (MS_OK) on success or a
 * negative MS_E* code. The message that goes with a failure is kept in the
 * context the call was given (ms_ctx_last_error); nothing is process-global.
 */
#ifndef MICROSYNTH_COMMON_H
#define MICROSYNTH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define MS_EXTERN __declspec(dllexport)
#elif defined(__GNUC__)
#  define MS_EXTERN __attribute__((visibility("default")))
#else
#  define MS_EXTERN
#endif

#if defined(__GNUC__)
#  define MS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define MS_PRINTF(f, a)
#endif

#define MS_VERSION_MAJOR 0
#define MS_VERSION_MINOR 1
#define MS_VERSION_PATCH 0
#define MS_VERSION_STRING "0.1.0"

/** Status codes. Zero is success; every failure is negative. */
typedef enum {
	MS_OK = 0,
	MS_ERROR = -1,       /**< generic failure */
	MS_ENOMEM = -2,      /**< an allocation failed */
	MS_EINVAL = -3,      /**< bad argument or malformed input */
	MS_EPARSE = -4,      /**< text could not be parsed (JSON, XML, DSL, protocol) */
	MS_EIO = -5,         /**< a file or socket could not be read or written */
	MS_ENOTFOUND = -6,   /**< a named thing does not exist */
	MS_ERANGE = -7,      /**< a value is outside what is allowed */
	MS_EILLEGAL = -8,    /**< a game action is not legal in this state */
	MS_EUNSUPPORTED = -9 /**< valid, but not implemented by this build */
} ms_status;

/** Returns a static, human-readable name for a status code ("MS_EPARSE"). */
MS_EXTERN const char *ms_status_name(int status);

/** Returns the library version string, e.g. "0.1.0". */
MS_EXTERN const char *ms_version(void);

/**
 * A pluggable allocator. `realloc` must behave like C's realloc (NULL
 * pointer allocates, and a failed call leaves the block intact); `free`
 * accepts NULL. `ud` is passed back to each function.
 */
typedef struct ms_allocator {
	void *(*malloc_fn)(void *ud, size_t size);
	void *(*realloc_fn)(void *ud, void *ptr, size_t size);
	void (*free_fn)(void *ud, void *ptr);
	void *ud;
} ms_allocator;

/** Library context: allocator, last error. Not shared between threads. */
typedef struct ms_ctx ms_ctx;

#define MS_CTX_OPTIONS_VERSION 1

/** Options for ms_ctx_new; zero-initialise then set `version`. */
typedef struct ms_ctx_options {
	unsigned int version;          /**< MS_CTX_OPTIONS_VERSION */
	const ms_allocator *allocator; /**< NULL: the C allocator */
} ms_ctx_options;

/**
 * Zero-initialises `opts` and sets its version (MS_CTX_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_ctx_options_init(ms_ctx_options *opts, unsigned int version);

/**
 * Creates a context. `opts` may be NULL for defaults.
 * Returns MS_OK, MS_EINVAL (unknown options version) or MS_ENOMEM.
 */
MS_EXTERN int ms_ctx_new(ms_ctx **out, const ms_ctx_options *opts);

/** Frees a context; NULL is ignored. */
MS_EXTERN void ms_ctx_free(ms_ctx *ctx);

/**
 * The message of the last failure recorded in `ctx`, or "" if none.
 * The pointer is valid until the next call that fails on `ctx`.
 */
MS_EXTERN const char *ms_ctx_last_error(const ms_ctx *ctx);

/** The status code of the last failure recorded in `ctx` (MS_OK if none). */
MS_EXTERN int ms_ctx_last_status(const ms_ctx *ctx);

/** Forgets the last failure. */
MS_EXTERN void ms_ctx_clear_error(ms_ctx *ctx);

/**
 * Records a failure in `ctx` and returns `status`, so callers can write
 * `return ms_ctx_error(ctx, MS_EPARSE, "map %s: line %d: ...", ...)`.
 * A message longer than the context's buffer is truncated.
 */
MS_EXTERN int ms_ctx_error(ms_ctx *ctx, int status, const char *fmt, ...) MS_PRINTF(3, 4);

/** Allocation through the context's allocator; these never abort. */
MS_EXTERN void *ms_ctx_malloc(ms_ctx *ctx, size_t size);
MS_EXTERN void *ms_ctx_calloc(ms_ctx *ctx, size_t n, size_t size);
MS_EXTERN void *ms_ctx_realloc(ms_ctx *ctx, void *ptr, size_t size);
MS_EXTERN void ms_ctx_mfree(ms_ctx *ctx, void *ptr);
/** Copies a NUL-terminated string with the context's allocator. */
MS_EXTERN char *ms_ctx_strdup(ms_ctx *ctx, const char *s);

#ifdef __cplusplus
}
#endif
#endif
