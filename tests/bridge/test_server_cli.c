/*
 * `microsynth serve` as a process: it prints where it listens, serves, and
 * stops cleanly on SIGTERM and SIGINT (exit 0, summary line) or after
 * --games N; bad usage and unknown bots exit 2, a busy port exits 1.
 * Usage: test_server_cli PATH_TO_MICROSYNTH FIXTURE_DIR
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/kit/kit.h"
#include "server_testlib.h"

static const char *exe;

/* The server under test: stdout read here, stderr discarded, its own process group. */
static const proc_io quiet_io = { .out = PROC_PIPE, .err = PROC_NULL, .own_group = 1 };

typedef struct proc {
	pid_t pid;
	int out;
	int port, ws_port;
	char listening[512];
} proc;

/* Starts `microsynth serve ARGS...` and reads its listening line. */
static void serve(proc *p, ...)
{
	char *argv[32];
	va_list ap;
	int n = 0;
	const char *tcp, *ws;

	argv[n++] = (char *)exe;
	argv[n++] = "serve";
	va_start(ap, p);
	for (char *a; (a = va_arg(ap, char *)) != NULL && n < 30;)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	memset(p, 0, sizeof(*p));
	assert_int_equal(proc_spawn(argv, &quiet_io, &p->pid, &p->out), 0);
	assert_int_equal(srv_fd_line(p->out, 20000, p->listening, sizeof(p->listening)), 1);
	assert_true(!strncmp(p->listening, "listening", 9));
	tcp = strstr(p->listening, "tcp=127.0.0.1:");
	ws = strstr(p->listening, "ws=127.0.0.1:");
	p->port = tcp ? atoi(tcp + 14) : -1;
	p->ws_port = ws ? atoi(ws + 13) : -1;
}

/* Waits for the exit; returns the status and the last stdout line. */
static int finish(proc *p, char *last, size_t size)
{
	char line[512];
	int status;

	last[0] = '\0';
	while (srv_fd_line(p->out, 20000, line, sizeof(line)) == 1)
		snprintf(last, size, "%s", line);
	close(p->out);
	status = proc_wait(p->pid, 20000);
	if (status < 0)
		proc_kill(p->pid);
	return status;
}

/* Runs `microsynth serve ARGS` expected to fail at once; its status. */
static int fails(const char *a, const char *b, const char *c, const char *d)
{
	char *argv[] = { (char *)exe, "serve", (char *)a, (char *)b, (char *)c, (char *)d, NULL };
	char line[512];
	pid_t pid;
	int fd, status;

	assert_int_equal(proc_spawn(argv, &quiet_io, &pid, &fd), 0);
	while (srv_fd_line(fd, 20000, line, sizeof(line)) == 1)
		;
	close(fd);
	status = proc_wait(pid, 20000);
	if (status < 0)
		proc_kill(pid);
	return status;
}

static void talk(int port)
{
	srv_client c;
	char err[256];
	const char *line;
	size_t len;

	assert_int_equal(srv_client_connect(&c, "127.0.0.1", port, 5000, err, sizeof(err)), 0);
	assert_int_equal(srv_client_line(&c, 20000, &line, &len), 1);
	assert_non_null(strstr(line, "you are client #0, playing WorkerRush"));
	assert_int_equal(srv_client_request(&c, "budget 100 0", NULL), 0);
	assert_int_equal(srv_client_line(&c, 20000, &line, &len), 1);
	assert_int_equal(len, 3);
	assert_memory_equal(line, "ack", 3);
	assert_int_equal(srv_client_request(&c, "gameOver 1", NULL), 0);
	assert_int_equal(srv_client_line(&c, 20000, &line, &len), 1);
	srv_client_close(&c);
}

static void test_server_cli__sigterm_stops_it_cleanly(void **state)
{
	proc p;
	char last[512];

	(void)state;
	serve(&p, "--port", "0", "--bot", "WorkerRush", "--ws-port", "0", NULL);
	assert_true(p.port > 0);
	assert_true(p.ws_port > 0);
	assert_non_null(strstr(p.listening, "bot=WorkerRush lang=auto"));
	talk(p.port);
	assert_int_equal(kill(p.pid, SIGTERM), 0);
	assert_int_equal(finish(&p, last, sizeof(last)), 0);
	assert_string_equal(last, "connections=1 games_over=1 errors=0");
}

static void test_server_cli__sigint_stops_it_with_a_client_still_connected(void **state)
{
	proc p;
	srv_client c;
	char last[512], err[256];
	const char *line;
	size_t len;

	(void)state;
	serve(&p, "--port", "0", "--bot", "WorkerRush", "--lang", "json", NULL);
	assert_int_equal(srv_client_connect(&c, "127.0.0.1", p.port, 5000, err, sizeof(err)), 0);
	assert_int_equal(srv_client_line(&c, 20000, &line, &len), 1); /* accepted: the welcome came */
	assert_int_equal(kill(p.pid, SIGINT), 0);
	assert_int_equal(finish(&p, last, sizeof(last)), 0);
	assert_string_equal(last, "connections=1 games_over=0 errors=0");
	assert_int_equal(srv_client_line(&c, 20000, &line, &len), 0); /* and closed */
	srv_client_close(&c);
}

static void test_server_cli__games_n_stops_after_n_games(void **state)
{
	proc p;
	char last[512];

	(void)state;
	serve(&p, "--port", "0", "--bot", "WorkerRush", "--games", "1", NULL);
	talk(p.port);
	assert_int_equal(finish(&p, last, sizeof(last)), 0);
	assert_string_equal(last, "connections=1 games_over=1 errors=0");
}

static void test_server_cli__bad_usage_unknown_bots_and_busy_ports_fail(void **state)
{
	proc p;
	char last[512], port[16];

	(void)state;
	assert_int_equal(fails("--port", "70000", NULL, NULL), 2);
	assert_int_equal(fails("--lang", "yaml", NULL, NULL), 2);
	assert_int_equal(fails("--bot", "NoSuchBot", "--port", "0"), 2);
	assert_int_equal(fails("--bot", "WorkerRush", "--program", "x.txt"), 2);
	assert_int_equal(fails("--port", "-1", NULL, NULL), 2);
	serve(&p, "--port", "0", NULL);
	snprintf(port, sizeof(port), "%d", p.port);
	assert_int_equal(fails("--port", port, NULL, NULL), 1);
	kill(p.pid, SIGTERM);
	assert_int_equal(finish(&p, last, sizeof(last)), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_cli__sigterm_stops_it_cleanly),
		cmocka_unit_test(test_server_cli__sigint_stops_it_with_a_client_still_connected),
		cmocka_unit_test(test_server_cli__games_n_stops_after_n_games),
		cmocka_unit_test(test_server_cli__bad_usage_unknown_bots_and_busy_ports_fail),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_server_cli MICROSYNTH\n");
		return 2;
	}
	exe = argv[1];
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
