/* Client side of the SocketAI protocol for tests and benchmarks (kit.h). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit.h"
#include "core/vec.h"
#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/server.h"

/* ---- TCP line client ------------------------------------------------------------ */

int srv_client_connect(srv_client *c, const char *host, int port, int timeout_ms, char *err, size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	char service[16];
	long deadline = kit_now_ms() + timeout_ms;
	int rc, one = 1;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%d", port);
	if ((rc = getaddrinfo(host, service, &hints, &ai))) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	for (;;) {
		c->fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (c->fd < 0)
			break;
		if (!connect(c->fd, ai->ai_addr, ai->ai_addrlen))
			break;
		close(c->fd);
		c->fd = -1;
		if ((errno != ECONNREFUSED && errno != EAGAIN) || kit_now_ms() >= deadline)
			break;
		kit_sleep_ms(50);
	}
	if (c->fd < 0)
		snprintf(err, errlen, "connect %s:%d: %s", host, port, strerror(errno));
	freeaddrinfo(ai);
	if (c->fd < 0)
		return -1;
	/* Requests are single writes; replies should not wait for Nagle. */
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

int srv_client_connect_unix(srv_client *c, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a;

	memset(c, 0, sizeof(*c));
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, errlen, "%s: path too long", path);
		c->fd = -1;
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, sizeof(a))) {
		snprintf(err, errlen, "connect %s: %s", path, strerror(errno));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		return -1;
	}
	return 0;
}

int srv_client_send(srv_client *c, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, data, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int srv_client_request(srv_client *c, const char *command, const char *payload)
{
	size_t a = strlen(command), b = payload ? strlen(payload) : 0;
	char *msg = malloc(a + b + 2);
	int rc;

	if (!msg)
		return -1;
	memcpy(msg, command, a);
	msg[a] = '\n';
	if (payload) {
		memcpy(msg + a + 1, payload, b);
		msg[a + 1 + b] = '\n';
	}
	rc = srv_client_send(c, msg, a + 1 + (payload ? b + 1 : 0));
	free(msg);
	return rc;
}

/* Reads what is available into the buffer, waiting up to `timeout_ms`. */
static int fill(srv_client *c, int timeout_ms)
{
	struct pollfd p = { c->fd, POLLIN, 0 };
	ssize_t n;
	int r;

	if (c->off) {
		memmove(c->buf, c->buf + c->off, c->len - c->off);
		c->len -= c->off;
		c->off = 0;
	}
	if ((size_t)c->cap - c->len < 65536) {
		if (!c->ctx && ms_ctx_new(&c->ctx, NULL) < 0)
			return -1;
		if (ms_vec_grow(c->ctx, (void **)&c->buf, &c->cap, (long long)c->len + 131072, 1) < 0)
			return -1;
	}
	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return -1;
	n = recv(c->fd, c->buf + c->len, (size_t)c->cap - c->len, 0);
	if (n < 0)
		return -1;
	c->len += (size_t)n;
	return n == 0 ? 0 : 1;
}

int srv_client_line(srv_client *c, int timeout_ms, const char **line, size_t *len)
{
	long deadline = kit_now_ms() + timeout_ms;

	for (;;) {
		char *start = c->buf ? c->buf + c->off : NULL;
		char *nl = c->len > c->off ? memchr(start, '\n', c->len - c->off) : NULL;
		int r, left;

		if (nl) {
			size_t n = (size_t)(nl - start);
			c->off += n + 1;
			if (n && start[n - 1] == '\r')
				n--;
			*line = start;
			*len = n;
			return 1;
		}
		left = timeout_ms < 0 ? -1 : (int)(deadline - kit_now_ms());
		if (timeout_ms >= 0 && left <= 0)
			return -1;
		r = fill(c, left);
		if (r <= 0)
			return r;
	}
}

int srv_client_quiet(srv_client *c, int wait_ms)
{
	struct pollfd p = { c->fd, POLLIN, 0 };

	if (c->len > c->off)
		return 0;
	return poll(&p, 1, wait_ms) == 0;
}

void srv_client_close(srv_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->ctx) {
		ms_ctx_mfree(c->ctx, c->buf);
		ms_ctx_free(c->ctx);
	}
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* ---- child process output --------------------------------------------------------- */

int srv_fd_line(int fd, int timeout_ms, char *buf, size_t size)
{
	long deadline = kit_now_ms() + timeout_ms;
	size_t n = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		long left = deadline - kit_now_ms();
		char ch;
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -1;
		r = read(fd, &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return n ? 1 : r == 0 ? 0 : -1;
		if (ch == '\n') {
			buf[n] = '\0';
			return 1;
		}
		if (n + 1 < size)
			buf[n++] = ch;
	}
}

/* ---- XML writers (util.XMLWriter with a one-space separator) -------------------- */

typedef struct xw {
	ms_buf *b;
	int spaces;
	int rc;
} xw;

static void xw_raw(xw *w, const char *fmt, ...) MS_PRINTF(2, 3);

static void xw_raw(xw *w, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	if (w->rc)
		return;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		w->rc = MS_ERANGE;
		return;
	}
	for (int i = 0; i < w->spaces && !w->rc; i++)
		w->rc = ms_buf_append(w->b, " ", 1);
	if (!w->rc)
		w->rc = ms_buf_append(w->b, tmp, (size_t)n);
	if (!w->rc)
		w->rc = ms_buf_append(w->b, " ", 1);
}

