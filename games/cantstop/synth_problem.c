/*
 * Can't Stop as a synthesis problem (cantstop_synth.h): Psi is the win
 * rate against GA over ranges of matches (one shard per range), C a
 * cloning score on a data set recorded once from the oracle. Each
 * evaluation thread owns one DSL runner; everything else is read-only.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/cantstop_synth.h"
#include "core/hash.h"
#include "core/opts.h"

/* What one problem's eval needs; the search and final problems differ only in `matches`. */
typedef struct cs_half {
	const struct ms_cs_synth *cs;
	long matches;
	long shard_matches;
	int common;          /* play the matches of common_seed whatever the evaluation's seed */
	uint64_t common_seed;
	/* problems with opponents (ms_cs_synth_vs): 0 is GA, 1 .. n_progs the programs */
	ms_dsl_prog **progs;
	int n_progs;
} cs_half;

/* A thread's interpreters: the program under evaluation, and a program opponent. */
typedef struct cs_worker {
	ms_ctx *ctx;
	ms_cs_dsl_runner *r;
	ms_cs_dsl_runner *opp;
	int opp_loaded; /* which opponent `opp` holds (0: none) */
} cs_worker;

/* Behavioural features (cantstop_synth.h): names and numbers of values. */
static const char *const cs_feature_names[MS_CS_FEATURES] = { "yes-rate", "busts-per-turn", "centre-distance",
							      "columns-won", "pair-moves", "turn-length" };
static const int cs_feature_values[MS_CS_FEATURES] = { 10, 5, 6, 6, 5, 6 };

struct ms_cs_synth {
	ms_ctx *ctx;
	ms_cs_synth_options o;
	ms_cs_dsl *dsl;
	ms_cs_dataset *ds;
	ms_cs_match_options mo;
	cs_half half[2]; /* 0: search, 1: final */
	ms_synth_problem pb[2];
	char fingerprint[2][512];
	ms_cs_dsl_runner *probe; /* probe_matches > 0: the generator's and mutation's check */
};

int ms_cs_synth_options_init(ms_cs_synth_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_CS_SYNTH_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->era = MS_CS_ERA_A;
	o->matches = 1000;
	o->shard_matches = 100;
	o->final_matches = 10000;
	o->oracle = MS_CS_ORACLE_NONE;
	o->score = MS_CS_SCORE_OBSERVATION;
	o->data_matches = 3;
	o->data_seed = 1;
	return MS_OK;
}

const char *ms_cs_synth_oracle_name(int oracle)
{
	static const char *const names[] = { "none", "random", "ga", "file" };
	return oracle >= 0 && oracle <= MS_CS_ORACLE_FILE ? names[oracle] : NULL;
}

static void cs_worker_free(void *user, void *state)
{
	cs_worker *w = state;
	(void)user;
	if (!w)
		return;
	ms_cs_dsl_runner_free(w->r);
	ms_cs_dsl_runner_free(w->opp);
	ms_ctx_mfree(w->ctx, w);
}

static int cs_worker_new(void *user, ms_ctx *ctx, int worker, void **state)
{
	const cs_half *h = user;
	cs_worker *w = ms_ctx_calloc(ctx, 1, sizeof *w);
	int rc;
	(void)worker;
	if (!w)
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop synth: out of memory");
	w->ctx = ctx;
	if ((rc = ms_cs_dsl_runner_new(ctx, &w->r, h->cs->dsl)) < 0 ||
	    (rc = ms_cs_dsl_runner_new(ctx, &w->opp, h->cs->dsl)) < 0) {
		cs_worker_free(user, w);
		return rc;
	}
	*state = w;
	return 0;
}

/*
 * A program opponent never fails its match: where it raises, it stops
 * (yes/no) or takes the first column move. The learner's score must not
 * depend on an opponent's run-time errors, which only mean that opponent
 * plays badly there.
 */
static int lenient_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	const ms_cs_player *in = ud;
	if (in->yes_no(ctx, in->ud, s, rng, answer) < 0 || (*answer != MS_CS_MOVE_YES && *answer != MS_CS_MOVE_NO)) {
		ms_ctx_clear_error(ctx);
		*answer = MS_CS_MOVE_NO;
	}
	return 0;
}

