/*
 * Reading dialect-A programs (spec section 2): the lexer and one
 * recursive-descent parser for the Java one-line form, the indented form
 * and the paper form (they differ only in whitespace, braces and optional
 * words), the salve token form's reader, and the load-time check. The
 * dissertation's listings are rewritten into braces first
 * (rts_dsl_listing.c); the printers are in rts_dsl_print.c.
 *
 * The parser first builds a small tree of its own (so a run of statements
 * can be folded into right-nested S_S, as the spec fixes), remembering
 * where each node started, then emits it in pre-order; the load-time check
 * for commands outside loops then reports line and column.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "rts_dsl_internal.h"
#include "core/vec.h"

/* ---- lexer ---------------------------------------------------------------- */

enum { TK_EOF = 0, TK_ID, TK_NUM, TK_PUNCT };

typedef struct tok {
	int kind;
	const char *s; /* start in the text */
	int len;
	int line, col;
} tok;

/* A node of the parser's own tree. */
typedef struct pnode {
	int sym; /* production id or hole symbol */
	int kid[3];
	int nk;
	int line, col;
} pnode;

typedef struct parser {
	ms_dsl_prog *p;
	const ms_dsl_grammar *g;
	ms_ctx *ctx;
	const char *what;
	const char *text;
	size_t len, at;
	int line, col;
	unsigned flags;
	tok cur;
	pnode *pool;
	int n, cap;
	int depth;
	int id[64]; /* production ids by name, see load_ids */
} parser;

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}


static void advance_char(parser *ps)
{
	if (ps->text[ps->at] == '\n') {
		ps->line++;
		ps->col = 1;
	} else {
		ps->col++;
	}
	ps->at++;
}

static void next(parser *ps)
{
	for (;;) {
		while (ps->at < ps->len && (ps->text[ps->at] == ' ' || ps->text[ps->at] == '\t' ||
					    ps->text[ps->at] == '\n' || ps->text[ps->at] == '\r'))
			advance_char(ps);
		if (ps->at < ps->len && (ps->text[ps->at] == '#' ||
					 (ps->text[ps->at] == '/' && ps->at + 1 < ps->len && ps->text[ps->at + 1] == '/'))) {
			while (ps->at < ps->len && ps->text[ps->at] != '\n')
				advance_char(ps);
			continue;
		}
		break;
	}
	ps->cur.s = ps->text + ps->at;
	ps->cur.line = ps->line;
	ps->cur.col = ps->col;
	ps->cur.len = 0;
	if (ps->at >= ps->len) {
		ps->cur.kind = TK_EOF;
		return;
	}
	if (is_alpha(ps->text[ps->at])) {
		ps->cur.kind = TK_ID;
		while (ps->at < ps->len && (is_alpha(ps->text[ps->at]) || rts_dsl_is_digit(ps->text[ps->at])))
			advance_char(ps), ps->cur.len++;
	} else if (rts_dsl_is_digit(ps->text[ps->at])) {
		ps->cur.kind = TK_NUM;
		while (ps->at < ps->len && (is_alpha(ps->text[ps->at]) || rts_dsl_is_digit(ps->text[ps->at])))
			advance_char(ps), ps->cur.len++;
	} else {
		ps->cur.kind = TK_PUNCT;
		advance_char(ps);
		ps->cur.len = 1;
	}
}

static int is(const parser *ps, const char *word)
{
	size_t n = strlen(word);
	return ps->cur.kind != TK_EOF && (size_t)ps->cur.len == n && !memcmp(ps->cur.s, word, n);
}

static int is_punct(const parser *ps, char c)
{
	return ps->cur.kind == TK_PUNCT && ps->cur.s[0] == c;
}

/* "found ..." part of an error message. */
static void describe(const parser *ps, char *buf, size_t size)
{
	if (ps->cur.kind == TK_EOF)
		snprintf(buf, size, "the end of the text");
	else if ((unsigned char)ps->cur.s[0] < 32 || (unsigned char)ps->cur.s[0] >= 127)
		snprintf(buf, size, "byte 0x%02x", (unsigned char)ps->cur.s[0]);
	else
		snprintf(buf, size, "'%.*s'", ps->cur.len > 40 ? 40 : ps->cur.len, ps->cur.s);
}

static int expected(parser *ps, const char *what)
{
	char found[64];
	describe(ps, found, sizeof(found));
	return ms_ctx_error(ps->ctx, MS_EPARSE, "%s: line %d, column %d: expected %s, found %s", ps->what, ps->cur.line,
			    ps->cur.col, what, found);
}

