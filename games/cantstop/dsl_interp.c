/*
 * The Can't Stop DSL interpreter (spec/cantstop.md 5.3-5.6): programs are
 * compiled into a flat instruction array (a value wrapper and its value
 * become one instruction) and evaluated by a recursive walk over it.
 * Values carry the Python/numpy type the reference would have produced,
 * because the type decides what a Map may bind, what Sum returns and
 * whether an index is valid. Lists live in one arena of value cells per
 * runner, reset at each decision and grown only when a program needs more
 * than any before it: no allocation per decision in the steady state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "dsl_internal.h"
#include "dsl_runner.h"
#include "core/vec.h"

const char *csr_kind_name(const csr_val *v)
{
	switch (v->kind) {
	case MS_CS_VAL_INT: return "a Python int";
	case MS_CS_VAL_NPINT: return "a numpy int64";
	case MS_CS_VAL_FLOAT: return "a numpy float64";
	case MS_CS_VAL_BOOL: return "a bool";
	case MS_CS_VAL_STR: return "a string";
	default: return v->tuple ? "a tuple" : "a list";
	}
}

#if defined(__GNUC__)
#define CSR_COLD __attribute__((cold, noinline))
#define CSR_NOINLINE __attribute__((noinline))
#define CSR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CSR_COLD
#define CSR_NOINLINE
#define CSR_UNLIKELY(x) (x)
#endif

/* A run-time error of the program: the reference raises, the evaluation scores 0. */
CSR_COLD int csr_fail(ms_cs_dsl_runner *r, int pc, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (!r->ectx)
		return MS_ERANGE;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ms_ctx_error(r->ectx, MS_ERANGE, "cantstop dsl: %s (node %d, %s)", msg, r->code[pc].node,
			    r->code[pc].op < MS_CS_P_COUNT ? csd__prods[r->code[pc].op].name
			    : r->code[pc].op == CSI_CONST  ? "NumericConstant"
			    : r->code[pc].op <= CSI_ACTIONS ? "VarList"
			    : r->code[pc].op == CSI_MARKER  ? "VarScalar"
							    : "VarScalarFromArray");
}

/* ---- runner lifetime, compilation ------------------------------------------ */

int ms_cs_dsl_runner_new(ms_ctx *ctx, ms_cs_dsl_runner **out, const ms_cs_dsl *d)
{
	ms_cs_dsl_runner *r;

	*out = NULL;
	if (!(r = ms_ctx_calloc(ctx, 1, sizeof(*r))))
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop dsl runner: out of memory");
	r->ctx = ctx;
	r->d = d;
	r->root_nt = -1;
	r->cap = 256;
	if (!(r->cells = ms_ctx_malloc(ctx, sizeof(*r->cells) * r->cap))) {
		ms_ctx_mfree(ctx, r);
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop dsl runner: out of memory");
	}
	*out = r;
	return MS_OK;
}

void ms_cs_dsl_runner_free(ms_cs_dsl_runner *r)
{
	if (!r)
		return;
	ms_ctx_mfree(r->ctx, r->code);
	ms_ctx_mfree(r->ctx, r->cells);
	ms_ctx_mfree(r->ctx, r);
}

/*
 * A conservative proof that a yes/no program never raises, whatever the
 * yes/no decision: then its value is not needed when the wrapper's forced
 * rules decide, and it need not run (the reference runs it only for its
 * errors there). `col`: the int slot holds a valid column (inside a Map
 * over `neutrals`). Anything not recognised counts as able to raise.
 */
static int csr_safe_scalar(const csr_ins *code, int pc, int col)
{
	/* Only read for nodes with children (a leaf may be the last instruction). */
	int a = pc + 1, b = code[pc].leaf ? 0 : code[pc + 1].end;

	switch (code[pc].op) {
	case CSI_CONST:
	case CSI_MARKER:
	case MS_CS_P_DIFFICULTY:
	case MS_CS_P_WINS_AFTER_STOP:
	case MS_CS_P_NEUTRALS_TO_PLAY:
		return 1;
	case CSI_PROGRESS_VALUE:
	case CSI_MOVE_VALUE:
	case MS_CS_P_ADVANCED_THIS_ROUND:
	case MS_CS_P_PLAYER_SECURED:
	case MS_CS_P_OPPONENT_SECURED:
	case MS_CS_P_IS_NEW_NEUTRAL:
		return col;
	case MS_CS_P_PLUS:
	case MS_CS_P_TIMES:
	case MS_CS_P_MINUS:
	case MS_CS_P_LT:
		return csr_safe_scalar(code, a, col) && csr_safe_scalar(code, b, col);
	case MS_CS_P_ITE:
		return csr_safe_scalar(code, a, col) && csr_safe_scalar(code, b, col) &&
		       csr_safe_scalar(code, code[b].end, col);
	case MS_CS_P_ARGMAX:
		/* argmax(['y', 'n']) is 0; argmax of `neutrals` raises when there are none. */
		return code[a].op == CSI_ACTIONS;
	case MS_CS_P_SUM:
		/* A flat list of numbers: `neutrals`, or a Map over it whose body is a safe number. */
		if (code[a].op == CSI_NEUTRALS)
			return 1;
		return code[a].op == MS_CS_P_MAP && code[code[a + 1].end].op == CSI_NEUTRALS &&
		       csr_safe_scalar(code, a + 2, 1);
	default:
		return 0;
	}
}

