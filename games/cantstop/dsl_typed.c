/*
 * Typed generation and mutation for the Can't Stop DSL (cantstop_dsl.h).
 *
 * Most programs of the searches' grammar raise at run time (spec 5.4): a
 * Map binds a string, a column function runs where no Map bound a column,
 * Sum meets ragged tuples, Argmax an empty list, the column program gives
 * a float or an index out of range. The types below are what the
 * interpreter's value semantics need for none of that to happen, whatever
 * the state:
 *
 *   number   any numeric value (Python int, numpy int or float, bool);
 *   index    the column program's value: Argmax over one number per
 *            action (so an int in [0, n)), or an ITE of two of them;
 *   lists    `neutrals` (columns, maybe empty), `actions` (tuples of 1 or 2
 *            columns, never empty, only at column decisions; at yes/no it
 *            is ['y', 'n'], which only Argmax accepts), `local_list` (the
 *            bound action: columns, never empty), and Maps over those with
 *            a number as body (never over another Map, whose elements are
 *            not columns: binding them could leave a non-column in the int
 *            slot for a later read, since bindings are dynamically scoped).
 *
 * A slot's type also carries the decision it runs at (yes/no or column)
 * and which locals are surely bound there: the int slot inside the body
 * of a Map over columns, the list slot inside the body of a Map over
 * `actions`. Since only such Maps bind, the int slot always holds a
 * column and the list slot an action, so reading them never raises.
 *
 * Generation follows the reference's sampler (uniform over the allowed
 * alternatives, terminal-first below the depth limit) restricted to the
 * well-typed ones; mutation draws the reference's position and regrows
 * that subtree with the type of its slot. A Map's list is drawn before its
 * body, because the body's type depends on what the list binds.
 */
#include <string.h>

#include "dsl_internal.h"
#include "dsl_runner.h"

enum { CST_YES_NO = 0, CST_COLUMN = 1 };   /* decision a subtree runs at */
enum { CST_INT = 1, CST_LIST = 2 };        /* locals surely bound */
enum {
	CST_NUMBER,        /* a number */
	CST_INDEX,         /* the column program's value: an index into `actions` */
	CST_BOOL,          /* ITE's condition */
	CST_SUM_LIST,      /* Sum's list: flat numbers, possibly empty */
	CST_ARGMAX_LIST,   /* Argmax's list inside a number: flat and never empty */
	CST_INDEX_LIST,    /* Argmax's list at the index: one number per action */
	CST_COLUMNS,       /* a Map's list that binds columns */
	CST_LOCAL_COLUMNS, /* the same, never empty (local_list only) */
	CST_ACTIONS,       /* a Map's list that binds actions */
	CST_FUNCTION,      /* a Map's function (its env includes the binding) */
	CST_PROGRAM,       /* DoubleProgram */
	CST_ANY_VALUE,     /* a wrapper's value: any */
	CST_NEUTRALS_NAME, /* VarList's value: neutrals */
	CST_ACTIONS_NAME   /* VarList's value: actions */
};

typedef struct cst_type {
	uint8_t want, dec, env;
} cst_type;

/* Larger than any program the depth limit lets through; a guard, not a limit. */
#define CST_MAX_NODES 10000

