/*
 * Can't Stop players and the DSL's view of a state: the domain functions
 * (spec 5.5), the decision environment (5.3), the Rule-of-28 family with
 * Glenn & Aloi's weights (GA, section 3), the random player (4), the
 * program wrapper (5.6) and the published champion program (5.10).
 */
#include <string.h>

#include "microsynth/spec.h"
#include "cs_internal.h"

/* ---- domain functions ------------------------------------------------------- */

/* A(c) without the range check (spec 3.2). */
static int cs_advanced(const ms_cs_state *s, int c)
{
	int prev = s->marker[s->player][c], ne = s->neutral[c], w = (s->won >> c) & 1u;

	if (ne >= 0)
		return prev < 0 ? ne + 1 + w : ne - prev + w;
	if (prev >= 0 && w)
		return cs__height[c] - prev;
	return 0;
}

/* PositionsPlayerHasSecuredInColumn without the range check. */
static int cs_secured(const ms_cs_state *s, int c)
{
	int pl = s->player, ne = s->neutral[c], prev = s->marker[pl][c], w = (s->won >> c) & 1u;

	if (s->owner[c])
		return s->owner[c] == pl ? cs__height[c] + 1 : 0;
	if (ne >= 0)
		return ne + 1 + w;
	if (prev >= 0)
		return prev + 1 + (w ? cs__height[c] - prev : 0);
	return 0;
}

int ms_cs_advanced_this_round(const ms_cs_state *s, int c)
{
	return cs__valid_column(c) ? cs_advanced(s, c) : MS_ERANGE;
}

int ms_cs_advanced_by_action(const int64_t *list, size_t n)
{
	return n == 2 && list[0] == list[1] ? 2 : 1;
}

int ms_cs_player_secured(const ms_cs_state *s, int c)
{
	return cs__valid_column(c) ? cs_secured(s, c) : MS_ERANGE;
}

int ms_cs_opponent_secured(const ms_cs_state *s, int c)
{
	int opp = 3 - s->player;

	if (!cs__valid_column(c))
		return MS_ERANGE;
	if (s->owner[c])
		return s->owner[c] == opp ? cs__height[c] + 1 : 0;
	return s->marker[opp][c] + 1;
}

int ms_cs_is_new_neutral(const ms_cs_state *s, int c)
{
	return cs__valid_column(c) ? s->neutral[c] < 0 : MS_ERANGE;
}

int ms_cs_wins_after_stopping(const ms_cs_state *s)
{
	return cs__columns_after_stop(s) == 3;
}

int ms_cs_neutrals_to_play(const ms_cs_state *s)
{
	if (s->n_neutral == 3)
		return 0;
	for (int c = MS_CS_FIRST_COLUMN; c <= MS_CS_LAST_COLUMN; c++)
		if (s->neutral[c] < 0 && !s->owner[c])
			return 1;
	return 0;
}

int ms_cs_neutrals(const ms_cs_state *s, int out[MS_CS_MAX_NEUTRALS])
{
	for (int i = 0; i < s->n_order; i++)
		out[i] = s->order[i];
	return s->n_order;
}

/* ---- the Rule-of-28 family ---------------------------------------------------- */

static const ms_cs_ga_params cs_glenn = {
	{ 0, 0, 7, 7, 3, 2, 2, 1, 2, 2, 3, 7, 7 },
	{ 0, 0, 7, 0, 2, 0, 4, 3, 4, 0, 2, 0, 7 },
	7, 1, 6, 5, 6, 29,
};

static const ms_cs_ga_params cs_rule28 = {
	{ 0, 0, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6 },
	{ 0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 },
	2, -2, 4, 4, 6, 28,
};

const ms_cs_ga_params *ms_cs_ga_params_glenn(void)
{
	return &cs_glenn;
}

const ms_cs_ga_params *ms_cs_ga_params_rule28(void)
{
	return &cs_rule28;
}