int ms_cs_dsl_runner_load(ms_cs_dsl_runner *r, const ms_dsl_prog *p)
{
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	const int32_t *end = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p), k = 0;
	int32_t stack[CSR_MAX_DEPTH + 1];
	int sp = 0;

	r->root_nt = -1;
	if (ms_dsl_prog_grammar(p) != ms_cs_dsl_grammar(r->d))
		return ms_ctx_error(r->ctx, MS_EINVAL, "cantstop dsl runner: the program is of grammar %s, not %s",
				    ms_dsl_grammar_name(ms_dsl_prog_grammar(p)), ms_dsl_grammar_name(ms_cs_dsl_grammar(r->d)));
	if (ms_dsl_prog_nt(p) < 0 || n == 0)
		return ms_ctx_error(r->ctx, MS_EINVAL, "cantstop dsl runner: the program is not finished");
	if (ms_dsl_hole_count(p) > 0)
		return ms_ctx_error(r->ctx, MS_EINVAL, "cantstop dsl runner: the program has %d holes",
				    ms_dsl_hole_count(p));
	if (ms_vec_grow(r->ctx, (void **)&r->code, &r->cap_code, n, sizeof *r->code) < 0)
		return ms_ctx_error(r->ctx, MS_ENOMEM, "cantstop dsl runner: out of memory");
	/*
	 * One pass: each node but a wrapper's value becomes an instruction;
	 * `stack` holds the open subtrees (their program end and instruction)
	 * so an instruction's end is set when its subtree closes.
	 */
	for (int i = 0; i < n; i++) {
		int prod = sym[i];
		csr_ins *in = &r->code[k];

		while (sp > 0 && end[r->code[stack[sp - 1]].node] <= i)
			r->code[stack[--sp]].end = k;
		in->node = i;
		in->leaf = ms_dsl_prod_arity(ms_dsl_prog_grammar(p), prod) == 0 || csd__is_wrapper(prod);
		in->arg = 0;
		in->op = (int16_t)prod;
		if (csd__is_wrapper(prod)) {
			int v = sym[i + 1];

			if (prod == MS_CS_P_NUMERIC_CONSTANT)
				in->op = CSI_CONST, in->arg = v - MS_CS_P_CONST_0;
			else if (prod == MS_CS_P_VAR_LIST)
				in->op = v == MS_CS_P_NEUTRALS ? CSI_NEUTRALS : CSI_ACTIONS;
			else if (prod == MS_CS_P_VAR_ARRAY)
				in->op = v == MS_CS_P_PROGRESS_VALUE ? CSI_PROGRESS_VALUE : CSI_MOVE_VALUE;
			else
				in->op = CSI_MARKER;
			in->end = k + 1;
			i++;
			k++;
			continue;
		}
		if (sp == CSR_MAX_DEPTH)
			return ms_ctx_error(r->ctx, MS_ERANGE, "cantstop dsl runner: the program is deeper than %d",
					    CSR_MAX_DEPTH);
		stack[sp++] = k;
		k++;
	}
	while (sp > 0)
		r->code[stack[--sp]].end = k;
	r->n_code = k;
	r->root_nt = ms_dsl_prog_nt(p);
	r->yes_no_safe = r->root_nt == MS_CS_NT_START && csr_safe_scalar(r->code, 1, 0);
	return MS_OK;
}

/* ---- values ------------------------------------------------------------------ */

static int csr_grow(ms_cs_dsl_runner *r, int pc, uint32_t n, uint32_t *off)
{
	if (n > CSR_MAX_CELLS - r->top)
		return csr_fail(r, pc, "lists of more than %u values in one decision", (unsigned)CSR_MAX_CELLS);
	if (r->top + n > r->cap) {
		size_t cap = r->cap; /* bounded by CSR_MAX_CELLS, so it fits back in the runner's uint32_t */
		if (ms_vec_grow_big(r->ctx, (void **)&r->cells, &cap, (size_t)r->top + n, sizeof *r->cells, 0,
				    CSR_MAX_CELLS) < 0)
			return ms_ctx_error(r->ectx, MS_ENOMEM, "cantstop dsl runner: out of memory");
		r->cap = (uint32_t)cap;
	}
	*off = r->top;
	r->top += n;
	return MS_OK;
}

static inline int csr_alloc(ms_cs_dsl_runner *r, int pc, uint32_t n, uint32_t *off)
{
	if (n > r->cap - r->top)
		return csr_grow(r, pc, n, off);
	*off = r->top;
	r->top += n;
	return MS_OK;
}

static inline csr_val csr_int(int kind, int64_t i)
{
	csr_val v = { .kind = (uint8_t)kind, .u.i = i };

	return v;
}

static inline csr_val csr_float(double f)
{
	csr_val v = { .kind = MS_CS_VAL_FLOAT, .u.f = f };

	return v;
}

