/*
 * A match's thread. START: the rules loaded and grounded, the searcher
 * built, GUCT's analysis and SGUCT's offline learning cut to what the start
 * clock leaves. PLAY: the reported joint move applied to the state and to
 * the tree, then searches in chunks of about 10 ms until the play clock
 * less the margin (the best move so far handed to the reply after each
 * chunk, for the deadline). Between messages the same tree grows on
 * (pondering). All the reasoner's objects belong to this thread.
 */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/hash.h"
#include "microsynth/mcts.h"
#include "ggp_internal.h"
#include "core/clock.h"

#define CHUNK_S 0.01 /* one search chunk: deadlines and cancellation are seen this often */
#define PROBE_S 0.03 /* the speed probe at START */

/* Move mv's text into buf (GGP_ANSWER_MAX); 0, or -1 if it does not fit. */
static int move_text(const ms_gdl *g, int mv, char *buf)
{
	int n = ms_gdl_move_text(g, mv, buf, GGP_ANSWER_MAX);
	return n >= 0 && n < GGP_ANSWER_MAX ? 0 : -1;
}

/* An error answer to c (if it waits for one) and the log line. */
static void match_error(ggp_match *m, ggp_cmd *c, const char *fmt, ...) MS_PRINTF(3, 4);
static void match_error(ggp_match *m, ggp_cmd *c, const char *fmt, ...)
{
	char what[700], line[GGP_ID_MAX + 720];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "match %s: %s", m->id, what);
	atomic_fetch_add(&m->owner->errors, 1);
	ggp_log(m->owner, "%s", line);
	if (c->reply) {
		char text[GGP_ANSWER_MAX];
		ggp_error_text(line, text, sizeof text);
		ggp_reply_finish(c->reply, text);
	}
}

/* The match cannot go on: what PLAYs will be told from now on. */
static void match_fail(ggp_match *m, ggp_cmd *c, const char *fmt, ...) MS_PRINTF(3, 4);
static void match_fail(ggp_match *m, ggp_cmd *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->why, sizeof m->why, fmt, ap);
	va_end(ap);
	m->live = 0;
	match_error(m, c, "%s", m->why);
}

/* st to the machine; m->live: st is not terminal. */
static int set_state(ggp_match *m)
{
	int rc = ms_gdl_machine_set(m->mach, m->st);
	m->live = rc == MS_OK && !ms_gdl_terminal(m->mach);
	return rc;
}

/* Role r's legal move printed as `text` (exactly, else the one equal but for case), or -1. */
static int find_legal(ggp_match *m, int r, const char *text)
{
	char buf[4096];
	const int *mv;
	int n = ms_gdl_legal(m->mach, r, &mv), folded = -1, nfolded = 0;
	for (int i = 0; i < n; i++) {
		ms_gdl_move_text(m->g, mv[i], buf, sizeof buf);
		if (!strcmp(buf, text))
			return mv[i];
		if (!strcasecmp(buf, text))
			folded = mv[i], nfolded++;
	}
	return nfolded == 1 ? folded : -1;
}

/* The joint move a PLAY or STOP reports, applied to the state and the tree. */
static int apply_moves(ggp_match *m, const ggp_cmd *c, char *err, size_t size)
{
	int joint[MS_MCTS_MAX_PLAYERS];
	if (!m->live)
		return snprintf(err, size, "moves after the end of the game"), -1;
	if (c->n_moves != m->nr)
		return snprintf(err, size, "%d moves for %d roles", c->n_moves, m->nr), -1;
	for (int r = 0; r < m->nr; r++)
		if ((joint[r] = find_legal(m, r, c->moves[r])) < 0)
			return snprintf(err, size, "%.200s is not a legal move of %s", c->moves[r],
					ms_gdl_role_name(m->g, r)),
			       -1;
	if (ms_gdl_next(m->mach, joint, m->nx) < 0)
		return snprintf(err, size, "the next state failed: %s", ms_ctx_last_error(m->ctx)), -1;
	ms_gdl_uct_played(m->uct, joint);
	uint64_t *t = m->st;
	m->st = m->nx, m->nx = t;
	m->plays++;
	if (set_state(m) < 0) {
		snprintf(m->why, sizeof m->why, "the state after move %d cannot be evaluated: %s", m->plays,
			 ms_ctx_last_error(m->ctx));
		return snprintf(err, size, "%s", m->why), -1;
	}
	return 0;
}

