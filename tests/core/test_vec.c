#include "support/testutil.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/vec.h"

typedef struct pair {
	int a;
	double b;
} pair;

static void test_vec__push_keeps_every_element_in_order(void **state)
{
	ms_ctx *ctx;
	MS_VEC(pair) v = {0};

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (int i = 0; i < 1000; i++) {
		pair *p = ms_vec_push(ctx, &v);
		assert_non_null(p);
		p->a = i;
		p->b = i * 0.5;
	}
	assert_int_equal(v.n, 1000);
	assert_true(v.cap >= 1000);
	for (int i = 0; i < 1000; i++)
		assert_true(v.v[i].a == i && v.v[i].b == i * 0.5);
	ms_vec_dispose(ctx, &v);
	assert_null(v.v);
	assert_int_equal(v.n, 0);
	ms_ctx_free(ctx);
}

static void test_vec__failed_growth_leaves_the_array_intact_with_a_message(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	MS_VEC(int) v = {0};

	(void)state;
	assert_non_null(ctx);
	long base = t.live;
	for (int i = 0; i < 16; i++)
		*(int *)ms_vec_push(ctx, &v) = i;
	int cap = v.cap;
	t.fail_at = t.calls + 1; /* the next allocation fails: the 17th push must grow */
	for (int i = v.n; i < cap; i++)
		*(int *)ms_vec_push(ctx, &v) = i;
	assert_null(ms_vec_push(ctx, &v));
	assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
	assert_int_equal(v.n, cap);
	assert_int_equal(v.cap, cap);
	for (int i = 0; i < v.n; i++)
		assert_int_equal(v.v[i], i);
	ms_vec_dispose(ctx, &v);
	assert_int_equal(t.live, base);
	ms_ctx_free(ctx);
}

static void test_vec__overflowing_size_is_refused_without_allocating(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	MS_VEC(double) v = {0};

	(void)state;
	assert_non_null(ctx);
	long live = t.live;
	assert_int_equal(ms_vec_reserve(ctx, &v, (long long)INT_MAX + 1), MS_ENOMEM);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "overflows"));
	assert_null(v.v);
	assert_int_equal(t.live, live);
	ms_ctx_free(ctx);
}

static void test_vec__growth_without_a_context_doubles_keeps_the_elements_and_refuses_overflow(void **state)
{
	long *v = NULL;
	int cap = 0;

	(void)state;
	for (int i = 0; i < 100; i++) {
		assert_int_equal(ms_vec_grow(NULL, (void **)&v, &cap, i + 1, sizeof *v), MS_OK);
		v[i] = 3L * i;
	}
	assert_int_equal(cap, 128); /* 16, doubled until it holds 100 */
	for (int i = 0; i < 100; i++)
		assert_true(v[i] == 3L * i);
	assert_int_equal(ms_vec_grow(NULL, (void **)&v, &cap, 50, sizeof *v), MS_OK); /* room already */
	assert_int_equal(cap, 128);
	assert_int_equal(ms_vec_grow(NULL, (void **)&v, &cap, (long long)INT_MAX + 1, sizeof *v), MS_ENOMEM);
	assert_int_equal(cap, 128);
	assert_true(v[99] == 297);
	free(v);
}

static void test_vec__columns_share_one_capacity_and_a_failed_growth_keeps_it(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	int *a = NULL, cap = 0;
	double *b = NULL;
	const ms_vec_col cols[] = {MS_VEC_COL(a), MS_VEC_COL(b)};

	(void)state;
	assert_non_null(ctx);
	long live0 = t.live;
	assert_int_equal(ms_vec_grow_cols(ctx, &cap, 20, cols, 2), MS_OK);
	assert_int_equal(cap, 32); /* 16, doubled once */
	for (int i = 0; i < cap; i++)
		a[i] = i, b[i] = i * 0.25;
	t.fail_at = t.calls + 2; /* the first column grows, the second does not */
	assert_int_equal(ms_vec_grow_cols(ctx, &cap, 33, cols, 2), MS_ENOMEM);
	assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
	assert_int_equal(cap, 32);
	for (int i = 0; i < cap; i++)
		assert_true(a[i] == i && b[i] == i * 0.25);
	t.fail_at = 0;
	assert_int_equal(ms_vec_grow_cols(ctx, &cap, 33, cols, 2), MS_OK);
	assert_int_equal(cap, 64);
	b[63] = 1.5;
	assert_int_equal(ms_vec_grow_cols(ctx, &cap, (long long)INT_MAX + 1, cols, 2), MS_ENOMEM);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "overflows"));
	assert_int_equal(cap, 64);
	ms_vec_dispose_cols(ctx, cols, 2);
	assert_null(a);
	assert_null(b);
	assert_int_equal(t.live, live0); /* both columns freed */
	ms_ctx_free(ctx);
}

static void test_vec__big_blocks_double_from_min_stop_at_max_and_keep_the_block_on_failure(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	char *b = NULL;
	size_t cap = 0;

	(void)state;
	assert_non_null(ctx);
	long base = t.live;
	assert_int_equal(ms_vec_grow_big(ctx, (void **)&b, &cap, 10, 1, 64, 0), MS_OK);
	assert_int_equal(cap, 64); /* from min */
	memset(b, 'x', cap);
	assert_int_equal(ms_vec_grow_big(ctx, (void **)&b, &cap, 65, 1, 64, 100), MS_OK);
	assert_int_equal(cap, 100); /* the doubling to 128 stops at the bound */
	assert_int_equal(b[63], 'x');
	memset(b, 'y', cap);
	assert_int_equal(ms_vec_grow_big(ctx, (void **)&b, &cap, 101, 1, 64, 100), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "bound of 100"));
	assert_int_equal(cap, 100);
	t.fail_at = t.calls + 1;
	assert_int_equal(ms_vec_grow_big(ctx, (void **)&b, &cap, 150, 1, 64, 0), MS_ENOMEM);
	assert_int_equal(cap, 100);
	assert_int_equal(b[99], 'y');
	size_t huge = 0;
	void *h = NULL;
	assert_int_equal(ms_vec_grow_big(ctx, &h, &huge, SIZE_MAX / 2, 8, 0, 0), MS_ENOMEM);
	assert_null(h);
	ms_ctx_mfree(ctx, b);
	assert_int_equal(t.live, base);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vec__growth_without_a_context_doubles_keeps_the_elements_and_refuses_overflow),
		cmocka_unit_test(test_vec__push_keeps_every_element_in_order),
		cmocka_unit_test(test_vec__failed_growth_leaves_the_array_intact_with_a_message),
		cmocka_unit_test(test_vec__overflowing_size_is_refused_without_allocating),
		cmocka_unit_test(test_vec__columns_share_one_capacity_and_a_failed_growth_keeps_it),
		cmocka_unit_test(test_vec__big_blocks_double_from_min_stop_at_max_and_keep_the_block_on_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
