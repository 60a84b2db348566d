/*
 * The bot factory: specs to bots, above both the native scripted bots and
 * the DSL, so neither has to know the other (the bots' registry knows only
 * native bots; programs know only the DSL).
 */
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "core/internal.h"

int ms_bot_make(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	*out = NULL;
	if (!spec || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_make: no spec or no unit type table");
	if (!strncmp(spec, "switch:", 7) || !strncmp(spec, "switch-text:", 12))
		return ms_rts_switch_bot_from_spec(ctx, out, spec, utt, seed);
	if (!strncmp(spec, "program:", 8) || !strncmp(spec, "program-text:", 13))
		return ms_rts_dsl_bot_from_spec(ctx, out, spec, utt, seed);
	return ms_bot_new(ctx, out, spec, utt, seed);
}
