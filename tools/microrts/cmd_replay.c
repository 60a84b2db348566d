/*
 * microsynth replay PATH...: replays recorded official traces (zipped or
 * plain rts.Trace XML; directories are searched recursively) in the native
 * engine and compares every recorded state.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "microsynth/microrts.h"
#include "cli.h"



void cmd_replay_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth replay [--verbose] PATH...\n\n"
		     "Replays official traces (trace zips or rts.Trace XML; directories are\n"
		     "searched for *.zip and *.xml) in the native engine, comparing stocks and\n"
		     "every unit at each recorded entry. Goes on past divergences and prints\n"
		     "the first one of each trace.\n"
		     "Last line: traces=N snapshots=S divergences=D cycles=C [winner=W for one\n"
		     "trace] cycles_per_s=X (replay only, loading excluded); exit 1 if D > 0.\n");
}

int cmd_replay(int argc, char **argv)
{
	struct {
		char **v;
		size_t n;
	} files = { NULL, 0 };
	long snapshots = 0, divergences = 0, cycles = 0;
	double seconds = 0;
	int winner = -1;
	int first = argc;
	int verbose = 0, bad_input = 0, shown = 0;
	ms_ctx *ctx;

	for (int i = 1; i < argc && first == argc; i++) {
		if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
			verbose = 1;
		else if (argv[i][0] == '-')
			return cli_usage_error("replay", "unknown option '%s'", argv[i]);
		else
			first = i;
	}
	if (cli_collect_files(&files.v, &files.n, argc, argv, first, ".zip", ".xml"))
		return CLI_USAGE;
	if (files.n == 0)
		return cli_usage_error("replay", "no trace given");
	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth replay: out of memory\n");
		return CLI_FAIL;
	}
	for (size_t i = 0; i < files.n; i++) {
		ms_rts_trace *t;
		ms_rts_replay_result r;

		if (ms_rts_trace_load(ctx, &t, files.v[i])) {
			fprintf(stderr, "microsynth replay: %s\n", ms_ctx_last_error(ctx));
			bad_input = 1;
			continue;
		}
		double t0 = cli_now();
		int rr = ms_rts_trace_replay(ctx, t, &r);
		seconds += cli_now() - t0;
		if (rr) {
			fprintf(stderr, "microsynth replay: %s: %s\n", files.v[i], ms_ctx_last_error(ctx));
			bad_input = 1;
		} else {
			snapshots += r.entries;
			divergences += r.divergent;
			cycles += r.cycles;
			winner = r.winner;
			if (r.divergent && shown++ < 20)
				printf("%s: %d of %d entries differ; first at entry %d: %s\n", files.v[i], r.divergent,
				       r.entries, r.first_bad, r.detail);
			else if (verbose)
				printf("%s: %d entries, %d differ, winner=%d cycles=%d\n", files.v[i], r.entries,
				       r.divergent, r.winner, r.cycles);
		}
		ms_rts_trace_free(t);
	}
	printf("traces=%zu snapshots=%ld divergences=%ld cycles=%ld", files.n, snapshots, divergences, cycles);
	if (files.n == 1)
		printf(" winner=%d", winner);
	printf(" cycles_per_s=%.0f\n", seconds > 0 ? (double)cycles / seconds : 0.0);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	ms_ctx_free(ctx);
	if (bad_input)
		return CLI_USAGE;
	return divergences ? CLI_FAIL : CLI_OK;
}
