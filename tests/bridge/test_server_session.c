/*
 * The SocketAI protocol session without a network: what each request gets
 * back, byte for byte where the protocol fixes the bytes, and what bad
 * input gets (spec Part 1, rules S3-S12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/kit/kit.h"
#include "games/microrts/bridge/server/server_internal.h"
#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/microrts.h"
#include "microsynth/server.h"
#include "server_testlib.h"

typedef struct fx {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *duel, *map8;
	char *utt_json, *utt_xml;
	char *duel_json, *map8_json;
	char *duel_reply_json, *duel_reply_xml; /* WorkerRush's decision on the duel, asked directly */
} fx;

static fx F;

static char *xml_of_utt(const ms_rts_utt *utt)
{
	ms_buf b;
	ms_buf_init(&b, F.ctx);
	assert_int_equal(srv_utt_to_xml(&b, utt), 0);
	return ms_buf_detach(&b);
}

static char *xml_of_state(const ms_rts_state *s)
{
	ms_buf b;
	ms_buf_init(&b, F.ctx);
	assert_int_equal(srv_state_to_xml(&b, s), 0);
	return ms_buf_detach(&b);
}

static char *json_of_state(const ms_rts_state *s, int flags)
{
	char *out = NULL;
	assert_int_equal(ms_rts_state_to_json(F.ctx, &out, s, flags), 0);
	return out;
}

/* The reply a getAction should get: the bot asked directly (no protocol),
 * written by the engine's JSON writer or the server's XML writer. */
static char *expected_reply(const char *bot, int lang, const ms_rts_state *st, int player)
{
	ms_bot *b;
	ms_rts_pair p[64];
	int n;
	char *out = NULL;

	assert_int_equal(ms_bot_make(F.ctx, &b, bot, F.utt, 0), 0);
	assert_int_equal(ms_bot_decide(b, player, st, p, 64, &n), 0);
	ms_bot_free(b);
	if (lang == MS_SERVER_LANG_JSON) {
		assert_int_equal(ms_rts_player_action_to_json(F.ctx, &out, st, p, n), 0);
	} else {
		ms_buf buf;
		ms_buf_init(&buf, F.ctx);
		assert_int_equal(srv_player_action_xml(&buf, st, p, n), 0);
		out = ms_buf_detach(&buf);
	}
	return out;
}

