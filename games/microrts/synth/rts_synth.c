/*
 * MicroRTS as a synthesis problem (rts_synth.h): Psi over matches against
 * numbered opponents on the match interface (native or official backend
 * per opponent), the observable-outcome score O against an oracle's
 * matches, and a final scoring in either engine.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "microsynth/rts_synth.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "core/buf.h"
#include "core/hash.h"
#include "core/internal.h"
#include "games/microrts/synth/rts_observe.h"

/*
 * O's share: the O score (at most 1 per match) of all 2 x maps x opponents
 * matches together stays below this, under Psi's resolution (half a match).
 */
#define O_TOTAL 0.25

static const char *const rf_type_names[RF_TYPES] = { "Worker", "Light", "Heavy", "Ranged", "Barracks", "Base" };

/*
 * The counts of recent Psi matches, so that F(p) reuses the matches Psi
 * just played against the feature opponent instead of playing them again
 * (HSS measures F of every program its passes score). Matches are
 * deterministic, so a hit gives what a replay would. Direct-mapped by
 * program hash, opponent and shard. Every native Psi match fills it: HSS's
 * first pass runs before its first features() call, and observing a match
 * costs about 1% of playing it.
 */
enum { FCACHE_SLOTS = 1 << 14 };
typedef struct fcache_entry {
	uint64_t hash;
	int opponent, shard, valid;
	double c[RF_COUNT];
} fcache_entry;

/*
 * An opponent as given, and a program opponent (program:FILE,
 * program-text:TEXT) parsed once when the problem is made, so its matches
 * hand it over in memory rather than parsing its text each time.
 */
typedef struct rts_opponent {
	char *spec;
	int java;            /* 1: a Java class, played in the JVM */
	ms_dsl_prog *prog;   /* a program opponent; NULL for the others */
} rts_opponent;

struct ms_rts_synth {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	int n_maps, n_opp;
	char **maps;            /* as given */
	const ms_rts_state **states; /* [map] first states in memory (borrowed; the array is ours), or NULL */
	int *max_cycles;        /* per map */
	rts_opponent *opp;      /* [n_opp] */
	int utt, conflict, edition, tiebreak;
	char *harness_jar, *harness_dir;
	int java_hang_ms;       /* official matches: a decision this long loses (0: the match default) */
	char *oracle, *c_opp;   /* NULL without C */
	double *oracle_f;       /* [map][seat][N_FEATURES] */
	double eps;             /* weight of O in tie-broken Psi */
	int for_prod, s_nt;     /* for(Unit u){S} and S, to wrap unbound programs */
	char *fingerprint;      /* the problem's settings, uncut (ms_buf) */
	ms_dsl_prog *prefix;    /* switch cases: played before switch_cycle, then the candidate */
	int switch_cycle;
	int opp_seeds;          /* >= 2: stochastic native opponents, this many seeds per seat */
	ms_synth_problem pb;
	pthread_mutex_t fc_mu;
	int fc_mu_ok;           /* fc_mu initialised */
	fcache_entry *fc;       /* [FCACHE_SLOTS] */
	/* opponent faults met by evaluations, from any worker thread */
	atomic_long f_crashes, f_timeouts, f_errors;
};

typedef struct worker {
	ms_ctx *ctx;
	ms_match **nat;         /* [map] native contexts */
	ms_match **off;         /* [map] official contexts, opened on first use */
	int types[RF_TYPES];    /* type ids of rf_type_names (-1: none in the table) */
} worker;

/* ---- the feature cache ------------------------------------------------------- */

static fcache_entry *fc_slot(ms_rts_synth *rs, uint64_t hash, int opponent, int shard)
{
	uint64_t k = hash ^ ((uint64_t)(unsigned)opponent * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)(unsigned)shard << 40);
	k ^= k >> 29;
	return &rs->fc[k & (FCACHE_SLOTS - 1)];
}

static int fc_get(ms_rts_synth *rs, uint64_t hash, int opponent, int shard, double c[RF_COUNT])
{
	int hit;
	pthread_mutex_lock(&rs->fc_mu);
	fcache_entry *e = fc_slot(rs, hash, opponent, shard);
	hit = e->valid && e->hash == hash && e->opponent == opponent && e->shard == shard;
	if (hit)
		memcpy(c, e->c, sizeof e->c);
	pthread_mutex_unlock(&rs->fc_mu);
	return hit;
}

static void fc_put(ms_rts_synth *rs, uint64_t hash, int opponent, int shard, const double c[RF_COUNT])
{
	pthread_mutex_lock(&rs->fc_mu);
	fcache_entry *e = fc_slot(rs, hash, opponent, shard);
	e->hash = hash;
	e->opponent = opponent;
	e->shard = shard;
	e->valid = 1;
	memcpy(e->c, c, sizeof e->c);
	pthread_mutex_unlock(&rs->fc_mu);
}

/* ---- matches ---------------------------------------------------------------- */

static int open_match(const ms_rts_synth *rs, ms_ctx *ctx, int map, int official, ms_match **out)
{
	ms_match_opts mo = { .version = MS_MATCH_OPTS_VERSION,
			     .backend = official ? MS_MATCH_OFFICIAL : MS_MATCH_NATIVE,
			     .map = rs->maps[map],
			     .initial = rs->states && !official ? rs->states[map] : NULL,
			     .utt = rs->utt,
			     .conflict = rs->conflict,
			     .max_cycles = rs->max_cycles ? rs->max_cycles[map] : 0,
			     .edition = rs->edition,
			     .harness_jar = rs->harness_jar,
			     .harness_dir = rs->harness_dir,
			     .hang_ms = rs->java_hang_ms };
	return ms_match_new(ctx, out, &mo);
}

