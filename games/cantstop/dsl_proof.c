/*
 * Proofs of equal play: the matches of one evaluation of a Can't Stop
 * program (ms_cs_dsl_evaluate: matches 0 .. N-1 against one opponent, the
 * program first in even ones), each played through ms_cs_evaluate itself
 * with the program's player wrapped in one of this file that keeps every
 * value the player returns (the reference) or compares it with the
 * reference's (a candidate). A candidate's match stops at its first
 * decision that differs, which is what makes refusing a change cheap; the
 * match that refuted the last candidate is replayed first. Equal decisions
 * from the same seed give the same match (the players' generator and the
 * dice only move with the decisions), so the first difference is where the
 * games could first part.
 */
#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "dsl_proof.h"
#include "core/opts.h"

/* A decision as kept: its kind (MS_CS_DIFF_YES_NO, _COLUMN, or CSP_ERROR) and the value returned. */
enum { CSP_ERROR = 8 };

typedef struct csp_dec {
	int8_t kind;
	int8_t value; /* YES_NO: MS_CS_MOVE_YES or _NO; COLUMN: the index chosen */
} csp_dec;

/* How one match went: its decisions in the log and its end. */
typedef struct csp_end {
	long off, n;           /* the program's decisions: log entries off .. off+n-1 */
	int rc;                /* the program's error that ended it (the evaluation too), or 0 */
	int result;            /* 1: the program won, 2: the opponent, 0: a draw (or an error) */
	long decisions, busts; /* of both players */
} csp_end;

struct csp__proof {
	ms_ctx *ctx;
	ms_cs_dsl_runner *run;
	ms_cs_player ga;          /* the default opponent */
	const ms_cs_player *opp;
	ms_cs_match_options mo;
	uint64_t seed;
	long asked;               /* N */
	long n;                   /* matches of the reference's evaluation (it stops at an error) */
	MS_VEC(csp_dec) log;
	csp_end *end;             /* `asked` entries */
	long *order;              /* matches in the order candidates replay them */
	int have_ref;
	char ref_error[256];      /* the reference's run-time error, if it raised */
};

/* One replay: the players' callbacks reach the proof through it. */
typedef struct csp_play {
	csp__proof *pr;
	ms_cs_player inner;       /* the runner's player */
	int compare;              /* 0: record into the log */
	const csp_end *ref;       /* compare: the reference's match */
	ms_cs_dsl_diff *diff;     /* compare: where it differs */
	long k;                   /* the program's decisions so far */
	long ply;                 /* decisions of both players so far */
	long compared;
	int failed;               /* the program's run-time error (MS_ERANGE from its player) */
	int broken;               /* any other error of the program's player, or of the log (out of memory) */
	int differs;
} csp_play;

static const char *csp_opp_name(const csp__proof *pr)
{
	return pr->opp->name ? pr->opp->name : "the opponent";
}

/* What a kept decision was, for messages. */
static void csp_dec_text(const csp_dec *e, int rc, const char *error, const ms_cs_move *actions, int n, char *buf,
			 size_t size)
{
	char m[16];

	if (!e) {
		snprintf(buf, size, "no decision (its match had ended)");
	} else if (e->kind == CSP_ERROR) {
		snprintf(buf, size, "a run-time error (%s): %s", ms_status_name(rc), error);
	} else if (e->kind == MS_CS_DIFF_YES_NO) {
		snprintf(buf, size, "%s", e->value == MS_CS_MOVE_YES ? "y (roll again)" : "n (stop)");
	} else if (actions && e->value >= 0 && e->value < n) {
		ms_cs_move_format(&actions[e->value], m, sizeof m);
		snprintf(buf, size, "column %s (action %d of %d)", m, e->value + 1, n);
	} else {
		snprintf(buf, size, "action %d", e->value + 1);
	}
}

/* The candidate's decision `got` (of `kind`) differs from the reference's `want` (NULL: none): say how. */
static void csp_describe(csp_play *pl, int kind, const csp_dec *want, const csp_dec *got, int rc,
			 const ms_cs_move *actions, int n)
{
	ms_cs_dsl_diff *df = pl->diff;

	pl->differs = 1;
	if (!df)
		return;
	df->kind = kind;
	df->decision = pl->k;
	df->ply = pl->ply;
	csp_dec_text(want, pl->ref->rc, pl->pr->ref_error, actions, n, df->reference, sizeof df->reference);
	csp_dec_text(got, rc, ms_ctx_last_error(pl->pr->ctx), actions, n, df->candidate, sizeof df->candidate);
}

/*
 * The program's player returned `rc` and, when 0, `value`: keep it or
 * compare it. A status is what the match loop gets back: the program's
 * error ends the match as it ends an evaluation; a difference ends it with
 * MS_ERANGE (pl->differs tells the two apart).
 */
