/*
 * The dialect-A grammar as a static table, its reference samplers (the
 * size budget of SL's DSL_Extent1, spec 13.2) and SL's mutation (13.3) on
 * a correct pre-order index.
 *
 * Every node of non-terminal S stands for the Java pair "S wrapper + its
 * child", C and B nodes for the command and condition objects themselves;
 * that is why the token form needs the "S" and "B" prefixes added back to
 * be Java's (rts_dsl_print.c) and why a statement node weighs 3 plus its
 * kind's weight in the mutation.
 */
#include <string.h>

#include "rts_dsl_internal.h"

const char *const rd_type_names[RD_T_COUNT] = { "Base", "Barracks", "Worker", "Ranged", "Light", "Heavy" };

#define P(name, print, children, op) { name, print, children, op, 1, 0 }
#define T(name, i) { name, name, NULL, MS_RTS_DSL_VAL_T | (i), 1, 0 }
#define N(v) { #v, #v, NULL, MS_RTS_DSL_VAL_N | (v), 1, 0 }
#define D(name, i) { name, name, NULL, MS_RTS_DSL_VAL_D | (i), 1, 0 }
#define O(name, i) { name, name, NULL, MS_RTS_DSL_VAL_OP | (i), 1, 0 }
#define TP(name, i) { name, name, NULL, MS_RTS_DSL_VAL_TP | (i), 1, 0 }

/* Templates are Java's translate(); Not (last) exists only in the +not grammar. */
static const ms_dsl_prod_def prods[] = {
	P("C", "$0", "C", MS_RTS_DSL_S_C),
	P("S_S", "$0 $1", "S S", MS_RTS_DSL_S_SEQ),
	P("For_S", "for(Unit u){$0}", "S", MS_RTS_DSL_S_FOR),
	P("If_B_then_S", "if($0) then {$1}", "B S", MS_RTS_DSL_S_IF),
	P("If_B_then_S_else_S", "if($0) then {$1} else { $2}", "B S S", MS_RTS_DSL_S_IFELSE),
	P("Empty", "e", NULL, MS_RTS_DSL_S_EMPTY),
	P("Attack", "u.attack($0)", "Op", MS_RTS_DSL_ATTACK),
	P("Build", "u.build($0,$1,$2)", "T D N", MS_RTS_DSL_BUILD),
	P("Harvest", "u.harvest($0)", "N", MS_RTS_DSL_HARVEST),
	P("Idle", "u.idle()", NULL, MS_RTS_DSL_IDLE),
	P("MoveAway", "u.moveAway()", NULL, MS_RTS_DSL_MOVEAWAY),
	P("MoveToUnit", "u.moveToUnit($0,$1)", "Tp Op", MS_RTS_DSL_MOVETOUNIT),
	P("Train", "u.train($0,$1,$2)", "T D N", MS_RTS_DSL_TRAIN),
	P("CanAttack", "u.canAttack()", NULL, MS_RTS_DSL_CANATTACK),
	P("CanHarvest", "u.canHarvest()", NULL, MS_RTS_DSL_CANHARVEST),
	P("HasLessNumberOfUnits", "HasLessNumberOfUnits($0,$1)", "T N", MS_RTS_DSL_HASLESSNUMBEROFUNITS),
	P("HasNumberOfUnits", "HasNumberOfUnits($0,$1)", "T N", MS_RTS_DSL_HASNUMBEROFUNITS),
	P("HasNumberOfWorkersHarvesting", "HasNumberOfWorkersHarvesting($0)", "N",
	  MS_RTS_DSL_HASNUMBEROFWORKERSHARVESTING),
	P("HasUnitInOpponentRange", "u.HasUnitInOpponentRange()", NULL, MS_RTS_DSL_HASUNITINOPPONENTRANGE),
	P("HasUnitThatKillsInOneAttack", "u.HasUnitThatKillsInOneAttack()", NULL,
	  MS_RTS_DSL_HASUNITTHATKILLSINONEATTACK),
	P("HasUnitWithinDistanceFromOpponent", "u.HasUnitWithinDistanceFromOpponent($0)", "N",
	  MS_RTS_DSL_HASUNITWITHINDISTANCEFROMOPPONENT),
	P("HaveQtdUnitsAttacking", "HaveQtdUnitsAttacking($0)", "N", MS_RTS_DSL_HAVEQTDUNITSATTACKING),
	P("IsBuilder", "u.isBuilder()", NULL, MS_RTS_DSL_ISBUILDER),
	P("is_Type", "u.is($0)", "T", MS_RTS_DSL_IS_TYPE),
	P("OpponentHasNumberOfUnits", "OpponentHasNumberOfUnits($0,$1)", "T N", MS_RTS_DSL_OPPONENTHASNUMBEROFUNITS),
	P("OpponentHasUnitInPlayerRange", "u.OpponentHasUnitInPlayerRange()", NULL,
	  MS_RTS_DSL_OPPONENTHASUNITINPLAYERRANGE),
	P("OpponentHasUnitThatKillsUnitInOneAttack", "u.OpponentHasUnitThatKillsUnitInOneAttack()", NULL,
	  MS_RTS_DSL_OPPONENTHASUNITTHATKILLSUNITINONEATTACK),
	T("Base", RD_T_BASE), T("Barracks", RD_T_BARRACKS), T("Worker", RD_T_WORKER), T("Ranged", RD_T_RANGED),
	T("Light", RD_T_LIGHT), T("Heavy", RD_T_HEAVY),
	N(100), N(50), N(0), N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), N(9), N(15), N(20), N(10), N(25),
	D("Right", RD_D_RIGHT), D("Left", RD_D_LEFT), D("Up", RD_D_UP), D("Down", RD_D_DOWN),
	D("EnemyDir", RD_D_ENEMYDIR),
	O("Strongest", RD_OP_STRONGEST), O("Weakest", RD_OP_WEAKEST), O("Closest", RD_OP_CLOSEST),
	O("Farthest", RD_OP_FARTHEST), O("LessHealthy", RD_OP_LESSHEALTHY), O("MostHealthy", RD_OP_MOSTHEALTHY),
	O("Random", RD_OP_RANDOM),
	TP("Ally", RD_TP_ALLY), TP("Enemy", RD_TP_ENEMY),
	P("Not", "not $0", "B", MS_RTS_DSL_NOT),
};
#define N_PRODS ((int)(sizeof(prods) / sizeof(prods[0])))

