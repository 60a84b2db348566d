#include "support/testutil.h"

#include <stdio.h>
#include <string.h>

#include "microsynth/common.h"

static void test_ctx__new_and_free_release_everything(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator a;
	ms_ctx *ctx = ms_test_ctx_with(&t, &a);

	(void)state;
	assert_non_null(ctx);
	assert_int_equal(t.live, 1);
	char *s = ms_ctx_strdup(ctx, "hello");
	assert_string_equal(s, "hello");
	assert_int_equal(t.live, 2);
	ms_ctx_mfree(ctx, s);
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

static void test_ctx__rejects_unknown_options_version(void **state)
{
	ms_ctx_options o = {0};
	ms_ctx *ctx = (ms_ctx *)0x1;

	(void)state;
	o.version = 999;
	assert_int_equal(ms_ctx_new(&ctx, &o), MS_EINVAL);
	assert_null(ctx);
	assert_int_equal(ms_ctx_new(NULL, NULL), MS_EINVAL);
}

static void test_ctx__error_keeps_code_and_message(void **state)
{
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_string_equal(ms_ctx_last_error(ctx), "");
	assert_int_equal(ms_ctx_last_status(ctx), MS_OK);
	assert_int_equal(ms_ctx_error(ctx, MS_EPARSE, "map %s: line %d", "a.xml", 7), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "map a.xml: line 7");
	assert_int_equal(ms_ctx_last_status(ctx), MS_EPARSE);
	ms_ctx_clear_error(ctx);
	assert_string_equal(ms_ctx_last_error(ctx), "");
	ms_ctx_free(ctx);
}

/* Callers wrap the context's own message in a new one. */
static void test_ctx__error_may_prefix_the_last_message(void **state)
{
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_ctx_error(ctx, MS_ENOTFOUND, "map '%s' not found", "m.xml");
	ms_ctx_error(ctx, MS_ENOTFOUND, "--map %s: %s", "m.xml", ms_ctx_last_error(ctx));
	assert_string_equal(ms_ctx_last_error(ctx), "--map m.xml: map 'm.xml' not found");
	ms_ctx_free(ctx);
}

static void test_ctx__long_message_is_truncated_not_overflowed(void **state)
{
	ms_ctx *ctx;
	char big[4000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_ctx_error(ctx, MS_EINVAL, "%s", big);
	size_t n = strlen(ms_ctx_last_error(ctx));
	assert_true(n > 100 && n < sizeof(big) - 1);
	ms_ctx_free(ctx);
}

static void test_ctx__contexts_are_independent(void **state)
{
	ms_ctx *a, *b;

	(void)state;
	assert_int_equal(ms_ctx_new(&a, NULL), MS_OK);
	assert_int_equal(ms_ctx_new(&b, NULL), MS_OK);
	ms_ctx_error(a, MS_EIO, "only a");
	assert_string_equal(ms_ctx_last_error(b), "");
	assert_string_equal(ms_ctx_last_error(a), "only a");
	ms_ctx_free(a);
	ms_ctx_free(b);
}

static void test_ctx__failed_allocation_reports_enomem(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator a;
	ms_ctx *ctx = ms_test_ctx_with(&t, &a);

	(void)state;
	t.calls = 0;
	t.fail_at = 1;
	assert_null(ms_ctx_malloc(ctx, 10));
	assert_int_equal(ms_ctx_last_status(ctx), MS_ENOMEM);
	assert_null(ms_ctx_calloc(ctx, SIZE_MAX / 2, 4));
	t.fail_at = 0;
	ms_ctx_free(ctx);
	assert_int_equal(t.live, 0);
}

static void test_ctx__status_names_and_version(void **state)
{
	(void)state;
	assert_string_equal(ms_status_name(MS_EPARSE), "MS_EPARSE");
	assert_string_equal(ms_status_name(MS_OK), "MS_OK");
	assert_string_equal(ms_status_name(-1234), "MS_E?");
	assert_string_equal(ms_version(), MS_VERSION_STRING);
}

static void test_ctx__options_init_zeroes_keeps_the_version_and_refuses_unknown_ones(void **state)
{
	ms_ctx_options o;
	ms_ctx *ctx;

	(void)state;
	memset(&o, 0xab, sizeof o);
	assert_int_equal(ms_ctx_options_init(&o, MS_CTX_OPTIONS_VERSION), MS_OK);
	assert_int_equal(o.version, MS_CTX_OPTIONS_VERSION);
	assert_null(o.allocator);
	assert_int_equal(ms_ctx_new(&ctx, &o), MS_OK);
	ms_ctx_free(ctx);
	assert_int_equal(ms_ctx_options_init(&o, 0), MS_EINVAL);
	assert_int_equal(ms_ctx_options_init(&o, MS_CTX_OPTIONS_VERSION + 1), MS_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx__new_and_free_release_everything),
		cmocka_unit_test(test_ctx__rejects_unknown_options_version),
		cmocka_unit_test(test_ctx__error_keeps_code_and_message),
		cmocka_unit_test(test_ctx__error_may_prefix_the_last_message),
		cmocka_unit_test(test_ctx__long_message_is_truncated_not_overflowed),
		cmocka_unit_test(test_ctx__contexts_are_independent),
		cmocka_unit_test(test_ctx__failed_allocation_reports_enomem),
		cmocka_unit_test(test_ctx__status_names_and_version),
		cmocka_unit_test(test_ctx__options_init_zeroes_keeps_the_version_and_refuses_unknown_ones),
	};
	return cmocka_run_group_tests_name("core_ctx", tests, NULL, NULL);
}
