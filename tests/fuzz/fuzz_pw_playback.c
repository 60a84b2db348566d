/* Fuzzes the Planet Wars playback reader: the first byte is the map's
 * planet count (0-15), the rest the playback's text; what reads with two
 * planets is checked turn by turn against a two-planet game. */
#include <stdint.h>
#include <string.h>

#include "microsynth/planetwars.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	if (size < 1 || size > 65536 || ms_ctx_new(&ctx, NULL))
		return 0;
	int np = data[0] & 15;
	ms_pw_playback *pb;
	if (ms_pw_playback_parse(ctx, &pb, (const char *)data + 1, size - 1, np, "fuzz") == MS_OK) {
		ms_pw_state *s;
		if (np == 2 && ms_pw_state_parse(ctx, &s, "P 0 0 1 40 5\nP 3 4 2 30 5\n", "map") == MS_OK) {
			char msg[256];
			for (int k = 0; k <= ms_pw_playback_turns(pb); k++) {
				ms_pw_step(s);
				if (ms_pw_playback_check(ctx, pb, k, s, msg, sizeof msg))
					break;
			}
			ms_pw_state_free(s);
		}
		ms_pw_playback_free(pb);
	}
	ms_ctx_free(ctx);
	return 0;
}
