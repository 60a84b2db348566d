/*
 * Programs as bots: ms_bot_ops over the interpreter, and the "program:FILE"
 * and "program-text:TEXT" names ms_bot_new hands over.
 */
#include <stdio.h>
#include <string.h>

#include "rts_dsl_internal.h"
#include "core/opts.h"

typedef struct prog_bot {
	ms_dsl_grammar *g; /* owned when the bot parsed the program itself */
	ms_rts_dsl_interp *it;
} prog_bot;

static int prog_reset(ms_bot *b)
{
	(void)b;
	return MS_OK; /* the interpreter keeps nothing between ticks */
}

static int prog_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	prog_bot *pb = b->impl;
	return ms_rts_dsl_decide(pb->it, player, s, out, max, n);
}

static void prog_free(ms_bot *b)
{
	prog_bot *pb = b->impl;

	if (!pb)
		return;
	ms_rts_dsl_interp_free(pb->it);
	ms_dsl_grammar_free(pb->g);
	ms_ctx_mfree(b->ctx, pb);
	b->impl = NULL;
}

static const ms_bot_ops prog_ops = {
	"Program", "ai.microsynth.Program", prog_reset, prog_decide, prog_free,
};

/* A bot around an interpreter of `p`; takes ownership of `g` (may be NULL). */
static int make(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, ms_dsl_grammar *g, const ms_rts_utt *utt,
		int64_t seed, const ms_rts_dsl_options *opts)
{
	ms_bot *b;
	prog_bot *pb;
	int rc;

	*out = NULL;
	if (!utt) {
		ms_dsl_grammar_free(g);
		return ms_ctx_error(ctx, MS_EINVAL, "program bot: no unit type table");
	}
	if ((rc = ms_bot_alloc(ctx, &b, &prog_ops, sizeof(*pb), utt, seed, "program bot"))) {
		ms_dsl_grammar_free(g);
		return rc;
	}
	pb = b->impl;
	pb->g = g;
	if ((rc = ms_rts_dsl_interp_new(ctx, &pb->it, p, seed, opts))) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

int ms_rts_dsl_bot_new(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt, int64_t seed)
{
	return make(ctx, out, p, NULL, utt, seed, NULL);
}

int ms_rts_dsl_bot_new_options(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt, int64_t seed,
			    const ms_rts_dsl_options *opts)
{
	return make(ctx, out, p, NULL, utt, seed, opts);
}

int ms_rts_dsl_bot_from_text(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
			     const ms_rts_utt *utt, int64_t seed)
{
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;
	int rc;

	*out = NULL;
	if (!text)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: no program text", what ? what : "program text");
	if ((rc = ms_rts_dsl_grammar_new(ctx, &g, 0)) || (rc = ms_dsl_prog_new(ctx, &p, g)) ||
	    (rc = ms_rts_dsl_parse(p, what ? what : "program text", text, len, 0))) {
		ms_dsl_prog_free(p);
		ms_dsl_grammar_free(g);
		return rc;
	}
	rc = make(ctx, out, p, g, utt, seed, NULL); /* the bot owns g now, even on failure */
	ms_dsl_prog_free(p);
	return rc;
}

int ms_rts_bot_from_spec_text(ms_ctx *ctx, ms_bot **out, const char *spec, const char *kind,
			      ms_rts_text_bot_fn build, const ms_rts_utt *utt, int64_t seed)
{
	size_t k = strlen(kind), len;
	char what[48], *text;
	int rc;

	*out = NULL;
	if (spec && !strncmp(spec, kind, k) && !strncmp(spec + k, "-text:", 6)) {
		snprintf(what, sizeof(what), "%s text", kind);
		return build(ctx, out, what, spec + k + 6, strlen(spec + k + 6), utt, seed);
	}
	if (!spec || strncmp(spec, kind, k) || spec[k] != ':')
		return ms_ctx_error(ctx, MS_ENOTFOUND, "\"%s\" names no %s (%s:FILE or %s-text:TEXT)", spec ? spec : "(null)",
				    kind, kind, kind);
	snprintf(what, sizeof(what), "%s file", kind);
	if ((rc = ms_read_text_file(ctx, &text, &len, spec + k + 1, what)))
		return rc;
	rc = build(ctx, out, spec + k + 1, text, len, utt, seed);
	ms_ctx_mfree(ctx, text);
	return rc;
}

int ms_rts_dsl_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	return ms_rts_bot_from_spec_text(ctx, out, spec, "program", ms_rts_dsl_bot_from_text, utt, seed);
}

int ms_rts_dsl_options_init(ms_rts_dsl_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_RTS_DSL_OPTIONS_VERSION);
}
