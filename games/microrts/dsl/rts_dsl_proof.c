/*
 * Proofs of equal play: the matches `synth --game microrts` plays for one
 * evaluation (every map, native opponent, seat and seed, with the same
 * edition and game length), replayed with a program bot of this file: the
 * interpreter of rts_dsl_interp.c behind ms_bot_ops that, at every
 * decision, records the pairs it returns (the reference), compares them
 * with the reference's (a candidate) or credits them to the program nodes
 * that assigned them (explain). A candidate's match stops at its first
 * decision that differs, which is what makes refusing a change cheap. The
 * reference's matches are also played through ms_match_play, the interface
 * the synthesis scores with, and must end as the replay does.
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/jrandom.h"
#include "core/vec.h"
#include "rts_dsl_internal.h"
#include "rts_dsl_proof.h"
#include "core/opts.h"

/* ---- the proof's matches -------------------------------------------------- */

/* One decision of the reference: its pairs (off, n in the log) or its error. */
typedef struct pf_dec {
	int off, n, rc, cycle;
} pf_dec;

/* What the reference program did in one match. */
typedef struct pf_log {
	MS_VEC(pf_dec) dec;
	MS_VEC(ms_rts_pair) pairs;
	int rc, winner, cycles; /* the end: status of the play, winner, cycle */
} pf_log;

typedef struct pf_match {
	int map, opp, seat, stochastic;
	int64_t seed;
} pf_match;

enum { PF_RECORD, PF_COMPARE, PF_COUNT };

struct ms_rts_proof {
	ms_ctx *ctx;
	int n_maps, n_opps, n_matches;
	ms_match **m;
	ms_rts_state **s; /* per map: the match being replayed */
	int *max_cycles;
	char **maps, **opps;
	ms_dsl_prog **oprog; /* per opponent: a program given in memory (its copy), or NULL: opps[k] is a spec */
	int edition;
	pf_match *match;
	pf_log *ref;
	int have_ref;
	int *order; /* matches in the order candidates replay them: the last to differ first */
	ms_memo *memo;
	long cycles; /* decisions compared by the last ms_rts_proof_compare */
};

/* The proof's program bot: the interpreter, and what it does with each answer. */
typedef struct pf_bot {
	ms_rts_dsl_interp *it;
	const ms_rts_utt *utt;
	int mode;
	pf_log *log;   /* PF_RECORD: filled; PF_COMPARE: the reference */
	int dec;       /* decisions so far */
	int differs;   /* PF_COMPARE: the first difference was met */
	ms_rts_proof_diff *diff;
	long *counts;  /* PF_COUNT: actions per node */
	long compared;
} pf_bot;

static const char *const dir_names[4] = { "up", "right", "down", "left" };

static const char *dir_name(int d)
{
	return d >= 0 && d < 4 ? dir_names[d] : "?";
}

static const char *type_name(const ms_rts_utt *utt, int t)
{
	const ms_rts_unit_type *ut = t >= 0 ? ms_rts_utt_type(utt, t) : NULL;
	return ut ? ut->name : "?";
}

/* A unit action as the reader knows it: move(right), produce(Worker,down), attack(3,4), none(10). */
static void action_text(const ms_rts_utt *utt, const ms_rts_action *a, char *buf, size_t size)
{
	switch (a->type) {
	case MS_RTS_NONE:
		snprintf(buf, size, "none(%d)", a->parameter);
		break;
	case MS_RTS_MOVE:
		snprintf(buf, size, "move(%s)", dir_name(a->parameter));
		break;
	case MS_RTS_HARVEST:
		snprintf(buf, size, "harvest(%s)", dir_name(a->parameter));
		break;
	case MS_RTS_RETURN:
		snprintf(buf, size, "return(%s)", dir_name(a->parameter));
		break;
	case MS_RTS_PRODUCE:
		snprintf(buf, size, "produce(%s,%s)", type_name(utt, a->unit_type), dir_name(a->parameter));
		break;
	case MS_RTS_ATTACK:
		snprintf(buf, size, "attack(%d,%d)", a->x, a->y);
		break;
	default:
		snprintf(buf, size, "action %d", a->type);
		break;
	}
}

