/* microsynth catan: replay catanatron recordings, play games between agents,
 * measure playout speed (spec/catan.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/catan.h"
#include "cli.h"

#define CMD "catan"

void cmd_catan_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth catan replay FILE|DIR...\n"
		     "  replay: replays catanatron 3.2.1 recordings (*.jsonl.gz): at every step the legal set and\n"
		     "          the state digest must equal the recording. Last line:\n"
		     "          games=G steps=S divergences=D legal_mismatches=L (exit 0 only if D = L = 0)\n");
}

static void print_line(void *ud, const char *line)
{
	(void)ud;
	printf("%s\n", line);
}

static int cmd_replay_files(int argc, char **argv)
{
	char **files = NULL;
	size_t n = 0;
	ms_ctx *ctx = NULL;
	ms_catan_replay_stats st = { 0, 0, 0, 0 };
	int rc = CLI_OK;
	if (argc < 3)
		return cli_usage_error(CMD, "replay needs recording files or directories");
	if (cli_collect_files(&files, &n, argc, argv, 2, ".jsonl.gz", ".jsonl") || n == 0)
		return cli_usage_error(CMD, "replay: no recordings found");
	if (ms_ctx_new(&ctx, NULL))
		rc = CLI_FAIL;
	for (size_t i = 0; rc == CLI_OK && i < n; i++) {
		if (ms_catan_replay_file(ctx, files[i], &st, print_line, NULL) < 0) {
			fprintf(stderr, "microsynth catan: %s\n", ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	ms_ctx_free(ctx);
	printf("games=%ld steps=%ld divergences=%ld legal_mismatches=%ld\n", st.games, st.steps, st.divergences,
	       st.legal_mismatches);
	if (rc == CLI_OK && (st.divergences || st.legal_mismatches))
		rc = CLI_FAIL;
	return rc;
}

int cmd_catan(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(CMD, "needs a subcommand: replay");
	if (!strcmp(argv[1], "replay"))
		return cmd_replay_files(argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s' (replay)", argv[1]);
}
