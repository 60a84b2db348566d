/*
 * The dialect-A interpreter (spec sections 3 to 9): one decision per tick
 * with SL DSL_Base's semantics. Programs are compiled once into a flat
 * array (one entry per program node: op, decoded parameters, children).
 *
 * Counting conditions and the Build/Train/Harvest caps read per-tick
 * counters instead of scanning the unit list as Java does; the counts are
 * the same (own units of a type on the map are fixed within a tick, the
 * abstract-action map only grows).
 *
 * Nested loops: a `for` rebinds u for its body, so what a loop does depends
 * only on the state (fixed within the tick), the abstract-action map and
 * the budget. Every assignment bumps a version number; a loop that changed
 * nothing on its last run and finds the version unchanged would change
 * nothing again, so it is skipped (unless it draws Random targets). This
 * is exact, and turns the units^depth cost of nested loops into a small
 * multiple of the units.
 *
 * Loops drawing Random targets cannot be skipped, so their cost stays
 * units^depth: a decision stops once it has run `loop_budget` iterations
 * (far above any real program's hundreds), which bounds a decision a
 * search's mutation made pathological without changing any other.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "rts_dsl_interp.h"
#include "core/opts.h"
#include "core/vec.h"

void ms_rts_dsl_interp_seed(ms_rts_dsl_interp *it, int64_t seed)
{
	ms_jrandom_init(&it->rng, seed);
}

int ms_rts_dsl_interp_new(ms_ctx *ctx, ms_rts_dsl_interp **out, const ms_dsl_prog *p, int64_t seed,
			  const ms_rts_dsl_options *opts)
{
	ms_rts_dsl_interp *it;
	int rc;

	*out = NULL;
	if (opts && (opts->version < 2 || opts->version > MS_RTS_DSL_OPTIONS_VERSION))
		return ms_ctx_error(ctx, MS_EINVAL, "DSL interpreter: unknown options version %d", opts->version);
	if (opts && opts->for_order != MS_RTS_DSL_FOR_LIST && opts->for_order != MS_RTS_DSL_FOR_BIL)
		return ms_ctx_error(ctx, MS_EINVAL, "DSL interpreter: unknown for order %d", opts->for_order);
	if (opts && opts->version >= 4 && opts->loop_budget < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "DSL interpreter: loop budget %ld is negative", opts->loop_budget);
	if (!(it = ms_ctx_calloc(ctx, 1, sizeof(*it))))
		return ms_ctx_error(ctx, MS_ENOMEM, "DSL interpreter: out of memory");
	it->ctx = ctx;
	/* older callers' structs end before `reach` (version 2) or `loop_budget` (3); 1 is refused above */
	static const size_t ends[] = { 0, offsetof(ms_rts_dsl_options, reach),
				       offsetof(ms_rts_dsl_options, loop_budget) };
	if (opts)
		memcpy(&it->opts, opts, ms_opts_size(opts->version, ends, sizeof ends / sizeof *ends, sizeof *opts));
	it->opts.version = MS_RTS_DSL_OPTIONS_VERSION;
	rd_layer_init(&it->L, ctx);
	ms_jrandom_init(&it->rng, seed);
	if ((rc = rd_compile(it, p))) {
		ms_rts_dsl_interp_free(it);
		return rc;
	}
	*out = it;
	return MS_OK;
}

int ms_rts_dsl_interp_set_program(ms_rts_dsl_interp *it, const ms_dsl_prog *p)
{
	it->view.answered = 0;
	return rd_compile(it, p);
}

void ms_rts_dsl_interp_free(ms_rts_dsl_interp *it)
{
	if (!it)
		return;
	rd_layer_dispose(&it->L);
	rd_view_dispose(it->ctx, &it->view);
	ms_ctx_mfree(it->ctx, it->code);
	ms_ctx_mfree(it->ctx, it->fors);
	ms_ctx_mfree(it->ctx, it->pub);
	ms_ctx_mfree(it->ctx, it->live);
	ms_ctx_mfree(it->ctx, it);
}

/* ---- the unit type table --------------------------------------------------- */

static void bind_utt(ms_rts_dsl_interp *it, const ms_rts_utt *utt)
{
	if (it->utt == utt)
		return;
	it->utt = utt;
	for (int t = 0; t < RD_T_COUNT; t++)
		it->tmap[t] = ms_rts_utt_find(utt, rd_type_names[t]);
	it->id_base = it->tmap[RD_T_BASE];
	it->id_barracks = it->tmap[RD_T_BARRACKS];
	it->id_worker = it->tmap[RD_T_WORKER];
	it->id_ranged = it->tmap[RD_T_RANGED];
	it->id_light = it->tmap[RD_T_LIGHT];
	it->id_heavy = it->tmap[RD_T_HEAVY];
}

