/*
 * Pre-game synthesis (rts_synth.h, ms_rts_pregame): a program for the map in
 * front of the bot, made in the time a tournament grants before the game.
 *
 * The map arrives as the game's first state, in memory; the problem is the
 * field synthesis of tools/competition.sh (SA, both seats, the native field
 * with TMA added, the length tie-break) built on that state. The candidates (the shipped
 * programs) are screened first, in batches of `threads` so the clock is
 * checked between them; the best one starts the search. An optional second
 * stage plays the opponents that draw unseeded numbers in their jars
 * (CoacAI, mayari) with several seeds, from the first stage's best: the
 * reproducible stand-ins can be beaten by a program the jars beat.
 *
 * Then the opponents the program still loses a game to (at most
 * max_cases, in the field's order) each get a case program, searched
 * against that opponent alone after the program's own opening: an opponent
 * switch (docs/switch.md) plays the program until the switch cycle, then
 * the case of the opponent it sees. The switch is kept only when it wins
 * more of the check games (every field bot, both seats, the seeds) than
 * the program alone; opponents that look alike at the switch cycle lose
 * their cases, so recognition cannot go wrong on a known opponent.
 *
 * The search stops between batches of evaluations, so each stage's clock
 * ends a margin before the deadline: the time one batch took in the
 * screening, scaled to SA's batch, so a big map does not overrun.
 */

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "microsynth/rts_synth.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/bots.h"
#include "microsynth/match.h"
#include "core/buf.h"
#include "core/internal.h"
#include "core/opts.h"
#include "core/clock.h"

#define MAX_CASES 8
#define MAX_CHECK 64 /* check games (field bots x seats x seeds): a switch holds 64 cases */
#define N_CYCLES 4   /* switch cycles tried: 1 to 4 times the options' */

/* The competitions' field: the 2020, 2021 and 2024 winners (TMA: docs/tma.md) and the four rushes. */
static const char *const default_field[] = { "CoacAI", "mayari", "TMA", "WorkerRush", "LightRush", "HeavyRush",
					     "RangedRush" };

int ms_rts_pregame_options_init(ms_rts_pregame_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_RTS_PREGAME_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->edition = MS_PATH_EDITION_2023;
	o->threads = 1;
	o->seed = 1;
	o->neighbours = 20;
	o->stochastic_share = 0.3;
	o->opponent_seeds = 2;
	o->case_share = 0.35;
	o->max_cases = 4;
	o->switch_cycle = 150;
	o->archetypes = 1;
	return MS_OK;
}

static int check_opts(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o)
{
	if (!first)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: no first state");
	if (!(o->seconds > 0) && o->max_evals <= 0)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: no budget (seconds or max_evals)");
	if (o->threads < 1 || o->threads > 256)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: %d threads (1..256)", o->threads);
	if (o->stochastic_share < 0 || o->stochastic_share >= 1)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: stochastic share %g (0 <= share < 1)",
				    o->stochastic_share);
	if (o->opponent_seeds < 0 || o->opponent_seeds > 64 || o->neighbours < 1 || o->max_cycles < 0 ||
	    o->n_candidates < 0 || o->n_field < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: opponent seeds %d (0..64), neighbours %d, "
				    "max cycles %d or a count out of range", o->opponent_seeds, o->neighbours,
				    o->max_cycles);
	if (o->case_share < 0 || o->case_share + o->stochastic_share >= 1 || o->max_cases < 0 ||
	    o->max_cases > MAX_CASES || o->switch_cycle < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: case share %g (0 <= share, with the stochastic "
				    "share < 1), max cases %d (0..%d) or switch cycle %d (>= 1) out of range",
				    o->case_share, o->max_cases, MAX_CASES, o->switch_cycle);
	if (o->archetypes != 0 && o->archetypes != 1)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: archetypes %d (0 or 1)", o->archetypes);
	return MS_OK;
}

/* The field the options name, else the default one; its size into *n. */
static const char *const *field_of(const ms_rts_pregame_options *o, int *n)
{
	*n = o->field ? o->n_field : (int)(sizeof default_field / sizeof *default_field);
	return o->field ? o->field : default_field;
}

/*
 * The problem on `first` against `opps`, with `seeds` seeds per seat for the
 * bots that draw (0: none); with a `prefix`, our side plays it until `cycle`.
 */
static int new_problem(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o,
		       const char *const *opps, int n_opps, int seeds, const ms_dsl_prog *prefix, int cycle,
		       ms_rts_synth **out)
{
	static const char *const name[] = { "the game's map" };
	const ms_rts_state *states[] = { first };
	ms_rts_synth_options so = { .version = MS_RTS_SYNTH_OPTIONS_VERSION,
				    .maps = name,
				    .n_maps = 1,
				    .states = states,
				    .opponents = opps,
				    .n_opponents = n_opps,
				    .max_cycles = o->max_cycles,
				    .edition = o->edition,
				    .tiebreak = MS_RTS_TIEBREAK_LENGTH,
				    .prefix = prefix,
				    .switch_cycle = prefix ? cycle : 0,
				    .opponent_seeds = seeds };
	return ms_rts_synth_new(ctx, out, &so);
}

