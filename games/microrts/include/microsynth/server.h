/*
 * The SocketAI server: plays MicroRTS games for the official Java
 * ai.socket.SocketAI (and any client of its line protocol, spec Part 1)
 * with a native bot or a program, over raw TCP (and a Unix-domain socket)
 * and over a websocket endpoint, in one libwebsockets event loop serving
 * many games at once.
 *
 * Two layers:
 *
 *  - a session (ms_server_session) is the protocol for one connection,
 *    transport-free: bytes in, reply lines out. Each session owns its
 *    context, unit type table, cached map constants and bot, so games never
 *    share state. Usable alone (fuzzing, other transports).
 *  - a server (ms_server) listens, accepts, frames, and writes replies.
 *
 * Replies are byte-identical to the Java reference servers'
 * (JSONSocketWrapperAI, XMLSocketWrapperAI) for the same bot decisions.
 * Bad input never stops the server: see docs/bridge.md for what each kind
 * of bad input gets back.
 *
 * This part lives in its own library (microsynth_server, which links
 * libwebsockets), so libmicrosynth itself does not depend on it.
 */
#ifndef MICROSYNTH_SERVER_H
#define MICROSYNTH_SERVER_H

#include "microsynth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Payload languages; the values are SocketAI's LANGUAGE_XML / LANGUAGE_JSON. */
enum {
	MS_SERVER_LANG_AUTO = 0, /**< sniffed from each payload line: '{' or '[' JSON, '<' XML */
	MS_SERVER_LANG_XML = 1,
	MS_SERVER_LANG_JSON = 2
};

/** The bot played when the options name none. */
#define MS_SERVER_DEFAULT_BOT "LightRush"
/** Longest line accepted by default (a 128x128 map full of units is under 4 MB of XML). */
#define MS_SERVER_DEFAULT_MAX_LINE ((size_t)16 << 20)
/** A port value meaning "do not listen". */
#define MS_SERVER_NO_PORT (-1)

/* ---- sessions --------------------------------------------------------------- */

#define MS_SERVER_SESSION_OPTIONS_VERSION 2

/** What a session plays and speaks; zero-initialise, then set `version`. */
typedef struct ms_server_session_options {
	unsigned int version; /**< MS_SERVER_SESSION_OPTIONS_VERSION (1 is accepted too) */
	/**
	 * Bot spec for ms_bot_make: a native bot ("LightRush", "WorkerRush", a Java
	 * class name) or "program:FILE". NULL: MS_SERVER_DEFAULT_BOT.
	 */
	const char *bot;
	int language;        /**< MS_SERVER_LANG_* (default AUTO) */
	int64_t seed;        /**< seed of the bot's own generator */
	size_t max_line;     /**< 0: MS_SERVER_DEFAULT_MAX_LINE */
	const char *welcome; /**< first line sent (no newline); NULL: a default naming the client */
	/**
	 * 1: reset the bot before every getAction, so it decides without memory
	 * of earlier cycles. The Java reference servers behave so (they rebuild
	 * every unit object per message, and abstraction-layer bots key their
	 * memory by object identity: spec appendix A14); with this set, replies
	 * equal theirs byte for byte, action order included. 0 (default): the
	 * bot keeps its memory for the whole game, as a Java bot in-process does.
	 */
	int forget;
	/**
	 * Since version 2: the edition of the official scripted bots a native
	 * bot reproduces (MS_PATH_EDITION_*, bots.h; 0: 2022). Version 1
	 * options play the 2022 edition.
	 */
	int edition;
} ms_server_session_options;

/**
 * Zero-initialises `opts` and sets its version (MS_SERVER_SESSION_OPTIONS_VERSION): 0, or
 * MS_EINVAL for a version this build does not know.
 */
MS_EXTERN int ms_server_session_options_init(ms_server_session_options *opts, unsigned int version);

typedef struct ms_server_session ms_server_session;

/**
 * Receives one reply line (without its line terminator). Returning non-zero
 * stops the feed with that status.
 */
typedef int (*ms_server_emit_fn)(void *ud, const char *line, size_t len);

/**
 * Receives the session's protocol errors (malformed payloads, unknown
 * commands, lines over the limit, bot failures): one human-readable line.
 * May be NULL.
 */
typedef void (*ms_server_error_fn)(void *ud, const char *message);

/**
 * Creates a session. `ctx` only receives creation errors: the session makes
 * its own context (same allocator) for everything else. `client` is the
 * number the welcome line shows. Checks the bot spec by building the bot on
 * the official version-2 table: MS_ENOTFOUND for an unknown bot.
 */
MS_EXTERN int ms_server_session_new(ms_ctx *ctx, ms_server_session **out, const ms_server_session_options *opts,
				    int client);

/** Frees a session; NULL is ignored. */
MS_EXTERN void ms_server_session_free(ms_server_session *s);

/** The welcome line to send first (no newline), valid while the session lives. */
MS_EXTERN const char *ms_server_session_welcome(const ms_server_session *s);

/**
 * Feeds bytes as they arrive on the stream. Every complete line (ended by
 * LF; a CR before it is dropped) is one protocol line; replies go to `emit`
 * in order, at most one per request. A line longer than the limit is
 * dropped up to its end and counts as a malformed line. Returns MS_OK, or
 * the status of a failing `emit` / allocation (the transport should then
 * close the connection).
 */
