/*
 * libFuzzer target: the Can't Stop DSL reader (printed form, spec 5.8) on
 * the searches' grammar and on the extended one (interpreted with the
 * ragged option). Whatever parses must print back to text that parses to
 * the same tree and prints identically, and then plays two matches against
 * GA through the interpreter (errors are fine, crashes and leaks are not).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microsynth/cantstop_dsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_round_trip(ms_ctx *ctx, const ms_cs_dsl *d, const ms_dsl_prog *p, int nt)
{
	ms_dsl_prog *q = NULL;
	char *a = NULL, *b = NULL;
	size_t la = 0;

	if (ms_dsl_print(p, &a, &la) || ms_dsl_prog_new(ctx, &q, ms_cs_dsl_grammar(d)))
		goto done;
	if (ms_cs_dsl_parse(d, q, a, la, nt, "printed") != MS_OK || !ms_dsl_equal(p, q))
		__builtin_trap();
	if (ms_dsl_print(q, &b, NULL) || strcmp(a, b) != 0)
		__builtin_trap();
done:
	ms_ctx_mfree(ctx, a);
	ms_ctx_mfree(ctx, b);
	ms_dsl_prog_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx = NULL;
	ms_cs_dsl *d[2] = { NULL, NULL };
	ms_cs_dsl_options ext = { .version = MS_CS_DSL_OPTIONS_VERSION,
					.constants = MS_CS_DSL_CONSTANTS_01, .extended = 1,
				.ragged = MS_CS_DSL_RAGGED_OBJECT };
	/* The first byte picks the non-terminal read (mostly whole programs). */
	int nt = size > 0 && data[0] < MS_CS_NT_COUNT ? data[0] : MS_CS_NT_START;

	if (size > 0 && data[0] < MS_CS_NT_COUNT)
		data++, size--;
	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_cs_dsl_new(ctx, &d[0], NULL) || ms_cs_dsl_new(ctx, &d[1], &ext))
		goto done;
	for (int g = 0; g < 2; g++) {
		ms_dsl_prog *p = NULL;
		ms_cs_dsl_runner *r = NULL;

		if (ms_dsl_prog_new(ctx, &p, ms_cs_dsl_grammar(d[g])))
			break;
		if (ms_cs_dsl_parse(d[g], p, (const char *)data, size, nt, "fuzz") == MS_OK) {
			check_round_trip(ctx, d[g], p, nt);
			if (nt == MS_CS_NT_START && ms_cs_dsl_runner_new(ctx, &r, d[g]) == MS_OK &&
			    ms_cs_dsl_runner_load(r, p) == MS_OK) {
				ms_cs_eval_result acc;

				memset(&acc, 0, sizeof(acc));
				ms_cs_dsl_evaluate(r, NULL, NULL, size, 0, 2, &acc);
			}
		}
		ms_cs_dsl_runner_free(r);
		ms_dsl_prog_free(p);
	}
done:
	ms_cs_dsl_free(d[0]);
	ms_cs_dsl_free(d[1]);
	ms_ctx_free(ctx);
	return 0;
}