/* ---- evaluation ------------------------------------------------------------ */

/* Reach marks (ms_rts_dsl_options.reach): node i read (-1: none), nodes [i, end) read, i a busy loop-free subtree. */
static inline void reach_node(ms_rts_dsl_interp *it, int i)
{
	if (it->opts.reach && i >= 0)
		it->opts.reach[i] |= MS_RTS_DSL_REACH_READ;
}

static inline void reach_tree(ms_rts_dsl_interp *it, int i)
{
	if (it->opts.reach)
		for (int j = i, end = it->code[i].end; j < end; j++)
			it->opts.reach[j] |= MS_RTS_DSL_REACH_READ;
}

static inline void reach_busy(ms_rts_dsl_interp *it, int i)
{
	if (it->opts.reach)
		it->opts.reach[i] |= MS_RTS_DSL_REACH_BUSY;
}

#define UNIT(it, i) (&(it)->L.units[i].u)
#define TYPE(it, u) (&(it)->utt->types[(u)->type])

/* Where Java dereferences the unset u. */
static int no_unit(ms_rts_dsl_interp *it, int node)
{
	return ms_ctx_error(it->ctx, MS_EILLEGAL,
			    "DSL: node %d reads the unit u outside any for loop at cycle %d (Java throws: the "
			    "match counts as a loss)",
			    node, ms_rts_state_time(it->L.s));
}

static int assign(ms_rts_dsl_interp *it, int u, int kind, int node, int target, int base, int x, int y, int type,
		  int pref)
{
	rd_aa a;

	a.unit = u;
	a.kind = kind;
	a.node = node;
	a.target = target;
	a.base = base;
	a.x = x;
	a.y = y;
	a.type = type;
	a.pref = pref;
	it->version++;
	switch (kind) {
	case MS_RTS_DSL_AA_ATTACK:
		it->n_attack++;
		break;
	case MS_RTS_DSL_AA_HARVEST:
		it->n_harvest++;
		break;
	case MS_RTS_DSL_AA_BUILD:
		it->n_build[type]++;
		break;
	case MS_RTS_DSL_AA_TRAIN:
		it->n_train[type]++;
		break;
	default:
		break;
	}
	return rd_layer_assign(&it->L, &a);
}

static inline int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* The per-unit facts of the stamp's comment, for unit ui of this decision. */
static void unit_facts(ms_rts_dsl_interp *it, int ui)
{
	const ms_rts_unit *u = UNIT(it, ui);
	int ed = INT_MAX, od = INT_MAX, hit = 0;

	for (int k = 0; k < it->n_enemy; k++) {
		const ms_rts_unit *o = UNIT(it, it->enemy[k]);
		int dx = o->x - u->x, dy = o->y - u->y, d2 = dx * dx + dy * dy, r = TYPE(it, o)->attack_range;
		if (d2 < ed)
			ed = d2;
		if (o->player == 1 - it->player && d2 < od)
			od = d2;
		if (d2 <= r * r)
			hit = 1;
	}
	it->enemy_d2[ui] = ed;
	it->opp_d2[ui] = od;
	it->in_range[ui] = hit;
	it->stamp[ui] = it->dec;
}

#define FACTS(it, ui) ((it)->stamp[ui] == (it)->dec ? (void)0 : unit_facts(it, ui))

/* Interpreter.getUnit<Op>: candidates have an owner, not P, and are not u. */
static int select_target(ms_rts_dsl_interp *it, int op, int ui, int P)
{
	const ms_rts_unit *u = UNIT(it, ui);
	int best = -1, best_key = 0, best_d = 0;

	if (op == RD_OP_RANDOM) {
		int32_t r;
		ms_jrandom_next_int_bounded(&it->rng, 6, &r);
		op = r;
	}
	for (int k = 0; k < it->n_live; k++) {
		int i = it->live[k];
		const ms_rts_unit *o = UNIT(it, i);
		const ms_rts_unit_type *ot;
		int d, key;
		if (o->player == P || i == ui)
			continue;
		ot = TYPE(it, o);
		d = iabs(o->x - u->x) + iabs(o->y - u->y);
		switch (op) {
		case RD_OP_CLOSEST:
			if (best < 0 || d < best_d)
				best = i, best_d = d;
			continue;
		case RD_OP_FARTHEST:
			if (best < 0 || d > best_d)
				best = i, best_d = d;
			continue;
		case RD_OP_STRONGEST:
			key = -ot->max_damage;
			break;
		case RD_OP_WEAKEST:
			key = ot->max_damage;
			break;
		case RD_OP_LESSHEALTHY:
			key = ot->hp;
			break;
		default: /* MostHealthy */
			key = -ot->hp;
			break;
		}
		/* smaller key first, then smaller distance, then list order */
		if (best < 0 || key < best_key || (key == best_key && d < best_d))
			best = i, best_key = key, best_d = d;
	}
	return best;
}