/* The field problem on `first`, with `seeds` seeds per seat for the bots that draw (0: none). */
static int make_problem(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, int seeds,
			ms_rts_synth **out)
{
	int n_field;
	const char *const *field = field_of(o, &n_field);
	return new_problem(ctx, first, o, field, n_field, seeds, NULL, 0, out);
}

/* 1 when a bot of the field draws unseeded numbers in its jar (a second stage can tell seeds apart). */
static int field_draws(const ms_rts_pregame_options *o)
{
	int n;
	const char *const *f = field_of(o, &n);
	for (int i = 0; i < n; i++)
		if (ms_bot_draws_unseeded(f[i]))
			return 1;
	return 0;
}

/* A candidate's program text: the `before` program of a switch's text, else the text itself. */
static const char *candidate_text(const char *t, size_t *len)
{
	static const char magic[] = "microsynth-switch", open[] = "\nprogram before\n", close[] = "\nend\n";
	const char *a, *z;
	size_t skip = strspn(t, " \t\r\n");
	*len = strlen(t);
	if (strncmp(t + skip, magic, sizeof magic - 1) || !(a = strstr(t, open)))
		return t;
	a += sizeof open - 1;
	if (!(z = strstr(a - 1, close)) || z < a)
		return t;
	*len = (size_t)(z - a);
	return a;
}

typedef struct run_state {
	double start, deadline; /* monotonic seconds; deadline 0: none */
	long long evals;
} run_state;

/* The number of archetypes the options screen after the candidates. */
static int n_archetypes(const ms_rts_pregame_options *o)
{
	int n = 0;
	while (o->archetypes && ms_rts_archetype(n))
		n++;
	return n;
}

/*
 * Screens the candidates, then the archetypes: each parsed (texts that do
 * not parse are skipped and counted), scored in batches of `threads`; the
 * best (ties: the first) into *best (NULL when none parsed or the clock ran
 * out first).
 */
static int screen(ms_ctx *ctx, const ms_rts_synth *rs, const ms_rts_pregame_options *o, run_state *rst,
		  ms_dsl_prog **best, ms_rts_pregame_result *res, double *batch_s)
{
	const ms_synth_problem *pb = ms_rts_synth_problem(rs);
	ms_synth_eval *ev = NULL;
	ms_dsl_prog **progs = NULL;
	int n = 0, rc, total = o->n_candidates + n_archetypes(o);

	*best = NULL;
	*batch_s = 0;
	if (total <= 0)
		return MS_OK;
	if (!(progs = ms_ctx_calloc(ctx, (size_t)total, sizeof *progs)))
		return ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
	int *index = ms_ctx_calloc(ctx, (size_t)total, sizeof *index);
	if (!index) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
		goto done;
	}
	for (int i = 0; i < total; i++) {
		const char *t = i < o->n_candidates ? o->candidates[i] : ms_rts_archetype(i - o->n_candidates);
		ms_dsl_prog *p = NULL;
		if (!t) {
			res->skipped++;
			continue;
		}
		size_t len;
		t = candidate_text(t, &len);
		if ((rc = ms_dsl_prog_new(ctx, &p, ms_rts_synth_grammar(rs))))
			goto done;
		if (ms_rts_dsl_parse(p, i < o->n_candidates ? "candidate" : "archetype", t, len, 0)) {
			ms_dsl_prog_free(p);
			res->skipped++;
			continue;
		}
		index[n] = i;
		progs[n++] = p;
	}
	if ((rc = ms_synth_eval_new(ctx, &ev, pb, o->threads, NULL)))
		goto done;
	double best_score = -1;
	int best_i = -1;
	for (int at = 0; at < n; at += o->threads) {
		int k = n - at < o->threads ? n - at : o->threads;
		double scores[256];
		int failed[256];
		uint64_t seeds[256];
		double t0 = ms_now();
		if (rst->deadline > 0 && t0 + *batch_s >= rst->deadline)
			break;
		for (int j = 0; j < k; j++)
			seeds[j] = ms_synth_eval_seed(o->seed, (uint64_t)(at + j));
		if ((rc = ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)progs + at, k, MS_SYNTH_PSI, seeds,
						 scores, failed, NULL, NULL)))
			goto done;
		double took = ms_now() - t0;
		if (took > *batch_s)
			*batch_s = took;
		rst->evals += k;
		res->screened += k;
		for (int j = 0; j < k; j++)
			if (!failed[j] && scores[j] > best_score) {
				best_score = scores[j];
				best_i = at + j;
			}
		if (o->max_evals > 0 && rst->evals >= o->max_evals)
			break;
	}
	if (best_i >= 0) {
		*best = progs[best_i];
		progs[best_i] = NULL;
		res->start = index[best_i];
		res->start_psi = best_score;
	}
	rc = MS_OK;
