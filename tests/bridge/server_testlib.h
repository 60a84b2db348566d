/* Shared by the SocketAI server's tests: reply collection and fixtures. */
#ifndef MS_TESTS_BRIDGE_SERVER_TESTLIB_H
#define MS_TESTS_BRIDGE_SERVER_TESTLIB_H

#include <stddef.h>

#include "microsynth/server.h"

/* Reply lines a session emitted, in order. */
typedef struct replies {
	int n, cap;
	char **line;
	int errors;          /* protocol errors reported */
	char last_error[600];
} replies;

/* ms_server_emit_fn that appends to a `replies`. */
int replies_emit(void *ud, const char *line, size_t len);
/* ms_server_error_fn that counts into a `replies`. */
void replies_error(void *ud, const char *message);
void replies_clear(replies *r);

/* Path of a fixture in tests/bridge (the directory comes from argv[1]). */
const char *fixture(const char *name);
void set_fixture_dir(const char *dir);

/* A server serving on a thread of its own, with the events it reported. */
#include <pthread.h>

typedef struct server_events {
	int opened, closed, games_over, errors;
	int last_winner;
	char last_error[600];
} server_events;

typedef struct running {
	ms_ctx *ctx;
	ms_server *srv;
	pthread_t thread;
	pthread_mutex_t lock;
	server_events ev;
} running;

/* Creates the server (its on_event is taken over) and runs it; 0 or -1
 * with the reason on stderr. */
int running_start(running *r, const ms_server_options *o);
void running_stop(running *r);
server_events running_events(running *r);
/* Waits up to `ms` until the server counted `closed` closed connections. */
int running_wait_closed(running *r, int closed, int ms);
/* Waits up to `ms` until the server counted `games` gameOver requests. */
int running_wait_games(running *r, int games, int ms);

/* Session options with version set, bot `bot`, language `lang`. */
ms_server_session_options session_options(const char *bot, int lang);

#endif