static int lenient_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			  ms_cs_rng *rng, int *choice)
{
	const ms_cs_player *in = ud;
	if (in->column(ctx, in->ud, s, actions, n, rng, choice) < 0 || *choice < 0 || *choice >= n) {
		ms_ctx_clear_error(ctx);
		*choice = 0;
	}
	return 0;
}

/* The opponent numbered `opp` (-1 or 0: GA) into *out; `inner` holds what a lenient program player wraps. */
static int cs_opponent(const cs_half *h, cs_worker *w, int opp, ms_cs_player *inner, ms_cs_player *out)
{
	if (opp <= 0) {
		ms_cs_player_ga(out, NULL, 0);
		return 0;
	}
	if (opp > h->n_progs)
		return ms_ctx_error(h->cs->ctx, MS_EINVAL, "cantstop synth: no opponent %d", opp);
	if (w->opp_loaded != opp) {
		int rc = ms_cs_dsl_runner_load(w->opp, h->progs[opp - 1]);
		w->opp_loaded = 0;
		if (rc < 0)
			return rc;
		w->opp_loaded = opp;
	}
	ms_cs_dsl_runner_player(w->opp, inner);
	*out = (ms_cs_player){ lenient_yes_no, lenient_column, inner, "program-opponent" };
	return 0;
}

/*
 * MS_ERANGE from the interpreter or the player wrapper is the program's
 * run-time error (the reference catches any exception and scores 0);
 * anything else is ours and stops the search.
 */
static int cs_eval_vs(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int opponent,
		      int shard, uint64_t seed, double *sum, double *weight)
{
	const cs_half *h = user;
	const ms_cs_synth *cs = h->cs;
	cs_worker *w = state;
	ms_cs_dsl_runner *r = w->r;
	ms_cs_player inner, opp;
	int rc = ms_cs_dsl_runner_load(r, prog);

	if (rc == MS_ERANGE)
		goto failed;
	if (rc < 0)
		return rc;
	if (kind == MS_SYNTH_PSI) {
		long first = (long)shard * h->shard_matches;
		long count = h->matches - first < h->shard_matches ? h->matches - first : h->shard_matches;
		ms_cs_eval_result acc;

		if (count <= 0)
			return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: shard %d is beyond %ld matches", shard,
					    h->matches);
		memset(&acc, 0, sizeof acc);
		if ((rc = cs_opponent(h, w, opponent, &inner, &opp)) < 0)
			return rc;
		rc = ms_cs_dsl_evaluate(r, &cs->mo, &opp, h->common ? h->common_seed : seed, first, count, &acc);
		if (rc == MS_ERANGE)
			goto failed;
		if (rc < 0)
			return rc;
		*sum = (double)acc.wins_a;
		*weight = (double)count;
		return 0;
	}
	if (!cs->ds)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: C asked of a problem without a data set");
	double score = 0;
	rc = ms_cs_dsl_clone_score(r, cs->ds, cs->o.score, seed, &score);
	if (rc == MS_ERANGE)
		goto failed;
	if (rc < 0)
		return rc;
	*sum = score;
	*weight = 1;
	return 0;
failed:
	ms_ctx_clear_error(ctx);
	*sum = 0;
	*weight = 0;
	return MS_SYNTH_FAILED;
}

static int cs_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int shard, uint64_t seed,
		   double *sum, double *weight)
{
	return cs_eval_vs(user, state, ctx, prog, kind, -1, shard, seed, sum, weight);
}

/* What the features observe of the program's decisions in one match. */
typedef struct cs_watch {
	ms_cs_player inner;
	long yes, no;            /* yes/no answers */
	long columns, pairs;     /* column moves, those advancing two markers */
	long distance;           /* sum over advanced markers of |column - 7| */
	long turns;              /* turns begun (first column move with no neutral marker placed) */
	int owned;               /* columns the program owned at its last decision */
} cs_watch;

static int watch_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	cs_watch *wt = ud;
	int rc = wt->inner.yes_no(ctx, wt->inner.ud, s, rng, answer);
	if (rc < 0)
		return rc;
	if (*answer == MS_CS_MOVE_YES)
		wt->yes++;
	else
		wt->no++;
	return 0;
}

