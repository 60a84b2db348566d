/*
 * The browser view's server side without a network (tools/view/view_*.c): the
 * JSON messages a page gets for what it sends, live matches that end as
 * `microsynth play` ends them, program lines credited as they act, replays
 * that rebuild every cycle of a trace, the synthesis dashboard's reading of
 * the files a synthesis writes (an official recording too, when ../shared
 * is there: MS_SHARED_DIR), and bad input of every kind answered with
 * one error while the session goes on.
 *
 *   test_view DIR   (DIR: tests/view, for its map)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/json.h"
#include "microsynth/jrandom.h"
#include "microsynth/match.h"
#include "view.h"
#include "follow_util.h"

static const char *fixture_dir;

/* ---- a page: what the session sends, what the log gets --------------------- */

typedef struct page {
	char *msg[4096];
	int n;
	int logged;
	char last_log[1200];
	int reports;
	char last_report[512];
} page;

static int page_emit(void *ud, const char *msg, size_t len)
{
	page *p = ud;
	if (p->n == 4096) {
		free(p->msg[0]);
		memmove(p->msg, p->msg + 1, sizeof(p->msg[0]) * 4095);
		p->n--;
	}
	p->msg[p->n] = malloc(len + 1);
	memcpy(p->msg[p->n], msg, len);
	p->msg[p->n][len] = '\0';
	p->n++;
	return 0;
}

static void page_log(void *ud, const char *line)
{
	page *p = ud;
	p->logged++;
	snprintf(p->last_log, sizeof(p->last_log), "%s", line);
}

static void page_report(void *ud, int client, const char *text)
{
	page *p = ud;
	(void)client;
	p->reports++;
	snprintf(p->last_report, sizeof(p->last_report), "%s", text);
}

static void page_clear(page *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->msg[i]);
	p->n = 0;
}

/* The last message of `type`, parsed (cJSON_Delete it), or NULL. */
static cJSON *last_of(page *p, const char *type)
{
	for (int i = p->n - 1; i >= 0; i--) {
		cJSON *m = cJSON_Parse(p->msg[i]);
		const cJSON *t;
		assert_non_null(m); /* every message is JSON */
		t = cJSON_GetObjectItemCaseSensitive(m, "type");
		if (cJSON_IsString(t) && !strcmp(t->valuestring, type))
			return m;
		cJSON_Delete(m);
	}
	return NULL;
}

static int count_of(page *p, const char *type)
{
	int n = 0;
	char key[64];
	snprintf(key, sizeof(key), "{\"type\":\"%s\"", type);
	for (int i = 0; i < p->n; i++)
		n += !strncmp(p->msg[i], key, strlen(key));
	return n;
}

static int num(const cJSON *m, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, key);
	assert_true(cJSON_IsNumber(v));
	return v->valueint;
}

static char map_path[4096];

static int resolve_test_map(const char *map, char *out, size_t size)
{
	struct stat st;
	if (stat(map, &st))
		return -1;
	snprintf(out, size, "%s", map);
	return 0;
}

static view_config config(page *p)
{
	view_config c;
	memset(&c, 0, sizeof(c));
	c.resolve_map = resolve_test_map;
	c.log = page_log;
	c.log_ud = p;
	c.report = page_report;
	return c;
}

static void send(view_session *s, const char *json)
{
	assert_int_equal(view_session_handle(s, json, strlen(json)), 0);
}

/* Ticks until the match or replay stops by itself (the last state says playing 0). */
static void run_to_end(view_session *s, page *p)
{
	for (int guard = 0; guard < 100000; guard++) {
		int next = -1;
		cJSON *st;
		assert_int_equal(view_session_tick(s, 1e9 + guard, &next), 0);
		st = last_of(p, "state");
		if (st && !num(st, "playing")) {
			cJSON_Delete(st);
			return;
		}
		cJSON_Delete(st);
		if (p->n > 3000)
			page_clear(p);
	}
	fail_msg("the match never ended");
}

