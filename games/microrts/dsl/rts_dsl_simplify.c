/*
 * Readable programs: the rules that need no matches, and simplification
 * proved on the evaluation's matches (rts_dsl_proof.c).
 *
 * The rules (ms_rts_dsl_simplify_static) follow the interpreter: inside a
 * for, u is one of our units, so a condition on its type folds once the
 * enclosing conditions have narrowed the types it may have, and a command
 * no such type can carry out does nothing; a unit that can attack has an
 * abstract action after any Attack (Attack assigns whenever the unit can
 * attack and has none, whatever its target), and every command of a unit
 * that has an action does nothing. Counting conditions with 0 are
 * constant. Nested loops are kept where their conditions may hold: they run
 * over other units even when u is done.
 *
 * The greedy search (ms_rts_simplify) replaces statements by e and ifs and
 * nested loops by a branch or their body, what removes most first, and
 * keeps a change only when every match plays the same actions at every
 * decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "rts_dsl_internal.h"
#include "rts_dsl_proof.h"
#include "core/opts.h"

/* ---- lines of the indented form ------------------------------------------- */

static int prod_op(const ms_dsl_prog *p, int i)
{
	ms_dsl_sym s = ms_dsl_prog_nodes(p)[i];
	return ms_dsl_is_hole(s) ? 0 : ms_dsl_prod_op(ms_dsl_prog_grammar(p), s);
}

static void mark_lines(const ms_dsl_prog *p, int from, int to, int line, int *line_of)
{
	if (line_of)
		for (int k = from; k < to; k++)
			line_of[k] = line;
}

/* Lines statement i takes in translateIndentation's form, from `line` on. */
static int stmt_lines(const ms_dsl_prog *p, int i, int line, int *line_of)
{
	const int32_t *ends = ms_dsl_prog_ends(p);
	int a, b;

	if (ms_dsl_is_hole(ms_dsl_prog_nodes(p)[i]) || ms_dsl_node_nt(p, i) != RD_NT_S) {
		mark_lines(p, i, ends[i], line, line_of);
		return 1;
	}
	switch (prod_op(p, i)) {
	case MS_RTS_DSL_S_SEQ:
		mark_lines(p, i, i + 1, line, line_of);
		a = stmt_lines(p, ms_dsl_child(p, i, 0), line, line_of);
		return a + stmt_lines(p, ms_dsl_child(p, i, 1), line + a, line_of);
	case MS_RTS_DSL_S_FOR:
		mark_lines(p, i, i + 1, line, line_of);
		return 2 + stmt_lines(p, ms_dsl_child(p, i, 0), line + 1, line_of);
	case MS_RTS_DSL_S_IF:
		mark_lines(p, i, ms_dsl_child(p, i, 1), line, line_of);
		return 2 + stmt_lines(p, ms_dsl_child(p, i, 1), line + 1, line_of);
	case MS_RTS_DSL_S_IFELSE:
		mark_lines(p, i, ms_dsl_child(p, i, 1), line, line_of);
		a = stmt_lines(p, ms_dsl_child(p, i, 1), line + 1, line_of);
		b = stmt_lines(p, ms_dsl_child(p, i, 2), line + 2 + a, line_of);
		return 3 + a + b;
	default:
		mark_lines(p, i, ends[i], line, line_of);
		return 1;
	}
}

int ms_rts_dsl_line_map(const ms_dsl_prog *p, int *line_of, int *n_lines)
{
	if (!ms_rts_dsl_grammar_is(ms_dsl_prog_grammar(p)) || ms_dsl_prog_nt(p) != RD_NT_S || ms_dsl_prog_len(p) < 1)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "ms_rts_dsl_line_map: not a finished MicroRTS DSL program");
	*n_lines = stmt_lines(p, 0, 1, line_of);
	return MS_OK;
}

/* ---- rules that need no matches ------------------------------------------- */

typedef MS_VEC(ms_dsl_sym) sym_vec;
typedef uint32_t tmask; /* a set of unit type ids (MS_RTS_MAX_TYPES <= 32) */

