/*
 * One page's session of `microsynth view`: parses the page's messages,
 * runs its live match or replay at the pace it asked for, and answers
 * with JSON messages (docs/view.md). Nothing here knows the transport.
 *
 * Whatever the page sends, a bad message costs it one {"type":"error"}
 * and the server one log line; the session, and every other, goes on.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/vec.h"
#include "core/json.h"
#include "microsynth/bots.h"
#include "view.h"

#define LIST_MAX 4000    /* files listed per menu */
#define SLICE_S 0.025    /* longest run of cycles between two frames at full speed */
#define FOLLOW_EVERY 0.5 /* seconds between two polls of the followed files */

struct view_session {
	const view_config *cfg;
	ms_ctx *ctx;
	int client;
	view_emit_fn emit;
	void *ud;
	ms_buf out;
	view_match *match;
	view_replay *replay;
	int cycle;          /* the replay's shown cycle */
	int playing;        /* the match or replay runs on by itself */
	double speed;       /* cycles a second; 0: as fast as frames go out */
	double next_at;     /* when the next cycles are due */
	view_follow *follow;
	double follow_at;
	int ended;          /* the live match's end was sent */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sends what `out` holds and empties it. */
static int flush_out(view_session *s)
{
	int rc = s->emit(s->ud, s->out.data ? s->out.data : "", s->out.len);
	s->out.len = 0;
	if (s->out.data)
		s->out.data[0] = '\0';
	return rc;
}

/* Bad input: one message for the page, one line for the log; the session goes on. */
static int report(view_session *s, const char *what)
{
	char line[1200];
	int rc;

	snprintf(line, sizeof(line), "client %d: %s", s->client, what);
	if (s->cfg->log)
		s->cfg->log(s->cfg->log_ud, line);
	s->out.len = 0;
	if ((rc = ms_buf_puts(&s->out, "{\"type\":\"error\",\"message\":")) || (rc = view_json_str(&s->out, what)) ||
	    (rc = ms_buf_puts(&s->out, "}")))
		return rc;
	return flush_out(s);
}

int view_session_report(view_session *s, const char *what)
{
	return report(s, what);
}

static int report_ctx(view_session *s, const char *prefix)
{
	char msg[1100];
	snprintf(msg, sizeof(msg), "%s: %s", prefix, ms_ctx_last_error(s->ctx));
	return report(s, msg);
}

int view_session_new(view_session **out, const view_config *cfg, int client, view_emit_fn emit, void *ud)
{
	view_session *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return MS_ENOMEM;
	if (ms_ctx_new(&s->ctx, NULL)) {
		free(s);
		return MS_ENOMEM;
	}
	s->cfg = cfg;
	s->client = client;
	s->emit = emit;
	s->ud = ud;
	ms_buf_init(&s->out, s->ctx);
	*out = s;
	return MS_OK;
}

static void stop_all(view_session *s)
{
	view_match_free(s->match);
	view_replay_free(s->replay);
	s->match = NULL;
	s->replay = NULL;
	s->playing = 0;
	s->ended = 0;
}

void view_session_free(view_session *s)
{
	if (!s)
		return;
	stop_all(s);
	view_follow_free(s->follow);
	ms_buf_dispose(&s->out);
	ms_ctx_free(s->ctx);
	free(s);
}

/* ---- the greeting: what the page may pick --------------------------------------- */

typedef struct name_list {
	char **v;
	int n, cap;
} name_list;

static int name_push(name_list *l, const char *s)
{
	if (ms_vec_grow(NULL, (void **)&l->v, &l->cap, (long long)l->n + 1, sizeof *l->v) < 0)
		return MS_ENOMEM;
	return (l->v[l->n] = strdup(s)) ? (l->n++, 0) : MS_ENOMEM;
}

static void name_free(name_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The prefix a file of `dir` is offered with ("" for maps and traces), or NULL to skip it. */
typedef const char *(*name_filter)(const char *name);

/* Files under dir (depth <= 3), as prefix + dir/rel or rel alone when `relative`. */
static int list_dir(name_list *l, const char *dir, const char *rel, int depth, name_filter keep, int relative)
{
	char path[4096], sub[4096];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	snprintf(path, sizeof(path), "%s%s%s", dir, *rel ? "/" : "", rel);
	if (depth > 3 || !(d = opendir(path)))
		return 0;
	while (!rc && (e = readdir(d)) && l->n < LIST_MAX) {
		struct stat st;
		const char *prefix;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = list_dir(l, dir, sub, depth + 1, keep, relative);
		else if ((prefix = keep(e->d_name))) {
			char item[4200];
			snprintf(item, sizeof(item), "%s%s", prefix, relative ? sub : path);
			rc = name_push(l, item);
		}
	}
	closedir(d);
	return rc;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && !strcmp(s + n - k, suf);
}

static const char *keep_map(const char *n)
{
	return ends_with(n, ".xml") ? "" : NULL;
}

static const char *keep_trace(const char *n)
{
	return ends_with(n, ".zip") || ends_with(n, ".xml") || ends_with(n, ".rec.gz") ? "" : NULL;
}

static const char *keep_player(const char *n)
{
	return ends_with(n, ".ms") ? "program:" : ends_with(n, ".switch") ? "switch:"
	       : ends_with(n, ".portfolio")                                 ? "portfolio:"
									    : NULL;
}

static const char *keep_result(const char *n)
{
	return ends_with(n, ".csv") || ends_with(n, ".svg") ? "" : NULL;
}

/* "key":[...] of the files `dir` offers, sorted. */
static int hello_list(view_session *s, const char *key, const char *dir, name_filter keep, int relative)
{
	name_list l = { 0 };
	int rc = dir ? list_dir(&l, dir, "", 0, keep, relative) : 0;

	if (l.n)
		qsort(l.v, (size_t)l.n, sizeof(char *), cmp_name);
	if (!rc)
		rc = ms_buf_printf(&s->out, ",\"%s\":[", key);
	for (int i = 0; i < l.n && !rc; i++) {
		rc = i ? ms_buf_puts(&s->out, ",") : 0;
		if (!rc)
			rc = view_json_str(&s->out, l.v[i]);
	}
	name_free(&l);
	return rc ? rc : ms_buf_puts(&s->out, "]");
}

int view_session_hello(view_session *s)
{
	const char *const *bots = ms_bot_names();
	int rc = ms_buf_printf(&s->out, "{\"type\":\"hello\",\"version\":1,\"client\":%d,\"edition\":\"%s\",\"bots\":[",
			       s->client, s->cfg->edition ? "2023" : "2022");

	for (int i = 0; bots[i] && !rc; i++) {
		rc = i ? ms_buf_puts(&s->out, ",") : 0;
		if (!rc)
			rc = view_json_str(&s->out, bots[i]);
	}
	if (!rc)
		rc = ms_buf_puts(&s->out, "]");
	if (!rc)
		rc = hello_list(s, "maps", s->cfg->maps_dir, keep_map, 1);
	if (!rc)
		rc = hello_list(s, "programs", s->cfg->programs_dir, keep_player, 0);
	if (!rc)
		rc = hello_list(s, "traces", s->cfg->traces_dir, keep_trace, 0);
	if (!rc)
		rc = hello_list(s, "results", s->cfg->results_dir, keep_result, 1);
	if (!rc)
		rc = ms_buf_puts(&s->out, ",\"follow\":[");
	for (int i = 0; i < s->cfg->n_follow && !rc; i++) {
		rc = i ? ms_buf_puts(&s->out, ",") : 0;
		if (!rc)
			rc = view_json_str(&s->out, s->cfg->follow[i]);
	}
	if (!rc)
		rc = ms_buf_puts(&s->out, "]}");
	return rc ? rc : flush_out(s);
}

/* ---- frames ------------------------------------------------------------------------ */

/* "programs":[...] of a live match: each program player's text (with the map) or line counts (per frame). */
static int frame_programs(view_session *s, int with_text)
{
	int rc = ms_buf_puts(&s->out, ",\"programs\":["), first = 1;

	for (int p = 0; p < 2 && !rc; p++) {
		view_prog_info in;
		if (!s->match || view_match_program(s->match, p, &in))
			continue;
		rc = ms_buf_printf(&s->out, "%s{\"player\":%d,\"lines\":%d", first ? "" : ",", p, in.n_lines);
		first = 0;
		if (!rc && with_text) {
			rc = ms_buf_puts(&s->out, ",\"text\":");
			if (!rc)
				rc = view_json_str(&s->out, in.text);
		}
		for (int k = 0; k < 3 && !rc && !with_text; k++) {
			static const char *const keys[] = { "now", "fired", "busy" };
			rc = ms_buf_printf(&s->out, ",\"%s\":[", keys[k]);
			for (int l = 1; l <= in.n_lines && !rc; l++)
				rc = ms_buf_printf(&s->out, "%s%ld", l > 1 ? "," : "",
						   k == 0 ? (long)in.now[l] : k == 1 ? in.fired[l] : in.busy[l]);
			if (!rc)
				rc = ms_buf_puts(&s->out, "]");
		}
		if (!rc)
			rc = ms_buf_puts(&s->out, "}");
	}
	return rc ? rc : ms_buf_puts(&s->out, "]");
}

/* {"type":"map"} for the match or replay just opened. */
static int send_map(view_session *s, const ms_rts_state *st, const char *mode, const char *const names[2], int cycles)
{
	int rc;

	s->out.len = 0;
	if ((rc = view_frame_map(&s->out, st, mode, names)) ||
	    (rc = ms_buf_printf(&s->out, ",\"cycles\":%d,\"start\":%d", cycles, ms_rts_state_time(st))) ||
	    (rc = frame_programs(s, 1)) || (rc = ms_buf_puts(&s->out, "}")))
		return rc;
	return flush_out(s);
}

/* {"type":"state"}: the shown cycle. */
static int send_state(view_session *s)
{
	const ms_rts_state *st = NULL;
	int rc, over;

	if (s->match) {
		st = view_match_state(s->match);
		over = view_match_over(s->match);
	} else if (s->replay) {
		if ((rc = view_replay_seek(s->replay, s->cycle, &st)))
			return report_ctx(s, "replay");
		over = ms_rts_state_time(st) >= view_replay_cycles(s->replay);
	} else
		return 0;
	s->out.len = 0;
	if ((rc = ms_buf_printf(&s->out, "{\"type\":\"state\",\"mode\":\"%s\",\"playing\":%d,\"over\":%d,",
				s->match ? "live" : "replay", s->playing, over)) ||
	    (rc = view_frame_units(&s->out, st)) || (rc = (s->match ? frame_programs(s, 0) : 0)))
		return rc;
	if (over)
		rc = ms_buf_printf(&s->out, ",\"winner\":%d", ms_rts_winner(st));
	if (!rc)
		rc = ms_buf_puts(&s->out, "}");
	return rc ? rc : flush_out(s);
}

/* ---- the page's requests ------------------------------------------------------------- */

/* An optional number member; *bad set when present but not a number in [min, max]. */
static double num_or(const cJSON *o, const char *key, double dflt, double min, double max, int *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v))
		return dflt;
	if (!cJSON_IsNumber(v) || v->valuedouble < min || v->valuedouble > max) {
		*bad = 1;
		return dflt;
	}
	return v->valuedouble;
}