static int expect_punct(parser *ps, char c, const char *what)
{
	if (!is_punct(ps, c))
		return expected(ps, what);
	next(ps);
	return MS_OK;
}

/* ---- the parser's tree -------------------------------------------------- */

/* Programs are tiny; a bound keeps every recursion over them (the parser's,
 * the printers', the interpreter's) far from the stack's limit. */
#define MAX_PARSE_NODES 20000

static int new_node(parser *ps, int sym, int line, int col)
{
	if (ps->n >= MAX_PARSE_NODES)
		return ms_ctx_error(ps->ctx, MS_ERANGE, "%s: line %d, column %d: program larger than %d nodes", ps->what,
				    line, col, MAX_PARSE_NODES);
	if (ms_vec_grow(ps->ctx, (void **)&ps->pool, &ps->cap, (long long)ps->n + 1, sizeof *ps->pool) < 0)
		return ms_ctx_error(ps->ctx, MS_ENOMEM, "%s: out of memory", ps->what);
	ps->pool[ps->n].sym = sym;
	ps->pool[ps->n].nk = 0;
	ps->pool[ps->n].line = line;
	ps->pool[ps->n].col = col;
	return ps->n++;
}

static void add_kid(parser *ps, int parent, int kid)
{
	ps->pool[parent].kid[ps->pool[parent].nk++] = kid;
}

/* Production ids the parser needs by name. */
enum { ID_C, ID_SEQ, ID_FOR, ID_IF, ID_IFELSE, ID_EMPTY, ID_NOT, ID_ISTYPE, ID_WORKER, ID_INF, ID_COUNT };

static int load_ids(parser *ps)
{
	static const char *const names[ID_COUNT] = { "C", "S_S", "For_S", "If_B_then_S", "If_B_then_S_else_S",
						     "Empty", "Not", "is_Type", "Worker", "inf" };
	for (int i = 0; i < ID_COUNT; i++)
		ps->id[i] = ms_dsl_prod_find(ps->g, names[i]);
	return MS_OK;
}

/* 1 when the grammar has LLD's inf and `prod` is a command whose last argument, its cap N, LLD leaves
 * out (Build(T,D), Train(T,D), Harvest()). */
static int cap_optional(const parser *ps, int prod)
{
	int op = ms_dsl_prod_op(ps->g, prod);
	return ps->id[ID_INF] >= 0 && (op == MS_RTS_DSL_BUILD || op == MS_RTS_DSL_TRAIN || op == MS_RTS_DSL_HARVEST);
}

/* Spellings accepted for commands and conditions: printed, salve and paper. */
typedef struct alias {
	const char *word;
	const char *prod;
} alias;

static const alias command_words[] = {
	{ "attack", "Attack" },         { "Attack", "Attack" },       { "build", "Build" },
	{ "Build", "Build" },           { "harvest", "Harvest" },     { "Harvest", "Harvest" },
	{ "idle", "Idle" },             { "Idle", "Idle" },           { "attackIfInRange", "Idle" },
	{ "moveAway", "MoveAway" },     { "MoveAway", "MoveAway" },   { "moveToUnit", "MoveToUnit" },
	{ "MoveToUnit", "MoveToUnit" }, { "train", "Train" },         { "Train", "Train" },
	{ NULL, NULL },
};

static const alias condition_words[] = {
	{ "canAttack", "CanAttack" },
	{ "CanAttack", "CanAttack" },
	{ "canHarvest", "CanHarvest" },
	{ "CanHarvest", "CanHarvest" },
	{ "HasLessNumberOfUnits", "HasLessNumberOfUnits" },
	{ "HasNumberOfUnits", "HasNumberOfUnits" },
	{ "HasNumberOfWorkersHarvesting", "HasNumberOfWorkersHarvesting" },
	{ "HasUnitInOpponentRange", "HasUnitInOpponentRange" },
	{ "HasUnitThatKillsInOneAttack", "HasUnitThatKillsInOneAttack" },
	{ "HasUnitWithinDistanceFromOpponent", "HasUnitWithinDistanceFromOpponent" },
	{ "HaveQtdUnitsAttacking", "HaveQtdUnitsAttacking" },
	{ "HaveUnitsAttacking", "HaveQtdUnitsAttacking" },
	{ "isBuilder", "IsBuilder" },
	{ "IsBuilder", "IsBuilder" },
	{ "Is_Builder", "IsBuilder" },
	{ "is", "is_Type" },
	{ "is_Type", "is_Type" },
	{ "OpponentHasNumberOfUnits", "OpponentHasNumberOfUnits" },
	{ "OpponentHasUnitInPlayerRange", "OpponentHasUnitInPlayerRange" },
	{ "OpponentHasUnitThatKillsUnitInOneAttack", "OpponentHasUnitThatKillsUnitInOneAttack" },
	{ NULL, NULL },
};

