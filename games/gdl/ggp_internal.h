/* The GGP player's parts shared by ggp.c (messages, replies, matches, on the
 * caller's thread) and ggp_match.c (a match run by a worker). Ownership:
 * the caller's thread allocates and frees replies, commands and matches on
 * the player's context; a worker allocates only on its match's context, and
 * hands handled commands back (`done`) for the caller's thread to free. */
#ifndef MS_GAMES_GDL_GGP_INTERNAL_H
#define MS_GAMES_GDL_GGP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "gdl_ggp.h"

#define GGP_ID_MAX 200
#define GGP_ANSWER_MAX 4096 /* a move's text at most (GGP moves are a few words) */

struct ms_gdl_ggp_reply {
	atomic_int refs;
	pthread_mutex_t mu; /* guards done, text, best */
	int done;           /* text is the answer */
	char text[GGP_ANSWER_MAX];
	char best[GGP_ANSWER_MAX]; /* what the deadline answers while pending: the best move so far, "ready" */
	double deadline;
	ms_gdl_ggp *owner; /* to log and count a late answer (while the player lives) */
	ms_ctx *ctx;       /* its memory's, which may outlive the player */
	char match[GGP_ID_MAX + 1];
};

enum { GGP_CMD_START = 1, GGP_CMD_PLAY, GGP_CMD_STOP, GGP_CMD_ABORT };

/* A message for a match's worker. */
typedef struct ggp_cmd {
	struct ggp_cmd *next;
	int type;
	char *rules; /* START: the rules' text (inside the list), its role */
	size_t rules_len;
	char *role;
	double start_clock, play_clock;
	char **moves; /* PLAY, STOP: compact texts, one per role; nil: NIL */
	int n_moves, nil;
	double t0, target;       /* received; the worker answers by target */
	ms_gdl_ggp_reply *reply; /* START, PLAY */
} ggp_cmd;

typedef struct ggp_match {
	struct ggp_match *next; /* in the player's matches or ended */
	struct ggp_match *wait; /* in the queue of matches waiting for a worker */
	ms_gdl_ggp *owner;
	char id[GGP_ID_MAX + 1];
	double play_clock;
	double last, idle_limit; /* caller's side: when its last message came, how long it may wait for the next */
	pthread_mutex_t mu;      /* guards the queue, done, quit and first_move */
	pthread_cond_t cv;
	ggp_cmd *head, *tail; /* for the worker */
	ggp_cmd *done;        /* handled, for the caller's thread to free */
	int quit;             /* the worker leaves the match once the queue is empty */
	char first_move[GGP_ANSWER_MAX]; /* the initial state's first legal move of the role, once known */
	atomic_int cancel, exited;
	/* the worker's own while it runs the match */
	ms_ctx *ctx;
	ms_gdl *g;
	ms_gdl_machine *mach;
	ms_gdl_uct *uct;
	ms_gdl_eval *eval;
	uint64_t *st, *nx;
	size_t words;
	int role, nr, plays, chunk;
	int sequences;  /* GUCT: StatGUCT's sequences (0: plays UCT) */
	long offline;   /* SGUCT: simulations of the offline learning (0: none) */
	int live;       /* st is a non-terminal state of a loaded game */
	int no_ponder;  /* a search between messages failed */
	char why[600];  /* why the match cannot be played, once it cannot */
	uint64_t seed;
} ggp_match;

struct ms_gdl_ggp {
	ms_ctx *ctx;
	ms_gdl_ggp_options o;
	ggp_match *matches; /* being played */
	ggp_match *ended;   /* stopped or aborted; their workers finish them */
	long started, messages;
	atomic_long errors, late;
	pthread_mutex_t mu; /* guards what follows, shared with the workers */
	pthread_cond_t cv;
	ggp_match *waiting, *waiting_tail; /* started, not yet taken by a worker */
	int free_workers; /* workers waiting for a match, less the matches promised to them */
	int quit;
};

/* ggp.c */
void ggp_log(ms_gdl_ggp *p, const char *fmt, ...) MS_PRINTF(2, 3);
/* The answer of a pending reply (ignored if the deadline answered first); wakes the caller. */
void ggp_reply_finish(ms_gdl_ggp_reply *r, const char *text);
/* What the deadline answers if nothing better comes. */
void ggp_reply_best(ms_gdl_ggp_reply *r, const char *text);
int ggp_reply_is_done(ms_gdl_ggp_reply *r);
/* An error answer, (error "what") with quotes and line breaks made harmless, into buf. */
void ggp_error_text(const char *what, char *buf, size_t size);

/* ggp_match.c: runs the match's commands until it is over (or the player quits), then frees its reasoner. */
void ggp_match_run(ggp_match *m);

#endif