static int same_pair(const ms_rts_pair *a, const ms_rts_pair *b)
{
	return a->unit.id == b->unit.id && a->action.type == b->action.type &&
	       a->action.parameter == b->action.parameter && a->action.x == b->action.x && a->action.y == b->action.y &&
	       a->action.unit_type == b->action.unit_type;
}

static const ms_rts_pair *pair_of(const ms_rts_pair *v, int n, int64_t unit)
{
	for (int k = 0; k < n; k++)
		if (v[k].unit.id == unit)
			return &v[k];
	return NULL;
}

/* Fills the diff for decision d: the first unit, in the reference's order, whose pair differs. */
static void describe_decision(pf_bot *pb, const pf_dec *d, const ms_rts_pair *ref, const ms_rts_pair *got, int n,
			      int rc, int cycle)
{
	ms_rts_proof_diff *df = pb->diff;
	const ms_rts_pair *r = NULL, *c = NULL;
	int k = 0;

	if (!df)
		return;
	df->cycle = cycle;
	df->unit = -1;
	if (!d) {
		snprintf(df->reference, sizeof df->reference, "no decision (its match had ended)");
		snprintf(df->candidate, sizeof df->candidate, rc ? "a run-time error" : "%d action(s)", n);
		return;
	}
	if (d->cycle != cycle) {
		snprintf(df->reference, sizeof df->reference, "its decision at cycle %d", d->cycle);
		snprintf(df->candidate, sizeof df->candidate, "a decision at cycle %d", cycle);
		return;
	}
	if (d->rc || rc) {
		snprintf(df->reference, sizeof df->reference, d->rc ? "a run-time error" : "%d action(s)", d->n);
		snprintf(df->candidate, sizeof df->candidate, rc ? "a run-time error" : "%d action(s)", n);
		return;
	}
	while (k < d->n && k < n && same_pair(&ref[k], &got[k]))
		k++;
	if (k < d->n) {
		r = &ref[k];
		c = pair_of(got, n, r->unit.id);
	} else if (k < n) {
		c = &got[k];
		r = pair_of(ref, d->n, c->unit.id);
	} else {
		return;
	}
	const ms_rts_pair *u = r ? r : c;
	df->unit = u->unit.id;
	df->unit_type = u->unit.type;
	df->x = u->unit.x;
	df->y = u->unit.y;
	if (r)
		action_text(pb->utt, &r->action, df->reference, sizeof df->reference);
	else
		snprintf(df->reference, sizeof df->reference, "no action");
	if (c)
		action_text(pb->utt, &c->action, df->candidate, sizeof df->candidate);
	else
		snprintf(df->candidate, sizeof df->candidate, "no action");
	if (r && c && same_pair(r, c)) { /* the same actions in another order */
		snprintf(df->reference + strlen(df->reference), sizeof df->reference - strlen(df->reference),
			 " (as action %d of %d)", k + 1, d->n);
		snprintf(df->candidate + strlen(df->candidate), sizeof df->candidate - strlen(df->candidate),
			 " (as action %d of %d)", (int)(c - got) + 1, n);
	}
}

/* A status no bot returns: the candidate's first difference stops its match. */
#define PF_DIFFERS MS_ERANGE

static int pf_decide(ms_bot *b, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	pf_bot *pb = b->impl;
	int rc = ms_rts_dsl_decide(pb->it, player, s, out, max, n), d = pb->dec++;
	int cycle = ms_rts_state_time(s);

	switch (pb->mode) {
	case PF_RECORD: {
		pf_log *L = pb->log;
		pf_dec *e = ms_vec_push(b->ctx, &L->dec);
		int k = rc ? 0 : *n;
		if (!e || ms_vec_reserve(b->ctx, &L->pairs, (long long)L->pairs.n + k) < 0)
			return ms_ctx_error(b->ctx, MS_ENOMEM, "proof: out of memory recording a match");
		e->off = L->pairs.n;
		e->n = k;
		e->rc = rc;
		e->cycle = cycle;
		if (k)
			memcpy(L->pairs.v + L->pairs.n, out, sizeof(*out) * (size_t)k);
		L->pairs.n += k;
		return rc;
	}
	case PF_COMPARE: {
		const pf_log *L = pb->log;
		const pf_dec *e = d < L->dec.n ? &L->dec.v[d] : NULL;
		int same = e && e->cycle == cycle && (e->rc != 0) == (rc != 0) && (rc ? e->rc == rc : e->n == *n);
		for (int k = 0; same && !rc && k < *n; k++)
			same = same_pair(&L->pairs.v[e->off + k], &out[k]);
		if (!same) {
			describe_decision(pb, e, e ? L->pairs.v + e->off : NULL, out, rc ? 0 : *n, rc, cycle);
			pb->differs = 1;
			return ms_ctx_error(b->ctx, PF_DIFFERS, "proof: the candidate differs at cycle %d", cycle);
		}
		pb->compared++;
		return rc;
	}
	default: {
		int np = 0;
		const ms_rts_dsl_assignment *as;
		if (rc)
			return rc;
		as = ms_rts_dsl_assignments(pb->it, &np);
		for (int k = 0; k < *n; k++) {
			for (int j = 0; j < np; j++)
				if (as[j].unit == out[k].unit.id) {
					if (as[j].node >= 0)
						pb->counts[as[j].node]++;
					break;
				}
		}
		return MS_OK;
	}
	}
}