static inline csr_val csr_list(uint32_t off, uint32_t len, int tuple)
{
	csr_val v = { .kind = MS_CS_VAL_LIST, .tuple = (uint8_t)tuple, .len = len, .u.off = off };

	return v;
}

/* Python ==, as NumberAdvancedByAction compares the two elements of an action. */
static int csr_equal(const ms_cs_dsl_runner *r, const csr_val *a, const csr_val *b)
{
	if (csr_numeric(a) && csr_numeric(b)) {
		if (a->kind == MS_CS_VAL_FLOAT || b->kind == MS_CS_VAL_FLOAT)
			return csr_as_double(a) == csr_as_double(b);
		return a->u.i == b->u.i;
	}
	if (a->kind == MS_CS_VAL_STR && b->kind == MS_CS_VAL_STR)
		return a->u.i == b->u.i;
	/* A list never equals a tuple in Python; only lists and only tuples meet here. */
	if (a->kind == MS_CS_VAL_LIST && b->kind == MS_CS_VAL_LIST && a->tuple == b->tuple && a->len == b->len) {
		for (uint32_t k = 0; k < a->len; k++)
			if (!csr_equal(r, &r->cells[a->u.off + k], &r->cells[b->u.off + k]))
				return 0;
		return 1;
	}
	return 0;
}

/* ---- numpy arrays: Sum and Argmax -------------------------------------------- */

typedef struct csr_array {
	int any_float, any_str, any_num;
	uint64_t count;
	int ndim;
	uint32_t dims[CSR_MAX_DIMS]; /* filled by csr_as_array only */
} csr_array;

/* Checks that v has the array's shape from level `lv` on (numpy refuses ragged nestings). */
static int csr_conform(const ms_cs_dsl_runner *r, const csr_val *v, int lv, csr_array *a)
{
	if (lv == a->ndim) {
		if (v->kind == MS_CS_VAL_LIST)
			return 0;
		a->any_float |= v->kind == MS_CS_VAL_FLOAT;
		a->any_str |= v->kind == MS_CS_VAL_STR;
		a->any_num |= v->kind != MS_CS_VAL_STR;
		a->count++;
		return 1;
	}
	if (v->kind != MS_CS_VAL_LIST || v->len != a->dims[lv])
		return 0;
	for (uint32_t k = 0; k < v->len; k++)
		if (!csr_conform(r, &r->cells[v->u.off + k], lv + 1, a))
			return 0;
	return 1;
}

/* np.array(list): shape and element type, or a run-time error. */
static int csr_as_array(ms_cs_dsl_runner *r, int pc, const csr_val *list, csr_array *a, const char *fn)
{
	const csr_val *cur = list;

	a->any_float = a->any_str = a->any_num = 0;
	a->count = 0;
	a->ndim = 0;
	if (list->kind != MS_CS_VAL_LIST)
		return csr_fail(r, pc, "%s of %s, not a list", fn, csr_kind_name(list));
	while (cur->kind == MS_CS_VAL_LIST) {
		if (a->ndim == CSR_MAX_DIMS)
			return csr_fail(r, pc, "%s of lists nested deeper than %d", fn, CSR_MAX_DIMS);
		a->dims[a->ndim++] = cur->len;
		if (cur->len == 0)
			break;
		cur = &r->cells[cur->u.off];
	}
	if (!csr_conform(r, list, 0, a)) {
		if (r->d->opts.ragged == MS_CS_DSL_RAGGED_OBJECT)
			return CSR_RAGGED;
		return csr_fail(r, pc, "%s of a ragged list (numpy: inhomogeneous shape)", fn);
	}
	if (a->any_str && a->any_num)
		return csr_fail(r, pc, "%s of a list mixing strings and numbers", fn);
	return MS_OK;
}

/* ---- numpy 1.23's object arrays (the ragged option) ------------------------------- */

static inline int csr_arith(ms_cs_dsl_runner *r, int pc, int op, const csr_val *a, const csr_val *b, csr_val *out);

/* 1 if every node of v at levels lv..depth-1 is a list of the array's length at that level. */
static int csr_prefix(const ms_cs_dsl_runner *r, const csr_val *v, int lv, int depth, const csr_array *a)
{
	if (lv == depth)
		return 1;
	if (v->kind != MS_CS_VAL_LIST || v->len != a->dims[lv])
		return 0;
	for (uint32_t k = 0; k < v->len; k++)
		if (!csr_prefix(r, &r->cells[v->u.off + k], lv + 1, depth, a))
			return 0;
	return 1;
}

/* Copies the nodes at level `depth` (C order) to cells[*at...]. */
static void csr_objects(ms_cs_dsl_runner *r, csr_val v, int lv, int depth, uint32_t *at)
{
	if (lv == depth) {
		r->cells[(*at)++] = v;
		return;
	}
	for (uint32_t k = 0; k < v.len; k++)
		csr_objects(r, r->cells[v.u.off + k], lv + 1, depth, at);
}