/* LLD's Synthesis2 has no N on Build, Train and Harvest (spec 11): the value
 * that stands for it, appended after the others (and after Not when there),
 * so the default grammars keep their production ids and hashes. */
static const ms_dsl_prod_def prod_inf = { "inf", "inf", NULL, MS_RTS_DSL_VAL_N | RD_N_INF, 1, 0 };

#define S_ALTS "C S_S For_S If_B_then_S If_B_then_S_else_S Empty"
#define C_ALTS "Attack Build Harvest Idle MoveAway MoveToUnit Train"
#define B_ALTS                                                                                                 \
	"CanAttack CanHarvest HasLessNumberOfUnits HasNumberOfUnits HasNumberOfWorkersHarvesting "            \
	"HasUnitInOpponentRange HasUnitThatKillsInOneAttack HasUnitWithinDistanceFromOpponent "               \
	"HaveQtdUnitsAttacking IsBuilder is_Type OpponentHasNumberOfUnits OpponentHasUnitInPlayerRange "      \
	"OpponentHasUnitThatKillsUnitInOneAttack"
#define N_ALTS "100 50 0 1 2 3 4 5 6 7 8 9 15 20 10 25"
#define PARAM_NTS(n_alts)                                                                                      \
	{ "T", "Base Barracks Worker Ranged Light Heavy" }, { "N", n_alts },                                   \
	{ "D", "Right Left Up Down EnemyDir" },                                                                \
	{ "Op", "Strongest Weakest Closest Farthest LessHealthy MostHealthy Random" }, { "Tp", "Ally Enemy" }

/* [with Not][with inf] */
static const ms_dsl_nt_def nts[2][2][RD_NT_COUNT] = {
	{ { { "S", S_ALTS }, { "C", C_ALTS }, { "B", B_ALTS }, PARAM_NTS(N_ALTS) },
	  { { "S", S_ALTS }, { "C", C_ALTS }, { "B", B_ALTS }, PARAM_NTS(N_ALTS " inf") } },
	{ { { "S", S_ALTS }, { "C", C_ALTS }, { "B", B_ALTS " Not" }, PARAM_NTS(N_ALTS) },
	  { { "S", S_ALTS }, { "C", C_ALTS }, { "B", B_ALTS " Not" }, PARAM_NTS(N_ALTS " inf") } },
};

