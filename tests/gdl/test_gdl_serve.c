/*
 * `microsynth gdl serve` driven through HTTP by the exchanges of a fixture
 * (tests/gdl/serve/, one .ggp file each), as a GGP game manager would drive it: every
 * answer must be what the fixture expects, legal moves checked with the
 * reasoner in the driver's own copy of each match, and every answer must
 * arrive within the clock of its message (START: the start clock; PLAY: the
 * play clock; others: 1 s).
 *
 * Usage: test_gdl_serve MICROSYNTH FIXTURE [SERVER OPTION...]
 *
 * Fixture lines (# starts a comment):
 *   rules NAME PATH     a rule file; PATH relative to the fixture, or shared:REL for
 *                       $MS_SHARED_DIR/data/gdl/kif/REL (skipped without it unless CI is set)
 *   > BODY              a message; several > lines in a row are sent at once
 *   < EXPECT            the answer to the k-th message of the batch: the text itself,
 *                       TEXT... for a prefix, {move M} for a legal move of match M's role
 *   repeat M [M...]     the lines up to `end` again and again while some match M goes on
 *   end
 * In bodies, {rules NAME} is the rule file as one parenthesised line (comments
 * dropped, as ggp-base sends rules), and {moves M} the joint move of match M
 * from its state: M's last answered move for its role, a random legal move
 * for every other role. A message with {moves M} once M's next joint move ends
 * the game is skipped, with its answer, inside a repeat: the STOP after the
 * repeat reports that last joint move. A START creates the driver's copy of
 * its match.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "games/gdl/gdl_ggp.h"
#include "microsynth/gdl.h"
#include "microsynth/mcts.h"
#include "microsynth/rng.h"

#define MAX_LINES 512
#define MAX_BATCH 16
#define MAX_MATCHES 8
#define MAX_RULES 8

typedef struct xreq {
	char *body;
	size_t len;
	char *resp;
	size_t rlen;
	int done, failed, status;
	double t0, t1, clock;
	char expect[600];
	int skip;
} xreq;

typedef struct xmatch {
	char id[64];
	ms_gdl *g;
	ms_gdl_machine *m;
	uint64_t *st, *nx;
	int role, nr, pending, pending_terminal, plays;
	int joint[MS_MCTS_MAX_PLAYERS];
	char answer[512];
	double play_clock;
} xmatch;

typedef struct driver {
	ms_ctx *ctx;
	struct lws_context *lws;
	int port;
	char dir[1024], shared[1024];
	char *rule_name[MAX_RULES], *rule_text[MAX_RULES];
	int n_rules;
	xmatch match[MAX_MATCHES];
	int n_matches;
	uint64_t rng;
	int failures, exchanges;
	double worst; /* the largest share of its clock an answer took */
} driver;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(driver *d, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(driver *d, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "FAIL line %d: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	d->failures++;
}

/* ---- the HTTP client (libwebsockets) ---------------------------------------- */

static int client_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	xreq *q = user;
	if (!q && (reason == LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER || reason == LWS_CALLBACK_CLIENT_HTTP_WRITEABLE ||
		   reason == LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ || reason == LWS_CALLBACK_COMPLETED_CLIENT_HTTP))
		return -1;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		fprintf(stderr, "connection error: %s\n", in ? (const char *)in : "(none)");
		if (q)
			q->failed = q->done = 1;
		return 0;
	case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: {
		unsigned char **p = (unsigned char **)in, *end = *p + len;
		char cl[32];
		snprintf(cl, sizeof cl, "%zu", q->len);
		if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, (unsigned char *)cl, (int)strlen(cl), p, end) ||
		    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, (unsigned char *)"text/acl", 8, p, end))
			return -1;
		lws_client_http_body_pending(wsi, 1);
		lws_callback_on_writable(wsi);
		return 0;
	}
	case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE: {
		unsigned char *buf = malloc(LWS_PRE + q->len + 1);
		if (!buf)
			return -1;
		memcpy(buf + LWS_PRE, q->body, q->len);
		int n = lws_write(wsi, buf + LWS_PRE, q->len, LWS_WRITE_HTTP_FINAL);
		free(buf);
		lws_client_http_body_pending(wsi, 0);
		return n < 0 ? -1 : 0;
	}
	case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
		if (!q)
			return -1;
		q->status = (int)lws_http_client_http_response(wsi);
		return 0;
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ: {
		char *r = realloc(q->resp, q->rlen + len + 1);
		if (!r)
			return -1;
		memcpy(r + q->rlen, in, len);
		q->rlen += len;
		r[q->rlen] = '\0';
		q->resp = r;
		return 0;
	}
	case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
		char buf[LWS_PRE + 4096], *px = buf + LWS_PRE;
		int lenx = (int)sizeof buf - LWS_PRE;
		return lws_http_client_read(wsi, &px, &lenx) < 0 ? -1 : 0;
	}
	case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
		q->t1 = now_s();
		q->done = 1;
		lws_set_wsi_user(wsi, NULL); /* the request is done with; its memory serves the next batch */
		return -1;                   /* one request per connection, as ggp-base's managers do */
	case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
		if (q && !q->done)
			fprintf(stderr, "closed before the answer completed (%zu bytes: %s)\n", q->rlen, q->resp ? q->resp : "");
		if (q && !q->done)
			q->failed = q->done = 1;
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static const struct lws_protocols client_protocols[] = { { "ggp-client", client_cb, 0, 0, 0, NULL, 0 },
							 { NULL, NULL, 0, 0, 0, NULL, 0 } };