static int setup(void **state)
{
	(void)state;
	memset(&F, 0, sizeof(F));
	assert_int_equal(ms_ctx_new(&F.ctx, NULL), 0);
	assert_int_equal(ms_rts_utt_new(F.ctx, &F.utt, MS_RTS_UTT_FINETUNED, MS_RTS_CONFLICT_CANCEL_BOTH), 0);
	assert_int_equal(ms_rts_state_load_map(F.ctx, &F.duel, F.utt, fixture("server_duel4x4.xml"), 0), 0);
	assert_int_equal(ms_rts_state_load_map(F.ctx, &F.map8, F.utt, fixture("server_map8x8.xml"), 0), 0);
	assert_int_equal(ms_rts_utt_to_json(F.ctx, &F.utt_json, F.utt), 0);
	F.utt_xml = xml_of_utt(F.utt);
	F.duel_json = json_of_state(F.duel, MS_RTS_JSON_CONSTANTS);
	F.map8_json = json_of_state(F.map8, MS_RTS_JSON_CONSTANTS);
	F.duel_reply_json = expected_reply("WorkerRush", MS_SERVER_LANG_JSON, F.duel, 0);
	F.duel_reply_xml = expected_reply("WorkerRush", MS_SERVER_LANG_XML, F.duel, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ms_ctx_mfree(F.ctx, F.utt_json);
	ms_ctx_mfree(F.ctx, F.utt_xml);
	ms_ctx_mfree(F.ctx, F.duel_json);
	ms_ctx_mfree(F.ctx, F.map8_json);
	ms_ctx_mfree(F.ctx, F.duel_reply_json);
	ms_ctx_mfree(F.ctx, F.duel_reply_xml);
	ms_rts_state_free(F.duel);
	ms_rts_state_free(F.map8);
	ms_rts_utt_free(F.utt);
	ms_ctx_free(F.ctx);
	return 0;
}

static ms_server_session *open_session(const char *bot, int lang, size_t max_line, replies *r)
{
	ms_server_session_options o = session_options(bot, lang);
	ms_server_session *s = NULL;

	o.max_line = max_line;
	assert_int_equal(ms_server_session_new(F.ctx, &s, &o, 0), 0);
	ms_server_session_on_error(s, replies_error, r);
	return s;
}

static void feed(ms_server_session *s, replies *r, const char *text)
{
	assert_int_equal(ms_server_session_feed(s, text, strlen(text), replies_emit, r), 0);
}

/* Feeds "COMMAND\nPAYLOAD\n". */
static void request(ms_server_session *s, replies *r, const char *command, const char *payload)
{
	feed(s, r, command);
	feed(s, r, "\n");
	if (payload) {
		feed(s, r, payload);
		feed(s, r, "\n");
	}
}

/* A malloc'd copy of `s` with the first `old` replaced by `new_text`. */
static char *replace_once(const char *s, const char *old, const char *new_text)
{
	const char *p = strstr(s, old);
	size_t a, b, c;
	char *out;

	assert_non_null(p);
	a = (size_t)(p - s);
	b = strlen(new_text);
	c = strlen(p + strlen(old));
	out = malloc(a + b + c + 1);
	memcpy(out, s, a);
	memcpy(out + a, new_text, b);
	memcpy(out + a + b, p + strlen(old), c + 1);
	return out;
}

/* The pairs of a JSON reply to a getAction about `st`. */
static int reply_pairs(const ms_rts_state *st, const char *reply, ms_rts_pair *pairs, int max)
{
	int n = -1;
	assert_int_equal(ms_rts_player_action_from_json(F.ctx, st, reply, strlen(reply), pairs, max, &n), 0);
	return n;
}

/* ---------------------------------------------------------------------------- */

static void test_server_session__welcome_is_one_line_naming_the_client(void **state)
{
	ms_server_session_options o = session_options(NULL, MS_SERVER_LANG_AUTO);
	ms_server_session *s;

	(void)state;
	assert_int_equal(ms_server_session_new(F.ctx, &s, &o, 7), 0);
	assert_non_null(strstr(ms_server_session_welcome(s), "client #7"));
	assert_non_null(strstr(ms_server_session_welcome(s), MS_SERVER_DEFAULT_BOT));
	assert_null(strchr(ms_server_session_welcome(s), '\n'));
	ms_server_session_free(s);
}

static void test_server_session__unknown_bot_is_refused_with_its_name(void **state)
{
	ms_server_session_options o = session_options("NoSuchBot", MS_SERVER_LANG_AUTO);
	ms_server_session *s = NULL;

	(void)state;
	assert_int_equal(ms_server_session_new(F.ctx, &s, &o, 0), MS_ENOTFOUND);
	assert_null(s);
	assert_non_null(strstr(ms_ctx_last_error(F.ctx), "NoSuchBot"));
	o.language = 5;
	o.bot = NULL;
	assert_int_equal(ms_server_session_new(F.ctx, &s, &o, 0), MS_EINVAL);
}

/* The CLIENT-mode session of spec 1.11 (budget/utt twice, preGameAnalysis
 * without a folder, getAction, gameOver) on its duel map: five acks, the
 * bot's decision, one ack. */
static void check_duel_replies(const replies *r)
{
	assert_int_equal(r->n, 7);
	for (int i = 0; i < 7; i++)
		assert_string_equal(r->line[i], i == 5 ? F.duel_reply_json : "ack");
}

static void duel_session(ms_server_session *s, replies *r, int crlf, int bytewise)
{
	char *all = NULL;
	size_t n = 0;
	const char *eol = crlf ? "\r\n" : "\n";
	const char *parts[] = { "budget 100 0", "utt", F.utt_json, "budget 100 0", "utt", F.utt_json,
				"preGameAnalysis 0", F.duel_json, "getAction 0", F.duel_json, "gameOver 0" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		size_t a = strlen(parts[i]), b = strlen(eol);
		all = realloc(all, n + a + b + 1);
		memcpy(all + n, parts[i], a);
		memcpy(all + n + a, eol, b);
		n += a + b;
	}
	if (bytewise) {
		for (size_t i = 0; i < n; i++)
			assert_int_equal(ms_server_session_feed(s, all + i, 1, replies_emit, r), 0);
	} else {
		assert_int_equal(ms_server_session_feed(s, all, n, replies_emit, r), 0);
	}
	free(all);
}

static void test_server_session__example_session_gets_acks_and_the_decision(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);
	ms_server_session_stats st;

	(void)state;
	duel_session(s, &r, 0, 0);
	check_duel_replies(&r);
	assert_int_equal(r.errors, 0);
	ms_server_session_get_stats(s, &st);
	assert_int_equal(st.games_over, 1);
	assert_int_equal(st.last_winner, 0);
	assert_int_equal(st.actions, 1);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__crlf_and_one_byte_at_a_time_change_nothing(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);

	(void)state;
	duel_session(s, &r, 1, 1);
	check_duel_replies(&r);
	assert_int_equal(r.errors, 0);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__malformed_json_gets_replies_that_keep_the_stream_in_step(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_JSON, 0, &r);
	char *bad_unit = strdup(F.duel_json);
	char *p = strstr(bad_unit, "\"Worker\"");

	(void)state;
	memcpy(p, "\"Wizard\"", 8);
	request(s, &r, "getAction 0", "{not json"); /* no table yet either */
	request(s, &r, "utt", "{\"unitTypes\":5}");
	request(s, &r, "getAction 0", F.duel_json); /* the table was unreadable */
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 1", bad_unit);
	request(s, &r, "getAction 7", F.duel_json);
	request(s, &r, "getAction 0", "<rts.GameState time=\"0\"></rts.GameState>"); /* XML to a JSON session */
	request(s, &r, "frobnicate 1 2", NULL);
	request(s, &r, "budget x y", NULL);
	request(s, &r, "getAction 0", F.duel_json);
	assert_int_equal(r.n, 9);
	assert_string_equal(r.line[0], "[]");
	assert_true(!strncmp(r.line[1], "ack error: unit type table", 26));
	assert_string_equal(r.line[2], "[]");
	assert_string_equal(r.line[3], "ack");
	assert_string_equal(r.line[4], "[]");
	assert_string_equal(r.line[5], "[]");
	assert_string_equal(r.line[6], "[]");
	/* "frobnicate" got no reply, as with the Java servers */
	assert_true(!strncmp(r.line[7], "ack error: budget", 17));
	assert_string_equal(r.line[8], F.duel_reply_json);
	assert_int_equal(r.errors, 8);
	free(bad_unit);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__malformed_xml_gets_the_empty_xml_action(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_XML, 0, &r);
	char *duel_xml = xml_of_state(F.duel);

	(void)state;
	request(s, &r, "utt", F.utt_xml);
	request(s, &r, "getAction 0", "<rts.GameState time=\"0\"><unclosed");
	request(s, &r, "getAction 0", F.duel_json); /* JSON to an XML session */
	request(s, &r, "getAction 0", "<rts.GameState time=\"0\"></rts.GameState>"); /* no PhysicalGameState */
	request(s, &r, "utt", "<rts.units.UnitTypeTable moveConflictResolutionStrategy=\"x\"></rts.units.UnitTypeTable>");
	request(s, &r, "utt", F.utt_xml);
	request(s, &r, "getAction 0", duel_xml);
	assert_int_equal(r.n, 7);
	assert_string_equal(r.line[0], "ack");
	assert_string_equal(r.line[1], "<PlayerAction> </PlayerAction> ");
	assert_string_equal(r.line[2], "<PlayerAction> </PlayerAction> ");
	assert_string_equal(r.line[3], "<PlayerAction> </PlayerAction> ");
	assert_true(!strncmp(r.line[4], "ack error: ", 11));
	assert_string_equal(r.line[5], "ack");
	/* XMLWriter with a one-space separator, as XMLSocketWrapperAI writes it */
	assert_string_equal(r.line[6], F.duel_reply_xml);
	assert_int_equal(r.errors, 4);
	ms_ctx_mfree(F.ctx, duel_xml);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__lines_over_the_limit_are_skipped_and_still_answered(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 4096, &r);
	char *big = malloc(5001);

	(void)state;
	memset(big, 'x', 5000);
	big[5000] = '\0';
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 0", big);
	request(s, &r, "preGameAnalysis 0", big);
	request(s, &r, big, NULL); /* a command line over the limit: ignored */
	request(s, &r, "utt", big);
	request(s, &r, "budget 100 0", NULL);
	assert_int_equal(r.n, 5);
	assert_string_equal(r.line[0], "ack");
	assert_string_equal(r.line[1], "[]");
	assert_string_equal(r.line[2], "ack error: line of 5000 bytes is over the limit of 4096 (skipped)");
	assert_string_equal(r.line[3], "ack error: line of 5000 bytes is over the limit of 4096 (skipped)");
	assert_string_equal(r.line[4], "ack");
	assert_int_equal(r.errors, 4);
	free(big);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__eight_megabyte_lines_are_parsed_or_refused_cleanly(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);
	size_t big = (size_t)8 << 20, n = strlen(F.duel_json);
	char *junk = malloc(big + 1), *padded = malloc(big + n + 1);

	(void)state;
	memset(junk, '{', big);
	junk[big] = '\0';
	memset(padded, ' ', big);
	memcpy(padded + big, F.duel_json, n + 1);
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 0", junk);
	request(s, &r, "getAction 0", padded); /* valid JSON after 8 MB of blanks */
	request(s, &r, junk, NULL);
	request(s, &r, "budget 100 0", NULL);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.line[1], "[]");
	assert_string_equal(r.line[2], F.duel_reply_json);
	assert_string_equal(r.line[3], "ack");
	assert_int_equal(r.errors, 2);
	free(junk);
	free(padded);
	ms_server_session_free(s);
	replies_clear(&r);
}