static int watch_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			ms_cs_rng *rng, int *choice)
{
	cs_watch *wt = ud;
	int rc = wt->inner.column(ctx, wt->inner.ud, s, actions, n, rng, choice);
	if (rc < 0 || *choice < 0 || *choice >= n)
		return rc;
	const ms_cs_move *m = &actions[*choice];
	if (s->n_neutral == 0)
		wt->turns++;
	wt->columns++;
	wt->pairs += m->n == 2;
	for (int i = 0; i < m->n; i++)
		wt->distance += m->col[i] > 7 ? m->col[i] - 7 : 7 - m->col[i];
	wt->owned = 0;
	for (int c = 2; c <= 12; c++)
		wt->owned += s->owner[c] == s->player;
	return 0;
}

static int bin(double x, double width, int values)
{
	int b = x > 0 ? (int)(x / width) : 0;
	return b >= values ? values - 1 : b;
}

/*
 * F(p): `feature_matches` matches of p against the opponent, p first in
 * even ones, match i seeded with ms_cs_match_seed(seed, i); from p's
 * decisions: the share of yes answers, busts per turn (turns begun minus
 * stops), mean distance of advanced columns from 7, columns owned at the
 * end, share of moves advancing two markers, column moves per turn.
 */
static int cs_features(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int opponent, uint64_t seed,
		       int *out, int n)
{
	const cs_half *h = user;
	const ms_cs_synth *cs = h->cs;
	cs_worker *w = state;
	ms_cs_player inner, opp, me;
	cs_watch wt;
	long matches = cs->o.feature_matches > 0 ? cs->o.feature_matches : 20;
	long yes = 0, no = 0, cols = 0, pairs = 0, dist = 0, turns = 0, owned = 0;
	int rc;

	if (n != MS_CS_FEATURES)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop features: %d asked, %d defined", n, MS_CS_FEATURES);
	if ((rc = ms_cs_dsl_runner_load(w->r, prog)) == MS_ERANGE)
		goto failed;
	if (rc < 0)
		return rc;
	if ((rc = cs_opponent(h, w, opponent, &inner, &opp)) < 0)
		return rc;
	for (long i = 0; i < matches; i++) {
		ms_cs_match_result res;
		memset(&wt, 0, sizeof wt);
		ms_cs_dsl_runner_player(w->r, &wt.inner);
		me = (ms_cs_player){ watch_yes_no, watch_column, &wt, "watched" };
		uint64_t ms = ms_cs_match_seed(seed, (uint64_t)i);
		rc = i % 2 == 0 ? ms_cs_play_match(ctx, &cs->mo, &me, &opp, ms, &res)
				: ms_cs_play_match(ctx, &cs->mo, &opp, &me, ms, &res);
		if (rc == MS_ERANGE)
			goto failed;
		if (rc < 0)
			return rc;
		yes += wt.yes;
		no += wt.no;
		cols += wt.columns;
		pairs += wt.pairs;
		dist += wt.distance;
		turns += wt.turns;
		owned += wt.owned;
	}
	out[0] = bin(yes + no > 0 ? (double)yes / (double)(yes + no) : 0, 0.1, cs_feature_values[0]);
	out[1] = bin(turns > 0 ? (double)(turns - no > 0 ? turns - no : 0) / (double)turns : 0, 0.2, cs_feature_values[1]);
	out[2] = bin(cols > 0 ? (double)dist / (double)(cols + pairs) : 0, 1, cs_feature_values[2]);
	out[3] = bin((double)owned / (double)matches, 0.5, cs_feature_values[3]);
	out[4] = bin(cols > 0 ? (double)pairs / (double)cols : 0, 0.2, cs_feature_values[4]);
	out[5] = bin(turns > 0 ? (double)cols / (double)turns - 1 : 0, 1, cs_feature_values[5]);
	return 0;
failed:
	ms_ctx_clear_error(ctx);
	return MS_SYNTH_FAILED;
}

/* Attempts of the checked generator and mutation before they give up and keep the last program. */
#define CS_PROBE_TRIES 5000

