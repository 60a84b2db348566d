/*
 * The dissertation's Python-like listings, rewritten line for line into the
 * brace form that the parser (rts_dsl_parse.c) reads.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "rts_dsl_internal.h"

/* ---- the dissertation's listing form ----------------------------------------- */

/*
 * The dissertation prints programs Python-style: `def NAME(state s):`, then
 * `for u in s:` and `if B:` / `else:` with indented blocks, one statement a
 * line, often with line numbers in front. Such text is rewritten line for
 * line into the brace form (line numbers blanked, `for u in s:` becoming
 * `for(u){`, blocks closed at the end of their last line), so the parser
 * above reads it and its errors keep their line numbers.
 */

typedef struct lline {
	const char *s; /* start of the line */
	int len;       /* without the newline and trailing blanks */
	int num;       /* leading line-number digits to blank out */
	int indent;    /* column of the first significant character (0-based) */
	int blank;     /* nothing significant (empty or comment) */
} lline;

static void split_line(const char *s, int len, lline *l)
{
	int i = 0;

	l->s = s;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	l->len = len;
	l->num = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && rts_dsl_is_digit(s[i])) {
		int j = i;
		while (j < len && rts_dsl_is_digit(s[j]))
			j++;
		if (j == len || s[j] == ' ' || s[j] == '\t') {
			l->num = j;
			i = j;
			while (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
		}
	}
	l->indent = i;
	l->blank = i >= len || s[i] == '#' || (s[i] == '/' && i + 1 < len && s[i + 1] == '/');
}

/* The text of line l from its first significant character. */
static int starts(const lline *l, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(l->len - l->indent) >= n && !memcmp(l->s + l->indent, w, n);
}

static int ends_with_colon(const lline *l)
{
	return l->len > l->indent && l->s[l->len - 1] == ':';
}

/* 1 when the first significant line opens a listing (`def ...:` or `for ... in ...:`). */
int rts_dsl_looks_listing(const char *text, size_t len)
{
	size_t at = 0;

	while (at < len) {
		size_t e = at;
		lline l;
		while (e < len && text[e] != '\n')
			e++;
		split_line(text + at, (int)(e - at), &l);
		if (!l.blank) {
			int for_in = 0;
			/* " in " inside the line (the text need not end with a NUL) */
			for (int i = l.indent + 3; starts(&l, "for ") && i + 4 <= l.len && !for_in; i++)
				for_in = !memcmp(l.s + i, " in ", 4);
			return (starts(&l, "def ") || for_in) && ends_with_colon(&l);
		}
		at = e + 1;
	}
	return 0;
}

typedef struct lblock {
	int indent; /* the header's indentation */
	int braces; /* 0 for def: no brace to close */
	int header; /* line of the header */
	int body;   /* indentation of the body, -1 until its first line */
} lblock;

static int listing_error(ms_ctx *ctx, const char *what, int line, int col, const char *msg)
{
	return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d, column %d: %s", what, line, col, msg);
}

/* Puts '}' at the end of the last significant line (at *last_end), before
 * the blank lines and comments that followed it. */
static int close_brace(ms_buf *out, size_t *last_end)
{
	size_t at = *last_end, tail = out->len - at;
	int rc = ms_buf_append(out, "}", 1); /* grows the buffer by one */
	if (rc)
		return rc;
	memmove(out->data + at + 1, out->data + at, tail);
	out->data[at] = '}';
	(*last_end)++;
	return 0;
}