static const char *lookup_word(const parser *ps, const alias *table)
{
	for (int i = 0; table[i].word; i++)
		if (is(ps, table[i].word))
			return table[i].prod;
	return NULL;
}

/* Hole of `nt` when holes are on and the current word is its name. */
static int hole_here(const parser *ps, int nt)
{
	return (ps->flags & MS_RTS_DSL_PARSE_HOLES) && is(ps, ms_dsl_nt_name(ps->g, nt));
}

/* The printed list of a non-terminal's values, for errors. */
static void value_list(const parser *ps, int nt, char *buf, size_t size)
{
	int n, at = 0;
	const uint16_t *alts = ms_dsl_nt_alts(ps->g, nt, &n);

	buf[0] = '\0';
	for (int i = 0; i < n && (size_t)at < size; i++)
		at += snprintf(buf + at, size - (size_t)at, "%s%s", i ? (i == n - 1 ? " or " : ", ") : "",
			       ms_dsl_prod_name(ps->g, alts[i]));
}

/* One argument: a value of non-terminal `nt`. */
static int parse_value(parser *ps, int nt, int *out)
{
	int n, node;
	const uint16_t *alts = ms_dsl_nt_alts(ps->g, nt, &n);

	if (ps->cur.kind == TK_ID || ps->cur.kind == TK_NUM) {
		if (hole_here(ps, nt)) {
			if ((node = new_node(ps, ms_dsl_hole(nt), ps->cur.line, ps->cur.col)) < 0)
				return node;
			next(ps);
			*out = node;
			return MS_OK;
		}
		for (int i = 0; i < n; i++)
			if (is(ps, ms_dsl_prod_name(ps->g, alts[i]))) {
				if ((node = new_node(ps, alts[i], ps->cur.line, ps->cur.col)) < 0)
					return node;
				next(ps);
				*out = node;
				return MS_OK;
			}
	}
	{
		char list[512], what[600];
		value_list(ps, nt, list, sizeof(list));
		snprintf(what, sizeof(what), "%s (%s)",
			 nt == RD_NT_T	 ? "a unit type"
			 : nt == RD_NT_N ? "a number"
			 : nt == RD_NT_D ? "a direction"
			 : nt == RD_NT_OP ? "a target rule"
					  : "a target player",
			 list);
		return expected(ps, what);
	}
}

/* Name, then the arguments of production `prod` (parentheses optional
 * when it takes none). `preset` (or -1) is a value node already chosen
 * (isWorker = is_Type(Worker)). */
static int parse_call(parser *ps, int prod, int line, int col, int preset, int *out)
{
	int node, arity = ms_dsl_prod_arity(ps->g, prod), rc, v_inf;
	const char *name = ms_dsl_prod_name(ps->g, prod);
	char what[128];

	if ((node = new_node(ps, prod, line, col)) < 0)
		return node;
	*out = node;
	next(ps); /* the name */
	if (preset >= 0) {
		add_kid(ps, node, preset);
		arity = 0;
	}
	if (!is_punct(ps, '(')) {
		if (arity == 1 && cap_optional(ps, prod)) { /* LLD's harvest */
			if ((v_inf = new_node(ps, ps->id[ID_INF], line, col)) < 0)
				return v_inf;
			add_kid(ps, node, v_inf);
			return MS_OK;
		}
		if (arity == 0)
			return MS_OK;
		snprintf(what, sizeof(what), "'(' and the %d argument%s of %s", arity, arity > 1 ? "s" : "", name);
		return expected(ps, what);
	}
	next(ps);
	for (int k = 0; k < arity; k++) {
		int v;
		if (k == arity - 1 && is_punct(ps, ')') && cap_optional(ps, prod)) { /* LLD: no N */
			if ((v_inf = new_node(ps, ps->id[ID_INF], line, col)) < 0)
				return v_inf;
			add_kid(ps, node, v_inf);
			break;
		}
		if (k > 0) {
			snprintf(what, sizeof(what), "',' before argument %d of %s", k + 1, name);
			if ((rc = expect_punct(ps, ',', what)))
				return rc;
		}
		if ((rc = parse_value(ps, ms_dsl_prod_child_nt(ps->g, prod, k), &v)))
			return rc;
		add_kid(ps, node, v);
	}
	snprintf(what, sizeof(what), "')' after %s %d argument%s", name, arity, arity == 1 ? "" : "s");
	return expect_punct(ps, ')', what);
}

