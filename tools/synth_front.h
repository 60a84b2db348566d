/*
 * The synth command's front ends: cmd_synth.c reads --game and hands the
 * arguments to the game's front end (one file and one table row per game);
 * what they share lives in synth_common.c.
 */
#ifndef MS_TOOLS_SYNTH_FRONT_H
#define MS_TOOLS_SYNTH_FRONT_H

#include <stdio.h>

#include "microsynth/synth.h"

/* Front ends: argv as `microsynth synth` got it (argv[0] is "synth"). */
int synth_cantstop_main(int argc, char **argv);
void synth_cantstop_usage(FILE *out);
int synth_planetwars_main(int argc, char **argv);
void synth_planetwars_usage(FILE *out);
int synth_microrts_main(int argc, char **argv);
void synth_microrts_usage(FILE *out);
/* `synth plot` (any game's CSV logs). */
int synth_plot_main(int argc, char **argv);

/* 90, 90s, 1.5m, 15m, 2h into seconds (> 0); usage error naming --time otherwise. */
int synth_parse_duration(const char *val, double *out);
/* "microsynth" and argv[0..argc), space-separated, cut to size. */
void synth_command_line(char *out, size_t size, int argc, char **argv);

/* Progress callback state: a bar on stderr, and Ctrl-C / SIGTERM as a clean stop. */
typedef struct synth_run_ud {
	ms_synth_bar bar;
	int bar_on;
} synth_run_ud;
int synth_on_progress(void *ud, const ms_synth_stats *st);
/* so's progress callback: ud's bar on stderr (drawn if on) and Ctrl-C as a clean stop. */
void synth_progress_init(ms_synth_opts *so, synth_run_ud *ud, int on);
void synth_signals_catch(void);
void synth_signals_release(void);

/* An error's message on stderr; bad input (options, files) is a usage error, the rest a failure. */
int synth_fail(ms_ctx *ctx, const char *what);
/*
 * The search of `pb`, or, on an MPI rank > 0, this rank's service to rank
 * 0's search: then 0 with *s NULL and the exit status in *exit_rc. On
 * errors -1 with the status in *exit_rc (the message on stderr).
 */
int synth_new(ms_ctx *ctx, ms_synth **s, const ms_synth_problem *pb, const ms_synth_opts *o, int *exit_rc);
/*
 * Runs a prepared search with Ctrl-C as a clean stop and fills *st: CLI_OK
 * when it ended with a best program; otherwise what to exit with, the
 * reason on stderr (an interruption says how to resume).
 */
int synth_run(ms_ctx *ctx, ms_synth *s, synth_run_ud *ud, const char *checkpoint, ms_synth_stats *st);

#endif