/* 1 if `prog` plays the probe matches against GA without a run-time error, 0 if not, or an error. */
static int cs_probe(const ms_cs_synth *cs, const ms_dsl_prog *prog)
{
	ms_cs_player me, ga;
	int rc = ms_cs_dsl_runner_load(cs->probe, prog);
	if (rc == MS_ERANGE) {
		ms_ctx_clear_error(cs->ctx);
		return 0;
	}
	if (rc < 0)
		return rc;
	ms_cs_dsl_runner_player(cs->probe, &me);
	ms_cs_player_ga(&ga, NULL, 0);
	for (long i = 0; i < cs->o.probe_matches; i++) {
		ms_cs_match_result res;
		uint64_t seed = ms_cs_match_seed(0x70726f6265ULL, (uint64_t)i);
		rc = i % 2 == 0 ? ms_cs_play_match(cs->ctx, &cs->mo, &me, &ga, seed, &res)
				: ms_cs_play_match(cs->ctx, &cs->mo, &ga, &me, seed, &res);
		if (rc == MS_ERANGE) {
			ms_ctx_clear_error(cs->ctx);
			return 0;
		}
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* 1 if `prog` is kept: at most max_nodes nodes, and it passes the probe matches; 0 if not; or an error. */
static int cs_keep(const ms_cs_synth *cs, const ms_dsl_prog *prog)
{
	if (cs->o.max_nodes > 0 && ms_dsl_prog_len(prog) > cs->o.max_nodes)
		return 0;
	return cs->probe ? cs_probe(cs, prog) : 1;
}

static int cs_generate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const cs_half *h = user;
	int rc = 0;
	for (int t = 0; t < CS_PROBE_TRIES; t++) {
		rc = h->cs->o.typed ? ms_cs_dsl_generate_typed(h->cs->dsl, prog, rng)
				    : ms_cs_dsl_generate(h->cs->dsl, prog, rng);
		if (rc < 0 || (!h->cs->probe && h->cs->o.max_nodes <= 0) || (rc = cs_keep(h->cs, prog)) != 0)
			return rc < 0 ? rc : 0;
	}
	return 0;
}

static int cs_mutate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const cs_half *h = user;
	ms_dsl_prog *orig = NULL;
	int rc;
	int (*mutate)(const ms_cs_dsl *, ms_dsl_prog *, ms_jrandom *, int *) =
		h->cs->o.typed ? ms_cs_dsl_mutate_typed : ms_cs_dsl_mutate;
	if (!h->cs->probe && h->cs->o.max_nodes <= 0)
		return mutate(h->cs->dsl, prog, rng, NULL);
	if ((rc = ms_dsl_prog_clone(&orig, prog)) < 0)
		return rc;
	for (int t = 0; t < CS_PROBE_TRIES; t++) {
		if ((t > 0 && (rc = ms_dsl_prog_copy(prog, orig)) < 0) ||
		    (rc = mutate(h->cs->dsl, prog, rng, NULL)) < 0 || (rc = cs_keep(h->cs, prog)) != 0)
			break;
	}
	ms_dsl_prog_free(orig);
	return rc < 0 ? rc : 0;
}

/*
 * The static check local mutations are filtered by: well typed (so it
 * never fails at run time, cantstop_dsl.h) and within max_nodes.
 */
static int cs_check(void *user, const ms_dsl_prog *prog)
{
	const cs_half *h = user;
	if (h->cs->o.max_nodes > 0 && ms_dsl_prog_len(prog) > h->cs->o.max_nodes)
		return 0;
	return ms_cs_dsl_typecheck(h->cs->dsl, prog, NULL);
}

/* FNV-1a over the data set's text form: the fingerprint names the data, not only how it was made. */
static uint64_t cs_dataset_digest(const ms_cs_dataset *ds)
{
	uint64_t h = MS_FNV_OFFSET;
	char buf[600];
	size_t n = ms_cs_dataset_size(ds);

	for (size_t i = 0; i < n; i++) {
		const ms_cs_record *rec = ms_cs_dataset_get(ds, i);
		int len = snprintf(buf, sizeof buf, "%d %d %d ", (int)rec->match, (int)rec->player, (int)rec->round);
		len += ms_cs_move_format(&rec->action, buf + len, sizeof buf - (size_t)len);
		buf[len++] = ' ';
		ms_cs_state_format(&rec->state, buf + len, sizeof buf - (size_t)len);
		h = ms_fnv1a_step(ms_fnv1a_str(h, buf), '\n');
	}
	return h;
}

