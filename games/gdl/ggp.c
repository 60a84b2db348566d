/*
 * The GGP player's front: reads each message, answers what needs no search
 * at once (INFO, PREVIEW, STOP, ABORT, every error), and queues START and
 * PLAY for their match's worker (ggp_match.c) behind a pending reply.
 * Everything here but the workers' loop runs on the caller's thread; a
 * reply, a match's queue and the queue of matches waiting for a worker are
 * what both sides touch, each under its own mutex.
 */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ggp_internal.h"
#include "core/opts.h"

#define GGP_MOVES_MAX 64 /* moves in a PLAY or STOP at most (the searcher plays up to 16 roles) */

int ms_gdl_ggp_options_init(ms_gdl_ggp_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_GDL_GGP_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->player = MS_GDL_GGP_UCT;
	ms_gdl_uct_options_init(&o->uct, MS_GDL_UCT_OPTIONS_VERSION);
	ms_gdl_stat_options_init(&o->stat, MS_GDL_STAT_OPTIONS_VERSION);
	ms_gdl_sguct_options_init(&o->sguct, MS_GDL_SGUCT_OPTIONS_VERSION);
	o->sguct_sims = 10000;
	o->margin = 1.0;
	o->ponder = 1;
	o->max_nodes = 1000000;
	o->name = "microsynth";
	return MS_OK;
}

void ggp_log(ms_gdl_ggp *p, const char *fmt, ...)
{
	char line[1200];
	va_list ap;
	if (!p->o.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	p->o.log(p->o.ud, line);
}

void ggp_error_text(const char *what, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "(error \"%.700s", what);
	n = n < size ? n : size - 1;
	for (size_t i = 8; i < n; i++)
		if (buf[i] == '"')
			buf[i] = '\'';
		else if ((unsigned char)buf[i] < 32)
			buf[i] = ' ';
	snprintf(buf + n, size - n, "\")");
}

/* ---- replies ------------------------------------------------------------------ */

static ms_gdl_ggp_reply *reply_new(ms_gdl_ggp *p, const char *match, double deadline)
{
	ms_gdl_ggp_reply *r = ms_ctx_calloc(p->ctx, 1, sizeof *r);
	if (!r)
		return NULL;
	atomic_init(&r->refs, 1);
	pthread_mutex_init(&r->mu, NULL);
	r->deadline = deadline;
	r->owner = p;
	r->ctx = p->ctx;
	snprintf(r->match, sizeof r->match, "%s", match ? match : "");
	return r;
}

/* A reply answered now; NULL if out of memory. */
static ms_gdl_ggp_reply *reply_now(ms_gdl_ggp *p, const char *text)
{
	ms_gdl_ggp_reply *r = reply_new(p, NULL, 0);
	if (r) {
		snprintf(r->text, sizeof r->text, "%s", text);
		r->done = 1;
	}
	return r;
}

void ggp_reply_finish(ms_gdl_ggp_reply *r, const char *text)
{
	int woke = 0;
	pthread_mutex_lock(&r->mu);
	if (!r->done) {
		snprintf(r->text, sizeof r->text, "%s", text);
		r->done = woke = 1;
	}
	pthread_mutex_unlock(&r->mu);
	if (woke && r->owner->o.wake)
		r->owner->o.wake(r->owner->o.ud);
}

void ggp_reply_best(ms_gdl_ggp_reply *r, const char *text)
{
	pthread_mutex_lock(&r->mu);
	snprintf(r->best, sizeof r->best, "%s", text);
	pthread_mutex_unlock(&r->mu);
}

int ggp_reply_is_done(ms_gdl_ggp_reply *r)
{
	pthread_mutex_lock(&r->mu);
	int d = r->done;
	pthread_mutex_unlock(&r->mu);
	return d;
}

int ms_gdl_ggp_reply_take(ms_gdl_ggp_reply *r, double now, const char **text)
{
	int late = 0;
	pthread_mutex_lock(&r->mu);
	if (!r->done && now >= r->deadline) {
		snprintf(r->text, sizeof r->text, "%s", r->best[0] ? r->best : "nil");
		r->done = late = 1;
	}
	*text = r->done ? r->text : NULL;
	pthread_mutex_unlock(&r->mu);
	if (late) {
		atomic_fetch_add(&r->owner->late, 1);
		ggp_log(r->owner, "match %s: no answer from the search by the deadline: answered %s", r->match, r->text);
	}
	return *text != NULL;
}