typedef struct st_rules {
	ms_ctx *ctx;
	const ms_dsl_prog *p;
	const ms_rts_utt *utt;
	tmask all, attackers, harvesters, movers, hitters;
	int tmap[RD_T_COUNT];
	ms_dsl_sym sym_empty, sym_if;
} st_rules;

/* What u may be at a statement: `types` its possible types (conditions fold
 * on them), `free` the types for which it may still have no abstract action
 * (commands act on them only); `bound` 0 outside every for. */
typedef struct st_flow {
	tmask types, free;
	int bound;
} st_flow;

static tmask bit(int t)
{
	return t >= 0 && t < 32 ? (tmask)1u << t : 0;
}

/* The types for which condition i may be true (*yes) and may be false (*no). */
static void cond_sets(const st_rules *R, int i, int bound, tmask *yes, tmask *no)
{
	const ms_dsl_prog *p = R->p;
	int op = prod_op(p, i), arity = ms_dsl_is_hole(ms_dsl_prog_nodes(p)[i]) ? 0
		 : ms_dsl_prod_arity(ms_dsl_prog_grammar(p), ms_dsl_prog_nodes(p)[i]);
	int t = -1, n = -1;

	*yes = *no = R->all;
	for (int k = 0; k < arity; k++) {
		int v = prod_op(p, ms_dsl_child(p, i, k));
		if (MS_RTS_DSL_VAL_KIND(v) == MS_RTS_DSL_VAL_T)
			t = MS_RTS_DSL_VAL_INDEX(v);
		else if (MS_RTS_DSL_VAL_KIND(v) == MS_RTS_DSL_VAL_N)
			n = MS_RTS_DSL_VAL_INDEX(v);
	}
	int tt = t >= 0 ? R->tmap[t] : -1;
	switch (op) {
	/* counts: never read u, so they fold anywhere */
	case MS_RTS_DSL_HASNUMBEROFUNITS:
	case MS_RTS_DSL_OPPONENTHASNUMBEROFUNITS:
		if (n == 0)
			*no = 0; /* count >= 0 */
		else if (tt < 0)
			*yes = 0; /* no unit of a type the table lacks */
		return;
	case MS_RTS_DSL_HASLESSNUMBEROFUNITS:
		if (n == 0)
			*yes = 0; /* count < 0 */
		else if (tt < 0)
			*no = 0;
		return;
	case MS_RTS_DSL_HAVEQTDUNITSATTACKING:
	case MS_RTS_DSL_HASNUMBEROFWORKERSHARVESTING:
		if (n == 0)
			*no = 0;
		return;
	case MS_RTS_DSL_NOT: {
		tmask y, q;
		cond_sets(R, ms_dsl_child(p, i, 0), bound, &y, &q);
		*yes = q;
		*no = y;
		return;
	}
	default:
		break;
	}
	if (!bound)
		return; /* u unset: Java throws there, which no rule may change */
	switch (op) {
	case MS_RTS_DSL_IS_TYPE:
		*yes = bit(tt);
		*no = R->all & ~bit(tt);
		break;
	case MS_RTS_DSL_ISBUILDER:
		*yes = bit(R->tmap[RD_T_WORKER]);
		*no = R->all & ~*yes;
		break;
	case MS_RTS_DSL_CANATTACK:
		*yes = R->attackers;
		*no = R->all & ~R->attackers;
		break;
	case MS_RTS_DSL_CANHARVEST:
		*yes = R->harvesters;
		*no = R->all & ~R->harvesters;
		break;
	case MS_RTS_DSL_HASUNITTHATKILLSINONEATTACK:
		*yes = R->hitters; /* an enemy has at least 1 hit point */
		break;
	default:
		break;
	}
}

