/*
 * microsynth diff PATH...: plays recordings made by the Java recorder
 * (ai.microsynth.record.Recorder, format in tests/README.md) in the native
 * engine: the same player actions, generator states and unit-id counter
 * at every cycle; the native state after each cycle must equal the
 * recorded one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "microsynth/microrts.h"
#include "cli.h"
#include "recording.h"

#define MAX_PAIRS 4096

/* The canonical state line; the recorder writes the same from Java. */
static void state_line(const ms_rts_state *s, ms_buf *b)
{
	int n = ms_rts_state_unit_count(s), m = ms_rts_state_assignment_count(s);

	b->len = 0;
	ms_buf_printf(b, "S %d %d %d U %d", ms_rts_state_time(s), ms_rts_state_resources(s, 0),
		      ms_rts_state_resources(s, 1), n);
	for (int i = 0; i < n; i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		ms_buf_printf(b, " %lld,%d,%d,%d,%d,%d,%d", (long long)u.id, u.type, u.player, u.x, u.y,
			      u.resources, u.hitpoints);
	}
	ms_buf_printf(b, " A %d", m);
	for (int k = 0; k < m; k++) {
		ms_rts_action a;
		ms_rts_unit u;
		int ui, t;
		ms_rts_state_assignment(s, k, &ui, &a, &t);
		ms_rts_state_unit(s, ui, &u);
		ms_buf_printf(b, " %lld,%d,", (long long)u.id, t);
		rec_put_action(b, &a);
	}
}

typedef struct diff_stats {
	long cycles, divergences;
	int shown;
} diff_stats;

static int first_difference(const char *a, const char *b)
{
	int i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	return i;
}

/* DIR/NAME.trace.xml for DIR and .../NAME.rec[.gz] */
static void trace_path(char *out, size_t size, const char *dir, const char *rec)
{
	const char *base = strrchr(rec, '/');
	size_t n;

	base = base ? base + 1 : rec;
	n = strcspn(base, ".");
	snprintf(out, size, "%s/%.*s.trace.xml", dir, (int)n, base);
}

