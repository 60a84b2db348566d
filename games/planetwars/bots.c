/*
 * The starter package's example bots, written from what they do (the
 * package's descriptions and the official playbacks), and RandomBot.
 *
 * Each reads only its view and decides as the Java originals do, including
 * their quirks, because the playbacks were made by them:
 *  - "strongest" and "weakest" are strict maxima from Double.MIN_VALUE (the
 *    smallest positive double), so a source needs ships > 0 and the first
 *    planet in id order wins ties;
 *  - half of a planet is integer division, so a planet of one ship sends an
 *    empty fleet, which still counts as a fleet in flight;
 *  - a target score (1 + growth) / ships is +infinity for an empty planet.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/planetwars/pw_internal.h"
#include "microsynth/jrandom.h"
#include "microsynth/spec.h"

static int my_fleets(const ms_pw_state *v)
{
	int n = 0;
	for (int i = 0; i < v->nf; i++)
		n += v->fleets[i].owner == 1;
	return n;
}

/* The first of my planets with the largest ships / (1 + growth) (or ships), ships > 0. */
static int strongest(const ms_pw_state *v, int by_growth)
{
	int best = -1;
	double bs = 4.9e-324; /* Double.MIN_VALUE */
	for (int i = 0; i < v->np; i++) {
		const ms_pw_planet *p = &v->planets[i];
		if (p->owner != 1)
			continue;
		double sc = by_growth ? (double)p->ships / (1 + p->growth) : (double)p->ships;
		if (sc > bs) {
			bs = sc;
			best = i;
		}
	}
	return best;
}

/* The first target with the largest (1 + growth) / ships; enemy_only: owner 2. */
static int weakest_by_growth(const ms_pw_state *v, int enemy_only)
{
	int best = -1;
	double bs = 4.9e-324;
	for (int i = 0; i < v->np; i++) {
		const ms_pw_planet *p = &v->planets[i];
		if (enemy_only ? p->owner < 2 : p->owner == 1)
			continue;
		double sc = p->ships == 0 ? INFINITY : (double)(1 + p->growth) / p->ships;
		if (sc > bs) {
			bs = sc;
			best = i;
		}
	}
	return best;
}

static int bully_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	if (my_fleets(v) >= 1)
		return MS_OK;
	int src = strongest(v, 0), dst = -1;
	double bs = 4.9e-324;
	for (int i = 0; i < v->np; i++) {
		if (v->planets[i].owner == 1)
			continue;
		double sc = 1.0 / (1 + v->planets[i].ships);
		if (sc > bs) {
			bs = sc;
			dst = i;
		}
	}
	if (src >= 0 && dst >= 0)
		return ms_pw_orders_add(out, src, dst, v->planets[src].ships / 2);
	return MS_OK;
}

static int prospector_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	if (my_fleets(v) >= 1)
		return MS_OK;
	int src = strongest(v, 1), dst = weakest_by_growth(v, 0);
	if (src >= 0 && dst >= 0)
		return ms_pw_orders_add(out, src, dst, v->planets[src].ships / 2);
	return MS_OK;
}

/* Prospector's choices with a fleet budget and an attack mode set by who leads in ships and production. */
static int dual_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	int budget, attack = 0;
	int ships_ahead = ms_pw_ships(v, 1) > ms_pw_ships(v, 2);
	int prod_ahead = ms_pw_production(v, 1) > ms_pw_production(v, 2);
	if (ships_ahead) {
		budget = prod_ahead ? 1 : 3;
		attack = prod_ahead;
	} else {
		budget = prod_ahead ? 1 : 5;
	}
	if (my_fleets(v) >= budget)
		return MS_OK;
	int src = strongest(v, 1), dst = weakest_by_growth(v, attack);
	if (src >= 0 && dst >= 0)
		return ms_pw_orders_add(out, src, dst, v->planets[src].ships / 2);
	return MS_OK;
}

/* Every planet holding at least ten turns of growth sends everything to the nearest enemy planet. */
static int rage_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	for (int s = 0; s < v->np; s++) {
		const ms_pw_planet *p = &v->planets[s];
		if (p->owner != 1 || p->ships < 10 * p->growth)
			continue;
		int dst = -1, bd = 999999;
		for (int i = 0; i < v->np; i++) {
			if (v->planets[i].owner < 2)
				continue;
			int d = pw_dist(v, s, i);
			if (d < bd) {
				bd = d;
				dst = i;
			}
		}
		if (dst >= 0) {
			int rc = ms_pw_orders_add(out, s, dst, p->ships);
			if (rc)
				return rc;
		}
	}
	return MS_OK;
}