static int cst_allows(int prod, cst_type t)
{
	switch (t.want) {
	case CST_NUMBER:
		switch (prod) {
		case MS_CS_P_PLUS:
		case MS_CS_P_TIMES:
		case MS_CS_P_MINUS:
		case MS_CS_P_SUM:
		case MS_CS_P_ARGMAX:
		case MS_CS_P_ITE:
		case MS_CS_P_NUMERIC_CONSTANT:
		case MS_CS_P_DIFFICULTY:
		case MS_CS_P_VAR_SCALAR:
		case MS_CS_P_WINS_AFTER_STOP:
		case MS_CS_P_NEUTRALS_TO_PLAY:
			return 1;
		case MS_CS_P_VAR_ARRAY:
		case MS_CS_P_ADVANCED_THIS_ROUND:
		case MS_CS_P_PLAYER_SECURED:
		case MS_CS_P_OPPONENT_SECURED:
		case MS_CS_P_IS_NEW_NEUTRAL:
			return (t.env & CST_INT) != 0;
		case MS_CS_P_ADVANCED_BY_ACTION:
			return (t.env & CST_LIST) != 0;
		default:
			return 0;
		}
	case CST_INDEX:
		return t.dec == CST_COLUMN && (prod == MS_CS_P_ARGMAX || prod == MS_CS_P_ITE);
	case CST_BOOL:
		return prod == MS_CS_P_LT;
	case CST_SUM_LIST:
		/* Never `actions`: strings at yes/no, ragged tuples at column decisions. */
		return prod == MS_CS_P_VAR_LIST || prod == MS_CS_P_MAP ||
		       (prod == MS_CS_P_LOCAL_LIST && (t.env & CST_LIST));
	case CST_ARGMAX_LIST:
		/* ['y', 'n'] at yes/no (argmax 0); a Map over `actions` or local_list at column decisions. */
		return (prod == MS_CS_P_VAR_LIST && t.dec == CST_YES_NO) ||
		       (prod == MS_CS_P_LOCAL_LIST && (t.env & CST_LIST)) ||
		       (prod == MS_CS_P_MAP && t.dec == CST_COLUMN);
	case CST_INDEX_LIST:
		return prod == MS_CS_P_MAP && t.dec == CST_COLUMN;
	case CST_COLUMNS:
		return prod == MS_CS_P_VAR_LIST || (prod == MS_CS_P_LOCAL_LIST && (t.env & CST_LIST));
	case CST_LOCAL_COLUMNS:
		return prod == MS_CS_P_LOCAL_LIST && (t.env & CST_LIST);
	case CST_ACTIONS:
		return prod == MS_CS_P_VAR_LIST && t.dec == CST_COLUMN;
	case CST_FUNCTION:
		return prod == MS_CS_P_FUNCTION;
	case CST_PROGRAM:
		return prod == MS_CS_P_DOUBLE_PROGRAM;
	case CST_ANY_VALUE:
		return 1;
	case CST_NEUTRALS_NAME:
		return prod == MS_CS_P_NEUTRALS;
	case CST_ACTIONS_NAME:
		return prod == MS_CS_P_ACTIONS;
	default:
		return 0;
	}
}

/* The type of a wrapper's value. */
static cst_type cst_value_type(int wrapper, cst_type t)
{
	cst_type v = { CST_ANY_VALUE, t.dec, t.env };

	if (wrapper == MS_CS_P_VAR_LIST)
		v.want = t.want == CST_ACTIONS || t.want == CST_ARGMAX_LIST ? CST_ACTIONS_NAME : CST_NEUTRALS_NAME;
	return v;
}

/* The type of child slot k of `prod` in a slot of type t; `bind`: what a Map's list binds. */
static cst_type cst_child(int prod, int k, cst_type t, int bind)
{
	cst_type c = { CST_NUMBER, t.dec, t.env };

	switch (prod) {
	case MS_CS_P_DOUBLE_PROGRAM:
		c.want = k == 0 ? CST_NUMBER : CST_INDEX;
		c.dec = k == 0 ? CST_YES_NO : CST_COLUMN;
		c.env = 0;
		break;
	case MS_CS_P_ITE:
		c.want = k == 0 ? CST_BOOL : t.want;
		break;
	case MS_CS_P_SUM:
		c.want = CST_SUM_LIST;
		break;
	case MS_CS_P_ARGMAX:
		c.want = t.want == CST_INDEX ? CST_INDEX_LIST : CST_ARGMAX_LIST;
		break;
	case MS_CS_P_MAP:
		if (k == 0) {
			c.want = CST_FUNCTION;
			c.env = (uint8_t)(t.env | bind);
		} else {
			/* The list runs before any binding of this Map: the outer env. */
			c.want = bind == CST_LIST ? CST_ACTIONS : t.want == CST_ARGMAX_LIST ? CST_LOCAL_COLUMNS : CST_COLUMNS;
		}
		break;
	default: /* LT, Plus, Times, Minus operands; Function's body (env set by the Map) */
		break;
	}
	return c;
}