/* `u.` before a name (optional). */
static int skip_u_dot(parser *ps)
{
	if (!is(ps, "u"))
		return MS_OK;
	next(ps);
	return expect_punct(ps, '.', "'.' after 'u'");
}

static int parse_cond(parser *ps, int *out);

static int parse_cond(parser *ps, int *out)
{
	int line = ps->cur.line, col = ps->cur.col, rc, node;
	const char *word;

	if (++ps->depth > 2000)
		return ms_ctx_error(ps->ctx, MS_ERANGE, "%s: line %d, column %d: nested too deeply", ps->what, line, col);
	if (is(ps, "not") || is_punct(ps, '!')) {
		int kid;
		if (!(ps->flags & MS_RTS_DSL_PARSE_NOT) || ps->id[ID_NOT] < 0)
			return ms_ctx_error(ps->ctx, MS_EPARSE,
					    "%s: line %d, column %d: negation is not part of dialect A (enable the "
					    "'not' extension to accept it)",
					    ps->what, line, col);
		next(ps);
		if ((rc = parse_cond(ps, &kid)))
			return rc;
		if ((node = new_node(ps, ps->id[ID_NOT], line, col)) < 0)
			return node;
		add_kid(ps, node, kid);
		*out = node;
		ps->depth--;
		return MS_OK;
	}
	if (hole_here(ps, RD_NT_B)) {
		if ((node = new_node(ps, ms_dsl_hole(RD_NT_B), line, col)) < 0)
			return node;
		next(ps);
		*out = node;
		ps->depth--;
		return MS_OK;
	}
	if ((rc = skip_u_dot(ps)))
		return rc;
	if (is(ps, "isWorker")) {
		int v = new_node(ps, ps->id[ID_WORKER], ps->cur.line, ps->cur.col);
		if (v < 0)
			return v;
		rc = parse_call(ps, ps->id[ID_ISTYPE], line, col, v, out);
	} else if ((word = lookup_word(ps, condition_words))) {
		rc = parse_call(ps, ms_dsl_prod_find(ps->g, word), line, col, -1, out);
	} else if (lookup_word(ps, command_words)) {
		char found[64];
		describe(ps, found, sizeof(found));
		return ms_ctx_error(ps->ctx, MS_EPARSE, "%s: line %d, column %d: expected a condition, found the command %s",
				    ps->what, ps->cur.line, ps->cur.col, found);
	} else {
		return expected(ps, "a condition (e.g. u.canAttack(), HasNumberOfUnits(Worker,2))");
	}
	ps->depth--;
	return rc;
}

static int parse_stmts(parser *ps, int closing, int *out);

