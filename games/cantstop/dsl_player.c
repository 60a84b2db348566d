/* Programs as Can't Stop players, and their cloning scores and win rates. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "dsl_runner.h"

/* ---- programs as players ------------------------------------------------------------- */

static int csr_whole(ms_cs_dsl_runner *r, ms_ctx *ctx)
{
	if (r->root_nt != MS_CS_NT_START)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop dsl player: %s", r->root_nt < 0 ? "no program loaded"
											 : "the loaded program is not a whole program");
	return MS_OK;
}

static int csr_yes_no_value(ms_ctx *ctx, void *ud, const ms_cs_env *env, double *value)
{
	ms_cs_dsl_runner *r = ud;
	csr_val v;
	int rc;

	if ((rc = csr_whole(r, ctx)) < 0)
		return rc;
	/* Forced answers ignore the value; a program that cannot raise need not run for them. */
	if (r->yes_no_safe && (ms_cs_wins_after_stopping(env->state) || ms_cs_neutrals_to_play(env->state))) {
		*value = 0;
		return MS_OK;
	}
	if ((rc = csr_run(r, ctx, env, &v)) < 0)
		return rc;
	/* `score >= threshold`: any number compares; a list or a string would raise. */
	if (!csr_numeric(&v))
		return csr_fail(r, 0, "the yes/no program gave %s, not a number", csr_kind_name(&v));
	*value = csr_as_double(&v);
	return MS_OK;
}

static int csr_column_index(ms_cs_dsl_runner *r, ms_ctx *ctx, const ms_cs_env *env, int64_t *index)
{
	csr_val v;
	int rc;

	if ((rc = csr_whole(r, ctx)) < 0 || (rc = csr_run(r, ctx, env, &v)) < 0)
		return rc;
	/* `actions[index]`: Python and numpy integers (and bools) index; floats raise. */
	if (v.kind != MS_CS_VAL_INT && v.kind != MS_CS_VAL_NPINT && v.kind != MS_CS_VAL_BOOL)
		return csr_fail(r, 0, "the column program gave %s, which cannot index the actions", csr_kind_name(&v));
	*index = v.u.i;
	return MS_OK;
}

static int csr_column_index_cb(ms_ctx *ctx, void *ud, const ms_cs_env *env, int64_t *index)
{
	return csr_column_index(ud, ctx, env, index);
}

static const ms_cs_program *csr_program(ms_cs_dsl_runner *r)
{
	r->program.yes_no_value = csr_yes_no_value;
	r->program.column_index = csr_column_index_cb;
	r->program.ud = r;
	return &r->program;
}

int ms_cs_dsl_runner_yes_no_safe(const ms_cs_dsl_runner *r)
{
	return r->root_nt == MS_CS_NT_START && r->yes_no_safe;
}

const ms_cs_program *ms_cs_dsl_runner_program(const ms_cs_dsl_runner *r)
{
	/* The struct lives in the runner; filling it is idempotent. */
	return csr_program((ms_cs_dsl_runner *)r);
}

void ms_cs_dsl_runner_player(ms_cs_dsl_runner *r, ms_cs_player *out)
{
	ms_cs_player_program(out, csr_program(r));
	out->name = "dsl";
}

/* ---- scores ------------------------------------------------------------------------- */

int ms_cs_dsl_clone_score(ms_cs_dsl_runner *r, const ms_cs_dataset *ds, int which, uint64_t seed, double *score)
{
	ms_cs_player p;
	int rc;

	*score = 0;
	if ((rc = csr_whole(r, r->ctx)) < 0)
		return rc;
	ms_cs_dsl_runner_player(r, &p);
	if (which == MS_CS_SCORE_OBSERVATION)
		return ms_cs_score_observation(r->ctx, ds, &p, seed, score);
	if (which == MS_CS_SCORE_ACTION)
		return ms_cs_score_action(r->ctx, ds, &p, seed, score);
	return ms_ctx_error(r->ctx, MS_EINVAL, "cantstop dsl: unknown cloning score %d", which);
}

int ms_cs_dsl_evaluate(ms_cs_dsl_runner *r, const ms_cs_match_options *opts, const ms_cs_player *opponent,
		       uint64_t seed, long first, long count, ms_cs_eval_result *acc)
{
	ms_cs_player p, ga;
	int rc;

	if ((rc = csr_whole(r, r->ctx)) < 0)
		return rc;
	ms_cs_dsl_runner_player(r, &p);
	if (!opponent) {
		ms_cs_player_ga(&ga, NULL, 0);
		opponent = &ga;
	}
	return ms_cs_evaluate(r->ctx, opts, &p, opponent, seed, first, count, acc);
}