static int pf_reset(ms_bot *b)
{
	(void)b;
	return MS_OK;
}

static void pf_free(ms_bot *b)
{
	pf_bot *pb = b->impl;
	if (!pb)
		return;
	ms_rts_dsl_interp_free(pb->it);
	ms_ctx_mfree(b->ctx, pb);
	b->impl = NULL;
}

static const ms_bot_ops pf_ops = { "Program", "ai.microsynth.Program", pf_reset, pf_decide, pf_free };

static int pf_bot_new(ms_rts_proof *pr, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt, int64_t seed)
{
	ms_ctx *ctx = pr->ctx;
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .path_memo = pr->memo };
	ms_bot *b = ms_ctx_calloc(ctx, 1, sizeof *b);
	pf_bot *pb = ms_ctx_calloc(ctx, 1, sizeof *pb);
	int rc;

	*out = NULL;
	if (!b || !pb) {
		ms_ctx_mfree(ctx, b);
		ms_ctx_mfree(ctx, pb);
		return ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
	}
	b->ops = &pf_ops;
	b->ctx = ctx;
	b->utt = utt;
	b->seed = seed;
	b->impl = pb;
	pb->utt = utt;
	if ((rc = ms_rts_dsl_interp_new(ctx, &pb->it, p, seed, &o))) {
		ms_bot_free(b);
		return rc;
	}
	*out = b;
	return MS_OK;
}

static void log_dispose(ms_ctx *ctx, pf_log *L)
{
	ms_vec_dispose(ctx, &L->dec);
	ms_vec_dispose(ctx, &L->pairs);
}

void ms_rts_proof_free(ms_rts_proof *pr)
{
	if (!pr)
		return;
	ms_ctx *ctx = pr->ctx;
	for (int i = 0; i < pr->n_maps; i++) {
		if (pr->m)
			ms_match_free(pr->m[i]);
		if (pr->s)
			ms_rts_state_free(pr->s[i]);
		if (pr->maps)
			ms_ctx_mfree(ctx, pr->maps[i]);
	}
	for (int k = 0; pr->opps && k < pr->n_opps; k++) {
		ms_ctx_mfree(ctx, pr->opps[k]);
		ms_dsl_prog_free(pr->oprog[k]);
	}
	for (int k = 0; pr->ref && k < pr->n_matches; k++)
		log_dispose(ctx, &pr->ref[k]);
	ms_memo_free(pr->memo);
	ms_ctx_mfree(ctx, pr->m);
	ms_ctx_mfree(ctx, pr->s);
	ms_ctx_mfree(ctx, pr->maps);
	ms_ctx_mfree(ctx, pr->opps);
	ms_ctx_mfree(ctx, pr->oprog);
	ms_ctx_mfree(ctx, pr->max_cycles);
	ms_ctx_mfree(ctx, pr->match);
	ms_ctx_mfree(ctx, pr->ref);
	ms_ctx_mfree(ctx, pr->order);
	ms_ctx_mfree(ctx, pr);
}

/* The options' players (version 2), or NULL. */
static const ms_match_player *players(const ms_rts_proof_options *o)
{
	return o->version >= 2 ? o->players : NULL;
}

/* Opponent k's spec (NULL for a program in memory) and program in memory (NULL for a spec). */
static const char *opp_spec(const ms_rts_proof_options *o, int k)
{
	return players(o) ? players(o)[k].spec : o->opponents[k];
}

