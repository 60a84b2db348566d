/*
 * Portfolio bots: on a map no program was made for, choose the program to
 * play during the game, by playing candidates against the native field in
 * the native engine. A slice of every decision's time plays simulated
 * games from the game's first state, in our seat, against each bot of the
 * field (CoacAI and mayari drawing as the jars draw, a few seeds each):
 * first each candidate as a whole game, and the opening becomes the one
 * with the best mean over the field; then, from the state reached when it
 * was chosen, the opening, then candidate c from `cycle` on (the field
 * bots start afresh there). At `cycle` the enemy we see is matched to the field bot
 * whose simulated games looked nearest at that cycle (the switch's
 * features), and from then on we play the candidate that scored best
 * against that bot, choosing again as more simulated games finish.
 *
 * The simulated games are paused and resumed between decisions, so no
 * decision spends more than its slice. With `budget-cycles` the slice is a
 * number of simulated cycles instead of wall-clock time: reproducible, for
 * tests.
 *
 * Text form (one item a line; '#' starts a comment outside programs):
 *
 *   microsynth-portfolio 1
 *   cycle K               identification cycle (default 150)
 *   cycle-per-side N      at most N times the map's longer side (default 0: no cap): rushes
 *                         arrive sooner on small maps
 *   budget-ms B           simulation time per decision (default 40)
 *   budget-cycles N       or simulated cycles per decision (reproducible)
 *   seeds S               seeds per bot that draws (default 2)
 *   max-seeds M           seeds against the identified bot, once identified (default: S)
 *   edition 2022|2023     of the field's scripted bots (default: the bot's, ms_bot_set_edition)
 *   max-cycles N          simulated game length (default: the competition's by map size)
 *   stop-cycle N          no simulation from this game cycle on (default 0: none), which
 *                         bounds a game's simulation time by N slices on large maps
 *   radius R              largest feature distance taken as a match (default: any)
 *   field BOT ...         the opponent models (default: CoacAI mayari and the four rushes)
 *   archetypes 0|1        also the library's archetype rushes as candidates (default 0),
 *                         named archetype0, archetype1, ...
 *   program NAME          any text form of ms_rts_dsl_parse, up to a line 'end'
 *   ...
 *   end
 *   choose-opening 0|1    choose the opening by whole simulated games (default 1)
 *   restart 0|1           after the opening is chosen, simulate from the state reached then
 *                         (1, the default) or from the first state, the opening from cycle 0
 *   before NAME           the opening until then (or throughout with choose-opening 0;
 *                         default: the first program)
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "core/buf.h"
#include "core/internal.h"
#include "core/clock.h"

#define PF_MAX_PROGS 64
#define PF_MAX_OPPS 8
#define PF_MAX_SEEDS 16
#define PF_NAME_MAX 64
#define PF_A_SEEDS 2 /* phase A's seeds whose features are kept */