/* Upstream SocketAI may send states without width, height and terrain
 * (includeConstantsInState=false); they come from the pre-game state. */
static void test_server_session__states_without_constants_use_the_pregame_ones(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);
	char *bare = json_of_state(F.duel, 0);
	char *xml = xml_of_state(F.duel);
	char *x1 = replace_once(xml, " width=\"4\" height=\"4\"", "");
	char *xml_bare = replace_once(x1, "<terrain>0000000000000001</terrain>", "");

	(void)state;
	assert_null(strstr(bare, "terrain"));
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 0", bare); /* nothing gave the constants yet */
	request(s, &r, "preGameAnalysis 0", F.duel_json);
	request(s, &r, "getAction 0", bare);
	request(s, &r, "preGameAnalysis 100  \"tournament_1/AI0readWriteFolder\"", xml);
	request(s, &r, "getAction 0", xml_bare);
	assert_int_equal(r.n, 6);
	assert_string_equal(r.line[1], "[]");
	assert_string_equal(r.line[2], "ack");
	assert_string_equal(r.line[3], F.duel_reply_json);
	assert_string_equal(r.line[4], "ack");
	assert_string_equal(r.line[5], F.duel_reply_xml);
	assert_int_equal(r.errors, 1);
	ms_ctx_mfree(F.ctx, bare);
	ms_ctx_mfree(F.ctx, xml);
	free(x1);
	free(xml_bare);
	ms_server_session_free(s);
	replies_clear(&r);
}

