/*
 * GDL's players (gdl.h, ms_gdl_player_*): random, uct, guct and sguct by
 * name, each made once for a run (guct and sguct build StatGUCT's function
 * then, the analysis time; sguct refines it on an offline search), started
 * for every game, asked for a move, told the joint move played. `gdl play`
 * seats them; the GGP server (ggp_match.c) runs its own, under clocks.
 */
#include <string.h>

#include "microsynth/gdl.h"
#include "microsynth/mcts.h"
#include "microsynth/spec.h"
#include "core/hash.h"
#include "core/internal.h"
#include "core/opts.h"
#include "microsynth/rng.h"
#include "core/clock.h"

struct ms_gdl_player {
	ms_ctx *ctx;
	const ms_gdl *g;
	int kind;
	ms_gdl_player_options o;
	ms_gdl_uct *uct;        /* this game's search (uct, guct, sguct) */
	ms_gdl_eval *eval;      /* guct, sguct: built once, at ms_gdl_player_new */
	ms_gdl_eval *game_eval; /* sguct online: this game's copy, refined during the game */
	ms_gdl_sguct_options sgo_online;
	uint64_t rng;           /* random: this game's generator */
};

/* GDL's players, in the order of MS_GDL_PLAYER_* from 1 (microsynth/spec.h). */
static const ms_spec_form gdl_player_forms[] = {
	{ "random", MS_SPEC_NONE, NULL, "a uniformly random legal move" },
	{ "uct", MS_SPEC_NONE, NULL, "decoupled UCT" },
	{ "guct", MS_SPEC_NONE, NULL, "UCT guided by StatGUCT's function" },
	{ "sguct", MS_SPEC_NONE, NULL, "guct whose function learns from an offline search (and online)" },
};

int ms_gdl_player_kind(const char *name)
{
	const char *arg;
	int i = ms_spec_find(gdl_player_forms, 4, sizeof gdl_player_forms[0], name, &arg);
	return i >= 0 ? i + MS_GDL_PLAYER_RANDOM : -1;
}

const char *ms_gdl_player_name(int kind)
{
	return kind >= MS_GDL_PLAYER_RANDOM && kind <= MS_GDL_PLAYER_SGUCT ? gdl_player_forms[kind - 1].name : "?";
}

const ms_spec_form *ms_gdl_players(int *n)
{
	*n = 4;
	return gdl_player_forms;
}

int ms_gdl_player_options_init(ms_gdl_player_options *opts, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_GDL_PLAYER_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(opts, 0, sizeof *opts);
	opts->version = (int)version;
	ms_gdl_uct_options_init(&opts->uo, MS_GDL_UCT_OPTIONS_VERSION);
	ms_gdl_stat_options_init(&opts->so, MS_GDL_STAT_OPTIONS_VERSION);
	ms_gdl_sguct_options_init(&opts->sgo, MS_GDL_SGUCT_OPTIONS_VERSION);
	opts->sguct_sims = 10000;
	return MS_OK;
}

/* The analysis time: StatGUCT's function (guct, sguct), refined on an offline search (sguct). */
static int prepare(ms_gdl_player *p, uint64_t seed)
{
	int rc;
	if (p->kind < MS_GDL_PLAYER_GUCT)
		return MS_OK;
	ms_gdl_stat_options so = p->o.so;
	so.seed = seed;
	if ((rc = ms_gdl_stat_build(p->ctx, &p->eval, p->g, &so)) < 0 || p->kind != MS_GDL_PLAYER_SGUCT)
		return rc;
	ms_gdl_uct_options uo = p->o.uo;
	uo.simulations = p->o.sguct_sims, uo.seed = so.seed;
	ms_gdl_sguct_options sgo = p->o.sgo;
	sgo.seed = so.seed;
	return ms_gdl_sguct_offline(p->ctx, p->g, p->eval, &uo, &sgo, NULL);
}

int ms_gdl_player_new(ms_ctx *ctx, ms_gdl_player **out, const ms_gdl *g, int kind, const ms_gdl_player_options *o,
		      uint64_t seed)
{
	ms_gdl_player *p;
	int rc;

	*out = NULL;
	if (!o || !MS_OPTS_VERSION_OK((unsigned)o->version, MS_GDL_PLAYER_OPTIONS_VERSION) ||
	    kind < MS_GDL_PLAYER_RANDOM || kind > MS_GDL_PLAYER_SGUCT)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl player: unknown kind %d or options version", kind);
	if (!(p = ms_ctx_calloc(ctx, 1, sizeof *p)))
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl player: out of memory");
	p->ctx = ctx;
	p->g = g;
	p->kind = kind;
	p->o = *o;
	if ((rc = prepare(p, seed)) < 0) {
		ms_gdl_player_free(p);
		return rc;
	}
	*out = p;
	return MS_OK;
}

int ms_gdl_player_start(ms_gdl_player *p, uint64_t seed)
{
	ms_gdl_uct_options uo = p->o.uo;
	int rc;

	ms_gdl_player_end(p);
	uo.seed = seed;
	p->rng = seed * MS_SPLITMIX_GAMMA + 1;
	if (p->kind == MS_GDL_PLAYER_SGUCT && p->o.online > 0) {
		p->sgo_online = p->o.sgo;
		p->sgo_online.generations = p->o.online;
		p->sgo_online.seed = uo.seed;
		if ((rc = ms_gdl_eval_clone(p->ctx, &p->game_eval, p->eval)) < 0)
			return rc;
	}
	uo.eval = p->game_eval ? p->game_eval : p->eval;
	if (p->kind >= MS_GDL_PLAYER_UCT && (rc = ms_gdl_uct_new(p->ctx, &p->uct, p->g, &uo)) < 0)
		return rc;
	return MS_OK;
}

int ms_gdl_player_move(ms_gdl_player *p, ms_gdl_machine *mm, const uint64_t *st, int role, int *move)
{
	if (p->uct) {
		int want[MS_MCTS_MAX_PLAYERS];
		double t0 = ms_now();
		do {
			if (ms_gdl_uct_search(p->uct, st, want) < 0)
				return MS_ERROR;
		} while (ms_now() - t0 < p->o.seconds);
		if (p->game_eval) { /* SGUCT online: learn from this tree before the next move */
			if (ms_gdl_sguct_learn(p->ctx, p->game_eval, p->uct, &p->sgo_online, NULL) < 0)
				return MS_ERROR;
			ms_gdl_uct_eval_changed(p->uct);
		}
		*move = want[role];
		return MS_OK;
	}
	const int *mv;
	int n = ms_gdl_legal(mm, role, &mv);
	if (n <= 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "role %d has no legal move in a non-terminal state", role);
	*move = mv[ms_rng_below(&p->rng, (uint32_t)n)];
	return MS_OK;
}

void ms_gdl_player_played(ms_gdl_player *p, const int *joint)
{
	if (p->uct)
		ms_gdl_uct_played(p->uct, joint);
}

void ms_gdl_player_end(ms_gdl_player *p)
{
	if (!p)
		return;
	ms_gdl_uct_free(p->uct);
	ms_gdl_eval_free(p->game_eval);
	p->uct = NULL, p->game_eval = NULL;
}

void ms_gdl_player_free(ms_gdl_player *p)
{
	if (!p)
		return;
	ms_gdl_player_end(p);
	ms_gdl_eval_free(p->eval);
	ms_ctx_mfree(p->ctx, p);
}
