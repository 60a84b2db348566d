#include "support/testutil.h"

#include "core/json.h"

static void test_json__reads_typed_fields(void **state)
{
	ms_ctx *ctx;
	cJSON *root;
	const char *txt = "{\"id\":12,\"name\":\"Worker\",\"big\":123456789012,\"hp\":1.5,"
			  "\"ok\":true,\"units\":[1,2],\"player\":{\"resources\":5}}";
	int i, b;
	int64_t l;
	double d;
	const char *s;
	const cJSON *arr, *obj;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_json_parse(ctx, "state", txt, strlen(txt), &root), MS_OK);
	assert_int_equal(ms_json_get_int(ctx, "state", root, "id", &i), MS_OK);
	assert_int_equal(i, 12);
	assert_int_equal(ms_json_get_string(ctx, "state", root, "name", &s), MS_OK);
	assert_string_equal(s, "Worker");
	assert_int_equal(ms_json_get_long(ctx, "state", root, "big", &l), MS_OK);
	assert_true(l == 123456789012LL);
	assert_int_equal(ms_json_get_double(ctx, "state", root, "hp", &d), MS_OK);
	assert_true(d == 1.5);
	assert_int_equal(ms_json_get_bool(ctx, "state", root, "ok", &b), MS_OK);
	assert_int_equal(b, 1);
	assert_int_equal(ms_json_get_array(ctx, "state", root, "units", &arr), MS_OK);
	assert_int_equal(cJSON_GetArraySize(arr), 2);
	assert_int_equal(ms_json_get_object(ctx, "state", root, "player", &obj), MS_OK);
	assert_int_equal(ms_json_get_int(ctx, "player", obj, "resources", &i), MS_OK);
	assert_int_equal(i, 5);
	char *out;
	assert_int_equal(ms_json_print(ctx, obj, &out), MS_OK);
	assert_string_equal(out, "{\"resources\":5}");
	ms_ctx_mfree(ctx, out);
	cJSON_Delete(root);
	ms_ctx_free(ctx);
}

static void test_json__field_errors_name_document_and_field(void **state)
{
	ms_ctx *ctx;
	cJSON *root;
	const char *txt = "{\"id\":1.5,\"name\":3,\"huge\":1e12}";
	int i;
	const char *s;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_json_parse(ctx, "unit", txt, strlen(txt), &root), MS_OK);
	assert_int_equal(ms_json_get_int(ctx, "unit", root, "id", &i), MS_ERANGE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unit: field 'id'"));
	assert_int_equal(ms_json_get_int(ctx, "unit", root, "huge", &i), MS_ERANGE);
	assert_int_equal(ms_json_get_string(ctx, "unit", root, "name", &s), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "'name' is not a string"));
	assert_int_equal(ms_json_get_int(ctx, "unit", root, "hp", &i), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "unit: missing field 'hp'");
	cJSON_Delete(root);
	ms_ctx_free(ctx);
}

static void test_json__syntax_error_gives_line_and_column(void **state)
{
	ms_ctx *ctx;
	cJSON *root = (cJSON *)0x1;
	const char *txt = "{\n  \"a\": 1,\n  \"b\": [1, 2,, 3]\n}";

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_json_parse(ctx, "msg", txt, strlen(txt), &root), MS_EPARSE);
	assert_null(root);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "msg: line 3, column "));
	assert_int_equal(ms_json_parse(ctx, "msg", "{\"a\":", 5, &root), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "msg: line 1, column 5"));
	/* Length is honoured: a valid prefix followed by garbage beyond len. */
	assert_int_equal(ms_json_parse(ctx, "msg", "[1]garbage", 3, &root), MS_OK);
	cJSON_Delete(root);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json__reads_typed_fields),
		cmocka_unit_test(test_json__field_errors_name_document_and_field),
		cmocka_unit_test(test_json__syntax_error_gives_line_and_column),
	};
	return cmocka_run_group_tests_name("core_json", tests, NULL, NULL);
}
