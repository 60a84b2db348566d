/* Shared by the microsynth subcommands. Tools may exit; the library never does. */
#ifndef MS_TOOLS_CLI_H
#define MS_TOOLS_CLI_H

#include <stdio.h>
#include <sys/types.h>

/* Exit codes of the Contracts: 0 held, 1 ran and failed, 2 bad usage or input. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
	void (*usage)(FILE *out);
} cli_cmd;

/* Reports a usage error for `cmd` on stderr and returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Parses a non-negative int option value; on error reports and returns -1. */
int cli_parse_int(const char *cmd, const char *opt, const char *val, long min, long max, long *out);

/* Parses a real option value in [min, max], or (min, max] when `open_min`;
 * on error reports the option, the value and the range and returns -1. */
int cli_parse_real(const char *cmd, const char *opt, const char *val, double min, double max, int open_min,
		   double *out);

/* A map as a path, else in the harness cache as given, else under its maps/. */
int cli_resolve_map(const char *map, char *out, size_t size);

/* A text file on the heap, NUL-terminated (at most 16 MiB; free() it), its length into *len when
 * given; NULL after "microsynth CMD: cannot read PATH" on stderr. */
char *cli_read_text(const char *cmd, const char *path, size_t *len);

/* 1 if `path` is a regular file. */
int cli_is_file(const char *path);

/* Monotonic clock, in seconds. */
double cli_now(void);

/* CPU time of the calling thread, in seconds: what a benchmark on a shared machine times. */
double cli_thread_cpu(void);

/* qsort's comparison of doubles, ascending. */
int cli_cmp_double(const void *a, const void *b);

/* The median of v[0..n) (sorts v; v[0] is then the least); 0 when n <= 0. */
double cli_median(double *v, int n);

/* Harness cache directory: $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness. */
int cli_harness_dir(char *out, size_t size);

/* Directory holding this executable (from /proc/self/exe). */
int cli_exe_dir(char *out, size_t size);

/* The project's shared reference folder's entry `sub` (e.g. "data/planetwars/maps"):
 * under $MS_SHARED_DIR, else under the `shared` folder beside the checkout this
 * executable was built in (build/bin/../../../shared, or ../../shared). 0 when
 * it exists; -1 with the first place looked at in out. */
int cli_shared_path(const char *sub, char *out, size_t size);

/* Finds microsynth-harness.jar beside the build or install tree. */
int cli_find_tools_jar(char *out, size_t size);

int cmd_harness(int argc, char **argv);
void cmd_harness_usage(FILE *out);
int cmd_match(int argc, char **argv);
/* Files named by argv[first..]; directories are searched (sorted) for
 * names ending in suf1 or suf2. Free each string and the array. */
int cli_collect_files(char ***out, size_t *n, int argc, char **argv, int first, const char *suf1,
		      const char *suf2);

int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_diff(int argc, char **argv);
void cmd_diff_usage(FILE *out);
void cmd_bench_usage(FILE *out);
int cmd_json(int argc, char **argv);
void cmd_json_usage(FILE *out);
void cmd_replay_usage(FILE *out);
void cmd_match_usage(FILE *out);
int cmd_record(int argc, char **argv);
int cmd_botdiff(int argc, char **argv);
void cmd_botdiff_usage(FILE *out);
int cmd_refdiff(int argc, char **argv);
void cmd_refdiff_usage(FILE *out);
void cmd_record_usage(FILE *out);

int cmd_play(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
void cmd_selftest_usage(FILE *out);
int cmd_switch(int argc, char **argv);
int cmd_pregame(int argc, char **argv);
void cmd_pregame_usage(FILE *out);
void cmd_switch_usage(FILE *out);
/* Runs a Java runner of microsynth-harness.jar with the harness's class path; its exit status. */
int cli_run_java(const char *cmd, const char *main_class, const char *const *extra, int nextra, int headless);
int cmd_tournament(int argc, char **argv);
void cmd_tournament_usage(FILE *out);
int cmd_watch(int argc, char **argv);
int cmd_evaluate(int argc, char **argv);
int cmd_league(int argc, char **argv);
void cmd_league_usage(FILE *out);
int cmd_package(int argc, char **argv);
/* microsynth gdl play (cmd_gdl_play.c). */
int cmd_gdl_play(int argc, char **argv);
/* microsynth gdl serve (gdl_serve.c): a GGP player over HTTP. */
int cmd_gdl_serve(int argc, char **argv);
void cmd_gdl_serve_usage(FILE *out);
/* microsynth gdl features (cmd_gdl_features.c). */
int cmd_gdl_features(int argc, char **argv);
/* gdl_common.c: StatGUCT's statistics options, for features and play: 1 if
 * `opt` is one (value parsed), -1 if bad (reported), 0 if not. */
struct ms_gdl_stat_options;
int gdl_stat_option(struct ms_gdl_stat_options *o, const char *opt, const char *val);
void cmd_package_usage(FILE *out);
void cmd_evaluate_usage(FILE *out);
void cmd_watch_usage(FILE *out);
void cmd_play_usage(FILE *out);

int cmd_cantstop(int argc, char **argv);
void cmd_cantstop_usage(FILE *out);
int cmd_gdl(int argc, char **argv);
void cmd_gdl_usage(FILE *out);
int cmd_planetwars(int argc, char **argv);
void cmd_planetwars_usage(FILE *out);
int cmd_catan(int argc, char **argv);
void cmd_catan_usage(FILE *out);
int cmd_synth(int argc, char **argv);
/* microsynth bench synth (tools/microrts/cmd_bench_synth.c): argv[0] is "bench", argv[1] "synth". */
int cmd_bench_synth(int argc, char **argv);
void cmd_bench_synth_usage(FILE *out);
/* microsynth bench synth --mpi (tools/microrts/cmd_bench_mpi.c): one synthesis on 1, 2, 4 ... ranks. */
int cmd_bench_synth_mpi(int argc, char **argv);
int cmd_bench_field(int argc, char **argv);
/* microsynth bench fair (tools/microrts/cmd_bench_fair.c): engine and bots vs the jar, the JVM at its best. */
int cmd_bench_fair(int argc, char **argv);
void cmd_bench_fair_usage(FILE *out);
/* `java -cp <tools jar>:<harness jars> CLASS ARGS...` with stdout on the returned pipe (NULL after a message);
 * bench_java_close waits for it: 0 when the JVM exited cleanly. */
FILE *bench_java_open(const char *main_class, const char *const *extra, int nextra, pid_t *pid);
int bench_java_close(FILE *in, pid_t pid);
/* The map a trace belongs to, from its path: .../traces/<map path>/<bot>/trace_0.zip gives <map path>. */
void bench_trace_map(const char *path, char *out, size_t size);
void cmd_bench_field_usage(FILE *out);
void cmd_synth_usage(FILE *out);
int cmd_selfplay(int argc, char **argv);
void cmd_selfplay_usage(FILE *out);

int cmd_serve(int argc, char **argv);
void cmd_serve_usage(FILE *out);
/* microsynth view (tools/common/cmd_view.c): the browser view. */
int cmd_view(int argc, char **argv);
void cmd_view_usage(FILE *out);
/* microsynth bench bridge (tools/microrts/cmd_bench_bridge.c): argv[0] is "bench", argv[1] "bridge". */
int cmd_bench_bridge(int argc, char **argv);

int cmd_dsl(int argc, char **argv);
void cmd_dsl_usage(FILE *out);
/* microsynth bench dsl (tools/microrts/cmd_bench_dsl.c): argv[0] is "bench", argv[1] "dsl". */
int cmd_bench_dsl(int argc, char **argv);

#endif
