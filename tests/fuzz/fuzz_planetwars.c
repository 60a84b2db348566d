/* Fuzzes the Planet Wars state reader (maps and protocol states) and the
 * order reader, then plays a few turns of the forecasting bot and RageBot on
 * whatever loaded, through the view text and back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/planetwars.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	if (size > 65536 || ms_ctx_new(&ctx, NULL))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	ms_pw_order o;
	int go;
	ms_pw_order_parse(ctx, text, "fuzz", &o, &go);
	ms_pw_state *s = NULL;
	if (ms_pw_state_parse(ctx, &s, text, "fuzz") == MS_OK && ms_pw_num_planets(s) <= 64) {
		ms_pw_bot a, b;
		ms_pw_result r;
		size_t n = ms_pw_format_view(s, 2, NULL, 0);
		char *view = malloc(n + 1);
		ms_pw_format_view(s, 2, view, n + 1);
		view[n - 3] = 0;
		ms_pw_state *v = NULL;
		ms_pw_state_parse(ctx, &v, view, "view");
		ms_pw_state_free(v);
		free(view);
		if (ms_pw_bot_by_name(ctx, &a, "Forecast", 0) == MS_OK) {
			if (ms_pw_bot_by_name(ctx, &b, "RageBot", 0) == MS_OK) {
				ms_pw_play(ctx, s, &a, &b, 5, NULL, NULL, &r);
				ms_pw_bot_release(ctx, &b);
			}
			ms_pw_bot_release(ctx, &a);
		}
		ms_pw_state_free(s);
	}
	free(text);
	ms_ctx_free(ctx);
	return 0;
}
