/*
 * The Can't Stop DSL's grammar (spec/cantstop.md 5.2, 5.8, 5.9): the
 * production tables in force for the searches, registered with dsl.h; the
 * reference's random generation (a game sampler, because dsl.h's default
 * counts depth from the node rather than its parent and treats value
 * wrappers as unary), its mutation, and the built-in program texts.
 */
#include <stdio.h>
#include <string.h>

#include "dsl_internal.h"
#include "core/opts.h"

/*
 * Sizes follow the reference's Node.size: wrappers, LocalList and
 * DoubleProgram start at 0, everything else at 1, and a wrapper's value
 * adds 1. Templates are the reference's to_string.
 */
const ms_dsl_prod_def csd__prods[MS_CS_P_COUNT] = {
	[MS_CS_P_DOUBLE_PROGRAM] = { "DoubleProgram", "yes-no: $0\ncolumn: $1", "Program Program",
				     MS_CS_P_DOUBLE_PROGRAM, 0, 0 },
	[MS_CS_P_ITE] = { "ITE", "if $0 then: $1 else: $2", "Cond Block Block", MS_CS_P_ITE, 1, 0 },
	[MS_CS_P_LT] = { "LT", "$0 < $1", "Compared Compared", MS_CS_P_LT, 1, 0 },
	[MS_CS_P_SUM] = { "Sum", "sum($0)", "Aggregated", MS_CS_P_SUM, 1, 0 },
	[MS_CS_P_ARGMAX] = { "Argmax", "argmax($0)", "Aggregated", MS_CS_P_ARGMAX, 1, 0 },
	[MS_CS_P_MAP] = { "Map", "map($0, $1)", "Lambda Mapped", MS_CS_P_MAP, 1, 0 },
	[MS_CS_P_FUNCTION] = { "Function", "(lambda x : $0)", "Body", MS_CS_P_FUNCTION, 1, 0 },
	[MS_CS_P_PLUS] = { "Plus", "($0 + $1)", "Operand Operand", MS_CS_P_PLUS, 1, 0 },
	[MS_CS_P_TIMES] = { "Times", "($0 * $1)", "Operand Operand", MS_CS_P_TIMES, 1, 0 },
	[MS_CS_P_MINUS] = { "Minus", "($0 - $1)", "Operand Operand", MS_CS_P_MINUS, 1, 0 },
	[MS_CS_P_LOCAL_LIST] = { "LocalList", "local_list", NULL, MS_CS_P_LOCAL_LIST, 0, 0 },
	[MS_CS_P_ADVANCED_THIS_ROUND] = { "NumberAdvancedThisRound", NULL, NULL, MS_CS_P_ADVANCED_THIS_ROUND, 1, 0 },
	[MS_CS_P_ADVANCED_BY_ACTION] = { "NumberAdvancedByAction", NULL, NULL, MS_CS_P_ADVANCED_BY_ACTION, 1, 0 },
	[MS_CS_P_PLAYER_SECURED] = { "PositionsPlayerHasSecuredInColumn", NULL, NULL, MS_CS_P_PLAYER_SECURED, 1, 0 },
	[MS_CS_P_OPPONENT_SECURED] = { "PositionsOpponentHasSecuredInColumn", NULL, NULL, MS_CS_P_OPPONENT_SECURED,
				       1, 0 },
	[MS_CS_P_DIFFICULTY] = { "DifficultyScore", NULL, NULL, MS_CS_P_DIFFICULTY, 1, 0 },
	[MS_CS_P_IS_NEW_NEUTRAL] = { "IsNewNeutral", NULL, NULL, MS_CS_P_IS_NEW_NEUTRAL, 1, 0 },
	[MS_CS_P_WINS_AFTER_STOP] = { "PlayerWinsAfterStopping", NULL, NULL, MS_CS_P_WINS_AFTER_STOP, 1, 0 },
	[MS_CS_P_NEUTRALS_TO_PLAY] = { "AreThereNeutralsToPlay", NULL, NULL, MS_CS_P_NEUTRALS_TO_PLAY, 1, 0 },
	[MS_CS_P_NUMERIC_CONSTANT] = { "NumericConstant", "$0", "Constant", MS_CS_P_NUMERIC_CONSTANT, 0, 0 },
	[MS_CS_P_VAR_LIST] = { "VarList", "$0", "ListName", MS_CS_P_VAR_LIST, 0, 0 },
	[MS_CS_P_VAR_ARRAY] = { "VarScalarFromArray", "$0", "ArrayName", MS_CS_P_VAR_ARRAY, 0, 0 },
	[MS_CS_P_VAR_SCALAR] = { "VarScalar", "$0", "ScalarName", MS_CS_P_VAR_SCALAR, 0, 0 },
	[MS_CS_P_CONST_0 + 0] = { "0", NULL, NULL, MS_CS_P_CONST_0 + 0, 1, 0 },
	[MS_CS_P_CONST_0 + 1] = { "1", NULL, NULL, MS_CS_P_CONST_0 + 1, 1, 0 },
	[MS_CS_P_CONST_0 + 2] = { "2", NULL, NULL, MS_CS_P_CONST_0 + 2, 1, 0 },
	[MS_CS_P_CONST_0 + 3] = { "3", NULL, NULL, MS_CS_P_CONST_0 + 3, 1, 0 },
	[MS_CS_P_CONST_0 + 4] = { "4", NULL, NULL, MS_CS_P_CONST_0 + 4, 1, 0 },
	[MS_CS_P_CONST_0 + 5] = { "5", NULL, NULL, MS_CS_P_CONST_0 + 5, 1, 0 },
	[MS_CS_P_CONST_0 + 6] = { "6", NULL, NULL, MS_CS_P_CONST_0 + 6, 1, 0 },
	[MS_CS_P_CONST_0 + 7] = { "7", NULL, NULL, MS_CS_P_CONST_0 + 7, 1, 0 },
	[MS_CS_P_NEUTRALS] = { "neutrals", NULL, NULL, MS_CS_P_NEUTRALS, 1, 0 },
	[MS_CS_P_ACTIONS] = { "actions", NULL, NULL, MS_CS_P_ACTIONS, 1, 0 },
	[MS_CS_P_PROGRESS_VALUE] = { "progress_value", NULL, NULL, MS_CS_P_PROGRESS_VALUE, 1, 0 },
	[MS_CS_P_MOVE_VALUE] = { "move_value", NULL, NULL, MS_CS_P_MOVE_VALUE, 1, 0 },
	[MS_CS_P_MARKER] = { "marker", NULL, NULL, MS_CS_P_MARKER, 1, 0 },
};