/* The winner and end cycle `microsynth play` gets: the same seeds through ms_bot_play. */
static void play_reference(const char *p0, const char *p1, int *winner, int *cycles)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *bot[2];

	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), 0);
	assert_int_equal(ms_rts_state_load_map(ctx, &s, utt, map_path, 0), 0);
	ms_match_seed_state(s, 0);
	for (int p = 0; p < 2; p++) {
		assert_int_equal(ms_bot_make(ctx, &bot[p], p ? p1 : p0, utt, ms_jrandom_match_seed(0, MS_MATCH_RNG_SAMPLER)), 0);
		assert_int_equal(ms_bot_reset(bot[p]), 0);
	}
	assert_int_equal(ms_bot_play(ctx, s, bot, 5000, 0, NULL, winner), 0);
	*cycles = ms_rts_state_time(s);
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void play_message(char *buf, size_t size, const char *p0, const char *p1, const char *extra)
{
	ms_buf b;
	ms_ctx *ctx;
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	ms_buf_init(&b, ctx);
	ms_buf_puts(&b, "{\"type\":\"play\",\"map\":");
	view_json_str(&b, map_path);
	ms_buf_puts(&b, ",\"p0\":");
	view_json_str(&b, p0);
	ms_buf_puts(&b, ",\"p1\":");
	view_json_str(&b, p1);
	ms_buf_printf(&b, ",\"speed\":0%s}", extra);
	snprintf(buf, size, "%s", b.data);
	ms_buf_dispose(&b);
	ms_ctx_free(ctx);
}

/* ---- live matches ----------------------------------------------------------- */

static const char *const PROGRAM =
	"for(Unit u){\n"
	"\tu.train(Worker,EnemyDir,3)\n"
	"\tu.harvest(1)\n"
	"\tu.attack(Closest)\n"
	"}\n";

static void test_view_session__hello_lists_bots_maps_and_players(void **state)
{
	char dir[] = "/tmp/view-test-XXXXXX", path[4200];
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/8x8", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/8x8/m.xml", dir);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/a.ms", dir);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/b.switch", dir);
	fclose(fopen(path, "w"));
	c.maps_dir = c.programs_dir = dir;
	assert_int_equal(view_session_new(&s, &c, 7, page_emit, &p), 0);
	assert_int_equal(view_session_hello(s), 0);
	assert_int_equal(p.n, 1);
	assert_non_null(strstr(p.msg[0], "\"client\":7"));
	assert_non_null(strstr(p.msg[0], "\"WorkerRush\""));
	assert_non_null(strstr(p.msg[0], "\"maps\":[\"8x8/m.xml\"]"));
	snprintf(path, sizeof(path), "\"program:%s/a.ms\"", dir);
	assert_non_null(strstr(p.msg[0], path));
	snprintf(path, sizeof(path), "\"switch:%s/b.switch\"", dir);
	assert_non_null(strstr(p.msg[0], path));
	view_session_free(s);
	page_clear(&p);
	snprintf(path, sizeof(path), "rm -r '%s'", dir);
	assert_int_equal(system(path), 0);
}

static void test_view_session__live_match_ends_as_play_ends_it(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	char msg[8192];
	cJSON *map, *st;
	int winner, cycles;
	(void)state;

	play_reference("WorkerRush", "LightRush", &winner, &cycles);
	assert_int_equal(view_session_new(&s, &c, 0, page_emit, &p), 0);
	play_message(msg, sizeof(msg), "WorkerRush", "LightRush", "");
	send(s, msg);
	map = last_of(&p, "map");
	assert_non_null(map);
	assert_int_equal(num(map, "width"), 8);
	assert_string_equal(cJSON_GetObjectItem(map, "terrain")->valuestring,
			    "0000000000000000000000000001100000011000000000000000000000000000");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(map, "players"), 1)->valuestring, "LightRush");
	cJSON_Delete(map);
	run_to_end(s, &p);
	st = last_of(&p, "state");
	assert_int_equal(num(st, "over"), 1);
	assert_int_equal(num(st, "winner"), winner);
	assert_int_equal(num(st, "time"), cycles);
	cJSON_Delete(st);
	assert_int_equal(p.logged, 0);
	view_session_free(s);
	page_clear(&p);
}