/* ---- generation --------------------------------------------------------------- */

typedef struct cst_gen {
	const ms_cs_dsl *d;
	ms_dsl_prog *p;
	ms_jrandom *rng;
	int nodes;
} cst_gen;

static int cst_draw(cst_gen *g, int n, int *out)
{
	int32_t v;
	int rc = ms_jrandom_next_int_bounded(g->rng, n, &v);

	if (rc < 0)
		return ms_ctx_error(ms_dsl_prog_ctx(g->p), rc, "cantstop typed generation: bad bound %d", n);
	*out = v;
	return MS_OK;
}

static int cst_emit(cst_gen *g, int sym)
{
	if (++g->nodes > CST_MAX_NODES)
		return ms_ctx_error(ms_dsl_prog_ctx(g->p), MS_ERANGE, "cantstop typed generation: more than %d nodes",
				    CST_MAX_NODES);
	return ms_dsl_prog_push(g->p, (ms_dsl_sym)sym);
}

static int cst_expand(cst_gen *g, int prod, cst_type t, int depth);

/*
 * A subtree of `nt` of type t: uniform over the well-typed alternatives;
 * below the depth limit over the well-typed terminals, else those with one
 * child, else all (the reference's rule applied to the typed set).
 * MS_ENOTFOUND when no alternative has the type (a slot of an ill-typed
 * program).
 */
static int cst_sample(cst_gen *g, int nt, cst_type t, int depth)
{
	const csd__nt *info = &g->d->nt[nt];
	uint16_t all[MS_CS_P_COUNT], term[MS_CS_P_COUNT], unary[MS_CS_P_COUNT];
	int n_all = 0, n_term = 0, n_unary = 0, n, k, rc;
	const uint16_t *set = all;

	if (depth > 4096)
		return ms_ctx_error(ms_dsl_prog_ctx(g->p), MS_ERANGE, "cantstop typed generation: deeper than 4096");
	for (int a = 0; a < info->n_alts; a++) {
		int prod = info->alts[a], arity = ms_dsl_prod_arity(g->d->g, prod);

		if (!cst_allows(prod, t))
			continue;
		all[n_all++] = (uint16_t)prod;
		if (arity == 0 || csd__is_wrapper(prod))
			term[n_term++] = (uint16_t)prod;
		else if (arity == 1)
			unary[n_unary++] = (uint16_t)prod;
	}
	if (n_all == 0)
		return MS_ENOTFOUND;
	n = n_all;
	if (depth > g->d->gen.max_depth) {
		if (n_term)
			set = term, n = n_term;
		else if (n_unary)
			set = unary, n = n_unary;
	}
	if ((rc = cst_draw(g, n, &k)) < 0)
		return rc;
	return cst_expand(g, set[k], t, depth);
}

/* A Map of type t: its list first (what it binds types the body), then function and list in pre-order. */
static int cst_map(cst_gen *g, cst_type t, int depth)
{
	/* Candidate lists: 0 neutrals, 1 actions, 2 local_list. */
	int ok[3], lists[3], n = 0, k, rc, bind;

	ok[0] = t.want == CST_SUM_LIST;
	ok[1] = t.dec == CST_COLUMN;
	ok[2] = (t.env & CST_LIST) && t.want != CST_INDEX_LIST;
	for (int i = 0; i < 3; i++)
		if (ok[i])
			lists[n++] = i;
	if (n == 0)
		return MS_ENOTFOUND;
	if ((rc = cst_draw(g, n, &k)) < 0)
		return rc;
	bind = lists[k] == 1 ? CST_LIST : CST_INT;
	if ((rc = cst_emit(g, MS_CS_P_MAP)) < 0)
		return rc;
	if ((rc = cst_sample(g, MS_CS_NT_LAMBDA, cst_child(MS_CS_P_MAP, 0, t, bind), depth + 1)) != 0)
		return rc;
	if (lists[k] == 2)
		return cst_emit(g, MS_CS_P_LOCAL_LIST);
	if ((rc = cst_emit(g, MS_CS_P_VAR_LIST)) < 0)
		return rc;
	return cst_emit(g, lists[k] == 0 ? MS_CS_P_NEUTRALS : MS_CS_P_ACTIONS);
}

