/*
 * The Can't Stop DSL runner's private layout, shared by the interpreter
 * (dsl_interp.c: compilation, values, numpy semantics, the walk), the value
 * printer (dsl_value.c) and programs as players and their scores
 * (dsl_player.c).
 */
#ifndef MS_GAMES_CANTSTOP_DSL_RUNNER_H
#define MS_GAMES_CANTSTOP_DSL_RUNNER_H

#include "dsl_internal.h"

/* Instructions beyond the productions: a wrapper fused with its value. */
enum {
	CSI_CONST = MS_CS_P_COUNT, /* arg: the value */
	CSI_NEUTRALS,
	CSI_ACTIONS,
	CSI_PROGRESS_VALUE,
	CSI_MOVE_VALUE,
	CSI_MARKER,
	CSI_COUNT
};

/* Deepest program the runner accepts (the walk is recursive) and largest arena. */
#define CSR_MAX_DEPTH 2000
#define CSR_MAX_CELLS (UINT32_C(1) << 22)
/* Deepest nesting of lists a Sum or Argmax accepts as an array. */
#define CSR_MAX_DIMS 64
/* csr_as_array: a ragged nesting, under MS_CS_DSL_RAGGED_OBJECT. */
#define CSR_RAGGED 1

typedef struct csr_val {
	uint8_t kind;  /* MS_CS_VAL_* */
	uint8_t tuple; /* LIST: a tuple of `actions` (only printing differs) */
	uint8_t pad[2];
	uint32_t len;  /* LIST: elements */
	union {
		int64_t i;    /* INT, NPINT, BOOL, STR */
		double f;     /* FLOAT */
		uint32_t off; /* LIST: first cell */
	} u;
} csr_val;

typedef struct csr_ins {
	int16_t op;
	int16_t leaf; /* no children: evaluated without a call */
	int32_t arg;  /* CSI_CONST: the value */
	int32_t end;  /* one past this instruction's subtree */
	int32_t node; /* the program node, for messages */
} csr_ins;

struct ms_cs_dsl_runner {
	ms_ctx *ctx;
	const ms_cs_dsl *d;
	csr_ins *code;
	int n_code, cap_code;
	int root_nt; /* -1: nothing loaded */
	csr_val *cells;
	uint32_t top, cap;
	ms_cs_program program;

	/* One evaluation. */
	const ms_cs_env *env;
	ms_ctx *ectx; /* where errors go (may be NULL) */
	int yes_no_safe; /* the yes/no program cannot raise (csr_safe_scalar) */
	int have_int, have_list, have_neutrals, have_actions, have_difficulty;
	int difficulty;
	int64_t loc_int;
	csr_val loc_list, neutrals, actions;
};

static inline int csr_numeric(const csr_val *v)
{
	return v->kind <= MS_CS_VAL_BOOL;
}

static inline double csr_as_double(const csr_val *v)
{
	return v->kind == MS_CS_VAL_FLOAT ? v->u.f : (double)v->u.i;
}

/* "a Python int", "a numpy float64", ...: a value's kind in messages. */
const char *csr_kind_name(const csr_val *v);
/* A run-time error at instruction `pc`, as the reference raises it (MS_ERANGE; a message when r->ectx is set). */
int csr_fail(ms_cs_dsl_runner *r, int pc, const char *fmt, ...) MS_PRINTF(3, 4);

/* Evaluates the loaded program on `env` into *out; errors go to `ectx` (may be NULL). */
int csr_run(ms_cs_dsl_runner *r, ms_ctx *ectx, const ms_cs_env *env, csr_val *out);

#endif