/* Pause, step and speed: a paused match moves only when stepped, and each step is one frame. */
static void test_view_session__paused_match_moves_by_steps(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	char msg[8192];
	cJSON *st;
	int next;
	(void)state;

	assert_int_equal(view_session_new(&s, &c, 0, page_emit, &p), 0);
	play_message(msg, sizeof(msg), "WorkerRush", "LightRush", ",\"paused\":true");
	send(s, msg);
	assert_int_equal(view_session_tick(s, 1e9, &next), 0);
	assert_int_equal(next, -1); /* nothing to do while paused */
	st = last_of(&p, "state");
	assert_int_equal(num(st, "time"), 0);
	cJSON_Delete(st);
	send(s, "{\"type\":\"step\",\"cycles\":37}");
	st = last_of(&p, "state");
	assert_int_equal(num(st, "time"), 37);
	assert_int_equal(num(st, "playing"), 0);
	cJSON_Delete(st);
	send(s, "{\"type\":\"speed\",\"speed\":50}");
	send(s, "{\"type\":\"resume\"}");
	assert_int_equal(view_session_tick(s, 1e9, &next), 0);
	st = last_of(&p, "state");
	assert_int_equal(num(st, "time"), 38); /* 50 cycles a second: one a frame */
	cJSON_Delete(st);
	assert_int_equal(next, 20);
	send(s, "{\"type\":\"pause\"}");
	assert_int_equal(p.logged, 0);
	view_session_free(s);
	page_clear(&p);
}

/* A program's lines: the text with the map, per frame what fired; it plays as ms_bot_make's program bot. */
static void test_view_session__program_lines_fire_and_the_match_ends_as_play(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	char msg[8192], spec[512];
	cJSON *map, *st, *prog, *fired, *now;
	long total = 0;
	int winner, cycles, lines_now = 0;
	(void)state;

	snprintf(spec, sizeof(spec), "program-text:%s", PROGRAM);
	play_reference(spec, "WorkerRush", &winner, &cycles);
	assert_int_equal(view_session_new(&s, &c, 0, page_emit, &p), 0);
	play_message(msg, sizeof(msg), spec, "WorkerRush", ",\"paused\":true");
	send(s, msg);
	map = last_of(&p, "map");
	prog = cJSON_GetArrayItem(cJSON_GetObjectItem(map, "programs"), 0);
	assert_int_equal(num(prog, "player"), 0);
	assert_int_equal(num(prog, "lines"), 5);
	assert_int_equal(strncmp(cJSON_GetObjectItem(prog, "text")->valuestring, PROGRAM, strlen(PROGRAM) - 1), 0);
	cJSON_Delete(map);
	/* the first cycle: the base trains (line 2), the worker harvests (line 3) */
	send(s, "{\"type\":\"step\"}");
	st = last_of(&p, "state");
	now = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "programs"), 0), "now");
	assert_int_equal(cJSON_GetArraySize(now), 5);
	assert_int_equal(cJSON_GetArrayItem(now, 1)->valueint, 1);
	assert_int_equal(cJSON_GetArrayItem(now, 2)->valueint, 1);
	assert_int_equal(cJSON_GetArrayItem(now, 0)->valueint, 0);
	cJSON_Delete(st);
	send(s, "{\"type\":\"resume\"}");
	run_to_end(s, &p);
	st = last_of(&p, "state");
	assert_int_equal(num(st, "winner"), winner);
	assert_int_equal(num(st, "time"), cycles);
	prog = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "programs"), 0);
	fired = cJSON_GetObjectItem(prog, "fired");
	for (int i = 0; i < 5; i++)
		total += (long)cJSON_GetArrayItem(fired, i)->valuedouble;
	assert_true(total > 0);
	assert_true(cJSON_GetArrayItem(fired, 0)->valuedouble == 0); /* a for issues nothing of its own */
	assert_true(cJSON_GetArrayItem(cJSON_GetObjectItem(prog, "busy"), 2)->valuedouble > 0);
	now = cJSON_GetObjectItem(prog, "now");
	for (int i = 0; i < 5; i++)
		lines_now += cJSON_GetArrayItem(now, i)->valueint != 0;
	(void)lines_now;
	cJSON_Delete(st);
	view_session_free(s);
	page_clear(&p);
}