/* One statement; *out = -1 when it was only a ';'. */
static int parse_stmt(parser *ps, int *out)
{
	int line = ps->cur.line, col = ps->cur.col, rc, node, kid;
	const char *word;

	*out = -1;
	if (is_punct(ps, ';')) {
		next(ps);
		return MS_OK;
	}
	if (is_punct(ps, '{')) {
		next(ps);
		if ((rc = parse_stmts(ps, '}', out)))
			return rc;
		return expect_punct(ps, '}', "'}' closing the block");
	}
	if (is(ps, "e")) {
		if ((node = new_node(ps, ps->id[ID_EMPTY], line, col)) < 0)
			return node;
		next(ps);
		*out = node;
		return MS_OK;
	}
	if (hole_here(ps, RD_NT_S)) {
		if ((node = new_node(ps, ms_dsl_hole(RD_NT_S), line, col)) < 0)
			return node;
		next(ps);
		*out = node;
		return MS_OK;
	}
	if (hole_here(ps, RD_NT_C)) {
		if ((node = new_node(ps, ps->id[ID_C], line, col)) < 0 ||
		    (kid = new_node(ps, ms_dsl_hole(RD_NT_C), line, col)) < 0)
			return MS_ENOMEM;
		add_kid(ps, node, kid);
		next(ps);
		*out = node;
		return MS_OK;
	}
	if (is(ps, "for")) {
		next(ps);
		if ((rc = expect_punct(ps, '(', "'(' after 'for'")))
			return rc;
		if (is(ps, "Unit"))
			next(ps);
		if (!is(ps, "u"))
			return expected(ps, "'u' (the loop variable: for(Unit u) or for(u))");
		next(ps);
		if ((rc = expect_punct(ps, ')', "')' after the loop variable")))
			return rc;
		if ((node = new_node(ps, ps->id[ID_FOR], line, col)) < 0)
			return node;
		if ((rc = parse_stmts(ps, 0, &kid)))
			return rc;
		add_kid(ps, node, kid);
		*out = node;
		return MS_OK;
	}
	if (is(ps, "if")) {
		int cond, then_s, else_s;
		next(ps);
		if ((rc = expect_punct(ps, '(', "'(' after 'if'")) || (rc = parse_cond(ps, &cond)) ||
		    (rc = expect_punct(ps, ')', "')' closing the condition")))
			return rc;
		if (is(ps, "then"))
			next(ps);
		if ((rc = parse_stmts(ps, 0, &then_s)))
			return rc;
		if (is(ps, "else")) {
			next(ps);
			if ((rc = parse_stmts(ps, 0, &else_s)))
				return rc;
			if ((node = new_node(ps, ps->id[ID_IFELSE], line, col)) < 0)
				return node;
			add_kid(ps, node, cond);
			add_kid(ps, node, then_s);
			add_kid(ps, node, else_s);
		} else {
			if ((node = new_node(ps, ps->id[ID_IF], line, col)) < 0)
				return node;
			add_kid(ps, node, cond);
			add_kid(ps, node, then_s);
		}
		*out = node;
		return MS_OK;
	}
	if ((rc = skip_u_dot(ps)))
		return rc;
	if ((word = lookup_word(ps, command_words))) {
		if ((node = new_node(ps, ps->id[ID_C], line, col)) < 0)
			return node;
		if ((rc = parse_call(ps, ms_dsl_prod_find(ps->g, word), line, col, -1, &kid)))
			return rc;
		add_kid(ps, node, kid);
		*out = node;
		return MS_OK;
	}
	if (lookup_word(ps, condition_words) || is(ps, "isWorker")) {
		char found[64];
		describe(ps, found, sizeof(found));
		return ms_ctx_error(ps->ctx, MS_EPARSE,
				    "%s: line %d, column %d: expected a statement, found the condition %s (conditions go "
				    "in if(...))",
				    ps->what, ps->cur.line, ps->cur.col, found);
	}
	return expected(ps, "a statement (for, if, e, or a command such as u.attack(Closest))");
}

/*
 * A body (closing == 0: one statement or a braced block) or a block's
 * statements up to `closing`. Several statements fold into right-nested
 * S_S; none is Empty.
 */
static int parse_stmts(parser *ps, int closing, int *out)
{
	int list_cap = 16, n = 0, rc = MS_OK, line = ps->cur.line, col = ps->cur.col;
	int *list;

	if (++ps->depth > 2000)
		return ms_ctx_error(ps->ctx, MS_ERANGE, "%s: line %d, column %d: nested too deeply", ps->what, line, col);
	if (closing == 0) {
		/* a body: braces, or exactly one statement (';' alone is none) */
		if (is_punct(ps, '{')) {
			next(ps);
			if ((rc = parse_stmts(ps, '}', out)))
				return rc;
			rc = expect_punct(ps, '}', "'}' closing the block");
		} else {
			if (ps->cur.kind == TK_EOF)
				return expected(ps, "a statement or '{'");
			if ((rc = parse_stmt(ps, out)))
				return rc;
			if (*out < 0) {
				int node = new_node(ps, ps->id[ID_EMPTY], line, col);
				if (node < 0)
					return node;
				*out = node;
			}
		}
		ps->depth--;
		return rc;
	}
	if (!(list = ms_ctx_malloc(ps->ctx, sizeof(int) * (size_t)list_cap)))
		return ms_ctx_error(ps->ctx, MS_ENOMEM, "%s: out of memory", ps->what);
	while (rc == MS_OK) {
		int s;
		if (closing > 0 ? is_punct(ps, (char)closing) : ps->cur.kind == TK_EOF)
			break;
		if (ps->cur.kind == TK_EOF) {
			rc = expected(ps, "'}'");
			break;
		}
		if ((rc = parse_stmt(ps, &s)) || s < 0)
			continue;
		if (ms_vec_grow(ps->ctx, (void **)&list, &list_cap, (long long)n + 1, sizeof *list) < 0) {
			rc = ms_ctx_error(ps->ctx, MS_ENOMEM, "%s: out of memory", ps->what);
			break;
		}
		list[n++] = s;
	}
	if (rc == MS_OK) {
		if (n == 0) {
			int node = new_node(ps, ps->id[ID_EMPTY], line, col);
			if (node < 0)
				rc = node;
			*out = node;
		} else {
			int acc = list[n - 1];
			for (int i = n - 2; i >= 0 && rc == MS_OK; i--) {
				int node = new_node(ps, ps->id[ID_SEQ], ps->pool[list[i]].line, ps->pool[list[i]].col);
				if (node < 0) {
					rc = node;
					break;
				}
				add_kid(ps, node, list[i]);
				add_kid(ps, node, acc);
				acc = node;
			}
			*out = acc;
		}
	}
	ms_ctx_mfree(ps->ctx, list);
	ps->depth--;
	return rc;
}