/* XMLWriter.tag / tagWithAttributes: a closing tag unindents first, an
 * opening one indents after. */
#define XW_OPEN(w, ...)                      \
	do {                                 \
		xw_raw((w), __VA_ARGS__);    \
		(w)->spaces += 2;            \
	} while (0)
#define XW_CLOSE(w, ...)                     \
	do {                                 \
		(w)->spaces -= 2;            \
		xw_raw((w), __VA_ARGS__);    \
	} while (0)

static const char *tf(int v)
{
	return v ? "true" : "false";
}

int srv_utt_to_xml(ms_buf *b, const ms_rts_utt *utt)
{
	xw w = { b, 0, MS_OK };

	XW_OPEN(&w, "<rts.units.UnitTypeTable moveConflictResolutionStrategy=\"%d\">", ms_rts_utt_conflict_policy(utt));
	for (int i = 0; i < ms_rts_utt_count(utt); i++) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, i);
		XW_OPEN(&w,
			"<rts.units.UnitType ID=\"%d\" name=\"%s\" cost=\"%d\" hp=\"%d\" minDamage=\"%d\" maxDamage=\"%d\" "
			"attackRange=\"%d\" produceTime=\"%d\" moveTime=\"%d\" attackTime=\"%d\" harvestTime=\"%d\" "
			"returnTime=\"%d\" harvestAmount=\"%d\" sightRadius=\"%d\" isResource=\"%s\" isStockpile=\"%s\" "
			"canHarvest=\"%s\" canMove=\"%s\" canAttack=\"%s\">",
			t->id, t->name, t->cost, t->hp, t->min_damage, t->max_damage, t->attack_range, t->produce_time,
			t->move_time, t->attack_time, t->harvest_time, t->return_time, t->harvest_amount, t->sight_radius,
			tf(t->is_resource), tf(t->is_stockpile), tf(t->can_harvest), tf(t->can_move), tf(t->can_attack));
		for (int k = 0; k < t->n_produces; k++) {
			XW_OPEN(&w, "<produces type=\"%s\">", ms_rts_utt_type(utt, t->produces[k])->name);
			XW_CLOSE(&w, "</produces>");
		}
		for (int k = 0; k < t->n_produced_by; k++) {
			XW_OPEN(&w, "<producedBy type=\"%s\">", ms_rts_utt_type(utt, t->produced_by[k])->name);
			XW_CLOSE(&w, "</producedBy>");
		}
		XW_CLOSE(&w, "</rts.units.UnitType>");
	}
	XW_CLOSE(&w, "</rts.units.UnitTypeTable>");
	return w.rc;
}