static double score_of(int winner, int seat)
{
	return winner < 0 ? 0.5 : winner == seat ? 1.0 : 0.0;
}

/* What plays opponent o: its program, parsed once, or its spec. */
static ms_match_player opp_player(const rts_opponent *o)
{
	return o->prog ? ms_match_player_program(o->prog) : ms_match_player_spec(o->spec);
}

/* One match of `prog` in `seat` against `opp`; observer `ob` (native only) may be NULL. */
static int play(const ms_rts_synth *rs, ms_match *m, const ms_dsl_prog *prog, ms_match_player opp, int seat,
		rts_observer *ob, ms_match_result *res)
{
	ms_match_player pl[2];
	pl[seat] = ms_match_player_program(prog);
	pl[seat].prefix = rs->prefix;
	pl[seat].switch_cycle = rs->switch_cycle;
	pl[1 - seat] = opp;
	if (!ob)
		return ms_match_play(m, pl, NULL, res);
	return ms_match_play_observed(m, pl, rts_observe, ob, res);
}

/*
 * A native match that fails: the opponents and maps were all checked when
 * the problem was made, so what fails mid-match is the candidate program (a
 * run-time error), which scores 0 as in the reference; running out of
 * memory stays an error.
 */
static int native_failure(int rc)
{
	return rc == MS_ENOMEM ? rc : MS_SYNTH_FAILED;
}

/* A native match against an opponent that failed: the opponent's failure is
 * its loss, as the harness scores a crash (counted; 0, the result stands);
 * anything else is the candidate's (native_failure). */
static int native_failed(ms_rts_synth *rs, int rc, const ms_match_result *res, int seat)
{
	if (rc == MS_ENOMEM || res->crashed != 1 - seat)
		return native_failure(rc);
	atomic_fetch_add(&rs->f_errors, 1);
	return 0;
}

/* ---- the problem's callbacks ------------------------------------------------ */

static int worker_new(void *user, ms_ctx *ctx, int id, void **state)
{
	const ms_rts_synth *rs = user;
	worker *w = ms_ctx_calloc(ctx, 1, sizeof *w);
	int rc = MS_OK;
	(void)id;

	*state = NULL;
	if (!w || !(w->nat = ms_ctx_calloc(ctx, (size_t)rs->n_maps, sizeof *w->nat)) ||
	    !(w->off = ms_ctx_calloc(ctx, (size_t)rs->n_maps, sizeof *w->off)))
		rc = ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	if (w)
		w->ctx = ctx;
	/* Official contexts too, here: workers are made one after another on
	 * the caller's thread, and the process's JVM must not be started by two
	 * threads at once. */
	int java = 0;
	for (int k = 0; k < rs->n_opp; k++)
		java |= rs->opp[k].java;
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		rc = open_match(rs, ctx, i, 0, &w->nat[i]);
		if (rc == MS_OK && java)
			rc = open_match(rs, ctx, i, 1, &w->off[i]);
	}
	if (rc && w) {
		for (int i = 0; w->nat && i < rs->n_maps; i++) {
			ms_match_free(w->nat[i]);
			ms_match_free(w->off ? w->off[i] : NULL);
		}
		ms_ctx_mfree(ctx, w->nat);
		ms_ctx_mfree(ctx, w->off);
		ms_ctx_mfree(ctx, w);
		return rc;
	}
	const ms_rts_utt *utt = ms_match_utt(w->nat[0]);
	for (int k = 0; k < RF_TYPES; k++) {
		w->types[k] = ms_rts_utt_find(utt, rf_type_names[k]);
		if (w->types[k] >= MS_RTS_MAX_TYPES)
			w->types[k] = -1;
	}
	*state = w;
	return MS_OK;
}

static void worker_free(void *user, void *state)
{
	const ms_rts_synth *rs = user;
	worker *w = state;
	if (!w)
		return;
	for (int i = 0; i < rs->n_maps; i++) {
		ms_match_free(w->nat[i]);
		ms_match_free(w->off[i]);
	}
	ms_ctx_mfree(w->ctx, w->nat);
	ms_ctx_mfree(w->ctx, w->off);
	ms_ctx_mfree(w->ctx, w);
}

/* A player's material: each unit's cost times the share of hit points it has left, plus its stockpile. */
static double material(const ms_rts_state *s, int player)
{
	const ms_rts_utt *utt = ms_rts_state_utt(s);
	double m = ms_rts_state_resources(s, player);
	ms_rts_unit u;
	for (int i = 0, n = ms_rts_state_unit_count(s); i < n; i++) {
		if (ms_rts_state_unit(s, i, &u) || u.player != player)
			continue;
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, u.type);
		if (t && t->hp > 0)
			m += (double)t->cost * u.hitpoints / t->hp + u.resources;
	}
	return m;
}

/*
 * eps times how good match m was for the program beyond its result: a loss
 * late, a win early (LENGTH, MATERIAL); under MATERIAL a draw by the program's
 * share of the material left in m's final state (the official backend keeps
 * none: its draws score the middle).
 */