static int diff_one(ms_ctx *ctx, const char *path, const char *trace_dir, diff_stats *st)
{
	ms_rts_trace_writer *tw = NULL;
	gzFile f = gzopen(path, "rb");
	ms_buf line, mine;
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;
	ms_rts_pair *pairs[2];
	int np[2] = { 0, 0 }, rc = CLI_OK, lineno = 0, bad_here = 0;

	if (!f) {
		fprintf(stderr, "microsynth diff: %s: cannot open\n", path);
		return CLI_USAGE;
	}
	pairs[0] = calloc(MAX_PAIRS, sizeof(ms_rts_pair));
	pairs[1] = calloc(MAX_PAIRS, sizeof(ms_rts_pair));
	ms_buf_init(&line, ctx);
	ms_buf_init(&mine, ctx);
	while (rec_read_line(f, &line) >= 0) {
		char *l = line.data;
		lineno++;
		if (lineno == 1) {
			if (strcmp(l, "microsynth-recording 1")) {
				fprintf(stderr, "microsynth diff: %s: not a recording (line 1)\n", path);
				rc = CLI_USAGE;
				break;
			}
		} else if (!strncmp(l, "utt ", 4)) {
			int v, p;
			if (sscanf(l + 4, "%d %d", &v, &p) != 2 || ms_rts_utt_new(ctx, &utt, v, p)) {
				fprintf(stderr, "microsynth diff: %s:%d: bad utt line\n", path, lineno);
				rc = CLI_USAGE;
				break;
			}
		} else if (!strncmp(l, "init ", 5)) {
			if (!utt || ms_rts_state_from_json(ctx, &s, utt, l + 5, strlen(l + 5), 0)) {
				fprintf(stderr, "microsynth diff: %s:%d: %s\n", path, lineno,
					utt ? ms_ctx_last_error(ctx) : "init before utt");
				rc = CLI_USAGE;
				break;
			}
			if (trace_dir && ms_rts_trace_writer_new(ctx, &tw, s)) {
				fprintf(stderr, "microsynth diff: %s\n", ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
				break;
			}
		} else if (l[0] == 'R' && s) {
			if (rec_apply_r(s, l)) {
				fprintf(stderr, "microsynth diff: %s:%d: bad R line\n", path, lineno);
				rc = CLI_USAGE;
				break;
			}
		} else if (l[0] == 'P' && s) {
			if (rec_parse_p(l, pairs, np, MAX_PAIRS) < 0) {
				fprintf(stderr, "microsynth diff: %s:%d: bad pair list\n", path, lineno);
				rc = CLI_USAGE;
				break;
			}
		} else if (l[0] == 'S' && s) {
			int gameover;
			/* The trace entry holds the state before issuing and the
			 * actions as the AIs returned them. */
			if (tw && ms_rts_trace_writer_entry(tw, s, pairs[0], np[0], pairs[1], np[1])) {
				fprintf(stderr, "microsynth diff: %s\n", ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
			}
			for (int p = 0; p < 2; p++) {
				if (np[p] && rec_issue(ctx, s, pairs[p], np[p])) {
					fprintf(stderr, "microsynth diff: %s:%d: %s\n", path, lineno, ms_ctx_last_error(ctx));
					rc = CLI_USAGE;
				}
				np[p] = 0;
			}
			if (ms_rts_cycle(ctx, s, &gameover)) {
				fprintf(stderr, "microsynth diff: %s:%d: %s\n", path, lineno, ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
			}
			st->cycles++;
			state_line(s, &mine);
			if (strcmp(mine.data, l)) {
				st->divergences++;
				if (!bad_here++ && st->shown++ < 10) {
					int at = first_difference(mine.data, l), from = at > 60 ? at - 60 : 0;
					printf("%s:%d: cycle %d differs at column %d\n  native:   ...%.140s\n  recorded: ...%.140s\n",
					       path, lineno, ms_rts_state_time(s), at, mine.data + from, l + from);
				}
			}
		} else if (!strncmp(l, "end ", 4) && s) {
			int w, t;
			if (sscanf(l + 4, "%d %d", &w, &t) == 2 && (w != ms_rts_winner(s) || t != ms_rts_state_time(s))) {
				st->divergences++;
				printf("%s: recorded end winner=%d time=%d, native winner=%d time=%d\n", path, w, t,
				       ms_rts_winner(s), ms_rts_state_time(s));
			}
		}
	}
	gzclose(f);
	if (tw && s && rc == CLI_OK) {
		char out[4096];
		trace_path(out, sizeof(out), trace_dir, path);
		if (ms_rts_trace_writer_finish(tw, s, out)) {
			fprintf(stderr, "microsynth diff: %s\n", ms_ctx_last_error(ctx));
			rc = CLI_FAIL;
		}
	}
	ms_rts_trace_writer_free(tw);
	if (rc == CLI_OK && !s) {
		fprintf(stderr, "microsynth diff: %s: no initial state\n", path);
		rc = CLI_USAGE;
	}
	ms_buf_dispose(&line);
	ms_buf_dispose(&mine);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	free(pairs[0]);
	free(pairs[1]);
	return rc;
}

void cmd_diff_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth diff [--write-traces DIR] PATH...\n\n"
		     "Plays recordings of official matches (made by the Java recorder;\n"
		     "*.rec or *.rec.gz, directories searched) in the native engine and\n"
		     "compares the state after every cycle. --write-traces writes each match\n"
		     "as an official trace, DIR/NAME.trace.xml (a .zip name is not used here).\n"
		     "Last line: matches=N cycles=C divergences=D (exit 1 if D > 0).\n");
}

int cmd_diff(int argc, char **argv)
{
	char **files = NULL;
	size_t nfiles = 0;
	diff_stats st = { 0, 0, 0 };
	ms_ctx *ctx;
	int rc = CLI_OK;

	const char *trace_dir = NULL;
	int first = 1;

	if (argc > 2 && !strcmp(argv[1], "--write-traces")) {
		trace_dir = argv[2];
		first = 3;
	}
	if (first >= argc)
		return cli_usage_error("diff", "no recording given");
	if (argv[first][0] == '-')
		return cli_usage_error("diff", "unknown option '%s'", argv[first]);
	if (cli_collect_files(&files, &nfiles, argc, argv, first, ".rec.gz", ".rec"))
		return CLI_USAGE;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	for (size_t i = 0; i < nfiles; i++) {
		int r = diff_one(ctx, files[i], trace_dir, &st);
		if (r == CLI_USAGE)
			rc = CLI_USAGE;
		free(files[i]);
	}
	free(files);
	ms_ctx_free(ctx);
	printf("matches=%zu cycles=%ld divergences=%ld\n", nfiles, st.cycles, st.divergences);
	if (rc)
		return rc;
	return st.divergences ? CLI_FAIL : CLI_OK;
}