/* Simulations a second from the initial state of UCT (guided by `eval` if not NULL), over about PROBE_S; -1 if a search fails. */
static double probe(ggp_match *m, const ms_gdl_eval *eval)
{
	ms_gdl_uct_options uo = m->owner->o.uct;
	ms_gdl_uct *u;
	int joint[MS_MCTS_MAX_PLAYERS];
	long n = 0;
	double t0 = ms_now(), el;
	uo.simulations = 1, uo.eval = eval, uo.seed = m->seed ^ MS_SPLITMIX_GAMMA;
	if (ms_gdl_uct_new(m->ctx, &u, m->g, &uo) < 0)
		return -1;
	do {
		if (ms_gdl_uct_search(u, m->st, joint) < 0) {
			ms_gdl_uct_free(u);
			return -1;
		}
		n++;
	} while ((el = ms_now() - t0) < PROBE_S && n < 1000000);
	ms_gdl_uct_free(u);
	return (double)n / (el > 1e-6 ? el : 1e-6);
}

/* GUCT's analysis and SGUCT's offline learning, each cut to a share of what the start clock leaves. */
static void analyse(ggp_match *m, const ggp_cmd *c, double rate)
{
	const ms_gdl_ggp_options *o = &m->owner->o;
	ms_gdl_stat_options so = o->stat;
	double left = c->target - ms_now(), per_sequence = (so.playouts + 1.5) / rate;
	long fit = (long)(0.35 * left / per_sequence);
	if (fit < 3) {
		ggp_log(m->owner, "match %s: no time for StatGUCT's analysis (%.2f s left): plays UCT", m->id, left);
		return;
	}
	so.sequences = so.sequences > fit ? (int)fit : so.sequences;
	so.seed = m->seed ^ 0x5ca1ab1eull;
	if (ms_gdl_stat_build(m->ctx, &m->eval, m->g, &so) < 0) {
		ggp_log(m->owner, "match %s: StatGUCT's analysis failed (%s): plays UCT", m->id, ms_ctx_last_error(m->ctx));
		m->eval = NULL;
		return;
	}
	m->sequences = so.sequences;
	if (o->player != MS_GDL_GGP_SGUCT)
		return;
	double guided = probe(m, m->eval); /* cut-offs make GUCT's simulations shorter than UCT's */
	left = c->target - ms_now();
	long sims = (long)(0.4 * left * (guided > 0 ? guided : rate));
	sims = sims > o->sguct_sims ? o->sguct_sims : sims;
	if (sims < 100) {
		ggp_log(m->owner, "match %s: no time for SGUCT's offline learning (%.2f s left): plays GUCT", m->id, left);
		return;
	}
	ms_gdl_uct_options uo = o->uct;
	ms_gdl_sguct_options sgo = o->sguct;
	uo.simulations = sims, uo.seed = so.seed, uo.eval = m->eval;
	sgo.seed = so.seed;
	if (ms_gdl_sguct_offline(m->ctx, m->g, m->eval, &uo, &sgo, NULL) < 0)
		ggp_log(m->owner, "match %s: SGUCT's offline learning failed (%s): plays GUCT", m->id,
			ms_ctx_last_error(m->ctx));
	else
		m->offline = sims;
}

static const char *const player_names[] = { "", "uct", "guct", "sguct" };

