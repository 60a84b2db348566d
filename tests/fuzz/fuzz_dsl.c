/* Fuzzes the MicroRTS DSL parser (every text form, every flag): whatever
 * parses must print in every form and parse back to the same Java text (the
 * salve form to the same tree), and, when it has no holes, decide a few
 * ticks of a small game for both players without harm. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/rts_dsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map[] =
	"<rts.PhysicalGameState width=\"6\" height=\"5\"><terrain>000000001000000000000100000000</terrain>"
	"<players><rts.Player ID=\"0\" resources=\"9\"/><rts.Player ID=\"1\" resources=\"6\"/></players><units>"
	"<u type=\"Resource\" ID=\"1\" player=\"-1\" x=\"0\" y=\"0\" resources=\"2\" hitpoints=\"1\"/>"
	"<u type=\"Base\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"10\"/>"
	"<u type=\"Worker\" ID=\"3\" player=\"0\" x=\"1\" y=\"0\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Worker\" ID=\"4\" player=\"0\" x=\"0\" y=\"1\" resources=\"1\" hitpoints=\"1\"/>"
	"<u type=\"Barracks\" ID=\"5\" player=\"1\" x=\"4\" y=\"3\" resources=\"0\" hitpoints=\"4\"/>"
	"<u type=\"Ranged\" ID=\"6\" player=\"1\" x=\"3\" y=\"2\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Light\" ID=\"7\" player=\"1\" x=\"2\" y=\"1\" resources=\"0\" hitpoints=\"4\"/>"
	"<u type=\"Heavy\" ID=\"8\" player=\"0\" x=\"5\" y=\"4\" resources=\"0\" hitpoints=\"8\"/>"
	"</units></rts.PhysicalGameState>";

/* Prints p in `form`, parses it into q and returns q's Java text (or NULL). */
static char *again(ms_ctx *ctx, ms_dsl_prog *p, ms_dsl_prog *q, int form, unsigned flags)
{
	char *s = NULL, *java = NULL;

	if (ms_rts_dsl_print(p, form, &s, NULL))
		abort();
	if (ms_rts_dsl_parse(q, "again", s, strlen(s), flags))
		abort(); /* what we print, we read */
	if (form == MS_RTS_DSL_FORM_SALVE && !ms_dsl_equal(p, q))
		abort();
	if (ms_rts_dsl_print(q, MS_RTS_DSL_FORM_JAVA, &java, NULL))
		abort();
	ms_ctx_mfree(ctx, s);
	return java;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned flag_sets[2] = { 0, MS_RTS_DSL_PARSE_NOT | MS_RTS_DSL_PARSE_HOLES | MS_RTS_DSL_PARSE_UNBOUND };
	ms_ctx *ctx;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL, *q = NULL;
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_rts_dsl_grammar_new(ctx, &g, MS_RTS_DSL_GRAMMAR_NOT) || ms_dsl_prog_new(ctx, &p, g) ||
	    ms_dsl_prog_new(ctx, &q, g) || ms_rts_utt_new(ctx, &utt, 2, 1) ||
	    ms_rts_state_from_map_xml(ctx, &s, utt, "map", map, sizeof(map) - 1, 1))
		goto done;
	for (int k = 0; k < 2; k++) {
		char *java = NULL;
		if (ms_rts_dsl_parse(p, "fuzz", (const char *)data, size, flag_sets[k]))
			continue;
		if (ms_rts_dsl_print(p, MS_RTS_DSL_FORM_JAVA, &java, NULL))
			abort();
		for (int form = 0; form < 3; form++) {
			char *back = again(ctx, p, q, form, flag_sets[1]);
			if (strcmp(back, java))
				abort();
			ms_ctx_mfree(ctx, back);
		}
		ms_ctx_mfree(ctx, java);
		if (ms_dsl_hole_count(p) == 0) {
			ms_rts_dsl_interp *it;
			ms_rts_pair pairs[64];
			if (ms_rts_dsl_interp_new(ctx, &it, p, 5, NULL) == MS_OK) {
				for (int t = 0; t < 20; t++) {
					for (int pl = 0; pl < 2; pl++) {
						int n, rc = ms_rts_dsl_decide(it, pl, s, pairs, 64, &n);
						if (rc && rc != MS_EILLEGAL)
							abort();
						if (k == 0 && rc)
							abort(); /* bound programs never hit the unset u */
						if (rc == MS_OK && n)
							ms_rts_issue_safe(ctx, s, pairs, n, NULL);
					}
					ms_rts_cycle(ctx, s, NULL);
				}
				ms_rts_dsl_interp_free(it);
			}
		}
	}
done:
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_dsl_prog_free(q);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
	return 0;
}
