/*
 * The client side of the SocketAI protocol, for the server's tests and for
 * `microsynth bench bridge` (not part of the server): a blocking TCP line
 * client, a script of protocol messages taken from a native game, and
 * writers for the XML forms SocketAI sends (unit type table and game state
 * in util.XMLWriter's one-line layout).
 */
#ifndef MS_BRIDGE_SERVER_KIT_H
#define MS_BRIDGE_SERVER_KIT_H

#include "microsynth/buf.h"
#include "microsynth/microrts.h"

/* ---- TCP line client ---------------------------------------------------------- */

typedef struct srv_client {
	int fd;
	ms_ctx *ctx; /* the receive buffer's allocator, made at the first read */
	char *buf;
	size_t len, off;
	int cap;
} srv_client;

/* Connects to host:port, retrying refused connections for up to
 * `timeout_ms`; 0 or -1 (with errno-style reason in `err`). */
int srv_client_connect(srv_client *c, const char *host, int port, int timeout_ms, char *err, size_t errlen);

/* Connects to a Unix-domain socket; 0 or -1 (reason in `err`). */
int srv_client_connect_unix(srv_client *c, const char *path, char *err, size_t errlen);

/* Sends all bytes; 0 or -1. */
int srv_client_send(srv_client *c, const char *data, size_t len);

/* Sends a request: the command line and, when `payload` is not NULL, the
 * payload line, each ended by LF, in one write. 0 or -1. */
int srv_client_request(srv_client *c, const char *command, const char *payload);

/* The next line (without LF, and without a CR before it). Returns 1 with
 * the line (valid until the next call), 0 at end of stream, -1 on an error
 * or after `timeout_ms` without a complete line (-1: wait forever). */
int srv_client_line(srv_client *c, int timeout_ms, const char **line, size_t *len);

/* 1 when nothing arrives within `wait_ms` (no pending bytes either). */
int srv_client_quiet(srv_client *c, int wait_ms);

void srv_client_close(srv_client *c);

/* ---- child processes (proc.h starts them) ---------------------------------------- */

#include "proc.h"

/* Reads one line (without LF) from `fd` into `buf`, waiting at most
 * `timeout_ms` in all. 1 with a line, 0 at end of stream, -1 on timeout or error. */
int srv_fd_line(int fd, int timeout_ms, char *buf, size_t size);

/* ---- XML as SocketAI sends it ------------------------------------------------- */

/* UnitTypeTable.toxml with XMLWriter(w, " "). */
int srv_utt_to_xml(ms_buf *b, const ms_rts_utt *utt);

/* GameState.toxml (constants included, terrain as digits) with XMLWriter(w, " "). */
int srv_state_to_xml(ms_buf *b, const ms_rts_state *s);

/* ---- scripts -------------------------------------------------------------------- */

/*
 * The messages of one game from player 0's side: the table, the initial
 * state (for preGameAnalysis) and the state of every cycle, as a native
 * match of bots `p0` and `p1` produces them, in one language.
 */
typedef struct srv_script {
	int lang; /* MS_SERVER_LANG_JSON or _XML */
	char *utt;
	int n;
	char **states; /* states[0] is also the preGameAnalysis payload */
} srv_script;

int srv_script_make(ms_ctx *ctx, srv_script *out, int lang, const char *map_path, int utt_version, const char *p0,
		    const char *p1, int max_cycles);
void srv_script_free(ms_ctx *ctx, srv_script *sc);

#endif