static const char *str_or(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* {"type":"play"}: a new live match. */
static int handle_play(view_session *s, const cJSON *m)
{
	view_match_opts o = { 0 };
	char path[4608];
	const char *map = str_or(m, "map");
	const char *names[2];
	int bad = 0, rc;

	o.spec[0] = str_or(m, "p0");
	o.spec[1] = str_or(m, "p1");
	o.utt = (int)num_or(m, "utt", 2, 1, 3, &bad);
	o.conflict = (int)num_or(m, "conflict", 1, 1, 3, &bad);
	o.max_cycles = (int)num_or(m, "max_cycles", 5000, 1, 100000000, &bad);
	o.seed = (int64_t)num_or(m, "seed", 0, -2147483647.0, 2147483647.0, &bad);
	o.po = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "po"));
	o.edition = s->cfg->edition;
	s->speed = num_or(m, "speed", 20, 0, 100000, &bad);
	if (bad)
		return report(s, "play: utt, conflict, max_cycles, seed and speed must be numbers in range");
	if (!map || !o.spec[0] || !o.spec[1])
		return report(s, "play: map, p0 and p1 are required");
	if (s->cfg->resolve_map ? s->cfg->resolve_map(map, path, sizeof(path)) : snprintf(path, sizeof(path), "%s", map) < 0) {
		char msg[700];
		snprintf(msg, sizeof(msg), "play: map '%.500s' not found (as a path or in the harness cache)", map);
		return report(s, msg);
	}
	o.map = path;
	stop_all(s);
	if (view_match_new(s->ctx, &s->match, &o))
		return report_ctx(s, "play");
	names[0] = view_match_player(s->match, 0);
	names[1] = view_match_player(s->match, 1);
	if ((rc = send_map(s, view_match_state(s->match), "live", names, o.max_cycles ? o.max_cycles : 5000)))
		return rc;
	s->playing = !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "paused"));
	s->next_at = now_s();
	return send_state(s);
}

