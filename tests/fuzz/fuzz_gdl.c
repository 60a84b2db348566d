/*
 * libFuzzer target: the KIF parser and the checks, then, for rule sets that
 * load, a few plies from the initial state (legal moves, next, goals), with a
 * small grounding bound so the first-order fallback is fuzzed as well.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "microsynth/gdl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx = NULL;
	ms_gdl *g = NULL;
	ms_gdl_machine *m = NULL;
	if (size > 65536 || ms_ctx_new(&ctx, NULL))
		return 0;
	ms_gdl_options o = { .version = MS_GDL_OPTIONS_VERSION, .ground_bound = 2000,
			     .relax_bound = 200000,
			     .force_fallback = size > 0 && (data[0] & 1) };
	if (ms_gdl_parse(ctx, &g, (const char *)data, size, "fuzz.kif", &o) == MS_OK &&
	    ms_gdl_num_fluents(g) < 100000 && ms_gdl_machine_new(ctx, &m, g) == MS_OK) {
		size_t w = ms_gdl_state_words(g);
		uint64_t *st = calloc(w, sizeof *st), *nx = calloc(w, sizeof *nx);
		int joint[64], nr = ms_gdl_num_roles(g);
		if (st && nx && nr <= 64) {
			ms_gdl_initial(g, st);
			for (int ply = 0; ply < 4 && ms_gdl_machine_set(m, st) == MS_OK; ply++) {
				int ok = 1, v;
				for (int r = 0; r < nr; r++) {
					const int *mv;
					int n = ms_gdl_legal(m, r, &mv);
					ms_gdl_goal(m, r, &v);
					ok &= n > 0;
					joint[r] = n > 0 ? mv[ply % n] : -1;
				}
				if (!ok || ms_gdl_next(m, joint, nx) != MS_OK)
					break;
				uint64_t *t = st;
				st = nx;
				nx = t;
			}
		}
		free(st);
		free(nx);
	}
	ms_gdl_machine_free(m);
	ms_gdl_free(g);
	ms_ctx_free(ctx);
	return 0;
}