/* By flags: Not (1), Random drawn (2), LLD's inf (4). */
static const char *const grammar_names[8] = { "microrts-A", "microrts-A+not", "microrts-A+random",
					       "microrts-A+not+random", "microrts-A+lld", "microrts-A+not+lld",
					       "microrts-A+random+lld", "microrts-A+not+random+lld" };

/* What each sampler needs beyond the grammar: how many leading
 * alternatives of its non-terminal it draws among. */
static const int draw_plain[RD_NT_COUNT] = { 0, 7, 14, 6, 16, 5, 6, 2 };
static const int draw_random[RD_NT_COUNT] = { 0, 7, 14, 6, 16, 5, 7, 2 };

static int draw(ms_dsl_gen *gen, int bound, int *out)
{
	int32_t v;
	if (ms_jrandom_next_int_bounded(ms_dsl_gen_rng(gen), bound, &v) < 0)
		return MS_ERANGE;
	*out = v;
	return MS_OK;
}

/* sample_S(b): k = 1, 3, 4, 5 alternatives for b = 1, 2, 3, >= 4; e below 1. */
static int sample_s(ms_dsl_gen *gen, int nt, int b, int depth, void *user)
{
	const ms_dsl_grammar *g = ms_dsl_gen_grammar(gen);
	const uint16_t *alts;
	int n, k, c, rc;

	(void)user;
	alts = ms_dsl_nt_alts(g, nt, &n);
	if (b < 1)
		return ms_dsl_gen_emit(gen, alts[5]);
	k = b == 1 ? 1 : b == 2 ? 3 : b == 3 ? 4 : 5;
	if ((rc = draw(gen, k, &c)) || (rc = ms_dsl_gen_emit(gen, alts[c])))
		return rc;
	switch (c) {
	case 0:
		return ms_dsl_gen_sample(gen, RD_NT_C, b, depth + 1);
	case 1:
		if ((rc = ms_dsl_gen_sample(gen, RD_NT_S, b / 2, depth + 1)))
			return rc;
		return ms_dsl_gen_sample(gen, RD_NT_S, b / 2, depth + 1);
	case 2:
		return ms_dsl_gen_sample(gen, RD_NT_S, b - 1, depth + 1);
	case 3:
		if ((rc = ms_dsl_gen_sample(gen, RD_NT_B, 1, depth + 1)))
			return rc;
		return ms_dsl_gen_sample(gen, RD_NT_S, b - 2, depth + 1);
	default:
		if ((rc = ms_dsl_gen_sample(gen, RD_NT_B, 1, depth + 1)) ||
		    (rc = ms_dsl_gen_sample(gen, RD_NT_S, b / 2 - 1, depth + 1)))
			return rc;
		return ms_dsl_gen_sample(gen, RD_NT_S, b / 2 - 1, depth + 1);
	}
}

/* C, B and the parameters: uniform over the first draw[nt] alternatives,
 * children (parameters) in slot order. */
static int sample_uniform(ms_dsl_gen *gen, int nt, int b, int depth, void *user)
{
	const ms_dsl_grammar *g = ms_dsl_gen_grammar(gen);
	const int *limit = user;
	const uint16_t *alts;
	int n, c, rc, prod;

	alts = ms_dsl_nt_alts(g, nt, &n);
	if (limit[nt] < n)
		n = limit[nt];
	if ((rc = draw(gen, n, &c)))
		return rc;
	prod = alts[c];
	if ((rc = ms_dsl_gen_emit(gen, (ms_dsl_sym)prod)))
		return rc;
	for (int k = 0; k < ms_dsl_prod_arity(g, prod); k++)
		if ((rc = ms_dsl_gen_sample(gen, ms_dsl_prod_child_nt(g, prod, k), b, depth + 1)))
			return rc;
	return MS_OK;
}