static int cs_check_options(ms_ctx *ctx, const ms_cs_synth_options *o)
{
	if (!o || o->version != MS_CS_SYNTH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: options of version %u, expected %d",
				    o ? o->version : 0u, MS_CS_SYNTH_OPTIONS_VERSION);
	if (o->era != MS_CS_ERA_A && o->era != MS_CS_ERA_B)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: unknown era %d", o->era);
	if (o->matches < 1 || o->final_matches < 1 || o->shard_matches < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: matches (%ld), final matches (%ld) and matches "
				    "per shard (%ld) must be at least 1", o->matches, o->final_matches, o->shard_matches);
	if (o->matches / o->shard_matches > 100000 || o->final_matches / o->shard_matches > 100000)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: more than 100000 shards per evaluation");
	if (o->probe_matches < 0 || o->probe_matches > 1000 || o->feature_matches < 0 || o->feature_matches > 100000)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: probe matches (%ld) must be in 0..1000, feature "
				    "matches (%ld) in 0..100000", o->probe_matches, o->feature_matches);
	if (o->max_nodes < 0 || o->max_nodes > 100000)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: max nodes %d is not in 0..100000", o->max_nodes);
	if (o->typed != 0 && o->typed != 1)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: typed is 0 or 1, not %d", o->typed);
	if (o->oracle < MS_CS_ORACLE_NONE || o->oracle > MS_CS_ORACLE_FILE)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: unknown oracle %d", o->oracle);
	if (o->oracle != MS_CS_ORACLE_NONE && o->score != MS_CS_SCORE_OBSERVATION && o->score != MS_CS_SCORE_ACTION)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: unknown cloning score %d", o->score);
	if ((o->oracle == MS_CS_ORACLE_RANDOM || o->oracle == MS_CS_ORACLE_GA) && o->data_matches < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: the data set needs at least 1 match");
	if (o->oracle == MS_CS_ORACLE_FILE && (!o->data_path || !*o->data_path))
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: oracle 'file' without a data set path");
	return 0;
}

/* The data set, checked by scoring the random player on it (data-level errors would fail every program). */
static int cs_make_dataset(ms_cs_synth *cs)
{
	const ms_cs_synth_options *o = &cs->o;
	ms_cs_player p;
	double score;
	int rc;

	if (o->oracle == MS_CS_ORACLE_FILE) {
		rc = ms_cs_dataset_load(cs->ctx, &cs->ds, o->data_path);
	} else {
		if (o->oracle == MS_CS_ORACLE_GA)
			ms_cs_player_ga(&p, NULL, 0);
		else
			ms_cs_player_random(&p);
		rc = ms_cs_dataset_generate(cs->ctx, &cs->ds, &p, &p, o->data_matches, o->era, o->data_seed);
	}
	if (rc < 0)
		return rc;
	ms_cs_player_random(&p);
	rc = o->score == MS_CS_SCORE_ACTION ? ms_cs_score_action(cs->ctx, cs->ds, &p, 0, &score)
					    : ms_cs_score_observation(cs->ctx, cs->ds, &p, 0, &score);
	if (rc < 0)
		return ms_ctx_error(cs->ctx, rc, "cantstop synth: the %s data set cannot be scored: %s",
				    ms_cs_synth_oracle_name(o->oracle), ms_ctx_last_error(cs->ctx));
	return 0;
}

