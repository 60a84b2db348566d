/*
 * The printed form of Can't Stop DSL programs (spec/cantstop.md 5.8) read
 * back: a recursive-descent reader driven by the slot being filled, so
 * every production is checked against its slot's table as it is read and
 * errors name the line and column. The form needs no precedence: every
 * binary operation is parenthesised and LT only stands as ITE's
 * condition, whose else branch is mandatory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dsl_internal.h"
#include "core/buf.h"
#include "core/vec.h"

#define CSP_MAX_DEPTH 2000

enum { T_EOF, T_LPAREN, T_RPAREN, T_COMMA, T_LT, T_PLUS, T_MINUS, T_STAR, T_COLON, T_IDENT, T_NUMBER, T_BAD };

typedef struct csp {
	const ms_cs_dsl *d;
	const ms_dsl_grammar *g;
	ms_ctx *ctx;
	const char *what;
	const char *s;
	size_t len, pos, line_start;
	int line;
	/* the current token */
	int tok;
	size_t tpos, tlen;
	int tline, tcol;
	/* the program, in pre-order */
	ms_dsl_sym *out;
	int n, cap, depth;
} csp;

static void csp_next(csp *p)
{
	for (;;) {
		while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\r' ||
					   p->s[p->pos] == '\n')) {
			if (p->s[p->pos] == '\n')
				p->line++, p->line_start = p->pos + 1;
			p->pos++;
		}
		if (p->pos < p->len && p->s[p->pos] == '#') {
			while (p->pos < p->len && p->s[p->pos] != '\n')
				p->pos++;
			continue;
		}
		break;
	}
	p->tpos = p->pos;
	p->tline = p->line;
	p->tcol = (int)(p->pos - p->line_start) + 1;
	p->tlen = 1;
	if (p->pos >= p->len) {
		p->tok = T_EOF;
		p->tlen = 0;
		return;
	}
	char c = p->s[p->pos];
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
		size_t e = p->pos;

		while (e < p->len && ((p->s[e] >= 'a' && p->s[e] <= 'z') || (p->s[e] >= 'A' && p->s[e] <= 'Z') ||
				      (p->s[e] >= '0' && p->s[e] <= '9') || p->s[e] == '_'))
			e++;
		p->tok = T_IDENT;
		p->tlen = e - p->pos;
	} else if (c >= '0' && c <= '9') {
		size_t e = p->pos;

		while (e < p->len && p->s[e] >= '0' && p->s[e] <= '9')
			e++;
		p->tok = T_NUMBER;
		p->tlen = e - p->pos;
	} else {
		switch (c) {
		case '(': p->tok = T_LPAREN; break;
		case ')': p->tok = T_RPAREN; break;
		case ',': p->tok = T_COMMA; break;
		case '<': p->tok = T_LT; break;
		case '+': p->tok = T_PLUS; break;
		case '-': p->tok = T_MINUS; break;
		case '*': p->tok = T_STAR; break;
		case ':': p->tok = T_COLON; break;
		default: p->tok = T_BAD; break;
		}
	}
	p->pos += p->tlen;
}

/* An error at the current token. */
MS_PRINTF(2, 3) static int csp_fail(csp *p, const char *fmt, ...)
{
	char msg[256], found[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->tok == T_EOF) {
		snprintf(found, sizeof(found), "the end of the text");
	} else {
		size_t n = p->tlen > 24 ? 24 : p->tlen;
		char tok[32];
		int k = 0;

		/* Bytes that are not printable are shown as '?'. */
		for (size_t i = 0; i < n; i++)
			tok[k++] = p->s[p->tpos + i] >= 32 && p->s[p->tpos + i] < 127 ? p->s[p->tpos + i] : '?';
		tok[k] = '\0';
		snprintf(found, sizeof(found), "'%s%s'", tok, p->tlen > n ? "..." : "");
	}
	return ms_ctx_error(p->ctx, MS_EPARSE, "%s:%d:%d: %s, found %s", p->what, p->tline, p->tcol, msg, found);
}

static int csp_is(const csp *p, int tok, const char *word)
{
	return p->tok == tok && (!word || (strlen(word) == p->tlen && !memcmp(p->s + p->tpos, word, p->tlen)));
}

static int csp_expect(csp *p, int tok, const char *word, const char *what)
{
	if (!csp_is(p, tok, word))
		return csp_fail(p, "expected %s", what);
	csp_next(p);
	return MS_OK;
}

static int csp_emit(csp *p, int sym)
{
	if (ms_vec_grow(p->ctx, (void **)&p->out, &p->cap, (long long)p->n + 1, sizeof *p->out) < 0)
		return ms_ctx_error(p->ctx, MS_ENOMEM, "%s: out of memory", p->what);
	p->out[p->n++] = (ms_dsl_sym)sym;
	return p->n - 1;
}