/* Sends every request of the batch at once; waits for all answers (their clock + 5 s at most). */
static void send_batch(driver *d, xreq *q, int n)
{
	double limit = 0;
	for (int i = 0; i < n; i++) {
		struct lws_client_connect_info ci;
		if (q[i].skip)
			continue;
		memset(&ci, 0, sizeof ci);
		ci.context = d->lws;
		ci.port = d->port;
		ci.address = "127.0.0.1";
		ci.path = "/";
		ci.host = ci.address;
		ci.origin = ci.address;
		ci.method = "POST";
		ci.protocol = client_protocols[0].name;
		ci.userdata = &q[i];
		q[i].t0 = now_s();
		if (!lws_client_connect_via_info(&ci))
			q[i].failed = q[i].done = 1;
		limit = q[i].clock + 5 > limit ? q[i].clock + 5 : limit;
	}
	for (double t0 = now_s(); now_s() - t0 < limit;) {
		int all = 1;
		for (int i = 0; i < n; i++)
			all &= q[i].skip || q[i].done;
		if (all)
			break;
		lws_service(d->lws, 0);
	}
}

/* ---- the driver's copy of each match --------------------------------------- */

static xmatch *find_match(driver *d, const char *id, size_t n)
{
	for (int i = 0; i < d->n_matches; i++)
		if (strlen(d->match[i].id) == n && !strncmp(d->match[i].id, id, n))
			return &d->match[i];
	return NULL;
}

static void match_dispose(xmatch *x)
{
	ms_gdl_machine_free(x->m);
	ms_gdl_free(x->g);
	free(x->st);
	free(x->nx);
	memset(x, 0, sizeof *x);
}

