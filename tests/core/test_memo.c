#include "support/testutil.h"

#include "microsynth/memo.h"

static void key_of(uint64_t k[2], uint64_t i)
{
	/* spread like real keys: low bits pick the bucket */
	k[0] = i * UINT64_C(0x9e3779b97f4a7c15);
	k[1] = i ^ UINT64_C(0xdeadbeef00000000);
}

static void test_memo__keeps_answers_and_counts(void **state)
{
	ms_ctx *ctx;
	ms_memo *m;
	ms_memo_stats st;
	uint64_t k[2];
	uint32_t v[4], got[4];

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_memo_new(ctx, &m, 10), MS_OK);
	for (uint64_t i = 0; i < 200; i++) {
		key_of(k, i);
		assert_int_equal(ms_memo_get(m, k, got), 0);
		v[0] = (uint32_t)i;
		v[1] = (uint32_t)(i * 3);
		v[2] = 7;
		v[3] = UINT32_MAX;
		ms_memo_put(m, k, v);
	}
	/* 200 keys in 512 buckets of two: most stay; every one found holds its own answer */
	int found = 0;
	for (uint64_t i = 0; i < 200; i++) {
		key_of(k, i);
		if (ms_memo_get(m, k, got)) {
			found++;
			assert_int_equal(got[0], (uint32_t)i);
			assert_int_equal(got[1], (uint32_t)(i * 3));
			assert_int_equal(got[2], 7);
			assert_int_equal(got[3], UINT32_MAX);
		}
	}
	assert_true(found >= 190);
	/* a key differing in its second word only is another key */
	key_of(k, 5);
	k[1] ^= 2;
	assert_int_equal(ms_memo_get(m, k, got), 0);
	/* storing a held key again replaces its answer */
	key_of(k, 5);
	v[0] = 99;
	ms_memo_put(m, k, v);
	assert_int_equal(ms_memo_get(m, k, got), 1);
	assert_int_equal(got[0], 99);
	ms_memo_get_stats(m, &st);
	assert_int_equal(st.stores, 201);
	assert_int_equal(st.lookups, 200 + 200 + 2);
	assert_int_equal(st.hits, (uint64_t)found + 1);
	ms_memo_clear(m);
	assert_int_equal(ms_memo_get(m, k, got), 0);
	ms_memo_get_stats(m, &st);
	assert_int_equal(st.lookups, 1);
	assert_int_equal(st.hits, 0);
	ms_memo_free(m);
	ms_ctx_free(ctx);
}

/* A bucket keeps its two most recently used keys: a third pushes out the one not used last. */
static void test_memo__a_bucket_keeps_its_two_latest_keys(void **state)
{
	ms_ctx *ctx;
	ms_memo *m;
	uint64_t a[2] = { 0x10, 1 }, b[2] = { 0x20, 2 }, c[2] = { 0x30, 3 }, d[2] = { 0x40, 5 };
	uint32_t v[4] = { 1, 0, 0, 0 }, got[4];

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_memo_new(ctx, &m, MS_MEMO_MIN_BITS), MS_OK); /* 8 buckets: 0x10..0x40 share bucket 0 */
	ms_memo_put(m, a, v);
	v[0] = 2;
	ms_memo_put(m, b, v);
	assert_int_equal(ms_memo_get(m, a, got), 1); /* a is now the newer */
	assert_int_equal(got[0], 1);
	v[0] = 3;
	ms_memo_put(m, c, v); /* pushes out b */
	assert_int_equal(ms_memo_get(m, b, got), 0);
	assert_int_equal(ms_memo_get(m, a, got), 1);
	assert_int_equal(ms_memo_get(m, c, got), 1);
	assert_int_equal(got[0], 3);
	v[0] = 4;
	ms_memo_put(m, d, v); /* c was used last: a goes */
	assert_int_equal(ms_memo_get(m, a, got), 0);
	assert_int_equal(ms_memo_get(m, c, got), 1);
	assert_int_equal(ms_memo_get(m, d, got), 1);
	assert_int_equal(got[0], 4);
	ms_memo_free(m);
	ms_ctx_free(ctx);
}

static void test_memo__sizes_outside_the_limits_are_refused(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	ms_memo *m = (ms_memo *)&t;

	(void)state;
	assert_int_equal(ms_memo_new(ctx, &m, MS_MEMO_MIN_BITS - 1), MS_ERANGE);
	assert_null(m);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "bits outside"));
	assert_int_equal(ms_memo_new(ctx, &m, MS_MEMO_MAX_BITS + 1), MS_ERANGE);
	/* out of memory: nothing kept, a message */
	long live = t.live;
	t.fail_at = t.calls + 2; /* the table's allocation, after the handle's */
	assert_int_equal(ms_memo_new(ctx, &m, 12), MS_ENOMEM);
	assert_null(m);
	assert_int_equal(t.live, live);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "out of memory"));
	/* 0 picks the default */
	assert_int_equal(ms_memo_new(ctx, &m, 0), MS_OK);
	ms_memo_free(m);
	ms_memo_free(NULL);
	assert_int_equal(t.live, live);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo__keeps_answers_and_counts),
		cmocka_unit_test(test_memo__a_bucket_keeps_its_two_latest_keys),
		cmocka_unit_test(test_memo__sizes_outside_the_limits_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