/* Python ==, with numpy scalars against sequences refused (numpy would broadcast). */
static int csr_py_eq(ms_cs_dsl_runner *r, int pc, const csr_val *a, const csr_val *b, int *eq)
{
	if (csr_numeric(a) && csr_numeric(b)) {
		*eq = a->kind == MS_CS_VAL_FLOAT || b->kind == MS_CS_VAL_FLOAT ? csr_as_double(a) == csr_as_double(b)
										  : a->u.i == b->u.i;
		return MS_OK;
	}
	if (a->kind == MS_CS_VAL_LIST && b->kind == MS_CS_VAL_LIST) {
		int rc;

		*eq = a->tuple == b->tuple && a->len == b->len;
		for (uint32_t k = 0; *eq && k < a->len; k++)
			if ((rc = csr_py_eq(r, pc, &r->cells[a->u.off + k], &r->cells[b->u.off + k], eq)) < 0)
				return rc;
		return MS_OK;
	}
	if ((a->kind == MS_CS_VAL_LIST && (b->kind == MS_CS_VAL_NPINT || b->kind == MS_CS_VAL_FLOAT)) ||
	    (b->kind == MS_CS_VAL_LIST && (a->kind == MS_CS_VAL_NPINT || a->kind == MS_CS_VAL_FLOAT)))
		return csr_fail(r, pc, "comparing %s with %s (numpy broadcasts)", csr_kind_name(a), csr_kind_name(b));
	*eq = a->kind == b->kind && a->u.i == b->u.i; /* strings; a number never equals a list */
	return MS_OK;
}

/* Python's a > b: numbers, strings, and lists (or tuples) lexicographically. */
static int csr_py_gt(ms_cs_dsl_runner *r, int pc, const csr_val *a, const csr_val *b, int *gt)
{
	int rc, eq;

	if (csr_numeric(a) && csr_numeric(b)) {
		*gt = a->kind == MS_CS_VAL_FLOAT || b->kind == MS_CS_VAL_FLOAT ? csr_as_double(a) > csr_as_double(b)
										  : a->u.i > b->u.i;
		return MS_OK;
	}
	if (a->kind == MS_CS_VAL_STR && b->kind == MS_CS_VAL_STR) {
		*gt = a->u.i > b->u.i;
		return MS_OK;
	}
	if (a->kind != MS_CS_VAL_LIST || b->kind != MS_CS_VAL_LIST || a->tuple != b->tuple)
		return csr_fail(r, pc, "'>' between %s and %s", csr_kind_name(a), csr_kind_name(b));
	for (uint32_t k = 0; k < a->len && k < b->len; k++) {
		const csr_val *x = &r->cells[a->u.off + k], *y = &r->cells[b->u.off + k];

		if ((rc = csr_py_eq(r, pc, x, y, &eq)) < 0)
			return rc;
		if (!eq)
			return csr_py_gt(r, pc, x, y, gt);
	}
	*gt = a->len > b->len;
	return MS_OK;
}

/* Python's a + b on objects: numbers, or lists (tuples) concatenated. */
static int csr_py_add(ms_cs_dsl_runner *r, int pc, csr_val a, csr_val b, csr_val *out)
{
	uint32_t off;
	int rc;

	if (csr_numeric(&a) && csr_numeric(&b))
		return csr_arith(r, pc, MS_CS_P_PLUS, &a, &b, out);
	if (a.kind != MS_CS_VAL_LIST || b.kind != MS_CS_VAL_LIST || a.tuple != b.tuple)
		return csr_fail(r, pc, "sum adds %s and %s", csr_kind_name(&a), csr_kind_name(&b));
	if ((rc = csr_alloc(r, pc, a.len + b.len, &off)) < 0)
		return rc;
	for (uint32_t k = 0; k < a.len; k++)
		r->cells[off + k] = r->cells[a.u.off + k];
	for (uint32_t k = 0; k < b.len; k++)
		r->cells[off + a.len + k] = r->cells[b.u.off + k];
	*out = csr_list(off, a.len + b.len, a.tuple);
	return MS_OK;
}

/*
 * numpy 1.23.3 makes a ragged nesting an object array (with a warning the
 * reference's main.py silences): its shape is the deepest consistent one,
 * its elements the nodes below. Sum adds them with Python's + (lists
 * concatenate), Argmax compares them with Python's > (first maximum).
 */
CSR_NOINLINE static int csr_reduce_objects(ms_cs_dsl_runner *r, int pc, const csr_val *list, const csr_array *a,
					   int want_argmax, csr_val *out)
{
	int depth = 0, rc, gt;
	uint64_t n = 1;
	uint32_t off, at;
	csr_val acc;

	while (depth < a->ndim && csr_prefix(r, list, 0, depth + 1, a))
		depth++;
	for (int j = 0; j < depth; j++)
		n *= a->dims[j];
	if (n == 0 || n > CSR_MAX_CELLS)
		return csr_fail(r, pc, "an object array of %llu elements", (unsigned long long)n);
	if ((rc = csr_alloc(r, pc, (uint32_t)n, &off)) < 0)
		return rc;
	at = off;
	csr_objects(r, *list, 0, depth, &at);
	if (want_argmax) {
		uint32_t best = 0;

		for (uint32_t k = 1; k < n; k++) {
			if ((rc = csr_py_gt(r, pc, &r->cells[off + k], &r->cells[off + best], &gt)) < 0)
				return rc;
			if (gt)
				best = k;
		}
		*out = csr_int(MS_CS_VAL_NPINT, best);
		return MS_OK;
	}
	acc = r->cells[off];
	for (uint32_t k = 1; k < n; k++)
		if ((rc = csr_py_add(r, pc, acc, r->cells[off + k], &acc)) < 0)
			return rc;
	*out = acc;
	return MS_OK;
}