/* Java compresses 0000000000000001 to "A15": the last run of one is lost. */
static void test_server_session__java_compressed_terrain_is_completed(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);
	char *z = json_of_state(F.duel, MS_RTS_JSON_CONSTANTS | MS_RTS_JSON_COMPRESS_TERRAIN);
	char *xml = xml_of_state(F.duel);
	char *xz = replace_once(xml, "<terrain>0000000000000001</terrain>", "<terrain>A15</terrain>");

	(void)state;
	assert_non_null(strstr(z, "\"terrain\":\"A15\""));
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 0", z);
	request(s, &r, "getAction 0", xz);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.line[1], F.duel_reply_json);
	assert_string_equal(r.line[2], F.duel_reply_xml);
	assert_int_equal(r.errors, 0);
	ms_ctx_mfree(F.ctx, z);
	ms_ctx_mfree(F.ctx, xml);
	free(xz);
	ms_server_session_free(s);
	replies_clear(&r);
}

/* PlayerAction.toxml through XMLWriter(w, " "): each tag on its own
 * "line" ended by the separator, indented two spaces per level; UnitAction
 * attributes as UnitAction.toxml joins them (a space after type, none
 * before '>' unless nothing follows type). */
static void test_server_session__xml_player_action_is_written_as_java_writes_it(void **state)
{
	ms_rts_pair p[4];
	ms_buf b;

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].unit.id = 3;
	p[0].action = (ms_rts_action){ MS_RTS_ATTACK, -1, 5, 6, -1 };
	p[1].unit.id = 2;
	p[1].action = (ms_rts_action){ MS_RTS_PRODUCE, MS_RTS_RIGHT, 0, 0, ms_rts_utt_find(F.utt, "Worker") };
	p[2].unit.id = 12;
	p[2].action = (ms_rts_action){ MS_RTS_NONE, 10, 0, 0, -1 };
	p[3].unit.id = 40;
	p[3].action = (ms_rts_action){ MS_RTS_NONE, -1, 0, 0, -1 };
	ms_buf_init(&b, F.ctx);
	assert_int_equal(srv_player_action_xml(&b, F.map8, p, 4), 0);
	assert_string_equal(b.data,
			    "<PlayerAction> "
			    "  <action unitID=\"3\">     <UnitAction type=\"5\" x=\"5\" y=\"6\">     </UnitAction>   </action> "
			    "  <action unitID=\"2\">     <UnitAction type=\"4\" parameter=\"1\" unitType=\"Worker\">"
			    "     </UnitAction>   </action> "
			    "  <action unitID=\"12\">     <UnitAction type=\"0\" parameter=\"10\">     </UnitAction>   </action> "
			    "  <action unitID=\"40\">     <UnitAction type=\"0\" >     </UnitAction>   </action> "
			    "</PlayerAction> ");
	b.len = 0;
	assert_int_equal(srv_player_action_xml(&b, F.map8, p, 0), 0);
	assert_string_equal(b.data, "<PlayerAction> </PlayerAction> ");
	ms_buf_dispose(&b);
}

