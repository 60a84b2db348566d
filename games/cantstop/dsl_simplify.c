/*
 * Readable Can't Stop programs: simplification proved on the evaluation's
 * matches (dsl_proof.c). The grammar has no statement lists, so every
 * change replaces one subtree by a smaller one of its slot:
 *   hoist     node i by a proper descendant that may stand in i's slot
 *             (an ITE by a branch, Plus/Minus/Times by an operand or
 *             anything deeper, a Map by its list, a Sum by a Sum inside it);
 *   constant  node i, in a slot that admits constants (LT's and the
 *             arithmetic's operands) and of more than 2 nodes, by each
 *             constant of the grammar (0 and 1, or 1..7).
 * Both only move or add what the program's grammar already has there, so
 * a program of the searches' grammar stays in it. Other terminals (a
 * domain function for a subtree that happens to decide alike) are not
 * tried: a reader would take them for a rule of play. Nothing is folded
 * without matches: Python's and numpy's types make `x * 0` an int, a
 * float or an empty list, so the replays decide.
 */
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "dsl_proof.h"

/* One candidate: node `at` replaced by descendant `keep`, or (keep < 0) by the constant sym[0..n_sym). */
typedef struct css_cand {
	int at, keep, removed, rank;
	ms_dsl_sym sym[2];
	int n_sym;
} css_cand;

typedef MS_VEC(css_cand) css_cands;

static int css_cmp(const void *x, const void *y)
{
	const css_cand *a = x, *b = y;

	if (a->removed != b->removed)
		return b->removed - a->removed;
	if (a->at != b->at)
		return a->at - b->at;
	return a->rank - b->rank;
}

static int css_push(ms_ctx *ctx, css_cands *out, css_cand c)
{
	css_cand *slot = ms_vec_push(ctx, out);

	if (!slot)
		return MS_ENOMEM;
	c.rank = out->n - 1;
	*slot = c;
	return MS_OK;
}

/* NumericConstant c for every constant c of the grammar, at node i (its slot admits constants, len > 2 nodes). */
static int css_constants(ms_ctx *ctx, const ms_dsl_grammar *g, int i, int len, css_cands *out)
{
	int nv, rc;
	const uint16_t *vals = ms_dsl_nt_alts(g, MS_CS_NT_CONSTANT, &nv);

	for (int v = 0; v < nv; v++) {
		css_cand c = { i, -1, len - 2, 0, { MS_CS_P_NUMERIC_CONSTANT, vals[v] }, 2 };

		if ((rc = css_push(ctx, out, c)) < 0)
			return rc;
	}
	return MS_OK;
}

/* The candidates of `p`, what removes most first (then by node, then hoists before constants). */
static int css_candidates(ms_ctx *ctx, const ms_dsl_prog *p, css_cands *out)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	const int32_t *end = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p), rc;

	out->n = 0;
	for (int i = 1; i < n; i++) {
		int nt = ms_dsl_node_nt(p, i), len = end[i] - i;

		for (int j = i + 1; j < end[i]; j++) {
			css_cand c = { i, j, len - (end[j] - j), 0, { 0, 0 }, 0 };

			if (ms_dsl_nt_has(g, nt, sym[j]) && (rc = css_push(ctx, out, c)) < 0)
				return rc;
		}
		if (len > 2 && ms_dsl_nt_has(g, nt, MS_CS_P_NUMERIC_CONSTANT) &&
		    (rc = css_constants(ctx, g, i, len, out)) < 0)
			return rc;
	}
	/* no candidates: no array either, and qsort may not be handed NULL */
	if (out->n > 1)
		qsort(out->v, (size_t)out->n, sizeof *out->v, css_cmp);
	return MS_OK;
}

/* The simplification's working programs and bookkeeping. */
typedef struct css_run {
	ms_ctx *ctx;
	csp__proof *pr;
	const ms_cs_dsl_proof_options *opts;
	ms_dsl_prog *cur, *cand, *small;
	css_cands cs;
	MS_VEC(uint64_t) tried; /* hashes of the candidates replayed (the reference does not change) */
	ms_cs_dsl_simplify_stats st;
} css_run;

/* cand = cur with candidate c applied. */
static int css_apply(css_run *R, const css_cand *c)
{
	int rc;

	if ((rc = ms_dsl_prog_copy(R->cand, R->cur)) < 0)
		return rc;
	if (c->keep >= 0)
		return ms_dsl_replace(R->cand, c->at, R->cur, c->keep);
	ms_dsl_prog_clear(R->small);
	for (int k = 0; k < c->n_sym; k++)
		if ((rc = ms_dsl_prog_push(R->small, c->sym[k])) < 0)
			return rc;
	if ((rc = ms_dsl_prog_finish(R->small, ms_dsl_node_nt(R->cur, c->at))) < 0)
		return rc;
	return ms_dsl_replace(R->cand, c->at, R->small, 0);
}

