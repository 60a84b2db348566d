/*
 * microsynth selftest matches: plays N sessions of whole matches
 * (match_session.c, the sessions the fuzz target fuzz_match plays) from
 * byte strings drawn from a seed, and reports what failed. Without the
 * fuzzer's sanitizers it finds failed decisions and crashes; under an ASan
 * build it finds what fuzz_match finds, reproducibly from a seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/jrandom.h"
#include "cli.h"
#include "match_session.h"

void cmd_selftest_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth selftest matches [--count N] [--matches M] [--seed S] [--bytes B]\n"
		     "  Plays N sessions (default 100), or sessions until M matches were played, of 1-4 whole\n"
		     "  matches each between the same two bots\n"
		     "  (native bots, random DSL programs) on random legal maps, tables 1-3, policies 1-3,\n"
		     "  both editions; each session from B random bytes (default 2048) drawn from seed S.\n"
		     "  Ends with: sessions= matches= cycles= decisions= program_errors= bot_errors= seconds=\n"
		     "  Exit 1 when a native bot failed a decision (the first failure is printed).\n");
}

int cmd_selftest(int argc, char **argv)
{
	long count = 100, seed = 1, bytes = 2048, matches = 0;
	ms_session_stats st;
	ms_jrandom rng;
	uint8_t *buf;
	double t0 = cli_now();
	long failed = -1;

	if (argc < 2 || strcmp(argv[1], "matches"))
		return cli_usage_error("selftest", "expected the subcommand `matches`");
	for (int i = 2; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long *dst = !strcmp(argv[i], "--count") ? &count
			    : !strcmp(argv[i], "--seed") ? &seed
			    : !strcmp(argv[i], "--bytes") ? &bytes
			    : !strcmp(argv[i], "--matches") ? &matches
							    : NULL;
		if (!dst)
			return cli_usage_error("selftest", "unknown option %s", argv[i]);
		if (!v)
			return cli_usage_error("selftest", "%s needs a value", argv[i]);
		if (cli_parse_int("selftest", argv[i], v, dst == &bytes ? 1 : 0, dst == &bytes ? 1 << 20 : 2147483647L,
				  dst))
			return CLI_USAGE;
	}
	if (!(buf = malloc((size_t)bytes))) {
		fprintf(stderr, "selftest: out of memory\n");
		return CLI_FAIL;
	}
	memset(&st, 0, sizeof(st));
	ms_jrandom_init(&rng, seed);
	for (long k = 0; matches ? st.matches < matches : k < count; k++) {
		ms_jrandom_next_bytes(&rng, buf, (size_t)bytes);
		if (ms_session_play(buf, (size_t)bytes, &st) && failed < 0) {
			failed = k;
			fprintf(stderr, "selftest: session %ld of seed %ld: %s\n", k, seed, st.first_error);
		}
	}
	free(buf);
	printf("sessions=%ld matches=%ld cycles=%ld decisions=%ld program_errors=%ld bot_errors=%ld seconds=%.1f\n",
	       st.sessions, st.matches, st.cycles, st.decisions, st.program_errors, st.bot_errors, cli_now() - t0);
	return st.bot_errors ? CLI_FAIL : CLI_OK;
}
