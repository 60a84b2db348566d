/*
 * microsynth view: the browser view's server side, transport-free. A
 * session is one page's connection: JSON messages from the page go to
 * view_session_handle, messages for the page come out through an emit
 * callback, and view_session_tick moves a playing match or replay on.
 * cmd_view.c puts sessions behind libwebsockets; tests/view drives them
 * directly. docs/view.md has the message format.
 */
#ifndef MS_TOOLS_VIEW_H
#define MS_TOOLS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "microsynth/buf.h"
#include "microsynth/bots.h"
#include "microsynth/microrts.h"

/* ---- the page's files (generated at build time by tools/view/embed.cmake) ---- */

typedef struct view_asset {
	const char *path; /* "/index.html" */
	const char *mime;
	const unsigned char *data;
	size_t len;
} view_asset;

/* Ends with an entry whose path is NULL. */
extern const view_asset view_assets[];

/* ---- sessions ------------------------------------------------------------ */

/* Receives one message for the page (a JSON text); non-zero stops the session's work with that status. */
typedef int (*view_emit_fn)(void *ud, const char *msg, size_t len);
/* Receives one line for the server's log (no newline). */
typedef void (*view_log_fn)(void *ud, const char *line);
/* Turns a map name into a file path as `microsynth play` does; 0 when found. */
typedef int (*view_resolve_fn)(const char *map, char *out, size_t size);

typedef struct view_config {
	int edition;                 /* MS_PATH_EDITION_* the native bots play (as play's default) */
	const char *maps_dir;        /* listed for the page's map menu (NULL: none) */
	const char *programs_dir;    /* program, switch and portfolio files listed as players (NULL: none) */
	const char *traces_dir;      /* traces listed for the replay menu (NULL: none) */
	const char *const *follow;   /* files `--follow` tails: synth CSV logs and checkpoints */
	int n_follow;
	view_resolve_fn resolve_map; /* NULL: maps are paths */
	view_log_fn log;             /* NULL: no log */
	void *log_ud;
	/* a page's {"type":"report"} (a scripted scenario's outcome, one line); NULL: ignored */
	void (*report)(void *ud, int client, const char *text);
	const char *results_dir;     /* league/evaluate output: its .csv tables and .svg plots as pages (NULL: none) */
} view_config;

typedef struct view_session view_session;

/* A session for client number `client`; `cfg` and what it points to must outlive it. */
int view_session_new(view_session **out, const view_config *cfg, int client, view_emit_fn emit, void *ud);
void view_session_free(view_session *s);

/* Emits the greeting: what the page may pick (maps, players, traces, followed files). */
int view_session_hello(view_session *s);

/*
 * Handles one message from the page. Bad input (malformed JSON, unknown
 * types, a map, trace or program that does not load) is answered with an
 * {"type":"error"} message and one log line, and returns 0: the session goes
 * on. A negative status means emitting failed or memory ran out.
 */
int view_session_handle(view_session *s, const char *msg, size_t len);

/* Tells the page and the log about bad input the transport met (a message too big); 0 or emit's status. */
int view_session_report(view_session *s, const char *what);

/*
 * Moves work on at time `now` (seconds, monotonic): plays the cycles a
 * running match is due, tails followed files. *next_ms receives when to call
 * again (-1: nothing pending until the next message). Errors as handle.
 */
int view_session_tick(view_session *s, double now, int *next_ms);

/* ---- frames (view_frame.c) ------------------------------------------------- */

/* Appends a JSON string literal (quoted, escaped). */
int view_json_str(ms_buf *b, const char *s);
int view_json_strn(ms_buf *b, const char *s, size_t n);

/* The board's constants: {"type":"map",...} without the closing brace, for the caller to extend. */
int view_frame_map(ms_buf *b, const ms_rts_state *s, const char *mode, const char *const names[2]);
/* A state's stocks and units with their actions in progress: "time":..,"resources":[..],"units":[..]. */
int view_frame_units(ms_buf *b, const ms_rts_state *s);

/* ---- live matches (view_match.c) ------------------------------------------- */

typedef struct view_match_opts {
	const char *map; /* a file */
	const char *spec[2];
	int utt, conflict, max_cycles, po, edition;
	int64_t seed;
} view_match_opts;

/* What a program player's lines did: this cycle and over the match. */
typedef struct view_prog_info {
	const char *text; /* the indented form, lines from 1 */
	int n_lines;
	const long *fired, *busy; /* per line (index 0 unused): actions issued, actions of units that were busy */
	const int *now;           /* per line: 1 fired this cycle, 2 only busy this cycle, 0 */
} view_prog_info;

typedef struct view_match view_match;

/* Loads the map and makes both players as `microsynth play` does; errors name the map or the player. */
int view_match_new(ms_ctx *ctx, view_match **out, const view_match_opts *o);
void view_match_free(view_match *m);
/* Plays one cycle (both decide, player 0 issues, then 1, the cycle); *over: the match has ended. */
int view_match_step(view_match *m, int *over);
const ms_rts_state *view_match_state(const view_match *m);
/* The name of player p (a native bot's, or the spec). */
const char *view_match_player(const view_match *m, int p);
/* 0 and *info when player p plays a program whose lines are followed; -1 otherwise. */
int view_match_program(const view_match *m, int p, view_prog_info *info);
/* 1 once the match has ended (game over, the cycle limit, or a failed decision). */
int view_match_over(const view_match *m);

/* ---- replays (view_replay.c) ----------------------------------------------- */

typedef struct view_replay view_replay;

/* An official trace (zip or XML) or a recording (.rec.gz): the states of all its cycles, on demand. */
int view_replay_open(ms_ctx *ctx, view_replay **out, const char *path);
void view_replay_free(view_replay *r);
/* The last cycle and the player names the file records. */
int view_replay_cycles(const view_replay *r);
const char *view_replay_player(const view_replay *r, int p);
/* The state at `cycle` (clamped to 0..last), valid until the next seek. */
int view_replay_seek(view_replay *r, int cycle, const ms_rts_state **out);

/* ---- the synthesis dashboard (view_follow.c) -------------------------------- */

typedef struct view_follow view_follow;

/* Follows the files (CSV logs and checkpoints, told apart by their first line). */
int view_follow_new(ms_ctx *ctx, view_follow **out, const char *const *files, int n);
void view_follow_free(view_follow *f);
/*
 * Reads what the files gained since the last poll; when anything changed (or
 * `force`), appends {"type":"synth",...} to `b` and sets *changed.
 */
int view_follow_poll(view_follow *f, int force, ms_buf *b, int *changed);

#endif