/* `prod` must be an alternative of `nt` (checked at the current token). */
static int csp_allowed(csp *p, int nt, int prod)
{
	if (ms_dsl_nt_has(p->g, nt, prod))
		return MS_OK;
	return csp_fail(p, "%s cannot stand where a %s is expected (%s)", ms_dsl_prod_name(p->g, prod),
			ms_dsl_nt_name(p->g, nt), p->d->nt_defs[nt].alts);
}

static int csp_parse(csp *p, int nt);

/* Children of `prod` in order, separated by the literal tokens of its form. */
static int csp_child(csp *p, int prod, int k)
{
	return csp_parse(p, ms_dsl_prod_child_nt(p->g, prod, k));
}

/* A wrapper and its value leaf, from a name or a number. */
static int csp_value(csp *p, int nt, int wrapper, int value)
{
	int rc, vnt = ms_dsl_prod_child_nt(p->g, wrapper, 0);

	if ((rc = csp_allowed(p, nt, wrapper)) < 0)
		return rc;
	if (!ms_dsl_nt_has(p->g, vnt, value))
		return csp_fail(p, "%s is not a value of %s here (%s)", ms_dsl_prod_name(p->g, value),
				ms_dsl_prod_name(p->g, wrapper), p->d->nt_defs[vnt].alts);
	if ((rc = csp_emit(p, wrapper)) < 0 || (rc = csp_emit(p, value)) < 0)
		return rc;
	csp_next(p);
	return MS_OK;
}

static int csp_binary(csp *p, int nt)
{
	/* Plus, Times and Minus share their operand slot; the operator comes after the left one. */
	int at, rc, prod, line = p->tline, col = p->tcol;

	csp_next(p);
	if ((rc = at = csp_emit(p, MS_CS_P_PLUS)) < 0 || (rc = csp_child(p, MS_CS_P_PLUS, 0)) < 0)
		return rc;
	if (p->tok == T_PLUS)
		prod = MS_CS_P_PLUS;
	else if (p->tok == T_MINUS)
		prod = MS_CS_P_MINUS;
	else if (p->tok == T_STAR)
		prod = MS_CS_P_TIMES;
	else
		return csp_fail(p, "expected '+', '-' or '*' (the operation opened at %d:%d)", line, col);
	if (!ms_dsl_nt_has(p->g, nt, prod))
		return ms_ctx_error(p->ctx, MS_EPARSE, "%s:%d:%d: %s cannot stand where a %s is expected (%s)", p->what,
				    line, col, ms_dsl_prod_name(p->g, prod), ms_dsl_nt_name(p->g, nt), p->d->nt_defs[nt].alts);
	p->out[at] = (ms_dsl_sym)prod;
	csp_next(p);
	if ((rc = csp_child(p, prod, 1)) < 0)
		return rc;
	return csp_expect(p, T_RPAREN, NULL, "')' closing the operation");
}

static int csp_word(csp *p, const char *w)
{
	return csp_is(p, T_IDENT, w);
}