/* ---- bad input ---------------------------------------------------------------- */

/* `json` gets exactly one error naming `needle`, and one log line. */
static void expect_error(view_session *s, page *p, const char *json, const char *needle)
{
	int before = count_of(p, "error"), logged = p->logged;
	cJSON *e;

	assert_int_equal(view_session_handle(s, json, strlen(json)), 0);
	assert_int_equal(count_of(p, "error"), before + 1);
	assert_int_equal(p->logged, logged + 1);
	e = last_of(p, "error");
	if (!strstr(cJSON_GetObjectItem(e, "message")->valuestring, needle))
		fail_msg("error '%s' lacks '%s'", cJSON_GetObjectItem(e, "message")->valuestring, needle);
	assert_non_null(strstr(p->last_log, needle));
	cJSON_Delete(e);
}

static void test_view_session__bad_input_gets_one_error_and_the_session_goes_on(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	char msg[8192], garbage[] = "/tmp/view-garbage-XXXXXX";
	int fd;
	cJSON *st;
	(void)state;

	assert_int_equal(view_session_new(&s, &c, 3, page_emit, &p), 0);
	expect_error(s, &p, "{\"type\":", "line 1");
	expect_error(s, &p, "[1,2]", "a JSON object with a \"type\"");
	expect_error(s, &p, "{\"type\":\"launch\"}", "unknown type 'launch'");
	expect_error(s, &p, "{\"type\":\"play\",\"p0\":\"WorkerRush\"}", "map, p0 and p1 are required");
	expect_error(s, &p, "{\"type\":\"play\",\"map\":\"no/such.xml\",\"p0\":\"WorkerRush\",\"p1\":\"LightRush\"}",
		     "map 'no/such.xml' not found");
	play_message(msg, sizeof(msg), "NoSuchBot", "LightRush", "");
	expect_error(s, &p, msg, "no native bot called 'NoSuchBot'");
	play_message(msg, sizeof(msg), "program-text:for(Unit u){ u.attack(Closest) u.frobnicate() }", "LightRush", "");
	expect_error(s, &p, msg, "line 1, column");
	play_message(msg, sizeof(msg), "program:/no/such/program.ms", "LightRush", "");
	expect_error(s, &p, msg, "/no/such/program.ms");
	play_message(msg, sizeof(msg), "WorkerRush", "LightRush", ",\"utt\":7");
	expect_error(s, &p, msg, "in range");
	expect_error(s, &p, "{\"type\":\"step\"}", "no match or replay is open");
	expect_error(s, &p, "{\"type\":\"replay\",\"path\":\"/no/such/trace.zip\"}", "/no/such/trace.zip");
	fd = mkstemp(garbage);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "<rts.Trace><entries></rts.Trace>", 32), 32);
	close(fd);
	snprintf(msg, sizeof(msg), "{\"type\":\"replay\",\"path\":\"%s\"}", garbage);
	expect_error(s, &p, msg, garbage);
	unlink(garbage);
	expect_error(s, &p, "{\"type\":\"follow\"}", "--follow");
	expect_error(s, &p, "{\"type\":\"report\"}", "text is required");
	assert_int_equal(view_session_report(s, "bad message: over 1048576 bytes"), 0);
	assert_int_equal(p.logged, 15);
	/* and the session still plays */
	play_message(msg, sizeof(msg), "WorkerRush", "LightRush", "");
	send(s, msg);
	expect_error(s, &p, "{\"type\":\"seek\",\"cycle\":-4}", "a replay and a cycle");
	expect_error(s, &p, "{\"type\":\"speed\",\"speed\":\"fast\"}", "cycles a second");
	run_to_end(s, &p);
	st = last_of(&p, "state");
	assert_int_equal(num(st, "over"), 1);
	cJSON_Delete(st);
	send(s, "{\"type\":\"report\",\"text\":\"done winner=0\"}");
	assert_int_equal(p.reports, 1);
	assert_string_equal(p.last_report, "done winner=0");
	view_session_free(s);
	page_clear(&p);
}