/*
 * RandomBot: with no fleet in flight, half of a random planet of mine to a
 * random planet. The Java original may draw its own source as destination,
 * which the specification forfeits; ours draws among the other planets.
 */
static int random_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	ms_jrandom *r = ud;
	if (my_fleets(v) >= 1 || v->np < 2)
		return MS_OK;
	int mine[1024], n = 0;
	for (int i = 0; i < v->np && n < 1024; i++)
		if (v->planets[i].owner == 1)
			mine[n++] = i;
	if (n == 0)
		return MS_OK;
	int32_t a, b;
	ms_jrandom_next_int_bounded(r, n, &a);
	ms_jrandom_next_int_bounded(r, v->np - 1, &b);
	int src = mine[a], dst = b >= src ? b + 1 : b;
	return ms_pw_orders_add(out, src, dst, v->planets[src].ships / 2);
}

static void random_release(ms_ctx *ctx, void *ud)
{
	ms_ctx_mfree(ctx, ud);
}

/* The makers of the agent table's rows, from the whole spec, its argument and a seed; the example bots
 * hold nothing and draw nothing. */
#define PW_FIXED_MAKER(fn, bot, turn_fn)                                                             \
	static int fn(ms_ctx *ctx, ms_pw_bot *out, const char *spec, const char *arg, uint64_t seed) \
	{                                                                                            \
		(void)ctx, (void)spec, (void)arg, (void)seed;                                        \
		*out = (ms_pw_bot){ bot, NULL, turn_fn, NULL };                                      \
		return MS_OK;                                                                        \
	}
PW_FIXED_MAKER(make_bully, "BullyBot", bully_turn)
PW_FIXED_MAKER(make_dual, "DualBot", dual_turn)
PW_FIXED_MAKER(make_prospector, "ProspectorBot", prospector_turn)
PW_FIXED_MAKER(make_rage, "RageBot", rage_turn)

static int make_random(ms_ctx *ctx, ms_pw_bot *out, const char *spec, const char *arg, uint64_t seed)
{
	ms_jrandom *r = ms_ctx_malloc(ctx, sizeof *r);
	(void)spec, (void)arg;
	if (!r)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	ms_jrandom_init(r, (int64_t)seed);
	*out = (ms_pw_bot){ "RandomBot", r, random_turn, random_release };
	return MS_OK;
}

/* Forecast: the hand-weighted original; Forecast:FILE: 32 parameters from a file. */
static int make_forecast(ms_ctx *ctx, ms_pw_bot *out, const char *spec, const char *arg, uint64_t seed)
{
	double p[MS_PW_FORECAST_PARAMS];
	int rc;
	(void)spec, (void)seed;
	if (!arg)
		return pw_forecast_new(ctx, out, ms_pw_forecast_original());
	if ((rc = ms_pw_forecast_load(ctx, arg, p)))
		return rc;
	return ms_pw_bot_forecast(ctx, out, p);
}

static int make_program(ms_ctx *ctx, ms_pw_bot *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)spec, (void)seed;
	return pw_program_file_bot(ctx, out, arg);
}

/* The agent table (microsynth/spec.h): the named bots first (ms_pw_bot_names, and the list an unknown
 * name is answered with), then the forms with a file. */
#define PW_NAMED(X)                                                                                            \
	X("BullyBot", MS_SPEC_NONE, make_bully, "the starter package's BullyBot")                              \
	X("DualBot", MS_SPEC_NONE, make_dual, "the starter package's DualBot")                                 \
	X("ProspectorBot", MS_SPEC_NONE, make_prospector, "the starter package's ProspectorBot")               \
	X("RageBot", MS_SPEC_NONE, make_rage, "the starter package's RageBot")                                 \
	X("RandomBot", MS_SPEC_NONE, make_random, "random orders, seeded")                                     \
	X("Forecast", MS_SPEC_OPTIONAL, make_forecast, "the forecasting bot (Forecast:FILE: 32 parameters)")

#define PW_ROW(name, arg, make, help) { { name, arg, NULL, help }, make },
#define PW_NAME(name, arg, make, help) name,
static const ms_pw_agent_row pw_agents[] = {
	PW_NAMED(PW_ROW){ { "program", MS_SPEC_NEEDED, "program:FILE", "a gain program (planetwars DSL)" }, make_program },
};
static const char *const bot_names[] = { PW_NAMED(PW_NAME) NULL };
enum { PW_N_AGENTS = (int)(sizeof pw_agents / sizeof pw_agents[0]), PW_N_NAMED = PW_N_AGENTS - 1 };