static int csp_decided(csp_play *pl, int kind, int rc, int value, const ms_cs_move *actions, int n)
{
	csp__proof *pr = pl->pr;
	csp_dec e = { (int8_t)(rc < 0 ? CSP_ERROR : kind), (int8_t)(rc < 0 ? 0 : value) };

	/* MS_ERANGE is the program's run-time error (the reference's exception); out of memory is the proof's */
	if (rc < 0 && rc != MS_ERANGE) {
		pl->broken = rc;
		return rc;
	}
	if (rc < 0)
		pl->failed = rc;
	if (!pl->compare) {
		csp_dec *slot = ms_vec_push(pr->ctx, &pr->log);

		if (!slot) {
			pl->broken = MS_ENOMEM;
			return MS_ENOMEM;
		}
		*slot = e;
		if (rc < 0)
			snprintf(pr->ref_error, sizeof pr->ref_error, "%s", ms_ctx_last_error(pr->ctx));
	} else {
		const csp_dec *want = pl->k < pl->ref->n ? &pr->log.v[pl->ref->off + pl->k] : NULL;

		if (!want || want->kind != e.kind || (rc < 0 ? pl->ref->rc != rc : want->value != e.value)) {
			csp_describe(pl, kind, want, &e, rc, actions, n);
			return MS_ERANGE;
		}
		pl->compared++;
	}
	pl->k++;
	pl->ply++;
	return rc;
}

static int csp_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	csp_play *pl = ud;
	int rc = pl->inner.yes_no(ctx, pl->inner.ud, s, rng, answer);

	return csp_decided(pl, MS_CS_DIFF_YES_NO, rc, rc < 0 ? 0 : *answer, NULL, 0);
}

static int csp_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n, ms_cs_rng *rng,
		      int *choice)
{
	csp_play *pl = ud;
	int rc = pl->inner.column(ctx, pl->inner.ud, s, actions, n, rng, choice);

	return csp_decided(pl, MS_CS_DIFF_COLUMN, rc, rc < 0 ? 0 : *choice, actions, n);
}

/* The opponent, counted: ply numbers decisions of both players. */
static int csp_opp_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	csp_play *pl = ud;

	pl->ply++;
	return pl->pr->opp->yes_no(ctx, pl->pr->opp->ud, s, rng, answer);
}

static int csp_opp_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			  ms_cs_rng *rng, int *choice)
{
	csp_play *pl = ud;

	pl->ply++;
	return pl->pr->opp->column(ctx, pl->pr->opp->ud, s, actions, n, rng, choice);
}

/*
 * Match i of the evaluation through ms_cs_evaluate (the loaded program as
 * player A): its end into *end unless the candidate differed. Errors are
 * the proof's: out of memory, the opponent's.
 */
static int csp_play_match(csp__proof *pr, long i, csp_play *pl, csp_end *end)
{
	ms_cs_player me = { csp_yes_no, csp_column, pl, "program" };
	ms_cs_player opp = { csp_opp_yes_no, csp_opp_column, pl, pr->opp->name };
	ms_cs_eval_result acc;
	int rc;

	memset(&acc, 0, sizeof acc);
	ms_cs_dsl_runner_player(pr->run, &pl->inner);
	rc = ms_cs_evaluate(pr->ctx, &pr->mo, &me, &opp, pr->seed, i, 1, &acc);
	if (pl->broken)
		return ms_ctx_error(pr->ctx, pl->broken, "proof: match %ld: %s", i,
				    pl->broken == MS_ENOMEM ? "out of memory" : ms_ctx_last_error(pr->ctx));
	if (pl->differs)
		return MS_OK;
	if (rc < 0 && !pl->failed)
		return ms_ctx_error(pr->ctx, rc, "proof: match %ld against %s: %s", i, csp_opp_name(pr),
				    ms_ctx_last_error(pr->ctx));
	end->n = pl->k;
	end->rc = rc < 0 ? rc : 0;
	end->result = acc.wins_a ? 1 : acc.wins_b ? 2 : 0;
	end->decisions = acc.decisions;
	end->busts = acc.busts;
	return MS_OK;
}

void csp__free(csp__proof *pr)
{
	if (!pr)
		return;
	ms_cs_dsl_runner_free(pr->run);
	ms_vec_dispose(pr->ctx, &pr->log);
	ms_ctx_mfree(pr->ctx, pr->end);
	ms_ctx_mfree(pr->ctx, pr->order);
	ms_ctx_mfree(pr->ctx, pr);
}