static int cst_expand(cst_gen *g, int prod, cst_type t, int depth)
{
	int rc, arity;

	if (prod == MS_CS_P_MAP)
		return cst_map(g, t, depth);
	if ((rc = cst_emit(g, prod)) < 0)
		return rc;
	arity = ms_dsl_prod_arity(g->d->g, prod);
	if (csd__is_wrapper(prod))
		return cst_sample(g, ms_dsl_prod_child_nt(g->d->g, prod, 0), cst_value_type(prod, t), depth + 1);
	for (int c = 0; c < arity; c++)
		if ((rc = cst_sample(g, ms_dsl_prod_child_nt(g->d->g, prod, c), cst_child(prod, c, t, 0), depth + 1)) !=
		    0)
			return rc;
	return MS_OK;
}

/* ---- types of an existing program --------------------------------------------------- */

/* What the Map list at node i binds (0: nothing safe: strings, a Map's results, ...). */
static int cst_binding(const ms_dsl_prog *p, int i, cst_type t)
{
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);

	if (sym[i] == MS_CS_P_LOCAL_LIST)
		return (t.env & CST_LIST) ? CST_INT : 0;
	if (sym[i] != MS_CS_P_VAR_LIST || i + 1 >= ms_dsl_prog_len(p))
		return 0;
	if (sym[i + 1] == MS_CS_P_NEUTRALS)
		return CST_INT;
	return sym[i + 1] == MS_CS_P_ACTIONS && t.dec == CST_COLUMN ? CST_LIST : 0;
}

/* Types of the subtree at node i (slot type t) into types[]; *bad: first ill-typed node. */
static void cst_annotate(const ms_dsl_prog *p, int i, cst_type t, cst_type *types, int *bad, int depth)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	int prod = sym[i], bind = 0;

	types[i] = t;
	if (*bad < 0 && (ms_dsl_is_hole(sym[i]) || !cst_allows(prod, t) || depth >= CSR_MAX_DEPTH))
		*bad = i;
	if (ms_dsl_is_hole(sym[i]))
		return;
	if (csd__is_wrapper(prod)) {
		cst_type v = cst_value_type(prod, t);

		types[i + 1] = v;
		if (*bad < 0 && !cst_allows(sym[i + 1], v))
			*bad = i + 1;
		return;
	}
	if (prod == MS_CS_P_MAP) {
		bind = cst_binding(p, ms_dsl_child(p, i, 1), t);
		if (*bad < 0 && !bind)
			*bad = ms_dsl_child(p, i, 1);
	}
	for (int k = 0; k < ms_dsl_prod_arity(g, prod); k++) {
		cst_type c = cst_child(prod, k, t, bind);

		/* An ill-typed list: its slot asks for a safe list, the body gets no binding. */
		if (prod == MS_CS_P_MAP && k == 1 && !bind)
			c.want = t.want == CST_INDEX_LIST ? CST_ACTIONS : CST_COLUMNS;
		cst_annotate(p, ms_dsl_child(p, i, k), c, types, bad, depth + 1);
	}
}

static int cst_check_prog(const ms_cs_dsl *d, const ms_dsl_prog *p, const char *what)
{
	if (ms_dsl_prog_grammar(p) != d->g)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "cantstop dsl %s: the program is of grammar %s, not %s",
				    what, ms_dsl_grammar_name(ms_dsl_prog_grammar(p)), ms_dsl_grammar_name(d->g));
	if (ms_dsl_prog_nt(p) != MS_CS_NT_START || ms_dsl_prog_len(p) == 0)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "cantstop dsl %s: not a whole program", what);
	return MS_OK;
}

