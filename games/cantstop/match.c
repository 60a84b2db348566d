/*
 * Can't Stop matches as the reference's evaluation plays them
 * (play_match_parallel), and win-rate evaluation (spec 7.1): match i has
 * the evaluated player first when i is even, and every match draws from its
 * own seed, so any split of the matches over threads gives the same totals.
 */
#include <string.h>

#include "cs_internal.h"
#include "core/hash.h"
#include "core/opts.h"

int cs__decide(ms_ctx *ctx, const ms_cs_player *p, const ms_cs_state *s, ms_cs_rng *prng, ms_cs_move *out)
{
	int rc;

	if (s->dice_action) {
		ms_cs_move acts[MS_CS_MAX_ACTIONS];
		int n = ms_cs_legal_actions(s, acts), choice = -1;

		if (n == 0)
			return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop: a column decision with no legal action "
						  "(the player is bust)") : MS_EINVAL;
		if ((rc = p->column(ctx, p->ud, s, acts, n, prng, &choice)) < 0)
			return rc;
		if (choice < 0 || choice >= n)
			return ctx ? ms_ctx_error(ctx, MS_ERANGE, "cantstop: player '%s' chose action %d of %d",
						  p->name ? p->name : "?", choice, n) : MS_ERANGE;
		*out = acts[choice];
	} else {
		int answer = 0;

		if ((rc = p->yes_no(ctx, p->ud, s, prng, &answer)) < 0)
			return rc;
		if (answer != MS_CS_MOVE_YES && answer != MS_CS_MOVE_NO)
			return ctx ? ms_ctx_error(ctx, MS_ERANGE, "cantstop: player '%s' answered %d to a yes/no "
						  "decision", p->name ? p->name : "?", answer) : MS_ERANGE;
		memset(out, 0, sizeof(*out));
		out->kind = (int8_t)answer;
	}
	return MS_OK;
}

int cs__run_match(ms_ctx *ctx, ms_cs_state *s, const ms_cs_player *p1, const ms_cs_player *p2, ms_cs_rng *prng,
		  long cap, const cs__observer *obs, ms_cs_match_result *out)
{
	ms_cs_match_result r = { 0, 0, 0, 0 };
	int rc;

	for (;;) {
		const ms_cs_player *p = s->player == 1 ? p1 : p2;
		ms_cs_move m;

		if (s->dice_action) {
			ms_cs_move acts[MS_CS_MAX_ACTIONS];
			int n = ms_cs_legal_actions(s, acts), choice = -1;

			/* Busts are not decisions: no count, no cap, no winner check. */
			if (n == 0) {
				if (obs && obs->bust)
					obs->bust(obs->ud, s);
				ms_cs_bust(s);
				r.busts++;
				continue;
			}
			if ((rc = p->column(ctx, p->ud, s, acts, n, prng, &choice)) < 0)
				return rc;
			if (choice < 0 || choice >= n)
				return ctx ? ms_ctx_error(ctx, MS_ERANGE, "cantstop: player '%s' chose action %d of %d",
							  p->name ? p->name : "?", choice, n) : MS_ERANGE;
			m = acts[choice];
			if (obs && (rc = obs->decision(ctx, obs->ud, s, &m)) < 0)
				return rc;
			ms_cs_advance(s, &m, 1);
		} else {
			int answer = 0;

			if ((rc = p->yes_no(ctx, p->ud, s, prng, &answer)) < 0)
				return rc;
			if (answer != MS_CS_MOVE_YES && answer != MS_CS_MOVE_NO)
				return ctx ? ms_ctx_error(ctx, MS_ERANGE, "cantstop: player '%s' answered %d to a "
							  "yes/no decision", p->name ? p->name : "?", answer)
					   : MS_ERANGE;
			if (obs) {
				memset(&m, 0, sizeof(m));
				m.kind = (int8_t)answer;
				if ((rc = obs->decision(ctx, obs->ud, s, &m)) < 0)
					return rc;
			}
			if (answer == MS_CS_MOVE_NO) {
				ms_cs_stop(s);
				r.turns++;
			} else {
				s->dice_action = 1;
			}
		}
		r.decisions++;
		if ((r.winner = ms_cs_winner(s)) != 0)
			break;
		if (cap >= 0 && r.decisions >= cap)
			break;
	}
	*out = r;
	return MS_OK;
}

