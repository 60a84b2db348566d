/* JSON input and output of the engine: tables, states, player actions. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/microrts.h"

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

static void test_json__official_test_table_loads_with_its_values(void **state)
{
	char path[1024];
	size_t len;
	char *text;
	ms_ctx *ctx;
	ms_rts_utt *utt;
	const ms_rts_unit_type *base, *barracks;

	(void)state;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	snprintf(path, sizeof(path), "%s/data/microrts/utts/TestUnitTypeTable.json", ms_test_shared());
	text = read_all(path, &len);
	assert_non_null(text);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	if (ms_rts_utt_from_json(ctx, &utt, text, len) != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	assert_int_equal(ms_rts_utt_count(utt), 7);
	base = ms_rts_utt_type(utt, ms_rts_utt_find(utt, "Base"));
	barracks = ms_rts_utt_type(utt, ms_rts_utt_find(utt, "Barracks"));
	assert_int_equal(base->hp, 50);
	assert_int_equal(barracks->hp, 25);
	assert_int_equal(barracks->produce_time, 65);
	assert_int_equal(base->n_produces, 1);
	assert_string_equal(ms_rts_utt_type(utt, base->produces[0])->name, "Worker");
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	free(text);
}

static void test_json__tables_round_trip_through_json(void **state)
{
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (int v = 1; v <= 3; v++) {
		ms_rts_utt *a, *b;
		char *ja, *jb;
		assert_int_equal(ms_rts_utt_new(ctx, &a, v, 3), MS_OK);
		assert_int_equal(ms_rts_utt_to_json(ctx, &ja, a), MS_OK);
		if (ms_rts_utt_from_json(ctx, &b, ja, strlen(ja)) != MS_OK)
			fail_msg("%s", ms_ctx_last_error(ctx));
		assert_int_equal(ms_rts_utt_to_json(ctx, &jb, b), MS_OK);
		assert_string_equal(ja, jb);
		assert_int_equal(ms_rts_utt_conflict_policy(b), 3);
		ms_ctx_mfree(ctx, ja);
		ms_ctx_mfree(ctx, jb);
		ms_rts_utt_free(a);
		ms_rts_utt_free(b);
	}
	ms_ctx_free(ctx);
}

/* The spec's own example state (section 11.5). */
static const char example[] =
	"{\"time\":12,\"pgs\":{\"width\":3,\"height\":2,\"terrain\":\"001000\",\"players\":[{\"ID\":0, \"resources\":3},"
	"{\"ID\":1, \"resources\":0}],\"units\":[{\"type\":\"Resource\", \"ID\":1, \"player\":-1, \"x\":0, \"y\":0, "
	"\"resources\":5, \"hitpoints\":1},{\"type\":\"Worker\", \"ID\":2, \"player\":0, \"x\":1, \"y\":0, "
	"\"resources\":0, \"hitpoints\":1},{\"type\":\"Worker\", \"ID\":3, \"player\":1, \"x\":1, \"y\":1, "
	"\"resources\":0, \"hitpoints\":1}]},\"actions\":[{\"ID\":2, \"time\":7, \"action\":{\"type\":2, \"parameter\":3}}]}";