static const ms_dsl_prog *opp_program(const ms_rts_proof_options *o, int k)
{
	return players(o) && !players(o)[k].spec ? players(o)[k].program : NULL;
}

/* Opponent k kept: its spec, or a copy of its program named by its hash. */
static int add_opponent(ms_rts_proof *pr, const ms_rts_proof_options *o, int k)
{
	const ms_dsl_prog *p = opp_program(o, k);
	char name[40];
	int rc;
	if (p) {
		snprintf(name, sizeof name, "program %016llx", (unsigned long long)ms_dsl_hash(p));
		if ((rc = ms_dsl_prog_clone(&pr->oprog[k], p)))
			return rc;
	}
	if (!(pr->opps[k] = ms_ctx_strdup(pr->ctx, p ? name : opp_spec(o, k))))
		return ms_ctx_error(pr->ctx, MS_ENOMEM, "proof: out of memory");
	return MS_OK;
}

int ms_rts_proof_new(ms_ctx *ctx, ms_rts_proof **out, const ms_rts_proof_options *o)
{
	ms_rts_proof *pr;
	int rc = MS_OK, n = 0, cells = 0;

	*out = NULL;
	if (!o || o->version < 1 || o->version > MS_RTS_PROOF_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "proof: unknown options version %d", o ? o->version : -1);
	if (o->n_maps < 1 || !o->maps)
		return ms_ctx_error(ctx, MS_EINVAL, "proof: no map");
	if (o->n_opponents < 1 || (!o->opponents && !players(o)))
		return ms_ctx_error(ctx, MS_EINVAL, "proof: no opponent");
	if (o->opponent_seeds < 0 || o->opponent_seeds > 1000)
		return ms_ctx_error(ctx, MS_EINVAL, "proof: opponent seeds %d (0..1000)", o->opponent_seeds);
	if (o->max_cycles < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "proof: max cycles %d", o->max_cycles);
	for (int k = 0; k < o->n_opponents; k++)
		if (!opp_program(o, k) && (!opp_spec(o, k) || !ms_bot_spec_native(opp_spec(o, k))))
			return ms_ctx_error(ctx, MS_ENOTFOUND,
					    "opponent '%s': not a native bot or program; a proof replays its matches in the "
					    "native engine (native bots: WorkerRush, LightRush, HeavyRush, RangedRush, "
					    "PassiveAI, RandomBiasedAI, CoacAI, mayari; or program:FILE)",
					    opp_spec(o, k) ? opp_spec(o, k) : "(null)");
	if (!(pr = ms_ctx_calloc(ctx, 1, sizeof *pr)))
		return ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
	pr->ctx = ctx;
	pr->n_maps = o->n_maps;
	pr->n_opps = o->n_opponents;
	pr->edition = o->edition;
	pr->m = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *pr->m);
	pr->s = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *pr->s);
	pr->maps = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *pr->maps);
	pr->max_cycles = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *pr->max_cycles);
	pr->opps = ms_ctx_calloc(ctx, (size_t)o->n_opponents, sizeof *pr->opps);
	pr->oprog = ms_ctx_calloc(ctx, (size_t)o->n_opponents, sizeof *pr->oprog);
	if (!pr->m || !pr->s || !pr->maps || !pr->max_cycles || !pr->opps || !pr->oprog) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
		goto fail;
	}
	for (int k = 0; k < o->n_opponents; k++)
		if ((rc = add_opponent(pr, o, k)))
			goto fail;
	for (int i = 0; i < o->n_maps; i++) {
		ms_match_options mo = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .map = o->maps[i],
				     .utt = o->utt, .conflict = o->conflict, .edition = o->edition };
		int w, h;
		if (!o->maps[i]) {
			rc = ms_ctx_error(ctx, MS_EINVAL, "proof: map %d is NULL", i + 1);
			goto fail;
		}
		if (!(pr->maps[i] = ms_ctx_strdup(ctx, o->maps[i]))) {
			rc = ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
			goto fail;
		}
		/* the length first, from the map's size, then the context that plays it */
		mo.max_cycles = 1;
		if ((rc = ms_match_new(ctx, &pr->m[i], &mo)))
			goto fail;
		ms_match_map_size(pr->m[i], &w, &h);
		ms_match_free(pr->m[i]);
		pr->m[i] = NULL;
		pr->max_cycles[i] = mo.max_cycles = o->max_cycles ? o->max_cycles : ms_match_competition_cycles(w, h);
		if ((rc = ms_match_new(ctx, &pr->m[i], &mo)) ||
		    (rc = ms_rts_state_clone(ctx, &pr->s[i], ms_match_initial_state(pr->m[i]))))
			goto fail;
		if (w * h > cells)
			cells = w * h;
	}
	/* the evaluation's matches, in ms_rts_synth_score's order */
	for (int k = 0; k < o->n_opponents; k++)
		n += 2 * (o->opponent_seeds >= 2 && ms_bot_draws_unseeded(opp_spec(o, k)) ? o->opponent_seeds : 1);
	n *= o->n_maps;
	pr->match = ms_ctx_calloc(ctx, (size_t)n, sizeof *pr->match);
	pr->ref = ms_ctx_calloc(ctx, (size_t)n, sizeof *pr->ref);
	pr->order = ms_ctx_calloc(ctx, (size_t)n, sizeof *pr->order);
	if (!pr->match || !pr->ref || !pr->order) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
		goto fail;
	}
	for (int i = 0; i < o->n_maps; i++)
		for (int k = 0; k < o->n_opponents; k++) {
			int seeds = o->opponent_seeds >= 2 && ms_bot_draws_unseeded(opp_spec(o, k)) ? o->opponent_seeds : 1;
			for (int run = 0; run < 2 * seeds; run++) {
				pf_match *mt = &pr->match[pr->n_matches];
				mt->map = i;
				mt->opp = k;
				mt->seat = run % 2;
				mt->seed = seeds > 1 ? run / 2 + 1 : 0;
				mt->stochastic = seeds > 1;
				pr->order[pr->n_matches] = pr->n_matches;
				pr->n_matches++;
			}
		}
	/* the path answers of every replay, as a match context keeps them (same decisions) */
	unsigned bits = 8;
	while (bits < 20 && (1L << (bits - 8)) < cells)
		bits++;
	if ((rc = ms_memo_new(ctx, &pr->memo, bits < 14 ? 14 : bits)))
		goto fail;
	*out = pr;
	return MS_OK;