typedef struct pf_bot {
	/* configuration */
	int n_progs;
	char names[PF_MAX_PROGS][PF_NAME_MAX];
	ms_dsl_grammar *g; /* of every program */
	/* Each program twice: the game's bots and the simulations' own, so the
	 * simulated games never draw from the generator of a program the game
	 * plays (Random targets), whatever the slices let them play. */
	ms_bot *progs[PF_MAX_PROGS];
	ms_bot *sims[PF_MAX_PROGS];
	int opening; /* the configured opening */
	int n_opps;
	char opp_names[PF_MAX_OPPS][PF_NAME_MAX];
	ms_bot *opps[PF_MAX_OPPS];
	int draws[PF_MAX_OPPS]; /* the bot draws, so its seeds differ */
	int cycle, seeds, max_seeds, edition, max_cycles, choose_opening, stop_cycle, restart;
	int cycle_cfg, cycle_per_side; /* `cycle`, and the cap per map side (0: none) */
	int archetypes;                /* add the library's archetypes to the candidates */
	double budget_ms, radius;
	long budget_cycles;
	/* per game */
	int me;               /* our seat; -1 before the first decision */
	ms_rts_state *init;   /* the game's first state as we saw it */
	ms_rts_state *sim;    /* the simulated game in progress, or NULL */
	int job, n_a, n_b;    /* next job; phase A's jobs, then phase B's (see job_of) */
	int before;           /* the opening played */
	int fixed;            /* the opening is final: phase B may start */
	ms_rts_pair *pa[2];
	int max_pairs;
	/* phase A: candidates playing whole games; phase B: after the opening */
	double score[2][PF_MAX_PROGS][PF_MAX_OPPS];
	int games[2][PF_MAX_PROGS][PF_MAX_OPPS];
	/* what our side sees at `cycle`: phase A per program, first seeds; phase B */
	double feat_a[PF_MAX_PROGS][PF_MAX_OPPS][PF_A_SEEDS][MS_RTS_SWITCH_FEATURES];
	unsigned char have_a[PF_MAX_PROGS][PF_MAX_OPPS][PF_A_SEEDS];
	double feat_b[PF_MAX_OPPS][PF_MAX_SEEDS][MS_RTS_SWITCH_FEATURES];
	unsigned char have_b[PF_MAX_OPPS][PF_MAX_SEEDS];
	int ident;            /* the field bot seen at `cycle`; -1 not yet, -2 none within the radius */
	int chosen;           /* program played after `cycle` */
	double seen[MS_RTS_SWITCH_FEATURES];
	long sim_games, sim_cycles, sim_failures;
} pf_bot;

enum { PF_NOT_YET = -1, PF_NONE = -2 };

static const char *const default_field[] = { "CoacAI", "mayari", "WorkerRush", "LightRush", "HeavyRush",
					     "RangedRush" };

static void end_sim(ms_bot *b)
{
	pf_bot *pf = b->impl;
	ms_rts_state_free(pf->sim);
	pf->sim = NULL;
}

static int pf_reset(ms_bot *b)
{
	pf_bot *pf = b->impl;

	end_sim(b);
	ms_rts_state_free(pf->init);
	pf->init = NULL;
	pf->me = -1;
	pf->job = pf->n_a = pf->n_b = 0;
	pf->before = pf->chosen = pf->opening;
	pf->fixed = !pf->choose_opening;
	memset(pf->score, 0, sizeof(pf->score));
	memset(pf->games, 0, sizeof(pf->games));
	memset(pf->have_a, 0, sizeof(pf->have_a));
	memset(pf->have_b, 0, sizeof(pf->have_b));
	memset(pf->seen, 0, sizeof(pf->seen));
	pf->ident = PF_NOT_YET;
	pf->sim_games = pf->sim_cycles = pf->sim_failures = 0;
	for (int p = 0; p < pf->n_progs; p++)
		if (ms_bot_reset(pf->progs[p]) || ms_bot_reset(pf->sims[p]))
			return ms_ctx_error(b->ctx, MS_ERROR, "portfolio: program %s cannot reset", pf->names[p]);
	return MS_OK;
}

/*
 * Jobs, each one simulated game. Phase A (when the opening is chosen): each
 * candidate plays a whole game against each field bot, `seeds` seeds, so
 * the opening can be the candidate that does best against the whole field.
 * Phase B: the opening, then each candidate from `cycle` on, against each
 * field bot, up to `max-seeds` seeds. Both seed-major, then program, then
 * opponent, so every program has met every bot before anyone meets one twice.
 */
static void job_of(const pf_bot *pf, int j, int *phase, int *seed, int *prog, int *opp)
{
	int per_seed = pf->n_progs * pf->n_opps;
	*phase = j >= pf->n_a;
	if (*phase)
		j -= pf->n_a;
	*seed = j / per_seed;
	/* the opening first: a candidate replaces it only on the same evidence */
	*prog = (j % per_seed / pf->n_opps + (*phase ? pf->before : pf->opening)) % pf->n_progs;
	*opp = j % pf->n_opps;
}

/* Whether to play a job: a second seed of a bot that never draws, or a bot
 * other than the one identified, is skipped; phase A ends when the opening
 * is final; phase B waits for it, and its seeds beyond `seeds` are played
 * against the identified bot only, so they wait for the identification. */