/* {"type":"replay"}: open a trace or a recording. */
static int handle_replay(view_session *s, const cJSON *m)
{
	const char *path = str_or(m, "path");
	const char *names[2];
	const ms_rts_state *st;
	int bad = 0, rc;

	if (!path)
		return report(s, "replay: path is required");
	s->speed = num_or(m, "speed", 20, 0, 100000, &bad);
	if (bad)
		return report(s, "replay: speed must be a number in range");
	stop_all(s);
	if (view_replay_open(s->ctx, &s->replay, path))
		return report_ctx(s, "replay");
	if (view_replay_seek(s->replay, 0, &st))
		return report_ctx(s, "replay");
	s->cycle = ms_rts_state_time(st);
	names[0] = view_replay_player(s->replay, 0);
	names[1] = view_replay_player(s->replay, 1);
	if ((rc = send_map(s, st, "replay", names, view_replay_cycles(s->replay))))
		return rc;
	s->playing = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "play"));
	s->next_at = now_s();
	return send_state(s);
}

/* Moves the match or replay on by up to n cycles (a replay: to cycle `to` when to >= 0). */
static int advance(view_session *s, int n, int to)
{
	if (s->replay) {
		int last = view_replay_cycles(s->replay);
		s->cycle = to >= 0 ? to : s->cycle + n;
		s->cycle = s->cycle < 0 ? 0 : s->cycle > last ? last : s->cycle;
		if (s->cycle >= last)
			s->playing = 0;
		return 0;
	}
	for (int i = 0; i < n && s->match && !view_match_over(s->match); i++) {
		int over;
		if (view_match_step(s->match, &over)) {
			s->playing = 0;
			return report_ctx(s, "match");
		}
	}
	if (s->match && view_match_over(s->match))
		s->playing = 0;
	return 0;
}