/* A START's match, as the driver follows it (no copy if its rules or role are wrong: errors are expected then). */
static void start_match(driver *d, const ms_ggp_msg *msg)
{
	ms_gdl_options go = { .version = MS_GDL_OPTIONS_VERSION };
	xmatch x;
	char role[256];
	memset(&x, 0, sizeof x);
	if (msg->id.n >= sizeof x.id || msg->role.n >= sizeof role || d->n_matches == MAX_MATCHES ||
	    find_match(d, msg->id.s, msg->id.n))
		return;
	memcpy(x.id, msg->id.s, msg->id.n);
	memcpy(role, msg->role.s, msg->role.n);
	role[msg->role.n] = '\0';
	if (ms_gdl_parse(d->ctx, &x.g, msg->rules.s, msg->rules.n, x.id, &go) < 0 ||
	    (x.role = ms_gdl_role_index(x.g, role)) < 0 || ms_gdl_machine_new(d->ctx, &x.m, x.g) < 0) {
		match_dispose(&x);
		return;
	}
	x.nr = ms_gdl_num_roles(x.g);
	x.st = calloc(ms_gdl_state_words(x.g) + 1, sizeof *x.st);
	x.nx = calloc(ms_gdl_state_words(x.g) + 1, sizeof *x.nx);
	ms_gdl_initial(x.g, x.st);
	ms_gdl_machine_set(x.m, x.st);
	x.play_clock = msg->play_clock;
	d->match[d->n_matches++] = x;
}

/* The role's legal move printed as `text` (compact form), or -1. */
static int legal_move(xmatch *x, int r, const char *text)
{
	char buf[4096];
	const int *mv;
	int n = ms_gdl_legal(x->m, r, &mv);
	for (int i = 0; i < n; i++) {
		ms_gdl_move_text(x->g, mv[i], buf, sizeof buf);
		if (!strcmp(buf, text))
			return mv[i];
	}
	return -1;
}

/* The next joint move (our last answer, random moves for the others), once; 1 if the game goes on after it. */
static int goes_on(driver *d, xmatch *x)
{
	if (!x->pending) {
		for (int r = 0; r < x->nr; r++) {
			const int *mv;
			int n = ms_gdl_legal(x->m, r, &mv);
			x->joint[r] = r == x->role ? legal_move(x, r, x->answer) : n > 0 ? mv[ms_rng_below(&d->rng, (uint32_t)n)] : -1;
			if (x->joint[r] < 0)
				return 0;
		}
		if (ms_gdl_next(x->m, x->joint, x->nx) < 0 || ms_gdl_machine_set(x->m, x->nx) < 0)
			return 0;
		x->pending_terminal = ms_gdl_terminal(x->m);
		ms_gdl_machine_set(x->m, x->st);
		x->pending = 1;
	}
	return !x->pending_terminal;
}

/* {moves M}: the pending joint move as "(a b ...)"; the copy moves on to the state after it. */
static int moves_text(driver *d, xmatch *x, char *out, size_t size)
{
	size_t len = 1;
	goes_on(d, x);
	if (!x->pending || size < 3)
		return -1;
	out[0] = '(';
	for (int r = 0; r < x->nr; r++) {
		if (r && len + 1 < size)
			out[len++] = ' ';
		int k = ms_gdl_move_text(x->g, x->joint[r], out + len, size - len);
		if (k < 0 || len + (size_t)k + 2 >= size)
			return -1;
		len += (size_t)k;
	}
	out[len++] = ')';
	out[len] = '\0';
	uint64_t *t = x->st;
	x->st = x->nx, x->nx = t;
	ms_gdl_machine_set(x->m, x->st);
	x->pending = 0;
	x->plays++;
	return 0;
}

static const char *rules_text(driver *d, const char *name, size_t n)
{
	for (int i = 0; i < d->n_rules; i++)
		if (strlen(d->rule_name[i]) == n && !strncmp(d->rule_name[i], name, n))
			return d->rule_text[i];
	return NULL;
}