static void cs_fill_problem(ms_cs_synth *cs, int which)
{
	ms_synth_problem *pb = &cs->pb[which];
	cs_half *h = &cs->half[which];
	const ms_cs_synth_options *o = &cs->o;
	char data[160] = "none", common[96] = "";

	h->cs = cs;
	h->matches = which == 0 ? o->matches : o->final_matches;
	h->shard_matches = o->shard_matches < h->matches ? o->shard_matches : h->matches;
	h->common = which == 0 && o->common_matches;
	h->common_seed = o->common_seed;
	if (h->common)
		snprintf(common, sizeof common, " common-matches=%llu", (unsigned long long)o->common_seed);
	if (o->probe_matches > 0) {
		size_t cl = strlen(common);
		snprintf(common + cl, sizeof common - cl, " probe=%ld", o->probe_matches);
	}
	if (o->typed) {
		size_t cl = strlen(common);
		snprintf(common + cl, sizeof common - cl, " typed");
	}
	if (o->max_nodes > 0) {
		size_t cl = strlen(common);
		snprintf(common + cl, sizeof common - cl, " max-nodes=%d", o->max_nodes);
	}
	if (which == 0 && cs->ds) {
		int n = o->oracle == MS_CS_ORACLE_FILE
				? snprintf(data, sizeof data, "score=%c data=file", o->score == MS_CS_SCORE_ACTION ? 'A' : 'O')
				: snprintf(data, sizeof data, "score=%c data=%s-selfplay matches=%d seed=%llu",
					   o->score == MS_CS_SCORE_ACTION ? 'A' : 'O', ms_cs_synth_oracle_name(o->oracle),
					   o->data_matches, (unsigned long long)o->data_seed);
		snprintf(data + n, sizeof data - (size_t)n, " records=%zu digest=%016llx", ms_cs_dataset_size(cs->ds),
			 (unsigned long long)cs_dataset_digest(cs->ds));
	}
	snprintf(cs->fingerprint[which], sizeof cs->fingerprint[which],
		 "cantstop era=%c grammar=%s psi=winrate-vs-ga matches=%ld per-shard=%ld%s cap=%d c=[%s]",
		 o->era == MS_CS_ERA_B ? 'B' : 'A', ms_dsl_grammar_name(ms_cs_dsl_grammar(cs->dsl)), h->matches,
		 h->shard_matches, common, MS_CS_DEFAULT_MAX_DECISIONS, which == 0 ? data : "none");

	memset(pb, 0, sizeof *pb);
	pb->version = MS_SYNTH_PROBLEM_VERSION;
	pb->name = "cantstop";
	pb->fingerprint = cs->fingerprint[which];
	pb->grammar = ms_cs_dsl_grammar(cs->dsl);
	pb->start = MS_CS_NT_START;
	pb->gen = *ms_cs_dsl_gen_options(cs->dsl);
	pb->shards[MS_SYNTH_PSI] = (int)((h->matches + h->shard_matches - 1) / h->shard_matches);
	pb->shards[MS_SYNTH_C] = 1;
	pb->has_c = which == 0 && cs->ds != NULL;
	pb->user = h;
	pb->worker_new = cs_worker_new;
	pb->worker_free = cs_worker_free;
	pb->eval = cs_eval;
	pb->generate = cs_generate;
	pb->mutate = cs_mutate;
	pb->check = cs_check;
	pb->n_features = MS_CS_FEATURES;
	pb->feature_values = cs_feature_values;
	pb->feature_names = cs_feature_names;
	pb->features = cs_features;
}

int ms_cs_synth_new(ms_ctx *ctx, ms_cs_synth **out, const ms_cs_synth_options *o)
{
	ms_cs_synth *cs;
	int rc;

	*out = NULL;
	if ((rc = cs_check_options(ctx, o)) < 0)
		return rc;
	cs = ms_ctx_calloc(ctx, 1, sizeof *cs);
	if (!cs)
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop synth: out of memory");
	cs->ctx = ctx;
	cs->o = *o;
	cs->mo.version = MS_CS_MATCH_OPTIONS_VERSION;
	cs->mo.era = o->era;
	cs->mo.max_decisions = 0;
	if ((rc = ms_cs_dsl_new(ctx, &cs->dsl, NULL)) < 0)
		goto fail;
	if (o->probe_matches > 0 && (rc = ms_cs_dsl_runner_new(ctx, &cs->probe, cs->dsl)) < 0)
		goto fail;
	if (o->oracle != MS_CS_ORACLE_NONE && (rc = cs_make_dataset(cs)) < 0)
		goto fail;
	cs_fill_problem(cs, 0);
	cs_fill_problem(cs, 1);
	*out = cs;
	return 0;
fail:
	ms_cs_synth_free(cs);
	return rc;
}

void ms_cs_synth_free(ms_cs_synth *cs)
{
	if (!cs)
		return;
	if (cs->ds)
		ms_cs_dataset_free(cs->ds);
	ms_cs_dsl_runner_free(cs->probe);
	ms_cs_dsl_free(cs->dsl);
	ms_ctx_mfree(cs->ctx, cs);
}

const ms_synth_problem *ms_cs_synth_problem(const ms_cs_synth *cs)
{
	return &cs->pb[0];
}

const ms_synth_problem *ms_cs_synth_final_problem(const ms_cs_synth *cs)
{
	return &cs->pb[1];
}

