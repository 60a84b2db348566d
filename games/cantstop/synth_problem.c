/*
 * Can't Stop as a synthesis problem (cantstop_synth.h): Psi is the win
 * rate against GA over ranges of matches (one shard per range), C a
 * cloning score on a data set recorded once from the oracle. Each
 * evaluation thread owns one DSL runner; everything else is read-only.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/cantstop_synth.h"

/* What one problem's eval needs; the search and final problems differ only in `matches`. */
typedef struct cs_half {
	const struct ms_cs_synth *cs;
	long matches;
	long shard_matches;
	int common;          /* play the matches of common_seed whatever the evaluation's seed */
	uint64_t common_seed;
} cs_half;

struct ms_cs_synth {
	ms_ctx *ctx;
	ms_cs_synth_options o;
	ms_cs_dsl *dsl;
	ms_cs_dataset *ds;
	ms_cs_match_options mo;
	cs_half half[2]; /* 0: search, 1: final */
	ms_synth_problem pb[2];
	char fingerprint[2][512];
};

void ms_cs_synth_options_init(ms_cs_synth_options *o)
{
	memset(o, 0, sizeof *o);
	o->version = MS_CS_SYNTH_OPTIONS_VERSION;
	o->era = MS_CS_ERA_A;
	o->matches = 1000;
	o->shard_matches = 100;
	o->final_matches = 10000;
	o->oracle = MS_CS_ORACLE_NONE;
	o->score = MS_CS_SCORE_OBSERVATION;
	o->data_matches = 3;
	o->data_seed = 1;
}

const char *ms_cs_synth_oracle_name(int oracle)
{
	static const char *const names[] = { "none", "random", "ga", "file" };
	return oracle >= 0 && oracle <= MS_CS_ORACLE_FILE ? names[oracle] : NULL;
}

static int cs_worker_new(void *user, ms_ctx *ctx, int worker, void **state)
{
	const cs_half *h = user;
	ms_cs_dsl_runner *r;
	(void)worker;
	int rc = ms_cs_dsl_runner_new(ctx, h->cs->dsl, &r);
	if (rc < 0)
		return rc;
	*state = r;
	return 0;
}

static void cs_worker_free(void *user, void *state)
{
	(void)user;
	ms_cs_dsl_runner_free(state);
}

/*
 * MS_ERANGE from the interpreter or the player wrapper is the program's
 * run-time error (the reference catches any exception and scores 0);
 * anything else is ours and stops the search.
 */
static int cs_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int shard, uint64_t seed,
		   double *sum, double *weight)
{
	const cs_half *h = user;
	const ms_cs_synth *cs = h->cs;
	ms_cs_dsl_runner *r = state;
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
		rc = ms_cs_dsl_evaluate(r, &cs->mo, NULL, h->common ? h->common_seed : seed, first, count, &acc);
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

static int cs_generate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const cs_half *h = user;
	return ms_cs_dsl_generate(h->cs->dsl, prog, rng);
}

static int cs_mutate(void *user, ms_dsl_prog *prog, ms_jrandom *rng)
{
	const cs_half *h = user;
	return ms_cs_dsl_mutate(h->cs->dsl, prog, rng, NULL);
}

/* FNV-1a over the data set's text form: the fingerprint names the data, not only how it was made. */
static uint64_t cs_dataset_digest(const ms_cs_dataset *ds)
{
	uint64_t h = 1469598103934665603ULL;
	char buf[600];
	size_t n = ms_cs_dataset_size(ds);

	for (size_t i = 0; i < n; i++) {
		const ms_cs_record *rec = ms_cs_dataset_get(ds, i);
		int len = snprintf(buf, sizeof buf, "%d %d %d ", (int)rec->match, (int)rec->player, (int)rec->round);
		len += ms_cs_move_format(&rec->action, buf + len, sizeof buf - (size_t)len);
		buf[len++] = ' ';
		ms_cs_state_format(&rec->state, buf + len, sizeof buf - (size_t)len);
		for (const char *c = buf; *c; c++)
			h = (h ^ (uint8_t)*c) * 1099511628211ULL;
		h = (h ^ '\n') * 1099511628211ULL;
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
	char data[160] = "none", common[48] = "";

	h->cs = cs;
	h->matches = which == 0 ? o->matches : o->final_matches;
	h->shard_matches = o->shard_matches < h->matches ? o->shard_matches : h->matches;
	h->common = which == 0 && o->common_matches;
	h->common_seed = o->common_seed;
	if (h->common)
		snprintf(common, sizeof common, " common-matches=%llu", (unsigned long long)o->common_seed);
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
	pb->gen = *ms_cs_dsl_gen_opts(cs->dsl);
	pb->shards[MS_SYNTH_PSI] = (int)((h->matches + h->shard_matches - 1) / h->shard_matches);
	pb->shards[MS_SYNTH_C] = 1;
	pb->has_c = which == 0 && cs->ds != NULL;
	pb->user = h;
	pb->worker_new = cs_worker_new;
	pb->worker_free = cs_worker_free;
	pb->eval = cs_eval;
	pb->generate = cs_generate;
	pb->mutate = cs_mutate;
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
		ms_cs_dataset_free(cs->ctx, cs->ds);
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