/* START: rules, role, machine, searcher; `ready` once done (the deadline says it anyway). */
static void metagame(ggp_match *m, ggp_cmd *c)
{
	const ms_gdl_ggp_options *o = &m->owner->o;
	/* grounding may take half of what the start clock leaves (a game slow to
	 * ground plays on the fallback, the rest of the clock for the analysis
	 * and search); timing the two representations a twentieth, 0.1 s at most */
	double left = c->target - ms_now();
	ms_gdl_options go = { .version = MS_GDL_OPTIONS_VERSION,
			      .force_fallback = o->fallback,
			      .ground_seconds = left > 0.002 ? left / 2 : 0.001,
			      .choose_seconds = fmin(MS_GDL_CHOOSE_SECONDS, left / 20) };
	char name[GGP_ID_MAX + 16];
	snprintf(name, sizeof name, "START %s", m->id);
	if (ms_gdl_parse(m->ctx, &m->g, c->rules, c->rules_len, name, &go) < 0)
		return match_fail(m, c, "the rules do not load: %s", ms_ctx_last_error(m->ctx));
	m->nr = ms_gdl_num_roles(m->g);
	if ((m->role = ms_gdl_role_index(m->g, c->role)) < 0) {
		char roles[300];
		size_t len = 0;
		roles[0] = '\0';
		for (int r = 0; r < m->nr && len < sizeof roles - 1; r++)
			len += (size_t)snprintf(roles + len, sizeof roles - len, "%s%s", r ? " " : "", ms_gdl_role_name(m->g, r));
		return match_fail(m, c, "role %.100s is not one of the rules' roles (%s)", c->role, roles);
	}
	if (m->nr > MS_MCTS_MAX_PLAYERS)
		return match_fail(m, c, "the rules have %d roles; this player handles at most %d", m->nr,
				  MS_MCTS_MAX_PLAYERS);
	m->words = ms_gdl_state_words(m->g) ? ms_gdl_state_words(m->g) : 1;
	m->st = ms_ctx_calloc(m->ctx, m->words, sizeof *m->st);
	m->nx = ms_ctx_calloc(m->ctx, m->words, sizeof *m->nx);
	if (!m->st || !m->nx || ms_gdl_machine_new(m->ctx, &m->mach, m->g) < 0)
		return match_fail(m, c, "out of memory");
	ms_gdl_initial(m->g, m->st);
	if (set_state(m) < 0)
		return match_fail(m, c, "the initial state cannot be evaluated: %s", ms_ctx_last_error(m->ctx));
	const int *mv;
	if (m->live && ms_gdl_legal(m->mach, m->role, &mv) > 0) { /* for a first PLAY that comes before we are ready */
		char t[GGP_ANSWER_MAX];
		if (!move_text(m->g, mv[0], t)) {
			pthread_mutex_lock(&m->mu);
			memcpy(m->first_move, t, sizeof t);
			pthread_mutex_unlock(&m->mu);
		}
	}
	double rate = m->live ? probe(m, NULL) : 1000;
	if (rate < 0)
		return match_fail(m, c, "a search from the initial state fails: %s", ms_ctx_last_error(m->ctx));
	m->chunk = rate * CHUNK_S < 1 ? 1 : rate * CHUNK_S > 4096 ? 4096 : (int)(rate * CHUNK_S);
	if (o->player >= MS_GDL_GGP_GUCT && m->live)
		analyse(m, c, rate);
	ms_gdl_uct_options uo = o->uct;
	uo.simulations = m->chunk, uo.seed = m->seed, uo.eval = m->eval;
	if (ms_gdl_uct_new(m->ctx, &m->uct, m->g, &uo) < 0)
		return match_fail(m, c, "the searcher cannot be built: %s", ms_ctx_last_error(m->ctx));
	char how[120] = "";
	if (m->sequences)
		snprintf(how, sizeof how, " (StatGUCT on %d sequences%s", m->sequences, m->offline ? "" : ")");
	if (m->offline)
		snprintf(how + strlen(how), sizeof how - strlen(how), ", SGUCT offline on %ld simulations)", m->offline);
	static const char *const why[] = { "", " (forced)", " (size bound)", " (time bound)", " (faster)",
					   " (goal-directed: a large analysis)" };
	int rep = ms_gdl_representation(m->g, NULL, NULL, NULL);
	ggp_log(m->owner, "match %s: START as %s (%d role%s), %s%s, %s%s%s, %.0f simulations/s, ready after %.2f s of %g s",
		m->id, ms_gdl_role_name(m->g, m->role), m->nr, m->nr == 1 ? "" : "s",
		ms_gdl_is_grounded(m->g) ? "ground network" : "first-order fallback", rep >= 0 && rep <= 5 ? why[rep] : "",
		player_names[o->player], how,
		o->player > MS_GDL_GGP_UCT && !m->eval ? " (as uct)" : "", rate, ms_now() - c->t0, c->start_clock);
	ggp_reply_finish(c->reply, "ready");
}