/* Emits the parser's tree in pre-order; pos[k] = parser node of program node k. */
static int emit(parser *ps, int node, int *pos, int *k)
{
	int rc;
	if ((rc = ms_dsl_prog_push(ps->p, (ms_dsl_sym)ps->pool[node].sym)))
		return rc;
	pos[(*k)++] = node;
	for (int i = 0; i < ps->pool[node].nk; i++)
		if ((rc = emit(ps, ps->pool[node].kid[i], pos, k)))
			return rc;
	return MS_OK;
}

/* ---- the load-time check --------------------------------------------------- */

/* First node (pre-order) reading `u` outside every for, or -1. */
static int first_unbound(const ms_dsl_prog *p)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	const int32_t *ends = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p);

	for (int i = 0; i < n;) {
		ms_dsl_sym s = nodes[i];
		int op = ms_dsl_is_hole(s) ? 0 : ms_dsl_prod_op(g, s);
		if (op == MS_RTS_DSL_S_FOR) {
			i = ends[i]; /* everything inside has a unit */
			continue;
		}
		if (op && rd_op_uses_unit(op))
			return i;
		i++;
	}
	return -1;
}

static void node_text(const ms_dsl_prog *p, int i, char *buf, size_t size)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	ms_dsl_sym s = ms_dsl_prog_nodes(p)[i];
	const char *t = ms_dsl_is_hole(s) ? "?" : ms_dsl_prod_name(g, s);
	snprintf(buf, size, "%s", t);
}

int ms_rts_dsl_check_bound(const ms_dsl_prog *p, int *node)
{
	int i = first_unbound(p);
	char name[64];

	if (node)
		*node = i;
	if (i < 0)
		return MS_OK;
	node_text(p, i, name, sizeof(name));
	return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL,
			    "program node %d (%s) uses the unit u outside any for loop (the reference interpreter "
			    "throws there)",
			    i, name);
}

/* ---- salve tokens ---------------------------------------------------------- */

typedef struct salve {
	parser *ps;
	const char *tok;
	int tlen, index;
	size_t at;
} salve;

static void salve_next(salve *sv)
{
	const char *text = sv->ps->text;
	size_t len = sv->ps->len, a = sv->at, e;

	while (a < len && (text[a] == ' ' || text[a] == '\t' || text[a] == '\n' || text[a] == '\r'))
		a++;
	e = a;
	while (e < len && text[e] != ';')
		e++;
	sv->tok = text + a;
	sv->tlen = (int)(e - a);
	while (sv->tlen > 0 && (sv->tok[sv->tlen - 1] == ' ' || sv->tok[sv->tlen - 1] == '\t' ||
				sv->tok[sv->tlen - 1] == '\n' || sv->tok[sv->tlen - 1] == '\r'))
		sv->tlen--;
	sv->at = e < len ? e + 1 : e;
	sv->index++;
	if (a >= len)
		sv->tok = NULL;
}

static int salve_is(const salve *sv, const char *w)
{
	return sv->tok && (size_t)sv->tlen == strlen(w) && !memcmp(sv->tok, w, (size_t)sv->tlen);
}