done:
	ms_synth_eval_free(ev);
	for (int i = 0; i < n; i++)
		ms_dsl_prog_free(progs[i]);
	ms_ctx_mfree(ctx, progs);
	ms_ctx_mfree(ctx, index);
	return rc;
}

/* `p` as a program of `rs`'s grammar (each problem has its own), through its exact-tree text. */
static int regrammar(ms_ctx *ctx, const ms_rts_synth *rs, const ms_dsl_prog *p, ms_dsl_prog **out)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if ((rc = ms_rts_dsl_print(p, MS_RTS_DSL_FORM_SALVE, &text, &len)))
		return rc;
	if (!(rc = ms_dsl_prog_new(ctx, out, ms_rts_synth_grammar(rs))) &&
	    (rc = ms_rts_dsl_parse(*out, "stage 1's program", text, len, 0))) {
		ms_dsl_prog_free(*out);
		*out = NULL;
	}
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	return rc;
}

/*
 * One SA stage on `rs` from `from` (NULL: random) until `until` (monotonic
 * seconds; the margin is taken off here) or `evals` evaluations; the best
 * program into *out (a copy), its score into *psi.
 */
static int sa_stage(ms_ctx *ctx, const ms_rts_synth *rs, const ms_rts_pregame_options *o, const ms_dsl_prog *from,
		    double until, long long evals, double margin, uint64_t seed, ms_dsl_prog **out, double *psi,
		    long long *made)
{
	ms_synth_options so;
	ms_synth *s = NULL;
	ms_synth_stats st;
	int rc;

	*out = NULL;
	*psi = -1;
	*made = 0;
	ms_synth_options_init(&so, MS_SYNTH_OPTIONS_VERSION);
	so.algo = MS_SYNTH_SA;
	so.seed = seed;
	so.threads = o->threads;
	so.sa_neighbours = o->neighbours;
	so.sa_cache = 1; /* the stage's matches are deterministic for a program */
	so.sa_restart = MS_SYNTH_RESTART_BEST;
	so.initial = from;
	so.max_evals = evals;
	if (until > 0) {
		so.max_seconds = until - ms_now() - margin;
		if (so.max_seconds < 0.05)
			return MS_OK; /* no time for a batch */
	}
	if ((rc = ms_synth_new(ctx, &s, ms_rts_synth_problem(rs), &so)) || (rc = ms_synth_run(s)))
		goto done;
	ms_synth_get_stats(s, &st);
	*made = st.evals_psi;
	const ms_dsl_prog *b = ms_synth_best(s, MS_SYNTH_PSI);
	if (b) {
		*psi = ms_synth_best_score(s, MS_SYNTH_PSI);
		rc = ms_dsl_prog_clone(out, b);
	}
done:
	ms_synth_free(s);
	return rc;
}

/* ---- the opponent switch ------------------------------------------------------- */

/* One check game: a field bot, a seat of ours, a match seed (stochastic when > 0). */
typedef struct check_game {
	int bot, seat, seed;
	double score;      /* ours: win 1, draw 0.5, loss 0 */
	int seen[N_CYCLES]; /* the game reached switch cycle c: f[c] holds what our side saw there */
	double f[N_CYCLES][MS_RTS_SWITCH_FEATURES];
} check_game;

typedef struct check_set {
	check_game g[MAX_CHECK];
	int n;
} check_set;

/* Seeds a field bot plays in the check and in its case search (0: one reproducible game a seat). */
static int seeds_of(const ms_rts_pregame_options *o, const char *bot)
{
	return o->opponent_seeds >= 2 && ms_bot_draws_unseeded(bot) ? o->opponent_seeds : 0;
}

/* The check's games, in the order they are played (as ms_rts_synth_score seeds them); 0 when more
 * than a switch can hold (then no switch is made). */
static int plan_checks(const ms_rts_pregame_options *o, check_set *cs)
{
	int n_field;
	const char *const *field = field_of(o, &n_field);

	cs->n = 0;
	for (int b = 0; b < n_field; b++) {
		int k = seeds_of(o, field[b]);
		for (int run = 0; run < 2 * (k ? k : 1); run++) {
			if (cs->n == MAX_CHECK)
				return 0;
			check_game *g = &cs->g[cs->n++];
			memset(g, 0, sizeof *g);
			g->bot = b;
			g->seat = run % 2;
			g->seed = k ? run / 2 + 1 : 0;
		}
	}
	return 1;
}