enum { PF_PLAY, PF_SKIP, PF_WAIT };

static int job_fate(const pf_bot *pf, int phase, int seed, int opp)
{
	if (seed > 0 && !pf->draws[opp])
		return PF_SKIP;
	if (pf->ident >= 0 && opp != pf->ident)
		return PF_SKIP;
	if (phase == 0)
		return pf->fixed ? PF_SKIP : PF_PLAY;
	if (!pf->fixed)
		return PF_WAIT;
	if (seed >= pf->seeds)
		return pf->ident >= 0 ? PF_PLAY : pf->ident == PF_NONE ? PF_SKIP : PF_WAIT;
	return PF_PLAY;
}

/* The opening: the candidate with the best mean over the field of its mean
 * score against each bot in phase A (the configured opening on ties). */
static void fix_opening(pf_bot *pf)
{
	double best = -1;

	for (int c = 0; c < pf->n_progs; c++) {
		double sum = 0;
		int n = 0;
		for (int o = 0; o < pf->n_opps; o++)
			if (pf->games[0][c][o]) {
				sum += pf->score[0][c][o] / pf->games[0][c][o];
				n++;
			}
		if (n == pf->n_opps && (sum / n > best || (sum / n == best && c == pf->opening))) {
			best = sum / n;
			pf->before = c;
		}
	}
	pf->fixed = 1;
}

/* Starts the next job worth playing; 0 when none is left or the next must wait. */
static int start_job(ms_bot *b, int *rc)
{
	pf_bot *pf = b->impl;
	int phase, seed, prog, opp, fate = PF_SKIP;

	*rc = MS_OK;
	for (; pf->job < pf->n_a + pf->n_b; pf->job++) {
		job_of(pf, pf->job, &phase, &seed, &prog, &opp);
		if ((fate = job_fate(pf, phase, seed, opp)) != PF_SKIP)
			break;
	}
	if (pf->job >= pf->n_a + pf->n_b || fate == PF_WAIT)
		return 0;
	if ((*rc = ms_rts_state_clone(b->ctx, &pf->sim, pf->init)))
		return 0;
	/* The same seeds for every program: candidates meet the same draws. */
	pf->opps[opp]->seed = b->seed + 7919 * (int64_t)seed + opp;
	ms_bot_set_stochastic(pf->opps[opp], pf->draws[opp]);
	ms_bot_set_edition(pf->opps[opp], pf->edition >= 0 ? pf->edition : b->edition);
	if ((*rc = ms_bot_reset(pf->opps[opp])) || (*rc = ms_bot_reset(pf->sims[prog])) ||
	    (*rc = ms_bot_reset(pf->sims[pf->before])))
		return 0;
	return 1;
}

static void finish_job(ms_bot *b, double result)
{
	pf_bot *pf = b->impl;
	int phase, seed, prog, opp;

	job_of(pf, pf->job, &phase, &seed, &prog, &opp);
	pf->score[phase][prog][opp] += result;
	pf->games[phase][prog][opp]++;
	pf->sim_games++;
	end_sim(b);
	pf->job++;
}

