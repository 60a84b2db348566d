/* Reading recordings of official matches (format: tests/README.md), shared
 * by `microsynth diff` and `microsynth botdiff`. */
#ifndef MS_TOOLS_RECORDING_H
#define MS_TOOLS_RECORDING_H

#include <zlib.h>

#include "microsynth/buf.h"
#include "microsynth/microrts.h"

/* Reads one line of any length, without its newline; its length or -1 at end. */
long rec_read_line(gzFile f, ms_buf *b);

/* Appends an action as the recorder prints it: "T:P:UT", or "5:X:Y" for attacks. */
void rec_put_action(ms_buf *b, const ms_rts_action *a);

/* Parses one pair "id,type,owner,x,y,res,hp,ACTION"; -1 when malformed. */
int rec_parse_pair(const char *tok, ms_rts_pair *p);

/* Applies an "R NEXTID DAMAGE CONFLICT" line to the state; -1 when malformed. */
int rec_apply_r(ms_rts_state *s, const char *line);

/* Parses a "P PLAYER N PAIR..." line (modified in place) into pairs[player],
 * at most `max`; returns the player, or -1 when malformed. */
int rec_parse_p(char *line, ms_rts_pair *const pairs[2], int np[2], int max);

/* Issues one player's recorded pairs; after a divergence some units may be
 * missing, so pairs whose cell is empty are dropped rather than failing. */
int rec_issue(ms_ctx *ctx, ms_rts_state *s, ms_rts_pair *pairs, int n);

/* recording_files.c (the command-line program only). Gives each line of the recording at `path` (plain or gzip), without its
 * newline, to fn with its number in *lineno, until fn returns non-zero or
 * the file ends; fn's code, or CLI_USAGE (message named after `cmd`) when
 * the file cannot be opened. */
typedef int (*rec_line_fn)(void *user, char *line);
int rec_for_each_line(ms_ctx *ctx, const char *cmd, const char *path, int *lineno, rec_line_fn fn, void *user);

/* The recordings a command line names from argv[first] (folders searched for
 * *.rec.gz and *.rec), each given to `one` in turn with one context; the
 * codes combined (CLI_USAGE wins, else the first failure). */
typedef int (*rec_file_fn)(ms_ctx *ctx, const char *path, void *user);
int rec_for_each_file(int argc, char **argv, int first, rec_file_fn one, void *user);

#endif