int ms_cs_ga_progress(const ms_cs_ga_params *p, const ms_cs_state *s)
{
	int score = 0;

	/* The +1 counts a column's weight once more for placing its neutral. */
	for (int i = 0; i < s->n_order; i++) {
		int c = s->order[i];

		score += (cs_advanced(s, c) + 1) * p->progress_value[c];
	}
	return score;
}

int ms_cs_ga_difficulty(const ms_cs_ga_params *p, const ms_cs_state *s)
{
	int odd = 1, even = 1, low = 1, high = 1;

	/* Python's all() over an empty list is true: every bonus applies. */
	for (int i = 0; i < s->n_order; i++) {
		int c = s->order[i];

		odd &= c % 2 != 0;
		even &= c % 2 == 0;
		low &= c <= 7;
		high &= c >= 7;
	}
	return odd * p->odds + even * p->evens + low * p->lows + high * p->highs;
}

int ms_cs_difficulty_score(const ms_cs_state *s)
{
	return ms_cs_ga_difficulty(&cs_glenn, s);
}

int ms_cs_ga_yes_no(const ms_cs_ga_params *p, const ms_cs_state *s)
{
	if (ms_cs_wins_after_stopping(s))
		return MS_CS_MOVE_NO;
	if (ms_cs_neutrals_to_play(s))
		return MS_CS_MOVE_YES;
	return ms_cs_ga_progress(p, s) + ms_cs_ga_difficulty(p, s) >= p->threshold ? MS_CS_MOVE_NO : MS_CS_MOVE_YES;
}

int ms_cs_ga_action_score(const ms_cs_ga_params *p, const ms_cs_state *s, const ms_cs_move *a)
{
	int adv = cs__is_double(a) ? 2 : 1, score = 0;

	for (int i = 0; i < a->n; i++) {
		int c = a->col[i];

		score += adv * p->move_value[c] - p->marker * (s->neutral[c] < 0);
	}
	return score;
}

int ms_cs_ga_column(const ms_cs_ga_params *p, const ms_cs_state *s, const ms_cs_move *actions, int n)
{
	int best = 0, best_score = 0;

	for (int i = 0; i < n; i++) {
		int v = ms_cs_ga_action_score(p, s, &actions[i]);

		if (i == 0 || v > best_score) {
			best = i;
			best_score = v;
		}
	}
	return best;
}

/* ---- players ------------------------------------------------------------------ */

static int cs_ga_yes_no_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	*answer = ms_cs_ga_yes_no(ud, s);
	return MS_OK;
}

static int cs_ga_column_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			   ms_cs_rng *rng, int *choice)
{
	*choice = ms_cs_ga_column(ud, s, actions, n);
	return MS_OK;
}

/* Singles first, then pairs; each ascending. */
static int cs_move_before(const ms_cs_move *a, const ms_cs_move *b)
{
	if (a->n != b->n)
		return a->n < b->n;
	if (a->col[0] != b->col[0])
		return a->col[0] < b->col[0];
	return a->n == 2 && a->col[1] < b->col[1];
}

static int cs_ga_sorted_column_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
				  ms_cs_rng *rng, int *choice)
{
	ms_cs_move sorted[MS_CS_MAX_ACTIONS];
	int idx[MS_CS_MAX_ACTIONS];

	for (int i = 0; i < n; i++) {
		int j = i;

		while (j > 0 && cs_move_before(&actions[i], &sorted[j - 1])) {
			sorted[j] = sorted[j - 1];
			idx[j] = idx[j - 1];
			j--;
		}
		sorted[j] = actions[i];
		idx[j] = i;
	}
	*choice = idx[ms_cs_ga_column(ud, s, sorted, n)];
	return MS_OK;
}

void ms_cs_player_ga(ms_cs_player *out, const ms_cs_ga_params *params, int sorted_ties)
{
	out->yes_no = cs_ga_yes_no_cb;
	out->column = sorted_ties ? cs_ga_sorted_column_cb : cs_ga_column_cb;
	/* The callbacks only read the weights. */
	out->ud = (void *)(params ? params : &cs_glenn);
	out->name = sorted_ties ? "ga-sorted" : (params == &cs_rule28 ? "rule28" : "ga");
}