/* A message with its placeholders filled (heap), NULL if bad; *skip when a {moves M} game has ended in a repeat. */
static char *expand(driver *d, const char *t, int in_repeat, int *skip, int line)
{
	size_t cap = strlen(t) + 1, len = 0;
	char *out = malloc(cap);
	*skip = 0;
	while (out && *t) {
		char piece[8192];
		const char *add = NULL, *close = strchr(t, '}');
		if (*t == '{' && close && !strncmp(t, "{rules ", 7)) {
			if (!(add = rules_text(d, t + 7, (size_t)(close - t - 7))))
				fail(d, line, "unknown rules in %.*s", (int)(close - t + 1), t);
		} else if (*t == '{' && close && !strncmp(t, "{moves ", 7)) {
			xmatch *x = find_match(d, t + 7, (size_t)(close - t - 7));
			if (!x)
				fail(d, line, "no match %.*s to move", (int)(close - t - 7), t + 7);
			else if (in_repeat && !goes_on(d, x))
				*skip = 1;
			else if (moves_text(d, x, piece, sizeof piece))
				fail(d, line, "no joint move for match %s", x->id);
			else
				add = piece;
		} else {
			piece[0] = *t, piece[1] = '\0';
			add = piece;
			close = t;
		}
		if (!add || *skip) {
			free(out);
			return NULL;
		}
		size_t k = strlen(add);
		if (len + k + 1 > cap) {
			char *o = realloc(out, cap = 2 * (len + k + 1));
			if (!o)
				break;
			out = o;
		}
		memcpy(out + len, add, k + 1);
		len += k;
		t = close + 1;
	}
	return out;
}

/* The clock an answer to `body` must come within; a START creates the driver's copy of its match. */
static double clock_of(driver *d, const char *body)
{
	ms_ggp_msg m;
	char err[200];
	if (ms_gdl_ggp_parse(body, strlen(body), &m, err, sizeof err))
		return 1;
	if (m.type == MS_GGP_START) {
		start_match(d, &m);
		return m.start_clock;
	}
	xmatch *x = m.type == MS_GGP_PLAY ? find_match(d, m.id.s, m.id.n) : NULL;
	return x ? x->play_clock : 1;
}

/* One answer against its expectation and its clock. */
static void check(driver *d, xreq *q, int line)
{
	d->exchanges++;
	if (q->failed || !q->done)
		return fail(d, line, "no answer to %.80s", q->body);
	double took = q->t1 - q->t0;
	if (took > q->clock)
		fail(d, line, "answered after %.3f s, over its %g s clock: %.80s", took, q->clock, q->body);
	d->worst = took / q->clock > d->worst ? took / q->clock : d->worst;
	if (q->status != 200)
		fail(d, line, "HTTP status %d", q->status);
	const char *got = q->resp ? q->resp : "";
	size_t n = strlen(q->expect);
	if (!strncmp(q->expect, "{move ", 6) && q->expect[n - 1] == '}') {
		xmatch *x = find_match(d, q->expect + 6, n - 7);
		ms_ggp_span sp = { got, strlen(got), got[0] == '(' };
		char norm[512];
		ms_gdl_ggp_term_text(&sp, norm, sizeof norm);
		if (!x)
			return fail(d, line, "no match %s", q->expect);
		if (legal_move(x, x->role, norm) < 0)
			return fail(d, line, "'%s' is not a legal move of %s in match %s", got, ms_gdl_role_name(x->g, x->role),
				    x->id);
		snprintf(x->answer, sizeof x->answer, "%s", norm);
	} else if (n > 3 && !strcmp(q->expect + n - 3, "...")) {
		if (strncmp(got, q->expect, n - 3))
			fail(d, line, "answer '%s', expected '%s'", got, q->expect);
	} else if (strcmp(got, q->expect))
		fail(d, line, "answer '%s', expected '%s'", got, q->expect);
}

/* ---- the fixture ----------------------------------------------------------- */

typedef struct script {
	char *text[MAX_LINES];
	int lineno[MAX_LINES], n;
} script;

typedef struct batch {
	xreq q[MAX_BATCH];
	int n, expected, line[MAX_BATCH];
} batch;

static void batch_clear(batch *b)
{
	for (int i = 0; i < b->n; i++) {
		free(b->q[i].body);
		free(b->q[i].resp);
	}
	memset(b, 0, sizeof *b);
}

static void run_lines(driver *d, const script *s, int from, int to, int in_repeat);