fail:
	ms_rts_proof_free(pr);
	return rc;
}

ms_ctx *rd_proof_ctx(const ms_rts_proof *pr)
{
	return pr->ctx;
}

int ms_rts_proof_count(const ms_rts_proof *pr)
{
	return pr ? pr->n_matches : 0;
}

const ms_rts_utt *ms_rts_proof_utt(const ms_rts_proof *pr)
{
	return pr && pr->n_maps ? ms_match_utt(pr->m[0]) : NULL;
}

int ms_rts_proof_match_info(const ms_rts_proof *pr, int k, ms_rts_proof_match *info)
{
	if (!pr || k < 0 || k >= pr->n_matches)
		return MS_EINVAL;
	const pf_match *mt = &pr->match[k];
	memset(info, 0, sizeof *info);
	info->map = pr->maps[mt->map];
	info->opponent = pr->opps[mt->opp];
	info->map_index = mt->map;
	info->opponent_index = mt->opp;
	info->seat = mt->seat;
	info->seed = mt->seed;
	info->stochastic = mt->stochastic;
	info->max_cycles = pr->max_cycles[mt->map];
	info->winner = pr->have_ref ? pr->ref[k].winner : -1;
	info->cycles = pr->have_ref ? pr->ref[k].cycles : 0;
	info->failed = pr->have_ref && pr->ref[k].rc != 0;
	return MS_OK;
}

/* The name of match k for messages. */
static void match_name(const ms_rts_proof *pr, int k, char *buf, size_t size)
{
	const pf_match *mt = &pr->match[k];
	if (mt->stochastic)
		snprintf(buf, size, "map %s, opponent %s, program as player %d, opponent seed %lld", pr->maps[mt->map],
			 pr->opps[mt->opp], mt->seat, (long long)mt->seed);
	else
		snprintf(buf, size, "map %s, opponent %s, program as player %d", pr->maps[mt->map], pr->opps[mt->opp],
			 mt->seat);
}

