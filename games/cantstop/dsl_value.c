/* Printing the runner's values in Python's notation (ms_cs_dsl_value_format). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "dsl_runner.h"

/* ---- printing values --------------------------------------------------------------- */

typedef struct csr_out {
	char *buf;
	size_t size, len;
} csr_out;

MS_PRINTF(2, 3) static void csr_put(csr_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL, o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void csr_put_float(csr_out *o, double f)
{
	char t[40];

	snprintf(t, sizeof(t), "%.17g", f);
	/* Python writes integral floats with ".0". */
	csr_put(o, "%s%s", t, strpbrk(t, ".eni") ? "" : ".0");
}

static void csr_put_value(const ms_cs_dsl_runner *r, csr_out *o, const csr_val *v)
{
	switch (v->kind) {
	case MS_CS_VAL_INT: csr_put(o, "%lld", (long long)v->u.i); break;
	case MS_CS_VAL_NPINT: csr_put(o, "np.int64(%lld)", (long long)v->u.i); break;
	case MS_CS_VAL_FLOAT:
		csr_put(o, "np.float64(");
		csr_put_float(o, v->u.f);
		csr_put(o, ")");
		break;
	case MS_CS_VAL_BOOL: csr_put(o, "%s", v->u.i ? "True" : "False"); break;
	case MS_CS_VAL_STR: csr_put(o, "'%c'", (char)v->u.i); break;
	default:
		csr_put(o, "%c", v->tuple ? '(' : '[');
		for (uint32_t k = 0; k < v->len; k++) {
			csr_put(o, "%s", k ? ", " : "");
			csr_put_value(r, o, &r->cells[v->u.off + k]);
		}
		csr_put(o, "%s", v->tuple ? (v->len == 1 ? ",)" : ")") : "]");
	}
}

int ms_cs_dsl_value_format(const ms_cs_dsl_runner *r, const ms_cs_dsl_value *v, char *buf, size_t size)
{
	csr_out o = { buf, size, 0 };
	csr_val x;

	if (size)
		buf[0] = '\0';
	memset(&x, 0, sizeof(x));
	x.kind = (uint8_t)v->kind;
	if (v->kind == MS_CS_VAL_LIST) {
		if (v->ref > r->top || v->len > r->top - v->ref)
			return snprintf(buf, size, "<stale list>");
		x.len = v->len;
		x.u.off = v->ref;
		x.tuple = v->i != 0;
	} else if (v->kind == MS_CS_VAL_FLOAT) {
		x.u.f = v->f;
	} else {
		x.u.i = v->i;
	}
	csr_put_value(r, &o, &x);
	return (int)o.len;
}