/* Non-terminal names, in MS_CS_NT_* order. */
static const char *const csd_nt_names[MS_CS_NT_COUNT] = {
	"Start", "Program", "Cond", "Block", "Compared", "Operand", "Aggregated",
	"Lambda", "Mapped", "Body", "Constant", "ListName", "ArrayName", "ScalarName",
};

/*
 * The tables of spec 5.2, as restore_original_production_rules writes them
 * and filter_production_rules leaves them for the searches (the order of
 * the alternatives is the order of the reference's source lines; the
 * reference draws from Python sets, uniformly, so the order only matters
 * for which program a given random number makes).
 */
static const char *const csd_alts[MS_CS_NT_COUNT] = {
	[MS_CS_NT_START] = "DoubleProgram",
	[MS_CS_NT_PROGRAM] = "ITE Argmax Sum Plus Times Minus",
	[MS_CS_NT_COND] = "LT",
	[MS_CS_NT_BLOCK] = "Sum Argmax Plus Times Minus ITE",
	[MS_CS_NT_COMPARED] = "NumericConstant Plus Times Minus Sum",
	[MS_CS_NT_OPERAND] = "VarScalarFromArray NumberAdvancedThisRound NumberAdvancedByAction NumericConstant "
			     "Plus Times Minus Sum PositionsOpponentHasSecuredInColumn "
			     "PositionsPlayerHasSecuredInColumn DifficultyScore",
	[MS_CS_NT_AGGREGATED] = "Map VarList LocalList",
	[MS_CS_NT_LAMBDA] = "Function",
	[MS_CS_NT_MAPPED] = "VarList Map LocalList",
	[MS_CS_NT_BODY] = "Minus Plus Times Sum Map",
	[MS_CS_NT_CONSTANT] = NULL, /* from the options */
	[MS_CS_NT_LIST_NAME] = "neutrals actions",
	[MS_CS_NT_ARRAY_NAME] = "progress_value move_value",
	[MS_CS_NT_SCALAR_NAME] = "marker",
};

/* What the extended grammar adds to the operands of Plus, Times and Minus. */
static const char csd_extended_operands[] = " VarScalar IsNewNeutral PlayerWinsAfterStopping AreThereNeutralsToPlay";

/*
 * The reference's fill_random_program: a node's children are drawn
 * uniformly among their slot's alternatives, except below a node at depth
 * >= max_depth (the root is at depth 0), where the draw is among the
 * terminals (leaves and value wrappers), else those with one child, else
 * all. dsl.h's default sampler limits the node at depth >= max_depth
 * itself and counts wrappers as unary, hence this sampler.
 */
