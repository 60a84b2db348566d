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
#include "games/microrts/synth/rts_ascore.h"
#include "core/hash.h"
#include "core/internal.h"
#include "games/microrts/synth/rts_observe.h"
#include "games/microrts/synth/rts_reach.h"
#include "games/microrts/synth/rts_synth_internal.h"

static const char *const rf_type_names[RF_TYPES] = { "Worker", "Light", "Heavy", "Ranged", "Barracks", "Base" };

/* ---- the feature cache ------------------------------------------------------- */

static fcache_entry *fc_slot(ms_rts_synth *rs, uint64_t hash, int opponent, int shard)
{
	uint64_t k = hash ^ ((uint64_t)(unsigned)opponent * MS_SPLITMIX_GAMMA) ^ ((uint64_t)(unsigned)shard << 40);
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

int rts_synth_open_match(const ms_rts_synth *rs, ms_ctx *ctx, int map, int official, ms_match **out)
{
	ms_match_options mo = { .version = MS_MATCH_OPTIONS_VERSION,
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

/* The hooks of a match that is observed, recorded, or both. */
typedef struct play_ud {
	rts_observer *ob;
	rts_reach_rec *rec;
} play_ud;

static int on_cycle(void *ud, const ms_rts_state *s)
{
	return rts_observe(((play_ud *)ud)->ob, s);
}

static int on_decisions(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2])
{
	return rts_reach_record(((play_ud *)ud)->rec, s, pairs, n);
}

/* One match of `prog` in `seat` against `opp`; observer `ob` and recording `rec` (native only; a
 * recording, without a prefix) may be NULL. */
static int play_rec(const ms_rts_synth *rs, ms_match *m, const ms_dsl_prog *prog, rts_reach_rec *rec,
		    ms_match_player opp, int seat, rts_observer *ob, ms_match_result *res)
{
	ms_match_player pl[2];
	play_ud u = { ob, rec };
	ms_bot_hooks h = { ob ? on_cycle : NULL, rec ? on_decisions : NULL, &u };
	int rc;

	pl[seat] = ms_match_player_program(prog);
	pl[seat].prefix = rs->prefix;
	pl[seat].switch_cycle = rs->switch_cycle;
	pl[1 - seat] = opp;
	if (rec) {
		if ((rc = rts_reach_rec_start(rec, ms_dsl_prog_len(prog), seat)))
			return rc;
		pl[seat].reach = rec->marks;
	}
	if (!ob && !rec)
		return ms_match_play(m, pl, NULL, res);
	return ms_match_play_hooked(m, pl, &h, res);
}

static int play(const ms_rts_synth *rs, ms_match *m, const ms_dsl_prog *prog, ms_match_player opp, int seat,
		rts_observer *ob, ms_match_result *res)
{
	return play_rec(rs, m, prog, NULL, opp, seat, ob, res);
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
		w->ctx = w->rp.ctx = w->rec.ctx = ctx;
	/* Official contexts too, here: workers are made one after another on
	 * the caller's thread, and the process's JVM must not be started by two
	 * threads at once. */
	int java = 0;
	for (int k = 0; k < rs->n_opp; k++)
		java |= rs->opp[k].java;
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		rc = rts_synth_open_match(rs, ctx, i, 0, &w->nat[i]);
		if (rc == MS_OK && java)
			rc = rts_synth_open_match(rs, ctx, i, 1, &w->off[i]);
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
	rts_reach_prog_dispose(&w->rp);
	rts_reach_rec_dispose(&w->rec);
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

/*
 * One native match of an evaluation: kind C's against the C opponent, or
 * one against native opponent `opponent` (shard: map and seat), observed
 * (`observed`: the feature counts go to r->c) or not. `rec` may be NULL.
 * *keep: the result may go to the match memo (no one failed).
 */
static int play_one(ms_rts_synth *rs, worker *w, const ms_dsl_prog *prog, int kind, int opponent, int shard,
		    int observed, rts_reach_rec *rec, rts_reach_result *r, int *keep)
{
	int map = shard / 2, seat = shard % 2, rc;
	ms_match *m = w->nat[map];
	ms_match_result res;
	rts_observer ob;

	memset(r, 0, sizeof *r);
	r->weight = 1;
	*keep = 0;
	if (kind == MS_SYNTH_C) {
		/* O: this program's match against the C opponent beside the oracle's */
		rts_observer_start(&ob, ms_match_initial_state(m), seat);
		if ((rc = play_rec(rs, m, prog, rec, ms_match_player_spec(rs->c_opp), seat, &ob, &res)))
			return native_failure(rc);
		r->sum = rts_similarity(ob.f, rs->oracle_f + (size_t)(map * 2 + seat) * N_FEATURES);
		*keep = 1;
		return 0;
	}
	rts_observer_start(&ob, ms_match_initial_state(m), seat);
	ob.count_attacks = 1;
	if ((rc = play_rec(rs, m, prog, rec, opp_player(&rs->opp[opponent]), seat, observed ? &ob : NULL, &res))) {
		if ((rc = native_failed(rs, rc, &res, seat)))
			return rc;
		r->sum = score_of(res.winner, seat) + tiebreak(rs, m, map, &res, seat);
		return 0;
	}
	r->sum = score_of(res.winner, seat) + tiebreak(rs, m, map, &res, seat);
	*keep = 1;
	if (!observed)
		return 0;
	rts_match_counts(&ob, w->types, r->c);
	r->have_c = 1;
	/* the O tie-break is only defined against the C opponent's outcomes; a native match gives the features */
	if (rs->tiebreak == MS_RTS_TIEBREAK_O && rs->oracle_f)
		r->sum += rs->eps * rts_similarity(ob.f, rs->oracle_f + (size_t)(map * 2 + seat) * N_FEATURES);
	return 0;
}

static int same_result(const rts_reach_result *a, const rts_reach_result *b)
{
	return a->sum == b->sum && a->weight == b->weight && a->have_c == b->have_c &&
	       (!a->have_c || memcmp(a->c, b->c, sizeof a->c) == 0);
}

/* play_one through the match memo (rts_reach.h); `seed` tells a stochastic opponent's matches apart. */
static int memo_one(ms_rts_synth *rs, worker *w, const ms_dsl_prog *prog, int kind, int opponent, int shard,
		    int seed, int observed, rts_reach_result *r)
{
	int map = shard / 2, rc, keep, hit = 0, seeds = rs->opp_seeds > 1 ? rs->opp_seeds : 1;
	/* the memo knows matches of the program alone (a switch case's opening is not marked) */
	int memo = rs->memo && !rs->prefix;
	int slot = ((kind == MS_SYNTH_C ? rs->n_opp : opponent) * 2 * rs->n_maps + shard) * seeds + seed;
	rts_reach_result got;

	if (memo) {
		ms_memo *pm;
		if ((rc = ms_match_path_memo(w->nat[map], &pm)) ||
		    (rc = rts_reach_prog_set(&w->rp, prog, ms_match_initial_state(w->nat[map]), pm)))
			return rc;
		if ((hit = rts_reach_get(rs->memo, slot, &w->rp, rs->memo_replay, &got)) < 0)
			return hit;
		if (hit && !rs->memo_check) {
			*r = got;
			return 0;
		}
	}
	double t0 = memo ? rts_reach_cpu_seconds() : 0;
	if ((rc = play_one(rs, w, prog, kind, opponent, shard, observed, memo ? &w->rec : NULL, r, &keep)))
		return rc;
	if (hit && !same_result(&got, r))
		return ms_ctx_error(w->ctx, MS_ERROR,
				    "match memo: slot %d (opponent %d, map %d, seat %d, seed %d) answered %.17g, the "
				    "match gives %.17g",
				    slot, opponent, map, shard % 2, seed, got.sum, r->sum);
	/* a failed put only loses time later */
	if (memo && keep && !hit)
		(void)rts_reach_put(rs->memo, slot, &w->rp, &w->rec, r, rts_reach_cpu_seconds() - t0);
	return 0;
}

/*
 * eps times A on shard's recorded decisions (MS_RTS_TIEBREAK_A): it does not
 * depend on the match, so it is added per evaluated match after the memo. A
 * program that fails on those states breaks no tie (0), as its C scores 0.
 */
static double a_tiebreak(const ms_rts_synth *rs, worker *w, const ms_dsl_prog *prog, int shard)
{
	double matched = 0, total = 0;
	if (rs->tiebreak != MS_RTS_TIEBREAK_A || !rs->ascore ||
	    rts_ascore_eval(rs->ascore, w->ctx, prog, shard, &matched, &total) || total <= 0)
		return 0;
	return rs->eps * matched / total;
}

static int eval_match(ms_rts_synth *rs, worker *w, const ms_dsl_prog *prog, int kind, int opponent, int shard,
		      double *sum, double *weight)
{
	int map = shard / 2, seat = shard % 2, rc;
	rts_reach_result r;

	*sum = *weight = 0;
	if (kind == MS_SYNTH_C && rs->ascore) { /* A: no match is played; a failing program scores 0 */
		if ((rc = rts_ascore_eval(rs->ascore, w->ctx, prog, shard, sum, weight)))
			*sum = 0;
		return rc ? native_failure(rc) : 0;
	}
	if (kind == MS_SYNTH_C) {
		if ((rc = memo_one(rs, w, prog, kind, 0, shard, 0, 0, &r)))
			return rc;
		*sum = r.sum;
		*weight = 1;
		return 0;
	}
	const rts_opponent *op = &rs->opp[opponent];
	if (op->java) {
		ms_match_result res;
		if ((rc = play(rs, w->off[map], prog, opp_player(op), seat, NULL, &res)))
			return rc;
		/* the harness already scored these as the opponent's losses */
		if (res.crashed == 1 - seat)
			atomic_fetch_add(&rs->f_crashes, 1);
		else if (res.timed_out == 1 - seat)
			atomic_fetch_add(&rs->f_timeouts, 1);
		*sum = score_of(res.winner, seat) + tiebreak(rs, w->off[map], map, &res, seat);
		*weight = 1;
		return 0;
	}
	if (rs->opp_seeds >= 2 && ms_bot_draws_unseeded(op->spec)) {
		/* a stochastic opponent: the mean over its seeds */
		for (int k = 0; k < rs->opp_seeds; k++) {
			ms_match_reseed(w->nat[map], k + 1, 1);
			rc = memo_one(rs, w, prog, kind, opponent, shard, k, 0, &r);
			ms_match_reseed(w->nat[map], 0, 0);
			if (rc)
				return rc;
			*sum += r.sum;
		}
		*weight = rs->opp_seeds;
		return 0;
	}
	/* observed when something reads the counts: the feature cache once HSS asks for features, the O
	 * tie-break always (an SA or UCT search never asks: 2-3% of its time saved) */
	int observed = atomic_load(&rs->features_asked) || (rs->tiebreak == MS_RTS_TIEBREAK_O && rs->oracle_f);
	if ((rc = memo_one(rs, w, prog, kind, opponent, shard, 0, observed, &r)))
		return rc;
	if (r.have_c)
		fc_put(rs, ms_dsl_hash(prog), opponent, shard, r.c);
	*sum = r.sum;
	*weight = 1;
	return 0;
}

static int eval_vs(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int opponent,
		   int shard, uint64_t seed, double *sum, double *weight)
{
	int rc = eval_match(user, state, prog, kind, opponent, shard, sum, weight);
	if (rc == 0 && kind != MS_SYNTH_C)
		*sum += *weight * a_tiebreak(user, state, prog, shard);
	(void)ctx;
	(void)seed;
	return rc;
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
	atomic_store(&rs->features_asked, 1);
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

/* The problem table the search calls. */
void rts_synth_fill_problem(ms_rts_synth *rs)
{
	rs->pb.version = MS_SYNTH_PROBLEM_VERSION;
	rs->pb.name = "microrts";
	rs->pb.fingerprint = rs->fingerprint;
	rs->pb.grammar = rs->g;
	rs->pb.start = -1;
	rs->pb.shards[MS_SYNTH_PSI] = 2 * rs->n_maps;
	rs->pb.shards[MS_SYNTH_C] = 2 * rs->n_maps;
	rs->pb.has_c = rs->oracle != NULL || rs->ascore != NULL;
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

int ms_rts_synth_score(ms_ctx *ctx, const ms_rts_synth *rs, const ms_dsl_prog *prog, int official,
		       ms_rts_synth_result *res)
{
	int rc = MS_OK, n = 0;
	double total = 0;

	memset(res, 0, sizeof *res);
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		ms_match *nat = NULL, *off = NULL;
		if ((rc = rts_synth_open_match(rs, ctx, i, 0, &nat)))
			break;
		for (int k = 0; rc == MS_OK && k < rs->n_opp; k++) {
			int java = official || rs->opp[k].java;
			if (java && !off && (rc = rts_synth_open_match(rs, ctx, i, 1, &off)))
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
