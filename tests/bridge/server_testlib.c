#include "server_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char fixture_dir[4096] = ".";

int replies_emit(void *ud, const char *line, size_t len)
{
	replies *r = ud;

	if (r->n == r->cap) {
		int cap = r->cap ? r->cap * 2 : 64;
		char **nl = realloc(r->line, (size_t)cap * sizeof(*nl));
		if (!nl)
			return -2;
		r->line = nl;
		r->cap = cap;
	}
	r->line[r->n] = malloc(len + 1);
	if (!r->line[r->n])
		return -2;
	memcpy(r->line[r->n], line, len);
	r->line[r->n][len] = '\0';
	r->n++;
	return 0;
}

void replies_error(void *ud, const char *message)
{
	replies *r = ud;

	r->errors++;
	snprintf(r->last_error, sizeof(r->last_error), "%s", message);
}

void replies_clear(replies *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->line[i]);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

void set_fixture_dir(const char *dir)
{
	snprintf(fixture_dir, sizeof(fixture_dir), "%s", dir);
}

const char *fixture(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
	return path;
}

ms_server_session_options session_options(const char *bot, int lang)
{
	ms_server_session_options o;

	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_SESSION_OPTIONS_VERSION;
	o.bot = bot;
	o.language = lang;
	return o;
}

static void on_event(void *ud, const ms_server_event *e)
{
	running *r = ud;

	pthread_mutex_lock(&r->lock);
	switch (e->type) {
	case MS_SERVER_EV_OPEN: r->ev.opened++; break;
	case MS_SERVER_EV_CLOSE: r->ev.closed++; break;
	case MS_SERVER_EV_GAME_OVER:
		r->ev.games_over++;
		r->ev.last_winner = e->winner;
		break;
	case MS_SERVER_EV_ERROR:
		r->ev.errors++;
		snprintf(r->ev.last_error, sizeof(r->ev.last_error), "%s", e->message);
		break;
	}
	pthread_mutex_unlock(&r->lock);
}

static void *serve(void *arg)
{
	running *r = arg;

	ms_server_run(r->srv);
	return NULL;
}

int running_start(running *r, const ms_server_options *o)
{
	ms_server_options mine = *o;

	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	mine.on_event = on_event;
	mine.event_ud = r;
	if (ms_ctx_new(&r->ctx, NULL))
		return -1;
	if (ms_server_new(r->ctx, &r->srv, &mine)) {
		fprintf(stderr, "server: %s\n", ms_ctx_last_error(r->ctx));
		ms_ctx_free(r->ctx);
		return -1;
	}
	if (pthread_create(&r->thread, NULL, serve, r)) {
		ms_server_free(r->srv);
		ms_ctx_free(r->ctx);
		return -1;
	}
	return 0;
}

void running_stop(running *r)
{
	ms_server_stop(r->srv);
	pthread_join(r->thread, NULL);
	ms_server_free(r->srv);
	ms_ctx_free(r->ctx);
	pthread_mutex_destroy(&r->lock);
}

server_events running_events(running *r)
{
	server_events e;

	pthread_mutex_lock(&r->lock);
	e = r->ev;
	pthread_mutex_unlock(&r->lock);
	return e;
}

static int wait_for(running *r, int closed, int games, int ms)
{
	for (int waited = 0; waited <= ms; waited += 10) {
		struct timespec ts = { 0, 10 * 1000000L };
		server_events e = running_events(r);
		if (e.closed >= closed && e.games_over >= games)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

int running_wait_closed(running *r, int closed, int ms)
{
	return wait_for(r, closed, 0, ms);
}

int running_wait_games(running *r, int games, int ms)
{
	return wait_for(r, 0, games, ms);
}