/*
 * Plays match k with `p` as a proof bot in `mode` (log: what PF_RECORD fills
 * or PF_COMPARE compares with; counts: PF_COUNT's), as play_native of
 * match.c plays it: the state seeded for the match's seed, both bots seeded
 * from it, edition and draws set, the memo shared. *end receives the end
 * (rc 0, or the status a failed decision left), *pb_out the bot's counters.
 */
static int play_one(ms_rts_proof *pr, int k, const ms_dsl_prog *p, int mode, pf_log *log, long *counts,
		    ms_rts_proof_diff *diff, pf_log *end, pf_bot *stats)
{
	ms_ctx *ctx = pr->ctx;
	const pf_match *mt = &pr->match[k];
	ms_match *m = pr->m[mt->map];
	const ms_rts_utt *utt = ms_match_utt(m);
	ms_bot *bot[2] = { NULL, NULL };
	int64_t bot_seed = ms_jrandom_match_seed(mt->seed, MS_MATCH_RNG_SAMPLER);
	int seat = mt->seat, rc, winner = -1;
	pf_bot *pb;

	if ((rc = ms_match_reseed(m, mt->seed, mt->stochastic)) ||
	    (rc = ms_rts_state_copy(pr->s[mt->map], ms_match_initial_state(m))))
		return rc;
	if ((rc = pf_bot_new(pr, &bot[seat], p, utt, bot_seed)))
		goto done;
	pb = bot[seat]->impl;
	pb->mode = mode;
	pb->log = log;
	pb->counts = counts;
	pb->diff = diff;
	if ((rc = pr->oprog[mt->opp] ? ms_rts_dsl_bot_new(ctx, &bot[1 - seat], pr->oprog[mt->opp], utt, bot_seed)
				     : ms_bot_make(ctx, &bot[1 - seat], pr->opps[mt->opp], utt, bot_seed)) ||
	    (rc = ms_bot_set_memo(bot[1 - seat], pr->memo)))
		goto done;
	for (int q = 0; q < 2; q++)
		if ((rc = ms_bot_set_edition(bot[q], pr->edition)) || (rc = ms_bot_set_stochastic(bot[q], mt->stochastic)) ||
		    (rc = ms_bot_reset(bot[q])))
			goto done;
	rc = ms_bot_play_observed(ctx, pr->s[mt->map], bot, pr->max_cycles[mt->map], 0, NULL, &winner, NULL, NULL);
	*stats = *pb;
	if (rc && pb->differs) {
		rc = MS_OK;
		goto done;
	}
	if (rc) {
		/* a decision that failed ends the match; the side that failed loses (match.c) */
		int failed = bot[0]->failures ? 0 : bot[1]->failures ? 1 : -1;
		if (failed < 0)
			goto done; /* not a decision: out of memory, a broken state */
		end->rc = rc;
		end->winner = 1 - failed;
		rc = MS_OK;
	} else {
		end->rc = 0;
		end->winner = winner;
	}
	end->cycles = ms_rts_state_time(pr->s[mt->map]);
done:
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	return rc;
}

int ms_rts_proof_record(ms_rts_proof *pr, const ms_dsl_prog *p)
{
	ms_ctx *ctx = pr->ctx;
	char name[512];
	int rc;

	pr->have_ref = 0;
	for (int k = 0; k < pr->n_matches; k++) {
		pf_log *L = &pr->ref[k];
		const pf_match *mt = &pr->match[k];
		pf_bot stats;
		pf_log end = { 0 };
		ms_match_player pl[2];
		ms_match_result res;

		L->dec.n = L->pairs.n = 0;
		if ((rc = play_one(pr, k, p, PF_RECORD, L, NULL, NULL, &end, &stats))) {
			match_name(pr, k, name, sizeof name);
			return ms_ctx_error(ctx, rc, "proof: %s: %s", name, ms_ctx_last_error(ctx));
		}
		L->rc = end.rc;
		L->winner = end.winner;
		L->cycles = end.cycles;
		/* the same match through the interface the synthesis scores with must end the same */
		pl[mt->seat] = ms_match_player_program(p);
		pl[1 - mt->seat] = pr->oprog[mt->opp] ? ms_match_player_program(pr->oprog[mt->opp])
						       : ms_match_player_spec(pr->opps[mt->opp]);
		rc = ms_match_play(pr->m[mt->map], pl, NULL, &res);
		if (rc && res.crashed < 0) {
			match_name(pr, k, name, sizeof name);
			return ms_ctx_error(ctx, rc, "proof: %s: %s", name, ms_ctx_last_error(ctx));
		}
		if ((rc != 0) != (L->rc != 0) || res.winner != L->winner || res.cycles != L->cycles) {
			match_name(pr, k, name, sizeof name);
			return ms_ctx_error(ctx, MS_ERROR,
					    "proof: %s: the replay ended at cycle %d (winner %d) but ms_match_play at cycle "
					    "%d (winner %d): the proof would not replay the evaluation's match",
					    name, L->cycles, L->winner, res.cycles, res.winner);
		}
	}
	pr->have_ref = 1;
	return MS_OK;
}