/* Direction.converte: a direction, or -1. */
static int resolve_dir(ms_rts_dsl_interp *it, int d, int ui)
{
	const rd_layer *L = &it->L;
	const ms_rts_unit *u = UNIT(it, ui);
	int x = u->x, y = u->y, best = -1, best_score = 0;

	switch (d) {
	case RD_D_RIGHT:
		return rd_jar_free(L, x + 1, y) ? MS_RTS_RIGHT : -1;
	case RD_D_LEFT:
		return rd_jar_free(L, x - 1, y) ? MS_RTS_LEFT : -1;
	case RD_D_UP:
		return rd_jar_free(L, x, y - 1) ? MS_RTS_UP : -1;
	case RD_D_DOWN:
		return rd_jar_free(L, x, y + 1) ? MS_RTS_DOWN : -1;
	default:
		break;
	}
	for (int dir = 0; dir < 4; dir++) {
		int nx = x + rts_dx[dir], ny = y + rts_dy[dir], score = 0, first = 1;
		if (nx < 0 || ny < 0 || nx >= L->w || ny >= L->h || !rd_free(L, nx + ny * L->w))
			continue;
		for (int k = 0; k < it->n_enemy; k++) {
			const ms_rts_unit *o = UNIT(it, it->enemy[k]);
			int dd;
			if (o->player != 1 - it->player)
				continue;
			dd = (o->x - nx) * (o->x - nx) + (o->y - ny) * (o->y - ny);
			if (first || dd < score)
				score = dd, first = 0;
		}
		if (best < 0 || score < best_score)
			best = dir, best_score = score;
	}
	return best;
}

static int eval_cond(ms_rts_dsl_interp *it, int i, int ui, int *value);

static int eval_cond(ms_rts_dsl_interp *it, int i, int ui, int *value)
{
	const rd_node *c = &it->code[i];
	const ms_rts_unit *u = ui >= 0 ? UNIT(it, ui) : NULL;
	const ms_rts_unit_type *ut = u ? TYPE(it, u) : NULL;
	int tt = c->t >= 0 ? it->tmap[c->t] : -1, rc, v = 0;

	reach_tree(it, i);
	switch (c->op) {
	case MS_RTS_DSL_HASNUMBEROFUNITS:
	case MS_RTS_DSL_HASLESSNUMBEROFUNITS: {
		int count = tt < 0 ? 0 : it->n_own[tt] + it->n_build[tt] + it->n_train[tt];
		v = c->op == MS_RTS_DSL_HASNUMBEROFUNITS ? count >= c->n : count < c->n;
		break;
	}
	case MS_RTS_DSL_OPPONENTHASNUMBEROFUNITS:
		v = (tt < 0 ? 0 : it->n_other[tt]) >= c->n;
		break;
	case MS_RTS_DSL_HAVEQTDUNITSATTACKING:
		v = it->n_attack >= c->n;
		break;
	case MS_RTS_DSL_HASNUMBEROFWORKERSHARVESTING:
		v = it->n_harvest >= c->n;
		break;
	case MS_RTS_DSL_HASUNITWITHINDISTANCEFROMOPPONENT:
		if (!u)
			return it->any_opponent ? no_unit(it, i) : (*value = 0, MS_OK);
		FACTS(it, ui);
		v = it->opp_d2[ui] <= (int64_t)c->n * c->n;
		break;
	case MS_RTS_DSL_HASUNITINOPPONENTRANGE:
		if (!u)
			return it->any_enemy ? no_unit(it, i) : (*value = 0, MS_OK);
		FACTS(it, ui);
		v = it->in_range[ui];
		break;
	case MS_RTS_DSL_OPPONENTHASUNITINPLAYERRANGE:
		if (!u)
			return no_unit(it, i);
		if (u->player != it->player)
			break;
		FACTS(it, ui);
		v = it->enemy_d2[ui] <= ut->attack_range * ut->attack_range;
		break;
	case MS_RTS_DSL_HASUNITTHATKILLSINONEATTACK:
		if (!u)
			return it->any_enemy ? no_unit(it, i) : (*value = 0, MS_OK);
		v = it->n_enemy > 0 && it->min_enemy_hp <= ut->max_damage;
		break;
	case MS_RTS_DSL_OPPONENTHASUNITTHATKILLSUNITINONEATTACK:
		if (!u)
			return it->any_enemy ? no_unit(it, i) : (*value = 0, MS_OK);
		v = it->n_enemy > 0 && it->max_enemy_damage >= u->hitpoints;
		break;
	case MS_RTS_DSL_IS_TYPE:
		if (!u)
			return no_unit(it, i);
		v = tt >= 0 && u->type == tt;
		break;
	case MS_RTS_DSL_ISBUILDER:
		if (!u)
			return no_unit(it, i);
		v = it->id_worker >= 0 && u->type == it->id_worker;
		break;
	case MS_RTS_DSL_CANATTACK:
		if (!u)
			return no_unit(it, i);
		v = ut->can_attack;
		break;
	case MS_RTS_DSL_CANHARVEST:
		if (!u)
			return no_unit(it, i);
		v = ut->can_harvest;
		break;
	case MS_RTS_DSL_NOT:
		if ((rc = eval_cond(it, c->k[0], ui, &v)))
			return rc;
		v = !v;
		break;
	default:
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL: node %d is not a condition", i);
	}
	*value = v != 0;
	return MS_OK;
}