int ms_rts_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out, unsigned flags)
{
	ms_dsl_grammar_def def;
	ms_dsl_prod_def all[N_PRODS + 1];
	int with_not = (flags & MS_RTS_DSL_GRAMMAR_NOT) != 0, rc;
	int with_random = (flags & MS_RTS_DSL_GRAMMAR_GEN_RANDOM) != 0;
	int with_inf = (flags & MS_RTS_DSL_GRAMMAR_LLD) != 0;
	const int *limit = with_random ? draw_random : draw_plain;

	*out = NULL;
	if (flags & ~(unsigned)(MS_RTS_DSL_GRAMMAR_NOT | MS_RTS_DSL_GRAMMAR_GEN_RANDOM | MS_RTS_DSL_GRAMMAR_LLD))
		return ms_ctx_error(ctx, MS_EINVAL, "MicroRTS DSL grammar: unknown flags 0x%x", flags);
	memset(&def, 0, sizeof(def));
	def.version = MS_DSL_GRAMMAR_DEF_VERSION;
	def.name = grammar_names[with_not + 2 * with_random + 4 * with_inf];
	memcpy(all, prods, sizeof(prods));
	def.n_prods = with_not ? N_PRODS : N_PRODS - 1;
	if (with_inf)
		all[def.n_prods++] = prod_inf;
	def.prods = all;
	def.nts = nts[with_not][with_inf];
	def.n_nts = RD_NT_COUNT;
	def.start = RD_NT_S;
	if ((rc = ms_dsl_grammar_new(ctx, out, &def)))
		return rc;
	for (int nt = 0; nt < RD_NT_COUNT && !rc; nt++)
		rc = ms_dsl_grammar_set_sampler(*out, nt, nt == RD_NT_S ? sample_s : sample_uniform, (void *)limit);
	if (rc) {
		ms_dsl_grammar_free(*out);
		*out = NULL;
	}
	return rc;
}

int ms_rts_dsl_grammar_is(const ms_dsl_grammar *g)
{
	const char *name = g ? ms_dsl_grammar_name(g) : NULL;

	if (!name)
		return 0;
	for (int i = 0; i < 8; i++)
		if (name == grammar_names[i] || !strcmp(name, grammar_names[i]))
			return ms_dsl_nt_count(g) == RD_NT_COUNT;
	return 0;
}

int rd_op_uses_unit(int op)
{
	switch (op) {
	case MS_RTS_DSL_CANATTACK:
	case MS_RTS_DSL_CANHARVEST:
	case MS_RTS_DSL_HASUNITINOPPONENTRANGE:
	case MS_RTS_DSL_HASUNITTHATKILLSINONEATTACK:
	case MS_RTS_DSL_HASUNITWITHINDISTANCEFROMOPPONENT:
	case MS_RTS_DSL_ISBUILDER:
	case MS_RTS_DSL_IS_TYPE:
	case MS_RTS_DSL_OPPONENTHASUNITINPLAYERRANGE:
	case MS_RTS_DSL_OPPONENTHASUNITTHATKILLSUNITINONEATTACK:
		return 1;
	default:
		return rd_op_is_command(op);
	}
}

/* ---- generation ----------------------------------------------------------- */

static int gen_nt(ms_dsl_prog *scratch, int nt, ms_jrandom *rng, int budget)
{
	ms_dsl_gen_options o;

	memset(&o, 0, sizeof(o));
	o.version = MS_DSL_GEN_OPTIONS_VERSION;
	o.budget = budget;
	return ms_dsl_generate(scratch, nt, rng, &o);
}

int ms_rts_dsl_generate(ms_dsl_prog *p, ms_jrandom *rng, int budget)
{
	if (!ms_rts_dsl_grammar_is(ms_dsl_prog_grammar(p)))
		return ms_ctx_error(ms_dsl_prog_ctx(p), MS_EINVAL, "ms_rts_dsl_generate: not a MicroRTS DSL program");
	if (budget <= 0) {
		int32_t b;
		ms_jrandom_next_int_bounded(rng, 9, &b);
		budget = b + 1;
	}
	return gen_nt(p, RD_NT_S, rng, budget);
}

/* ---- mutation ------------------------------------------------------------- */