/* pause, resume, step, seek, speed: the controls of whatever is shown. */
static int handle_control(view_session *s, const char *type, const cJSON *m)
{
	int bad = 0, rc;

	if (!s->match && !s->replay) {
		char msg[200];
		snprintf(msg, sizeof(msg), "%.40s: no match or replay is open", type);
		return report(s, msg);
	}
	if (!strcmp(type, "pause"))
		s->playing = 0;
	else if (!strcmp(type, "resume")) {
		s->playing = 1;
		s->next_at = now_s();
	} else if (!strcmp(type, "speed")) {
		double v = num_or(m, "speed", -1, 0, 100000, &bad);
		if (bad || v < 0)
			return report(s, "speed: speed must be a number of cycles a second, 0 for as fast as possible");
		s->speed = v;
	} else if (!strcmp(type, "step")) {
		int n = (int)num_or(m, "cycles", 1, -100000000, 100000000, &bad);
		if (bad || (n < 0 && !s->replay))
			return report(s, "step: cycles must be a number (negative only in a replay)");
		s->playing = 0;
		if ((rc = advance(s, n, -1)))
			return rc;
	} else {
		int c = (int)num_or(m, "cycle", -1, 0, 100000000, &bad);
		if (!s->replay || bad || c < 0)
			return report(s, "seek: a replay and a cycle (a number >= 0) are needed");
		if ((rc = advance(s, 0, c)))
			return rc;
	}
	return send_state(s);
}

static int handle_follow(view_session *s, int on)
{
	int changed = 0, rc;

	view_follow_free(s->follow);
	s->follow = NULL;
	if (!on)
		return 0;
	if (!s->cfg->n_follow)
		return report(s, "follow: the server follows no file (start it with --follow FILE)");
	if (view_follow_new(s->ctx, &s->follow, s->cfg->follow, s->cfg->n_follow))
		return report_ctx(s, "follow");
	s->out.len = 0;
	if ((rc = view_follow_poll(s->follow, 1, &s->out, &changed)))
		return report_ctx(s, "follow");
	s->follow_at = now_s() + FOLLOW_EVERY;
	return changed ? flush_out(s) : 0;
}

#define RESULT_MAX (8 << 20)

/* {"type":"result","name":REL}: a table or plot of --results DIR, sent whole as its text. */
static int handle_result(view_session *s, const cJSON *m)
{
	const char *name = str_or(m, "name");
	char path[4096], e[300];
	FILE *fp;
	char *text;
	size_t got;
	int rc;

	if (!s->cfg->results_dir)
		return report(s, "result: the server shows no results (start it with --results DIR)");
	if (!name || !keep_result(name) || name[0] == '/' || strstr(name, ".."))
		return report(s, "result: name must be a .csv or .svg file under the results folder");
	snprintf(path, sizeof(path), "%s/%s", s->cfg->results_dir, name);
	if (!(fp = fopen(path, "rb"))) {
		snprintf(e, sizeof(e), "result: cannot open %.200s", name);
		return report(s, e);
	}
	if (!(text = ms_ctx_malloc(s->ctx, RESULT_MAX + 1))) {
		fclose(fp);
		return MS_ENOMEM;
	}
	got = fread(text, 1, RESULT_MAX, fp);
	fclose(fp);
	text[got] = '\0';
	rc = ms_buf_puts(&s->out, "{\"type\":\"result\",\"name\":");
	if (!rc)
		rc = view_json_str(&s->out, name);
	if (!rc)
		rc = ms_buf_printf(&s->out, ",\"kind\":\"%s\",\"text\":", ends_with(name, ".svg") ? "svg" : "csv");
	if (!rc)
		rc = view_json_strn(&s->out, text, got);
	if (!rc)
		rc = ms_buf_puts(&s->out, "}");
	ms_ctx_mfree(s->ctx, text);
	return rc ? rc : flush_out(s);
}