/* One cycle of the simulated game in progress, as ms_bot_play plays it. */
static int sim_step(ms_bot *b)
{
	pf_bot *pf = b->impl;
	ms_rts_state *s = pf->sim;
	int phase, seed, prog, opp, t = ms_rts_state_time(s), n[2], gameover = 0, rc;
	ms_bot *mine;

	job_of(pf, pf->job, &phase, &seed, &prog, &opp);
	mine = pf->sims[phase == 0 || t >= pf->cycle ? prog : pf->before];
	if (t >= pf->cycle) {
		if (phase == 0 && seed < PF_A_SEEDS && !pf->have_a[prog][opp][seed]) {
			ms_rts_switch_features(s, pf->me, pf->feat_a[prog][opp][seed]);
			pf->have_a[prog][opp][seed] = 1;
		} else if (phase == 1 && !pf->have_b[opp][seed]) {
			ms_rts_switch_features(s, pf->me, pf->feat_b[opp][seed]);
			pf->have_b[opp][seed] = 1;
		}
	}
	for (int p = 0; p < 2; p++) {
		ms_bot *bot = p != pf->me ? pf->opps[opp] : mine;
		if ((rc = ms_bot_decide(bot, p, s, pf->pa[p], pf->max_pairs, &n[p]))) {
			/* A candidate or a model that fails loses this game; the real one goes on. */
			pf->sim_failures++;
			finish_job(b, p == pf->me ? 0.0 : 1.0);
			return MS_OK;
		}
	}
	for (int p = 0; p < 2; p++)
		if (n[p] && (rc = ms_rts_issue_safe(b->ctx, s, pf->pa[p], n[p], NULL)))
			return rc;
	if ((rc = ms_rts_cycle(b->ctx, s, &gameover)))
		return rc;
	pf->sim_cycles++;
	if (gameover || ms_rts_state_time(s) >= pf->max_cycles) {
		int w = ms_rts_winner(s);
		finish_job(b, w == pf->me ? 1.0 : w < 0 ? 0.5 : 0.0);
	}
	return MS_OK;
}

/* Plays simulated cycles until the decision's slice is spent or no job is left. */
static int simulate(ms_bot *b)
{
	pf_bot *pf = b->impl;
	int64_t deadline = ms_now_ns() + (int64_t)(pf->budget_ms * 1e6);
	long steps = 0;
	int rc = MS_OK;

	while (pf->budget_cycles > 0 ? steps < pf->budget_cycles : ms_now_ns() < deadline) {
		if (!pf->sim && !start_job(b, &rc))
			return rc;
		if ((rc = sim_step(b)))
			return rc;
		steps++;
	}
	return MS_OK;
}

/* The features of field bot o's seed k as our opening met it at `cycle`, or NULL. */
static const double *features(const pf_bot *pf, int o, int k)
{
	if (pf->have_b[o][k])
		return pf->feat_b[o][k];
	return k < PF_A_SEEDS && pf->have_a[pf->before][o][k] ? pf->feat_a[pf->before][o][k] : NULL;
}

/* The field bot whose simulated games at `cycle` looked nearest to what we see. */
static void identify(pf_bot *pf, const ms_rts_state *s)
{
	double best = HUGE_VAL;

	ms_rts_switch_features(s, pf->me, pf->seen);
	pf->ident = PF_NONE;
	for (int o = 0; o < pf->n_opps; o++)
		for (int k = 0; k < pf->seeds; k++) {
			const double *f = features(pf, o, k);
			double d;
			if (!f)
				continue;
			d = ms_rts_switch_distance(pf->seen, f);
			if (d <= pf->radius && d < best) {
				best = d;
				pf->ident = o;
			}
		}
}

/* Mean score of program c against the identified bot (all bots when none) in `phase`; -1 without games. */
static double mean(const pf_bot *pf, int phase, int c, int *games)
{
	double sc = 0;
	int g = 0;
	for (int o = 0; o < pf->n_opps; o++)
		if (pf->ident < 0 || o == pf->ident) {
			sc += pf->score[phase][c][o];
			g += pf->games[phase][c][o];
		}
	*games = g;
	return g ? sc / g : -1;
}

/* The program with the best mean score against the identified bot, or over
 * the whole field when none was identified: after the opening (phase B)
 * once such games exist, else as whole games (phase A); the opening on ties. */
static void choose(pf_bot *pf)
{
	int phase = 0, g;
	double best = -1;

	for (int c = 0; c < pf->n_progs && !phase; c++)
		if (mean(pf, 1, c, &g) >= 0)
			phase = 1;
	for (int c = 0; c < pf->n_progs; c++) {
		double m = mean(pf, phase, c, &g);
		if (g && (m > best || (m == best && c == pf->before))) {
			best = m;
			pf->chosen = c;
		}
	}
}