static int has_action(const ms_rts_dsl_interp *it, int ui)
{
	return it->L.aa_of[ui] >= 0;
}

/* Build(T, D, N): the budget test comes first, only then is u read. */
static int exec_build(ms_rts_dsl_interp *it, int i, int ui)
{
	const rd_node *c = &it->code[i];
	const ms_rts_unit *u = ui >= 0 ? UNIT(it, ui) : NULL;
	int tt = c->t >= 0 ? it->tmap[c->t] : -1, dir, x, y;
	rd_layer *L = &it->L;

	reach_node(it, c->at);
	if (tt < 0 || it->R < it->utt->types[tt].cost)
		return MS_OK;
	if (!u)
		return no_unit(it, i);
	if (u->type != it->id_worker || has_action(it, ui) || (c->t != RD_T_BARRACKS && c->t != RD_T_BASE))
		return MS_OK;
	if (u->player != it->player)
		return MS_OK;
	reach_node(it, c->an);
	if (!(it->n_own[tt] + it->n_build[tt] < c->n))
		return MS_OK;
	reach_node(it, c->ad);
	if ((dir = resolve_dir(it, c->d, ui)) >= 0) {
		x = u->x + rts_dx[dir];
		y = u->y + rts_dy[dir];
	} else {
		int pos = rd_building_position(L, u->x, u->y);
		x = pos % L->w; /* -1 becomes (-1, 0), as in Java */
		y = pos / L->w;
	}
	it->R -= it->utt->types[tt].cost;
	return assign(it, ui, MS_RTS_DSL_AA_BUILD, i, -1, -1, x, y, tt, -1);
}

/* Train(T, D, N): a Base trains Workers, Barracks the combat units. */
static int exec_train(ms_rts_dsl_interp *it, int i, int ui)
{
	const rd_node *c = &it->code[i];
	const ms_rts_unit *u = ui >= 0 ? UNIT(it, ui) : NULL;
	int tt = c->t >= 0 ? it->tmap[c->t] : -1;

	if (!u)
		return no_unit(it, i);
	reach_node(it, c->at);
	if (tt < 0 || u->player != it->player || has_action(it, ui))
		return MS_OK;
	if ((u->type == it->id_base && c->t == RD_T_WORKER) ||
	    (u->type == it->id_barracks && (c->t == RD_T_LIGHT || c->t == RD_T_HEAVY || c->t == RD_T_RANGED))) {
		reach_node(it, c->an);
		reach_node(it, c->ad);
		if (it->R < it->utt->types[tt].cost || !(it->n_own[tt] + it->n_train[tt] < c->n))
			return MS_OK;
		it->R -= it->utt->types[tt].cost;
		return assign(it, ui, MS_RTS_DSL_AA_TRAIN, i, -1, -1, 0, 0, tt, resolve_dir(it, c->d, ui));
	}
	return MS_OK;
}