int view_session_handle(view_session *s, const char *msg, size_t len)
{
	cJSON *m = NULL;
	const char *type;
	int rc = 0;

	if (ms_json_parse(s->ctx, "bad message", msg, len, &m))
		return report(s, ms_ctx_last_error(s->ctx));
	type = str_or(m, "type");
	if (!cJSON_IsObject(m) || !type)
		rc = report(s, "bad message: expected a JSON object with a \"type\"");
	else if (!strcmp(type, "play"))
		rc = handle_play(s, m);
	else if (!strcmp(type, "replay"))
		rc = handle_replay(s, m);
	else if (!strcmp(type, "pause") || !strcmp(type, "resume") || !strcmp(type, "step") || !strcmp(type, "seek") ||
		 !strcmp(type, "speed"))
		rc = handle_control(s, type, m);
	else if (!strcmp(type, "stop")) {
		stop_all(s);
		rc = 0;
	} else if (!strcmp(type, "follow") || !strcmp(type, "unfollow"))
		rc = handle_follow(s, !strcmp(type, "follow"));
	else if (!strcmp(type, "hello"))
		rc = view_session_hello(s);
	else if (!strcmp(type, "result"))
		rc = handle_result(s, m);
	else if (!strcmp(type, "report")) {
		const char *text = str_or(m, "text");
		if (!text)
			rc = report(s, "report: text is required");
		else if (s->cfg->report)
			s->cfg->report(s->cfg->log_ud, s->client, text);
	}
	else {
		char e[200];
		snprintf(e, sizeof(e), "bad message: unknown type '%.60s'", type);
		rc = report(s, e);
	}
	cJSON_Delete(m);
	return rc;
}

/* A running match or replay: the cycles due since the last frame, then one frame. */
static int tick_play(view_session *s, double now, int *next_ms)
{
	int n, rc;
	double t0 = now_s();

	if (now < s->next_at) {
		*next_ms = (int)((s->next_at - now) * 1000.0) + 1;
		return 0;
	}
	if (s->speed > 0) {
		/* at most 50 frames a second; more cycles per frame above that */
		double interval = 1.0 / s->speed < 0.02 ? 0.02 : 1.0 / s->speed;
		n = (int)(s->speed * interval + 0.5);
		if ((rc = advance(s, n < 1 ? 1 : n, -1)))
			return rc;
		s->next_at = (now - s->next_at > 1.0 ? now : s->next_at) + interval;
	} else if (s->replay) {
		if ((rc = advance(s, 20, -1)))
			return rc;
		s->next_at = now;
	} else {
		do {
			if ((rc = advance(s, 1, -1)))
				return rc;
		} while (s->playing && now_s() - t0 < SLICE_S);
		s->next_at = now;
	}
	if ((rc = send_state(s)))
		return rc;
	*next_ms = s->playing ? (int)((s->next_at - now) * 1000.0 + 0.5) : -1;
	if (*next_ms < 0 && s->playing)
		*next_ms = 0;
	return 0;
}

int view_session_tick(view_session *s, double now, int *next_ms)
{
	int rc;

	*next_ms = -1;
	if (s->playing && (s->match || s->replay) && (rc = tick_play(s, now, next_ms)))
		return rc;
	if (s->follow) {
		int ms, changed = 0;
		if (now >= s->follow_at) {
			s->out.len = 0;
			if (view_follow_poll(s->follow, 0, &s->out, &changed))
				rc = report_ctx(s, "follow");
			else
				rc = changed ? flush_out(s) : 0;
			if (rc)
				return rc;
			s->follow_at = now + FOLLOW_EVERY;
		}
		ms = (int)((s->follow_at - now) * 1000.0) + 1;
		if (*next_ms < 0 || ms < *next_ms)
			*next_ms = ms;
	}
	return 0;
}