double ms_gdl_ggp_reply_deadline(const ms_gdl_ggp_reply *r)
{
	return r->deadline;
}

void ms_gdl_ggp_reply_release(ms_gdl_ggp_reply *r)
{
	if (!r || atomic_fetch_sub(&r->refs, 1) != 1)
		return;
	pthread_mutex_destroy(&r->mu);
	ms_ctx_mfree(r->ctx, r);
}

/* ---- matches ------------------------------------------------------------------ */

static void cmd_free(ms_gdl_ggp *p, ggp_cmd *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n_moves; i++)
		ms_ctx_mfree(p->ctx, c->moves[i]);
	ms_ctx_mfree(p->ctx, c->moves);
	ms_ctx_mfree(p->ctx, c->rules);
	ms_ctx_mfree(p->ctx, c->role);
	ms_gdl_ggp_reply_release(c->reply);
	ms_ctx_mfree(p->ctx, c);
}

static void cmd_list_free(ms_gdl_ggp *p, ggp_cmd *c)
{
	while (c) {
		ggp_cmd *next = c->next;
		cmd_free(p, c);
		c = next;
	}
}

/* Queues c for the match's worker; with `quit`, the worker then leaves the match. */
static void match_push(ggp_match *m, ggp_cmd *c, int quit)
{
	pthread_mutex_lock(&m->mu);
	if (c) {
		if (m->tail)
			m->tail->next = c;
		else
			m->head = c;
		m->tail = c;
	}
	m->quit |= quit;
	pthread_cond_signal(&m->cv);
	pthread_mutex_unlock(&m->mu);
}

/* The commands the worker has handled, freed here (the caller's thread). */
static void match_collect(ggp_match *m)
{
	pthread_mutex_lock(&m->mu);
	ggp_cmd *done = m->done;
	m->done = NULL;
	pthread_mutex_unlock(&m->mu);
	cmd_list_free(m->owner, done);
}

/* Frees a match no worker runs (finished, or never taken). */
static void match_free(ggp_match *m)
{
	ms_gdl_ggp *p = m->owner;
	cmd_list_free(p, m->head);
	cmd_list_free(p, m->done);
	pthread_mutex_destroy(&m->mu);
	pthread_cond_destroy(&m->cv);
	ms_ctx_free(m->ctx);
	ms_ctx_mfree(p->ctx, m);
}

/* Takes the match off the list of matches being played: its worker stops
 * searching, handles `c` (STOP, ABORT; may be NULL) and what is queued, and leaves it. */
static void end_match(ms_gdl_ggp *p, ggp_match *m, ggp_cmd *c)
{
	for (ggp_match **pm = &p->matches; *pm; pm = &(*pm)->next)
		if (*pm == m) {
			*pm = m->next;
			break;
		}
	atomic_store(&m->cancel, 1);
	match_push(m, c, 1);
	m->next = p->ended;
	p->ended = m;
}

/* Frees what the workers are done with, and ends the matches a manager
 * forgot (no message for far longer than its clocks allow). */
static void reap(ms_gdl_ggp *p, double now)
{
	for (ggp_match *m = p->matches, *next; m; m = next) {
		next = m->next;
		match_collect(m);
		if (now - m->last <= m->idle_limit)
			continue;
		ggp_cmd *c = ms_ctx_calloc(p->ctx, 1, sizeof *c);
		ggp_log(p, "match %s: no message for %.0f s: ended", m->id, now - m->last);
		if (c)
			c->type = GGP_CMD_ABORT;
		end_match(p, m, c);
	}
	for (ggp_match **pm = &p->ended; *pm;) {
		ggp_match *m = *pm;
		if (atomic_load(&m->exited)) {
			*pm = m->next;
			match_free(m);
		} else {
			match_collect(m);
			pm = &m->next;
		}
	}
}

static ggp_match *find_match(ms_gdl_ggp *p, const ms_ggp_span *id)
{
	for (ggp_match *m = p->matches; m; m = m->next)
		if (strlen(m->id) == id->n && !memcmp(m->id, id->s, id->n))
			return m;
	return NULL;
}

static double margin_for(const ms_gdl_ggp *p, double clock)
{
	return p->o.margin < clock / 4 ? p->o.margin : clock / 4;
}