static int start_game(ms_bot *b, int player, const ms_rts_state *s)
{
	pf_bot *pf = b->impl;
	int rc, per_seed = pf->n_progs * pf->n_opps;

	pf->me = player;
	if ((rc = ms_rts_state_clone(b->ctx, &pf->init, s)))
		return rc;
	pf->cycle = pf->cycle_cfg;
	if (pf->cycle_per_side) {
		int w = ms_rts_state_width(s), h = ms_rts_state_height(s);
		int cap = pf->cycle_per_side * (w > h ? w : h);
		if (cap < pf->cycle)
			pf->cycle = cap;
	}
	if (!pf->max_cycles)
		pf->max_cycles = ms_match_competition_cycles(ms_rts_state_width(s), ms_rts_state_height(s));
	pf->n_a = pf->choose_opening ? pf->seeds * per_seed : 0;
	pf->n_b = (pf->max_seeds > pf->seeds ? pf->max_seeds : pf->seeds) * per_seed;
	pf->job = 0;
	if (ms_rts_state_width(s) * ms_rts_state_height(s) + 1 > pf->max_pairs) {
		int m = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
		for (int p = 0; p < 2; p++) {
			ms_ctx_mfree(b->ctx, pf->pa[p]);
			pf->pa[p] = ms_ctx_malloc(b->ctx, (size_t)m * sizeof(ms_rts_pair));
		}
		pf->max_pairs = pf->pa[0] && pf->pa[1] ? m : 0;
		if (!pf->max_pairs)
			return ms_ctx_error(b->ctx, MS_ENOMEM, "portfolio: out of memory");
	}
	return MS_OK;
}

static int pf_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	pf_bot *pf = b->impl;
	int rc, t = ms_rts_state_time(s);

	*n = 0;
	if (pf->me < 0) {
		/* The first decision pays for building the bot (the drop-in bot
		 * assembles and parses the portfolio then): it simulates nothing. */
		if ((rc = start_game(b, player, s)))
			return rc;
		return ms_bot_decide(pf->progs[pf->before], player, s, out, max, n);
	}
	if (player != pf->me)
		return ms_ctx_error(b->ctx, MS_EINVAL, "portfolio: asked for player %d in a game it plays as %d",
				    player, pf->me);
	if (!pf->fixed && pf->init && (pf->job >= pf->n_a || t >= pf->cycle)) {
		/* Phase A is over, or it did not end in time and the opening played
		 * is final. Phase B starts from this state: the cycles played so far
		 * are the real ones, whatever opening played them. */
		if (pf->job >= pf->n_a)
			fix_opening(pf);
		pf->fixed = 1;
		end_sim(b);
		if (pf->restart || t >= pf->cycle) {
			ms_rts_state_free(pf->init);
			pf->init = NULL;
			if ((rc = ms_rts_state_clone(b->ctx, &pf->init, s)))
				pf->sim_failures++;
		}
	}
	/* A failing simulation stops simulating, never the game. */
	if (pf->init && (!pf->stop_cycle || t < pf->stop_cycle) && (rc = simulate(b))) {
		pf->sim_failures++;
		end_sim(b);
		ms_rts_state_free(pf->init);
		pf->init = NULL;
	}
	if (t >= pf->cycle) {
		if (pf->ident == PF_NOT_YET)
			identify(pf, s);
		choose(pf);
	}
	return ms_bot_decide(pf->progs[t < pf->cycle ? pf->before : pf->chosen], player, s, out, max, n);
}

static void pf_free(ms_bot *b)
{
	pf_bot *pf = b->impl;

	if (!pf)
		return;
	end_sim(b);
	ms_rts_state_free(pf->init);
	for (int p = 0; p < pf->n_progs; p++) {
		ms_bot_free(pf->progs[p]);
		ms_bot_free(pf->sims[p]);
	}
	for (int o = 0; o < pf->n_opps; o++)
		ms_bot_free(pf->opps[o]);
	ms_ctx_mfree(b->ctx, pf->pa[0]);
	ms_ctx_mfree(b->ctx, pf->pa[1]);
	ms_dsl_grammar_free(pf->g); /* after the bots, which read it */
	ms_ctx_mfree(b->ctx, pf);
	b->impl = NULL;
}

static const ms_bot_ops pf_ops = { "Portfolio", "ai.microsynth.Portfolio", pf_reset, pf_decide, pf_free };