typedef struct feature_watch {
	int seat, cycle; /* the first of N_CYCLES, the others its multiples */
	check_game *g;
} feature_watch;

/* What our side sees at its first decision at or after each switch cycle (ms_rts_switch_features). */
static int watch_features(void *ud, const ms_rts_state *s)
{
	feature_watch *w = ud;
	for (int c = 0; c < N_CYCLES; c++) {
		if (w->g->seen[c] || ms_rts_state_time(s) < w->cycle * (c + 1))
			continue;
		w->g->seen[c] = 1;
		int rc = ms_rts_switch_features(s, w->seat, w->g->f[c]);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Plays every check game with our side `prog` (or, when NULL, the bot of
 * `spec`) and fills the scores; with `features`, what our side saw at the
 * switch cycle too. The sum of the scores into *total.
 */
static int play_checks(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, int max_cycles,
		       const ms_dsl_prog *prog, const char *spec, int features, check_set *cs, double *total)
{
	int n_field;
	const char *const *field = field_of(o, &n_field);
	ms_match_options mo = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .map = "the game's map",
			     .max_cycles = max_cycles, .edition = o->edition, .initial = first };
	ms_match *m = NULL;
	int rc;

	*total = 0;
	if ((rc = ms_match_new(ctx, &m, &mo)))
		return rc;
	for (int i = 0; i < cs->n; i++) {
		check_game *g = &cs->g[i];
		ms_match_player pl[2];
		ms_match_result r;
		feature_watch w = { g->seat, o->switch_cycle, g };
		pl[g->seat] = prog ? ms_match_player_program(prog) : ms_match_player_spec(spec);
		pl[1 - g->seat] = ms_match_player_spec(field[g->bot]);
		if (features)
			memset(g->seen, 0, sizeof g->seen);
		if ((rc = ms_match_reseed(m, g->seed, g->seed > 0)))
			break;
		rc = ms_match_play_observed(m, pl, features ? watch_features : NULL, &w, &r);
		if (rc && r.crashed < 0)
			break;
		rc = MS_OK; /* a side whose decision failed lost, as the harness scores a crash */
		g->score = r.winner < 0 ? 0.5 : r.winner == g->seat ? 1.0 : 0.0;
		*total += g->score;
	}
	ms_match_free(m);
	return rc;
}

/* The score of field bot `b`'s check games, and their count into *n (NULL: not wanted). */
static double bot_score(const check_set *cs, int b, int *n)
{
	double sum = 0;
	int k = 0;
	for (int i = 0; i < cs->n; i++)
		if (cs->g[i].bot == b) {
			sum += cs->g[i].score;
			k++;
		}
	if (n)
		*n = k;
	return sum;
}

/*
 * Drops the cases of bots that look like another bot with another program
 * at the switch cycle (distance 0, same seat), until none do; the least
 * distance between cases of different programs into *least (HUGE_VAL: none).
 */
static void settle_cases(const check_set *cs, int c, int *has_case, double *least)
{
	int again = 1;
	while (again) {
		again = 0;
		*least = HUGE_VAL;
		for (int i = 0; i < cs->n; i++)
			for (int j = i + 1; j < cs->n; j++) {
				const check_game *a = &cs->g[i], *b = &cs->g[j];
				if (!a->seen[c] || !b->seen[c] || a->seat != b->seat || a->bot == b->bot ||
				    (!has_case[a->bot] && !has_case[b->bot]))
					continue;
				double d = ms_rts_switch_distance(a->f[c], b->f[c]);
				if (d == 0) {
					has_case[a->bot] = has_case[b->bot] = 0;
					again = 1;
				} else if (d < *least)
					*least = d;
			}
	}
}

/* `p`'s exact-tree text, on `ctx` (a program lives no longer than its problem's grammar). */
static int salve_text(ms_ctx *ctx, const ms_dsl_prog *p, char **out)
{
	char *text = NULL;
	int rc;
	if ((rc = ms_rts_dsl_print(p, MS_RTS_DSL_FORM_SALVE, &text, NULL)))
		return rc;
	*out = ms_ctx_strdup(ctx, text);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	return *out ? MS_OK : ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
}

/* The switch text: `before` until the cycle, then each seen check game's bot's case (or `before`). */
static int compose_switch(const ms_rts_pregame_options *o, const check_set *cs, int c, const char *before,
			  char *const *cases, const int *has_case, double least, ms_buf *b)
{
	int n_field;
	const char *const *field = field_of(o, &n_field);

	if (ms_buf_printf(b, "microsynth-switch 1\ncycle %d\n", o->switch_cycle * (c + 1)) ||
	    (!isinf(least) && ms_buf_printf(b, "radius %.17g\n", least / 2)) ||
	    ms_buf_printf(b, "program before\n%s\nend\n", before))
		return MS_ENOMEM;
	for (int k = 0; k < n_field; k++)
		if (has_case[k] && ms_buf_printf(b, "program case%d\n%s\nend\n", k, cases[k]))
			return MS_ENOMEM;
	if (ms_buf_puts(b, "before before\n"))
		return MS_ENOMEM;
	for (int i = 0; i < cs->n; i++) {
		const check_game *g = &cs->g[i];
		if (!g->seen[c])
			continue;
		if (ms_buf_printf(b, "case %s %d", field[g->bot], g->seat))
			return MS_ENOMEM;
		for (int j = 0; j < MS_RTS_SWITCH_FEATURES; j++)
			if (ms_buf_printf(b, " %.17g", g->f[c][j]))
				return MS_ENOMEM;
		if (has_case[g->bot] ? ms_buf_printf(b, " case%d\n", g->bot) : ms_buf_puts(b, " before\n"))
			return MS_ENOMEM;
	}
	return ms_buf_append(b, "", 0) ? MS_ENOMEM : MS_OK;
}

/* One case search: `bot` alone, our side playing `before` until the switch cycle, from `before`. */
static int case_search(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, const char *bot,
		       int cycle, const ms_dsl_prog *before, double until, long long evals, double margin, uint64_t seed,
		       char **out, double *score, long long *made)
{
	const char *opp[] = { bot };
	ms_rts_synth *rs = NULL;
	ms_dsl_prog *from = NULL, *best = NULL;
	double psi;
	int rc;

	*out = NULL;
	*score = -1;
	*made = 0;
	if ((rc = new_problem(ctx, first, o, opp, 1, seeds_of(o, bot), before, cycle, &rs)) ||
	    (rc = regrammar(ctx, rs, before, &from)) ||
	    (rc = sa_stage(ctx, rs, o, from, until, evals, margin, seed, &best, &psi, made)))
		goto done;
	if (best) {
		ms_rts_synth_result r;
		if ((rc = ms_rts_synth_score(ctx, rs, best, 0, &r)) || (rc = salve_text(ctx, best, out)))
			goto done;
		*score = r.wins + 0.5 * r.draws;
	}
done:
	ms_dsl_prog_free(best);
	ms_dsl_prog_free(from);
	ms_rts_synth_free(rs);
	return rc;
}

/* 1 when bot a's case should be searched before bot b's (see switch_stage). */
static int case_before(const ms_rts_pregame_options *o, const check_set *cs, const char *const *field, int a, int b)
{
	int na, nb;
	double ra = bot_score(cs, a, &na), rb = bot_score(cs, b, &nb);
	ra /= na ? na : 1;
	rb /= nb ? nb : 1;
	if (ra != rb)
		return ra > rb;
	return seeds_of(o, field[a]) < seeds_of(o, field[b]);
}

/*
 * 1 when bot k's games that reached switch cycle c all look unlike every
 * other bot's game of the same seat there (and one did reach it): a switch
 * at c cannot take k for another bot or another bot for k.
 */
static int separable(const check_set *cs, int k, int c)
{
	int seen = 0;
	for (int i = 0; i < cs->n; i++) {
		const check_game *a = &cs->g[i];
		if (a->bot != k || !a->seen[c])
			continue;
		seen = 1;
		for (int j = 0; j < cs->n; j++) {
			const check_game *b = &cs->g[j];
			if (b->bot != k && b->seat == a->seat && b->seen[c] &&
			    ms_rts_switch_distance(a->f[c], b->f[c]) == 0)
				return 0;
		}
	}
	return seen;
}

/*
 * The switch cycle (an index into the cycles tried) at which the most bots
 * that won a game (`lost`) look like no other, ties to the earliest; those
 * bots into weak[] (*n, at most max_cases), the likeliest cases first: the
 * bots the program already scores most against, then those that draw no
 * unseeded numbers (one game a seat to win, not one per seed), then the
 * field's order.
 */
static int choose_cases(const ms_rts_pregame_options *o, const check_set *cs, int max_cycles, const int *lost,
			int *weak, int *n)
{
	int n_field, c = 0;
	const char *const *field = field_of(o, &n_field);

	for (int t = 0, most = 0; t < N_CYCLES && o->switch_cycle * (t + 1) < max_cycles; t++) {
		int sep = 0;
		for (int k = 0; k < n_field; k++)
			sep += lost[k] && separable(cs, k, t);
		if (sep > most) {
			most = sep;
			c = t;
		}
	}
	*n = 0;
	for (int k = 0; k < n_field; k++)
		if (lost[k] && separable(cs, k, c))
			weak[(*n)++] = k;
	for (int i = 1; i < *n; i++)
		for (int j = i; j > 0 && case_before(o, cs, field, weak[j], weak[j - 1]); j--) {
			int t = weak[j];
			weak[j] = weak[j - 1];
			weak[j - 1] = t;
		}
	if (*n > o->max_cases)
		*n = o->max_cases;
	return c;
}

/* Plays the switch `text` against the check games; their score into *total. */
static int check_switch(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, int max_cycles,
			const ms_buf *text, check_set *cs, double *total)
{
	size_t plen = strlen("switch-text:");
	char *spec = ms_ctx_calloc(ctx, plen + text->len + 1, 1);
	int rc;
	if (!spec)
		return ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
	memcpy(spec, "switch-text:", plen);
	memcpy(spec + plen, text->data, text->len);
	rc = play_checks(ctx, first, o, max_cycles, NULL, spec, 0, cs, total);
	ms_ctx_mfree(ctx, spec);
	return rc;
}

/*
 * The switch stage, given `prog`'s check (run_check: *given, taken and freed here, NULL
 * when the field is too large; its score `base`, its time `check_s`): picks the earliest switch cycle (1 to 4
 * times the options') at which most of the bots it loses games to can be
 * told from the rest; searches their cases until `deadline` (or `evals`),
 * builds the switch, checks it and keeps it (res->switch_text) when it
 * scores more than `prog` alone. *searched: 0 when no case was searched
 * (no such bot), so the caller can spend the time otherwise.
 */
static int switch_stage(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, int max_cycles,
			const ms_dsl_prog *prog, check_set **given, double base, double check_s, double deadline,
			long long evals, double margin, run_state *rst, ms_rts_pregame_result *res, int *searched)
{
	check_set *cs = *given;
	int n_field, has_case[64] = { 0 }, lost[64], weak[64], n_weak = 0, rc = MS_OK, c;
	const char *const *field = field_of(o, &n_field);
	char *cases[64] = { NULL }, *before = NULL;
	ms_buf b;
	double least;

	*given = NULL; /* ours now */
	*searched = 0;
	ms_buf_init(&b, ctx);
	if (!cs)
		goto done;
	if (n_field > 64) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "pre-game synthesis: a field of %d bots (at most 64)", n_field);
		goto done;
	}
	res->check_games = cs->n;
	res->check_program = base;
	for (int k = 0; k < n_field; k++) {
		int n;
		double sc = bot_score(cs, k, &n);
		if (k < MS_RTS_PREGAME_BOTS) {
			res->bot[k].name = field[k];
			res->bot[k].games = n;
			res->bot[k].program = sc;
			res->bot[k].case_score = -1;
		}
		lost[k] = sc < n;
	}
	c = choose_cases(o, cs, max_cycles, lost, weak, &n_weak);
	res->switch_cycle = o->switch_cycle * (c + 1);
	*searched = n_weak > 0;
	/* the final check plays the same games as the first; keep its time in hand */
	double reserve = 2 * check_s + 0.1;
	for (int i = 0; i < n_weak; i++) {
		int k = weak[i];
		double until = 0, score;
		long long quota = 0, made;
		if (deadline > 0) {
			until = ms_now() + (deadline - reserve - ms_now()) / (n_weak - i);
			if (until - margin - ms_now() < 0.05)
				break;
		}
		if (evals > 0) {
			quota = (evals - res->case_evals) / (n_weak - i);
			if (quota < 1)
				break;
		}
		if ((rc = case_search(ctx, first, o, field[k], res->switch_cycle, prog, until, quota, margin,
				      o->seed + 2 + (uint64_t)k, &cases[k], &score, &made)))
			goto done;
		res->case_evals += made;
		rst->evals += made;
		has_case[k] = cases[k] && score > bot_score(cs, k, NULL);
		if (k < MS_RTS_PREGAME_BOTS)
			res->bot[k].case_score = score;
	}
	settle_cases(cs, c, has_case, &least);
	int any = 0;
	for (int k = 0; k < n_field; k++)
		any += has_case[k];
	if (!any)
		goto done;
	if ((rc = salve_text(ctx, prog, &before)))
		goto done;
	if ((rc = compose_switch(o, cs, c, before, cases, has_case, least, &b))) {
		if (rc == MS_ENOMEM)
			ms_ctx_error(ctx, rc, "pre-game synthesis: out of memory");
		goto done;
	}
	/* the check of the whole switch, as the harness will play it */
	double total;
	if ((rc = check_switch(ctx, first, o, max_cycles, &b, cs, &total)))
		goto done;
	res->check_switch = total;
	if (total > base) {
		if (!(res->switch_text = ms_ctx_strdup(ctx, b.data))) {
			rc = ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
			goto done;
		}
		res->cases = any;
		for (int k = 0; k < n_field && k < MS_RTS_PREGAME_BOTS; k++)
			res->bot[k].in_switch = has_case[k];
	}