const ms_pw_agent_row *ms_pw_agents(int *n)
{
	*n = PW_N_AGENTS;
	return pw_agents;
}

const char *const *ms_pw_bot_names(void)
{
	return bot_names;
}

/* An unknown spec, answered with the named bots. */
static int unknown_bot(ms_ctx *ctx, const char *spec)
{
	char list[160];
	ms_spec_list(list, sizeof list, pw_agents, PW_N_NAMED, sizeof pw_agents[0], ", ", NULL);
	return ms_ctx_error(ctx, MS_ENOTFOUND, "unknown Planet Wars bot '%s' (%s)", spec, list);
}

int ms_pw_bot_make(ms_ctx *ctx, ms_pw_bot *out, const char *spec, uint64_t seed)
{
	const char *arg;
	int i = ms_spec_find(pw_agents, PW_N_AGENTS, sizeof pw_agents[0], spec, &arg);

	memset(out, 0, sizeof *out);
	return i >= 0 ? pw_agents[i].make(ctx, out, spec, arg, seed) : unknown_bot(ctx, spec);
}

int ms_pw_bot_by_name(ms_ctx *ctx, ms_pw_bot *out, const char *name, uint64_t seed)
{
	memset(out, 0, sizeof *out);
	/* a name only: the forms with a file are ms_pw_bot_make's */
	return strchr(name, ':') ? unknown_bot(ctx, name) : ms_pw_bot_make(ctx, out, name, seed);
}

void ms_pw_bot_release(ms_ctx *ctx, ms_pw_bot *bot)
{
	if (bot && bot->release)
		bot->release(ctx, bot->ud);
	if (bot)
		memset(bot, 0, sizeof *bot);
}

/* ---- matches ---- */

int ms_pw_play(ms_ctx *ctx, const ms_pw_state *map, const ms_pw_bot *p1, const ms_pw_bot *p2, int max_turns,
	       ms_pw_observer obs, void *obs_ud, ms_pw_result *out)
{
	memset(out, 0, sizeof *out);
	ms_pw_state *s = NULL, *view[2] = { NULL, NULL };
	ms_pw_orders *ord[2] = { NULL, NULL };
	int rc = ms_pw_state_clone(ctx, &s, map);
	if (!rc)
		rc = ms_pw_orders_new(ctx, &ord[0]);
	if (!rc)
		rc = ms_pw_orders_new(ctx, &ord[1]);
	const ms_pw_bot *bots[2] = { p1, p2 };
	char reason[256] = "";
	int w = rc ? 0 : ms_pw_winner(s, max_turns);
	while (!rc && w < 0) {
		for (int k = 0; k < 2 && !rc; k++) {
			ms_pw_orders_clear(ord[k]);
			if (!(rc = ms_pw_make_view(ctx, s, k + 1, &view[k])))
				rc = bots[k]->turn(ctx, bots[k]->ud, view[k], ord[k]);
		}
		if (rc)
			break;
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < ord[k]->n; i++) {
				const ms_pw_order *o = &ord[k]->v[i];
				if (ms_pw_issue(ctx, s, k + 1, o->source, o->dest, o->ships)) {
					if (ms_ctx_last_status(ctx) == MS_ENOMEM) {
						rc = MS_ENOMEM;
						goto done;
					}
					if (!out->forfeit)
						snprintf(reason, sizeof reason, "%s", ms_ctx_last_error(ctx));
					out->forfeit |= 1 << k;
					break;
				}
			}
		if (out->forfeit) {
			w = out->forfeit == 3 ? 0 : out->forfeit == 1 ? 2 : 1;
			break;
		}
		ms_pw_step(s);
		if (obs && (rc = obs(obs_ud, s)))
			break;
		w = ms_pw_winner(s, max_turns);
	}
done:
	if (!rc) {
		out->winner = w;
		out->turns = s->turn;
		out->ships[1] = ms_pw_ships(s, 1);
		out->ships[2] = ms_pw_ships(s, 2);
		if (out->forfeit)
			ms_ctx_error(ctx, MS_EILLEGAL, "%s", reason);
	}
	ms_pw_state_free(view[0]);
	ms_pw_state_free(view[1]);
	ms_pw_orders_free(ord[0]);
	ms_pw_orders_free(ord[1]);
	ms_pw_state_free(s);
	return rc;
}