/* 0 when command c (a C node) can do nothing for a unit of the types in `free`. */
static int command_may_act(const st_rules *R, int c, tmask free)
{
	const ms_dsl_prog *p = R->p;
	int op = prod_op(p, c), t = -1, n = -1, arity = ms_dsl_prod_arity(ms_dsl_prog_grammar(p), ms_dsl_prog_nodes(p)[c]);

	for (int k = 0; k < arity; k++) {
		int v = prod_op(p, ms_dsl_child(p, c, k));
		if (MS_RTS_DSL_VAL_KIND(v) == MS_RTS_DSL_VAL_T)
			t = MS_RTS_DSL_VAL_INDEX(v);
		else if (MS_RTS_DSL_VAL_KIND(v) == MS_RTS_DSL_VAL_N)
			n = MS_RTS_DSL_VAL_INDEX(v);
	}
	if ((op == MS_RTS_DSL_BUILD || op == MS_RTS_DSL_TRAIN) && t < 0)
		return 1; /* no type given (a hole): keep */
	switch (op) {
	case MS_RTS_DSL_ATTACK:
	case MS_RTS_DSL_IDLE:
		return (free & R->attackers) != 0;
	case MS_RTS_DSL_MOVEAWAY:
	case MS_RTS_DSL_MOVETOUNIT:
		return (free & R->movers) != 0;
	case MS_RTS_DSL_HARVEST:
		return n > 0 && (free & R->harvesters) != 0; /* harvesters >= 0 already */
	case MS_RTS_DSL_BUILD:
		return n > 0 && R->tmap[t] >= 0 && (t == RD_T_BARRACKS || t == RD_T_BASE) &&
		       (free & bit(R->tmap[RD_T_WORKER])) != 0;
	case MS_RTS_DSL_TRAIN:
		if (n <= 0 || R->tmap[t] < 0)
			return 0;
		if (t == RD_T_WORKER)
			return (free & bit(R->tmap[RD_T_BASE])) != 0;
		if (t == RD_T_LIGHT || t == RD_T_HEAVY || t == RD_T_RANGED)
			return (free & bit(R->tmap[RD_T_BARRACKS])) != 0;
		return 0;
	default:
		return 1;
	}
}

static int push_all(st_rules *R, sym_vec *out, const ms_dsl_sym *s, int n)
{
	if (n <= 0)
		return MS_OK; /* an empty vector's storage may be NULL */
	if (ms_vec_reserve(R->ctx, out, (long long)out->n + n) < 0)
		return MS_ENOMEM;
	memcpy(out->v + out->n, s, sizeof(*s) * (size_t)n);
	out->n += n;
	return MS_OK;
}

static int push_sym(st_rules *R, sym_vec *out, ms_dsl_sym s)
{
	return push_all(R, out, &s, 1);
}