/* The weights of SL's countNode, per node: own slots (see the header). */
static int node_weight(const ms_dsl_prog *p, int i)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	ms_dsl_sym s = ms_dsl_prog_nodes(p)[i];
	int nt = ms_dsl_node_nt(p, i);

	if (ms_dsl_is_hole(s))
		return nt == RD_NT_S ? 3 : 0;
	switch (ms_dsl_prod_op(g, s)) {
	case MS_RTS_DSL_S_C:
		return 6;
	case MS_RTS_DSL_S_SEQ:
	case MS_RTS_DSL_S_FOR:
	case MS_RTS_DSL_S_IF:
	case MS_RTS_DSL_S_IFELSE:
		return 4;
	case MS_RTS_DSL_S_EMPTY:
		return 3;
	case MS_RTS_DSL_BUILD:
	case MS_RTS_DSL_TRAIN:
		return 4;
	case MS_RTS_DSL_ATTACK:
	case MS_RTS_DSL_HARVEST:
	case MS_RTS_DSL_MOVETOUNIT:
		return 1;
	case MS_RTS_DSL_IDLE:
	case MS_RTS_DSL_MOVEAWAY:
		return 0;
	case MS_RTS_DSL_CANATTACK:
	case MS_RTS_DSL_CANHARVEST:
	case MS_RTS_DSL_NOT:
		return 1; /* the B wrapper only */
	default:
		/* the other conditions: B wrapper + the condition's own slot */
		return nt == RD_NT_B ? 2 : 0;
	}
}

/* Appends the nodes of subtree i of `src` to `dst`. */
static int push_subtree(ms_dsl_prog *dst, const ms_dsl_prog *src, int i)
{
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(src);
	int end = ms_dsl_prog_ends(src)[i], rc = MS_OK;

	for (int k = i; k < end && !rc; k++)
		rc = ms_dsl_prog_push(dst, nodes[k]);
	return rc;
}

typedef struct mut {
	ms_dsl_prog *p;
	ms_dsl_prog *tmp, *a, *b;
	ms_jrandom *rng;
} mut;

/* Replaces node i (of non-terminal S) with production `prod` whose S or B
 * children are fresh samples with the given budgets. */
static int resample_same(mut *m, int i, int prod, const int *budget)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(m->p);
	int rc;

	ms_dsl_prog_clear(m->tmp);
	if ((rc = ms_dsl_prog_push(m->tmp, (ms_dsl_sym)prod)))
		return rc;
	for (int k = 0; k < ms_dsl_prod_arity(g, prod); k++) {
		int nt = ms_dsl_prod_child_nt(g, prod, k);
		if ((rc = gen_nt(m->a, nt, m->rng, budget[k])) || (rc = push_subtree(m->tmp, m->a, 0)))
			return rc;
	}
	if ((rc = ms_dsl_prog_finish(m->tmp, ms_dsl_node_nt(m->p, i))))
		return rc;
	return ms_dsl_replace(m->p, i, m->tmp, 0);
}

/* Regenerates the subtree at i from its non-terminal's sampler. */
static int regenerate(mut *m, int i, int budget)
{
	int rc = gen_nt(m->a, ms_dsl_node_nt(m->p, i), m->rng, budget);
	return rc ? rc : ms_dsl_replace(m->p, i, m->a, 0);
}

/* S_E1.mutation: resample (p 0.2) or wrap in a new S_S (p 0.8). */
static int mutate_statement(mut *m, int i, int b)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(m->p);
	int seq = ms_dsl_prod_find(g, "S_S"), rc;

	if (ms_jrandom_next_float(m->rng) > 0.8f)
		return regenerate(m, i, b);
	/* S_S_E1.sample(b): both halves with b / 2, then one gives way */
	if ((rc = gen_nt(m->a, RD_NT_S, m->rng, b / 2)) || (rc = gen_nt(m->b, RD_NT_S, m->rng, b / 2)))
		return rc;
	ms_dsl_prog_clear(m->tmp);
	if ((rc = ms_dsl_prog_push(m->tmp, (ms_dsl_sym)seq)))
		return rc;
	if (ms_jrandom_next_float(m->rng) > 0.5f)
		rc = push_subtree(m->tmp, m->a, 0) || push_subtree(m->tmp, m->p, i) ? MS_ENOMEM : MS_OK;
	else
		rc = push_subtree(m->tmp, m->p, i) || push_subtree(m->tmp, m->b, 0) ? MS_ENOMEM : MS_OK;
	if (rc)
		return ms_ctx_error(ms_dsl_prog_ctx(m->p), rc, "ms_rts_dsl_mutate: out of memory");
	if ((rc = ms_dsl_prog_finish(m->tmp, RD_NT_S)))
		return rc;
	return ms_dsl_replace(m->p, i, m->tmp, 0);
}

