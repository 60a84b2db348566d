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

typedef struct paths {
	char **v;
	size_t n, cap;
} paths;

static int add_path(paths *p, const char *s)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		char **v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n] = strdup(s);
	return p->v[p->n++] ? 0 : -1;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects files under `path` ending in one of two suffixes, in a stable
 * (sorted) order; a path named directly is taken whatever its name. */
static int collect(paths *out, const char *path, int top, const char *suf1, const char *suf2)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	paths sub = { 0 };
	int rc = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "microsynth: %s: no such file or directory\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (top || has_suffix(path, suf1) || has_suffix(path, suf2))
			return add_path(out, path);
		return 0;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "microsynth: %s: cannot read directory\n", path);
		return -1;
	}
	while ((e = readdir(d))) {
		char buf[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, sizeof(buf), "%s/%s", path, e->d_name);
		if (add_path(&sub, buf)) {
			rc = -1;
			break;
		}
	}
	closedir(d);
	qsort(sub.v, sub.n, sizeof(*sub.v), cmp_str);
	for (size_t i = 0; i < sub.n; i++) {
		if (rc == 0)
			rc = collect(out, sub.v[i], 0, suf1, suf2);
		free(sub.v[i]);
	}
	free(sub.v);
	return rc;
}

int cli_collect_files(char ***out, size_t *n, int argc, char **argv, int first, const char *suf1,
		      const char *suf2)
{
	paths files = { 0 };

	for (int i = first; i < argc; i++) {
		if (collect(&files, argv[i], 1, suf1, suf2)) {
			for (size_t k = 0; k < files.n; k++)
				free(files.v[k]);
			free(files.v);
			return -1;
		}
	}
	*out = files.v;
	*n = files.n;
	return 0;
}

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
	paths files = { 0 };
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
