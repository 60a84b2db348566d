/* Fuzzes the Planet Wars GA's checkpoint reader: the first byte is the
 * expected population (1-8), the rest the file's text; what reads must
 * write and read back to the same population and random state. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "microsynth/planetwars.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	double pop[8 * MS_PW_FORECAST_PARAMS], back[8 * MS_PW_FORECAST_PARAMS];
	uint64_t rng[4], rb[4];
	int gen, gb, np;
	if (size < 1 || size > 65536 || ms_ctx_new(&ctx, NULL))
		return 0;
	np = 1 + (data[0] & 7);
	if (ms_pw_ga_checkpoint_parse(ctx, (const char *)data + 1, size - 1, "fuzz", np, &gen, pop, rng) == MS_OK) {
		char path[64];
		snprintf(path, sizeof path, "fuzz_pw_ga_checkpoint.%d", (int)getpid());
		if (ms_pw_ga_checkpoint_write(ctx, path, gen, np, pop, rng) == MS_OK) {
			if (ms_pw_ga_checkpoint_load(ctx, path, np, &gb, back, rb) != MS_OK || gb != gen ||
			    memcmp(pop, back, (size_t)np * MS_PW_FORECAST_PARAMS * sizeof *pop) || memcmp(rng, rb, sizeof rb))
				__builtin_trap();
			remove(path);
		}
	}
	ms_ctx_free(ctx);
	return 0;
}