static int csp_check_options(ms_ctx *ctx, const ms_cs_dsl_proof_options *o)
{
	if (!o || o->version != MS_CS_DSL_PROOF_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop proof options: version %u, expected %d", o ? o->version : 0,
				    MS_CS_DSL_PROOF_OPTIONS_VERSION);
	if (o->matches < 0 || o->era < MS_CS_ERA_A || o->era > MS_CS_ERA_B || o->max_decisions < -1)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop proof options: matches %ld, era %d or max_decisions %d out of "
				    "range", o->matches, o->era, o->max_decisions);
	if (o->opponent && (!o->opponent->yes_no || !o->opponent->column))
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop proof options: the opponent lacks a callback");
	return MS_OK;
}

int csp__new(ms_ctx *ctx, const ms_cs_dsl *d, const ms_cs_dsl_proof_options *o, csp__proof **out)
{
	csp__proof *pr;
	int rc;

	*out = NULL;
	if ((rc = csp_check_options(ctx, o)) < 0)
		return rc;
	if (!(pr = ms_ctx_calloc(ctx, 1, sizeof *pr)))
		return ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory");
	pr->ctx = ctx;
	ms_cs_player_ga(&pr->ga, NULL, 0);
	pr->opp = o->opponent ? o->opponent : &pr->ga;
	pr->mo.version = MS_CS_MATCH_OPTIONS_VERSION;
	pr->mo.era = o->era;
	pr->mo.max_decisions = o->max_decisions;
	pr->seed = o->seed;
	pr->asked = o->matches ? o->matches : 1000;
	if (!(pr->end = ms_ctx_calloc(ctx, (size_t)pr->asked, sizeof *pr->end)) ||
	    !(pr->order = ms_ctx_calloc(ctx, (size_t)pr->asked, sizeof *pr->order))) {
		csp__free(pr);
		return ms_ctx_error(ctx, MS_ENOMEM, "proof: out of memory for %ld matches", o->matches);
	}
	for (long i = 0; i < pr->asked; i++)
		pr->order[i] = i;
	if ((rc = ms_cs_dsl_runner_new(ctx, &pr->run, d)) < 0) {
		csp__free(pr);
		return rc;
	}
	*out = pr;
	return MS_OK;
}

int csp__check_program(ms_ctx *ctx, const ms_cs_dsl *d, const ms_dsl_prog *p, const char *what)
{
	if (!p || ms_dsl_prog_grammar(p) != ms_cs_dsl_grammar(d))
		return ms_ctx_error(ctx, MS_EINVAL, "%s: %s", what,
				    p ? "a program of another grammar" : "no program");
	if (ms_dsl_prog_nt(p) != MS_CS_NT_START || ms_dsl_prog_len(p) == 0)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: not a whole program (yes-no: and column:)", what);
	if (ms_dsl_hole_count(p) > 0)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: the program has %d holes", what, ms_dsl_hole_count(p));
	return MS_OK;
}

/* The recorded matches must total what the evaluation itself gives for them. */
static int csp_check_evaluation(csp__proof *pr)
{
	ms_cs_eval_result tot, sum;
	long last = pr->n - 1;
	int want = pr->end[last].rc, rc;

	memset(&tot, 0, sizeof tot);
	memset(&sum, 0, sizeof sum);
	for (long i = 0; i < pr->n; i++) {
		const csp_end *e = &pr->end[i];

		if (e->rc)
			continue;
		sum.matches++;
		sum.wins_a += e->result == 1;
		sum.wins_b += e->result == 2;
		sum.draws += e->result == 0;
		sum.decisions += e->decisions;
		sum.busts += e->busts;
	}
	rc = ms_cs_dsl_evaluate(pr->run, &pr->mo, pr->opp, pr->seed, 0, pr->asked, &tot);
	if (rc != want || tot.matches != sum.matches || tot.wins_a != sum.wins_a || tot.wins_b != sum.wins_b ||
	    tot.draws != sum.draws || tot.decisions != sum.decisions || tot.busts != sum.busts)
		return ms_ctx_error(pr->ctx, MS_ERROR,
				    "proof: match by match the program won %ld of %ld matches (%ld decisions) but the "
				    "evaluation gives %ld of %ld (%ld decisions, status %d): the proof would not replay "
				    "the evaluation's matches",
				    sum.wins_a, sum.matches, sum.decisions, tot.wins_a, tot.matches, tot.decisions, rc);
	ms_ctx_clear_error(pr->ctx);
	return MS_OK;
}