static double tiebreak(const ms_rts_synth *rs, const ms_match *m, int map, const ms_match_result *r, int seat)
{
	const ms_rts_state *final = ms_match_final_state(m);
	double f = (double)r->cycles / rs->max_cycles[map];
	if (rs->tiebreak != MS_RTS_TIEBREAK_LENGTH && rs->tiebreak != MS_RTS_TIEBREAK_MATERIAL)
		return 0;
	if (f > 1)
		f = 1;
	if (r->winner < 0 && rs->tiebreak == MS_RTS_TIEBREAK_MATERIAL && final) {
		double ours = material(final, seat), theirs = material(final, 1 - seat);
		return rs->eps * (ours + theirs > 0 ? ours / (ours + theirs) : 0.5);
	}
	return rs->eps * (r->winner < 0 ? 0.5 : r->winner == seat ? 1 - f : f);
}

static int eval_vs(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int opponent,
		   int shard, uint64_t seed, double *sum, double *weight)
{
	ms_rts_synth *rs = user;
	worker *w = state;
	int map = shard / 2, seat = shard % 2, rc;
	ms_match_result res;
	rts_observer ob;
	(void)seed;

	*sum = *weight = 0;
	if (kind == MS_SYNTH_C) {
		/* O: this program's match against the C opponent beside the oracle's */
		rts_observer_start(&ob, ms_match_initial_state(w->nat[map]), seat);
		if ((rc = play(rs, w->nat[map], prog, ms_match_player_spec(rs->c_opp), seat, &ob, &res)))
			return native_failure(rc);
		*sum = rts_similarity(ob.f, rs->oracle_f + (size_t)(map * 2 + seat) * N_FEATURES);
		*weight = 1;
		return 0;
	}
	const rts_opponent *op = &rs->opp[opponent];
	if (op->java) {
		if ((rc = play(rs, w->off[map], prog, opp_player(op), seat, NULL, &res)))
			return rc;
		/* the harness already scored these as the opponent's losses */
		if (res.crashed == 1 - seat)
			atomic_fetch_add(&rs->f_crashes, 1);
		else if (res.timed_out == 1 - seat)
			atomic_fetch_add(&rs->f_timeouts, 1);
		*sum = score_of(res.winner, seat) + tiebreak(rs, w->off[map], map, &res, seat);
	} else {
		int tie = rs->tiebreak == MS_RTS_TIEBREAK_O && rs->oracle_f;
		if (rs->opp_seeds >= 2 && ms_bot_draws_unseeded(op->spec)) {
			/* a stochastic opponent: the mean over its seeds */
			for (int k = 0; k < rs->opp_seeds; k++) {
				ms_match_reseed(w->nat[map], k + 1, 1);
				rc = play(rs, w->nat[map], prog, opp_player(op), seat, NULL, &res);
				ms_match_reseed(w->nat[map], 0, 0);
				if (rc && (rc = native_failed(rs, rc, &res, seat)))
					return rc;
				*sum += score_of(res.winner, seat) + tiebreak(rs, w->nat[map], map, &res, seat);
			}
			*weight = rs->opp_seeds;
			return 0;
		}
		/* observed: the counts go to the feature cache */
		rts_observer_start(&ob, ms_match_initial_state(w->nat[map]), seat);
		ob.count_attacks = 1;
		if ((rc = play(rs, w->nat[map], prog, opp_player(op), seat, &ob, &res))) {
			if ((rc = native_failed(rs, rc, &res, seat)))
				return rc;
			*sum = score_of(res.winner, seat) + tiebreak(rs, w->nat[map], map, &res, seat);
			*weight = 1;
			return 0;
		}
		double c[RF_COUNT];
		rts_match_counts(&ob, w->types, c);
		fc_put(rs, ms_dsl_hash(prog), opponent, shard, c);
		*sum = score_of(res.winner, seat) + tiebreak(rs, w->nat[map], map, &res, seat);
		/* the O tie-break is only defined against the C opponent's outcomes; a native match gives the features */
		if (tie)
			*sum += rs->eps * rts_similarity(ob.f, rs->oracle_f + (size_t)(map * 2 + seat) * N_FEATURES);
	}
	*weight = 1;
	return 0;
}

/*
 * Behavioural features F(p) for HSS (synth.h, problem version 3).
 *
 * Aleixo's dissertation (2023) defines a feature as a map from a match's
 * states to an integer (4.5, p. 27; its example: the most pieces of a type
 * a player controls during a match) and, for MicroRTS, compares programs by
 * the units trained per type and the resources collected (5.2.5.2, p. 34).
 * Our copy ends before its HSS experiments (5.3), so their exact list is
 * unknown: these are the 5.2.5.2 quantities plus what issue 15 lists
 * (buildings built, units lost, attacks made, cycle of the first attack) and
 * enemy units destroyed, which the O score already counts.
 *
 * Each is the mean over one match per map and seat (the same matches as one
 * opponent's share of Psi) against the feature opponent, of the program's
 * seat, then put in a few bins: HSS's local bandits need few values per
 * feature, and the global bandit's vectors only repeat when values are
 * coarse. Bin edges separate the behaviours seen on 16x16 maps against
 * CoacAI (docs/hss-selfplay.md): none at all, a little, a rush's amount, a
 * lot. Matches are deterministic (seed 0), so F(p) ignores the seed, and
 * takes the counts of matches Psi has just played against the feature
 * opponent from the cache rather than playing them again.
 */