static int csp_parse_inner(csp *p, int nt)
{
	int rc;

	if (nt == MS_CS_NT_START) {
		if ((rc = csp_expect(p, T_IDENT, "yes", "'yes-no:'")) < 0 || (rc = csp_expect(p, T_MINUS, NULL, "'yes-no:'")) < 0 ||
		    (rc = csp_expect(p, T_IDENT, "no", "'yes-no:'")) < 0 || (rc = csp_expect(p, T_COLON, NULL, "'yes-no:'")) < 0 ||
		    (rc = csp_emit(p, MS_CS_P_DOUBLE_PROGRAM)) < 0 || (rc = csp_child(p, MS_CS_P_DOUBLE_PROGRAM, 0)) < 0 ||
		    (rc = csp_expect(p, T_IDENT, "column", "'column:'")) < 0 ||
		    (rc = csp_expect(p, T_COLON, NULL, "':' after 'column'")) < 0)
			return rc;
		return csp_child(p, MS_CS_P_DOUBLE_PROGRAM, 1);
	}
	/* A value read on its own (a value non-terminal as the root). */
	if (nt >= MS_CS_NT_CONSTANT) {
		for (int prod = MS_CS_P_CONST_0; prod < MS_CS_P_COUNT; prod++)
			if (ms_dsl_nt_has(p->g, nt, prod) &&
			    csp_is(p, prod <= MS_CS_P_CONST_7 ? T_NUMBER : T_IDENT, csd__prods[prod].name)) {
				if ((rc = csp_emit(p, prod)) < 0)
					return rc;
				csp_next(p);
				return MS_OK;
			}
		return csp_fail(p, "expected a %s (%s)", ms_dsl_nt_name(p->g, nt), p->d->nt_defs[nt].alts);
	}
	/* LT has no leading token: it is the only production of ITE's condition. */
	if (ms_dsl_nt_has(p->g, nt, MS_CS_P_LT)) {
		if ((rc = csp_emit(p, MS_CS_P_LT)) < 0 || (rc = csp_child(p, MS_CS_P_LT, 0)) < 0 ||
		    (rc = csp_expect(p, T_LT, NULL, "'<'")) < 0)
			return rc;
		return csp_child(p, MS_CS_P_LT, 1);
	}
	if (p->tok == T_NUMBER) {
		/* The text is not NUL-terminated: the digits are read by hand. */
		int v = p->tlen > 2 ? 99 : p->s[p->tpos] - '0';

		if (p->tlen == 2)
			v = 10 * v + (p->s[p->tpos + 1] - '0');
		if (p->tlen > 2 || (p->tlen == 2 && p->s[p->tpos] == '0') || v > 7)
			return csp_fail(p, "constants are 0..7 (this grammar: %s)", p->d->nt_defs[MS_CS_NT_CONSTANT].alts);
		return csp_value(p, nt, MS_CS_P_NUMERIC_CONSTANT, MS_CS_P_CONST_0 + v);
	}
	if (p->tok == T_LPAREN) {
		/* "(lambda x : body)" or "(left op right)" */
		size_t save_pos = p->pos, save_ls = p->line_start;
		int save_line = p->line, line = p->tline, col = p->tcol;

		csp_next(p);
		if (!csp_word(p, "lambda")) {
			p->pos = save_pos, p->line_start = save_ls, p->line = save_line;
			p->tok = T_LPAREN, p->tline = line, p->tcol = col, p->tpos = save_pos - 1, p->tlen = 1;
			return csp_binary(p, nt);
		}
		if ((rc = csp_allowed(p, nt, MS_CS_P_FUNCTION)) < 0)
			return rc;
		csp_next(p);
		if ((rc = csp_expect(p, T_IDENT, "x", "'x' after 'lambda'")) < 0 ||
		    (rc = csp_expect(p, T_COLON, NULL, "':' after 'lambda x'")) < 0 ||
		    (rc = csp_emit(p, MS_CS_P_FUNCTION)) < 0 || (rc = csp_child(p, MS_CS_P_FUNCTION, 0)) < 0)
			return rc;
		return csp_expect(p, T_RPAREN, NULL, "')' closing the lambda");
	}
	if (p->tok != T_IDENT)
		return csp_fail(p, "expected a %s (%s)", ms_dsl_nt_name(p->g, nt), p->d->nt_defs[nt].alts);
	if (csp_word(p, "if")) {
		if ((rc = csp_allowed(p, nt, MS_CS_P_ITE)) < 0 || (rc = csp_emit(p, MS_CS_P_ITE)) < 0)
			return rc;
		csp_next(p);
		if ((rc = csp_child(p, MS_CS_P_ITE, 0)) < 0 || (rc = csp_expect(p, T_IDENT, "then", "'then:'")) < 0 ||
		    (rc = csp_expect(p, T_COLON, NULL, "':' after 'then'")) < 0 || (rc = csp_child(p, MS_CS_P_ITE, 1)) < 0 ||
		    (rc = csp_expect(p, T_IDENT, "else", "'else:'")) < 0 ||
		    (rc = csp_expect(p, T_COLON, NULL, "':' after 'else'")) < 0)
			return rc;
		return csp_child(p, MS_CS_P_ITE, 2);
	}
	if (csp_word(p, "sum") || csp_word(p, "argmax") || csp_word(p, "map")) {
		int prod = csp_word(p, "sum") ? MS_CS_P_SUM : csp_word(p, "argmax") ? MS_CS_P_ARGMAX : MS_CS_P_MAP;

		if ((rc = csp_allowed(p, nt, prod)) < 0 || (rc = csp_emit(p, prod)) < 0)
			return rc;
		csp_next(p);
		if ((rc = csp_expect(p, T_LPAREN, NULL, "'('")) < 0 || (rc = csp_child(p, prod, 0)) < 0)
			return rc;
		if (prod == MS_CS_P_MAP &&
		    ((rc = csp_expect(p, T_COMMA, NULL, "',' between the lambda and the list")) < 0 ||
		     (rc = csp_child(p, prod, 1)) < 0))
			return rc;
		return csp_expect(p, T_RPAREN, NULL, "')'");
	}
	if (csp_word(p, "local_list")) {
		if ((rc = csp_allowed(p, nt, MS_CS_P_LOCAL_LIST)) < 0 || (rc = csp_emit(p, MS_CS_P_LOCAL_LIST)) < 0)
			return rc;
		csp_next(p);
		return MS_OK;
	}
	/* Variable names and domain functions are productions named by their text. */
	for (int prod = 0; prod < MS_CS_P_COUNT; prod++) {
		const char *name = csd__prods[prod].name;

		if (ms_dsl_prod_arity(p->g, prod) != 0 || !csp_word(p, name) || (name[0] >= '0' && name[0] <= '9'))
			continue;
		if (prod == MS_CS_P_NEUTRALS || prod == MS_CS_P_ACTIONS)
			return csp_value(p, nt, MS_CS_P_VAR_LIST, prod);
		if (prod == MS_CS_P_PROGRESS_VALUE || prod == MS_CS_P_MOVE_VALUE)
			return csp_value(p, nt, MS_CS_P_VAR_ARRAY, prod);
		if (prod == MS_CS_P_MARKER)
			return csp_value(p, nt, MS_CS_P_VAR_SCALAR, prod);
		if ((rc = csp_allowed(p, nt, prod)) < 0 || (rc = csp_emit(p, prod)) < 0)
			return rc;
		csp_next(p);
		return MS_OK;
	}
	return csp_fail(p, "expected a %s (%s)", ms_dsl_nt_name(p->g, nt), p->d->nt_defs[nt].alts);
}