/* Leaves in C order: sums (wrapping, as numpy int64 does) and the first maximum. */
typedef struct csr_fold {
	int as_float;
	uint64_t isum;
	double fsum;
	int64_t imax;
	double fmax;
	int64_t best, index;
} csr_fold;

static void csr_fold_leaves(const ms_cs_dsl_runner *r, const csr_val *v, csr_fold *f)
{
	if (v->kind == MS_CS_VAL_LIST) {
		for (uint32_t k = 0; k < v->len; k++)
			csr_fold_leaves(r, &r->cells[v->u.off + k], f);
		return;
	}
	if (f->as_float) {
		double x = csr_as_double(v);

		f->fsum += x;
		if (f->index == 0 || x > f->fmax)
			f->fmax = x, f->best = f->index;
	} else {
		int64_t x = v->u.i; /* INT, NPINT, BOOL as 0/1, STR as its letter */

		f->isum += (uint64_t)x;
		if (f->index == 0 || x > f->imax)
			f->imax = x, f->best = f->index;
	}
	f->index++;
}

/*
 * A list of scalars (the common case): one pass for the element kinds,
 * one for the fold in the array's type. Returns 0, or 1 when an element
 * is a list (the caller takes the general path).
 */
static int csr_fold_flat(const ms_cs_dsl_runner *r, const csr_val *list, csr_array *a, csr_fold *f)
{
	const csr_val *c = &r->cells[list->u.off];
	unsigned kinds = 0;
	uint32_t n = list->len;

	for (uint32_t k = 0; k < n; k++)
		kinds |= 1u << c[k].kind;
	if (kinds & (1u << MS_CS_VAL_LIST))
		return 1;
	a->any_float = (kinds >> MS_CS_VAL_FLOAT) & 1u;
	a->any_str = (kinds >> MS_CS_VAL_STR) & 1u;
	a->any_num = (kinds & ~(1u << MS_CS_VAL_STR)) != 0;
	a->count = n;
	f->as_float = a->any_float;
	if (f->as_float) {
		for (uint32_t k = 0; k < n; k++) {
			double y = csr_as_double(&c[k]);

			f->fsum += y;
			if (k == 0 || y > f->fmax)
				f->fmax = y, f->best = k;
		}
	} else {
		/* Ints, bools as 0/1, or the letters of strings (compared as numpy compares one-letter strings). */
		for (uint32_t k = 0; k < n; k++) {
			int64_t x = c[k].u.i;

			f->isum += (uint64_t)x;
			if (k == 0 || x > f->imax)
				f->imax = x, f->best = k;
		}
	}
	return 0;
}

/* numpy.sum (want_argmax 0) or numpy.argmax (1) of a list. */
CSR_NOINLINE static int csr_reduce(ms_cs_dsl_runner *r, int pc, const csr_val *list, int want_argmax, csr_val *out)
{
	const char *fn = want_argmax ? "argmax" : "sum";
	csr_array a;
	csr_fold f;
	int rc;

	if (list->kind != MS_CS_VAL_LIST)
		return csr_fail(r, pc, "%s of %s, not a list", fn, csr_kind_name(list));
	a.any_float = a.any_str = a.any_num = 0;
	a.count = 0;
	f.isum = 0;
	f.fsum = 0;
	f.best = f.index = 0;
	if (list->len == 0 || csr_fold_flat(r, list, &a, &f) != 0) {
		if ((rc = csr_as_array(r, pc, list, &a, fn)) < 0)
			return rc;
		if (rc == CSR_RAGGED)
			return csr_reduce_objects(r, pc, list, &a, want_argmax, out);
		f.as_float = a.any_float;
		if (a.count > 0)
			csr_fold_leaves(r, list, &f);
	}
	if (a.any_str && a.any_num)
		return csr_fail(r, pc, "%s of a list mixing strings and numbers", fn);
	if (!want_argmax) {
		if (a.any_str)
			return csr_fail(r, pc, "sum of strings (numpy cannot add them)");
		/* An array with no elements is float64: its sum is 0.0. */
		if (a.count == 0)
			*out = csr_float(0.0);
		else
			*out = f.as_float ? csr_float(f.fsum) : csr_int(MS_CS_VAL_NPINT, (int64_t)f.isum);
		return MS_OK;
	}
	if (a.count == 0)
		return csr_fail(r, pc, "argmax of an empty sequence");
	*out = csr_int(MS_CS_VAL_NPINT, f.best);
	return MS_OK;
}

/* ---- the walk ------------------------------------------------------------------ */

static int csr_node(ms_cs_dsl_runner *r, int pc, csr_val *out);
static inline int csr_leaf(ms_cs_dsl_runner *r, int pc, csr_val *out);