/* Line and column of the current token (or of the end). */
static void salve_where(const salve *sv, int *line, int *col)
{
	const char *end = sv->tok ? sv->tok : sv->ps->text + sv->ps->len;

	*line = *col = 1;
	for (const char *c = sv->ps->text; c < end; c++) {
		if (*c == '\n')
			++*line, *col = 1;
		else
			++*col;
	}
}

static int salve_error(salve *sv, const char *what)
{
	int line, col;

	salve_where(sv, &line, &col);
	return ms_ctx_error(sv->ps->ctx, MS_EPARSE, "%s: line %d, column %d (token %d): expected %s, found %s%.*s%s",
			    sv->ps->what, line, col, sv->index, what, sv->tok ? "'" : "the end",
			    sv->tok ? (sv->tlen > 40 ? 40 : sv->tlen) : 0, sv->tok ? sv->tok : "", sv->tok ? "'" : "");
}

/* 1 when the current token is a value of `nt` (or its hole). */
static int salve_has_value(const salve *sv, int nt)
{
	int n;
	const uint16_t *alts = ms_dsl_nt_alts(sv->ps->g, nt, &n);

	if (sv->tok && sv->tlen > 1 && sv->tok[0] == '?')
		return 1;
	for (int i = 0; i < n; i++)
		if (salve_is(sv, ms_dsl_prod_name(sv->ps->g, alts[i])))
			return 1;
	return 0;
}

static int salve_nt(salve *sv, int nt)
{
	parser *ps = sv->ps;
	int n, rc;
	const uint16_t *alts;
	char what[96];

	if (++ps->depth > 4000)
		return ms_ctx_error(ps->ctx, MS_ERANGE, "%s: token %d: nested too deeply", ps->what, sv->index);
	if (ms_dsl_prog_len(ps->p) >= MAX_PARSE_NODES)
		return ms_ctx_error(ps->ctx, MS_ERANGE, "%s: token %d: program larger than %d nodes", ps->what, sv->index,
				    MAX_PARSE_NODES);
	if (nt == RD_NT_S || nt == RD_NT_B) {
		if (!salve_is(sv, nt == RD_NT_S ? "S" : "B"))
			return salve_error(sv, nt == RD_NT_S ? "'S'" : "'B'");
		salve_next(sv);
	}
	if (sv->tok && sv->tlen > 1 && sv->tok[0] == '?' && (ps->flags & MS_RTS_DSL_PARSE_HOLES) &&
	    (size_t)(sv->tlen - 1) == strlen(ms_dsl_nt_name(ps->g, nt)) &&
	    !memcmp(sv->tok + 1, ms_dsl_nt_name(ps->g, nt), (size_t)sv->tlen - 1)) {
		salve_next(sv);
		ps->depth--;
		return ms_dsl_prog_push(ps->p, ms_dsl_hole(nt));
	}
	alts = ms_dsl_nt_alts(ps->g, nt, &n);
	for (int i = 0; i < n; i++) {
		int prod = alts[i];
		if (!salve_is(sv, ms_dsl_prod_name(ps->g, prod)))
			continue;
		if (prod == ps->id[ID_NOT] && !(ps->flags & MS_RTS_DSL_PARSE_NOT))
			return ms_ctx_error(ps->ctx, MS_EPARSE,
					    "%s: token %d: negation is not part of dialect A (enable the 'not' extension)",
					    ps->what, sv->index);
		if ((rc = ms_dsl_prog_push(ps->p, (ms_dsl_sym)prod)))
			return rc;
		salve_next(sv);
		for (int k = 0; k < ms_dsl_prod_arity(ps->g, prod); k++) {
			int cnt = ms_dsl_prod_child_nt(ps->g, prod, k);
			if (cnt == RD_NT_N && cap_optional(ps, prod) && !salve_has_value(sv, RD_NT_N))
				rc = ms_dsl_prog_push(ps->p, (ms_dsl_sym)ps->id[ID_INF]); /* LLD: no N token */
			else
				rc = salve_nt(sv, cnt);
			if (rc)
				return rc;
		}
		ps->depth--;
		return MS_OK;
	}
	snprintf(what, sizeof(what), "a token of %s", ms_dsl_nt_name(ps->g, nt));
	return salve_error(sv, what);
}