static void xw_action(xw *w, const ms_rts_utt *utt, const ms_rts_action *a)
{
	const ms_rts_unit_type *t = a->unit_type >= 0 ? ms_rts_utt_type(utt, a->unit_type) : NULL;

	if (a->type == MS_RTS_ATTACK)
		XW_OPEN(w, "<UnitAction type=\"%d\" x=\"%d\" y=\"%d\">", a->type, a->x, a->y);
	else if (a->parameter != -1)
		XW_OPEN(w, "<UnitAction type=\"%d\" parameter=\"%d\"%s%s%s>", a->type, a->parameter,
			t ? " unitType=\"" : "", t ? t->name : "", t ? "\"" : "");
	else
		XW_OPEN(w, "<UnitAction type=\"%d\" %s%s%s>", a->type, t ? "unitType=\"" : "", t ? t->name : "",
			t ? "\"" : "");
	XW_CLOSE(w, "</UnitAction>");
}

int srv_state_to_xml(ms_buf *b, const ms_rts_state *s)
{
	const ms_rts_utt *utt = ms_rts_state_utt(s);
	int wd = ms_rts_state_width(s), ht = ms_rts_state_height(s);
	xw w = { b, 0, MS_OK };
	char *terrain = malloc((size_t)wd * (size_t)ht + 1);

	if (!terrain)
		return MS_ENOMEM;
	for (int i = 0; i < wd * ht; i++)
		terrain[i] = (char)('0' + ms_rts_state_terrain(s, i % wd, i / wd));
	terrain[wd * ht] = '\0';
	XW_OPEN(&w, "<rts.GameState time=\"%d\">", ms_rts_state_time(s));
	XW_OPEN(&w, "<rts.PhysicalGameState width=\"%d\" height=\"%d\">", wd, ht);
	/* XMLWriter.tag(name, value) neither indents nor unindents after. */
	for (int i = 0; i < w.spaces && !w.rc; i++)
		w.rc = ms_buf_append(b, " ", 1);
	if (!w.rc)
		w.rc = ms_buf_printf(b, "<terrain>%s</terrain> ", terrain);
	free(terrain);
	XW_OPEN(&w, "<players>");
	for (int p = 0; p < 2; p++) {
		XW_OPEN(&w, "<rts.Player ID=\"%d\" resources=\"%d\">", p, ms_rts_state_resources(s, p));
		XW_CLOSE(&w, "</rts.Player>");
	}
	XW_CLOSE(&w, "</players>");
	XW_OPEN(&w, "<units>");
	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		XW_OPEN(&w, "<rts.units.Unit type=\"%s\" ID=\"%lld\" player=\"%d\" x=\"%d\" y=\"%d\" resources=\"%d\" "
			    "hitpoints=\"%d\" >",
			ms_rts_utt_type(utt, u.type)->name, (long long)u.id, u.player, u.x, u.y, u.resources, u.hitpoints);
		XW_CLOSE(&w, "</rts.units.Unit>");
	}
	XW_CLOSE(&w, "</units>");
	XW_CLOSE(&w, "</rts.PhysicalGameState>");
	XW_OPEN(&w, "<actions>");
	for (int k = 0; k < ms_rts_state_assignment_count(s); k++) {
		ms_rts_unit u;
		ms_rts_action a;
		int ui, at;
		ms_rts_state_assignment(s, k, &ui, &a, &at);
		ms_rts_state_unit(s, ui, &u);
		XW_OPEN(&w, "<unitAction ID=\"%lld\" time=\"%d\">", (long long)u.id, at);
		xw_action(&w, utt, &a);
		XW_CLOSE(&w, "</unitAction>");
	}
	XW_CLOSE(&w, "</actions>");
	XW_CLOSE(&w, "</rts.GameState>");
	return w.rc;
}

