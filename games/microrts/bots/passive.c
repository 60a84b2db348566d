/* PassiveAI: every idle unit of the player gets NONE(10), in unit-list
 * order (PlayerAction.fillWithNones on an empty action). */
#include "bots_internal.h"

static int passive_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	const rts_unit *us = rts_cunits(s);
	int k = 0;

	for (int i = 0; i < s->n_units; i++) {
		if (us[i].u.player != player || us[i].slot >= 0)
			continue;
		if (k < max) {
			out[k].unit = us[i].u;
			out[k].action.type = MS_RTS_NONE;
			out[k].action.parameter = 10;
			out[k].action.x = out[k].action.y = -1;
			out[k].action.unit_type = -1;
		}
		k++;
	}
	*n = k;
	if (k > max)
		return ms_ctx_error(b->ctx, MS_ERANGE, "PassiveAI: %d pairs do not fit in %d", k, max);
	return MS_OK;
}

static int passive_reset(ms_bot *b)
{
	(void)b;
	return MS_OK;
}

static void passive_free(ms_bot *b)
{
	(void)b;
}

static const ms_bot_ops passive_ops = { "PassiveAI", "ai.PassiveAI", passive_reset, passive_decide, passive_free };

int bot_passive_new(ms_bot *b, const char *arg)
{
	b->ops = &passive_ops;
	return MS_OK;
}