done:
	for (int k = 0; k < 64; k++)
		ms_ctx_mfree(ctx, cases[k]);
	ms_ctx_mfree(ctx, before);
	ms_buf_dispose(&b);
	ms_ctx_mfree(ctx, cs);
	return rc;
}

/* Options of any known version as the current one (version 1 makes no switch, 1 and 2 screen no archetype). */
static int upgrade_opts(ms_ctx *ctx, const ms_rts_pregame_options *given, ms_rts_pregame_options *o)
{
	static const size_t ends[] = { offsetof(ms_rts_pregame_options, case_share),
				       offsetof(ms_rts_pregame_options, archetypes) };
	if (!given || given->version < 1 || given->version > MS_RTS_PREGAME_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "pre-game synthesis: options missing or of an unknown version");
	/* the fields each version has, over the defaults; then what the older versions did not do */
	ms_rts_pregame_options_init(o, MS_RTS_PREGAME_OPTIONS_VERSION);
	memcpy(o, given, ms_opts_size(given->version, ends, sizeof ends / sizeof *ends, sizeof *o));
	if (given->version < 2)
		o->case_share = 0;
	if (given->version < 3)
		o->archetypes = 0;
	return MS_OK;
}

/*
 * The check of `prog` (every field bot, both seats, the seeds), with what
 * our side saw at the switch cycles: into *out (NULL when the field is too
 * large to check), its total score into *total and its time into *secs.
 */