/* repeat M...: the body while some listed match goes on (and at most 1000 times). */
static int run_repeat(driver *d, const script *s, int i, int to)
{
	int end = i + 1;
	while (end < to && strcmp(s->text[end], "end"))
		end++;
	if (end == to) {
		fail(d, s->lineno[i], "repeat without end");
		return to;
	}
	for (int round = 0; round < 1000; round++) {
		char names[512], *save = NULL;
		int on = 0;
		snprintf(names, sizeof names, "%s", s->text[i] + 6);
		for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			xmatch *x = find_match(d, w, strlen(w));
			if (!x) {
				fail(d, s->lineno[i], "repeat: no match %s", w);
				return end + 1;
			}
			on |= goes_on(d, x);
		}
		if (!on)
			break;
		run_lines(d, s, i + 1, end, 1);
		if (d->failures)
			break;
	}
	return end + 1;
}

static void run_lines(driver *d, const script *s, int from, int to, int in_repeat)
{
	batch b;
	memset(&b, 0, sizeof b);
	for (int i = from; i < to && !d->failures;) {
		const char *t = s->text[i];
		if (!strncmp(t, "repeat ", 7)) {
			i = run_repeat(d, s, i, to);
			continue;
		}
		if (t[0] == '>' && b.n < MAX_BATCH) {
			xreq *q = &b.q[b.n];
			b.line[b.n++] = s->lineno[i];
			q->body = expand(d, t + 2, in_repeat, &q->skip, s->lineno[i]);
			if (q->body) {
				q->len = strlen(q->body);
				q->clock = clock_of(d, q->body);
			} else if (!q->skip)
				return;
		} else if (t[0] == '<' && b.expected < b.n) {
			snprintf(b.q[b.expected++].expect, sizeof b.q[0].expect, "%s", t + 2);
			if (b.expected == b.n) {
				send_batch(d, b.q, b.n);
				for (int k = 0; k < b.n; k++)
					if (!b.q[k].skip)
						check(d, &b.q[k], b.line[k]);
				batch_clear(&b);
			}
		} else if (strncmp(t, "rules ", 6)) {
			fail(d, s->lineno[i], "cannot read '%s' here", t);
		}
		i++;
	}
	if (b.n && !d->failures)
		fail(d, s->lineno[to - 1], "%d message(s) without their expected answers", b.n - b.expected);
	batch_clear(&b);
}

/* `rules NAME PATH`: the file as one line in parentheses, comments dropped; 1: skip the test (no ../shared). */
static int load_rules(driver *d, const char *spec, int line)
{
	char name[128], rel[900], path[2100];
	if (sscanf(spec, "rules %127s %899s", name, rel) != 2 || d->n_rules == MAX_RULES)
		return fail(d, line, "bad rules line"), 0;
	if (!strncmp(rel, "shared:", 7)) {
		if (!d->shared[0])
			return 1;
		snprintf(path, sizeof path, "%s/data/gdl/kif/%s", d->shared, rel + 7);
	} else
		snprintf(path, sizeof path, "%s/%s", d->dir, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(d, line, "cannot read %s", path), 0;
	size_t cap = 1 << 16, len = 1;
	char *t = malloc(cap);
	int c, comment = 0;
	t[0] = '(';
	while (t && (c = fgetc(f)) != EOF) {
		comment = c == ';' ? 1 : c == '\n' ? 0 : comment;
		if (comment)
			continue;
		if (len + 3 > cap)
			t = realloc(t, cap *= 2);
		if (t)
			t[len++] = c == '\n' || c == '\r' || c == '\t' ? ' ' : (char)c;
	}
	fclose(f);
	if (!t)
		return fail(d, line, "out of memory"), 0;
	t[len++] = ')';
	t[len] = '\0';
	d->rule_name[d->n_rules] = strdup(name);
	d->rule_text[d->n_rules++] = t;
	return 0;
}

static int read_script(const char *path, script *s)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	int no = 0;
	if (!f)
		return -1;
	s->n = 0;
	while (fgets(line, sizeof line, f) && s->n < MAX_LINES) {
		size_t n = strlen(line);
		no++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		s->lineno[s->n] = no;
		s->text[s->n++] = strdup(line);
	}
	fclose(f);
	return 0;
}