static int csp_parse(csp *p, int nt)
{
	int rc;

	if (++p->depth > CSP_MAX_DEPTH)
		return csp_fail(p, "program nested deeper than %d", CSP_MAX_DEPTH);
	rc = csp_parse_inner(p, nt);
	p->depth--;
	return rc < 0 ? rc : MS_OK;
}

int ms_cs_dsl_parse(const ms_cs_dsl *d, ms_dsl_prog *prog, const char *text, size_t len, int nt, const char *what)
{
	csp p;
	int rc;

	memset(&p, 0, sizeof(p));
	p.d = d;
	p.g = d->g;
	p.ctx = ms_dsl_prog_ctx(prog);
	p.what = what ? what : "program";
	p.s = text;
	p.len = len;
	p.line = 1;
	ms_dsl_prog_clear(prog);
	if (ms_dsl_prog_grammar(prog) != d->g)
		return ms_ctx_error(p.ctx, MS_EINVAL, "%s: the program is of grammar %s, not %s", p.what,
				    ms_dsl_grammar_name(ms_dsl_prog_grammar(prog)), ms_dsl_grammar_name(d->g));
	if (nt < 0 || nt >= MS_CS_NT_COUNT)
		return ms_ctx_error(p.ctx, MS_EINVAL, "%s: no non-terminal %d", p.what, nt);
	csp_next(&p);
	rc = csp_parse(&p, nt);
	if (rc == 0 && p.tok != T_EOF)
		rc = csp_fail(&p, "expected the end of the program");
	for (int i = 0; rc == 0 && i < p.n; i++)
		rc = ms_dsl_prog_push(prog, p.out[i]);
	if (rc == 0)
		rc = ms_dsl_prog_finish(prog, nt);
	if (rc < 0)
		ms_dsl_prog_clear(prog);
	ms_ctx_mfree(p.ctx, p.out);
	return rc;
}

int ms_cs_dsl_load(const ms_cs_dsl *d, ms_dsl_prog *prog, const char *path)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(prog);
	char *buf = NULL;
	size_t len = 0;
	int rc = ms_read_file_upto(ctx, path, "program", (size_t)64 << 20, &buf, &len);

	if (rc == 0)
		rc = ms_cs_dsl_parse(d, prog, buf, len, MS_CS_NT_START, path);
	ms_ctx_mfree(ctx, buf);
	return rc;
}

int ms_cs_dsl_save(const ms_dsl_prog *prog, const char *path, const char *header)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(prog);
	char *text = NULL;
	FILE *f;
	int rc;

	if ((rc = ms_dsl_print(prog, &text, NULL)) < 0)
		return rc;
	if (!(f = fopen(path, "wb"))) {
		ms_ctx_mfree(ctx, text);
		return ms_ctx_error(ctx, MS_EIO, "%s: cannot create", path);
	}
	for (const char *h = header; h && *h;) {
		const char *e = strchr(h, '\n');
		int n = e ? (int)(e - h) : (int)strlen(h);

		fprintf(f, "# %.*s\n", n, h);
		h = e ? e + 1 : h + n;
	}
	fprintf(f, "%s\n", text);
	rc = ferror(f) ? MS_EIO : MS_OK;
	if (fclose(f) != 0)
		rc = MS_EIO;
	ms_ctx_mfree(ctx, text);
	return rc ? ms_ctx_error(ctx, rc, "%s: write error", path) : MS_OK;
}