static int run_check(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o, int max_cycles,
		     const ms_dsl_prog *prog, check_set **out, double *total, double *secs)
{
	check_set *cs = ms_ctx_calloc(ctx, 1, sizeof *cs);
	double t0 = ms_now();
	int rc = MS_OK;

	*out = NULL;
	*total = *secs = 0;
	if (!cs)
		return ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
	if (!plan_checks(o, cs) || (rc = play_checks(ctx, first, o, max_cycles, prog, NULL, 1, cs, total))) {
		ms_ctx_mfree(ctx, cs);
		return rc;
	}
	*secs = ms_now() - t0;
	*out = cs;
	return MS_OK;
}

/* 1 when the budget has room for one more batch (its time: `margin`). */
static int budget_left(const ms_rts_pregame_options *o, const run_state *rst, double margin)
{
	return rst->deadline > 0 ? ms_now() + margin < rst->deadline : o->max_evals - rst->evals > 0;
}

/* SA on `rs` from *best with the rest of the budget; *best and *psi take its result when it scores more. */
static int go_on(ms_ctx *ctx, const ms_rts_synth *rs, const ms_rts_pregame_options *o, run_state *rst, double margin,
		 uint64_t seed, ms_dsl_prog **best, double *psi, long long *made)
{
	ms_dsl_prog *more = NULL;
	double p = -1;
	int rc = sa_stage(ctx, rs, o, *best, rst->deadline, o->max_evals > 0 ? o->max_evals - rst->evals : 0, margin,
			  seed, &more, &p, made);
	if (rc)
		return rc;
	rst->evals += *made;
	if (more && p > *psi) {
		ms_dsl_prog_free(*best);
		*best = more;
		*psi = p;
	} else
		ms_dsl_prog_free(more);
	return MS_OK;
}

