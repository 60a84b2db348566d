/*
 * Printing dialect-A programs: the indented form (translateIndentation) and
 * the salve token form (Control.salve). The Java one-line form is
 * ms_dsl_print: the productions' templates are Java's translate().
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "rts_dsl_internal.h"

/* ---- printers -------------------------------------------------------------- */

static int tabs(ms_buf *b, int k)
{
	int rc = MS_OK;
	for (int i = 0; i < k && !rc; i++)
		rc = ms_buf_append(b, "\t", 1);
	return rc;
}

/* The one-line text of subtree i (conditions and commands). */
static int line_of(ms_buf *b, const ms_dsl_prog *p, int i, ms_dsl_prog *tmp)
{
	char *s = NULL;
	int rc;

	ms_dsl_prog_clear(tmp);
	for (int k = i; k < ms_dsl_prog_ends(p)[i]; k++)
		if ((rc = ms_dsl_prog_push(tmp, ms_dsl_prog_nodes(p)[k])))
			return rc;
	if ((rc = ms_dsl_prog_finish(tmp, ms_dsl_node_nt(p, i))) || (rc = ms_dsl_print(tmp, &s, NULL)))
		return rc;
	rc = ms_buf_puts(b, s);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), s);
	return rc;
}

/* translateIndentation(k) of statement i. */
static int pretty(ms_buf *b, const ms_dsl_prog *p, int i, int k, ms_dsl_prog *tmp)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	ms_dsl_sym s = ms_dsl_prog_nodes(p)[i];
	int rc;

	if (ms_dsl_is_hole(s))
		return (rc = tabs(b, k)) ? rc : ms_buf_puts(b, "S");
	switch (ms_dsl_prod_op(g, s)) {
	case MS_RTS_DSL_S_SEQ:
		if ((rc = pretty(b, p, ms_dsl_child(p, i, 0), k, tmp)) || (rc = ms_buf_append(b, "\n", 1)))
			return rc;
		return pretty(b, p, ms_dsl_child(p, i, 1), k, tmp);
	case MS_RTS_DSL_S_FOR:
		if ((rc = tabs(b, k)) || (rc = ms_buf_puts(b, "for(Unit u){\n")) ||
		    (rc = pretty(b, p, ms_dsl_child(p, i, 0), k + 1, tmp)) || (rc = ms_buf_append(b, "\n", 1)) ||
		    (rc = tabs(b, k)))
			return rc;
		return ms_buf_puts(b, "}");
	case MS_RTS_DSL_S_IF:
	case MS_RTS_DSL_S_IFELSE:
		if ((rc = tabs(b, k)) || (rc = ms_buf_puts(b, "if(")) || (rc = line_of(b, p, ms_dsl_child(p, i, 0), tmp)) ||
		    (rc = ms_buf_puts(b, ") then {\n")) || (rc = pretty(b, p, ms_dsl_child(p, i, 1), k + 1, tmp)) ||
		    (rc = ms_buf_append(b, "\n", 1)) || (rc = tabs(b, k)))
			return rc;
		if (ms_dsl_prod_op(g, s) == MS_RTS_DSL_S_IFELSE &&
		    ((rc = ms_buf_puts(b, "} else {\n")) || (rc = pretty(b, p, ms_dsl_child(p, i, 2), k + 1, tmp)) ||
		     (rc = ms_buf_append(b, "\n", 1)) || (rc = tabs(b, k))))
			return rc;
		return ms_buf_puts(b, "}");
	default: /* e, a command, a command hole */
		if ((rc = tabs(b, k)))
			return rc;
		return line_of(b, p, i, tmp);
	}
}

/* `lld`: LLD Synthesis2's tokens, which have no N after Build, Train and Harvest (whatever its value). */
static int print_salve(ms_buf *b, const ms_dsl_prog *p, int lld)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	int rc = MS_OK, n = ms_dsl_prog_len(p), skip = -1;

	for (int i = 0; i < n && !rc; i++) {
		int nt = ms_dsl_node_nt(p, i);
		if (i == skip)
			continue;
		if (lld && !ms_dsl_is_hole(nodes[i])) {
			int op = ms_dsl_prod_op(g, nodes[i]);
			if (op == MS_RTS_DSL_BUILD || op == MS_RTS_DSL_TRAIN || op == MS_RTS_DSL_HARVEST)
				skip = ms_dsl_child(p, i, ms_dsl_prod_arity(g, nodes[i]) - 1);
		}
		if (i > 0)
			rc = ms_buf_append(b, ";", 1);
		if (!rc && (nt == RD_NT_S || nt == RD_NT_B))
			rc = ms_buf_puts(b, nt == RD_NT_S ? "S;" : "B;");
		if (rc)
			break;
		if (ms_dsl_is_hole(nodes[i]))
			rc = ms_buf_printf(b, "?%s", ms_dsl_nt_name(g, ms_dsl_hole_nt(nodes[i])));
		else
			rc = ms_buf_puts(b, ms_dsl_prod_name(g, nodes[i]));
	}
	return rc;
}

int ms_rts_dsl_print(const ms_dsl_prog *p, int form, char **out, size_t *len)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	ms_dsl_prog *tmp = NULL;
	ms_buf b;
	int rc;

	*out = NULL;
	if (form == MS_RTS_DSL_FORM_JAVA)
		return ms_dsl_print(p, out, len);
	if (form != MS_RTS_DSL_FORM_PRETTY && form != MS_RTS_DSL_FORM_SALVE && form != MS_RTS_DSL_FORM_SALVE_LLD)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_rts_dsl_print: unknown form %d", form);
	if (!ms_rts_dsl_grammar_is(ms_dsl_prog_grammar(p)) || ms_dsl_prog_nt(p) != RD_NT_S)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_rts_dsl_print: not a finished MicroRTS DSL program");
	ms_buf_init(&b, ctx);
	if (form == MS_RTS_DSL_FORM_SALVE || form == MS_RTS_DSL_FORM_SALVE_LLD) {
		rc = print_salve(&b, p, form == MS_RTS_DSL_FORM_SALVE_LLD);
	} else if ((rc = ms_dsl_prog_new(ctx, &tmp, ms_dsl_prog_grammar(p))) == MS_OK) {
		rc = pretty(&b, p, 0, 0, tmp);
		ms_dsl_prog_free(tmp);
	}
	if (rc == MS_OK && !b.data)
		rc = ms_buf_append(&b, "", 0);
	if (rc) {
		ms_buf_dispose(&b);
		return rc;
	}
	if (len)
		*len = b.len;
	*out = ms_buf_detach(&b);
	return MS_OK;
}
