/* Fuzzes the DSL's token form, the wire format of programs between MPI
 * ranks (issue 27), on the MicroRTS grammar: the first byte picks the
 * non-terminal, the rest is the text. Whatever parses must print in token
 * form and parse back to the same tree; anything else is refused with a
 * message, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/rts_dsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL, *q = NULL;

	if (size < 1 || ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_dsl_grammar_new(ctx, &g, MS_RTS_DSL_GRAMMAR_NOT) || ms_dsl_prog_new(ctx, &p, g) ||
	    ms_dsl_prog_new(ctx, &q, g))
		goto done;
	int nt = data[0] % ms_dsl_nt_count(g);
	if (ms_dsl_parse_tokens(p, (const char *)data + 1, size - 1, ' ', nt) == 0) {
		char *text = NULL;
		size_t len = 0;
		if (ms_dsl_print_tokens(p, ' ', &text, &len))
			abort();
		if (ms_dsl_parse_tokens(q, text, len, ' ', ms_dsl_prog_nt(p)) || !ms_dsl_equal(p, q))
			abort(); /* what we send, the other rank reads */
		ms_ctx_mfree(ctx, text);
	} else if (!ms_ctx_last_error(ctx) || !*ms_ctx_last_error(ctx)) {
		abort(); /* a refusal says why */
	}
done:
	ms_dsl_prog_free(q);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
	return 0;
}