/* ---- scripts ----------------------------------------------------------------------- */

static int state_text(ms_ctx *ctx, int lang, const ms_rts_state *s, char **out)
{
	ms_buf b;
	int rc;

	if (lang == MS_SERVER_LANG_JSON)
		return ms_rts_state_to_json(ctx, out, s, MS_RTS_JSON_CONSTANTS);
	ms_buf_init(&b, ctx);
	rc = srv_state_to_xml(&b, s);
	if (rc) {
		ms_buf_dispose(&b);
		return rc;
	}
	*out = ms_buf_detach(&b);
	return *out ? MS_OK : MS_ENOMEM;
}

int srv_script_make(ms_ctx *ctx, srv_script *out, int lang, const char *map_path, int utt_version, const char *p0,
		    const char *p1, int max_cycles)
{
	ms_rts_utt *utt = NULL;
	ms_rts_state *s = NULL;
	ms_bot *bots[2] = { NULL, NULL };
	ms_rts_pair *pairs = NULL;
	int rc, cap = 0, over = 0;

	memset(out, 0, sizeof(*out));
	out->lang = lang;
	if ((rc = ms_rts_utt_new(ctx, &utt, utt_version, MS_RTS_CONFLICT_CANCEL_BOTH)) ||
	    (rc = ms_rts_state_load_map(ctx, &s, utt, map_path, 0)) || (rc = ms_bot_make(ctx, &bots[0], p0, utt, 0)) ||
	    (rc = ms_bot_make(ctx, &bots[1], p1, utt, 0)))
		goto done;
	if (lang == MS_SERVER_LANG_JSON) {
		rc = ms_rts_utt_to_json(ctx, &out->utt, utt);
	} else {
		ms_buf b;
		ms_buf_init(&b, ctx);
		rc = srv_utt_to_xml(&b, utt);
		out->utt = rc ? NULL : ms_buf_detach(&b);
		if (rc)
			ms_buf_dispose(&b);
		else if (!out->utt)
			rc = MS_ENOMEM;
	}
	if (rc || !(out->states = ms_ctx_calloc(ctx, (size_t)max_cycles + 1, sizeof(char *)))) {
		rc = rc ? rc : MS_ENOMEM;
		goto done;
	}
	while (!over && out->n < max_cycles) {
		int n[2], want = ms_rts_state_unit_count(s) + 1;
		ms_rts_pair *p1s;
		if (ms_vec_grow(ctx, (void **)&pairs, &cap, (long long)want * 2, sizeof *pairs) < 0) {
			rc = MS_ENOMEM;
			goto done;
		}
		p1s = pairs + want;
		if ((rc = state_text(ctx, lang, s, &out->states[out->n])))
			goto done;
		out->n++;
		if ((rc = ms_bot_decide(bots[0], 0, s, pairs, want, &n[0])) ||
		    (rc = ms_bot_decide(bots[1], 1, s, p1s, want, &n[1])) ||
		    (rc = ms_rts_issue_safe(ctx, s, pairs, n[0], NULL)) || (rc = ms_rts_issue_safe(ctx, s, p1s, n[1], NULL)) ||
		    (rc = ms_rts_cycle(ctx, s, &over)))
			goto done;
	}
done:
	if (rc)
		srv_script_free(ctx, out);
	ms_ctx_mfree(ctx, pairs);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	return rc;
}

void srv_script_free(ms_ctx *ctx, srv_script *sc)
{
	if (sc->states)
		for (int i = 0; i < sc->n; i++)
			ms_ctx_mfree(ctx, sc->states[i]);
	ms_ctx_mfree(ctx, sc->states);
	ms_ctx_mfree(ctx, sc->utt);
	memset(sc, 0, sizeof(*sc));
}
