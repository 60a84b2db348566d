/*
 * The engine's reader of GameState.toxml (ms_rts_state_from_xml), which the
 * SocketAI server calls: the same state as the JSON reader gives, states
 * without their map constants, Java's short run-length terrain, and errors
 * naming the line.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/microrts.h"

static const char xml_full[] =
	"<rts.GameState time=\"7\">\n"
	" <rts.PhysicalGameState width=\"4\" height=\"4\">\n"
	"  <terrain>0000000000000001</terrain>\n"
	"  <players><rts.Player ID=\"0\" resources=\"3\"></rts.Player><rts.Player ID=\"1\" resources=\"5\"></rts.Player></players>\n"
	"  <units>\n"
	"   <rts.units.Unit type=\"Resource\" ID=\"0\" player=\"-1\" x=\"0\" y=\"3\" resources=\"10\" hitpoints=\"1\"></rts.units.Unit>\n"
	"   <rts.units.Unit type=\"Worker\" ID=\"1\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>\n"
	"   <rts.units.Unit type=\"Worker\" ID=\"2\" player=\"1\" x=\"2\" y=\"1\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>\n"
	"  </units>\n"
	" </rts.PhysicalGameState>\n"
	" <actions>\n"
	"  <unitAction ID=\"1\" time=\"5\"><UnitAction type=\"1\" parameter=\"2\"></UnitAction></unitAction>\n"
	" </actions>\n"
	"</rts.GameState>\n";

/* The same state as JSON (GameState.toJSON's form). */
static const char json_full[] =
	"{\"time\":7,\"pgs\":{\"width\":4,\"height\":4,\"terrain\":\"0000000000000001\","
	"\"players\":[{\"ID\":0,\"resources\":3},{\"ID\":1,\"resources\":5}],"
	"\"units\":[{\"type\":\"Resource\",\"ID\":0,\"player\":-1,\"x\":0,\"y\":3,\"resources\":10,\"hitpoints\":1},"
	"{\"type\":\"Worker\",\"ID\":1,\"player\":0,\"x\":1,\"y\":1,\"resources\":0,\"hitpoints\":1},"
	"{\"type\":\"Worker\",\"ID\":2,\"player\":1,\"x\":2,\"y\":1,\"resources\":0,\"hitpoints\":1}]},"
	"\"actions\":[{\"ID\":1,\"time\":5,\"action\":{\"type\":1,\"parameter\":2}}]}";

static char *as_json(ms_ctx *ctx, const ms_rts_state *s)
{
	char *text = NULL;
	assert_int_equal(ms_rts_state_to_json(ctx, &text, s, 0), MS_OK);
	return text;
}

static void test_state_xml__reads_the_state_the_json_reader_reads(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *a, *b;
	char *ja, *jb;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_xml(ctx, &a, utt, NULL, xml_full, sizeof xml_full - 1, NULL, 0), MS_OK);
	assert_int_equal(ms_rts_state_from_json(ctx, &b, utt, json_full, sizeof json_full - 1, 0), MS_OK);
	assert_int_equal(ms_rts_state_time(a), 7);
	assert_int_equal(ms_rts_state_assignment_count(a), 1);
	ja = as_json(ctx, a);
	jb = as_json(ctx, b);
	assert_string_equal(ja, jb);
	ms_ctx_mfree(ctx, ja);
	ms_ctx_mfree(ctx, jb);
	ms_rts_state_free(a);
	ms_rts_state_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/* A state without width, height and terrain takes them from the constants; run-length terrain one cell short is completed. */
static void test_state_xml__constants_and_short_terrain(void **state)
{
	static const char bare[] = "<rts.GameState time=\"0\"><rts.PhysicalGameState><players>"
				   "<rts.Player ID=\"0\" resources=\"1\"></rts.Player><rts.Player ID=\"1\" resources=\"1\">"
				   "</rts.Player></players><units></units></rts.PhysicalGameState></rts.GameState>";
	/* 4x4: fifteen free cells then one wall is written A15 (the final B1 run dropped) */
	static const char rle[] = "<rts.GameState time=\"0\"><rts.PhysicalGameState width=\"4\" height=\"4\">"
				  "<terrain>A15</terrain><players><rts.Player ID=\"0\" resources=\"1\"></rts.Player>"
				  "<rts.Player ID=\"1\" resources=\"1\"></rts.Player></players><units></units>"
				  "</rts.PhysicalGameState></rts.GameState>";
	ms_rts_map_constants c = { 4, 4, "0000000000000001" };
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	char *fixed;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_xml(ctx, &s, utt, "state", bare, sizeof bare - 1, NULL, 0), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "no width, height"));
	assert_int_equal(ms_rts_state_from_xml(ctx, &s, utt, "state", bare, sizeof bare - 1, &c, 0), MS_OK);
	assert_int_equal(ms_rts_state_terrain(s, 3, 3), 1);
	ms_rts_state_free(s);
	assert_int_equal(ms_rts_state_from_xml(ctx, &s, utt, "state", rle, sizeof rle - 1, NULL, 0), MS_OK);
	assert_int_equal(ms_rts_state_terrain(s, 3, 3), 1);
	assert_int_equal(ms_rts_state_terrain(s, 2, 3), 0);
	ms_rts_state_free(s);
	assert_int_equal(ms_rts_terrain_complete(ctx, &fixed, "A15", 16), MS_OK);
	assert_string_equal(fixed, "A15B");
	ms_ctx_mfree(ctx, fixed);
	assert_int_equal(ms_rts_terrain_complete(ctx, &fixed, "0000", 4), MS_OK);
	assert_null(fixed);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_state_xml__malformed_states_name_what_and_where(void **state)
{
	static const char unclosed[] = "<rts.GameState time=\"0\">\n<unclosed";
	static const char no_pgs[] = "<rts.GameState time=\"0\"></rts.GameState>";
	static const char ghost[] = "<rts.GameState time=\"0\"><rts.PhysicalGameState width=\"2\" height=\"1\">"
				    "<terrain>00</terrain><players><rts.Player ID=\"0\" resources=\"1\"></rts.Player>"
				    "<rts.Player ID=\"1\" resources=\"1\"></rts.Player></players><units></units>"
				    "</rts.PhysicalGameState><actions>\n<unitAction ID=\"9\" time=\"0\"><UnitAction type=\"0\" "
				    "parameter=\"10\"></UnitAction></unitAction></actions></rts.GameState>";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_not_equal(ms_rts_state_from_xml(ctx, &s, utt, "msg", unclosed, sizeof unclosed - 1, NULL, 0), MS_OK);
	assert_null(s);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "msg"));
	assert_non_null(strstr(ms_ctx_last_error(ctx), "line"));
	assert_int_not_equal(ms_rts_state_from_xml(ctx, &s, utt, "msg", no_pgs, sizeof no_pgs - 1, NULL, 0), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "rts.PhysicalGameState"));
	assert_int_equal(ms_rts_state_from_xml(ctx, &s, utt, "msg", ghost, sizeof ghost - 1, NULL, 0), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "msg: line 2"));
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unit ID 9"));
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_xml__reads_the_state_the_json_reader_reads),
		cmocka_unit_test(test_state_xml__constants_and_short_terrain),
		cmocka_unit_test(test_state_xml__malformed_states_name_what_and_where),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