static int exec_command(ms_rts_dsl_interp *it, int i, int ui)
{
	const rd_node *c = &it->code[i];
	const ms_rts_unit *u = ui >= 0 ? UNIT(it, ui) : NULL;
	const ms_rts_unit_type *ut = u ? TYPE(it, u) : NULL;
	rd_layer *L = &it->L;

	/* the command, and each parameter where it is first read: another value of an unread one decides alike */
	reach_node(it, i);
	switch (c->op) {
	case MS_RTS_DSL_ATTACK:
		if (!u)
			return no_unit(it, i);
		if (!ut->can_attack || u->player != it->player || has_action(it, ui))
			return MS_OK;
		reach_node(it, c->ao);
		return assign(it, ui, MS_RTS_DSL_AA_ATTACK, i, select_target(it, c->o, ui, it->player), -1, 0, 0, -1, -1);
	case MS_RTS_DSL_BUILD:
		return exec_build(it, i, ui);
	case MS_RTS_DSL_TRAIN:
		return exec_train(it, i, ui);
	case MS_RTS_DSL_HARVEST: {
		int res = -1, base = -1, dres = 0, dbase = 0;
		if (!u)
			return no_unit(it, i);
		if (!ut->can_harvest || u->player != it->player || has_action(it, ui))
			return MS_OK;
		reach_node(it, c->an);
		if (it->n_harvest >= c->n)
			return MS_OK;
		/* the two nearest are chosen independently: two scans meet them as one would */
		for (int k = 0; k < it->n_res; k++) {
			const ms_rts_unit *o = UNIT(it, it->res[k]);
			int d = iabs(o->x - u->x) + iabs(o->y - u->y);
			if (res < 0 || d < dres)
				res = it->res[k], dres = d;
		}
		for (int k = 0; k < it->n_stock; k++) {
			const ms_rts_unit *o = UNIT(it, it->stock[k]);
			int d = iabs(o->x - u->x) + iabs(o->y - u->y);
			if (base < 0 || d < dbase)
				base = it->stock[k], dbase = d;
		}
		if (res < 0 || base < 0)
			return MS_OK;
		return assign(it, ui, MS_RTS_DSL_AA_HARVEST, i, res, base, 0, 0, -1, -1);
	}
	case MS_RTS_DSL_IDLE: {
		int r2;
		if (!u)
			return no_unit(it, i);
		if (u->player != it->player || has_action(it, ui) || !ut->can_attack)
			return MS_OK;
		r2 = ut->attack_range * ut->attack_range;
		FACTS(it, ui);
		if (it->enemy_d2[ui] <= r2)
			return assign(it, ui, MS_RTS_DSL_AA_IDLE, i, -1, -1, 0, 0, -1, -1);
		return MS_OK;
	}
	case MS_RTS_DSL_MOVEAWAY:
	case MS_RTS_DSL_MOVETOUNIT: {
		int target = -1, dir, goal;
		if (!u)
			return no_unit(it, i);
		if (!ut->can_move || u->player != it->player || has_action(it, ui))
			return MS_OK;
		reach_node(it, c->ao);
		reach_node(it, c->atp);
		if (c->op == MS_RTS_DSL_MOVEAWAY) {
			int best_d = 0;
			for (int k = 0; k < it->n_own_ix; k++) {
				int j = it->own[k];
				const ms_rts_unit *o = UNIT(it, j);
				int d;
				if (o->type != it->id_base)
					continue;
				d = iabs(o->x - u->x) + iabs(o->y - u->y);
				if (target < 0 || d > best_d)
					target = j, best_d = d;
			}
		} else {
			target = select_target(it, c->o, ui, c->tp == RD_TP_ENEMY ? it->player : 1 - it->player);
		}
		if (target < 0)
			return MS_OK;
		rd_astar(L, u->x, u->y, UNIT(it, target)->x + UNIT(it, target)->y * L->w, 1, 0, &dir, &goal);
		if (goal < 0)
			return MS_OK;
		return assign(it, ui, MS_RTS_DSL_AA_MOVE, i, -1, -1, goal % L->w, goal / L->w, -1, -1);
	}
	default:
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL: node %d is not a command", i);
	}
}

static int exec_stmt(ms_rts_dsl_interp *it, int i, int ui);

/* BIL's pass of unit type `t` (-1: the combat units). */
static int bil_pass(const ms_rts_dsl_interp *it, int pass, int type)
{
	switch (pass) {
	case 0:
		return type == it->id_worker;
	case 1:
		return type == it->id_barracks;
	case 2:
		return type == it->id_base;
	default:
		return type == it->id_heavy || type == it->id_ranged || type == it->id_light;
	}
}

