/* The bot registry: native bots by name, and the generic entry points. */
#include <string.h>
#include <strings.h>

#include "bots_internal.h"

static const char *const names[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush", "PassiveAI", "RandomBiasedAI",
				     "RandomAI", NULL };
static const char *const java[] = { "ai.abstraction.WorkerRush", "ai.abstraction.LightRush",
				    "ai.abstraction.HeavyRush", "ai.abstraction.RangedRush", "ai.PassiveAI",
				    "ai.RandomBiasedAI", "ai.RandomAI", NULL };

const char *const *ms_bot_names(void)
{
	return names;
}

/* Index in names[] of a short or Java name, or -1. */
static int lookup(const char *name)
{
	const char *dot = strrchr(name, '.');
	const char *simple = dot ? dot + 1 : name;

	for (int i = 0; names[i]; i++)
		if (!strcasecmp(simple, names[i]) || !strcmp(name, java[i]))
			return i;
	return -1;
}

const char *ms_bot_for_java_class(const char *java_class)
{
	int i = java_class ? lookup(java_class) : -1;
	return i < 0 ? NULL : names[i];
}

int ms_bot_new(ms_ctx *ctx, ms_bot **out, const char *name, const ms_rts_utt *utt, int64_t seed)
{
	ms_bot *b;
	int i, rc;

	*out = NULL;
	if (!name || !utt)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_bot_new: no name or no unit type table");
	if ((i = lookup(name)) < 0)
		return ms_ctx_error(ctx, MS_ENOTFOUND, "no native bot called \"%s\"", name);
	if (!(b = ms_ctx_calloc(ctx, 1, sizeof(*b))))
		return ms_ctx_error(ctx, MS_ENOMEM, "ms_bot_new: out of memory");
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	switch (i) {
	case 0:
		rc = bot_rush_new(b, NULL);
		break;
	case 1:
		rc = bot_rush_new(b, "Light");
		break;
	case 2:
		rc = bot_rush_new(b, "Heavy");
		break;
	case 3:
		rc = bot_rush_new(b, "Ranged");
		break;
	case 4:
		rc = bot_passive_new(b);
		break;
	case 5:
		rc = bot_random_biased_new(b);
		break;
	default:
		rc = bot_random_new(b);
		break;
	}
	if (rc) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

void ms_bot_free(ms_bot *b)
{
	if (!b)
		return;
	if (b->ops && b->ops->free)
		b->ops->free(b);
	ms_ctx_mfree(b->ctx, b);
}

int ms_bot_reset(ms_bot *b)
{
	return b->ops->reset(b);
}

int ms_bot_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	return b->ops->decide(b, player, s, out, max, n);
}