/* Emits statement i; `out` stays empty when it reduces to nothing (e). */
static int emit_stmt(st_rules *R, int i, st_flow in, sym_vec *out, tmask *free_out)
{
	const ms_dsl_prog *p = R->p;
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	const int32_t *ends = ms_dsl_prog_ends(p);
	sym_vec a = { 0 }, b = { 0 };
	int rc = MS_OK, op = prod_op(p, i);

	*free_out = in.free;
	if (ms_dsl_is_hole(nodes[i]))
		return push_sym(R, out, nodes[i]);
	switch (op) {
	case MS_RTS_DSL_S_EMPTY:
		return MS_OK;
	case MS_RTS_DSL_S_C: {
		int c = ms_dsl_child(p, i, 0);
		if (ms_dsl_is_hole(nodes[c]))
			return push_all(R, out, nodes + i, ends[i] - i);
		if (in.bound && !command_may_act(R, c, in.free))
			return MS_OK;
		if (in.bound && prod_op(p, c) == MS_RTS_DSL_ATTACK)
			*free_out = in.free & ~R->attackers;
		return push_all(R, out, nodes + i, ends[i] - i);
	}
	case MS_RTS_DSL_S_SEQ: {
		tmask mid;
		if ((rc = emit_stmt(R, ms_dsl_child(p, i, 0), in, &a, &mid)))
			break;
		in.free = mid;
		if ((rc = emit_stmt(R, ms_dsl_child(p, i, 1), in, &b, free_out)))
			break;
		if (a.n && b.n)
			rc = push_sym(R, out, nodes[i]);
		if (!rc)
			rc = push_all(R, out, a.v, a.n);
		if (!rc)
			rc = push_all(R, out, b.v, b.n);
		break;
	}
	case MS_RTS_DSL_S_FOR: {
		st_flow body = { R->all, R->all, 1 };
		tmask ignored;
		/* the body runs for every unit of ours; what it leaves to u's type is
		 * unknown here, and it can only take actions, so in.free still bounds it */
		if ((rc = emit_stmt(R, ms_dsl_child(p, i, 0), body, &a, &ignored)) || !a.n)
			break;
		if (!(rc = push_sym(R, out, nodes[i])))
			rc = push_all(R, out, a.v, a.n);
		break;
	}
	case MS_RTS_DSL_S_IF:
	case MS_RTS_DSL_S_IFELSE: {
		int cond = ms_dsl_child(p, i, 0), has_else = op == MS_RTS_DSL_S_IFELSE;
		tmask yes, no, out_then, out_else;
		st_flow ft = in, fe = in;
		/* a condition that reads u outside every for throws in Java: keep it as it is */
		int keep_cond = !in.bound && rd_op_uses_unit(prod_op(p, cond));
		for (int k = cond; k < ends[cond] && !keep_cond; k++)
			keep_cond = ms_dsl_is_hole(nodes[k]) || (!in.bound && rd_op_uses_unit(prod_op(p, k)));
		cond_sets(R, cond, in.bound, &yes, &no);
		ft.types &= yes;
		ft.free &= yes;
		fe.types &= no;
		fe.free &= no;
		if (keep_cond)
			ft = fe = in;
		out_then = out_else = 0;
		if (ft.types && (rc = emit_stmt(R, ms_dsl_child(p, i, 1), ft, &a, &out_then)))
			break;
		if (fe.types) {
			out_else = fe.free;
			if (has_else && (rc = emit_stmt(R, ms_dsl_child(p, i, 2), fe, &b, &out_else)))
				break;
		}
		*free_out = out_then | out_else;
		if (!keep_cond && !fe.types) { /* always true */
			rc = push_all(R, out, a.v, a.n);
			break;
		}
		if (!keep_cond && !ft.types) { /* always false */
			rc = push_all(R, out, b.v, b.n);
			break;
		}
		if (!a.n && !b.n && !keep_cond)
			break;
		if (b.n) {
			rc = push_sym(R, out, nodes[i]);
		} else {
			rc = push_sym(R, out, R->sym_if);
		}
		if (!rc)
			rc = push_all(R, out, nodes + cond, ends[cond] - cond);
		if (!rc && !a.n)
			rc = push_sym(R, out, R->sym_empty);
		if (!rc)
			rc = push_all(R, out, a.v, a.n);
		if (!rc)
			rc = push_all(R, out, b.v, b.n);
		break;
	}
	default:
		rc = push_all(R, out, nodes + i, ends[i] - i);
		break;
	}
	ms_vec_dispose(R->ctx, &a);
	ms_vec_dispose(R->ctx, &b);
	return rc;
}

int ms_rts_dsl_simplify_static(ms_dsl_prog *p, const ms_rts_utt *utt)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	st_rules R;
	sym_vec out = { 0 };
	tmask ignored;
	int rc;

	if (!utt)
		return ms_ctx_error(ctx, MS_EINVAL, "simplify: no unit type table");
	if (!ms_rts_dsl_grammar_is(g) || ms_dsl_prog_nt(p) != RD_NT_S || ms_dsl_prog_len(p) < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "simplify: not a finished MicroRTS DSL program");
	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.p = p;
	R.utt = utt;
	for (int t = 0; t < RD_T_COUNT; t++)
		R.tmap[t] = ms_rts_utt_find(utt, rd_type_names[t]);
	for (int id = 0; id < ms_rts_utt_count(utt) && id < 32; id++) {
		const ms_rts_unit_type *ut = ms_rts_utt_type(utt, id);
		if (!ut || ut->is_resource)
			continue;
		R.all |= bit(id);
		if (ut->can_attack)
			R.attackers |= bit(id);
		if (ut->can_harvest)
			R.harvesters |= bit(id);
		if (ut->can_move)
			R.movers |= bit(id);
		if (ut->max_damage >= 1)
			R.hitters |= bit(id);
	}
	if (ms_rts_utt_count(utt) > 32)
		return MS_OK; /* a table beyond the masks: no rule applies */
	R.sym_empty = (ms_dsl_sym)ms_dsl_prod_find(g, "Empty");
	R.sym_if = (ms_dsl_sym)ms_dsl_prod_find(g, "If_B_then_S");
	st_flow top = { R.all, R.all, 0 };
	if ((rc = emit_stmt(&R, 0, top, &out, &ignored)))
		goto done;
	if (!out.n && (rc = push_sym(&R, &out, R.sym_empty)))
		goto done;
	if (out.n == ms_dsl_prog_len(p) && !memcmp(out.v, ms_dsl_prog_nodes(p), sizeof(*out.v) * (size_t)out.n))
		goto done;
	ms_dsl_prog_clear(p);
	for (int k = 0; k < out.n && !rc; k++)
		rc = ms_dsl_prog_push(p, out.v[k]);
	if (!rc)
		rc = ms_dsl_prog_finish(p, RD_NT_S);
