/*
 * What the synth front ends share: durations, Ctrl-C as a clean stop, the
 * progress bar callback.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "synth_front.h"

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