static int cs_random_yes_no_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	*answer = ms_cs_rng_below(rng, 2) ? MS_CS_MOVE_NO : MS_CS_MOVE_YES;
	return MS_OK;
}

static int cs_random_column_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			       ms_cs_rng *rng, int *choice)
{
	*choice = (int)ms_cs_rng_below(rng, (uint32_t)n);
	return MS_OK;
}

void ms_cs_player_random(ms_cs_player *out)
{
	out->yes_no = cs_random_yes_no_cb;
	out->column = cs_random_column_cb;
	out->ud = NULL;
	out->name = "random";
}

/* ---- programs ------------------------------------------------------------------ */

void ms_cs_env_init(ms_cs_env *env, const ms_cs_state *s, const ms_cs_move *actions, int n)
{
	env->state = s;
	env->yes_no = !s->dice_action;
	env->actions = actions;
	env->n_actions = n;
	env->n_neutrals = ms_cs_neutrals(s, env->neutrals);
	env->progress_value = cs_glenn.progress_value;
	env->move_value = cs_glenn.move_value;
	env->marker = cs_glenn.marker;
}

static int cs_program_yes_no_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	static const ms_cs_move yes_no[2] = { { MS_CS_MOVE_YES, 0, { 0, 0 } }, { MS_CS_MOVE_NO, 0, { 0, 0 } } };
	const ms_cs_program *prog = ud;
	ms_cs_env env;
	double value = 0;
	int rc;

	/* Evaluated before the forced rules, so its errors always surface. */
	ms_cs_env_init(&env, s, yes_no, 2);
	if ((rc = prog->yes_no_value(ctx, prog->ud, &env, &value)) < 0)
		return rc;
	if (ms_cs_wins_after_stopping(s))
		*answer = MS_CS_MOVE_NO;
	else if (ms_cs_neutrals_to_play(s))
		*answer = MS_CS_MOVE_YES;
	else
		*answer = value >= MS_CS_GA_THRESHOLD ? MS_CS_MOVE_NO : MS_CS_MOVE_YES;
	return MS_OK;
}

static int cs_program_column_cb(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
				ms_cs_rng *rng, int *choice)
{
	const ms_cs_program *prog = ud;
	ms_cs_env env;
	int64_t index = 0;
	int rc;

	ms_cs_env_init(&env, s, actions, n);
	if ((rc = prog->column_index(ctx, prog->ud, &env, &index)) < 0)
		return rc;
	/* Python indexing: negative values count from the end. */
	if (index < -(int64_t)n || index >= (int64_t)n)
		return ctx ? ms_ctx_error(ctx, MS_ERANGE, "cantstop: the column program chose index %lld of a list "
					  "of %d actions", (long long)index, n) : MS_ERANGE;
	*choice = (int)(index < 0 ? index + n : index);
	return MS_OK;
}

void ms_cs_player_program(ms_cs_player *out, const ms_cs_program *prog)
{
	out->yes_no = cs_program_yes_no_cb;
	out->column = cs_program_column_cb;
	out->ud = (void *)prog;
	out->name = "program";
}

/*
 * Couto_Player (spec 5.10): yes/no value -|N| * sum(N) + sum over N of
 * progress_value[c] * A(c) * S(c) + D^2 + D; column: argmax over actions of
 * the sum over its columns of S(c) + move_value[c].
 */
static int cs_couto_yes_no(ms_ctx *ctx, void *ud, const ms_cs_env *env, double *value)
{
	const ms_cs_state *s = env->state;
	int sum = 0, v, d = ms_cs_difficulty_score(s);

	for (int i = 0; i < env->n_neutrals; i++)
		sum += env->neutrals[i];
	v = -env->n_neutrals * sum;
	for (int i = 0; i < env->n_neutrals; i++) {
		int c = env->neutrals[i];

		v += env->progress_value[c] * cs_advanced(s, c) * cs_secured(s, c);
	}
	*value = v + d * d + d;
	return MS_OK;
}

