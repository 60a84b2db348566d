/*
 * The bot factory: specs to bots, above both the native scripted bots and
 * the DSL, so neither has to know the other (the bots' registry knows only
 * native bots; programs know only the DSL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/spec.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "core/internal.h"
#include "games/microrts/bots/bot_rows.h"

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
	if ((rc = ms_bot_alloc(ctx, &b, &fail_at_ops, sizeof(*f), utt, seed, "fail-at")))
		return rc;
	f = b->impl;
	f->cycle = cycle;
	snprintf(f->spec, sizeof(f->spec), "%s", colon);
	if ((rc = ms_bot_make(ctx, &f->inner, colon, utt, seed))) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

/* A native bot (the rows of bots/bot_rows.h), by the registry's constructor. */
static int make_native(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	return ms_bot_new(ctx, out, spec, utt, seed);
}

/* The agent table (microsynth/spec.h): the native bots, then the forms with an argument. */
#define RTS_NATIVE_ROW(name, java, make, arg, unseeded) { { name, MS_SPEC_NONE, NULL, "reproduces " java }, make_native },
static const ms_rts_agent_row rts_agents[] = {
	BOT_ROWS(RTS_NATIVE_ROW)
	{ { "fail-at", MS_SPEC_NEEDED, "fail-at:N:SPEC", "SPEC failing every decision from cycle N on (fault injection)" },
	  make_fail_at },
	{ { "switch", MS_SPEC_NEEDED, "switch:FILE", "an opponent switch (docs/switch.md)" }, ms_rts_switch_bot_from_spec },
	{ { "switch-text", MS_SPEC_NEEDED, "switch-text:TEXT", "an opponent switch's text" }, ms_rts_switch_bot_from_spec },
	{ { "portfolio", MS_SPEC_NEEDED, "portfolio:FILE", "a portfolio bot (docs/portfolio.md)" },
	  ms_rts_portfolio_bot_from_spec },
	{ { "portfolio-text", MS_SPEC_NEEDED, "portfolio-text:TEXT", "a portfolio bot's text" },
	  ms_rts_portfolio_bot_from_spec },
	{ { "program", MS_SPEC_NEEDED, "program:FILE", "a DSL program (rts_dsl.h)" }, ms_rts_dsl_bot_from_spec },
	{ { "program-text", MS_SPEC_NEEDED, "program-text:TEXT", "a DSL program's text" }, ms_rts_dsl_bot_from_spec },
};
#define RTS_NATIVE_ONE(name, java, make, arg, unseeded) +1
enum { RTS_N_AGENTS = (int)(sizeof rts_agents / sizeof rts_agents[0]), RTS_N_NATIVE = 0 BOT_ROWS(RTS_NATIVE_ONE) };

const ms_rts_agent_row *ms_rts_agents(int *n, int *n_native)
{
	*n = RTS_N_AGENTS;
	if (n_native)
		*n_native = RTS_N_NATIVE;
	return rts_agents;
}

static int bot_form_of(const char *spec, const char **arg)
{
	return ms_spec_find(rts_agents, RTS_N_AGENTS, sizeof rts_agents[0], spec, arg);
}

int ms_bot_make(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	const char *arg;
	int form;

	*out = NULL;
	if (!spec || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_make: no spec or no unit type table");
	/* the makers read the whole spec (their messages quote it); other names (a
	 * Java class, another case) are the registry's to find or refuse */
	if ((form = bot_form_of(spec, &arg)) >= 0)
		return rts_agents[form].make(ctx, out, spec, utt, seed);
	return ms_bot_new(ctx, out, spec, utt, seed);
}

const char *ms_bot_spec_form(const char *spec, const char **arg)
{
	int form = spec ? bot_form_of(spec, arg) : -1;
	if (form < 0)
		*arg = NULL;
	return form >= 0 ? rts_agents[form].form.name : NULL;
}

int ms_bot_spec_native(const char *spec)
{
	const char *arg;
	if (!spec)
		return 0;
	return bot_form_of(spec, &arg) >= 0 || ms_bot_for_java_class(spec) != NULL;
}
