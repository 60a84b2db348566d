/* Whole matches decoded from bytes: the libFuzzer target fuzz_match and
 * `microsynth selftest matches` play the same sessions (match_session.c). */
#ifndef MS_TOOLS_MATCH_SESSION_H
#define MS_TOOLS_MATCH_SESSION_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_session_stats {
	long sessions, matches, cycles, decisions;
	long program_errors; /* a DSL program's decision failed as Java would throw (the match ends) */
	long bot_errors;     /* a native bot's decision failed on a legal state: a bug */
	char first_error[512];
} ms_session_stats;

/*
 * One session: a unit type table (versions 1-3, conflict policies 1-3), a
 * bot edition, two bots (a native bot or a random, maybe mutated, DSL
 * program against a native bot) that play 1-4 consecutive matches on
 * random legal maps (8x8 to 64x64, walls, up to 200 units) without being
 * rebuilt, reset between matches or not, fully or partially observable.
 * Bytes past the input come from a generator seeded with the input's hash.
 * Returns 0, or -1 when a native bot failed a decision (counted, message
 * in st->first_error when it is the first) or the session could not be
 * set up for lack of memory.
 */
int ms_session_play(const uint8_t *data, size_t size, ms_session_stats *st);

#endif
