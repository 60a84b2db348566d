/*
 * Writing a finished trace (trace_write.c builds its text) to a plain file
 * or, for a path ending in ".zip", to a zip holding "game.xml" (libzip).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <zip.h>

#include "games/microrts/engine/trace_write.h"

static int write_file(ms_ctx *ctx, const char *path, const char *data, size_t len)
{
	size_t plen = strlen(path);
	int rc = MS_OK;

	if (plen > 4 && !strcmp(path + plen - 4, ".zip")) {
		int zerr = 0;
		zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &zerr);
		zip_source_t *src;
		if (!za)
			return ms_ctx_error(ctx, MS_EIO, "%s: cannot create zip (libzip error %d)", path, zerr);
		src = zip_source_buffer(za, data, len, 0);
		if (!src || zip_file_add(za, "game.xml", src, ZIP_FL_OVERWRITE) < 0) {
			if (src)
				zip_source_free(src);
			zip_discard(za);
			return ms_ctx_error(ctx, MS_EIO, "%s: cannot add the trace to the zip", path);
		}
		if (zip_close(za) < 0) {
			rc = ms_ctx_error(ctx, MS_EIO, "%s: cannot write zip: %s", path, zip_strerror(za));
			zip_discard(za);
		}
		return rc;
	}
	{
		FILE *f = fopen(path, "wb");
		if (!f)
			return ms_ctx_error(ctx, MS_EIO, "%s: cannot create: %s", path, strerror(errno));
		if (fwrite(data, 1, len, f) != len)
			rc = ms_ctx_error(ctx, MS_EIO, "%s: write failed", path);
		if (fclose(f) && !rc)
			rc = ms_ctx_error(ctx, MS_EIO, "%s: write failed", path);
	}
	return rc;
}

int ms_rts_trace_writer_finish(ms_rts_trace_writer *w, const ms_rts_state *final_state, const char *path)
{
	const char *data;
	size_t len;
	int rc = rts_trace_writer_close(w, final_state, &data, &len);

	return rc ? rc : write_file(rts_trace_writer_ctx(w), path, data, len);
}