/* A failing player (fail-at: fault injection) ends the match with an error naming it and the cycle. */
static void test_view_session__a_failing_player_ends_the_match_with_an_error(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	char msg[8192];
	cJSON *e;
	(void)state;

	assert_int_equal(view_session_new(&s, &c, 0, page_emit, &p), 0);
	play_message(msg, sizeof(msg), "fail-at:5:WorkerRush", "LightRush", ",\"paused\":true");
	send(s, msg);
	send(s, "{\"type\":\"step\",\"cycles\":10}");
	e = last_of(&p, "error");
	assert_non_null(e);
	assert_non_null(strstr(cJSON_GetObjectItem(e, "message")->valuestring, "player 0"));
	assert_non_null(strstr(cJSON_GetObjectItem(e, "message")->valuestring, "cycle 5"));
	cJSON_Delete(e);
	assert_int_equal(p.logged, 1);
	view_session_free(s);
	page_clear(&p);
}

/* ---- replays -------------------------------------------------------------------- */

/* Every cycle's units of a match, as the observer saw them. */
typedef struct cycles_seen {
	ms_rts_unit *units[4000];
	int n_units[4000];
	int resources[4000][2];
	int n;
} cycles_seen;

static void record_state(cycles_seen *cs, const ms_rts_state *s)
{
	int t = ms_rts_state_time(s), n = ms_rts_state_unit_count(s);
	assert_true(t < 4000);
	cs->units[t] = calloc((size_t)n + 1, sizeof(ms_rts_unit));
	cs->n_units[t] = n;
	for (int i = 0; i < n; i++)
		ms_rts_state_unit(s, i, &cs->units[t][i]);
	cs->resources[t][0] = ms_rts_state_resources(s, 0);
	cs->resources[t][1] = ms_rts_state_resources(s, 1);
	cs->n = t + 1;
}

static int observe(void *ud, const ms_rts_state *s)
{
	record_state(ud, s);
	return 0;
}

static void assert_same_state(const cycles_seen *cs, const ms_rts_state *s)
{
	int t = ms_rts_state_time(s);
	assert_true(t < cs->n);
	assert_int_equal(ms_rts_state_unit_count(s), cs->n_units[t]);
	assert_int_equal(ms_rts_state_resources(s, 0), cs->resources[t][0]);
	assert_int_equal(ms_rts_state_resources(s, 1), cs->resources[t][1]);
	for (int i = 0; i < cs->n_units[t]; i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		assert_memory_equal(&u, &cs->units[t][i], sizeof(u));
	}
}