MS_EXTERN int ms_server_session_feed(ms_server_session *s, const char *data, size_t len, ms_server_emit_fn emit,
				     void *ud);

/**
 * Ends the current line as if a LF had arrived (a websocket message's last
 * line need not end with one). Nothing happens when no bytes are pending.
 */
MS_EXTERN int ms_server_session_end_line(ms_server_session *s, ms_server_emit_fn emit, void *ud);

/** Routes the session's protocol errors to `fn` (NULL: dropped). */
MS_EXTERN void ms_server_session_on_error(ms_server_session *s, ms_server_error_fn fn, void *ud);

/** 1 once the peer sent `end`: the connection should close after the pending replies. */
MS_EXTERN int ms_server_session_closing(const ms_server_session *s);

/** Counters of one session. */
typedef struct ms_server_session_stats {
	uint64_t requests;    /**< command lines handled (replied or not) */
	uint64_t actions;     /**< getAction requests answered */
	uint64_t games_over;  /**< gameOver requests */
	uint64_t errors;      /**< protocol errors reported */
	int last_winner;      /**< winner of the last gameOver, -2 before any */
} ms_server_session_stats;

MS_EXTERN void ms_server_session_get_stats(const ms_server_session *s, ms_server_session_stats *out);

/* ---- the server ------------------------------------------------------------- */

/** Events the server reports, on its loop thread. */
typedef enum ms_server_event_type {
	MS_SERVER_EV_OPEN = 1,  /**< a connection was accepted (welcome queued) */
	MS_SERVER_EV_CLOSE,     /**< a connection ended */
	MS_SERVER_EV_GAME_OVER, /**< a gameOver request was answered; `winner` is set */
	MS_SERVER_EV_ERROR      /**< a protocol error on one connection; `message` says what */
} ms_server_event_type;

typedef struct ms_server_event {
	ms_server_event_type type;
	int client;            /**< connection number (from 0, in accept order) */
	const char *transport; /**< "tcp", "unix" or "ws" */
	int winner;            /**< for MS_SERVER_EV_GAME_OVER */
	const char *message;   /**< for MS_SERVER_EV_ERROR and CLOSE (reason); else NULL */
} ms_server_event;

typedef void (*ms_server_event_fn)(void *ud, const ms_server_event *ev);

#define MS_SERVER_OPTIONS_VERSION 1

/** Zero-initialise, then set `version` and what differs from the defaults. */
typedef struct ms_server_options {
	unsigned int version; /**< MS_SERVER_OPTIONS_VERSION */
	const char *bind;     /**< address to listen on; NULL: "127.0.0.1" (loopback only) */
	int port;             /**< raw TCP port; 0: any free port; MS_SERVER_NO_PORT: none */
	int ws_port;          /**< websocket port; 0: any free port; MS_SERVER_NO_PORT: none */
	int max_sessions;     /**< connections served at once; 0: 1024. Extra ones are closed at once */
	/**
	 * Also serve the raw protocol on this Unix-domain socket (SocketAI's
	 * (budget, iterations, path, language, table) constructor connects to
	 * one through junixsocket). NULL: none. A socket file already at the
	 * path is replaced; any other file there is an error.
	 */
	const char *unix_path;
	ms_server_session_options session; /**< per connection; its `welcome` is ignored */
	ms_server_event_fn on_event;       /**< may be NULL */
	void *event_ud;
} ms_server_options;

/**
 * Zero-initialises `opts` and sets its version (MS_SERVER_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_server_options_init(ms_server_options *opts, unsigned int version);

typedef struct ms_server ms_server;

/**
 * Creates the event loop and opens the listening sockets (so ports are known
 * and bound when this returns). At least one of `port`, `ws_port` and
 * `unix_path` must listen. MS_EIO when a socket cannot be bound, MS_EINVAL
 * for bad options, and the bot's own status when the bot spec cannot be
 * built (MS_ENOTFOUND for an unknown native bot).
 */
MS_EXTERN int ms_server_new(ms_ctx *ctx, ms_server **out, const ms_server_options *opts);

/** The raw TCP port actually bound, or MS_SERVER_NO_PORT. */
MS_EXTERN int ms_server_port(const ms_server *s);

/** The websocket port actually bound, or MS_SERVER_NO_PORT. */
MS_EXTERN int ms_server_ws_port(const ms_server *s);

/**
 * Serves until ms_server_stop is called, then lets replies already queued go
 * out (for at most a second) and returns; connections stay open (call
 * ms_server_free to close them). Call from one thread at a time.
 */
MS_EXTERN int ms_server_run(ms_server *s);

/**
 * Makes ms_server_run return soon: sets an atomic flag and wakes the loop
 * (lws_cancel_service). Safe from any thread; from a signal, call it on a
 * thread that waits for the signal (sigwait), as `microsynth serve` does.
 */
MS_EXTERN void ms_server_stop(ms_server *s);

/** Closes every connection and the listeners, and frees the server; NULL is ignored. */
MS_EXTERN void ms_server_free(ms_server *s);

/** Connections accepted so far and open now (read on the loop thread, or after ms_server_run). */
MS_EXTERN void ms_server_counts(const ms_server *s, int *accepted, int *open, uint64_t *games_over);

#ifdef __cplusplus
}
#endif
#endif