/* One script, two languages: the XML reply is the JSON reply's decisions
 * written as PlayerAction.toxml writes them. */
static void test_server_session__json_and_xml_sessions_decide_alike(void **state)
{
	srv_script js, xs;
	replies rj = { 0 }, rx = { 0 };
	ms_server_session *sj = open_session("LightRush", MS_SERVER_LANG_AUTO, 0, &rj);
	ms_server_session *sx = open_session("LightRush", MS_SERVER_LANG_AUTO, 0, &rx);
	ms_rts_pair pairs[64];
	int nonempty = 0;

	(void)state;
	assert_int_equal(srv_script_make(F.ctx, &js, MS_SERVER_LANG_JSON, fixture("server_map8x8.xml"), 2, "LightRush",
					 "WorkerRush", 400),
			 0);
	assert_int_equal(srv_script_make(F.ctx, &xs, MS_SERVER_LANG_XML, fixture("server_map8x8.xml"), 2, "LightRush",
					 "WorkerRush", 400),
			 0);
	assert_int_equal(js.n, xs.n);
	request(sj, &rj, "utt", js.utt);
	request(sx, &rx, "utt", xs.utt);
	for (int i = 0; i < js.n; i++) {
		request(sj, &rj, "getAction 0", js.states[i]);
		request(sx, &rx, "getAction 0", xs.states[i]);
	}
	assert_int_equal(rj.n, js.n + 1);
	assert_int_equal(rx.n, js.n + 1);
	for (int i = 0; i < js.n; i++) {
		ms_rts_state *st;
		ms_buf b;
		int n;
		assert_int_equal(ms_rts_state_from_json(F.ctx, &st, F.utt, js.states[i], strlen(js.states[i]), 0), 0);
		n = reply_pairs(st, rj.line[i + 1], pairs, 64);
		nonempty += n > 0;
		ms_buf_init(&b, F.ctx);
		assert_int_equal(srv_player_action_xml(&b, st, pairs, n), 0);
		assert_string_equal(b.data, rx.line[i + 1]);
		ms_buf_dispose(&b);
		ms_rts_state_free(st);
	}
	assert_true(nonempty > 10);
	assert_int_equal(rj.errors + rx.errors, 0);
	srv_script_free(F.ctx, &js);
	srv_script_free(F.ctx, &xs);
	ms_server_session_free(sj);
	ms_server_session_free(sx);
	replies_clear(&rj);
	replies_clear(&rx);
}

