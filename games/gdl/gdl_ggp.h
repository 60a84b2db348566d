/*
 * A General Game Playing player behind the GGP protocol (issue 44), free of
 * any transport: the caller (tools/gdl/gdl_serve.c, over HTTP) hands it each
 * message body and writes back the answer the reply gives.
 *
 * Messages are KIF S-expressions as ggp-base's game server sends them:
 * (INFO), (PREVIEW rules clock), (START id role rules startclock playclock),
 * (PLAY id moves|NIL), (STOP id moves|NIL), (ABORT id). Answers: INFO
 * ((name N) (status available|busy)); PREVIEW and START `ready` (START
 * `busy` when no worker is free); PLAY a legal move of the player's role;
 * STOP `done`; ABORT `aborted`. A message
 * that cannot be read, names an unknown match, or carries rules or moves
 * that do not fit gets (error "what was wrong") and one log line, and the
 * player goes on.
 *
 * A match is run by a worker, a thread the caller lends (ms_gdl_ggp_worker,
 * e.g. as a job of ms_pool_for): it loads and grounds the rules (grounding
 * within half of the start clock, else on the fallback; the faster of the
 * two kept after at most 0.1 s of timed playouts each), builds the
 * searcher (UCT, or GUCT or SGUCT with their analysis within the start
 * clock), and searches until the clock less a margin, keeping its tree
 * between moves (advanced by the joint move the next message reports). A
 * START with no free worker is answered `busy`. START and PLAY replies are
 * pending until the worker answers; the caller polls them (after the wake
 * callback, or at their deadline): at the deadline an unanswered reply gives
 * the best move found so far, so no answer is later than its deadline
 * whatever the search is doing.
 *
 * Threads: ms_gdl_ggp_handle, _reply_take, _reply_release, _shutdown and
 * _free on one thread (the caller's, e.g. an event loop); workers on others.
 */
#ifndef MS_GAMES_GDL_GGP_H
#define MS_GAMES_GDL_GGP_H

#include "microsynth/gdl.h"

typedef struct ms_gdl_ggp ms_gdl_ggp;
typedef struct ms_gdl_ggp_reply ms_gdl_ggp_reply;

enum { MS_GDL_GGP_UCT = 1, MS_GDL_GGP_GUCT, MS_GDL_GGP_SGUCT };

#define MS_GDL_GGP_OPTIONS_VERSION 1

/** Options for ms_gdl_ggp_new; ms_gdl_ggp_options_init fills them. */
typedef struct ms_gdl_ggp_options {
	unsigned int version; /**< MS_GDL_GGP_OPTIONS_VERSION */
	int player;           /**< MS_GDL_GGP_UCT (default), _GUCT or _SGUCT */
	/** The searcher's options; `simulations` is ignored (searches run in
	 * chunks sized to about 10 ms until the clock) and `seed` is mixed with
	 * the match id. */
	ms_gdl_uct_options uct;
	ms_gdl_stat_options stat;   /**< GUCT, SGUCT: the analysis (sequences cut to fit the start clock) */
	ms_gdl_sguct_options sguct; /**< SGUCT: the evolution */
	long sguct_sims;            /**< SGUCT: offline simulations at most (default 10000; fewer if the clock is short) */
	int online;                 /**< SGUCT: generations on its tree after each answer (default 0) */
	double margin;              /**< seconds kept back from each clock (default 1; at most a quarter of the clock) */
	int ponder;                 /**< 1: search on between messages (default 1) */
	long max_nodes;             /**< a search stops at this many tree nodes (default 1,000,000: about 130 MB in connect four) */
	int fallback;               /**< 1: first-order evaluation, never the ground network */
	const char *name;           /**< INFO's name (default "microsynth"; one word) */
	int verbose;                /**< 1: a log line per move too */
	/** One log line (no newline), from any thread; NULL: none. */
	void (*log)(void *ud, const char *line);
	/** A pending reply got its answer (called from a match thread); NULL: none. */
	void (*wake)(void *ud);
	void *ud;
} ms_gdl_ggp_options;