static void test_json__state_reads_and_writes_the_same_bytes(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	char *out;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	if (ms_rts_state_from_json(ctx, &s, utt, example, sizeof(example) - 1, 0) != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	assert_int_equal(ms_rts_state_time(s), 12);
	assert_int_equal(ms_rts_state_terrain(s, 2, 0), 1);
	assert_int_equal(ms_rts_state_unit_idle(s, 1), 0);
	assert_int_equal(ms_rts_state_to_json(ctx, &out, s, MS_RTS_JSON_CONSTANTS), MS_OK);
	assert_string_equal(out, example);
	ms_ctx_mfree(ctx, out);
	/* The spec's compressed form of this terrain. */
	assert_int_equal(ms_rts_state_to_json(ctx, &out, s, MS_RTS_JSON_CONSTANTS | MS_RTS_JSON_COMPRESS_TERRAIN), MS_OK);
	assert_non_null(strstr(out, "\"terrain\":\"A2BA3\""));
	ms_ctx_mfree(ctx, out);
	/* Without constants the pgs starts with its players. */
	assert_int_equal(ms_rts_state_to_json(ctx, &out, s, 0), MS_OK);
	assert_non_null(strstr(out, "\"pgs\":{\"players\":"));
	ms_ctx_mfree(ctx, out);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_json__bad_states_name_what_is_wrong(void **state)
{
	static const struct {
		const char *json, *needle;
	} cases[] = {
		{ "{\"time\":1,\"pgs\":{\"width\":2,\"height\":1,\"players\":[],\"units\":[]}}", "terrain" },
		{ "{\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":0},{\"ID\":1}],"
		  "\"units\":[{\"type\":\"Tank\"}]}}", "units[0]: unknown unit type 'Tank'" },
		{ "{\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":0},{\"ID\":1}],"
		  "\"units\":[{\"type\":\"Worker\",\"ID\":1,\"x\":5}]}}", "outside" },
		{ "{\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":1}],\"units\":[]}}", "out of order" },
		{ "{\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":0},{\"ID\":1}],\"units\":[]},"
		  "\"actions\":[{\"ID\":9,\"time\":0,\"action\":{\"type\":1}}]}", "actions[0]: no unit with ID 9" },
		{ "{\"pgs\":{\"width\":2,\"height\":1,\"terrain\":\"00\",\"players\":[{\"ID\":0},{\"ID\":1}],"
		  "\"units\":[{\"type\":\"Worker\",\"ID\":1,\"x\":1.5}]}}", "'x' is not a 32-bit integer" },
		{ "{\"time\":1,\"pgs\":{\n\"width\":2,,}}", "line 2, column" },
		{ "{\"pgs\":{\"width\":2,\"height\":2,\"terrain\":\"A3\",\"players\":[{\"ID\":0},{\"ID\":1}],\"units\":[]}}",
		  "covers 3 of 4 cells" },
	};
	ms_ctx *ctx;
	ms_rts_utt *utt;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ms_rts_state *s = (ms_rts_state *)0x1;
		int rc = ms_rts_state_from_json(ctx, &s, utt, cases[i].json, strlen(cases[i].json), 0);
		if (rc == MS_OK)
			fail_msg("case %zu was accepted", i);
		assert_null(s);
		if (!strstr(ms_ctx_last_error(ctx), cases[i].needle))
			fail_msg("case %zu: '%s' lacks '%s'", i, ms_ctx_last_error(ctx), cases[i].needle);
	}
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static int pa_parse(ms_ctx *ctx, const ms_rts_state *s, const char *text, ms_rts_pair *pairs, int *n)
{
	return ms_rts_player_action_from_json(ctx, s, text, strlen(text), pairs, 4, n);
}

static void test_json__player_actions_parse_print_and_reject(void **state)
{
	const char pa[] = "[{\"unitID\":2, \"unitAction\":{\"type\":2, \"parameter\":3}} ,"
			  "{\"unitID\":2, \"unitAction\":{\"type\":5, \"x\":1,\"y\":1}}]";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s, *before;
	ms_rts_pair pairs[4];
	char *out, *a, *b;
	int n;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_json(ctx, &s, utt, example, sizeof(example) - 1, 0), MS_OK);
	assert_int_equal(ms_rts_player_action_from_json(ctx, s, pa, sizeof(pa) - 1, pairs, 4, &n), MS_OK);
	assert_int_equal(n, 2);
	assert_int_equal(pairs[1].action.type, MS_RTS_ATTACK);
	assert_int_equal(pairs[1].unit.x, 1);
	assert_int_equal(ms_rts_player_action_to_json(ctx, &out, s, pairs, n), MS_OK);
	assert_string_equal(out, pa);
	ms_ctx_mfree(ctx, out);
	assert_int_equal(pa_parse(ctx, s, "[{\"unitID\":77, \"unitAction\":{}}]", pairs, &n), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "player action [0]: no unit with ID 77"));
	assert_int_equal(pa_parse(ctx, s, "[{\"unitID\":2}]", pairs, &n), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unitAction"));
	assert_int_equal(pa_parse(ctx, s, "[{\"unitID\":2, \"unitAction\":{\"type\":4, \"parameter\":1}}]", pairs, &n),
			 MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unitType"));
	/* A rejected action of mixed owners changes nothing. */
	assert_int_equal(ms_rts_state_clone(ctx, &before, s), MS_OK);
	assert_int_equal(pa_parse(ctx, s,
			 "[{\"unitID\":2, \"unitAction\":{\"type\":0, \"parameter\":4}} ,"
			 "{\"unitID\":3, \"unitAction\":{\"type\":1, \"parameter\":3}}]", pairs, &n), MS_OK);
	assert_int_equal(ms_rts_issue_safe(ctx, s, pairs, n, NULL), MS_EINVAL);
	assert_int_equal(ms_rts_state_to_json(ctx, &a, s, 1), MS_OK);
	assert_int_equal(ms_rts_state_to_json(ctx, &b, before, 1), MS_OK);
	assert_string_equal(a, b);
	ms_ctx_mfree(ctx, a);
	ms_ctx_mfree(ctx, b);
	ms_rts_state_free(before);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json__official_test_table_loads_with_its_values),
		cmocka_unit_test(test_json__tables_round_trip_through_json),
		cmocka_unit_test(test_json__state_reads_and_writes_the_same_bytes),
		cmocka_unit_test(test_json__bad_states_name_what_is_wrong),
		cmocka_unit_test(test_json__player_actions_parse_print_and_reject),
	};
	return cmocka_run_group_tests_name("microrts_json", tests, NULL, NULL);
}