/* The server's replies, issued as SocketAI issues them, play a game to its
 * end: WorkerRush behind the session beats PassiveAI. */
static void test_server_session__replies_play_a_game_to_the_end(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_JSON, 0, &r);
	ms_rts_state *g;
	ms_bot *passive;
	ms_rts_pair mine[64], theirs[64];
	int over = 0, n1;

	(void)state;
	assert_int_equal(ms_rts_state_clone(F.ctx, &g, F.map8), 0);
	assert_int_equal(ms_bot_make(F.ctx, &passive, "PassiveAI", F.utt, 0), 0);
	request(s, &r, "budget 100 0", NULL);
	request(s, &r, "utt", F.utt_json);
	while (!over && ms_rts_state_time(g) < 3000) {
		char *js = json_of_state(g, MS_RTS_JSON_CONSTANTS);
		int before = r.n, n0;
		request(s, &r, "getAction 0", js);
		ms_ctx_mfree(F.ctx, js);
		assert_int_equal(r.n, before + 1);
		n0 = reply_pairs(g, r.line[r.n - 1], mine, 64);
		assert_int_equal(ms_bot_decide(passive, 1, g, theirs, 64, &n1), 0);
		assert_int_equal(ms_rts_issue_safe(F.ctx, g, mine, n0, NULL), 0);
		assert_int_equal(ms_rts_issue_safe(F.ctx, g, theirs, n1, NULL), 0);
		assert_int_equal(ms_rts_cycle(F.ctx, g, &over), 0);
	}
	assert_true(over);
	assert_int_equal(ms_rts_winner(g), 0);
	request(s, &r, "gameOver 0", NULL);
	assert_string_equal(r.line[r.n - 1], "ack");
	assert_int_equal(r.errors, 0);
	ms_bot_free(passive);
	ms_rts_state_free(g);
	ms_server_session_free(s);
	replies_clear(&r);
}

static void test_server_session__a_table_the_bot_cannot_play_is_reported(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session("WorkerRush", MS_SERVER_LANG_AUTO, 0, &r);
	const char *only_resources =
		"{\"moveConflictResolutionStrategy\":1,\"unitTypes\":[{\"ID\":0, \"name\":\"Resource\", \"isResource\":true, "
		"\"canMove\":false, \"canAttack\":false, \"produces\":[], \"producedBy\":[]}]}";
	const char *st = "{\"time\":0,\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":0, "
			 "\"resources\":0},{\"ID\":1, \"resources\":0}],\"units\":[]},\"actions\":[]}";

	(void)state;
	request(s, &r, "utt", only_resources);
	request(s, &r, "getAction 0", st);
	assert_int_equal(r.n, 2);
	assert_true(!strncmp(r.line[0], "ack error: bot WorkerRush", 25));
	assert_string_equal(r.line[1], "[]");
	assert_non_null(strstr(r.last_error, "no bot"));
	ms_server_session_free(s);
	replies_clear(&r);
}