int csp__record(csp__proof *pr, const ms_dsl_prog *p)
{
	int rc;

	pr->have_ref = 0;
	pr->n = 0;
	pr->log.n = 0;
	pr->ref_error[0] = '\0';
	if ((rc = ms_cs_dsl_runner_load(pr->run, p)) < 0)
		return rc;
	for (long i = 0; i < pr->asked; i++) {
		csp_play pl;
		csp_end *e = &pr->end[i];

		memset(&pl, 0, sizeof pl);
		pl.pr = pr;
		memset(e, 0, sizeof *e);
		e->off = pr->log.n;
		if ((rc = csp_play_match(pr, i, &pl, e)) < 0)
			return rc;
		pr->n = i + 1;
		/* the evaluation stops at the program's first error: so do its matches */
		if (e->rc)
			break;
	}
	if ((rc = csp_check_evaluation(pr)) < 0)
		return rc;
	pr->have_ref = 1;
	return MS_OK;
}

static void csp_end_text(const csp_end *e, char *buf, size_t size)
{
	static const char *const who[3] = { "a draw", "the program won", "the opponent won" };

	if (e->rc)
		snprintf(buf, size, "the end: a run-time error after %ld decisions of the program", e->n);
	else
		snprintf(buf, size, "the end: %s after %ld decisions (%ld busts)", who[e->result], e->decisions, e->busts);
}

/* The message of a difference in match k. */
static void csp_message(const csp__proof *pr, long k, ms_cs_dsl_diff *df)
{
	static const char *const kinds[4] = { "", "yes/no", "column", "end" };

	df->match = k;
	df->program_first = k % 2 == 0;
	if (df->kind == MS_CS_DIFF_END)
		snprintf(df->message, sizeof df->message,
			 "match %ld against %s (the program %s): every decision the same, but reference %s, candidate %s", k,
			 csp_opp_name(pr), df->program_first ? "first" : "second", df->reference, df->candidate);
	else
		snprintf(df->message, sizeof df->message,
			 "match %ld against %s (the program %s), decision %ld of the program (%s; decision %ld of the "
			 "match): reference %s, candidate %s",
			 k, csp_opp_name(pr), df->program_first ? "first" : "second", df->decision, kinds[df->kind], df->ply,
			 df->reference, df->candidate);
}

int csp__compare(csp__proof *pr, const ms_dsl_prog *p, ms_cs_dsl_diff *diff)
{
	int rc;

	memset(diff, 0, sizeof *diff);
	diff->match = -1;
	diff->decision = -1;
	diff->matches = pr->n;
	if (!pr->have_ref)
		return ms_ctx_error(pr->ctx, MS_EINVAL, "proof: no reference recorded");
	if ((rc = ms_cs_dsl_runner_load(pr->run, p)) < 0)
		return rc;
	for (long o = 0; o < pr->n; o++) {
		long k = pr->order[o];
		const csp_end *ref = &pr->end[k];
		csp_end end;
		csp_play pl;

		memset(&pl, 0, sizeof pl);
		memset(&end, 0, sizeof end);
		pl.pr = pr;
		pl.compare = 1;
		pl.ref = ref;
		pl.diff = diff;
		if ((rc = csp_play_match(pr, k, &pl, &end)) < 0)
			return rc;
		diff->decisions_compared += pl.compared;
		if (!pl.differs && (end.rc != ref->rc || end.result != ref->result || end.decisions != ref->decisions ||
				    end.busts != ref->busts || end.n != ref->n)) {
			pl.differs = 1;
			diff->kind = MS_CS_DIFF_END;
			diff->decision = end.n;
			diff->ply = end.decisions;
			csp_end_text(ref, diff->reference, sizeof diff->reference);
			csp_end_text(&end, diff->candidate, sizeof diff->candidate);
		}
		if (pl.differs) {
			/* the match that refuted this candidate goes first for the next one */
			memmove(pr->order + 1, pr->order, sizeof *pr->order * (size_t)o);
			pr->order[0] = k;
			csp_message(pr, k, diff);
			ms_ctx_clear_error(pr->ctx);
			return MS_OK;
		}
	}
	ms_ctx_clear_error(pr->ctx);
	diff->equal = 1;
	return MS_OK;
}

int ms_cs_dsl_equal(ms_ctx *ctx, const ms_cs_dsl *d, const ms_dsl_prog *a, const ms_dsl_prog *b,
		    const ms_cs_dsl_proof_options *opts, ms_cs_dsl_diff *out)
{
	csp__proof *pr = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	out->match = -1;
	if ((rc = csp__check_program(ctx, d, a, "cantstop equal: program A")) < 0 ||
	    (rc = csp__check_program(ctx, d, b, "cantstop equal: program B")) < 0 || (rc = csp__new(ctx, d, opts, &pr)) < 0)
		return rc;
	if ((rc = csp__record(pr, a)) == 0)
		rc = csp__compare(pr, b, out);
	csp__free(pr);
	return rc;
}

int ms_cs_dsl_proof_options_init(ms_cs_dsl_proof_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_CS_DSL_PROOF_OPTIONS_VERSION);
}