done:
	ms_vec_dispose(ctx, &out);
	return rc;
}

/* ---- greedy simplification on the matches --------------------------------- */

/* One candidate: node `at` replaced by e (keep < 0) or by its descendant `keep`. */
typedef struct sf_cand {
	int at, keep, removed;
} sf_cand;

typedef MS_VEC(sf_cand) cand_vec;

static int inside_for(const ms_dsl_prog *p, int i)
{
	int slot;
	for (int a = ms_dsl_parent(p, i, &slot); a >= 0; a = ms_dsl_parent(p, a, &slot))
		if (prod_op(p, a) == MS_RTS_DSL_S_FOR)
			return 1;
	return 0;
}

static int cand_cmp(const void *x, const void *y)
{
	const sf_cand *a = x, *b = y;
	if (a->removed != b->removed)
		return b->removed - a->removed;
	if (a->at != b->at)
		return a->at - b->at;
	return a->keep - b->keep;
}

/* The simplifications of `p` to try, what removes most first. */
static int candidates(ms_ctx *ctx, const ms_dsl_prog *p, cand_vec *out)
{
	const int32_t *ends = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p);

	out->n = 0;
	for (int i = 0; i < n; i++) {
		int op, size = ends[i] - i, kids[2], nk = 0;
		sf_cand *c;
		if (ms_dsl_node_nt(p, i) != RD_NT_S || ms_dsl_is_hole(ms_dsl_prog_nodes(p)[i]))
			continue;
		op = prod_op(p, i);
		if (op == MS_RTS_DSL_S_EMPTY)
			continue;
		if (!(c = ms_vec_push(ctx, out)))
			return MS_ENOMEM;
		*c = (sf_cand){ i, -1, size - 1 };
		if (op == MS_RTS_DSL_S_IF)
			kids[nk++] = ms_dsl_child(p, i, 1);
		else if (op == MS_RTS_DSL_S_IFELSE) {
			kids[nk++] = ms_dsl_child(p, i, 1);
			kids[nk++] = ms_dsl_child(p, i, 2);
		} else if (op == MS_RTS_DSL_S_FOR && inside_for(p, i))
			kids[nk++] = ms_dsl_child(p, i, 0);
		for (int k = 0; k < nk; k++) {
			if (!(c = ms_vec_push(ctx, out)))
				return MS_ENOMEM;
			*c = (sf_cand){ i, kids[k], size - (ends[kids[k]] - kids[k]) };
		}
	}
	if (out->n > 1) /* an empty list may have no array, and qsort may not be handed NULL */
		qsort(out->v, (size_t)out->n, sizeof *out->v, cand_cmp);
	return MS_OK;
}

static int program_lines(const ms_dsl_prog *p)
{
	int n = 0;
	return ms_rts_dsl_line_map(p, NULL, &n) ? -1 : n;
}