/* Lower edges of bins 1, 2, ...: a value v falls in the number of edges <= v. */
static const double rf_edges[RF_COUNT][5] = {
	[RF_WORKER] = { 1, 3, 6, 11 },     [RF_LIGHT] = { 1, 3, 6 },	 [RF_HEAVY] = { 1, 3, 6 },
	[RF_RANGED] = { 1, 3, 6 },	   [RF_BARRACKS] = { 1, 2 },	 [RF_BASE] = { 1 },
	[RF_HARVESTED] = { 1, 10, 25, 50 }, [RF_LOST] = { 1, 3, 6, 11 },  [RF_DESTROYED] = { 1, 3, 6, 11 },
	[RF_ATTACKS] = { 1, 10, 30, 100 },
	/* the cycle of the first attack, binned here then reversed (features()) */
	[RF_FIRST_ATTACK] = { 0, 100, 300, 600, 1200 },
};
static const int rf_values[RF_COUNT] = { 5, 4, 4, 4, 3, 2, 5, 5, 5, 5, 6 };
static const char *const rf_names[RF_COUNT] = { "workers-trained", "light-trained",   "heavy-trained",
						"ranged-trained",  "barracks-built",  "bases-built",
						"harvested",	   "units-lost",      "units-destroyed",
						"attacks",	   "first-attack" };

static int rf_bin(int feature, double v)
{
	int b = 0;
	while (b + 1 < rf_values[feature] && v >= rf_edges[feature][b])
		b++;
	return b;
}

/* The opponent F(p) is measured against: `opponent` if native, else the first native one, else WorkerRush (-1). */
static int feature_opponent(const ms_rts_synth *rs, int opponent)
{
	if (opponent >= 0 && opponent < rs->n_opp && !rs->opp[opponent].java)
		return opponent;
	for (int k = 0; k < rs->n_opp; k++)
		if (!rs->opp[k].java)
			return k;
	return -1;
}

static int features(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int opponent, uint64_t seed,
		    int *out, int n)
{
	ms_rts_synth *rs = user;
	worker *w = state;
	int opp = feature_opponent(rs, opponent), first_n = 0, rc;
	ms_match_player against = opp >= 0 ? opp_player(&rs->opp[opp]) : ms_match_player_spec("WorkerRush");
	uint64_t hash = ms_dsl_hash(prog);
	double sum[RF_COUNT] = { 0 };
	(void)seed;

	if (n != RF_COUNT)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts features: %d asked, %d defined", n, RF_COUNT);
	for (int shard = 0; shard < 2 * rs->n_maps; shard++) {
		int map = shard / 2, seat = shard % 2;
		double c[RF_COUNT];
		int hit = opp >= 0 && fc_get(rs, hash, opp, shard, c);
		if (!hit) {
			rts_observer ob;
			ms_match_result res;
			rts_observer_start(&ob, ms_match_initial_state(w->nat[map]), seat);
			ob.count_attacks = 1;
			if ((rc = play(rs, w->nat[map], prog, against, seat, &ob, &res)))
				return native_failure(rc);
			rts_match_counts(&ob, w->types, c);
			if (opp >= 0)
				fc_put(rs, hash, opp, shard, c);
		}
		for (int j = 0; j < RF_FIRST_ATTACK; j++)
			sum[j] += c[j];
		if (c[RF_FIRST_ATTACK] >= 0) {
			sum[RF_FIRST_ATTACK] += c[RF_FIRST_ATTACK];
			first_n++;
		}
	}
	int matches = 2 * rs->n_maps;
	for (int j = 0; j < RF_FIRST_ATTACK; j++)
		out[j] = rf_bin(j, sum[j] / matches);
	/* 0: no attack in most matches; else 1 for the latest (>= 1200) to 5 for the earliest (< 100), so that
	 * L1 distance orders programs by how soon they attack, "never" next to "very late" */
	if (2 * first_n <= matches)
		out[RF_FIRST_ATTACK] = 0;
	else
		out[RF_FIRST_ATTACK] = rf_values[RF_FIRST_ATTACK] - rf_bin(RF_FIRST_ATTACK, sum[RF_FIRST_ATTACK] / first_n);
	return 0;
}

/*
 * A command or unit condition outside every for loop makes the reference
 * interpreter throw, so such a program loses every match: the reference
 * (SL) starts its searches from for(Unit u){e} and such programs only
 * waste evaluations. Generation therefore wraps a sampled program that is
 * not bound in for(Unit u){...}, and mutation retries (up to MUTATE_TRIES
 * draws) until the neighbour is bound; the last draw is kept otherwise.
 */
enum { MUTATE_TRIES = 16 };