static int parse_salve(parser *ps)
{
	salve sv;
	int rc;

	memset(&sv, 0, sizeof(sv));
	sv.ps = ps;
	salve_next(&sv);
	if ((rc = salve_nt(&sv, RD_NT_S)))
		return rc;
	if (sv.tok)
		return salve_error(&sv, "the end of the program");
	if ((rc = ms_dsl_prog_finish(ps->p, RD_NT_S)))
		return rc;
	if (!(ps->flags & MS_RTS_DSL_PARSE_UNBOUND) && first_unbound(ps->p) >= 0) {
		int node = first_unbound(ps->p);
		char name[64];
		node_text(ps->p, node, name, sizeof(name));
		return ms_ctx_error(ps->ctx, MS_EINVAL,
				    "%s: node %d (%s) uses the unit u outside any for loop (the reference interpreter "
				    "throws there)",
				    ps->what, node, name);
	}
	return MS_OK;
}

/* A salve string starts with the token "S" followed by ';'. */
static int looks_salve(const char *text, size_t len)
{
	size_t a = 0;
	while (a < len && (text[a] == ' ' || text[a] == '\t' || text[a] == '\n' || text[a] == '\r'))
		a++;
	if (a >= len || text[a] != 'S')
		return 0;
	a++;
	while (a < len && (text[a] == ' ' || text[a] == '\t'))
		a++;
	return a < len && text[a] == ';';
}

int ms_rts_dsl_parse(ms_dsl_prog *p, const char *what, const char *text, size_t len, unsigned flags)
{
	parser ps;
	ms_buf listing;
	int rc, root = -1, *pos = NULL, k = 0;

	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	ps.g = ms_dsl_prog_grammar(p);
	ps.ctx = ms_dsl_prog_ctx(p);
	ps.what = what ? what : "program";
	ps.text = text ? text : "";
	ps.len = text ? len : 0;
	ps.line = ps.col = 1;
	ps.flags = flags;
	ms_buf_init(&listing, ps.ctx);
	ms_dsl_prog_clear(p);
	if (!ms_rts_dsl_grammar_is(ps.g))
		return ms_ctx_error(ps.ctx, MS_EINVAL, "%s: the program's grammar is not the MicroRTS DSL's", ps.what);
	load_ids(&ps);
	if (memchr(ps.text, '\0', ps.len))
		return ms_ctx_error(ps.ctx, MS_EPARSE, "%s: the text contains a NUL byte", ps.what);
	if (looks_salve(ps.text, ps.len)) {
		rc = parse_salve(&ps);
		if (rc)
			ms_dsl_prog_clear(p);
		return rc;
	}
	if (rts_dsl_looks_listing(ps.text, ps.len)) {
		if ((rc = rts_dsl_listing_to_braces(ps.ctx, ps.what, ps.text, ps.len, &listing)))
			goto done;
		ps.text = listing.data;
		ps.len = listing.len;
	}
	next(&ps);
	if ((rc = parse_stmts(&ps, -1, &root)))
		goto done;
	if (!(pos = ms_ctx_malloc(ps.ctx, sizeof(int) * (size_t)(ps.n + 1)))) {
		rc = ms_ctx_error(ps.ctx, MS_ENOMEM, "%s: out of memory", ps.what);
		goto done;
	}
	if ((rc = emit(&ps, root, pos, &k)) || (rc = ms_dsl_prog_finish(p, RD_NT_S)))
		goto done;
	if (!(flags & MS_RTS_DSL_PARSE_UNBOUND)) {
		int bad = first_unbound(p);
		if (bad >= 0) {
			const pnode *pn = &ps.pool[pos[bad]];
			char name[64];
			node_text(p, bad, name, sizeof(name));
			rc = ms_ctx_error(ps.ctx, MS_EINVAL,
					  "%s: line %d, column %d: %s uses the unit u outside any for loop (the reference "
					  "interpreter throws there; put it inside for(Unit u){...})",
					  ps.what, pn->line, pn->col, name);
		}
	}
done:
	if (rc)
		ms_dsl_prog_clear(p);
	ms_ctx_mfree(ps.ctx, pos);
	ms_ctx_mfree(ps.ctx, ps.pool);
	ms_buf_dispose(&listing);
	return rc;
}

int ms_rts_dsl_parse_file(ms_dsl_prog *p, const char *path, unsigned flags)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if ((rc = ms_read_file_upto(ctx, path, "program file", (size_t)64 << 20, &buf, &len)) < 0)
		return rc;
	rc = ms_rts_dsl_parse(p, path, buf, len, flags);
	ms_ctx_mfree(ctx, buf);
	return rc;
}
