/* Helpers shared by the Can't Stop tests. */
#ifndef MS_TESTS_CANTSTOP_UTIL_H
#define MS_TESTS_CANTSTOP_UTIL_H

#include "support/testutil.h"

#include "microsynth/cantstop.h"

/* A state from its text form; the test fails if it does not parse. */
static inline ms_cs_state cs_state(const char *text)
{
	ms_cs_state s;
	ms_ctx *ctx = NULL;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	if (ms_cs_state_parse(ctx, &s, text, "fixture") != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	ms_ctx_free(ctx);
	return s;
}

static inline ms_cs_move cs_single(int c)
{
	ms_cs_move m = { MS_CS_MOVE_COLUMNS, 1, { (int8_t)c, 0 } };
	return m;
}

static inline ms_cs_move cs_pair(int a, int b)
{
	ms_cs_move m = { MS_CS_MOVE_COLUMNS, 2, { (int8_t)a, (int8_t)b } };
	return m;
}

static inline ms_cs_move cs_answer(int kind)
{
	ms_cs_move m = { (int8_t)kind, 0, { 0, 0 } };
	return m;
}

/* The legal list written as "4,10 5,9 7,7" (singles as "7", y/n as letters). */
static inline void cs_list_text(const ms_cs_state *s, char *buf, size_t size)
{
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	int n = ms_cs_legal_actions(s, acts);
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char m[16];

		ms_cs_move_format(&acts[i], m, sizeof(m));
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", m);
	}
}

#define assert_legal(state, expected)                                \
	do {                                                        \
		char buf_[128];                                     \
		cs_list_text(&(state), buf_, sizeof(buf_));          \
		assert_string_equal(buf_, expected);                 \
	} while (0)

#endif