/* Chunks of search until the target (one chunk if `once`); the role's best move (-1 if no search ran). */
static int search_until(ggp_match *m, ggp_cmd *c, int once, long *sims)
{
	int joint[MS_MCTS_MAX_PLAYERS], best = -1;
	while ((!once || !*sims) && ms_now() < c->target && !atomic_load(&m->cancel) && !ggp_reply_is_done(c->reply)) {
		if (ms_gdl_uct_search(m->uct, m->st, joint) < 0) {
			ggp_log(m->owner, "match %s: the search failed: %s", m->id, ms_ctx_last_error(m->ctx));
			break;
		}
		*sims += m->chunk;
		if (joint[m->role] != best) {
			char t[GGP_ANSWER_MAX];
			if (!move_text(m->g, best = joint[m->role], t))
				ggp_reply_best(c->reply, t);
		}
		if (ms_gdl_uct_nodes(m->uct) >= m->owner->o.max_nodes)
			break;
	}
	return best;
}

/* SGUCT online: a few generations on the current tree, in the opponents' time. */
static void learn_online(ggp_match *m)
{
	const ms_gdl_ggp_options *o = &m->owner->o;
	if (o->player != MS_GDL_GGP_SGUCT || o->online <= 0 || !m->eval || !m->live)
		return;
	ms_gdl_sguct_options sgo = o->sguct;
	sgo.generations = o->online;
	sgo.seed = m->seed + (uint64_t)m->plays;
	if (ms_gdl_sguct_learn(m->ctx, m->eval, m->uct, &sgo, NULL) < 0)
		ggp_log(m->owner, "match %s: online learning failed: %s", m->id, ms_ctx_last_error(m->ctx));
	ms_gdl_uct_eval_changed(m->uct);
}

static void play(ggp_match *m, ggp_cmd *c)
{
	char err[700];
	const int *mv;
	long sims = 0;
	if (!m->uct)
		return match_error(m, c, "cannot play: %s", m->why[0] ? m->why : "the match did not start");
	if (!c->nil && apply_moves(m, c, err, sizeof err) < 0)
		return match_error(m, c, "PLAY: %s", err);
	if (!m->live)
		return match_error(m, c, "PLAY: the game is over");
	int n = ms_gdl_legal(m->mach, m->role, &mv);
	if (n <= 0)
		return match_error(m, c, "PLAY: role %s has no legal move", ms_gdl_role_name(m->g, m->role));
	char t[GGP_ANSWER_MAX];
	if (move_text(m->g, mv[0], t))
		return match_error(m, c, "PLAY: a move of %s is over %d characters", ms_gdl_role_name(m->g, m->role),
				   GGP_ANSWER_MAX);
	ggp_reply_best(c->reply, t);
	/* a forced move needs no search, but one chunk keeps the tree rooted here */
	int best = search_until(m, c, n == 1, &sims);
	if (best >= 0 && n > 1)
		move_text(m->g, best, t);
	ggp_reply_finish(c->reply, t);
	if (m->owner->o.verbose)
		ggp_log(m->owner, "match %s: move %d: %s after %ld simulations in %.3f s, %d nodes", m->id, m->plays + 1, t,
			sims, ms_now() - c->t0, ms_gdl_uct_nodes(m->uct));
	learn_online(m);
}