/* Leaves are evaluated in place, without a call: half the nodes of a typical program. */
static inline int csr_eval(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	return r->code[pc].leaf ? csr_leaf(r, pc, out) : csr_node(r, pc, out);
}

/* The bound column (locals['int']); the reference's Python indexing outside 2..12 is an error here. */
static inline int csr_column(ms_cs_dsl_runner *r, int pc, int *c)
{
	if (CSR_UNLIKELY(!r->have_int))
		return csr_fail(r, pc, "no column is bound (no Map bound an int before)");
	if (CSR_UNLIKELY(r->loc_int < MS_CS_FIRST_COLUMN || r->loc_int > MS_CS_LAST_COLUMN))
		return csr_fail(r, pc, "the bound int %lld is not a column (2..12)", (long long)r->loc_int);
	*c = (int)r->loc_int;
	return MS_OK;
}

CSR_NOINLINE static int csr_env_neutrals(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	if (!r->have_neutrals) {
		uint32_t off;
		int rc, n = r->env->n_neutrals;

		if ((rc = csr_alloc(r, pc, (uint32_t)n, &off)) < 0)
			return rc;
		for (int k = 0; k < n; k++)
			r->cells[off + (uint32_t)k] = csr_int(MS_CS_VAL_INT, r->env->neutrals[k]);
		r->neutrals = csr_list(off, (uint32_t)n, 0);
		r->have_neutrals = 1;
	}
	*out = r->neutrals;
	return MS_OK;
}

/* `actions`: ['y', 'n'] at a yes/no decision, else the legal list of tuples. */
CSR_NOINLINE static int csr_env_actions(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	if (!r->have_actions) {
		const ms_cs_env *e = r->env;
		uint32_t off, inner, total = (uint32_t)e->n_actions;
		int rc;

		for (int k = 0; k < e->n_actions; k++)
			if (e->actions[k].kind == MS_CS_MOVE_COLUMNS)
				total += (uint32_t)e->actions[k].n;
		if ((rc = csr_alloc(r, pc, total, &off)) < 0)
			return rc;
		inner = off + (uint32_t)e->n_actions;
		for (int k = 0; k < e->n_actions; k++) {
			const ms_cs_move *m = &e->actions[k];

			if (m->kind != MS_CS_MOVE_COLUMNS) {
				r->cells[off + (uint32_t)k] = csr_int(MS_CS_VAL_STR, m->kind == MS_CS_MOVE_YES ? 'y' : 'n');
				continue;
			}
			for (int j = 0; j < m->n; j++)
				r->cells[inner + (uint32_t)j] = csr_int(MS_CS_VAL_INT, m->col[j]);
			r->cells[off + (uint32_t)k] = csr_list(inner, (uint32_t)m->n, 1);
			inner += (uint32_t)m->n;
		}
		r->actions = csr_list(off, (uint32_t)e->n_actions, 0);
		r->have_actions = 1;
	}
	*out = r->actions;
	return MS_OK;
}

static inline int csr_leaf(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	const ms_cs_state *s = r->env->state;
	int rc, c;

	switch (r->code[pc].op) {
	case CSI_CONST:
		*out = csr_int(MS_CS_VAL_INT, r->code[pc].arg);
		return MS_OK;
	case CSI_PROGRESS_VALUE:
	case CSI_MOVE_VALUE:
		if ((rc = csr_column(r, pc, &c)) < 0)
			return rc;
		*out = csr_int(MS_CS_VAL_INT, (r->code[pc].op == CSI_PROGRESS_VALUE ? r->env->progress_value
										   : r->env->move_value)[c]);
		return MS_OK;
	case CSI_MARKER:
		*out = csr_int(MS_CS_VAL_INT, r->env->marker);
		return MS_OK;
	case CSI_NEUTRALS:
		return csr_env_neutrals(r, pc, out);
	case CSI_ACTIONS:
		return csr_env_actions(r, pc, out);
	case MS_CS_P_LOCAL_LIST:
		if (CSR_UNLIKELY(!r->have_list))
			return csr_fail(r, pc, "local_list is read before any Map bound a list");
		*out = r->loc_list;
		return MS_OK;
	case MS_CS_P_ADVANCED_THIS_ROUND:
		if ((rc = csr_column(r, pc, &c)) < 0)
			return rc;
		*out = csr_int(MS_CS_VAL_INT, ms_cs_advanced_this_round(s, c));
		return MS_OK;
	case MS_CS_P_ADVANCED_BY_ACTION:
		if (CSR_UNLIKELY(!r->have_list))
			return csr_fail(r, pc, "no action is bound (no Map bound a list before)");
		c = r->loc_list.len == 2 && csr_equal(r, &r->cells[r->loc_list.u.off], &r->cells[r->loc_list.u.off + 1]);
		*out = csr_int(MS_CS_VAL_INT, c ? 2 : 1);
		return MS_OK;
	case MS_CS_P_PLAYER_SECURED:
		if ((rc = csr_column(r, pc, &c)) < 0)
			return rc;
		*out = csr_int(MS_CS_VAL_INT, ms_cs_player_secured(s, c));
		return MS_OK;
	case MS_CS_P_OPPONENT_SECURED:
		if ((rc = csr_column(r, pc, &c)) < 0)
			return rc;
		*out = csr_int(MS_CS_VAL_INT, ms_cs_opponent_secured(s, c));
		return MS_OK;
	case MS_CS_P_DIFFICULTY:
		/* Reads only the state: computed once per decision. */
		if (!r->have_difficulty) {
			r->difficulty = ms_cs_difficulty_score(s);
			r->have_difficulty = 1;
		}
		*out = csr_int(MS_CS_VAL_INT, r->difficulty);
		return MS_OK;
	case MS_CS_P_IS_NEW_NEUTRAL:
		if ((rc = csr_column(r, pc, &c)) < 0)
			return rc;
		*out = csr_int(MS_CS_VAL_BOOL, ms_cs_is_new_neutral(s, c));
		return MS_OK;
	case MS_CS_P_WINS_AFTER_STOP:
		*out = csr_int(MS_CS_VAL_BOOL, ms_cs_wins_after_stopping(s));
		return MS_OK;
	case MS_CS_P_NEUTRALS_TO_PLAY:
		*out = csr_int(MS_CS_VAL_BOOL, ms_cs_neutrals_to_play(s));
		return MS_OK;
	default:
		return csr_fail(r, pc, "a value node has no meaning alone");
	}
}