static int wrap_in_for(const ms_rts_synth *rs, ms_dsl_prog *prog)
{
	int n = ms_dsl_prog_len(prog), rc;
	ms_dsl_sym *copy = ms_ctx_malloc(rs->ctx, sizeof *copy * (size_t)(n > 0 ? n : 1));

	if (!copy)
		return ms_ctx_error(rs->ctx, MS_ENOMEM, "microrts problem: out of memory");
	memcpy(copy, ms_dsl_prog_nodes(prog), sizeof *copy * (size_t)n);
	ms_dsl_prog_clear(prog);
	rc = ms_dsl_prog_push(prog, (ms_dsl_sym)rs->for_prod);
	for (int i = 0; rc == MS_OK && i < n; i++)
		rc = ms_dsl_prog_push(prog, copy[i]);
	if (rc == MS_OK)
		rc = ms_dsl_prog_finish(prog, rs->s_nt);
	ms_ctx_mfree(rs->ctx, copy);
	return rc;
}

static int generate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const ms_rts_synth *rs = user;
	int rc = ms_rts_dsl_generate(prog, rng, 0);
	if (rc == MS_OK && ms_rts_dsl_check_bound(prog, NULL) != MS_OK)
		rc = wrap_in_for(rs, prog);
	return rc;
}

static int mutate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const ms_rts_synth *rs = user;
	ms_dsl_prog *from = NULL;
	int rc = ms_dsl_prog_clone(&from, prog);

	(void)rs;
	for (int t = 0; rc == MS_OK && t < MUTATE_TRIES; t++) {
		if (t && (rc = ms_dsl_prog_copy(prog, from)))
			break;
		if ((rc = ms_rts_dsl_mutate(prog, rng, NULL)) == MS_OK && ms_rts_dsl_check_bound(prog, NULL) == MS_OK)
			break;
	}
	ms_dsl_prog_free(from);
	return rc;
}

/* ---- construction --------------------------------------------------------------- */

static int is_native(const char *spec)
{
	return ms_bot_spec_native(spec);
}

void ms_rts_synth_free(ms_rts_synth *rs)
{
	if (!rs)
		return;
	for (int i = 0; rs->maps && i < rs->n_maps; i++)
		ms_ctx_mfree(rs->ctx, rs->maps[i]);
	for (int i = 0; rs->opp && i < rs->n_opp; i++) {
		ms_ctx_mfree(rs->ctx, rs->opp[i].spec);
		ms_dsl_prog_free(rs->opp[i].prog);
	}
	ms_ctx_mfree(rs->ctx, rs->maps);
	ms_ctx_mfree(rs->ctx, rs->states);
	ms_ctx_mfree(rs->ctx, rs->opp);
	ms_ctx_mfree(rs->ctx, rs->fingerprint);
	ms_ctx_mfree(rs->ctx, rs->max_cycles);
	ms_ctx_mfree(rs->ctx, rs->harness_jar);
	ms_ctx_mfree(rs->ctx, rs->harness_dir);
	ms_ctx_mfree(rs->ctx, rs->oracle);
	ms_ctx_mfree(rs->ctx, rs->c_opp);
	ms_dsl_prog_free(rs->prefix);
	ms_ctx_mfree(rs->ctx, rs->oracle_f);
	ms_ctx_mfree(rs->ctx, rs->fc);
	if (rs->fc_mu_ok)
		pthread_mutex_destroy(&rs->fc_mu);
	ms_dsl_grammar_free(rs->g);
	ms_ctx_mfree(rs->ctx, rs);
}

static char *dup_or_null(ms_ctx *ctx, const char *s, int *rc)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = ms_ctx_strdup(ctx, s)))
		*rc = MS_ENOMEM;
	return d;
}

/* The oracle's features on every map and seat against the C opponent. */
static int record_oracle(ms_rts_synth *rs)
{
	ms_ctx *ctx = rs->ctx;
	int rc = MS_OK;

	if (!(rs->oracle_f = ms_ctx_calloc(ctx, (size_t)rs->n_maps * 2 * N_FEATURES, sizeof(double))))
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		ms_match *m = NULL;
		if ((rc = open_match(rs, ctx, i, 0, &m)))
			break;
		for (int seat = 0; rc == MS_OK && seat < 2; seat++) {
			ms_match_player pl[2];
			ms_match_result res;
			rts_observer ob;
			pl[seat] = ms_match_player_spec(rs->oracle);
			pl[1 - seat] = ms_match_player_spec(rs->c_opp);
			rts_observer_start(&ob, ms_match_initial_state(m), seat);
			if ((rc = ms_match_play_observed(m, pl, rts_observe, &ob, &res)) == MS_OK)
				memcpy(rs->oracle_f + (size_t)(i * 2 + seat) * N_FEATURES, ob.f, sizeof ob.f);
			else
				rc = ms_ctx_error(ctx, rc, "oracle %s vs %s on %s: %s", rs->oracle, rs->c_opp, rs->maps[i],
						  ms_ctx_last_error(ctx));
		}
		ms_match_free(m);
	}
	return rc;
}