static int csd_sampler(ms_dsl_gen *gen, int nt, int budget, int depth, void *user)
{
	const ms_cs_dsl *d = user;
	const csd__nt *info = &d->nt[nt];
	const uint16_t *set = info->alts;
	int n = info->n_alts, rc;
	int32_t k;

	if (depth > d->gen.max_depth) {
		if (info->n_terminal)
			set = info->terminal, n = info->n_terminal;
		else if (info->n_unary)
			set = info->unary, n = info->n_unary;
	}
	if ((rc = ms_jrandom_next_int_bounded(ms_dsl_gen_rng(gen), n, &k)) < 0)
		return rc;
	int prod = set[k];
	if ((rc = ms_dsl_gen_emit(gen, (ms_dsl_sym)prod)) < 0)
		return rc;
	const ms_dsl_grammar *g = ms_dsl_gen_grammar(gen);
	for (int c = 0; c < ms_dsl_prod_arity(g, prod); c++)
		if ((rc = ms_dsl_gen_sample(gen, ms_dsl_prod_child_nt(g, prod, c), budget, depth + 1)) < 0)
			return rc;
	return 0;
}

static void csd_split(ms_cs_dsl *d, int nt)
{
	csd__nt *info = &d->nt[nt];
	int n;
	const uint16_t *alts = ms_dsl_nt_alts(d->g, nt, &n);

	info->n_alts = info->n_terminal = info->n_unary = 0;
	for (int a = 0; a < n; a++) {
		int arity = ms_dsl_prod_arity(d->g, alts[a]);

		info->alts[info->n_alts++] = alts[a];
		if (arity == 0 || csd__is_wrapper(alts[a]))
			info->terminal[info->n_terminal++] = alts[a];
		else if (arity == 1)
			info->unary[info->n_unary++] = alts[a];
	}
}

int ms_cs_dsl_new(ms_ctx *ctx, ms_cs_dsl **out, const ms_cs_dsl_options *opts)
{
	static const char *const names[4] = { "cantstop", "cantstop-ibr", "cantstop-ext", "cantstop-ibr-ext" };
	ms_cs_dsl *d;
	int rc;

	*out = NULL;
	if (opts && opts->version != MS_CS_DSL_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop dsl: unknown options version %u", opts->version);
	if (opts && (opts->constants < MS_CS_DSL_CONSTANTS_01 || opts->constants > MS_CS_DSL_CONSTANTS_1_TO_7 ||
		     opts->max_depth < 0 || opts->max_depth > 64 || opts->ragged < MS_CS_DSL_RAGGED_ERROR ||
		     opts->ragged > MS_CS_DSL_RAGGED_OBJECT))
		return ms_ctx_error(ctx, MS_EINVAL, "cantstop dsl: constants %d, max_depth %d or ragged %d out of range",
				    opts->constants, opts->max_depth, opts->ragged);
	if (!(d = ms_ctx_calloc(ctx, 1, sizeof(*d))))
		return ms_ctx_error(ctx, MS_ENOMEM, "cantstop dsl: out of memory");
	d->ctx = ctx;
	if (opts)
		d->opts = *opts;
	d->opts.version = MS_CS_DSL_OPTIONS_VERSION;
	d->opts.extended = d->opts.extended != 0;
	if (d->opts.max_depth == 0)
		d->opts.max_depth = 4;
	d->gen.version = MS_DSL_GEN_OPTIONS_VERSION;
	d->gen.max_depth = d->opts.max_depth;
	for (int i = 0; i < MS_CS_NT_COUNT; i++) {
		char *t = d->alts_text[i];

		if (i == MS_CS_NT_CONSTANT)
			snprintf(t, sizeof(d->alts_text[i]), "%s",
				 d->opts.constants == MS_CS_DSL_CONSTANTS_01 ? "0 1" : "1 2 3 4 5 6 7");
		else
			snprintf(t, sizeof(d->alts_text[i]), "%s%s", csd_alts[i],
				 i == MS_CS_NT_OPERAND && d->opts.extended ? csd_extended_operands : "");
		d->nt_defs[i].name = csd_nt_names[i];
		d->nt_defs[i].alts = t;
	}
	ms_dsl_grammar_def def = { MS_DSL_GRAMMAR_DEF_VERSION, names[d->opts.constants + 2 * d->opts.extended],
				   csd__prods, MS_CS_P_COUNT, d->nt_defs, MS_CS_NT_COUNT, MS_CS_NT_START };
	if ((rc = ms_dsl_grammar_new(ctx, &d->g, &def)) < 0) {
		ms_ctx_mfree(ctx, d);
		return rc;
	}
	for (int i = 0; i < MS_CS_NT_COUNT; i++) {
		csd_split(d, i);
		ms_dsl_grammar_set_sampler(d->g, i, csd_sampler, d);
	}
	*out = d;
	return MS_OK;
}

void ms_cs_dsl_free(ms_cs_dsl *d)
{
	if (!d)
		return;
	ms_dsl_grammar_free(d->g);
	ms_ctx_mfree(d->ctx, d);
}

const ms_dsl_grammar *ms_cs_dsl_grammar(const ms_cs_dsl *d)
{
	return d->g;
}

const ms_dsl_gen_options *ms_cs_dsl_gen_options(const ms_cs_dsl *d)
{
	return &d->gen;
}

const ms_cs_dsl_options *ms_cs_dsl_get_options(const ms_cs_dsl *d)
{
	return &d->opts;
}

static int csd_check_prog(const ms_cs_dsl *d, const ms_dsl_prog *p, const char *what)
{
	if (ms_dsl_prog_grammar(p) != d->g)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "cantstop dsl %s: the program is of grammar %s, not %s",
				    what, ms_dsl_grammar_name(ms_dsl_prog_grammar(p)), ms_dsl_grammar_name(d->g));
	return MS_OK;
}