/* Types of every node of a whole program (allocated from its context); *bad as cst_annotate. */
static int cst_types(const ms_dsl_prog *p, cst_type **out, int *bad)
{
	int n = ms_dsl_prog_len(p);
	cst_type *types = ms_ctx_calloc(ms_dsl_prog_ctx(p), (size_t)n, sizeof *types);
	cst_type root = { CST_PROGRAM, CST_YES_NO, 0 };

	*out = NULL;
	*bad = -1;
	if (!types)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_ENOMEM, "cantstop typed dsl: out of memory");
	cst_annotate(p, 0, root, types, bad, 0);
	*out = types;
	return MS_OK;
}

/* ---- public ------------------------------------------------------------------------------ */

int ms_cs_dsl_typecheck(const ms_cs_dsl *d, const ms_dsl_prog *p, int *node)
{
	cst_type *types;
	int rc = cst_check_prog(d, p, "typecheck"), bad;

	if (node)
		*node = -1;
	if (rc < 0 || (rc = cst_types(p, &types, &bad)) < 0)
		return rc;
	ms_ctx_mfree(ms_dsl_prog_ctx(p), types);
	if (node)
		*node = bad;
	return bad < 0;
}

int ms_cs_dsl_generate_typed(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng)
{
	cst_gen g = { d, p, rng, 0 };
	cst_type root = { CST_PROGRAM, CST_YES_NO, 0 };
	int rc;

	if (ms_dsl_prog_grammar(p) != d->g)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL,
				    "cantstop dsl generate: the program is of grammar %s, not %s",
				    ms_dsl_grammar_name(ms_dsl_prog_grammar(p)), ms_dsl_grammar_name(d->g));
	ms_dsl_prog_clear(p);
	rc = cst_sample(&g, MS_CS_NT_START, root, 0);
	if (rc == MS_ENOTFOUND)
		rc = ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "cantstop typed generation: no well-typed program");
	if (rc == 0)
		rc = ms_dsl_prog_finish(p, MS_CS_NT_START);
	if (rc < 0)
		ms_dsl_prog_clear(p);
	return rc;
}

int ms_cs_dsl_mutate_typed(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng, int *at)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	ms_dsl_prog *sub = NULL;
	cst_type *types = NULL;
	int rc = cst_check_prog(d, p, "mutate"), size, bad, nt;
	int32_t k;

	if (rc < 0)
		return rc;
	/* The reference's position (ms_cs_dsl_mutate); only the regrown subtree differs. */
	size = ms_dsl_size(p);
	if ((rc = ms_jrandom_next_int_bounded(rng, size > 0 ? size : 1, &k)) < 0)
		return ms_ctx_error(ctx, rc, "cantstop dsl mutate: bad size %d", size);
	if (at)
		*at = k;
	if (k == 0)
		return ms_cs_dsl_generate_typed(d, p, rng);
	if ((rc = cst_types(p, &types, &bad)) < 0)
		return rc;
	nt = ms_dsl_node_nt(p, k);
	if ((rc = ms_dsl_prog_new(ctx, &sub, d->g)) < 0)
		goto done;
	{
		cst_gen g = { d, sub, rng, 0 };

		rc = cst_sample(&g, nt, types[k], 0);
	}
	/* A slot no well-typed subtree fits (only in an ill-typed program): the reference's regrowth. */
	if (rc == MS_ENOTFOUND) {
		rc = ms_dsl_regenerate(p, k, rng, &d->gen);
		goto done;
	}
	if (rc == 0 && (rc = ms_dsl_prog_finish(sub, nt)) == 0)
		rc = ms_dsl_replace(p, k, sub, 0);
done:
	ms_dsl_prog_free(sub);
	ms_ctx_mfree(ctx, types);
	return rc;
}