static int exec_residual(ms_rts_dsl_interp *it, int i, int ui);

static int exec_for(ms_rts_dsl_interp *it, int i)
{
	const rd_node *c = &it->code[i];
	rd_for *f = &it->fors[i];
	uint32_t v0 = it->version;
	int rc = MS_OK, passes = it->opts.for_order == MS_RTS_DSL_FOR_BIL ? 4 : 1, full;

	/* no test of it->cut: exec_stmt and exec_residual, its only callers, make it */
	reach_node(it, i);
	if (f->tick == it->tick && f->v0 == f->v1 && f->v1 == v0 && !c->rnd && !it->opts.full_loops)
		return MS_OK;
	/* Every command checks first that its unit has no action yet, and
	 * nothing before that check changes anything (Random targets are drawn
	 * after it): a body run for a unit that has one does nothing but run
	 * its loops over other units (exec_residual), and a loop does nothing
	 * once all of ours have one. The rest of such runs is skipped. */
	full = it->opts.full_loops;
	for (int pass = 0; pass < passes && !rc && (full || it->L.n_aa < it->n_own_ix); pass++)
		for (int k = 0; k < it->n_own_ix && !rc && !it->cut; k++) {
			int j = it->own[k];
			if (passes > 1 && !bil_pass(it, pass, UNIT(it, j)->type))
				continue;
			if (++it->iters > it->loop_budget && !full) {
				it->cut = 1;
				it->cuts++;
				break;
			}
			if (full || !has_action(it, j))
				rc = exec_stmt(it, c->k[0], j);
			else if (c->inner)
				rc = exec_residual(it, c->k[0], j);
			else
				reach_busy(it, c->k[0]);
		}
	f->tick = it->tick;
	f->v0 = v0;
	f->v1 = it->version;
	return rc;
}

/*
 * A body run for a unit that has an action already: of it only the loops
 * over other units act, and the conditions on the way to them decide
 * whether they run; its own commands would check the unit first and do
 * nothing, and a condition changes nothing.
 */
static int exec_residual(ms_rts_dsl_interp *it, int i, int ui)
{
	const rd_node *c = &it->code[i];
	int rc, v;

	if (it->cut)
		return MS_OK;
	if (!c->loops) {
		reach_busy(it, i);
		return MS_OK;
	}
	reach_node(it, i);
	switch (c->op) {
	case MS_RTS_DSL_S_SEQ:
		if ((rc = exec_residual(it, c->k[0], ui)))
			return rc;
		return exec_residual(it, c->k[1], ui);
	case MS_RTS_DSL_S_FOR:
		return exec_for(it, i);
	case MS_RTS_DSL_S_IF:
		if ((rc = eval_cond(it, c->k[0], ui, &v)))
			return rc;
		return v ? exec_residual(it, c->k[1], ui) : MS_OK;
	case MS_RTS_DSL_S_IFELSE:
		if ((rc = eval_cond(it, c->k[0], ui, &v)))
			return rc;
		return exec_residual(it, c->k[v ? 1 : 2], ui);
	default:
		return MS_OK;
	}
}

static int exec_stmt(ms_rts_dsl_interp *it, int i, int ui)
{
	const rd_node *c = &it->code[i];
	int rc, v;

	if (it->cut) /* the loop budget ended the decision */
		return MS_OK;
	/* the unit got its action earlier in this body: the rest runs as a residual (exec_for's comment) */
	if (ui >= 0 && !it->opts.full_loops && has_action(it, ui))
		return exec_residual(it, i, ui);
	switch (c->op) {
	case MS_RTS_DSL_S_C:
		reach_node(it, i);
		return exec_command(it, c->k[0], ui);
	case MS_RTS_DSL_S_SEQ:
		reach_node(it, i);
		if ((rc = exec_stmt(it, c->k[0], ui)))
			return rc;
		return exec_stmt(it, c->k[1], ui);
	case MS_RTS_DSL_S_FOR:
		return exec_for(it, i);
	case MS_RTS_DSL_S_IF:
		reach_node(it, i);
		if ((rc = eval_cond(it, c->k[0], ui, &v)))
			return rc;
		return v ? exec_stmt(it, c->k[1], ui) : MS_OK;
	case MS_RTS_DSL_S_IFELSE:
		reach_node(it, i);
		if ((rc = eval_cond(it, c->k[0], ui, &v)))
			return rc;
		return exec_stmt(it, c->k[v ? 1 : 2], ui);
	case MS_RTS_DSL_S_EMPTY:
		reach_node(it, i);
		return MS_OK;
	default:
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL: node %d is not a statement", i);
	}
}

