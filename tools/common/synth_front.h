/*
 * The synth command's front ends: cmd_synth.c reads --game and hands the
 * arguments to the game's front end (one file and one table row per game);
 * what they share lives in synth_common.c.
 */
#ifndef MS_TOOLS_SYNTH_FRONT_H
#define MS_TOOLS_SYNTH_FRONT_H

#include <stdio.h>

#include "microsynth/synth.h"

/*
 * A written program's simplification (docs/readable-programs.md): what the
 * header and the stdout line say of it. Filled by the games' simplify
 * functions; `done` 0 leaves the program as the search found it.
 */
typedef struct synth_simplified {
	int done;       /* 1: the program is the simplified one, proved on the matches `proof` names */
	char why[512];  /* done 0: why not (--no-simplify, an opponent that cannot be replayed, a failure) */
	int lines_before, lines_after, nodes_before, nodes_after;
	char proof[1024]; /* the header's sentence on the proof's matches (no trailing newline) */
	char fields[256]; /* the stdout line's fields after nodes_after, e.g. "matches=8 cycles_compared=1360" */
	double seconds;
} synth_simplified;

/* "simplified: PREFIXlines_before=... nodes_after=... FIELDS seconds=S" on stdout, when s->done. */
void synth_simplified_print(const synth_simplified *s, const char *prefix);
/* The header's lines on it: the figures and the proof, or why the program is the search's text. */
void synth_simplified_header(const synth_simplified *s, int keep_raw, const char *raw_suffix, char *out, size_t size);

/*
 * What `selfplay` needs of a game. Its state is `size` bytes, zeroed by
 * selfplay and handed to every function; the game owns what it allocates
 * there and releases it in `release_state`.
 */
typedef struct synth_selfplay_row {
	size_t size;
	void (*usage)(FILE *out); /* the paragraph on the game's options */
	/* argv[*i], an option of the game's: CLI_OK (*i past its value), CLI_USAGE, or SYNTH_OPT_OTHER */
	int (*option)(void *g, int argc, char **argv, int *i);
	/* checks the game's options, then the loop's game (the fixed opponents, a population's problems); a CLI code */
	int (*game)(void *g, ms_ctx *ctx, int algo, ms_synth_selfplay_game *out);
	/* the game's settings of every best response's search (NULL: none) */
	void (*br_options)(void *g, ms_synth_options *br);
	/* p's score against the fixed opponents; probe is the loop's problem without earlier programs */
	int (*vs_fixed)(void *g, ms_ctx *ctx, void *probe, const ms_dsl_prog *p, int threads, double *out);
	/* p in the game's program file format under a '#' header; 0 or a negative status (on p's context) */
	int (*save)(const ms_dsl_prog *p, const char *path, const char *header);
	const char *key; /* the name of vs_fixed's field in the output lines */
	/* the header's line on vs_fixed, and the extra fields of the last output line */
	void (*describe)(void *g, double vs_fixed, char *out, size_t size);
	void (*summary)(void *g, char *out, size_t size);
	void (*release_state)(void *g);
	/*
	 * p (the iteration's program, a copy) simplified in place and proved on
	 * the matches vs_fixed plays and, where the game can replay them, those
	 * against pop[0 .. n_pop), the earlier programs the iteration answered;
	 * what was done in *out (out->done 0: p as found, out->why says why).
	 * NULL: the game writes the search's text.
	 */
	void (*simplify)(void *g, ms_ctx *ctx, ms_dsl_prog *p, const ms_dsl_prog *const *pop, int n_pop,
			 synth_simplified *out);
	const char *raw_suffix; /* what --keep-raw appends to a program file's name for the search's text */
} synth_selfplay_row;

/* Progress callback state: a bar on stderr, and Ctrl-C / SIGTERM as a clean stop. */
typedef struct synth_run_ud {
	ms_synth_bar bar;
	int bar_on;
} synth_run_ud;

/*
 * What `synth --game NAME` needs of a game; synth_main runs them in this
 * order: defaults, option (for each argument that is not a shared one),
 * check, problem, search, attach, then, after the search, report, and
 * release in every case. The state is `size` bytes, zeroed, and begins
 * with the shared options (a synth_search_args), which synth_main fills.
 * Every function but usage, option, problem and report may be NULL.
 */
typedef struct synth_row {
	size_t size;
	void (*usage)(FILE *out); /* the game's paragraphs (the knobs' follows) */
	void (*defaults)(void *g);
	/* argv[*i], an option of the game's: CLI_OK (*i past its value) or the exit code after a usage error */
	int (*option)(void *g, int argc, char **argv, int *i);
	const int *algos; /* the algorithms offered, n_algos of them (0: all) */
	int n_algos;
	/* what needs the whole command line, once the shared options are checked; a CLI code */
	int (*check)(void *g, int algo);
	/* the problem (and --initial) on ctx, which outlives the state's use of it; a CLI code */
	int (*problem)(void *g, ms_ctx *ctx, int algo, const ms_synth_problem **pb);
	/* the game's settings of so, applied before the command line's knobs (so->progress may wrap ud's) */
	void (*search)(void *g, ms_synth_options *so, synth_run_ud *ud);
	/* what watches the search, *s once it exists (--progress-json); a CLI code */
	int (*attach)(void *g, ms_synth_options *so, ms_synth *const *s);
	/* after a search that found a program: the final scores, -o, the summary on stdout; a CLI code */
	int (*report)(void *g, ms_ctx *ctx, ms_synth *s, const ms_synth_stats *st);
	void (*release)(void *g); /* after the search was freed, before ctx is */
} synth_row;

