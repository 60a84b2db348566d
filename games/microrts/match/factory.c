/*
 * The bot factory: specs to bots, above both the native scripted bots and
 * the DSL, so neither has to know the other (the bots' registry knows only
 * native bots; programs know only the DSL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "core/internal.h"

/* "fail-at:N:SPEC": SPEC, failing every decision from cycle N on, so tests
 * can show what a failing opponent does to a match, a synthesis, a server. */
typedef struct fail_at {
	ms_bot *inner;
	long cycle;
	char spec[128];
} fail_at;

static int fail_at_reset(ms_bot *b)
{
	return ms_bot_reset(((fail_at *)b->impl)->inner);
}

static int fail_at_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	fail_at *f = b->impl;

	*n = 0;
	if (ms_rts_state_time(s) >= f->cycle)
		return ms_ctx_error(b->ctx, MS_ERROR, "fail-at:%ld:%s: failure injected at cycle %d", f->cycle, f->spec,
				    ms_rts_state_time(s));
	f->inner->edition = b->edition;
	f->inner->stochastic = b->stochastic;
	return ms_bot_decide(f->inner, player, s, out, max, n);
}

static void fail_at_free(ms_bot *b)
{
	fail_at *f = b->impl;
	if (!f)
		return;
	ms_bot_free(f->inner);
	ms_ctx_mfree(b->ctx, f);
	b->impl = NULL;
}

static const ms_bot_ops fail_at_ops = { "FailAt", "ai.microsynth.FailAt", fail_at_reset, fail_at_decide,
					fail_at_free };

static int make_fail_at(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	const char *rest = spec + 8, *colon;
	char *end;
	long cycle = strtol(rest, &end, 10);
	ms_bot *b;
	fail_at *f;
	int rc;

	if (end == rest || *end != ':' || cycle < 0 || !*(colon = end + 1))
		return ms_ctx_error(ctx, MS_EINVAL, "\"%s\": expected fail-at:CYCLE:SPEC", spec);
	b = ms_ctx_calloc(ctx, 1, sizeof(*b));
	f = ms_ctx_calloc(ctx, 1, sizeof(*f));
	if (!b || !f) {
		ms_ctx_mfree(ctx, b);
		ms_ctx_mfree(ctx, f);
		return ms_ctx_error(ctx, MS_ENOMEM, "fail-at: out of memory");
	}
	b->ops = &fail_at_ops;
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	b->impl = f;
	f->cycle = cycle;
	snprintf(f->spec, sizeof(f->spec), "%s", colon);
	if ((rc = ms_bot_make(ctx, &f->inner, colon, utt, seed))) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

int ms_bot_make(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	*out = NULL;
	if (!spec || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_make: no spec or no unit type table");
	if (!strncmp(spec, "fail-at:", 8))
		return make_fail_at(ctx, out, spec, utt, seed);
	if (!strncmp(spec, "switch:", 7) || !strncmp(spec, "switch-text:", 12))
		return ms_rts_switch_bot_from_spec(ctx, out, spec, utt, seed);
	if (!strncmp(spec, "portfolio:", 10) || !strncmp(spec, "portfolio-text:", 15))
		return ms_rts_portfolio_bot_from_spec(ctx, out, spec, utt, seed);
	if (!strncmp(spec, "program:", 8) || !strncmp(spec, "program-text:", 13))
		return ms_rts_dsl_bot_from_spec(ctx, out, spec, utt, seed);
	return ms_bot_new(ctx, out, spec, utt, seed);
}

int ms_bot_spec_native(const char *spec)
{
	static const char *const forms[] = { "program:", "program-text:", "switch:", "switch-text:", "portfolio:",
					     "portfolio-text:", "fail-at:" };
	if (!spec)
		return 0;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (!strncmp(spec, forms[i], strlen(forms[i])))
			return 1;
	return ms_bot_for_java_class(spec) != NULL;
}