static int publish(ms_rts_dsl_interp *it)
{
	const rd_layer *L = &it->L;

	if (ms_vec_grow(it->ctx, (void **)&it->pub, &it->cap_pub, L->n_aa, sizeof *it->pub) < 0)
		return ms_ctx_error(it->ctx, MS_ENOMEM, "DSL: out of memory");
	for (int k = 0; k < L->n_aa; k++) {
		const rd_aa *a = &L->aa[k];
		ms_rts_dsl_assignment *o = &it->pub[k];
		o->unit = UNIT(it, a->unit)->id;
		o->kind = a->kind;
		o->target = a->target >= 0 ? UNIT(it, a->target)->id : -1;
		o->base = a->base >= 0 ? UNIT(it, a->base)->id : -1;
		o->x = a->x;
		o->y = a->y;
		o->unit_type = a->kind == MS_RTS_DSL_AA_BUILD || a->kind == MS_RTS_DSL_AA_TRAIN ? a->type : -1;
		o->pref = a->kind == MS_RTS_DSL_AA_TRAIN ? a->pref : -1;
		o->node = a->node;
	}
	it->n_pub = L->n_aa;
	return MS_OK;
}

/* Grows the unit lists and the per-unit facts for n units: one block of
 * eight int arrays and the stamps (nothing in it outlives a decision). */
static int grow_index(ms_rts_dsl_interp *it, int n)
{
	if (n <= it->cap_ix)
		return MS_OK;
	if (n > INT_MAX / 16)
		return ms_ctx_error(it->ctx, MS_ERANGE, "DSL: %d units are too many", n);
	/* the block's element is a unit's row: eight ints and a stamp */
	int cap = it->cap_ix;
	if (ms_vec_grow(it->ctx, (void **)&it->live, &cap, n < 64 ? 64 : n, sizeof(int) * 8 + sizeof(uint32_t)) < 0)
		return ms_ctx_error(it->ctx, MS_ENOMEM, "DSL: out of memory for %d units", n);
	n = cap;
	it->own = it->live + n;
	it->enemy = it->own + n;
	it->res = it->enemy + n;
	it->stock = it->res + n;
	it->enemy_d2 = it->stock + n;
	it->opp_d2 = it->enemy_d2 + n;
	it->in_range = it->opp_d2 + n;
	it->stamp = (uint32_t *)(it->in_range + n);
	memset(it->stamp, 0, sizeof(uint32_t) * (size_t)n);
	it->dec = 0;
	it->cap_ix = n;
	return MS_OK;
}

/* This decision's unit lists, counts and enemy extremes. */
static int index_units(ms_rts_dsl_interp *it, const ms_rts_state *s, int player)
{
	const rts_unit *us = it->L.units;
	int rc;

	if ((rc = grow_index(it, s->n_units)))
		return rc;
	if (++it->dec == 0) {
		memset(it->stamp, 0, sizeof(uint32_t) * (size_t)it->cap_ix);
		it->dec = 1;
	}
	it->n_live = it->n_own_ix = it->n_enemy = it->n_res = it->n_stock = 0;
	it->min_enemy_hp = INT_MAX;
	it->max_enemy_damage = INT_MIN;
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		const ms_rts_unit_type *ut = TYPE(it, u);
		if (u->player == player)
			it->n_own[u->type]++;
		else
			it->n_other[u->type]++;
		if (u->player == 1 - player)
			it->any_opponent = 1;
		if (ut->is_resource)
			it->res[it->n_res++] = i;
		if (u->player < 0)
			continue;
		it->live[it->n_live++] = i;
		if (u->player == player) {
			it->own[it->n_own_ix++] = i;
			if (ut->is_stockpile)
				it->stock[it->n_stock++] = i;
			continue;
		}
		it->any_enemy = 1;
		it->enemy[it->n_enemy++] = i;
		if (u->hitpoints < it->min_enemy_hp)
			it->min_enemy_hp = u->hitpoints;
		if (ut->max_damage > it->max_enemy_damage)
			it->max_enemy_damage = ut->max_damage;
	}
	return MS_OK;
}

/* 1 when every unit of `player` has an action running. */
static int none_free(const ms_rts_state *s, int player)
{
	const rts_unit *us = rts_cunits(s);

	for (int i = 0; i < s->n_units; i++)
		if (us[i].u.player == player && us[i].slot < 0)
			return 0;
	return 1;
}

