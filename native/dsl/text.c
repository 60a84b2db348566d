/* Printing by the productions' templates, and the exact-tree token form. */
#include <string.h>

#include "core/buf.h"
#include "dsl_internal.h"

static int print_node(ms_buf *b, const ms_dsl_prog *p, int i)
{
	const ms_dsl_grammar *g = p->g;
	ms_dsl_sym s = p->node[i];
	if (ms_dsl_is_hole(s))
		return ms_buf_puts(b, g->nts[ms_dsl_hole_nt(s)].name);
	const char *t = g->prods[s].print;
	int rc = 0;
	while (*t && rc == 0) {
		const char *d = strchr(t, '$');
		if (!d)
			return ms_buf_puts(b, t);
		if (d > t && (rc = ms_buf_append(b, t, (size_t)(d - t))) < 0)
			break;
		if (d[1] == '$')
			rc = ms_buf_append(b, "$", 1);
		else
			rc = print_node(b, p, ms_dsl_child(p, i, d[1] - '0'));
		t = d + 2;
	}
	return rc;
}

static int finish_text(ms_buf *b, int rc, char **out, size_t *len)
{
	if (rc == 0 && !b->data)
		rc = ms_buf_append(b, "", 0);
	if (rc < 0) {
		ms_buf_dispose(b);
		return rc;
	}
	if (len)
		*len = b->len;
	*out = ms_buf_detach(b);
	return 0;
}

int ms_dsl_print(const ms_dsl_prog *p, char **out, size_t *len)
{
	*out = NULL;
	if (p->nt < 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program print: program not finished");
	ms_buf b;
	ms_buf_init(&b, p->ctx);
	return finish_text(&b, print_node(&b, p, 0), out, len);
}

int ms_dsl_print_tokens(const ms_dsl_prog *p, char sep, char **out, size_t *len)
{
	*out = NULL;
	if (p->nt < 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program print: program not finished");
	ms_buf b;
	ms_buf_init(&b, p->ctx);
	int rc = 0;
	for (int i = 0; i < p->n && rc == 0; i++) {
		if (i > 0)
			rc = ms_buf_append(&b, &sep, 1);
		ms_dsl_sym s = p->node[i];
		if (rc == 0 && ms_dsl_is_hole(s))
			rc = ms_buf_printf(&b, "?%s", p->g->nts[ms_dsl_hole_nt(s)].name);
		else if (rc == 0)
			rc = ms_buf_puts(&b, p->g->prods[s].name);
	}
	return finish_text(&b, rc, out, len);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int ms_dsl_parse_tokens(ms_dsl_prog *p, const char *text, size_t len, char sep, int nt)
{
	const ms_dsl_grammar *g = p->g;
	ms_dsl_prog_clear(p);
	size_t at = 0;
	for (int k = 1; at <= len; k++) {
		size_t e = at;
		while (e < len && text[e] != sep)
			e++;
		size_t a = at, z = e;
		while (a < z && is_space(text[a]))
			a++;
		while (z > a && is_space(text[z - 1]))
			z--;
		if (a == z)
			return ms_ctx_error(p->ctx, MS_EPARSE, "program tokens: token %d is empty", k);
		int id = -1;
		ms_dsl_sym sym = 0;
		if (text[a] == '?') {
			for (int i = 0; i < g->n_nts && id < 0; i++)
				if (strlen(g->nts[i].name) == z - a - 1 && memcmp(g->nts[i].name, text + a + 1, z - a - 1) == 0)
					id = i;
			sym = ms_dsl_hole(id);
		} else {
			for (int i = 0; i < g->n_prods && id < 0; i++)
				if (strlen(g->prods[i].name) == z - a && memcmp(g->prods[i].name, text + a, z - a) == 0)
					id = i;
			sym = (ms_dsl_sym)id;
		}
		if (id < 0)
			return ms_ctx_error(p->ctx, MS_EPARSE, "program tokens: token %d '%.*s' is not in grammar %s", k,
					    (int)(z - a > 40 ? 40 : z - a), text + a, g->name);
		int rc = ms_dsl_prog_push(p, sym);
		if (rc < 0)
			return rc;
		at = e + 1;
	}
	return ms_dsl_prog_finish(p, nt);
}