/* The options every problem needs, before anything is built. */
static int check_options(ms_ctx *ctx, const ms_rts_synth_options *o)
{
	if (!o || o->version < 2 || o->version > MS_RTS_SYNTH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: options missing or of an unknown version");
	if (o->version >= 3 && o->states) {
		for (int i = 0; i < o->n_maps; i++)
			if (!o->states[i])
				return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: first state %d missing", i);
	}
	if (o->n_maps < 1 || (!o->maps && (o->version < 3 || !o->states)))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: no map (--map)");
	if (o->n_opponents < 1 || !o->opponents)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: no opponent (--opponent)");
	if (o->tiebreak == MS_RTS_TIEBREAK_O && !o->oracle)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: breaking ties by O needs an oracle");
	if (o->tiebreak < MS_RTS_TIEBREAK_NONE || o->tiebreak > MS_RTS_TIEBREAK_MATERIAL)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: unknown tie-break %d", o->tiebreak);
	if (o->opponent_seeds < 0 || o->opponent_seeds > 1000)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: --opponent-seeds %d (0..1000)", o->opponent_seeds);
	if (o->max_cycles < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: --max-cycles %d", o->max_cycles);
	return MS_OK;
}

/* Each map, opened once (it must load now, not in the middle of a search), with its cycle limit. */
static int add_maps(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	int rc;
	for (int i = 0; i < o->n_maps; i++) {
		ms_match *m = NULL;
		int w, h;
		char name[32];
		const char *given = o->maps ? o->maps[i] : NULL;
		if (!given && rs->states) {
			snprintf(name, sizeof name, "state%d", i);
			given = name;
		}
		if (!given || !(rs->maps[i] = ms_ctx_strdup(ctx, given)))
			return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: map %d missing or out of memory", i);
		rs->max_cycles[i] = 1; /* probe: open_match only needs the map */
		if ((rc = open_match(rs, ctx, i, 0, &m)))
			return ms_ctx_error(ctx, rc, "--map %s: %s", rs->maps[i], ms_ctx_last_error(ctx));
		ms_match_map_size(m, &w, &h);
		ms_match_free(m);
		rs->max_cycles[i] = o->max_cycles ? o->max_cycles : ms_match_competition_cycles(w, h);
	}
	return MS_OK;
}

/* A program opponent's text (program:FILE or program-text:TEXT) parsed into o->prog, as a program bot
 * parses it (the same reader, names and errors). */
static int parse_program_opponent(ms_rts_synth *rs, ms_ctx *ctx, rts_opponent *o)
{
	const char *spec = o->spec;
	char *text = NULL;
	size_t len;
	int rc, inline_text = !strncmp(spec, "program-text:", 13);
	if (!inline_text && (rc = ms_read_text_file(ctx, spec + 8, "program file", &text, &len)))
		return rc;
	if ((rc = ms_dsl_prog_new(ctx, &o->prog, rs->g)) == MS_OK)
		rc = inline_text ? ms_rts_dsl_parse(o->prog, "program text", spec + 13, strlen(spec + 13), 0)
				 : ms_rts_dsl_parse(o->prog, spec + 8, text, len, 0);
	ms_ctx_mfree(ctx, text);
	return rc;
}

/* Each opponent: a native one (or a program) built once now; *java: one of them is a Java class. */
static int add_opponents(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o, int *java)
{
	int rc;
	for (int i = 0; i < o->n_opponents; i++) {
		const char *spec = o->opponents[i];
		rts_opponent *op = &rs->opp[i];
		if (!spec || !*spec)
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %d: empty", i + 1);
		if (!(op->spec = ms_ctx_strdup(ctx, spec)))
			return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
		op->java = !is_native(spec);
		*java |= op->java;
		if (op->java && rs->states)
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %s: not a native bot or a program (a game from a "
					    "state in memory plays native opponents only)", spec);
		if (!op->java) {
			/* a native opponent (or program) must build now, not in the middle of a search;
			 * a program is parsed once, and its bot built from what was parsed */
			int program = !strncmp(spec, "program:", 8) || !strncmp(spec, "program-text:", 13);
			ms_rts_utt *utt = NULL;
			ms_bot *b = NULL;
			rc = program ? parse_program_opponent(rs, ctx, op) : MS_OK;
			if (rc == MS_OK && (rc = ms_rts_utt_new(ctx, &utt, rs->utt, rs->conflict)) == MS_OK)
				rc = program ? ms_rts_dsl_bot_new(ctx, &b, op->prog, utt, 0) : ms_bot_make(ctx, &b, spec, utt, 0);
			ms_bot_free(b);
			ms_rts_utt_free(utt);
			if (rc)
				return ms_ctx_error(ctx, rc, "--opponent %s: %s", spec, ms_ctx_last_error(ctx));
		} else if (strchr(spec, ' ') || strchr(spec, ':')) {
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %s: not a native bot, a program or a Java class name",
					    spec);
		}
	}
	return MS_OK;
}

/* The oracle's C opponent (the first native opponent, else WorkerRush) and its recorded matches. */
static int add_oracle(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	const char *c = o->c_opponent;
	for (int i = 0; !c && i < rs->n_opp; i++)
		if (!rs->opp[i].java)
			c = rs->opp[i].spec;
	if (!(rs->c_opp = ms_ctx_strdup(ctx, c ? c : "WorkerRush")))
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	if (!is_native(rs->oracle) || !is_native(rs->c_opp))
		return ms_ctx_error(ctx, MS_EINVAL,
				    "--oracle %s / C opponent %s: the O score plays natively (a native bot or program:FILE)",
				    rs->oracle, rs->c_opp);
	return record_oracle(rs);
}

/*
 * The settings a checkpoint must agree with, whole (the opponents may be
 * long program texts); a switch case's opening enters as its hash.
 */
/* FNV-1a of what a first state holds (size, terrain, stocks, units): a map given in memory enters the
 * fingerprint by its content, as a map file enters by its name. */
static uint64_t state_digest(const ms_rts_state *s)
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s);
	uint64_t d = ms_fnv1a_step(ms_fnv1a_step(MS_FNV_OFFSET, (uint64_t)w), (uint64_t)h);
	ms_rts_unit u;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			d = ms_fnv1a_step(d, (uint64_t)ms_rts_state_terrain(s, x, y));
	d = ms_fnv1a_step(ms_fnv1a_step(d, (uint64_t)ms_rts_state_resources(s, 0)), (uint64_t)ms_rts_state_resources(s, 1));
	for (int i = 0, n = ms_rts_state_unit_count(s); i < n; i++) {
		if (ms_rts_state_unit(s, i, &u))
			continue;
		uint64_t v[] = { (uint64_t)u.type, (uint64_t)(u.player + 1), (uint64_t)u.x, (uint64_t)u.y,
				 (uint64_t)u.resources, (uint64_t)u.hitpoints };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			d = ms_fnv1a_step(d, v[k]);
	}
	return d;
}