/* ---- the text form ---------------------------------------------------------- */

static int find_prog(const pf_bot *pf, const char *name)
{
	for (int p = 0; p < pf->n_progs; p++)
		if (!strcmp(pf->names[p], name))
			return p;
	return -1;
}

static int set_field(ms_ctx *ctx, pf_bot *pf, const char *what, int line, const char *list, const ms_rts_utt *utt,
		     int64_t seed)
{
	char name[PF_NAME_MAX];
	int used, rc;

	for (int o = 0; o < pf->n_opps; o++)
		ms_bot_free(pf->opps[o]);
	pf->n_opps = 0;
	while (sscanf(list, "%63s%n", name, &used) == 1) {
		list += used;
		if (pf->n_opps == PF_MAX_OPPS)
			return ms_ctx_error(ctx, MS_ERANGE, "%s: line %d: more than %d field bots", what, line,
					    PF_MAX_OPPS);
		if ((rc = ms_bot_new(ctx, &pf->opps[pf->n_opps], name, utt, seed))) {
			char msg[300];
			snprintf(msg, sizeof(msg), "%s", ms_ctx_last_error(ctx));
			return ms_ctx_error(ctx, rc, "%s: line %d: field bot %s: %s", what, line, name, msg);
		}
		pf->draws[pf->n_opps] = ms_bot_draws_unseeded(name);
		snprintf(pf->opp_names[pf->n_opps++], PF_NAME_MAX, "%s", name);
	}
	return pf->n_opps ? MS_OK : ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: 'field' names no bot", what, line);
}

/* 'program NAME' at text[*at..]: its text up to a line 'end' becomes a program bot. */
/* Program `name` from text t[0..n) (`label` names it in errors), as a bot for the game and one for the
 * simulations. */
static int add_text(ms_ctx *ctx, pf_bot *pf, const char *label, const char *t, size_t n, const char *name,
		    const ms_rts_utt *utt, int64_t seed)
{
	ms_dsl_prog *p = NULL;
	int rc;

	if ((!pf->g && (rc = ms_rts_dsl_grammar_new(ctx, &pf->g, 0))) || (rc = ms_dsl_prog_new(ctx, &p, pf->g)))
		return rc;
	if (!(rc = ms_rts_dsl_parse(p, label, t, n, 0)) &&
	    !(rc = ms_rts_dsl_bot_new(ctx, &pf->progs[pf->n_progs], p, utt, seed)) &&
	    (rc = ms_rts_dsl_bot_new(ctx, &pf->sims[pf->n_progs], p, utt, seed))) {
		ms_bot_free(pf->progs[pf->n_progs]);
		pf->progs[pf->n_progs] = NULL;
	}
	ms_dsl_prog_free(p);
	if (rc)
		return rc;
	snprintf(pf->names[pf->n_progs++], PF_NAME_MAX, "%s", name);
	return MS_OK;
}

