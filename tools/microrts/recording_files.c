/* Recordings file by file and line by line, for the commands that compare
 * them (botdiff, refdiff): the command-line half of recording.h. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "recording.h"

int rec_for_each_line(ms_ctx *ctx, const char *cmd, const char *path, int *lineno, rec_line_fn fn, void *user)
{
	gzFile f = gzopen(path, "rb");
	ms_buf line;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "microsynth %s: %s: cannot open\n", cmd, path);
		return CLI_USAGE;
	}
	ms_buf_init(&line, ctx);
	while (rc == 0 && rec_read_line(f, &line) >= 0) {
		++*lineno;
		rc = fn(user, line.data);
	}
	gzclose(f);
	ms_buf_dispose(&line);
	return rc;
}

int rec_for_each_file(int argc, char **argv, int first, rec_file_fn one, void *user)
{
	char **files = NULL;
	size_t nfiles = 0;
	ms_ctx *ctx = NULL;
	int rc = CLI_OK;

	if (cli_collect_files(&files, &nfiles, argc, argv, first, ".rec.gz", ".rec"))
		return CLI_USAGE;
	if (ms_ctx_new(&ctx, NULL))
		ctx = NULL;
	for (size_t k = 0; k < nfiles; k++) {
		int r = ctx ? one(ctx, files[k], user) : CLI_FAIL;
		if (r == CLI_USAGE)
			rc = CLI_USAGE;
		else if (r && !rc)
			rc = r;
		free(files[k]);
	}
	free(files);
	ms_ctx_free(ctx);
	return rc;
}