static int make_fingerprint(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	ms_buf b;
	int rc;
	ms_buf_init(&b, ctx);
	rc = ms_buf_printf(&b, "utt %d conflict %d edition %d tiebreak %d maps", rs->utt, rs->conflict, rs->edition,
			   rs->tiebreak);
	for (int i = 0; rc >= 0 && i < rs->n_maps; i++)
		rc = rs->states ? ms_buf_printf(&b, " %s=%016llx:%d", rs->maps[i],
						(unsigned long long)state_digest(rs->states[i]), rs->max_cycles[i])
				: ms_buf_printf(&b, " %s:%d", rs->maps[i], rs->max_cycles[i]);
	/* a program opponent enters as its hash: the same program from a file or inline is the same problem */
	for (int i = 0; rc >= 0 && i < rs->n_opp; i++)
		rc = rs->opp[i].prog ? ms_buf_printf(&b, " vs program %016llx", (unsigned long long)ms_dsl_hash(rs->opp[i].prog))
				     : ms_buf_printf(&b, " vs %s", rs->opp[i].spec);
	if (rc >= 0 && rs->oracle)
		rc = ms_buf_printf(&b, " oracle %s c_vs %s", rs->oracle, rs->c_opp);
	if (rc >= 0 && o->prefix)
		rc = ms_buf_printf(&b, " prefix %016llx until %d", (unsigned long long)ms_dsl_hash(o->prefix),
				   o->switch_cycle);
	if (rc >= 0 && rs->opp_seeds >= 2)
		rc = ms_buf_printf(&b, " opponent_seeds %d", rs->opp_seeds);
	if (rc < 0) {
		ms_buf_dispose(&b);
		return rc;
	}
	rs->fingerprint = ms_buf_detach(&b);
	return MS_OK;
}

/* The problem table the search calls. */
static void fill_problem(ms_rts_synth *rs)
{
	rs->pb.version = MS_SYNTH_PROBLEM_VERSION;
	rs->pb.name = "microrts";
	rs->pb.fingerprint = rs->fingerprint;
	rs->pb.grammar = rs->g;
	rs->pb.start = -1;
	rs->pb.shards[MS_SYNTH_PSI] = 2 * rs->n_maps;
	rs->pb.shards[MS_SYNTH_C] = 2 * rs->n_maps;
	rs->pb.has_c = rs->oracle != NULL;
	rs->pb.user = rs;
	rs->pb.worker_new = worker_new;
	rs->pb.worker_free = worker_free;
	rs->pb.n_opponents = rs->n_opp;
	rs->pb.eval_vs = eval_vs;
	rs->pb.generate = generate;
	rs->pb.mutate = mutate;
	rs->pb.n_features = RF_COUNT;
	rs->pb.feature_values = rf_values;
	rs->pb.feature_names = rf_names;
	rs->pb.features = features;
}

