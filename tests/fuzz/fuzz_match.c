/* Whole matches from fuzzed bytes (issue 22): two bots, kept for 1-4
 * consecutive matches on random legal maps, any table, policy and edition
 * (tools/microrts/match_session.c). Memory errors stop the run through the
 * sanitizers; a native bot that fails a decision on a legal state does too. */
#include <stdio.h>
#include <stdlib.h>

#include "match_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_session_stats st = { 0 };

	if (ms_session_play(data, size, &st)) {
		fprintf(stderr, "fuzz_match: %s\n", st.first_error);
		__builtin_trap();
	}
	return 0;
}
