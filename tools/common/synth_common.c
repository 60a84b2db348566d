/*
 * What the synth front ends share: durations, Ctrl-C as a clean stop, the
 * progress bar callback, the command line for the output's header.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "synth_front.h"
#include "synth_mpi.h"

#define CMD "synth"

/* 90, 90s, 1.5m, 15m, 2h; > 0. */
int synth_parse_duration(const char *val, double *out)
{
	char *end;
	double v;

	if (!val || !*val)
		return cli_usage_error(CMD, "--time needs a value");
	errno = 0;
	v = strtod(val, &end);
	if (end == val || errno)
		return cli_usage_error(CMD, "--time: '%s' is not a duration (90, 90s, 15m, 2h)", val);
	if (!strcmp(end, "h"))
		v *= 3600;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (*end && strcmp(end, "s"))
		return cli_usage_error(CMD, "--time: '%s' is not a duration (90, 90s, 15m, 2h)", val);
	if (!(v > 0) || v > 1e9)
		return cli_usage_error(CMD, "--time: '%s' must be positive", val);
	*out = v;
	return CLI_OK;
}

void synth_command_line(char *out, size_t size, int argc, char **argv)
{
	size_t used = (size_t)snprintf(out, size, "microsynth");
	for (int i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, " %s", argv[i]);
}

static volatile sig_atomic_t synth_interrupted; /* the one flag a signal handler may set */

static void on_signal(int sig)
{
	(void)sig;
	synth_interrupted = 1;
}

int synth_on_progress(void *ud, const ms_synth_stats *st)
{
	synth_run_ud *r = ud;
	if (r->bar_on)
		ms_synth_progress_bar(&r->bar, st);
	return synth_interrupted != 0;
}

void synth_progress_init(ms_synth_options *so, synth_run_ud *ud, int on)
{
	memset(ud, 0, sizeof *ud);
	ud->bar.out = stderr;
	ud->bar_on = on;
	so->progress = synth_on_progress;
	so->progress_ud = ud;
}