int ms_rts_pregame(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *given,
		   ms_rts_pregame_result *res)
{
	ms_rts_pregame_options opts;
	const ms_rts_pregame_options *o = &opts;
	ms_rts_synth *rs = NULL, *rs2 = NULL;
	ms_dsl_prog *start = NULL, *best1 = NULL, *best2 = NULL, *from2 = NULL;
	check_set *cs = NULL; /* the program's check, passed on to the switch stage */
	run_state rst = { 0 };
	double batch_s = 0, base = 0, check_s = 0;
	long long made = 0;
	int rc;

	memset(res, 0, sizeof *res);
	res->start = -1;
	res->start_psi = res->psi = res->check_switch = -1;
	if ((rc = upgrade_opts(ctx, given, &opts)) || (rc = check_opts(ctx, first, o)))
		return rc;
	rst.start = ms_now();
	rst.deadline = o->seconds > 0 ? rst.start + o->seconds : 0;
	if ((rc = make_problem(ctx, first, o, 0, &rs)) ||
	    (rc = screen(ctx, rs, o, &rst, &start, res, &batch_s)))
		goto done;
	int cycles = ms_rts_synth_max_cycles(rs, 0);
	/* SA's batch is `neighbours` programs over `threads`; a screening batch was `threads` programs */
	double margin = batch_s * (double)((o->neighbours + o->threads - 1) / o->threads) + 0.2;
	int two = o->stochastic_share > 0 && o->opponent_seeds >= 2 && field_draws(o);
	double share2 = two ? o->stochastic_share : 0, share_c = o->max_cases > 0 ? o->case_share : 0;
	double stage1_end = rst.deadline > 0 ? rst.start + o->seconds * (1 - share2 - share_c) : 0;
	long long left = o->max_evals - rst.evals > 0 ? o->max_evals - rst.evals : 1;
	long long evals1 = o->max_evals > 0 ? (long long)(left * (1 - share2 - share_c)) : 0;
	if (o->max_evals > 0 && evals1 < 1)
		evals1 = 1;
	if ((rc = sa_stage(ctx, rs, o, start, stage1_end, evals1, margin, o->seed, &best1, &res->psi, &made)))
		goto done;
	rst.evals += made;
	res->stage1_evals = made;
	if (!best1 && start) { /* no time for a batch: the screened best stands */
		best1 = start;
		start = NULL;
		res->psi = res->start_psi;
	}
	if (share_c > 0 && best1) {
		/* the cases' share comes back to the search when the program loses no game to the field */
		if ((rc = run_check(ctx, first, o, cycles, best1, &cs, &base, &check_s)))
			goto done;
		if (!cs || base >= cs->n)
			share_c = 0;
	}
	if (!two && share_c == 0 && best1 && budget_left(o, &rst, margin)) {
		/* nothing else to spend the rest on: the first stage goes on from its best */
		if ((rc = go_on(ctx, rs, o, &rst, margin, o->seed + 1, &best1, &res->psi, &made)))
			goto done;
		res->stage1_evals += made;
	}
	long long evals2 = o->max_evals > 0 ? (share_c > 0 ? (long long)(left * share2) : o->max_evals - rst.evals) : 0;
	double stage2_end = rst.deadline > 0 && share_c > 0 ? rst.start + o->seconds * (1 - share_c) : rst.deadline;
	if (two && best1 && (rst.deadline <= 0 || ms_now() + margin * o->opponent_seeds < stage2_end) &&
	    (o->max_evals <= 0 || evals2 > 0)) {
		double psi2 = -1;
		if ((rc = make_problem(ctx, first, o, o->opponent_seeds, &rs2)) ||
		    (rc = regrammar(ctx, rs2, best1, &from2)) ||
		    (rc = sa_stage(ctx, rs2, o, from2, stage2_end, evals2, margin * o->opponent_seeds,
				   o->seed + 1, &best2, &psi2, &made)))
			goto done;
		rst.evals += made;
		res->stage2_evals = made;
		res->stochastic_psi = psi2;
	}
	ms_dsl_prog **chosen = best2 ? &best2 : &best1;
	if (!*chosen) {
		rc = ms_ctx_error(ctx, MS_ERANGE, "pre-game synthesis: the budget ended before any program was scored");
		goto done;
	}
	int searched = 0;
	double seeds = o->opponent_seeds > 1 ? o->opponent_seeds : 1;
	if (share_c > 0 && best2) { /* the second stage changed the program: check it anew */
		ms_ctx_mfree(ctx, cs);
		if ((rc = run_check(ctx, first, o, cycles, best2, &cs, &base, &check_s)))
			goto done;
	}
	if (share_c > 0 && (rc = switch_stage(ctx, first, o, cycles, *chosen, &cs, base, check_s, rst.deadline,
					      o->max_evals > 0 ? o->max_evals - rst.evals : 0, margin * seeds, &rst,
					      res, &searched)))
		goto done;
	if (share_c > 0 && !searched && budget_left(o, &rst, margin * seeds)) {
		/* no bot it loses to can be told apart: the cases' time goes on the program's own search */
		if ((rc = go_on(ctx, rs2 ? rs2 : rs, o, &rst, margin * (rs2 ? seeds : 1), o->seed + 2, chosen,
				rs2 ? &res->stochastic_psi : &res->psi, &made)))
			goto done;
		*(rs2 ? &res->stage2_evals : &res->stage1_evals) += made;
	}
	char *text = NULL;
	if ((rc = ms_rts_dsl_print(*chosen, MS_RTS_DSL_FORM_SALVE, &text, NULL)))
		goto done;
	res->program = ms_ctx_strdup(ctx, text);
	ms_ctx_mfree(ms_dsl_prog_ctx(*chosen), text);
	if (!res->program) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "pre-game synthesis: out of memory");
		goto done;
	}
	res->evals = rst.evals;
	res->seconds = ms_now() - rst.start;
done:
	if (rc) {
		ms_ctx_mfree(ctx, res->switch_text);
		res->switch_text = NULL;
	}
	ms_ctx_mfree(ctx, cs);
	ms_dsl_prog_free(start);
	ms_dsl_prog_free(best1);
	ms_dsl_prog_free(best2);
	ms_dsl_prog_free(from2);
	ms_rts_synth_free(rs);
	ms_rts_synth_free(rs2);
	return rc;
}