int ms_rts_simplify(ms_rts_proof *pr, ms_dsl_prog *p, const ms_rts_simplify_options *opts, ms_rts_simplify_stats *st)
{
	ms_ctx *ctx = rd_proof_ctx(pr);
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_rts_utt *utt = ms_rts_proof_utt(pr);
	ms_dsl_prog *cur = NULL, *cand = NULL, *empty = NULL;
	cand_vec cs = { 0 };
	MS_VEC(uint64_t) tried = { 0 };
	int rc, equal, bound, pos = 0;
	ms_rts_proof_diff diff;

	memset(st, 0, sizeof *st);
	if (opts && opts->version != MS_RTS_SIMPLIFY_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "simplify: unknown options version %d", opts->version);
	st->nodes_before = ms_dsl_prog_len(p);
	st->lines_before = program_lines(p);
	st->matches = ms_rts_proof_count(pr);
	bound = ms_rts_dsl_check_bound(p, NULL) == MS_OK;
	ms_ctx_clear_error(ctx);
	if ((rc = ms_rts_proof_record(pr, p)))
		return rc;
	if ((rc = ms_dsl_prog_clone(&cur, p)) || (rc = ms_dsl_prog_new(ctx, &cand, g)) ||
	    (rc = ms_dsl_prog_new(ctx, &empty, g)) ||
	    (rc = ms_dsl_prog_push(empty, (ms_dsl_sym)ms_dsl_prod_find(g, "Empty"))) ||
	    (rc = ms_dsl_prog_finish(empty, RD_NT_S)))
		goto done;
	if ((rc = ms_rts_dsl_simplify_static(cur, utt)))
		goto done;
	st->static_nodes = st->nodes_before - ms_dsl_prog_len(cur);
	/* Greedy: the candidates in order, most removed first; a kept one gives a
	 * new list, scanned on from the same rank; a pass that keeps nothing ends it. */
	for (int changed = 1; changed;) {
		changed = 0;
		if ((rc = candidates(ctx, cur, &cs)))
			goto done;
		for (pos = 0; pos < cs.n;) {
			sf_cand c = cs.v[pos++];
			uint64_t h;
			int seen = 0;
			if ((rc = ms_dsl_prog_copy(cand, cur)) ||
			    (rc = ms_dsl_replace(cand, c.at, c.keep < 0 ? empty : cur, c.keep < 0 ? 0 : c.keep)) ||
			    (rc = ms_rts_dsl_simplify_static(cand, utt)))
				goto done;
			if (ms_dsl_prog_len(cand) >= ms_dsl_prog_len(cur))
				continue;
			if (bound && ms_rts_dsl_check_bound(cand, NULL)) {
				ms_ctx_clear_error(ctx);
				continue;
			}
			h = ms_dsl_hash(cand);
			for (int k = 0; k < tried.n && !seen; k++)
				seen = tried.v[k] == h;
			if (seen)
				continue;
			uint64_t *slot = ms_vec_push(ctx, &tried);
			if (!slot) {
				rc = MS_ENOMEM;
				goto done;
			}
			*slot = h;
			st->candidates++;
			if ((rc = ms_rts_proof_compare(pr, cand, &equal, &diff)))
				goto done;
			if (opts && opts->log)
				opts->log(opts->ud, cur, c.at, c.keep, equal ? NULL : &diff);
			if (!equal)
				continue;
			st->kept++;
			changed = 1;
			if ((rc = ms_dsl_prog_copy(cur, cand)) || (rc = candidates(ctx, cur, &cs)))
				goto done;
			pos = pos > 0 ? pos - 1 : 0;
		}
	}
	/* the proof: every match replayed with the result, every cycle compared */
	if ((rc = ms_rts_proof_compare(pr, cur, &equal, &diff)))
		goto done;
	if (!equal) {
		rc = ms_ctx_error(ctx, MS_ERROR, "simplify: the result differs from the program: %s", diff.message);
		goto done;
	}
	st->cycles_compared = ms_rts_proof_cycles_compared(pr);
	if ((rc = ms_dsl_prog_copy(p, cur)))
		goto done;
	st->nodes_after = ms_dsl_prog_len(p);
	st->lines_after = program_lines(p);
done:
	if (rc == MS_ENOMEM && ms_ctx_last_status(ctx) != MS_ENOMEM)
		ms_ctx_error(ctx, MS_ENOMEM, "simplify: out of memory");
	ms_vec_dispose(ctx, &cs);
	ms_vec_dispose(ctx, &tried);
	ms_dsl_prog_free(cur);
	ms_dsl_prog_free(cand);
	ms_dsl_prog_free(empty);
	return rc;
}

int ms_rts_simplify_options_init(ms_rts_simplify_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_RTS_SIMPLIFY_OPTIONS_VERSION);
}
