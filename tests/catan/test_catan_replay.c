/* The replay is strict about what it reads (issue 43): the header's rules
 * are honoured or refused by name, `pick` must name the act, and a damaged
 * copy of a good recording is caught at the right place. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "microsynth/catan.h"
#include "core/file.h"

static const char *const fixtures[] = { MS_CATAN_TEST_DATA "/V8D9_s3001.jsonl.gz",
					MS_CATAN_TEST_DATA "/V8D9_s3006.jsonl.gz" };

typedef struct said {
	int lines;
	char last[1400];
} said;

static void keep_line(void *ud, const char *line)
{
	said *s = ud;
	s->lines++;
	snprintf(s->last, sizeof s->last, "%s", line);
}

/* The fixture's text with its first `from` replaced by `to`, written to `out`. */
static void write_changed(ms_ctx *ctx, const char *fixture, const char *from, const char *to, const char *out)
{
	char *text;
	size_t len;
	assert_int_equal(ms_read_file(ctx, fixture, "recording", (size_t)1 << 26, &text, &len), MS_OK);
	char *at = strstr(text, from);
	assert_non_null(at);
	FILE *f = fopen(out, "wb");
	assert_non_null(f);
	fwrite(text, 1, (size_t)(at - text), f);
	fputs(to, f);
	fputs(at + strlen(from), f);
	fclose(f);
	ms_ctx_mfree(ctx, text);
}

static int replay(ms_ctx *ctx, const char *path, ms_catan_replay_stats *st, said *s)
{
	memset(st, 0, sizeof *st);
	memset(s, 0, sizeof *s);
	return ms_catan_replay_file(ctx, path, st, keep_line, s);
}

/* Recorded to 8 VP with a discard limit of 9: replayed under those rules,
 * equal at every step; the same game without the fields (the defaults 10 and
 * 7) is not, so the fields are what made it equal. */
static void test_catan_replay__the_headers_rules_are_honoured(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_catan_replay_stats rs;
	said s;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(replay(ctx, fixtures[i], &rs, &s), MS_OK);
		assert_int_equal(rs.games, 1);
		assert_true(rs.steps > 50);
		assert_int_equal(rs.divergences + rs.legal_mismatches, 0);
		assert_int_equal(s.lines, 0);
	}
	write_changed(ctx, fixtures[1], "\"vps_to_win\":8,\"discard_limit\":9,", "", "catan_defaults.jsonl");
	assert_int_equal(replay(ctx, "catan_defaults.jsonl", &rs, &s), MS_OK);
	assert_int_equal(rs.divergences, 1);
	remove("catan_defaults.jsonl");
	ms_ctx_free(ctx);
}

/* A rule field we cannot honour is refused by name, before any step. */
static void test_catan_replay__a_bad_header_field_is_refused_by_name(void **st)
{
	(void)st;
	static const struct {
		const char *from, *to, *named;
	} cases[] = {
		{ "\"vps_to_win\":8", "\"vps_to_win\":\"8\"", "\"vps_to_win\" must be an integer" },
		{ "\"discard_limit\":9", "\"discard_limit\":-1", "\"discard_limit\" must be an integer" },
		{ "\"turns_limit\":1000", "\"turns_limit\":2.5", "\"turns_limit\" must be an integer" },
		{ "\"num_players\":4", "\"num_players\":3", "\"num_players\" is 3 but \"colors\" lists 4" },
		{ "\"format\":\"catanatron-3.2.1-steps/1\"", "\"format\":\"other/2\"", "\"format\" is not" },
	};
	ms_ctx *ctx = NULL;
	ms_catan_replay_stats rs;
	said s;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_changed(ctx, fixtures[0], cases[i].from, cases[i].to, "catan_bad_header.jsonl");
		assert_int_equal(replay(ctx, "catan_bad_header.jsonl", &rs, &s), MS_EPARSE);
		assert_int_equal(rs.steps, 0);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "catan_bad_header.jsonl: header: "));
		assert_non_null(strstr(ms_ctx_last_error(ctx), cases[i].named));
	}
	remove("catan_bad_header.jsonl");
	ms_ctx_free(ctx);
}

/* legal[pick] must be the act without its outcome (catanatron's verifier
 * checks it): a pick moved to another legal action diverges at that step;
 * a pick outside the list is a named error. */
static void test_catan_replay__a_changed_pick_diverges(void **st)
{
	(void)st;
	ms_ctx *ctx = NULL;
	ms_catan_replay_stats rs;
	said s;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	/* step 0 places the first settlement: dozens of legal nodes, pick 0 is not the one chosen here */
	write_changed(ctx, fixtures[0], "\"i\":0,", "\"i\":0,", "catan_pick.jsonl");
	char *text;
	size_t len;
	assert_int_equal(ms_read_file(ctx, "catan_pick.jsonl", "recording", (size_t)1 << 26, &text, &len), MS_OK);
	char *pick = strstr(text, "\"pick\":");
	assert_non_null(pick);
	int was = atoi(pick + 7);
	char from[32], to[32];
	snprintf(from, sizeof from, "\"pick\":%d,", was);
	snprintf(to, sizeof to, "\"pick\":%d,", was ? 0 : 1);
	ms_ctx_mfree(ctx, text);
	write_changed(ctx, fixtures[0], from, to, "catan_pick.jsonl");
	assert_int_equal(replay(ctx, "catan_pick.jsonl", &rs, &s), MS_OK);
	assert_int_equal(rs.divergences, 1);
	assert_int_equal(rs.steps, 1);
	assert_non_null(strstr(s.last, "step 0: pick "));
	write_changed(ctx, fixtures[0], from, "\"pick\":999,", "catan_pick.jsonl");
	assert_int_equal(replay(ctx, "catan_pick.jsonl", &rs, &s), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "step 0: \"pick\" must index \"legal\""));
	remove("catan_pick.jsonl");
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catan_replay__the_headers_rules_are_honoured),
		cmocka_unit_test(test_catan_replay__a_bad_header_field_is_refused_by_name),
		cmocka_unit_test(test_catan_replay__a_changed_pick_diverges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