/* Writes the match as an official trace (zipped or not) and keeps every cycle's state. */
static void played_trace(const char *trace, cycles_seen *cs)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *bot[2];
	ms_rts_trace_writer *tw;
	int winner;

	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), 0);
	assert_int_equal(ms_rts_state_load_map(ctx, &s, utt, map_path, 0), 0);
	record_state(cs, s);
	assert_int_equal(ms_bot_make(ctx, &bot[0], "LightRush", utt, 0), 0);
	assert_int_equal(ms_bot_make(ctx, &bot[1], "WorkerRush", utt, 0), 0);
	assert_int_equal(ms_rts_trace_writer_new(ctx, &tw, s), 0);
	assert_int_equal(ms_bot_play_observed(ctx, s, bot, 5000, 0, tw, &winner, observe, cs), 0);
	assert_int_equal(ms_rts_trace_writer_finish(tw, s, trace), 0);
	ms_rts_trace_writer_free(tw);
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_view_replay__every_cycle_is_the_played_one(void **state)
{
	char names[2][64];
	(void)state;

	snprintf(names[0], sizeof(names[0]), "/tmp/view-test-%ld.zip", (long)getpid());
	snprintf(names[1], sizeof(names[1]), "/tmp/view-test-%ld.xml", (long)getpid());
	for (int k = 0; k < 2; k++) {
		cycles_seen *cs = calloc(1, sizeof(*cs));
		ms_ctx *ctx;
		view_replay *r;
		const ms_rts_state *s;
		/* forward, back across checkpoints, to the end, and back to the start */
		int seeks[] = { 0, 1, 63, 64, 65, 200, 130, 5, 100000, 0, 129, 128 };

		played_trace(names[k], cs);
		assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
		assert_int_equal(view_replay_open(ctx, &r, names[k]), 0);
		assert_int_equal(view_replay_cycles(r), cs->n - 1);
		for (size_t i = 0; i < sizeof(seeks) / sizeof(seeks[0]); i++) {
			int want = seeks[i] > cs->n - 1 ? cs->n - 1 : seeks[i];
			assert_int_equal(view_replay_seek(r, seeks[i], &s), 0);
			assert_int_equal(ms_rts_state_time(s), want);
			assert_same_state(cs, s);
		}
		for (int t = 0; t < cs->n; t++) {
			assert_int_equal(view_replay_seek(r, t, &s), 0);
			assert_same_state(cs, s);
		}
		view_replay_free(r);
		ms_ctx_free(ctx);
		for (int t = 0; t < cs->n; t++)
			free(cs->units[t]);
		free(cs);
		unlink(names[k]);
	}
}

/* The replay through a session: the map, then states at the cycles asked for, stepping both ways. */
static void test_view_session__replay_seeks_and_steps_both_ways(void **state)
{
	page p = { 0 };
	view_config c = config(&p);
	view_session *s;
	cycles_seen *cs = calloc(1, sizeof(*cs));
	cJSON *m;
	char trace[64], msg[160];
	(void)state;

	snprintf(trace, sizeof(trace), "/tmp/view-test-session-%ld.zip", (long)getpid());
	played_trace(trace, cs);
	assert_int_equal(view_session_new(&s, &c, 0, page_emit, &p), 0);
	snprintf(msg, sizeof(msg), "{\"type\":\"replay\",\"path\":\"%s\"}", trace);
	send(s, msg);
	m = last_of(&p, "map");
	assert_string_equal(cJSON_GetObjectItem(m, "mode")->valuestring, "replay");
	assert_int_equal(num(m, "cycles"), cs->n - 1);
	cJSON_Delete(m);
	send(s, "{\"type\":\"seek\",\"cycle\":120}");
	send(s, "{\"type\":\"step\",\"cycles\":-20}");
	m = last_of(&p, "state");
	assert_int_equal(num(m, "time"), 100);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "units")), cs->n_units[100]);
	cJSON_Delete(m);
	send(s, "{\"type\":\"resume\"}");
	run_to_end(s, &p);
	m = last_of(&p, "state");
	assert_int_equal(num(m, "time"), cs->n - 1);
	assert_int_equal(num(m, "over"), 1);
	cJSON_Delete(m);
	assert_int_equal(p.logged, 0);
	view_session_free(s);
	page_clear(&p);
	for (int t = 0; t < cs->n; t++)
		free(cs->units[t]);
	free(cs);
	unlink(trace);
}

/* A recording of the official jar (../shared): every recorded state line ("S TIME R0 R1 U N UNIT...") is the
 * replay's state at that cycle. */