/*
 * Python's + and * on sequences, which only the ragged option's Sum makes:
 * concatenation, and repetition by a Python int (a numpy integer on the
 * left would make a numpy array: refused, as numpy arrays are not values
 * here).
 */
CSR_NOINLINE static int csr_seq_arith(ms_cs_dsl_runner *r, int pc, int op, csr_val a, csr_val b, csr_val *out)
{
	uint32_t off;
	int rc;

	if (op == MS_CS_P_PLUS && a.kind == MS_CS_VAL_LIST && b.kind == MS_CS_VAL_LIST && a.tuple == b.tuple)
		return csr_py_add(r, pc, a, b, out);
	if (op == MS_CS_P_TIMES && (a.kind == MS_CS_VAL_LIST) != (b.kind == MS_CS_VAL_LIST)) {
		csr_val seq = a.kind == MS_CS_VAL_LIST ? a : b, num = a.kind == MS_CS_VAL_LIST ? b : a;
		int64_t times = num.u.i;
		uint64_t len;

		if (num.kind == MS_CS_VAL_INT || num.kind == MS_CS_VAL_BOOL ||
		    (num.kind == MS_CS_VAL_NPINT && a.kind == MS_CS_VAL_LIST)) {
			len = times > 0 ? (uint64_t)times * seq.len : 0;
			if (times > (int64_t)CSR_MAX_CELLS || len > CSR_MAX_CELLS)
				return csr_fail(r, pc, "a sequence repeated %lld times", (long long)times);
			if ((rc = csr_alloc(r, pc, (uint32_t)len, &off)) < 0)
				return rc;
			for (uint64_t k = 0; k < len; k++)
				r->cells[off + k] = r->cells[seq.u.off + k % seq.len];
			*out = csr_list(off, (uint32_t)len, seq.tuple);
			return MS_OK;
		}
	}
	return csr_fail(r, pc, "arithmetic on %s and %s", csr_kind_name(&a), csr_kind_name(&b));
}

/* Python's + - * on scalars; the result's type follows numpy's promotion. */
static inline int csr_arith(ms_cs_dsl_runner *r, int pc, int op, const csr_val *a, const csr_val *b, csr_val *out)
{
	if (CSR_UNLIKELY(!csr_numeric(a) || !csr_numeric(b))) {
		if (a->kind == MS_CS_VAL_LIST || b->kind == MS_CS_VAL_LIST)
			return csr_seq_arith(r, pc, op, *a, *b, out);
		return csr_fail(r, pc, "arithmetic on %s and %s", csr_kind_name(a), csr_kind_name(b));
	}
	if (a->kind == MS_CS_VAL_FLOAT || b->kind == MS_CS_VAL_FLOAT) {
		double x = csr_as_double(a), y = csr_as_double(b);

		*out = csr_float(op == MS_CS_P_PLUS ? x + y : op == MS_CS_P_MINUS ? x - y : x * y);
		return MS_OK;
	}
	/* Wrapping 64-bit arithmetic: numpy's for int64 (Python's ints would not wrap; 2^63 is out of reach). */
	uint64_t x = (uint64_t)a->u.i, y = (uint64_t)b->u.i;
	uint64_t z = op == MS_CS_P_PLUS ? x + y : op == MS_CS_P_MINUS ? x - y : x * y;

	*out = csr_int(a->kind == MS_CS_VAL_NPINT || b->kind == MS_CS_VAL_NPINT ? MS_CS_VAL_NPINT : MS_CS_VAL_INT,
		       (int64_t)z);
	return MS_OK;
}