/* Resamples parameter child k of node i (all of them when k < 0). */
static int resample_params(mut *m, int i, int k)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(m->p);
	ms_dsl_sym s = ms_dsl_prog_nodes(m->p)[i];
	int arity = ms_dsl_is_hole(s) ? 0 : ms_dsl_prod_arity(g, s), rc = MS_OK;

	for (int j = 0; j < arity && !rc; j++)
		if (k < 0 || j == k)
			rc = regenerate(m, ms_dsl_child(m->p, i, j), 1);
	return rc;
}

static int apply(mut *m, int i, int slot, int b)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(m->p);
	ms_dsl_sym s = ms_dsl_prog_nodes(m->p)[i];
	int nt = ms_dsl_node_nt(m->p, i), op = ms_dsl_is_hole(s) ? 0 : ms_dsl_prod_op(g, s);

	if (nt == RD_NT_S) {
		int budget[3];
		if (slot < 3)
			return mutate_statement(m, i, b);
		switch (op) {
		case MS_RTS_DSL_S_C:
			return regenerate(m, ms_dsl_child(m->p, i, 0), b);
		case MS_RTS_DSL_S_SEQ:
			if (ms_jrandom_next_float(m->rng) >= 0.9f)
				return MS_OK;
			budget[0] = budget[1] = b / 2;
			return resample_same(m, i, s, budget);
		case MS_RTS_DSL_S_FOR:
			return mutate_statement(m, ms_dsl_child(m->p, i, 0), b);
		case MS_RTS_DSL_S_IF:
			budget[0] = 1;
			budget[1] = b - 2;
			return resample_same(m, i, s, budget);
		default: /* if-else */
			budget[0] = 1;
			budget[1] = budget[2] = b / 2 - 1;
			return resample_same(m, i, s, budget);
		}
	}
	if (nt == RD_NT_C) {
		if (op == MS_RTS_DSL_BUILD || op == MS_RTS_DSL_TRAIN)
			return resample_params(m, i, slot - 1);
		return resample_params(m, i, -1);
	}
	/* B: the wrapper slot resamples the condition, the other its parameters */
	if (slot == 0)
		return regenerate(m, i, 1);
	return resample_params(m, i, -1);
}

int ms_rts_dsl_mutate(ms_dsl_prog *p, ms_jrandom *rng, int *at)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	int n = ms_dsl_prog_len(p), total = 0, i, slot, rc;
	int32_t r, b;
	mut m;

	if (!ms_rts_dsl_grammar_is(g) || ms_dsl_prog_nt(p) != RD_NT_S)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_rts_dsl_mutate: not a finished MicroRTS DSL program");
	for (i = 0; i < n; i++)
		total += node_weight(p, i);
	if (total == 0)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_rts_dsl_mutate: no node may be mutated");
	ms_jrandom_next_int_bounded(rng, total, &r);
	for (i = 0; r >= node_weight(p, i); i++)
		r -= node_weight(p, i);
	slot = r;
	ms_jrandom_next_int_bounded(rng, 9, &b);
	if (at)
		*at = i;
	memset(&m, 0, sizeof(m));
	m.p = p;
	m.rng = rng;
	if ((rc = ms_dsl_prog_new(ctx, &m.tmp, g)) || (rc = ms_dsl_prog_new(ctx, &m.a, g)) ||
	    (rc = ms_dsl_prog_new(ctx, &m.b, g)))
		goto done;
	rc = apply(&m, i, slot, b + 1);
done:
	ms_dsl_prog_free(m.tmp);
	ms_dsl_prog_free(m.a);
	ms_dsl_prog_free(m.b);
	return rc;
}

int ms_rts_dsl_draws_random(const ms_dsl_prog *p)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);

	for (int i = 0, n = ms_dsl_prog_len(p); i < n; i++) {
		int op = ms_dsl_is_hole(nodes[i]) ? 0 : ms_dsl_prod_op(g, nodes[i]);
		if (MS_RTS_DSL_VAL_KIND(op) == MS_RTS_DSL_VAL_OP && MS_RTS_DSL_VAL_INDEX(op) == RD_OP_RANDOM)
			return 1;
	}
	return 0;
}
