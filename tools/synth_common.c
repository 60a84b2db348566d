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

void synth_progress_init(ms_synth_opts *so, synth_run_ud *ud, int on)
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

int synth_fail(ms_ctx *ctx, const char *what)
{
	int st = ms_ctx_last_status(ctx);
	fprintf(stderr, "microsynth synth: %s: %s\n", what, ms_ctx_last_error(ctx));
	return st == MS_EINVAL || st == MS_EPARSE || st == MS_EIO || st == MS_ENOTFOUND ? CLI_USAGE : CLI_FAIL;
}

int synth_new(ms_ctx *ctx, ms_synth **s, const ms_synth_problem *pb, const ms_synth_opts *o, int *exit_rc)
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