void synth_signals_catch(void)
{
	synth_interrupted = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void synth_signals_release(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

int synth_fail_as(const char *cmd, ms_ctx *ctx, const char *what)
{
	int st = ms_ctx_last_status(ctx);
	fprintf(stderr, "microsynth %s: %s: %s\n", cmd, what, ms_ctx_last_error(ctx));
	return st == MS_EINVAL || st == MS_EPARSE || st == MS_EIO || st == MS_ENOTFOUND ? CLI_USAGE : CLI_FAIL;
}

int synth_fail(ms_ctx *ctx, const char *what)
{
	return synth_fail_as(CMD, ctx, what);
}

int synth_new(ms_ctx *ctx, ms_synth **s, const ms_synth_problem *pb, const ms_synth_options *o, int *exit_rc)
{
	*s = NULL;
	if (synth_mpi_rank() > 0) {
		*exit_rc = synth_mpi_serve(ctx, pb, o->threads);
		return 0;
	}
	if (ms_synth_new(ctx, s, pb, o) < 0 || synth_mpi_attach(ctx, *s, pb) < 0) {
		*exit_rc = synth_fail(ctx, "search");
		return -1;
	}
	return 0;
}

int synth_run(ms_ctx *ctx, ms_synth *s, synth_run_ud *ud, const char *checkpoint, ms_synth_stats *st)
{
	int rc;

	synth_signals_catch();
	rc = ms_synth_run(s);
	synth_signals_release();
	if (ud->bar_on)
		ms_synth_bar_end(&ud->bar);
	if (rc < 0)
		return synth_fail(ctx, "search");
	ms_synth_get_stats(s, st);
	if (rc == MS_SYNTH_STOPPED) {
		fprintf(stderr, "microsynth synth: interrupted after %lld Psi evaluations (%.1f s)%s\n", st->evals_psi,
			st->elapsed,
			checkpoint ? "; continue with the same command and --resume" : "; no checkpoint was kept");
		return CLI_FAIL;
	}
	if (!ms_synth_best(s, MS_SYNTH_PSI)) {
		fprintf(stderr, "microsynth synth: the budget ended before any program was evaluated on Psi\n");
		return CLI_FAIL;
	}
	return CLI_OK;
}

void synth_search_args_init(synth_search_args *s, int argc, char **argv)
{
	memset(s, 0, sizeof *s);
	s->threads = 1;
	s->progress = 1;
	synth_command_line(s->command, sizeof s->command, argc, argv);
}

/* Sets knob name in o; CLI_OK, or CLI_USAGE with the library's message. */
static int knob_set(const char *cmd, ms_synth_options *o, const char *name, const char *value)
{
	ms_ctx *ctx = NULL;
	int rc = CLI_FAIL;
	if (ms_ctx_new(&ctx, NULL) != MS_OK) {
		fprintf(stderr, "microsynth %s: out of memory\n", cmd);
		return rc;
	}
	rc = ms_synth_options_set(ctx, o, name, value) < 0 ? cli_usage_error(cmd, "%s", ms_ctx_last_error(ctx)) : CLI_OK;
	ms_ctx_free(ctx);
	return rc;
}

/* A knob of the table at argv[*i]: checked on scratch options now, so errors come in command-line order. */
static int knob_option(const char *cmd, int argc, char **argv, int *i, synth_search_args *s)
{
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	ms_synth_options scratch;
	int rc;
	if (!v)
		return cli_usage_error(cmd, "%s needs a value", o);
	++*i;
	ms_synth_options_init(&scratch, MS_SYNTH_OPTIONS_VERSION);
	if ((rc = knob_set(cmd, &scratch, o, v)) != CLI_OK)
		return rc;
	if (s->n_knobs == SYNTH_MAX_KNOBS)
		return cli_usage_error(cmd, "more than %d search knobs", SYNTH_MAX_KNOBS);
	s->knob_name[s->n_knobs] = o;
	s->knob_value[s->n_knobs++] = v;
	return CLI_OK;
}

void synth_search_knobs(ms_synth_options *so, const synth_search_args *s)
{
	for (int k = 0; k < s->n_knobs; k++) /* checked when parsed */
		knob_set("synth", so, s->knob_name[k], s->knob_value[k]);
}

const char *synth_search_knob(const synth_search_args *s, const char *name)
{
	for (int k = s->n_knobs; k-- > 0;)
		if (!strcmp(s->knob_name[k], name))
			return s->knob_value[k];
	return NULL;
}

void synth_knobs_usage(FILE *out)
{
	const ms_synth_knob *k;
	fprintf(out, "Search knobs (every game; each applies to the algorithms named, a game may set other "
		     "defaults):\n");
	for (size_t i = 0; (k = ms_synth_knob_at(i)); i++) {
		char algos[128];
		ms_synth_knob_algo_list(k, algos, sizeof algos);
		fprintf(out, "  %s %s (%s)\n      %s\n", k->name, k->arg, algos, k->help);
	}
}

int synth_search_option(const char *cmd, const char *algo_opt, int argc, char **argv, int *i,
			synth_search_args *s)
{
	static const char *const texts[] = { "-o", "--csv", "--checkpoint", "--initial" };
	static const char *const ints[] = { "--evals", "--seed", "--threads" };
	static const long lo[] = { 1, 0, 1 }, hi[] = { 1000000000L, 0x7fffffffffffffffL, 256 };
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	const char **text_dst[] = { &s->out, &s->csv, &s->checkpoint, &s->initial };
	long *int_dst[] = { &s->evals, &s->seed, &s->threads };
	size_t t = 0, k = 0;

	if (!strcmp(o, "--resume")) {
		s->resume = 1;
		return CLI_OK;
	}
	if (!strcmp(o, "--no-progress")) {
		s->progress = 0;
		return CLI_OK;
	}
	if (ms_synth_knob_find(o))
		return knob_option(cmd, argc, argv, i, s);
	while (t < sizeof texts / sizeof *texts && strcmp(o, texts[t]))
		t++;
	while (k < sizeof ints / sizeof *ints && strcmp(o, ints[k]))
		k++;
	if (strcmp(o, algo_opt) && strcmp(o, "--time") && t == sizeof texts / sizeof *texts &&
	    k == sizeof ints / sizeof *ints)
		return SYNTH_OPT_OTHER;
	if (!v)
		return cli_usage_error(cmd, "%s needs a value", o);
	++*i;
	if (!strcmp(o, algo_opt))
		s->algo = v;
	else if (!strcmp(o, "--time"))
		return synth_parse_duration(v, &s->seconds);
	else if (t < sizeof texts / sizeof *texts)
		*text_dst[t] = v;
	else if (cli_parse_int(cmd, o, v, lo[k], hi[k], int_dst[k]))
		return CLI_USAGE;
	s->have_seed |= k == 1;
	return CLI_OK;
}

int synth_search_check(const char *cmd, const char *algo_opt, const synth_search_args *s, const int *algos,
		       int n, int *algo)
{
	char names[128] = "";
	size_t used = 0;
	int all[8], ok = 0;

	if (n == 0) { /* every algorithm of the library's table, ids 0, 1, ... */
		for (; n < 8 && ms_synth_algo_name(n); n++)
			all[n] = n;
		algos = all;
	}
	for (int j = 0; j < n && used < sizeof names; j++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "",
					 ms_synth_algo_name(algos[j]));
	if (!s->algo)
		return cli_usage_error(cmd, "%s is required (%s)", algo_opt, names);
	*algo = ms_synth_algo_from_name(s->algo);
	for (int j = 0; j < n; j++)
		ok |= algos[j] == *algo;
	if (!ok)
		return cli_usage_error(cmd, *algo < 0 ? "%s: unknown algorithm '%s' (%s)" : "%s: '%s' is not offered here (%s)",
				       algo_opt, s->algo, names);
	if (!s->have_seed)
		return cli_usage_error(cmd, "--seed is required");
	if (!s->evals && !(s->seconds > 0))
		return cli_usage_error(cmd, "a budget is required: --evals N or --time T");
	if (!s->out)
		return cli_usage_error(cmd, "-o FILE is required");
	if (s->resume && !s->checkpoint)
		return cli_usage_error(cmd, "--resume needs --checkpoint");
	for (int k = 0; k < s->n_knobs; k++) {
		ms_ctx *ctx = NULL;
		int rc = CLI_OK;
		if (ms_ctx_new(&ctx, NULL) != MS_OK)
			return CLI_FAIL;
		if (ms_synth_knob_applies(ctx, s->knob_name[k], *algo) < 0)
			rc = cli_usage_error(cmd, "%s", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		if (rc != CLI_OK)
			return rc;
	}
	return CLI_OK;
}

void synth_search_opts(ms_synth_options *so, const synth_search_args *s, int algo, synth_run_ud *ud)
{
	ms_synth_options_init(so, MS_SYNTH_OPTIONS_VERSION);
	so->algo = algo;
	so->seed = (uint64_t)s->seed;
	so->threads = (int)s->threads;
	so->max_evals = s->evals;
	so->max_seconds = s->seconds;
	so->checkpoint = s->checkpoint;
	so->resume = s->resume;
	so->csv = s->csv;
	synth_progress_init(so, ud, s->progress);
}

void synth_simplified_print(const synth_simplified *s, const char *prefix)
{
	if (s->done)
		printf("simplified: %slines_before=%d lines_after=%d nodes_before=%d nodes_after=%d %s seconds=%.1f\n",
		       prefix, s->lines_before, s->lines_after, s->nodes_before, s->nodes_after, s->fields, s->seconds);
}

void synth_simplified_header(const synth_simplified *s, int keep_raw, const char *raw_suffix, char *out, size_t size)
{
	if (!s->done) {
		snprintf(out, size, "simplified: no, the search's own text (%s)", s->why);
		return;
	}
	snprintf(out, size,
		 "simplified: %d of %d program lines, %d of %d nodes (docs/readable-programs.md); %s;\n"
		 "the search's own text: %s%s%s",
		 s->lines_after, s->lines_before, s->nodes_after, s->nodes_before, s->proof,
		 keep_raw ? "beside this file (" : "not kept (--keep-raw keeps it)", keep_raw ? raw_suffix : "",
		 keep_raw ? ")" : "");
}

static const synth_game *const game_rows[] = { &synth_game_microrts, &synth_game_cantstop, &synth_game_planetwars };

const synth_game *const *synth_games(size_t *n)
{
	*n = sizeof game_rows / sizeof *game_rows;
	return game_rows;
}

const synth_game *synth_game_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof game_rows / sizeof *game_rows; i++)
		if (!strcmp(name, game_rows[i]->name))
			return game_rows[i];
	return NULL;
}

void synth_game_names(char *out, size_t size, int selfplay)
{
	size_t used = 0, k = 0, n = 0;
	out[0] = 0;
	for (size_t i = 0; i < sizeof game_rows / sizeof *game_rows; i++)
		n += !selfplay || game_rows[i]->selfplay;
	for (size_t i = 0; i < sizeof game_rows / sizeof *game_rows && used < size; i++) {
		if (selfplay && !game_rows[i]->selfplay)
			continue;
		k++;
		used += (size_t)snprintf(out + used, size - used, "%s%s", k == 1 ? "" : k == n ? " or " : ", ",
					 game_rows[i]->name);
	}
}

/* The command line into the game's state g (its synth_search_args first); a CLI code. */
static int synth_parse(const synth_row *row, void *g, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int rc = synth_search_option(CMD, "--algo", argc, argv, &i, g);
		if (rc == SYNTH_OPT_OTHER)
			rc = row->option(g, argc, argv, &i);
		if (rc != CLI_OK)
			return rc;
	}
	return CLI_OK;
}

