/*
 * Programs as bots: ms_bot_ops over the interpreter, and the "program:FILE"
 * and "program-text:TEXT" names ms_bot_new hands over.
 */
#include <string.h>

#include "rts_dsl_internal.h"

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
		int64_t seed, const ms_rts_dsl_opts *opts)
{
	ms_bot *b;
	prog_bot *pb;
	int rc;

	*out = NULL;
	if (!utt) {
		ms_dsl_grammar_free(g);
		return ms_ctx_error(ctx, MS_EINVAL, "program bot: no unit type table");
	}
	b = ms_ctx_calloc(ctx, 1, sizeof(*b));
	pb = ms_ctx_calloc(ctx, 1, sizeof(*pb));
	if (!b || !pb) {
		ms_ctx_mfree(ctx, b);
		ms_ctx_mfree(ctx, pb);
		ms_dsl_grammar_free(g);
		return ms_ctx_error(ctx, MS_ENOMEM, "program bot: out of memory");
	}
	b->ops = &prog_ops;
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	b->impl = pb;
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

int ms_rts_dsl_bot_new_opts(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt, int64_t seed,
			    const ms_rts_dsl_opts *opts)
{
	return make(ctx, out, p, NULL, utt, seed, opts);
}

int ms_rts_dsl_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed)
{
	static const char file_prefix[] = "program:", text_prefix[] = "program-text:";
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;
	int rc;

	*out = NULL;
	if (!spec || (strncmp(spec, file_prefix, sizeof(file_prefix) - 1) &&
		      strncmp(spec, text_prefix, sizeof(text_prefix) - 1)))
		return ms_ctx_error(ctx, MS_ENOTFOUND, "\"%s\" names no program (program:FILE or program-text:TEXT)",
				    spec ? spec : "(null)");
	if ((rc = ms_rts_dsl_grammar_new(ctx, &g, 0)) || (rc = ms_dsl_prog_new(ctx, &p, g)))
		goto fail;
	if (!strncmp(spec, file_prefix, sizeof(file_prefix) - 1))
		rc = ms_rts_dsl_parse_file(p, spec + sizeof(file_prefix) - 1, 0);
	else
		rc = ms_rts_dsl_parse(p, "program text", spec + sizeof(text_prefix) - 1,
				      strlen(spec + sizeof(text_prefix) - 1), 0);
	if (rc)
		goto fail;
	rc = make(ctx, out, p, g, utt, seed, NULL);
	g = NULL; /* the bot owns it now, even on failure */
	ms_dsl_prog_free(p);
	return rc;
fail:
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	return rc;
}
