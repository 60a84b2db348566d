/* Native traces written as zips load back and replay exactly. */
#include "support/testutil.h"

#include <stdio.h>
#include <unistd.h>

#include "microsynth/microrts.h"

static const char map[] =
	"<rts.PhysicalGameState width=\"4\" height=\"3\"><terrain>000000000100</terrain>"
	"<players><rts.Player ID=\"0\" resources=\"5\"/><rts.Player ID=\"1\" resources=\"5\"/></players><units>"
	"<u type=\"Resource\" ID=\"1\" player=\"-1\" x=\"0\" y=\"0\" resources=\"10\" hitpoints=\"1\"/>"
	"<u type=\"Base\" ID=\"2\" player=\"0\" x=\"2\" y=\"0\" resources=\"0\" hitpoints=\"10\"/>"
	"<u type=\"Worker\" ID=\"3\" player=\"0\" x=\"1\" y=\"0\" resources=\"0\" hitpoints=\"1\"/>"
	"<u type=\"Worker\" ID=\"4\" player=\"1\" x=\"3\" y=\"2\" resources=\"0\" hitpoints=\"1\"/>"
	"</units></rts.PhysicalGameState>";

static void test_trace_write__zip_round_trip_replays_exactly(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_rts_trace_writer *w;
	ms_rts_trace *t;
	ms_rts_replay_result r;
	char path[] = "/tmp/ms_trace_XXXXXX";
	char zip[64];
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(zip, sizeof(zip), "%s.zip", path);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "map", map, sizeof(map) - 1, 1), MS_OK);
	assert_int_equal(ms_rts_trace_writer_new(ctx, &w, s), MS_OK);
	for (int c = 0; c < 120; c++) {
		ms_rts_pair p0[4], p1[4];
		int n0 = 0, n1 = 0;
		/* Every idle unit takes its first legal action: harvest, produce, move. */
		for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
			ms_rts_unit u;
			ms_rts_action acts[32];
			ms_rts_state_unit(s, i, &u);
			if (u.player < 0 || !ms_rts_state_unit_idle(s, i))
				continue;
			ms_rts_legal_actions(s, &u, 10, acts, 32);
			if (u.player == 0 && n0 < 4) {
				p0[n0].unit = u;
				p0[n0++].action = acts[0];
			} else if (u.player == 1 && n1 < 4) {
				p1[n1].unit = u;
				p1[n1++].action = acts[0];
			}
		}
		assert_int_equal(ms_rts_trace_writer_entry(w, s, p0, n0, p1, n1), MS_OK);
		assert_int_equal(ms_rts_issue_safe(ctx, s, p0, n0, NULL), MS_OK);
		assert_int_equal(ms_rts_issue_safe(ctx, s, p1, n1, NULL), MS_OK);
		assert_int_equal(ms_rts_cycle(ctx, s, NULL), MS_OK);
	}
	assert_int_equal(ms_rts_trace_writer_finish(w, s, zip), MS_OK);
	ms_rts_trace_writer_free(w);
	if (ms_rts_trace_load(ctx, &t, zip) != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	assert_true(ms_rts_trace_entry_count(t) > 10);
	assert_int_equal(ms_rts_trace_replay(ctx, t, &r), MS_OK);
	assert_int_equal(r.divergent, 0);
	assert_int_equal(r.entries, ms_rts_trace_entry_count(t));
	assert_int_equal(r.cycles, 120);
	ms_rts_trace_free(t);
	unlink(zip);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_trace_write__unwritable_path_is_an_error(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_rts_trace_writer *w;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 1, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "map", map, sizeof(map) - 1, 1), MS_OK);
	assert_int_equal(ms_rts_trace_writer_new(ctx, &w, s), MS_OK);
	assert_int_equal(ms_rts_trace_writer_finish(w, s, "/nonexistent/dir/t.xml"), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "/nonexistent/dir/t.xml"));
	ms_rts_trace_writer_free(w);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_write__zip_round_trip_replays_exactly),
		cmocka_unit_test(test_trace_write__unwritable_path_is_an_error),
	};
	return cmocka_run_group_tests_name("microrts_trace_write", tests, NULL, NULL);
}