static int cs_couto_column(ms_ctx *ctx, void *ud, const ms_cs_env *env, int64_t *index)
{
	int best = 0, best_score = 0;

	for (int i = 0; i < env->n_actions; i++) {
		const ms_cs_move *a = &env->actions[i];
		int v = 0;

		for (int k = 0; k < a->n; k++)
			v += cs_secured(env->state, a->col[k]) + env->move_value[a->col[k]];
		if (i == 0 || v > best_score) {
			best = i;
			best_score = v;
		}
	}
	*index = best;
	return MS_OK;
}

static const ms_cs_program cs_couto = { cs_couto_yes_no, cs_couto_column, NULL };

void ms_cs_player_couto(ms_cs_player *out)
{
	ms_cs_player_program(out, &cs_couto);
	out->name = "couto";
}

/* The built-in players' makers (a Can't Stop player holds nothing to free; none draws from the seed). */
static int make_ga(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)ctx, (void)spec, (void)arg, (void)seed;
	ms_cs_player_ga(out, NULL, 0);
	return MS_OK;
}

static int make_ga_sorted(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)ctx, (void)spec, (void)arg, (void)seed;
	ms_cs_player_ga(out, NULL, 1);
	return MS_OK;
}

static int make_rule28(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)ctx, (void)spec, (void)arg, (void)seed;
	ms_cs_player_ga(out, &cs_rule28, 0);
	return MS_OK;
}

static int make_random(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)ctx, (void)spec, (void)arg, (void)seed;
	ms_cs_player_random(out);
	return MS_OK;
}

static int make_couto(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed)
{
	(void)ctx, (void)spec, (void)arg, (void)seed;
	ms_cs_player_couto(out);
	return MS_OK;
}

/* The agent table (microsynth/spec.h); ms_cs_player_names() is expanded from the same rows. */
#define CS_AGENTS(X)                                                                                           \
	X("ga", make_ga, "GA: the Rule-of-28 player with Glenn & Aloi's weights (spec 3)")                    \
	X("ga-sorted", make_ga_sorted, "GA breaking column ties in ascending order (spec 8.3)")                \
	X("rule28", make_rule28, "the Rule-of-28 player with its parent's default weights")                    \
	X("random", make_random, "uniform over the legal moves (spec 4)")                                      \
	X("couto", make_couto, "the strongest published program (spec 5.10) through the program wrapper")

#define CS_AGENT_ROW(name, make, help) { { name, MS_SPEC_NONE, NULL, help }, make },
#define CS_AGENT_NAME(name, make, help) name,
static const ms_cs_agent_row cs_agents[] = { CS_AGENTS(CS_AGENT_ROW) };
static const char *const cs_player_names[] = { CS_AGENTS(CS_AGENT_NAME) NULL };
enum { CS_N_AGENTS = (int)(sizeof cs_agents / sizeof cs_agents[0]) };

const ms_cs_agent_row *ms_cs_agents(int *n)
{
	*n = CS_N_AGENTS;
	return cs_agents;
}

const char *const *ms_cs_player_names(void)
{
	return cs_player_names;
}

int ms_cs_player_by_name(ms_ctx *ctx, ms_cs_player *out, const char *name)
{
	const char *arg;
	char list[160];
	int i = ms_spec_find(cs_agents, CS_N_AGENTS, sizeof cs_agents[0], name, &arg);

	if (i >= 0)
		return cs_agents[i].make(ctx, out, name, arg, 0);
	ms_spec_list(list, sizeof list, cs_agents, CS_N_AGENTS, sizeof cs_agents[0], ", ", NULL);
	return ctx ? ms_ctx_error(ctx, MS_ENOTFOUND, "cantstop: no player named '%s' (%s)", name, list) : MS_ENOTFOUND;
}