static int add_program(ms_ctx *ctx, pf_bot *pf, const char *what, const char *text, size_t len, size_t *at,
		       int *line, const char *name, const ms_rts_utt *utt, int64_t seed)
{
	size_t start = *at, end = *at, ls, le;
	int first = *line, closed = 0;
	char label[PF_NAME_MAX + 96];

	if (find_prog(pf, name) >= 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: program %s defined twice", what, first, name);
	if (pf->n_progs == PF_MAX_PROGS)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: line %d: more than %d programs", what, first, PF_MAX_PROGS);
	while (ms_text_next_line(text, len, at, &ls, &le)) {
		++*line;
		if (le - ls == 3 && !memcmp(text + ls, "end", 3)) {
			closed = 1;
			break;
		}
		end = *at;
	}
	if (!closed)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: program %s has no 'end'", what, first, name);
	snprintf(label, sizeof(label), "%s: program %s (from line %d)", what, name, first + 1);
	return add_text(ctx, pf, label, text + start, end - start, name, utt, seed);
}

/*
 * `archetypes 1`: the library's archetypes join the candidates, as
 * archetype0, archetype1, ... (after the text's programs, while there is
 * room: the text's own programs come first).
 */
static int add_archetypes(ms_ctx *ctx, pf_bot *pf, const char *what, const ms_rts_utt *utt, int64_t seed)
{
	for (int i = 0; ms_rts_archetype(i) && pf->n_progs < PF_MAX_PROGS; i++) {
		char name[PF_NAME_MAX], label[PF_NAME_MAX + 64];
		const char *t = ms_rts_archetype(i);
		int rc;
		snprintf(name, sizeof(name), "archetype%d", i);
		if (find_prog(pf, name) >= 0)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: program %s defined twice (the name is the archetype's)",
					    what, name);
		snprintf(label, sizeof(label), "%s: %s", what, name);
		if ((rc = add_text(ctx, pf, label, t, strlen(t), name, utt, seed)))
			return rc;
	}
	return MS_OK;
}

/* One line of settings; MS_ENOTFOUND when its first word is not a setting. */
static int setting(ms_ctx *ctx, pf_bot *pf, const char *what, int line, const char *word, const char *buf)
{
	char extra[2];
	double v;

	if (!strcmp(word, "radius") || !strcmp(word, "budget-ms")) {
		if (sscanf(buf, "%*s %lf %1s", &v, extra) != 1 || !(v >= 0) || v > 1e6)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected '%s X' with 0 <= X <= 1e6", what,
					    line, word);
		*(word[0] == 'r' ? &pf->radius : &pf->budget_ms) = v;
		return MS_OK;
	}
	static const struct {
		const char *word;
		long lo, hi;
	} ints[] = { { "cycle", 0, 1000000 },     { "budget-cycles", 0, 100000000 }, { "seeds", 1, PF_MAX_SEEDS }, { "max-seeds", 1, PF_MAX_SEEDS },
		     { "edition", 2022, 2023 },   { "max-cycles", 1, 10000000 },
		     { "choose-opening", 0, 1 }, { "stop-cycle", 0, 10000000 }, { "restart", 0, 1 },
		     { "cycle-per-side", 0, 100000 }, { "archetypes", 0, 1 } };
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		long x;
		if (strcmp(word, ints[i].word))
			continue;
		if (sscanf(buf, "%*s %ld %1s", &x, extra) != 1 || x < ints[i].lo || x > ints[i].hi)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected '%s N' with %ld <= N <= %ld", what,
					    line, word, ints[i].lo, ints[i].hi);
		switch (i) {
		case 0: pf->cycle = pf->cycle_cfg = (int)x; break;
		case 1: pf->budget_cycles = x; break;
		case 2: pf->seeds = (int)x; break;
		case 3: pf->max_seeds = (int)x; break;
		case 4: pf->edition = x == 2023 ? MS_PATH_EDITION_2023 : MS_PATH_EDITION_2022; break;
		case 5: pf->max_cycles = (int)x; break;
		case 6: pf->choose_opening = (int)x; break;
		case 7: pf->stop_cycle = (int)x; break;
		case 8: pf->restart = (int)x; break;
		case 9: pf->cycle_per_side = (int)x; break;
		default: pf->archetypes = (int)x; break;
		}
		return MS_OK;
	}
	return MS_ENOTFOUND;
}