/**
 * Fills the defaults above (version: MS_GDL_GGP_OPTIONS_VERSION); 0, or MS_EINVAL for a version
 * this build does not know.
 */
int ms_gdl_ggp_options_init(ms_gdl_ggp_options *opts, unsigned int version);

/** Creates a player on `ctx` (used on the caller's thread only). MS_EINVAL on bad options. */
int ms_gdl_ggp_new(ms_ctx *ctx, const ms_gdl_ggp_options *o, ms_gdl_ggp **out);

/**
 * Lends the calling thread to the player: runs one match after another
 * until ms_gdl_ggp_shutdown, then returns MS_OK. As many matches are played
 * at once as threads are in here.
 */
int ms_gdl_ggp_worker(ms_gdl_ggp *p);

/** Workers waiting for a match (a START now would get one). */
int ms_gdl_ggp_free_workers(ms_gdl_ggp *p);

/** Stops every match (searches end within their chunk) and sends the workers home. */
void ms_gdl_ggp_shutdown(ms_gdl_ggp *p);

/** Frees the player once every worker has returned; replies still held stay
 * valid until released (but may no longer be taken). */
void ms_gdl_ggp_free(ms_gdl_ggp *p);

/**
 * Handles one message received at `now` (seconds, CLOCK_MONOTONIC, when it
 * began to arrive): never blocks on a search. *out is a reply to poll with
 * ms_gdl_ggp_reply_take and to release. MS_ENOMEM only; a bad message gets
 * an error reply, not a failure.
 */
int ms_gdl_ggp_handle(ms_gdl_ggp *p, const char *msg, size_t len, double now, ms_gdl_ggp_reply **out);

/**
 * 1 and the answer in *text (valid until the reply is released) once the
 * reply has one: the match thread's, or at the deadline the best move so
 * far (then logged as late). 0 while pending.
 */
int ms_gdl_ggp_reply_take(ms_gdl_ggp_reply *r, double now, const char **text);

/** When a pending reply is answered at the latest (monotonic seconds). */
double ms_gdl_ggp_reply_deadline(const ms_gdl_ggp_reply *r);

void ms_gdl_ggp_reply_release(ms_gdl_ggp_reply *r);

/** What the player did so far: matches started, messages, error answers, late answers. */
typedef struct ms_gdl_ggp_counts {
	long matches, messages, errors, late;
} ms_gdl_ggp_counts;

void ms_gdl_ggp_counts_get(ms_gdl_ggp *p, ms_gdl_ggp_counts *c);

/* ---- messages (ggp_msg.c), shared with the tests ---------------------------- */

enum { MS_GGP_INFO = 1, MS_GGP_PREVIEW, MS_GGP_START, MS_GGP_PLAY, MS_GGP_STOP, MS_GGP_ABORT };

/** A span of the message text. */
typedef struct ms_ggp_span {
	const char *s;
	size_t n;
	int list; /**< 1: a parenthesised list */
} ms_ggp_span;

/** A message read by ms_gdl_ggp_parse; spans point into its text. */
typedef struct ms_ggp_msg {
	int type;
	ms_ggp_span id, role;
	ms_ggp_span rules; /**< START, PREVIEW: the rules list without its outer parentheses */
	ms_ggp_span moves; /**< PLAY, STOP: the moves list, or the atom NIL */
	double start_clock, play_clock; /**< START (PREVIEW: start_clock) */
} ms_ggp_msg;

/** Reads a message; MS_EPARSE with what is wrong in `err`. */
int ms_gdl_ggp_parse(const char *text, size_t len, ms_ggp_msg *m, char *err, size_t errsize);

/**
 * The elements of a list span (or of a whole text when `span` is not a
 * list) into el[0..max); *n gets how many there are (may exceed max).
 * MS_EPARSE on unbalanced parentheses.
 */
int ms_gdl_ggp_elements(const ms_ggp_span *span, ms_ggp_span *el, int max, int *n);

/** A term in ggp-base's compact form ("(mark 1 1)", "noop") into buf;
 * returns the length it needs (like snprintf). */
size_t ms_gdl_ggp_term_text(const ms_ggp_span *term, char *buf, size_t size);

#endif
