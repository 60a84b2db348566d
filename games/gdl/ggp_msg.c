/*
 * GGP protocol messages: KIF S-expressions read into spans of the text.
 * Only the message's shape is read here; the rules inside a START are
 * handed to the GDL parser as they came, and moves are compared in
 * ggp-base's compact print form. Command names and NIL are case-insensitive
 * (ggp-base lowercases the command; managers send both cases).
 */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gdl_ggp.h"

#define ID_MAX 200 /* match ids and role names longer than this are refused */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Past blanks and ';' comments from i. */
static size_t skip_blank(const char *s, size_t len, size_t i)
{
	while (i < len) {
		if (is_space(s[i]) || s[i] == '\0')
			i++;
		else if (s[i] == ';')
			while (i < len && s[i] != '\n')
				i++;
		else
			break;
	}
	return i;
}

/* The element starting at i (not blank) into *el; returns the index past it, or 0 if unbalanced. */
static size_t read_element(const char *s, size_t len, size_t i, ms_ggp_span *el)
{
	size_t start = i;
	if (s[i] == ')')
		return 0;
	if (s[i] != '(') {
		while (i < len && !is_space(s[i]) && s[i] != '(' && s[i] != ')' && s[i] != ';' && s[i])
			i++;
		*el = (ms_ggp_span){ s + start, i - start, 0 };
		return i;
	}
	long depth = 0;
	while (i < len) {
		char c = s[i];
		if (c == ';') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		i++;
		if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0) {
			*el = (ms_ggp_span){ s + start, i - start, 1 };
			return i;
		}
	}
	return 0;
}

int ms_gdl_ggp_elements(const ms_ggp_span *span, ms_ggp_span *el, int max, int *n)
{
	const char *s = span->s;
	size_t len = span->n, i = 0;
	*n = 0;
	if (span->list) { /* inside the parentheses */
		s++;
		len = len >= 2 ? len - 2 : 0;
	}
	for (;;) {
		ms_ggp_span e;
		i = skip_blank(s, len, i);
		if (i >= len)
			return MS_OK;
		size_t j = read_element(s, len, i, &e);
		if (!j)
			return MS_EPARSE;
		if (*n < max)
			el[*n] = e;
		(*n)++;
		i = j;
	}
}

size_t ms_gdl_ggp_term_text(const ms_ggp_span *term, char *buf, size_t size)
{
	size_t out = 0;
	int need_space = 0;
	for (size_t i = 0; i < term->n;) {
		char c = term->s[i];
		if (is_space(c) || c == '\0') {
			i++;
			continue;
		}
		if (c == ';') {
			while (i < term->n && term->s[i] != '\n')
				i++;
			continue;
		}
		/* "(a b)": a space between two items, none after "(" or before ")" */
		int sp = need_space && c != ')';
		size_t start = i;
		if (c == '(' || c == ')')
			i++;
		else
			while (i < term->n && !is_space(term->s[i]) && term->s[i] != '(' && term->s[i] != ')' &&
			       term->s[i] != ';' && term->s[i])
				i++;
		if (sp) {
			if (out + 1 < size)
				buf[out] = ' ';
			out++;
		}
		for (size_t k = start; k < i; k++, out++)
			if (out + 1 < size)
				buf[out] = term->s[k];
		need_space = c != '(';
	}
	if (size)
		buf[out < size ? out : size - 1] = '\0';
	return out;
}

static int bad(char *err, size_t size, const char *what)
{
	snprintf(err, size, "%s", what);
	return MS_EPARSE;
}

/* A clock: a number of seconds, at least 0. */
static int read_clock(const ms_ggp_span *sp, double *out)
{
	char buf[64], *end;
	if (sp->list || sp->n == 0 || sp->n >= sizeof buf)
		return -1;
	memcpy(buf, sp->s, sp->n);
	buf[sp->n] = '\0';
	double v = strtod(buf, &end);
	if (*end || !(v >= 0) || v > 1e7)
		return -1;
	*out = v;
	return 0;
}

static int is_atom(const ms_ggp_span *sp)
{
	return !sp->list && sp->n > 0 && sp->n <= ID_MAX;
}

/* The arguments of each command: count and kinds. */
static int read_args(ms_ggp_msg *m, const ms_ggp_span *el, int n, char *err, size_t size)
{
	switch (m->type) {
	case MS_GGP_INFO:
		return n == 1 ? MS_OK : bad(err, size, "INFO takes no arguments");
	case MS_GGP_PREVIEW:
		if (n != 3 || !el[1].list || read_clock(&el[2], &m->start_clock))
			return bad(err, size, "PREVIEW needs (PREVIEW (rules...) clock)");
		m->rules = (ms_ggp_span){ el[1].s + 1, el[1].n - 2, 0 };
		return MS_OK;
	case MS_GGP_START:
		if (n < 6 || !is_atom(&el[1]) || !is_atom(&el[2]) || !el[3].list)
			return bad(err, size, "START needs (START id role (rules...) startclock playclock)");
		if (read_clock(&el[4], &m->start_clock) || read_clock(&el[5], &m->play_clock))
			return bad(err, size, "START: the clocks must be numbers of seconds");
		m->id = el[1], m->role = el[2];
		m->rules = (ms_ggp_span){ el[3].s + 1, el[3].n - 2, 0 };
		return MS_OK;
	case MS_GGP_PLAY:
	case MS_GGP_STOP:
		if (n != 3 || !is_atom(&el[1]))
			return bad(err, size, m->type == MS_GGP_PLAY ? "PLAY needs (PLAY id (moves...)|NIL)"
								     : "STOP needs (STOP id (moves...)|NIL)");
		m->id = el[1], m->moves = el[2];
		return MS_OK;
	default:
		if (n != 2 || !is_atom(&el[1]))
			return bad(err, size, "ABORT needs (ABORT id)");
		m->id = el[1];
		return MS_OK;
	}
}

int ms_gdl_ggp_parse(const char *text, size_t len, ms_ggp_msg *m, char *err, size_t size)
{
	static const char *const names[] = { "info", "preview", "start", "play", "stop", "abort" };
	ms_ggp_span whole = { text, len, 0 }, top[2], el[8];
	int n;
	memset(m, 0, sizeof *m);
	if (ms_gdl_ggp_elements(&whole, top, 2, &n))
		return bad(err, size, "unbalanced parentheses");
	if (n != 1 || !top[0].list)
		return bad(err, size, n ? "not one parenthesised message" : "empty message");
	if (ms_gdl_ggp_elements(&top[0], el, 8, &n))
		return bad(err, size, "unbalanced parentheses");
	if (n == 0 || el[0].list)
		return bad(err, size, "no command word");
	for (int i = 0; i < 6; i++)
		if (el[0].n == strlen(names[i]) && !strncasecmp(el[0].s, names[i], el[0].n))
			m->type = MS_GGP_INFO + i;
	if (!m->type) {
		snprintf(err, size, "unknown command '%.*s'", (int)(el[0].n > 40 ? 40 : el[0].n), el[0].s);
		return MS_EPARSE;
	}
	return read_args(m, el, n, err, size);
}