/*
 * A game's row: each game's front end (synth_<game>.c) defines one, and
 * synth_games() lists them; the commands name no game beyond this list.
 */
typedef struct synth_game {
	const char *name;
	const synth_row *synth;             /* `microsynth synth --game NAME` */
	const synth_selfplay_row *selfplay; /* NULL: no self-play for this game */
} synth_game;

extern const synth_game synth_game_microrts, synth_game_cantstop, synth_game_planetwars;
/* The games in the order help lists them; their count in *n. */
const synth_game *const *synth_games(size_t *n);
/* The game called name, or NULL. */
const synth_game *synth_game_find(const char *name);
/* "a, b or c": the games' names (with self-play only if selfplay is set). */
void synth_game_names(char *out, size_t size, int selfplay);
/* `microsynth synth --game NAME` for game's row: argv as synth got it (argv[0] is "synth"); a CLI code. */
int synth_main(const synth_game *game, int argc, char **argv);
/* `synth plot` (any game's CSV logs). */
int synth_plot_main(int argc, char **argv);

#define SYNTH_MAX_KNOBS 64

/*
 * The options every search command takes (synth for each game, selfplay),
 * parsed and checked in one place so each error has one text.
 */
typedef struct synth_search_args {
	char command[2048]; /* the command line, for the output's header */
	const char *algo;   /* the value of --algo (selfplay: --br) */
	const char *out, *csv, *checkpoint, *initial;
	long evals, seed, threads;
	double seconds;
	int have_seed, resume, progress;
	/* the algorithms' knobs (synth.h's table) in command-line order, each checked when parsed */
	const char *knob_name[SYNTH_MAX_KNOBS], *knob_value[SYNTH_MAX_KNOBS];
	int n_knobs;
} synth_search_args;

/* Defaults (1 thread, the progress bar on) and the command line. */
void synth_search_args_init(synth_search_args *s, int argc, char **argv);
/* synth_search_option's answer for an option that is not a shared one. */
#define SYNTH_OPT_OTHER (-1)
/*
 * argv[*i] if it is a shared option or a knob (algo_opt names --algo's spelling):
 * CLI_OK with *i past its value, CLI_USAGE after a usage error, or
 * SYNTH_OPT_OTHER (nothing consumed) for the command's own options.
 */
int synth_search_option(const char *cmd, const char *algo_opt, int argc, char **argv, int *i,
			synth_search_args *s);
/*
 * The checks all commands make: the algorithm (one of algos[0..n), or any
 * with n == 0) into *algo, --seed, a budget, -o, --resume's --checkpoint,
 * then that each knob given applies to the algorithm.
 */
int synth_search_check(const char *cmd, const char *algo_opt, const synth_search_args *s, const int *algos,
		       int n, int *algo);
/* so initialised with s's shared settings and the progress bar in ud. */
void synth_search_opts(ms_synth_options *so, const synth_search_args *s, int algo, synth_run_ud *ud);
/* The knobs of the command line set in so, over the game's own defaults (so they are applied last). */
void synth_search_knobs(ms_synth_options *so, const synth_search_args *s);
/* The last value given to knob `name` (e.g. "--restart"), or NULL. */
const char *synth_search_knob(const synth_search_args *s, const char *name);
/* The paragraph on the knobs, from the library's table (every game's and selfplay's help). */
void synth_knobs_usage(FILE *out);

/* 90, 90s, 1.5m, 15m, 2h into seconds (> 0); usage error naming --time otherwise. */
int synth_parse_duration(const char *val, double *out);
/* "microsynth" and argv[0..argc), space-separated, cut to size. */
void synth_command_line(char *out, size_t size, int argc, char **argv);

int synth_on_progress(void *ud, const ms_synth_stats *st);
/* so's progress callback: ud's bar on stderr (drawn if on) and Ctrl-C as a clean stop. */
void synth_progress_init(ms_synth_options *so, synth_run_ud *ud, int on);
void synth_signals_catch(void);
void synth_signals_release(void);

/* An error's message on stderr; bad input (options, files) is a usage error, the rest a failure. */
int synth_fail(ms_ctx *ctx, const char *what);
/* The same for command `cmd` (selfplay and the game rows' self-play parts). */
int synth_fail_as(const char *cmd, ms_ctx *ctx, const char *what);
/*
 * The search of `pb`, or, on an MPI rank > 0, this rank's service to rank
 * 0's search: then 0 with *s NULL and the exit status in *exit_rc. On
 * errors -1 with the status in *exit_rc (the message on stderr).
 */
int synth_new(ms_ctx *ctx, ms_synth **s, const ms_synth_problem *pb, const ms_synth_options *o, int *exit_rc);
/*
 * Runs a prepared search with Ctrl-C as a clean stop and fills *st: CLI_OK
 * when it ended with a best program; otherwise what to exit with, the
 * reason on stderr (an interruption says how to resume).
 */
int synth_run(ms_ctx *ctx, ms_synth *s, synth_run_ud *ud, const char *checkpoint, ms_synth_stats *st);

#endif