CSR_NOINLINE static int csr_map(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	int fn = pc + 1, body = pc + 2, lst = r->code[fn].end, rc;
	csr_val list, v;
	uint32_t res;

	/* The reference evaluates the list first, then makes the lambda. */
	if ((rc = csr_eval(r, lst, &list)) < 0)
		return rc;
	if (CSR_UNLIKELY(list.kind != MS_CS_VAL_LIST))
		return csr_fail(r, pc, "map over %s, not a list", csr_kind_name(&list));
	if ((rc = csr_alloc(r, pc, list.len, &res)) < 0)
		return rc;
	for (uint32_t k = 0; k < list.len; k++) {
		/* By value: the arena may move while the body runs. */
		csr_val e = r->cells[list.u.off + k];

		/*
		 * interpret_local_variables: the element's type picks the slot
		 * of the one locals record of the decision; nothing is restored
		 * afterwards (dynamic scoping).
		 */
		if (e.kind == MS_CS_VAL_INT) {
			r->have_int = 1;
			r->loc_int = e.u.i;
		} else if (e.kind == MS_CS_VAL_LIST) {
			r->have_list = 1;
			r->loc_list = e;
			r->loc_list.tuple = 0; /* tuples are bound as lists */
		} else {
			return csr_fail(r, pc, "map binds %s (only Python ints and lists may be bound)",
					csr_kind_name(&e));
		}
		if ((rc = csr_eval(r, body, &v)) < 0)
			return rc;
		r->cells[res + k] = v;
	}
	*out = csr_list(res, list.len, 0);
	return MS_OK;
}

static int csr_node(ms_cs_dsl_runner *r, int pc, csr_val *out)
{
	csr_val a, b;
	int rc;

	switch (r->code[pc].op) {
	case MS_CS_P_PLUS:
	case MS_CS_P_TIMES:
	case MS_CS_P_MINUS:
		if ((rc = csr_eval(r, pc + 1, &a)) < 0 || (rc = csr_eval(r, r->code[pc + 1].end, &b)) < 0)
			return rc;
		return csr_arith(r, pc, r->code[pc].op, &a, &b, out);
	case MS_CS_P_SUM:
	case MS_CS_P_ARGMAX:
		if ((rc = csr_eval(r, pc + 1, &a)) < 0)
			return rc;
		return csr_reduce(r, pc, &a, r->code[pc].op == MS_CS_P_ARGMAX, out);
	case MS_CS_P_MAP:
		return csr_map(r, pc, out);
	case MS_CS_P_DOUBLE_PROGRAM:
		return csr_eval(r, r->env->yes_no ? pc + 1 : r->code[pc + 1].end, out);
	case MS_CS_P_ITE: {
		int then = r->code[pc + 1].end, other = r->code[then].end, truth;

		if ((rc = csr_eval(r, pc + 1, &a)) < 0)
			return rc;
		truth = a.kind == MS_CS_VAL_FLOAT ? a.u.f != 0 : a.kind == MS_CS_VAL_LIST ? a.len != 0 : a.u.i != 0;
		return csr_eval(r, truth ? then : other, out);
	}
	case MS_CS_P_LT:
		if ((rc = csr_eval(r, pc + 1, &a)) < 0 || (rc = csr_eval(r, r->code[pc + 1].end, &b)) < 0)
			return rc;
		if (CSR_UNLIKELY(!csr_numeric(&a) || !csr_numeric(&b))) {
			int gt;

			/* Sequences (the ragged option's sums) compare as Python compares them. */
			if ((rc = csr_py_gt(r, pc, &b, &a, &gt)) < 0)
				return rc;
			*out = csr_int(MS_CS_VAL_BOOL, gt);
			return MS_OK;
		}
		if (a.kind == MS_CS_VAL_FLOAT || b.kind == MS_CS_VAL_FLOAT)
			*out = csr_int(MS_CS_VAL_BOOL, csr_as_double(&a) < csr_as_double(&b));
		else
			*out = csr_int(MS_CS_VAL_BOOL, a.u.i < b.u.i);
		return MS_OK;
	case MS_CS_P_FUNCTION:
		return csr_fail(r, pc, "a lambda outside a map has no value");
	default:
		return csr_fail(r, pc, "a value node has no meaning alone");
	}
}

/* Fresh locals and arena (init_env makes a new dictionary per decision), then the walk. */
int csr_run(ms_cs_dsl_runner *r, ms_ctx *ectx, const ms_cs_env *env, csr_val *out)
{
	if (r->root_nt < 0)
		return ms_ctx_error(ectx, MS_EINVAL, "cantstop dsl runner: no program loaded");
	r->env = env;
	r->ectx = ectx;
	r->top = 0;
	r->have_int = r->have_list = r->have_neutrals = r->have_actions = r->have_difficulty = 0;
	return csr_eval(r, 0, out);
}

int ms_cs_dsl_eval(ms_cs_dsl_runner *r, const ms_cs_env *env, ms_cs_dsl_value *out)
{
	csr_val v;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = csr_run(r, r->ctx, env, &v)) < 0)
		return rc;
	out->kind = v.kind;
	if (v.kind == MS_CS_VAL_LIST) {
		out->len = v.len;
		out->ref = v.u.off;
		out->i = v.tuple;
	} else if (v.kind == MS_CS_VAL_FLOAT) {
		out->f = v.u.f;
	} else {
		out->i = v.u.i;
		out->f = (double)v.u.i;
	}
	return MS_OK;
}