int ms_gdl_ggp_new(ms_ctx *ctx, const ms_gdl_ggp_options *o, ms_gdl_ggp **out)
{
	*out = NULL;
	if (!o || o->version != MS_GDL_GGP_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl ggp: options version %u, expected %d", o ? o->version : 0,
				    MS_GDL_GGP_OPTIONS_VERSION);
	if (o->player < MS_GDL_GGP_UCT || o->player > MS_GDL_GGP_SGUCT || !(o->margin >= 0) || o->max_nodes < 1 ||
	    o->sguct_sims < 0 || o->online < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl ggp: bad options (player, margin, max_nodes, sguct_sims, online)");
	ms_gdl_ggp *p = ms_ctx_calloc(ctx, 1, sizeof *p);
	if (!p)
		return MS_ENOMEM;
	p->ctx = ctx;
	p->o = *o;
	if (!p->o.name)
		p->o.name = "microsynth";
	atomic_init(&p->errors, 0);
	atomic_init(&p->late, 0);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	*out = p;
	return MS_OK;
}

int ms_gdl_ggp_worker(ms_gdl_ggp *p)
{
	pthread_mutex_lock(&p->mu);
	for (;;) {
		p->free_workers++;
		while (!p->quit && !p->waiting)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->quit)
			break;
		ggp_match *m = p->waiting; /* promised to us: free_workers already counts it */
		if (!(p->waiting = m->wait))
			p->waiting_tail = NULL;
		pthread_mutex_unlock(&p->mu);
		ggp_match_run(m);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return MS_OK;
}

int ms_gdl_ggp_free_workers(ms_gdl_ggp *p)
{
	pthread_mutex_lock(&p->mu);
	int n = p->quit ? 0 : p->free_workers;
	pthread_mutex_unlock(&p->mu);
	return n;
}

void ms_gdl_ggp_shutdown(ms_gdl_ggp *p)
{
	while (p->matches)
		end_match(p, p->matches, NULL);
	for (ggp_match *m = p->ended; m; m = m->next)
		match_push(m, NULL, 1);
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void ms_gdl_ggp_free(ms_gdl_ggp *p)
{
	if (!p)
		return;
	while (p->matches)
		end_match(p, p->matches, NULL);
	while (p->ended) {
		ggp_match *m = p->ended;
		p->ended = m->next;
		match_free(m);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	ms_ctx_mfree(p->ctx, p);
}

void ms_gdl_ggp_counts_get(ms_gdl_ggp *p, ms_gdl_ggp_counts *c)
{
	c->matches = p->started;
	c->messages = p->messages;
	c->errors = atomic_load(&p->errors);
	c->late = atomic_load(&p->late);
}

/* ---- messages ----------------------------------------------------------------- */

/* An answer given at once; MS_ENOMEM if it cannot be made. */
static int answer(ms_gdl_ggp *p, ms_gdl_ggp_reply **out, const char *text)
{
	*out = reply_now(p, text);
	return *out ? MS_OK : MS_ENOMEM;
}

/* An error answer and its log line. */
static int answer_error(ms_gdl_ggp *p, ms_gdl_ggp_reply **out, const char *fmt, ...) MS_PRINTF(3, 4);
static int answer_error(ms_gdl_ggp *p, ms_gdl_ggp_reply **out, const char *fmt, ...)
{
	char what[800], text[GGP_ANSWER_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	atomic_fetch_add(&p->errors, 1);
	ggp_log(p, "%s", what);
	ggp_error_text(what, text, sizeof text);
	return answer(p, out, text);
}

static char *span_dup(ms_gdl_ggp *p, const ms_ggp_span *s)
{
	char *t = ms_ctx_malloc(p->ctx, s->n + 1);
	if (t) {
		memcpy(t, s->s, s->n);
		t[s->n] = '\0';
	}
	return t;
}

/* The moves of a PLAY or STOP into c (NIL: c->nil); -1 with the reason in err. */
static int read_moves(ms_gdl_ggp *p, const ms_ggp_span *moves, ggp_cmd *c, char *err, size_t size)
{
	ms_ggp_span el[GGP_MOVES_MAX];
	int n;
	if (!moves->list) {
		if (moves->n == 3 && !strncasecmp(moves->s, "nil", 3)) {
			c->nil = 1;
			return 0;
		}
		snprintf(err, size, "the moves must be a list or NIL, not '%.*s'", (int)(moves->n > 60 ? 60 : moves->n),
			 moves->s);
		return -1;
	}
	if (ms_gdl_ggp_elements(moves, el, GGP_MOVES_MAX, &n) || n > GGP_MOVES_MAX)
		return snprintf(err, size, "the moves list cannot be read (or has over %d moves)", GGP_MOVES_MAX), -1;
	if (!(c->moves = ms_ctx_calloc(p->ctx, (size_t)(n ? n : 1), sizeof *c->moves)))
		return snprintf(err, size, "out of memory"), -1;
	for (int i = 0; i < n; i++) {
		size_t need = ms_gdl_ggp_term_text(&el[i], NULL, 0) + 1;
		if (!(c->moves[i] = ms_ctx_malloc(p->ctx, need)))
			return snprintf(err, size, "out of memory"), -1;
		ms_gdl_ggp_term_text(&el[i], c->moves[i], need);
		c->n_moves = i + 1;
	}
	return 0;
}

/* A worker for a new match, if one is free: promised to it until it takes the match. */
static int promise_worker(ms_gdl_ggp *p)
{
	pthread_mutex_lock(&p->mu);
	int ok = !p->quit && p->free_workers > 0;
	p->free_workers -= ok;
	pthread_mutex_unlock(&p->mu);
	return ok;
}

static void unpromise_worker(ms_gdl_ggp *p)
{
	pthread_mutex_lock(&p->mu);
	p->free_workers++;
	pthread_mutex_unlock(&p->mu);
}

/* The match to the queue of matches waiting for their worker. */
static void give_to_worker(ms_gdl_ggp *p, ggp_match *m)
{
	pthread_mutex_lock(&p->mu);
	if (p->waiting_tail)
		p->waiting_tail->wait = m;
	else
		p->waiting = m;
	p->waiting_tail = m;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* A new match with its START queued; NULL if out of memory. */
static ggp_match *match_new(ms_gdl_ggp *p, const ms_ggp_msg *msg, double now, ms_gdl_ggp_reply *r)
{
	ggp_match *m = ms_ctx_calloc(p->ctx, 1, sizeof *m);
	ggp_cmd *c = ms_ctx_calloc(p->ctx, 1, sizeof *c);
	if (!m || !c || ms_ctx_new(&m->ctx, NULL)) {
		ms_ctx_mfree(p->ctx, m);
		ms_ctx_mfree(p->ctx, c);
		return NULL;
	}
	memcpy(m->id, msg->id.s, msg->id.n);
	m->owner = p;
	m->play_clock = msg->play_clock;
	m->last = now;
	m->idle_limit = msg->start_clock + 10 * msg->play_clock + 60;
	m->role = -1;
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cv, NULL);
	atomic_init(&m->cancel, 0);
	atomic_init(&m->exited, 0);
	c->type = GGP_CMD_START;
	c->rules = span_dup(p, &msg->rules);
	c->rules_len = msg->rules.n;
	c->role = span_dup(p, &msg->role);
	c->start_clock = msg->start_clock;
	c->play_clock = msg->play_clock;
	c->t0 = now;
	c->target = now + msg->start_clock - margin_for(p, msg->start_clock);
	atomic_fetch_add(&r->refs, 1);
	c->reply = r;
	m->head = m->tail = c;
	if (!c->rules || !c->role) {
		match_free(m);
		return NULL;
	}
	return m;
}

/* START: a new match for a free worker, answered by it (or `ready` at the deadline). */
static int handle_start(ms_gdl_ggp *p, const ms_ggp_msg *msg, double now, ms_gdl_ggp_reply **out)
{
	const ms_ggp_span *id = &msg->id;
	if (find_match(p, id))
		return answer_error(p, out, "START: match %.*s is already being played", (int)id->n, id->s);
	if (msg->start_clock <= 0 || msg->play_clock <= 0)
		return answer_error(p, out, "START %.*s: the clocks must be positive", (int)id->n, id->s);
	if (!promise_worker(p)) {
		ggp_log(p, "START %.*s: busy (no free worker)", (int)id->n, id->s);
		return answer(p, out, "busy");
	}
	ms_gdl_ggp_reply *r = reply_new(p, NULL, now + msg->start_clock - margin_for(p, msg->start_clock) / 2);
	ggp_match *m = r ? match_new(p, msg, now, r) : NULL;
	if (!m) {
		ms_gdl_ggp_reply_release(r);
		unpromise_worker(p);
		return MS_ENOMEM;
	}
	memcpy(r->match, id->s, id->n);
	snprintf(r->best, sizeof r->best, "ready");
	m->next = p->matches;
	p->matches = m;
	p->started++;
	give_to_worker(p, m);
	*out = r;
	return MS_OK;
}

/* PLAY: queued for the match's worker, which answers by the clock less the margin. */
static int handle_play(ms_gdl_ggp *p, const ms_ggp_msg *msg, double now, ms_gdl_ggp_reply **out)
{
	char err[300];
	ggp_match *m = find_match(p, &msg->id);
	if (!m)
		return answer_error(p, out, "PLAY: unknown match %.*s", (int)msg->id.n, msg->id.s);
	ggp_cmd *c = ms_ctx_calloc(p->ctx, 1, sizeof *c);
	if (!c)
		return MS_ENOMEM;
	c->type = GGP_CMD_PLAY;
	m->last = now;
	if (read_moves(p, &msg->moves, c, err, sizeof err)) {
		cmd_free(p, c);
		return answer_error(p, out, "PLAY %s: %s", m->id, err);
	}
	double margin = margin_for(p, m->play_clock);
	ms_gdl_ggp_reply *r = reply_new(p, m->id, now + m->play_clock - margin / 2);
	if (!r) {
		cmd_free(p, c);
		return MS_ENOMEM;
	}
	c->t0 = now;
	c->target = now + m->play_clock - margin;
	if (c->nil) { /* the first move: the worker may still be loading the rules */
		pthread_mutex_lock(&m->mu);
		snprintf(r->best, sizeof r->best, "%s", m->first_move);
		pthread_mutex_unlock(&m->mu);
	}
	atomic_fetch_add(&r->refs, 1);
	c->reply = r;
	*out = r;
	match_push(m, c, 0);
	return MS_OK;
}

/* STOP and ABORT: answered at once; the worker logs the outcome and leaves the match. */
static int handle_end(ms_gdl_ggp *p, const ms_ggp_msg *msg, ms_gdl_ggp_reply **out)
{
	char err[300];
	const char *what = msg->type == MS_GGP_STOP ? "STOP" : "ABORT";
	ggp_match *m = find_match(p, &msg->id);
	if (!m)
		return answer_error(p, out, "%s: unknown match %.*s", what, (int)msg->id.n, msg->id.s);
	ggp_cmd *c = ms_ctx_calloc(p->ctx, 1, sizeof *c);
	if (!c)
		return MS_ENOMEM;
	c->type = msg->type == MS_GGP_STOP ? GGP_CMD_STOP : GGP_CMD_ABORT;
	if (c->type == GGP_CMD_STOP && read_moves(p, &msg->moves, c, err, sizeof err)) {
		ggp_log(p, "STOP %s: %s (the final moves are ignored)", m->id, err);
		c->nil = 1;
	}
	end_match(p, m, c);
	return answer(p, out, c->type == GGP_CMD_STOP ? "done" : "aborted");
}

int ms_gdl_ggp_handle(ms_gdl_ggp *p, const char *msg, size_t len, double now, ms_gdl_ggp_reply **out)
{
	ms_ggp_msg m;
	char err[300], head[64];
	*out = NULL;
	reap(p, now);
	p->messages++;
	if (ms_gdl_ggp_parse(msg, len, &m, err, sizeof err)) {
		size_t n = len < sizeof head - 1 ? len : sizeof head - 1;
		for (size_t i = 0; i < n; i++)
			head[i] = (unsigned char)msg[i] < 32 ? ' ' : msg[i];
		head[n] = '\0';
		return answer_error(p, out, "bad message: %s: %s%s", err, head, len > n ? "..." : "");
	}
	switch (m.type) {
	case MS_GGP_INFO: {
		char info[300];
		snprintf(info, sizeof info, "((name %s) (status %s))", p->o.name,
			 ms_gdl_ggp_free_workers(p) > 0 ? "available" : "busy");
		return answer(p, out, info);
	}
	case MS_GGP_PREVIEW:
		return answer(p, out, "ready");
	case MS_GGP_START:
		return handle_start(p, &m, now, out);
	case MS_GGP_PLAY:
		return handle_play(p, &m, now, out);
	default:
		return handle_end(p, &m, out);
	}
}