static int parse(ms_ctx *ctx, pf_bot *pf, const char *what, const char *text, size_t len, const ms_rts_utt *utt,
		 int64_t seed)
{
	size_t at = 0;
	int line = 0, have_magic = 0, rc;
	char buf[512], before[PF_NAME_MAX] = "";

	while ((rc = ms_text_next_content_line(ctx, what, text, len, &at, &line, buf, sizeof buf)) > 0) {
		char word[32], name[PF_NAME_MAX], extra[2];
		if (sscanf(buf, "%31s", word) != 1)
			continue;
		if (!have_magic) {
			int v;
			if (strcmp(word, "microsynth-portfolio") || sscanf(buf, "%*s %d %1s", &v, extra) != 1 || v != 1)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected 'microsynth-portfolio 1'",
						    what, line);
			have_magic = 1;
		} else if ((rc = setting(ctx, pf, what, line, word, buf)) != MS_ENOTFOUND) {
			if (rc)
				return rc;
		} else if (!strcmp(word, "field")) {
			if ((rc = set_field(ctx, pf, what, line, strstr(buf, "field") + 5, utt, seed)))
				return rc;
		} else if (!strcmp(word, "program") || !strcmp(word, "before")) {
			if (sscanf(buf, "%*s %63s %1s", name, extra) != 1)
				return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: expected '%s NAME'", what, line, word);
			if (word[0] == 'b')
				snprintf(before, sizeof(before), "%s", name);
			else if ((rc = add_program(ctx, pf, what, text, len, &at, &line, name, utt, seed)))
				return rc;
		} else {
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d: unknown item '%s'", what, line, word);
		}
	}
	if (rc < 0)
		return rc;
	if (!have_magic)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: empty (expected 'microsynth-portfolio 1')", what);
	if (pf->archetypes && (rc = add_archetypes(ctx, pf, what, utt, seed)))
		return rc;
	if (!pf->n_progs)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: no program", what);
	if (before[0] && (pf->opening = find_prog(pf, before)) < 0)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: 'before %s': no such program", what, before);
	if (!pf->n_opps) {
		char list[200] = "";
		for (size_t i = 0; i < sizeof(default_field) / sizeof(default_field[0]); i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s", default_field[i]);
		return set_field(ctx, pf, what, 0, list, utt, seed);
	}
	return MS_OK;
}

int ms_rts_portfolio_bot_new(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
			     const ms_rts_utt *utt, int64_t seed)
{
	ms_bot *b;
	pf_bot *pf;
	int rc;

	*out = NULL;
	if (!utt || !text)
		return ms_ctx_error(ctx, MS_EINVAL, "portfolio: no text or no unit type table");
	if ((rc = ms_bot_alloc(ctx, &b, &pf_ops, sizeof(*pf), utt, seed, "portfolio")))
		return rc;
	pf = b->impl;
	pf->cycle = pf->cycle_cfg = 150;
	pf->choose_opening = 1;
	pf->restart = 1;
	pf->budget_ms = 40;
	pf->seeds = 2;
	pf->edition = -1;
	pf->radius = HUGE_VAL;
	if ((rc = parse(ctx, pf, what, text, len, utt, seed))) {
		ms_bot_free(b);
		return rc;
	}
	pf_reset(b);
	*out = b;
	return MS_OK;
}

int ms_rts_portfolio_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt,
				   int64_t seed)
{
	return ms_rts_bot_from_spec_text(ctx, out, spec, "portfolio", ms_rts_portfolio_bot_new, utt, seed);
}

int ms_rts_portfolio_bot_info(const ms_bot *b, ms_rts_portfolio_info *info)
{
	const pf_bot *pf;

	if (!b || b->ops != &pf_ops || !info)
		return MS_EINVAL;
	pf = b->impl;
	memset(info, 0, sizeof(*info));
	info->opponent = pf->ident >= 0 ? pf->opp_names[pf->ident] : pf->ident == PF_NONE ? "none" : NULL;
	info->opening = pf->names[pf->before];
	info->opening_final = pf->fixed;
	info->program = pf->names[pf->me >= 0 && pf->ident != PF_NOT_YET ? pf->chosen : pf->before];
	info->games = pf->sim_games;
	info->cycles = pf->sim_cycles;
	info->failures = pf->sim_failures;
	for (int j = pf->job; j < pf->n_a + pf->n_b; j++) {
		int phase, seed, prog, opp;
		job_of(pf, j, &phase, &seed, &prog, &opp);
		info->jobs_left += job_fate(pf, phase, seed, opp) != PF_SKIP && !(phase == 0 && pf->fixed);
	}
	if (pf->ident != PF_NOT_YET) {
		int g, phase = 0;
		for (int c = 0; c < pf->n_progs && !phase; c++)
			if (mean(pf, 1, c, &g) >= 0)
				phase = 1;
		info->chosen_score = mean(pf, phase, pf->chosen, &g);
		info->chosen_games = g;
		if (!g)
			info->chosen_score = 0;
	}
	return MS_OK;
}