int rts_dsl_listing_to_braces(ms_ctx *ctx, const char *what, const char *text, size_t len, ms_buf *out)
{
	lblock stack[64];
	int depth = 0, line = 0, rc = MS_OK, defs = 0;
	size_t at = 0, last_end = 0; /* where the last significant line ends in `out` */

	while (at <= len && rc == MS_OK) {
		size_t e = at;
		lline l;
		const char *body;
		int blen;
		while (e < len && text[e] != '\n')
			e++;
		line++;
		split_line(text + at, (int)(e - at), &l);
		body = l.s + l.indent;
		blen = l.len - l.indent;
		if (l.blank) {
			rc = ms_buf_append(out, "\n", 1);
			at = e + 1;
			continue;
		}
		/* close the blocks this line is not inside */
		while (depth > 0 && l.indent <= stack[depth - 1].indent) {
			if (stack[depth - 1].body < 0)
				return listing_error(ctx, what, line, l.indent + 1, "expected an indented block");
			if (stack[depth - 1].braces) {
				if ((rc = close_brace(out, &last_end)))
					return rc;
			}
			depth--;
		}
		if (depth > 0) {
			lblock *b = &stack[depth - 1];
			if (b->body < 0)
				b->body = l.indent;
			else if (l.indent != b->body)
				return listing_error(ctx, what, line, l.indent + 1,
						     "indentation does not match the block's other lines");
		}
		/* the line, blanks kept so that columns stay where they were */
		for (int i = 0; i < l.indent && !rc; i++)
			rc = ms_buf_append(out, l.s[i] == '\t' ? "\t" : " ", 1);
		if (rc)
			return rc;
		if (ends_with_colon(&l) && (starts(&l, "def ") || starts(&l, "for ") || starts(&l, "if ") ||
					    starts(&l, "if(") || starts(&l, "else"))) {
			int braces = 1;
			if (depth == 64)
				return listing_error(ctx, what, line, l.indent + 1, "nested too deeply");
			if (starts(&l, "def ")) {
				if (depth > 0 || defs++)
					return listing_error(ctx, what, line, l.indent + 1,
							     "one def per program, at the top");
				braces = 0;
			} else if (starts(&l, "for ")) {
				rc = ms_buf_puts(out, "for(u){");
			} else if (starts(&l, "if(")) {
				/* `if(B):` -> `if(B){` */
				rc = ms_buf_append(out, body, (size_t)(blen - 1));
				if (!rc)
					rc = ms_buf_append(out, "{", 1);
			} else if (starts(&l, "if")) {
				/* `if B:` -> `if(B){`: the condition keeps its columns */
				rc = ms_buf_append(out, "if(", 3);
				if (!rc)
					rc = ms_buf_append(out, body + 3, (size_t)(blen - 4));
				if (!rc)
					rc = ms_buf_append(out, "){", 2);
			} else {
				int k = 4;
				while (k < blen - 1 && (body[k] == ' ' || body[k] == '\t'))
					k++;
				if (k != blen - 1)
					return listing_error(ctx, what, line, l.indent + 1, "expected 'else:'");
				rc = ms_buf_puts(out, "else{");
			}
			if (starts(&l, "for ")) {
				/* for u in s: exactly */
				const char *c = body + 4, *end = l.s + l.len;
				while (c < end && *c == ' ')
					c++;
				if (end - c < 2 || c[0] != 'u' || c[1] != ' ')
					return listing_error(ctx, what, line, (int)(c - l.s) + 1,
							     "expected 'u' (the loop variable: for u in s:)");
			}
			stack[depth].indent = l.indent;
			stack[depth].braces = braces;
			stack[depth].header = line;
			stack[depth].body = -1;
			depth++;
		} else {
			rc = ms_buf_append(out, body, (size_t)blen);
		}
		last_end = out->len;
		if (!rc && e < len)
			rc = ms_buf_append(out, "\n", 1);
		at = e + 1;
	}
	if (rc)
		return rc;
	while (depth > 0) {
		if (stack[depth - 1].body < 0)
			return listing_error(ctx, what, stack[depth - 1].header, stack[depth - 1].indent + 1,
					     "expected an indented block after this line");
		if (stack[depth - 1].braces) {
			if ((rc = close_brace(out, &last_end)))
				return rc;
		}
		depth--;
	}
	return ms_buf_append(out, "", 0);
}