int ms_rts_proof_compare(ms_rts_proof *pr, const ms_dsl_prog *p, int *equal, ms_rts_proof_diff *diff)
{
	ms_ctx *ctx = pr->ctx;
	char name[512];
	int rc;

	*equal = 0;
	pr->cycles = 0;
	if (!pr->have_ref)
		return ms_ctx_error(ctx, MS_EINVAL, "proof: no reference recorded (ms_rts_proof_record)");
	if (diff)
		memset(diff, 0, sizeof *diff);
	for (int o = 0; o < pr->n_matches; o++) {
		int k = pr->order[o];
		const pf_log *L = &pr->ref[k];
		pf_bot stats;
		pf_log end = { 0 };
		ms_rts_proof_diff d;

		memset(&d, 0, sizeof d);
		if ((rc = play_one(pr, k, p, PF_COMPARE, &pr->ref[k], NULL, &d, &end, &stats))) {
			match_name(pr, k, name, sizeof name);
			return ms_ctx_error(ctx, rc, "proof: %s: %s", name, ms_ctx_last_error(ctx));
		}
		pr->cycles += stats.compared;
		if (!stats.differs && (end.rc != L->rc || end.winner != L->winner || end.cycles != L->cycles ||
				       stats.dec != L->dec.n)) {
			stats.differs = 1;
			d.cycle = end.cycles;
			d.unit = -1;
			snprintf(d.reference, sizeof d.reference, "the end at cycle %d (winner %d)", L->cycles, L->winner);
			snprintf(d.candidate, sizeof d.candidate, "the end at cycle %d (winner %d)", end.cycles, end.winner);
		}
		if (stats.differs) {
			/* the match that refuted this candidate goes first for the next one */
			memmove(pr->order + 1, pr->order, sizeof(*pr->order) * (size_t)o);
			pr->order[0] = k;
			if (diff) {
				const ms_rts_utt *utt = ms_match_utt(pr->m[pr->match[k].map]);
				*diff = d;
				diff->match = k;
				match_name(pr, k, name, sizeof name);
				if (d.unit >= 0)
					snprintf(diff->message, sizeof diff->message,
						 "%s: cycle %d, unit %lld (%s at %d,%d): reference %s, candidate %s", name, d.cycle,
						 (long long)d.unit, type_name(utt, d.unit_type), d.x, d.y, d.reference,
						 d.candidate);
				else
					snprintf(diff->message, sizeof diff->message, "%s: cycle %d: reference %s, candidate %s", name,
						 d.cycle, d.reference, d.candidate);
			}
			return MS_OK;
		}
	}
	*equal = 1;
	return MS_OK;
}

long ms_rts_proof_cycles_compared(const ms_rts_proof *pr)
{
	return pr ? pr->cycles : 0;
}

int ms_rts_proof_explain(ms_rts_proof *pr, const ms_dsl_prog *p, long *counts)
{
	ms_ctx *ctx = pr->ctx;
	int len = ms_dsl_prog_len(p), rc;
	char name[512];

	memset(counts, 0, sizeof(*counts) * (size_t)len * (size_t)pr->n_matches);
	for (int k = 0; k < pr->n_matches; k++) {
		pf_bot stats;
		pf_log end = { 0 };
		if ((rc = play_one(pr, k, p, PF_COUNT, NULL, counts + (size_t)k * (size_t)len, NULL, &end, &stats))) {
			match_name(pr, k, name, sizeof name);
			return ms_ctx_error(ctx, rc, "proof: %s: %s", name, ms_ctx_last_error(ctx));
		}
	}
	return MS_OK;
}

int ms_rts_proof_options_init(ms_rts_proof_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_RTS_PROOF_OPTIONS_VERSION);
}