/* STOP (the final joint move and the goals, logged) or ABORT. */
static void finish(ggp_match *m, ggp_cmd *c)
{
	char err[700], goals[600];
	size_t len = 0;
	if (c->type == GGP_CMD_ABORT) {
		ggp_log(m->owner, "match %s: aborted after %d moves", m->id, m->plays);
		return;
	}
	if (m->uct && !c->nil && apply_moves(m, c, err, sizeof err) < 0)
		ggp_log(m->owner, "match %s: STOP: %s", m->id, err);
	goals[0] = '\0';
	for (int r = 0; m->mach && !m->live && !m->why[0] && r < m->nr && len < sizeof goals - 64; r++) {
		int v;
		if (ms_gdl_goal(m->mach, r, &v) < 0)
			len += (size_t)snprintf(goals + len, sizeof goals - len, " %s=?", ms_gdl_role_name(m->g, r));
		else
			len += (size_t)snprintf(goals + len, sizeof goals - len, " %s=%d", ms_gdl_role_name(m->g, r), v);
	}
	ggp_log(m->owner, "match %s: STOP after %d moves%s%s", m->id, m->plays, goals[0] ? ", goals" : " (not over here)",
		goals);
}

static int can_ponder(ggp_match *m)
{
	return m->owner->o.ponder && !m->no_ponder && m->uct && m->live && !atomic_load(&m->cancel) &&
	       ms_gdl_uct_nodes(m->uct) < m->owner->o.max_nodes;
}

static void release(ggp_match *m)
{
	ms_gdl_uct_free(m->uct);
	ms_gdl_eval_free(m->eval);
	ms_gdl_machine_free(m->mach);
	ms_gdl_free(m->g);
	ms_ctx_mfree(m->ctx, m->st);
	ms_ctx_mfree(m->ctx, m->nx);
	m->uct = NULL, m->eval = NULL, m->mach = NULL, m->g = NULL, m->st = m->nx = NULL;
}

void ggp_match_run(ggp_match *m)
{
	m->seed = m->owner->o.uct.seed ^ ms_fnv1a_str(MS_FNV_OFFSET, m->id); /* each match its own seed */
	for (;;) {
		pthread_mutex_lock(&m->mu);
		while (!m->head && !m->quit) {
			if (!can_ponder(m)) {
				pthread_cond_wait(&m->cv, &m->mu);
				continue;
			}
			pthread_mutex_unlock(&m->mu);
			int joint[MS_MCTS_MAX_PLAYERS];
			if (ms_gdl_uct_search(m->uct, m->st, joint) < 0) /* the next PLAY's search reports it */
				m->no_ponder = 1;
			pthread_mutex_lock(&m->mu);
		}
		ggp_cmd *c = m->head;
		if (c && !(m->head = c->next))
			m->tail = NULL;
		pthread_mutex_unlock(&m->mu);
		if (!c)
			break;
		if (c->type == GGP_CMD_START && atomic_load(&m->cancel))
			match_error(m, c, "stopped before it started");
		else if (c->type == GGP_CMD_START)
			metagame(m, c);
		else if (c->type == GGP_CMD_PLAY)
			play(m, c);
		else
			finish(m, c);
		pthread_mutex_lock(&m->mu); /* back to the caller's thread, which frees it */
		c->next = m->done;
		m->done = c;
		pthread_mutex_unlock(&m->mu);
	}
	release(m);
	atomic_store(&m->exited, 1);
}