int ms_rts_dsl_decide(ms_rts_dsl_interp *it, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	int rc;

	*n = 0;
	if (player != 0 && player != 1)
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL: player %d is not 0 or 1", player);
	/* the same view: the same decision, assignments and search count (Random draws aside) */
	if (rd_view_repeat(it->ctx, &it->view, s, player, max) && !it->code[0].rnd && !it->opts.every_decision) {
		if (it->view.n_out > 0)
			memcpy(out, it->view.out, sizeof(*out) * (size_t)it->view.n_out);
		*n = it->view.n_out;
		it->repeats++;
		return MS_OK;
	}
	it->n_pub = 0;
	/* No unit of ours is free: translation drops every abstract action (a
	 * busy unit gets none) and fills no wait, so the answer is empty
	 * whatever the program does; Random draws aside, nothing of a decision
	 * outlives it. Most decisions of a match are such (after a decision
	 * every free unit has an action or a 10-cycle wait). */
	if (!it->code[0].rnd && !it->opts.every_decision && none_free(s, player)) {
		it->L.expanded = 0;
		rd_view_answer(&it->view, out, 0);
		it->skips++;
		return MS_OK;
	}
	bind_utt(it, s->utt);
	it->L.full_paths = it->opts.full_paths;
	it->L.check_regions = it->opts.check_regions;
	it->L.check_cells = it->opts.check_cells;
	it->L.memo = it->opts.path_memo;
	it->L.check_memo = it->opts.check_memo;
	it->L.budget = it->opts.path_budget > 0 ? it->opts.path_budget : RD_ASTAR_BUDGET;
	if ((rc = rd_layer_begin(&it->L, s, player)))
		return rc;
	if (++it->tick == 0) {
		for (int i = 0; i < it->n_code; i++)
			it->fors[i].tick = 0;
		it->tick = 1;
	}
	it->player = player;
	it->R = s->resources[player];
	it->version = 0;
	it->iters = 0;
	it->cut = 0;
	it->loop_budget = it->opts.loop_budget > 0 ? it->opts.loop_budget : RD_LOOP_BUDGET;
	it->n_harvest = it->n_attack = 0;
	it->any_enemy = it->any_opponent = 0;
	memset(it->n_own, 0, sizeof(it->n_own));
	memset(it->n_other, 0, sizeof(it->n_other));
	memset(it->n_build, 0, sizeof(it->n_build));
	memset(it->n_train, 0, sizeof(it->n_train));
	if ((rc = index_units(it, s, player)))
		return rc;
	if ((rc = exec_stmt(it, 0, -1)))
		return rc;
	if (it->cut && it->opts.cut_fails)
		return ms_ctx_error(it->ctx, MS_EILLEGAL,
				    "DSL: the decision at cycle %d ran past its budget of %ld loop iterations (nested "
				    "loops over %d units; a time check would stop it: the match counts as a loss)",
				    ms_rts_state_time(s), it->loop_budget, it->n_own_ix);
	if ((rc = publish(it)))
		return rc;
	if ((rc = rd_layer_translate(&it->L, out, max, n)))
		return rc;
	rd_view_answer(&it->view, out, *n);
	if (it->L.regions_wrong)
		return ms_ctx_error(it->ctx, MS_ERROR,
				    "DSL: region labels kept up to date differ from a fresh labelling at cycle %d, player %d",
				    ms_rts_state_time(s), player);
	if (it->L.cells_wrong)
		return ms_ctx_error(it->ctx, MS_ERROR,
				    "DSL: blocked cells kept up to date differ from the state at cycle %d, player %d",
				    ms_rts_state_time(s), player);
	if (it->L.memo_wrong)
		return ms_ctx_error(it->ctx, MS_ERROR,
				    "DSL: a path search's answer from the memo differs from the search at cycle %d, player %d",
				    ms_rts_state_time(s), player);
	return MS_OK;
}

long ms_rts_dsl_path_expansions(const ms_rts_dsl_interp *it)
{
	return it->L.expanded;
}

long ms_rts_dsl_skips(const ms_rts_dsl_interp *it)
{
	return it->skips;
}

long ms_rts_dsl_cuts(const ms_rts_dsl_interp *it)
{
	return it->cuts;
}

long ms_rts_dsl_repeats(const ms_rts_dsl_interp *it)
{
	return it->repeats;
}

const ms_rts_dsl_assignment *ms_rts_dsl_assignments(const ms_rts_dsl_interp *it, int *n)
{
	*n = it->n_pub;
	return it->pub;
}