/* ---- the server ------------------------------------------------------------ */

static pid_t start_server(const char *exe, char **opts, int nopts, FILE **out, int *port)
{
	int fd[2];
	char line[256];
	if (pipe(fd))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[64] = { "microsynth", "gdl", "serve", "--port", "0" };
		int n = 5;
		for (int i = 0; i < nopts && n < 63; i++)
			argv[n++] = opts[i];
		argv[n] = NULL;
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(exe, argv);
		_exit(127);
	}
	close(fd[1]);
	*out = fdopen(fd[0], "r");
	if (pid < 0 || !*out || !fgets(line, sizeof line, *out) || sscanf(line, "http://127.0.0.1:%d/", port) != 1) {
		fprintf(stderr, "the server did not start (first line: %s)\n", pid > 0 && *out ? line : "none");
		if (pid > 0)
			kill(pid, SIGTERM), waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* SIGTERM, its summary line, exit status 0. */
static void stop_server(driver *d, pid_t pid, FILE *out)
{
	char line[512], last[512] = "";
	int status;
	kill(pid, SIGTERM);
	while (fgets(line, sizeof line, out))
		snprintf(last, sizeof last, "%s", line);
	fclose(out);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fail(d, 0, "the server did not exit with 0 on SIGTERM");
	if (strncmp(last, "matches=", 8))
		fail(d, 0, "no summary line from the server (last line: %s)", last);
	printf("server: %s", last);
}

int main(int argc, char **argv)
{
	static driver d;
	script s;
	struct lws_context_creation_info info;
	const char *shared = getenv("MS_SHARED_DIR");
	FILE *out = NULL;
	if (argc < 3 || read_script(argv[2], &s)) {
		fprintf(stderr, "usage: test_gdl_serve MICROSYNTH FIXTURE [SERVER OPTION...]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(d.dir, sizeof d.dir, "%s", argv[2]);
	*(strrchr(d.dir, '/') ? strrchr(d.dir, '/') : d.dir) = '\0';
	if (shared && *shared && access(shared, R_OK) == 0)
		snprintf(d.shared, sizeof d.shared, "%s", shared);
	d.rng = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < s.n; i++)
		if (!strncmp(s.text[i], "rules ", 6) && load_rules(&d, s.text[i], s.lineno[i])) {
			if (getenv("CI")) {
				fprintf(stderr, "FAIL: ../shared (MS_SHARED_DIR) is needed under CI\n");
				return 1;
			}
			printf("skipped: %s needs ../shared (MS_SHARED_DIR)\n", argv[2]);
			return 0;
		}
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = client_protocols;
	lws_set_log_level(getenv("GGP_LWS_DEBUG") ? LLL_ERR | LLL_WARN | LLL_NOTICE | LLL_INFO : LLL_ERR, NULL);
	if (d.failures || ms_ctx_new(&d.ctx, NULL) || !(d.lws = lws_create_context(&info)))
		return 1;
	pid_t pid = start_server(argv[1], argv + 3, argc - 3, &out, &d.port);
	if (pid < 0)
		return 1;
	double t0 = now_s();
	run_lines(&d, &s, 0, s.n, 0);
	stop_server(&d, pid, out);
	printf("exchanges=%d failures=%d worst_share_of_clock=%.3f seconds=%.1f\n", d.exchanges, d.failures, d.worst,
	       now_s() - t0);
	lws_context_destroy(d.lws);
	for (int i = 0; i < d.n_matches; i++)
		match_dispose(&d.match[i]);
	for (int i = 0; i < d.n_rules; i++)
		free(d.rule_name[i]), free(d.rule_text[i]);
	for (int i = 0; i < s.n; i++)
		free(s.text[i]);
	ms_ctx_free(d.ctx);
	return d.failures ? 1 : 0;
}