int ms_rts_synth_new(ms_ctx *ctx, ms_rts_synth **out, const ms_rts_synth_options *o)
{
	ms_rts_synth *rs;
	int rc = MS_OK, java = 0;

	*out = NULL;
	if ((rc = check_options(ctx, o)))
		return rc;
	if ((rs = ms_ctx_calloc(ctx, 1, sizeof *rs))) {
		atomic_init(&rs->f_crashes, 0);
		atomic_init(&rs->f_timeouts, 0);
		atomic_init(&rs->f_errors, 0);
	}
	if (!rs)
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	rs->ctx = ctx;
	rs->n_maps = o->n_maps;
	rs->n_opp = o->n_opponents;
	rs->utt = o->utt ? o->utt : 2;
	rs->conflict = o->conflict ? o->conflict : 1;
	rs->edition = o->edition;
	rs->opp_seeds = o->opponent_seeds;
	rs->tiebreak = o->tiebreak;
	rs->maps = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->maps);
	rs->max_cycles = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->max_cycles);
	rs->opp = ms_ctx_calloc(ctx, (size_t)o->n_opponents, sizeof *rs->opp);
	rs->harness_jar = dup_or_null(ctx, o->harness_jar, &rc);
	rs->harness_dir = dup_or_null(ctx, o->harness_dir, &rc);
	rs->java_hang_ms = o->java_hang_ms;
	if (o->version >= 3 && o->states) {
		if (!(rs->states = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->states))) {
			rc = ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
			goto fail;
		}
		memcpy(rs->states, o->states, (size_t)o->n_maps * sizeof *rs->states);
	}
	rs->oracle = dup_or_null(ctx, o->oracle, &rc);
	rs->fc = ms_ctx_calloc(ctx, FCACHE_SLOTS, sizeof *rs->fc);
	rs->fc_mu_ok = pthread_mutex_init(&rs->fc_mu, NULL) == 0;
	if (!rs->maps || !rs->max_cycles || !rs->opp || rc || !rs->fc || !rs->fc_mu_ok) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
		goto fail;
	}
	if ((rc = ms_rts_dsl_grammar_new(ctx, &rs->g, 0)) || (rc = add_maps(rs, ctx, o)) ||
	    (rc = add_opponents(rs, ctx, o, &java)))
		goto fail;
	if (o->prefix && (java || o->switch_cycle < 0)) {
		rc = ms_ctx_error(ctx, MS_EINVAL, java ? "microrts problem: a switch case (--prefix) plays native opponents only"
						       : "microrts problem: --switch-cycle %d", o->switch_cycle);
		goto fail;
	}
	if (java && rs->states) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "microrts problem: games from a state in memory play native opponents only");
		goto fail;
	}
	if (java && !rs->harness_jar) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "microrts problem: Java opponents need microsynth-harness.jar");
		goto fail;
	}
	if (rs->oracle && (rc = add_oracle(rs, ctx, o)))
		goto fail;
	rs->eps = O_TOTAL / (2.0 * rs->n_maps * rs->n_opp);
	rs->for_prod = ms_dsl_prod_find(rs->g, "For_S");
	rs->s_nt = ms_dsl_nt_find(rs->g, "S");
	if (rs->for_prod < 0 || rs->s_nt < 0) {
		rc = ms_ctx_error(ctx, MS_ERROR, "microrts problem: the DSL grammar has no For_S or S");
		goto fail;
	}
	if (o->prefix) {
		/* a case of a switch: the opening it follows is part of the problem */
		if ((rc = ms_dsl_prog_clone(&rs->prefix, o->prefix)))
			goto fail;
		rs->switch_cycle = o->switch_cycle;
	}
	if ((rc = make_fingerprint(rs, ctx, o)))
		goto fail;
	fill_problem(rs);
	*out = rs;
	return MS_OK;
fail:
	ms_rts_synth_free(rs);
	return rc;
}

const ms_synth_problem *ms_rts_synth_problem(const ms_rts_synth *rs)
{
	return &rs->pb;
}

const ms_dsl_grammar *ms_rts_synth_grammar(const ms_rts_synth *rs)
{
	return rs->g;
}

int ms_rts_synth_max_cycles(const ms_rts_synth *rs, int map)
{
	return map >= 0 && map < rs->n_maps ? rs->max_cycles[map] : 0;
}

void ms_rts_synth_fault_counts(const ms_rts_synth *rs, ms_rts_synth_faults *out)
{
	/* the counters only grow; reading them needs no lock */
	out->crashes = atomic_load(&((ms_rts_synth *)rs)->f_crashes);
	out->timeouts = atomic_load(&((ms_rts_synth *)rs)->f_timeouts);
	out->errors = atomic_load(&((ms_rts_synth *)rs)->f_errors);
}

const char *ms_rts_synth_fingerprint(const ms_rts_synth *rs)
{
	return rs->fingerprint;
}

int ms_rts_synth_score(ms_ctx *ctx, const ms_rts_synth *rs, const ms_dsl_prog *prog, int official,
		       ms_rts_synth_result *res)
{
	int rc = MS_OK, n = 0;
	double total = 0;

	memset(res, 0, sizeof *res);
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		ms_match *nat = NULL, *off = NULL;
		if ((rc = open_match(rs, ctx, i, 0, &nat)))
			break;
		for (int k = 0; rc == MS_OK && k < rs->n_opp; k++) {
			int java = official || rs->opp[k].java;
			if (java && !off && (rc = open_match(rs, ctx, i, 1, &off)))
				break;
			int seeds = !java && rs->opp_seeds >= 2 && ms_bot_draws_unseeded(rs->opp[k].spec) ? rs->opp_seeds : 1;
			for (int run = 0; rc == MS_OK && run < 2 * seeds; run++) {
				int seat = run % 2;
				ms_match_result r;
				ms_match_reseed(nat, seeds > 1 ? run / 2 + 1 : 0, seeds > 1);
				if ((rc = play(rs, java ? off : nat, prog, opp_player(&rs->opp[k]), seat, NULL, &r))) {
					/* natively, the side that fails loses, as a throwing AI does in the harness */
					if (java || native_failure(rc) != MS_SYNTH_FAILED)
						break;
					rc = MS_OK;
					if (r.crashed != 1 - seat) {
						r.winner = 1 - seat;
						r.crashed = seat;
					}
				}
				total += score_of(r.winner, seat);
				n++;
				res->wins += r.winner == seat;
				res->losses += r.winner == 1 - seat;
				res->draws += r.winner < 0;
				res->opponent_crashes += r.crashed == 1 - seat;
				res->opponent_timeouts += r.timed_out == 1 - seat;
			}
		}
		ms_match_free(nat);
		ms_match_free(off);
	}
	res->psi = n ? total / n : 0;
	return rc;
}
