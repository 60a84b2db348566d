/*
 * The edition of the official scripted bots (MS_PATH_EDITION_*) a command
 * plays its native bots as: `--edition 2022|2023`, else the edition of the
 * harness in use, read from its microrts.jar.
 */
#ifndef MS_TOOLS_EDITION_H
#define MS_TOOLS_EDITION_H

#include <stddef.h>

/* MS_PATH_EDITION_* for "2022" or "2023", -1 for anything else. */
int edition_parse(const char *s);

/* "2022" or "2023". */
const char *edition_name(int edition);

/*
 * The edition of the MicroRTS build in `jar` (a microrts.jar): 2023 when
 * AStarPathFinding has its runAStar method (the Nov 2023 rewrite) or when
 * LightRush.workersBehavior takes a GameState (the May 2023 rules that send
 * carrying and idle workers on); 2022 when the classes exist without either.
 * 0 and *edition, or -1 with a reason in `why` (unreadable jar, classes missing).
 */
int edition_of_jar(const char *jar, int *edition, char *why, size_t why_size);

/*
 * The edition of the harness in use (cli_harness_dir()/microrts.jar); 2022
 * when there is no harness or it cannot be read (the default the native
 * bots had before editions existed). `*detected` (may be NULL) receives 1
 * when the jar was read.
 */
int edition_of_harness(int *detected);

/*
 * Parses the value of `--edition` for command `cmd`: 0 and *edition, or
 * CLI_USAGE after printing the usage error.
 */
int edition_arg(const char *cmd, const char *value, int *edition);

#endif