/* `--program FILE` is the bot spec "program:FILE": a DSL program answers
 * through the session like any bot; a missing file is refused up front. */
static void test_server_session__a_program_plays_through_the_session(void **state)
{
	char spec[4300];
	replies r = { 0 };
	ms_server_session *s;
	ms_server_session_options o;
	ms_rts_pair pairs[64];

	(void)state;
	snprintf(spec, sizeof(spec), "program:%s", fixture("server_program.txt"));
	s = open_session(spec, MS_SERVER_LANG_AUTO, 0, &r);
	request(s, &r, "utt", F.utt_json);
	request(s, &r, "getAction 0", F.map8_json);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.line[0], "ack");
	assert_true(reply_pairs(F.map8, r.line[1], pairs, 64) >= 1);
	assert_int_equal(r.errors, 0);
	ms_server_session_free(s);
	replies_clear(&r);
	snprintf(spec, sizeof(spec), "program:%s", fixture("server_no_such_program.txt"));
	o = session_options(spec, MS_SERVER_LANG_AUTO);
	assert_int_not_equal(ms_server_session_new(F.ctx, &s, &o, 0), 0);
	assert_non_null(strstr(ms_ctx_last_error(F.ctx), "server_no_such_program.txt"));
}

static void test_server_session__end_closes_and_silences_the_session(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session(NULL, MS_SERVER_LANG_AUTO, 0, &r);

	(void)state;
	request(s, &r, "budget 100 0", NULL);
	assert_false(ms_server_session_closing(s));
	request(s, &r, "end", NULL);
	assert_true(ms_server_session_closing(s));
	request(s, &r, "budget 100 0", NULL);
	assert_int_equal(r.n, 1);
	ms_server_session_free(s);
	replies_clear(&r);
}

/* A websocket message's last line may lack its LF. */
static void test_server_session__end_line_completes_a_pending_line(void **state)
{
	replies r = { 0 };
	ms_server_session *s = open_session(NULL, MS_SERVER_LANG_AUTO, 0, &r);

	(void)state;
	feed(s, &r, "budget 100 0");
	assert_int_equal(r.n, 0);
	assert_int_equal(ms_server_session_end_line(s, replies_emit, &r), 0);
	assert_int_equal(ms_server_session_end_line(s, replies_emit, &r), 0); /* nothing pending: nothing */
	assert_int_equal(r.n, 1);
	assert_string_equal(r.line[0], "ack");
	ms_server_session_free(s);
	replies_clear(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_session__welcome_is_one_line_naming_the_client),
		cmocka_unit_test(test_server_session__unknown_bot_is_refused_with_its_name),
		cmocka_unit_test(test_server_session__example_session_gets_acks_and_the_decision),
		cmocka_unit_test(test_server_session__crlf_and_one_byte_at_a_time_change_nothing),
		cmocka_unit_test(test_server_session__malformed_json_gets_replies_that_keep_the_stream_in_step),
		cmocka_unit_test(test_server_session__malformed_xml_gets_the_empty_xml_action),
		cmocka_unit_test(test_server_session__lines_over_the_limit_are_skipped_and_still_answered),
		cmocka_unit_test(test_server_session__eight_megabyte_lines_are_parsed_or_refused_cleanly),
		cmocka_unit_test(test_server_session__states_without_constants_use_the_pregame_ones),
		cmocka_unit_test(test_server_session__java_compressed_terrain_is_completed),
		cmocka_unit_test(test_server_session__xml_player_action_is_written_as_java_writes_it),
		cmocka_unit_test(test_server_session__json_and_xml_sessions_decide_alike),
		cmocka_unit_test(test_server_session__replies_play_a_game_to_the_end),
		cmocka_unit_test(test_server_session__a_table_the_bot_cannot_play_is_reported),
		cmocka_unit_test(test_server_session__a_program_plays_through_the_session),
		cmocka_unit_test(test_server_session__end_closes_and_silences_the_session),
		cmocka_unit_test(test_server_session__end_line_completes_a_pending_line),
	};

	if (argc > 1)
		set_fixture_dir(argv[1]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