const ms_cs_dsl *ms_cs_synth_dsl(const ms_cs_synth *cs)
{
	return cs->dsl;
}

const ms_cs_dataset *ms_cs_synth_dataset(const ms_cs_synth *cs)
{
	return cs->ds;
}

const char *ms_cs_synth_fingerprint(const ms_cs_synth *cs)
{
	return cs->fingerprint[0];
}

int ms_cs_synth_final_psi(ms_ctx *ctx, const ms_cs_synth *cs, const ms_dsl_prog *prog, int threads, uint64_t seed,
			  double *psi, int *failed)
{
	ms_synth_eval *ev;
	int fail = 0;
	int rc = ms_synth_eval_new(ctx, &ev, &cs->pb[1], threads, NULL);

	*psi = 0;
	if (failed)
		*failed = 0;
	if (rc < 0)
		return rc;
	rc = ms_synth_eval_programs(ev, &prog, 1, MS_SYNTH_PSI, &seed, psi, &fail, NULL, NULL);
	ms_synth_eval_free(ev);
	if (failed)
		*failed = fail;
	return rc < 0 ? rc : 0;
}

/* ---- problems against programs ---- */

struct ms_cs_synth_vs {
	ms_ctx *ctx;
	cs_half half;
	ms_synth_problem pb;
	char *fingerprint;
};

void ms_cs_synth_vs_free(ms_cs_synth_vs *v)
{
	if (!v)
		return;
	for (int i = 0; v->half.progs && i < v->half.n_progs; i++)
		ms_dsl_prog_free(v->half.progs[i]);
	ms_ctx_mfree(v->ctx, v->half.progs);
	ms_ctx_mfree(v->ctx, v->fingerprint);
	ms_ctx_mfree(v->ctx, v);
}

int ms_cs_synth_vs_new(ms_ctx *ctx, ms_cs_synth_vs **out, const ms_cs_synth *cs, const ms_dsl_prog *const *progs, int n)
{
	ms_cs_synth_vs *v;
	const ms_dsl_grammar *g = ms_cs_dsl_grammar(cs->dsl);
	int rc = 0;

	*out = NULL;
	if (n < 0 || (n > 0 && !progs) || n > 100000)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: %d program opponents", n);
	for (int i = 0; i < n; i++)
		if (!progs[i] || ms_dsl_prog_grammar(progs[i]) != g || ms_dsl_prog_nt(progs[i]) != MS_CS_NT_START ||
		    ms_dsl_hole_count(progs[i]) > 0)
			return ms_ctx_error(ctx, MS_EINVAL, "cantstop synth: opponent program %d is not a whole program of "
					    "the search grammar", i + 1);
	v = ms_ctx_calloc(ctx, 1, sizeof *v);
	if (!v)
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop synth: out of memory");
	v->ctx = ctx;
	v->half = cs->half[0];
	v->half.progs = NULL;
	v->half.n_progs = 0;
	size_t fl = strlen(cs->fingerprint[0]) + 32 + (size_t)n * 18;
	v->fingerprint = ms_ctx_malloc(ctx, fl);
	v->half.progs = n ? ms_ctx_calloc(ctx, (size_t)n, sizeof *v->half.progs) : NULL;
	if (!v->fingerprint || (n && !v->half.progs)) {
		ms_cs_synth_vs_free(v);
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop synth: out of memory");
	}
	size_t at = (size_t)snprintf(v->fingerprint, fl, "%s opponents=ga", cs->fingerprint[0]);
	for (int i = 0; i < n; i++) {
		if ((rc = ms_dsl_prog_clone(&v->half.progs[i], progs[i])) < 0) {
			ms_cs_synth_vs_free(v);
			return rc;
		}
		v->half.n_progs = i + 1;
		at += (size_t)snprintf(v->fingerprint + at, fl - at, ",%016llx",
				       (unsigned long long)ms_dsl_hash(progs[i]));
	}
	v->pb = cs->pb[0];
	v->pb.fingerprint = v->fingerprint;
	v->pb.user = &v->half;
	v->pb.n_opponents = n + 1;
	v->pb.eval_vs = cs_eval_vs;
	*out = v;
	return 0;
}

const ms_synth_problem *ms_cs_synth_vs_problem(const ms_cs_synth_vs *v)
{
	return &v->pb;
}
