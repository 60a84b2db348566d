/* Can't Stop: helpers shared by the files of games/cantstop (not public). */
#ifndef MS_GAMES_CANTSTOP_INTERNAL_H
#define MS_GAMES_CANTSTOP_INTERNAL_H

#include "microsynth/cantstop.h"
#include "core/hash.h"

/* Column heights, indexed by column (0 and 1 unused). */
static const int8_t cs__height[MS_CS_COLUMNS] = { 0, 0, 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3 };

static inline int cs__valid_column(int c)
{
	return c >= MS_CS_FIRST_COLUMN && c <= MS_CS_LAST_COLUMN;
}

/* Neither finished nor claimed this turn. */
static inline int cs__open(const ms_cs_state *s, int c)
{
	return s->owner[c] == 0 && !((s->won >> c) & 1u);
}

static inline int cs__is_double(const ms_cs_move *m)
{
	return m->n == 2 && m->col[0] == m->col[1];
}

/* The state after `s` would stop now, without copying it: how many columns
 * the player would own (claims of this turn are distinct columns). */
static inline int cs__columns_after_stop(const ms_cs_state *s)
{
	unsigned w = s->won, k = 0;

	while (w) {
		w &= w - 1;
		k++;
	}
	return s->finished[s->player] + (int)k;
}

/* Lists column moves in[0..n) (n <= 12, repeats allowed) in the order a
 * CPython set built by inserting them lists them; returns the count. */
int cs__set_order(const ms_cs_move *in, int n, ms_cs_move *out);

/* Observes the decisions of a match (data-set recording). */
typedef struct cs__observer {
	/* Called before `m` is played on `before`; a negative return stops the match. */
	int (*decision)(ms_ctx *ctx, void *ud, const ms_cs_state *before, const ms_cs_move *m);
	/* Called when the player to move in `before` goes bust. */
	void (*bust)(void *ud, const ms_cs_state *before);
	void *ud;
} cs__observer;

/* The match loop on an initialised state. cap < 0: no cap. */
int cs__run_match(ms_ctx *ctx, ms_cs_state *s, const ms_cs_player *p1, const ms_cs_player *p2, ms_cs_rng *prng,
		  long cap, const cs__observer *obs, ms_cs_match_result *out);

/* One decision of `p` on `s`: its move, checked (index in range, answer valid). */
int cs__decide(ms_ctx *ctx, const ms_cs_player *p, const ms_cs_state *s, ms_cs_rng *prng, ms_cs_move *out);


#endif