static void test_view_replay__a_recording_replays_its_recorded_states(void **state)
{
	const char *shared = getenv("MS_SHARED_DIR");
	char path[4096], cmd[4200], line[65536];
	ms_ctx *ctx;
	view_replay *r;
	FILE *f;
	int states = 0;
	(void)state;

	if (!shared || !*shared) {
		if (getenv("CI"))
			fail_msg("MS_SHARED_DIR is unset but CI is set");
		skip();
	}
	snprintf(path, sizeof(path), "%s/data/microrts/recordings-master/ci000.rec.gz", shared);
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(view_replay_open(ctx, &r, path), 0);
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", path);
	assert_non_null(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		const ms_rts_state *s;
		int t, r0, r1, n, at = 0;
		char *p;
		if (sscanf(line, "S %d %d %d U %d %n", &t, &r0, &r1, &n, &at) != 4)
			continue;
		assert_int_equal(view_replay_seek(r, t, &s), 0);
		assert_int_equal(ms_rts_state_time(s), t);
		assert_int_equal(ms_rts_state_resources(s, 0), r0);
		assert_int_equal(ms_rts_state_resources(s, 1), r1);
		assert_int_equal(ms_rts_state_unit_count(s), n);
		p = line + at;
		for (int i = 0; i < n; i++) {
			long long id;
			int type, owner, x, y, res, hp, k = 0;
			ms_rts_unit u;
			assert_int_equal(sscanf(p, "%lld,%d,%d,%d,%d,%d,%d %n", &id, &type, &owner, &x, &y, &res, &hp, &k), 7);
			p += k;
			ms_rts_state_unit(s, i, &u);
			assert_true(u.id == id && u.type == type && u.player == owner && u.x == x && u.y == y &&
				    u.resources == res && u.hitpoints == hp);
		}
		states++;
	}
	pclose(f);
	assert_int_equal(states, view_replay_cycles(r));
	view_replay_free(r);
	ms_ctx_free(ctx);
}

/* ---- the synthesis dashboard -------------------------------------------------------- */

/* Score bits of a checkpoint line (IEEE-754, as native/synth/ckpt.c writes them). */
static unsigned long long bits_of(double v)
{
	unsigned long long b;
	memcpy(&b, &v, sizeof(b));
	return b;
}

static void test_view_follow__reads_what_csv_and_checkpoint_gained(void **state)
{
	char csv[64], ckpt[64];
	const char *files[] = { csv, ckpt };
	ms_ctx *ctx;
	view_follow *f;
	cJSON *m;
	char line[256];
	int changed;
	(void)state;

	snprintf(csv, sizeof(csv), "/tmp/view-test-%ld.csv", (long)getpid());
	snprintf(ckpt, sizeof(ckpt), "/tmp/view-test-%ld.ckpt", (long)getpid());
	unlink(csv);
	unlink(ckpt);
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(view_follow_new(ctx, &f, files, 2), 0);
	m = poll_json(f, 1, &changed); /* nothing there yet: waiting */
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "files"), 0), "kind")->valuestring,
			    "waiting");
	cJSON_Delete(m);
	append(csv, "seconds,best_psi,best_c,evals_psi,evals_c,phase\n0.500,0.250000,,3,0,search\n2.000,0.7");
	append(ckpt, "microsynth-synth-checkpoint 1\nproblem microrts\ngrammar microrts-A\nstart 0\nalgo sa\nseed 9\nbegin\n");
	snprintf(line, sizeof(line), "e 00000000 0 P 1 %016llx 0 400\n", bits_of(0.25));
	append(ckpt, line);
	append(ckpt, "b 00000000 0 P For_S C Attack Closest\n");
	m = poll_json(f, 0, &changed);
	assert_true(changed);
	assert_int_equal(num(m, "evals"), 3);
	assert_true(cJSON_GetObjectItem(m, "best")->valuedouble == 0.25);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "points")), 1); /* the half line waits */
	assert_string_equal(cJSON_GetObjectItem(m, "algo")->valuestring, "sa");
	assert_string_equal(cJSON_GetObjectItem(m, "program")->valuestring, "for(Unit u){\n\tu.attack(Closest)\n}");
	cJSON_Delete(m);
	m = poll_json(f, 0, &changed);
	assert_false(changed); /* nothing new */
	append(csv, "50000,,12,0,search\n");
	for (int i = 1; i < 12; i++) {
		snprintf(line, sizeof(line), "e 00000000 %d P 1 %016llx 0 %d\n", i, bits_of(i == 11 ? 0.75 : 0.1), 400 + 150 * i);
		append(ckpt, line);
	}
	m = poll_json(f, 0, &changed);
	assert_true(changed);
	assert_int_equal(num(m, "evals"), 12);
	assert_true(cJSON_GetObjectItem(m, "best")->valuedouble == 0.75);
	assert_true(cJSON_GetObjectItem(m, "seconds")->valuedouble == 2.05); /* the checkpoint's last evaluation */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "points")), 2);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "ckpt_points")), 2);
	assert_true(cJSON_GetObjectItem(m, "evals_per_s")->valuedouble > 0);
	cJSON_Delete(m);
	view_follow_free(f);
	ms_ctx_free(ctx);
	unlink(csv);
	unlink(ckpt);
}

