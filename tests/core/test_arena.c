#include "support/testutil.h"

#include <stdalign.h>

#include "microsynth/arena.h"

static void test_arena__allocations_are_aligned_and_distinct(void **state)
{
	ms_ctx *ctx;
	ms_arena *a;
	unsigned char *prev = NULL;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_arena_new(&a, ctx, 256), MS_OK);
	for (size_t i = 0; i < 1000; i++) {
		unsigned char *p = ms_arena_alloc(a, i % 37 + 1);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % alignof(max_align_t), 0);
		memset(p, (int)i, i % 37 + 1); /* ASan flags overlap with neighbours */
		assert_true(p != prev);
		prev = p;
	}
	assert_true(ms_arena_used(a) >= 1000);
	ms_arena_free(a);
	ms_ctx_free(ctx);
}

static void test_arena__reset_frees_all_but_reuses_first_block(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	ms_arena *a;

	(void)state;
	assert_int_equal(ms_arena_new(&a, ctx, 1024), MS_OK);
	long base = t.live;
	for (int i = 0; i < 100; i++)
		assert_non_null(ms_arena_alloc(a, 100));
	assert_true(t.live > base + 1);
	ms_arena_reset(a);
	assert_int_equal(ms_arena_used(a), 0);
	if (ms_arena_is_passthrough())
		assert_int_equal(t.live, base);
	else
		assert_int_equal(t.live, base + 1);
	/* Steady state: the same small load after a reset allocates nothing new. */
	long before = t.live;
	for (int i = 0; i < 5; i++)
		assert_non_null(ms_arena_alloc(a, 100));
	if (!ms_arena_is_passthrough())
		assert_int_equal(t.live, before);
	ms_arena_free(a);
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

static void test_arena__oversized_request_gets_its_own_block(void **state)
{
	ms_ctx *ctx;
	ms_arena *a;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_arena_new(&a, ctx, 64), MS_OK);
	char *big = ms_arena_alloc(a, 100000);
	assert_non_null(big);
	memset(big, 1, 100000);
	char *z = ms_arena_calloc(a, 10, 10);
	for (int i = 0; i < 100; i++)
		assert_int_equal(z[i], 0);
	assert_string_equal(ms_arena_strdup(a, "abc"), "abc");
	ms_arena_reset(a);
	ms_arena_free(a);
	ms_ctx_free(ctx);
}

static void test_arena__overflow_and_oom_return_null_with_enomem(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	ms_arena *a;

	(void)state;
	assert_int_equal(ms_arena_new(&a, ctx, 128), MS_OK);
	assert_null(ms_arena_alloc(a, SIZE_MAX - 3));
	assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
	assert_null(ms_arena_calloc(a, SIZE_MAX / 8, 16));
	ms_ctx_clear_error(ctx);
	t.calls = 0;
	t.fail_at = 1;
	assert_null(ms_arena_alloc(a, 10));
	assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
	t.fail_at = 0;
	assert_non_null(ms_arena_alloc(a, 10)); /* usable after a failure */
	ms_arena_free(a);
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

static void test_arena__reset_merges_blocks_so_an_equal_load_allocates_nothing(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	ms_arena *a;

	(void)state;
	assert_int_equal(ms_arena_new(&a, ctx, 256), MS_OK);
	long base = t.live;
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 50; i++)
			assert_non_null(ms_arena_alloc(a, 100)); /* 50 x 112 bytes: many 256-byte blocks at first */
		if (round == 0)
			assert_true(t.live > base + 1);
		else if (!ms_arena_is_passthrough())
			assert_int_equal(t.live, base + 1); /* the merged block holds it all */
		ms_arena_reset(a);
		assert_int_equal(t.live, ms_arena_is_passthrough() ? base : base + 1);
	}
	ms_arena_free(a);
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena__allocations_are_aligned_and_distinct),
		cmocka_unit_test(test_arena__reset_frees_all_but_reuses_first_block),
		cmocka_unit_test(test_arena__oversized_request_gets_its_own_block),
		cmocka_unit_test(test_arena__reset_merges_blocks_so_an_equal_load_allocates_nothing),
		cmocka_unit_test(test_arena__overflow_and_oom_return_null_with_enomem),
	};
	return cmocka_run_group_tests_name("core_arena", tests, NULL, NULL);
}