uint64_t ms_cs_match_seed(uint64_t seed, uint64_t index)
{
	return ms_splitmix64_mix(ms_splitmix64_mix(seed) + (index + 1) * MS_SPLITMIX_GAMMA);
}

static int cs_check_options(ms_ctx *ctx, const ms_cs_match_options *opts, int *era, long *cap)
{
	*era = MS_CS_ERA_A;
	*cap = MS_CS_DEFAULT_MAX_DECISIONS;
	if (!opts)
		return MS_OK;
	if (opts->version != MS_CS_MATCH_OPTIONS_VERSION)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop match options: version %u, expected %d",
					  opts->version, MS_CS_MATCH_OPTIONS_VERSION) : MS_EINVAL;
	if (opts->era != MS_CS_ERA_A && opts->era != MS_CS_ERA_B)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop match options: unknown era %d", opts->era)
			   : MS_EINVAL;
	if (opts->max_decisions < -1)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop match options: max_decisions %d (0: 300, -1: "
					  "no cap)", opts->max_decisions) : MS_EINVAL;
	*era = opts->era;
	if (opts->max_decisions)
		*cap = opts->max_decisions;
	return MS_OK;
}

static int cs_check_player(ms_ctx *ctx, const ms_cs_player *p, const char *which)
{
	if (!p || !p->yes_no || !p->column)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop: player %s lacks a callback", which) : MS_EINVAL;
	return MS_OK;
}

/* One match from its seed, options already checked. */
static int cs_match(ms_ctx *ctx, int era, long cap, const ms_cs_player *p1, const ms_cs_player *p2,
		    uint64_t mseed, ms_cs_match_result *out)
{
	ms_cs_state s;
	ms_cs_rng prng;

	ms_cs_state_init(NULL, &s, era, mseed);
	ms_cs_rng_seed(&prng, ms_splitmix64_mix(mseed ^ UINT64_C(0x5851f42d4c957f2d)));
	return cs__run_match(ctx, &s, p1, p2, &prng, cap, NULL, out);
}

int ms_cs_play_match(ms_ctx *ctx, const ms_cs_match_options *opts, const ms_cs_player *p1,
		     const ms_cs_player *p2, uint64_t seed, ms_cs_match_result *out)
{
	int era, rc;
	long cap;

	if ((rc = cs_check_options(ctx, opts, &era, &cap)) || (rc = cs_check_player(ctx, p1, "1")) ||
	    (rc = cs_check_player(ctx, p2, "2")))
		return rc;
	return cs_match(ctx, era, cap, p1, p2, seed, out);
}

int ms_cs_evaluate(ms_ctx *ctx, const ms_cs_match_options *opts, const ms_cs_player *a, const ms_cs_player *b,
		   uint64_t seed, long first, long count, ms_cs_eval_result *acc)
{
	int era, rc;
	long cap;

	if ((rc = cs_check_options(ctx, opts, &era, &cap)) || (rc = cs_check_player(ctx, a, "A")) ||
	    (rc = cs_check_player(ctx, b, "B")))
		return rc;
	if (first < 0 || count < 0)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "cantstop evaluate: negative range %ld + %ld", first, count)
			   : MS_EINVAL;
	for (long i = first; i < first + count; i++) {
		int a_first = i % 2 == 0;
		ms_cs_match_result r;

		if ((rc = cs_match(ctx, era, cap, a_first ? a : b, a_first ? b : a, ms_cs_match_seed(seed, (uint64_t)i),
				   &r)))
			return rc;
		acc->matches++;
		acc->decisions += r.decisions;
		acc->busts += r.busts;
		if (!r.winner) {
			acc->draws++;
			continue;
		}
		if (r.winner == 1)
			acc->first_wins++;
		if ((r.winner == 1) == a_first)
			acc->wins_a++;
		else
			acc->wins_b++;
	}
	return MS_OK;
}

int ms_cs_match_options_init(ms_cs_match_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_CS_MATCH_OPTIONS_VERSION);
}