/* ---- frames ---------------------------------------------------------------------- */

static void test_view_frame__units_carry_their_actions_in_progress(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_rts_pair pr;
	ms_buf b;
	cJSON *m, *units;
	int found = 0;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), 0);
	assert_int_equal(ms_rts_state_load_map(ctx, &s, utt, map_path, 0), 0);
	/* the worker at (1,1) moves right */
	ms_rts_state_unit(s, ms_rts_state_unit_at(s, 1, 1), &pr.unit);
	memset(&pr.action, 0, sizeof(pr.action));
	pr.action.type = MS_RTS_MOVE;
	pr.action.parameter = MS_RTS_DOWN;
	pr.action.unit_type = -1;
	assert_int_equal(ms_rts_issue_safe(ctx, s, &pr, 1, NULL), 0);
	ms_buf_init(&b, ctx);
	assert_int_equal(ms_buf_puts(&b, "{"), 0);
	assert_int_equal(view_frame_units(&b, s), 0);
	assert_int_equal(ms_buf_puts(&b, "}"), 0);
	assert_non_null(m = cJSON_Parse(b.data));
	units = cJSON_GetObjectItem(m, "units");
	assert_int_equal(cJSON_GetArraySize(units), 6);
	for (int i = 0; i < 6; i++) {
		cJSON *u = cJSON_GetArrayItem(units, i), *a = cJSON_GetObjectItem(u, "a");
		if (num(u, "x") == 1 && num(u, "y") == 1) {
			assert_non_null(a);
			assert_string_equal(cJSON_GetObjectItem(a, "k")->valuestring, "move");
			assert_int_equal(num(a, "d"), MS_RTS_DOWN);
			assert_int_equal(num(a, "at"), 0);
			assert_int_equal(num(a, "eta"), 10);
			found = 1;
		} else
			assert_null(a);
	}
	assert_true(found);
	cJSON_Delete(m);
	ms_buf_dispose(&b);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_session__hello_lists_bots_maps_and_players),
		cmocka_unit_test(test_view_session__live_match_ends_as_play_ends_it),
		cmocka_unit_test(test_view_session__paused_match_moves_by_steps),
		cmocka_unit_test(test_view_session__program_lines_fire_and_the_match_ends_as_play),
		cmocka_unit_test(test_view_session__bad_input_gets_one_error_and_the_session_goes_on),
		cmocka_unit_test(test_view_session__a_failing_player_ends_the_match_with_an_error),
		cmocka_unit_test(test_view_replay__every_cycle_is_the_played_one),
		cmocka_unit_test(test_view_session__replay_seeks_and_steps_both_ways),
		cmocka_unit_test(test_view_replay__a_recording_replays_its_recorded_states),
		cmocka_unit_test(test_view_follow__reads_what_csv_and_checkpoint_gained),
		cmocka_unit_test(test_view_frame__units_carry_their_actions_in_progress),
	};
	fixture_dir = argc > 1 ? argv[1] : ".";
	snprintf(map_path, sizeof(map_path), "%s/view_map8x8.xml", fixture_dir);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
