/* Fuzzes the text forms of opponent switches and portfolio bots: whatever
 * parses plays a few decisions of a small game for both players without
 * harm (a portfolio only with a small simulated-cycles slice, so an input
 * cannot ask for seconds of simulation per decision). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map[] =
	"<rts.PhysicalGameState width=\"6\" height=\"5\"><terrain>000000001000000000000100000000</terrain>"
	"<players><rts.Player ID=\"0\" resources=\"9\"/><rts.Player ID=\"1\" resources=\"6\"/></players><units>"
	"<u type=\"Resource\" ID=\"1\" player=\"-1\" x=\"0\" y=\"0\" resources=\"2\" hitpoints=\"1\"/>"
	"<u type=\"Base\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"10\"/>"
	"<u type=\"Worker\" ID=\"3\" player=\"0\" x=\"1\" y=\"0\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Base\" ID=\"4\" player=\"1\" x=\"4\" y=\"3\" resources=\"0\" hitpoints=\"10\"/>"
	"<u type=\"Worker\" ID=\"5\" player=\"1\" x=\"5\" y=\"3\" resources=\"0\" hitpoints=\"1\"/>"
	"</units></rts.PhysicalGameState>";

/* A portfolio plays only with a slice of at most 2000 simulated cycles and no wall-clock budget. */
static int cheap(const char *text)
{
	const char *at = strstr(text, "budget-cycles");
	long n;
	return at && sscanf(at + 13, "%ld", &n) == 1 && n > 0 && n <= 2000 && !strstr(text, "budget-ms");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;
	ms_bot *b[2] = { NULL, NULL };
	char *text = malloc(size + 1);

	if (!text || ms_ctx_new(&ctx, NULL)) {
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	if (ms_rts_utt_new(ctx, &utt, 2, 1) || ms_rts_state_from_map_xml(ctx, &s, utt, "map", map, sizeof(map) - 1, 1))
		goto done;
	for (int p = 0; p < 2; p++) {
		int rc = strstr(text, "microsynth-portfolio") ?
				 ms_rts_portfolio_bot_new(ctx, &b[p], "fuzz", text, size, utt, p) :
				 ms_rts_switch_bot_new(ctx, &b[p], "fuzz", text, size, utt, p);
		if (rc) {
			if (b[p] || !*ms_ctx_last_error(ctx))
				abort(); /* a refusal leaves no bot and says why */
			goto done;
		}
	}
	if (strstr(text, "microsynth-portfolio") && !cheap(text))
		goto done;
	for (int t = 0; t < 12 && !ms_rts_gameover(s); t++) {
		ms_rts_pair pairs[2][64];
		int n[2];
		for (int p = 0; p < 2; p++)
			if (ms_bot_decide(b[p], p, s, pairs[p], 64, &n[p]))
				n[p] = 0;
		for (int p = 0; p < 2; p++)
			if (n[p])
				ms_rts_issue_safe(ctx, s, pairs[p], n[p], NULL);
		ms_rts_cycle(ctx, s, NULL);
	}
done:
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	free(text);
	return 0;
}