/* Replays candidate c unless tried before: *kept 1 when it played alike (cur becomes it). */
static int css_try(css_run *R, const css_cand *c, int *kept)
{
	ms_cs_dsl_diff diff;
	uint64_t h, *slot;
	int rc;

	*kept = 0;
	if ((rc = css_apply(R, c)) < 0)
		return rc;
	h = ms_dsl_hash(R->cand);
	for (int k = 0; k < R->tried.n; k++)
		if (R->tried.v[k] == h)
			return MS_OK;
	if (!(slot = ms_vec_push(R->ctx, &R->tried)))
		return MS_ENOMEM;
	*slot = h;
	R->st.candidates++;
	if ((rc = csp__compare(R->pr, R->cand, &diff)) < 0)
		return rc;
	if (R->opts->log)
		R->opts->log(R->opts->ud, R->cur, c->at, R->cand, diff.equal ? NULL : &diff);
	if (!diff.equal)
		return MS_OK;
	R->st.kept++;
	*kept = 1;
	return ms_dsl_prog_copy(R->cur, R->cand);
}

/*
 * Greedy: the candidates in order; a kept one gives a new list, scanned on
 * from the same rank; a pass that keeps nothing ends it. Every kept change
 * removes nodes, so it ends.
 */
static int css_greedy(css_run *R)
{
	int rc, kept;

	for (int changed = 1; changed;) {
		changed = 0;
		if ((rc = css_candidates(R->ctx, R->cur, &R->cs)) < 0)
			return rc;
		for (int pos = 0; pos < R->cs.n;) {
			css_cand c = R->cs.v[pos++];

			if ((rc = css_try(R, &c, &kept)) < 0)
				return rc;
			if (!kept)
				continue;
			changed = 1;
			if ((rc = css_candidates(R->ctx, R->cur, &R->cs)) < 0)
				return rc;
			pos = pos > 0 ? pos - 1 : 0;
		}
	}
	return MS_OK;
}

/* Length of the printed form, or a negative status. */
static int css_chars(const ms_dsl_prog *p)
{
	char *text = NULL;
	size_t len = 0;
	int rc = ms_dsl_print(p, &text, &len);

	if (rc < 0)
		return rc;
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	return len > (size_t)0x7fffffff ? 0x7fffffff : (int)len;
}

static int css_finish(css_run *R, ms_dsl_prog *p)
{
	ms_cs_dsl_diff diff;
	int rc, chars;

	/* the proof: every match replayed with the result, every decision compared */
	if ((rc = csp__compare(R->pr, R->cur, &diff)) < 0)
		return rc;
	if (!diff.equal)
		return ms_ctx_error(R->ctx, MS_ERROR, "cantstop simplify: the result differs from the program: %s",
				    diff.message);
	if ((chars = css_chars(R->cur)) < 0)
		return chars;
	R->st.matches = diff.matches;
	R->st.decisions_compared = diff.decisions_compared;
	R->st.nodes_after = ms_dsl_prog_len(R->cur);
	R->st.size_after = ms_dsl_size(R->cur);
	R->st.chars_after = chars;
	return ms_dsl_prog_copy(p, R->cur);
}

int ms_cs_dsl_simplify(ms_ctx *ctx, const ms_cs_dsl *d, ms_dsl_prog *p, const ms_cs_dsl_proof_options *opts,
		       ms_cs_dsl_simplify_stats *st)
{
	css_run R;
	int rc;

	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.opts = opts;
	if (st)
		memset(st, 0, sizeof *st);
	if ((rc = csp__check_program(ctx, d, p, "cantstop simplify")) < 0 || (rc = csp__new(ctx, d, opts, &R.pr)) < 0)
		return rc;
	R.st.nodes_before = ms_dsl_prog_len(p);
	R.st.size_before = ms_dsl_size(p);
	if ((rc = css_chars(p)) < 0)
		goto done;
	R.st.chars_before = rc;
	if ((rc = csp__record(R.pr, p)) < 0)
		goto done;
	if ((rc = ms_dsl_prog_clone(&R.cur, p)) < 0 || (rc = ms_dsl_prog_new(ctx, &R.cand, ms_dsl_prog_grammar(p))) < 0 ||
	    (rc = ms_dsl_prog_new(ctx, &R.small, ms_dsl_prog_grammar(p))) < 0)
		goto done;
	if ((rc = css_greedy(&R)) < 0 || (rc = css_finish(&R, p)) < 0)
		goto done;
	if (st)
		*st = R.st;
done:
	if (rc == MS_ENOMEM && ms_ctx_last_status(ctx) != MS_ENOMEM)
		ms_ctx_error(ctx, MS_ENOMEM, "cantstop simplify: out of memory");
	ms_vec_dispose(ctx, &R.cs);
	ms_vec_dispose(ctx, &R.tried);
	ms_dsl_prog_free(R.cur);
	ms_dsl_prog_free(R.cand);
	ms_dsl_prog_free(R.small);
	csp__free(R.pr);
	return rc;
}
