/* Whole files, plain or gzip (core/file.h). */
#include "core/file.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "core/buf.h"

static long read_gz(void *src, char *dst, size_t cap)
{
	int got = gzread(src, dst, (unsigned)(cap < INT_MAX ? cap : INT_MAX));

	return got < 0 ? -1 : got;
}

int ms_read_file(ms_ctx *ctx, const char *path, const char *what, size_t max, char **out, size_t *len)
{
	gzFile f;
	int rc;

	*out = NULL;
	*len = 0;
	errno = 0;
	if (!(f = gzopen(path, "rb")))
		return ms_ctx_error(ctx, MS_EIO, "%s %s: cannot open: %s", what, path,
				    errno ? strerror(errno) : "out of memory");
	rc = ms_read_all(ctx, read_gz, f, max, what, path, out, len);
	if (rc == MS_OK && !gzdirect(f)) {
		/* zlib hands back what it inflated when the input stops inside a
		 * stream (no trailer, so no checksum was checked) and only flags
		 * Z_BUF_ERROR: a damaged file, not a short one */
		int zerr = Z_OK;
		gzerror(f, &zerr);
		if (zerr != Z_OK) {
			ms_ctx_mfree(ctx, *out);
			*out = NULL;
			*len = 0;
			rc = ms_ctx_error(ctx, MS_EIO, "%s %s: read error (%s)", what, path,
					  zerr == Z_BUF_ERROR ? "the gzip stream ends early: no trailer, truncated?"
							      : "corrupt gzip");
		}
	} else if (rc == MS_EIO) {
		int zerr = Z_OK;
		const char *msg = gzerror(f, &zerr);
		ms_ctx_error(ctx, MS_EIO, "%s %s: read error (%s)", what, path, zerr != Z_OK && msg ? msg : "corrupt gzip?");
	}
	gzclose(f);
	return rc;
}