int ms_cs_dsl_generate(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng)
{
	int rc = csd_check_prog(d, p, "generate");

	return rc ? rc : ms_dsl_generate(p, MS_CS_NT_START, rng, &d->gen);
}

int ms_cs_dsl_mutate_at(const ms_cs_dsl *d, ms_dsl_prog *p, int k, ms_jrandom *rng)
{
	int rc = csd_check_prog(d, p, "mutate");

	if (rc)
		return rc;
	if (ms_dsl_prog_nt(p) != MS_CS_NT_START || k < 0 || k >= ms_dsl_prog_len(p))
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL,
				    "cantstop dsl mutate: position %d of a %d-node program (a whole program is needed)", k,
				    ms_dsl_prog_len(p));
	/*
	 * Position k names the slot holding node k (mutate_inner_nodes_ast
	 * counts each node on entry and tests a slot before entering its
	 * child). The new subtree's root is drawn among all the slot's
	 * alternatives and its depth counts from 0 again.
	 */
	if (k == 0)
		return ms_dsl_generate(p, MS_CS_NT_START, rng, &d->gen);
	return ms_dsl_regenerate(p, k, rng, &d->gen);
}

int ms_cs_dsl_mutate(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng, int *at)
{
	int rc = csd_check_prog(d, p, "mutate"), size;
	int32_t k;

	if (rc)
		return rc;
	if (ms_dsl_prog_nt(p) != MS_CS_NT_START)
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "cantstop dsl mutate: not a whole program");
	size = ms_dsl_size(p);
	/* A program of size 0 cannot be made by the grammar; treat it as one that only regenerates. */
	if ((rc = ms_jrandom_next_int_bounded(rng, size > 0 ? size : 1, &k)) < 0)
		return ms_ctx_error(ms_dsl_prog_ctx(p), rc, "cantstop dsl mutate: bad size %d", size);
	if (at)
		*at = k;
	return ms_cs_dsl_mutate_at(d, p, k, rng);
}

/* ---- built-in programs ------------------------------------------------------ */

/* Spec 3.5, exactly as the reference builds it (printed by its to_string). */
static const char csd_ga_text[] =
	"yes-no: (sum(map((lambda x : ((NumberAdvancedThisRound + 1) * progress_value)), neutrals)) + DifficultyScore)\n"
	"column: argmax(map((lambda x : sum(map((lambda x : ((NumberAdvancedByAction * move_value) - "
	"(marker * IsNewNeutral))), local_list))), actions))";

/*
 * Spec 5.10 (Couto_Player) in the searches' grammar: yes/no
 * sum over N of pv[c]*A(c)*S(c), minus |N| * sum(N), plus D*D + D; column:
 * argmax over actions of the sum over its columns of S(c) + move_value[c].
 * The reference only has the hand transcription; this is our DSL reading
 * of it, checked decision by decision against the native player.
 */
static const char csd_couto_text[] =
	"yes-no: ((sum(map((lambda x : (progress_value * (NumberAdvancedThisRound * "
	"PositionsPlayerHasSecuredInColumn))), neutrals)) - sum(map((lambda x : sum(neutrals)), neutrals))) + "
	"((DifficultyScore * DifficultyScore) + DifficultyScore))\n"
	"column: argmax(map((lambda x : sum(map((lambda x : (PositionsPlayerHasSecuredInColumn + move_value)), "
	"local_list))), actions))";

const char *ms_cs_dsl_builtin(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "ga"))
		return csd_ga_text;
	if (!strcmp(name, "couto"))
		return csd_couto_text;
	return NULL;
}

int ms_cs_dsl_options_init(ms_cs_dsl_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_CS_DSL_OPTIONS_VERSION);
}