/* The search of the game's problem on ctx, to its report; a CLI code. */
static int synth_search(const synth_row *row, void *g, ms_ctx *ctx, int algo)
{
	const synth_search_args *a = g;
	const ms_synth_problem *pb = NULL;
	ms_synth *s = NULL;
	ms_synth_options so;
	ms_synth_stats st;
	synth_run_ud ud;
	int ret;

	if ((ret = row->problem(g, ctx, algo, &pb)) != CLI_OK)
		return ret;
	synth_search_opts(&so, a, algo, &ud);
	if (row->search)
		row->search(g, &so, &ud);
	synth_search_knobs(&so, a);
	if (row->attach && (ret = row->attach(g, &so, &s)) != CLI_OK)
		return ret;
	ret = CLI_FAIL;
	/* under MPI a rank > 0 serves rank 0's tasks here and comes back without a search */
	if (synth_new(ctx, &s, pb, &so, &ret) == 0 && s && (ret = synth_run(ctx, s, &ud, a->checkpoint, &st)) == CLI_OK)
		ret = row->report(g, ctx, s, &st);
	ms_synth_free(s);
	return ret;
}

int synth_main(const synth_game *game, int argc, char **argv)
{
	const synth_row *row = game->synth;
	void *g = calloc(1, row->size);
	ms_ctx *ctx = NULL;
	int algo, ret;

	if (!g) {
		fprintf(stderr, "microsynth synth: out of memory\n");
		return CLI_FAIL;
	}
	synth_search_args_init(g, argc, argv);
	if (row->defaults)
		row->defaults(g);
	if ((ret = synth_parse(row, g, argc, argv)) != CLI_OK ||
	    (ret = synth_search_check(CMD, "--algo", g, row->algos, row->n_algos, &algo)) != CLI_OK ||
	    (row->check && (ret = row->check(g, algo)) != CLI_OK))
		goto done;
	if (ms_ctx_new(&ctx, NULL) != MS_OK) {
		fprintf(stderr, "microsynth synth: out of memory\n");
		ret = CLI_FAIL;
		goto done;
	}
	ret = synth_search(row, g, ctx, algo);
done:
	if (row->release)
		row->release(g);
	ms_ctx_free(ctx);
	free(g);
	return ret;
}
