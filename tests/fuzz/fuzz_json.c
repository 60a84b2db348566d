/* Fuzzes the JSON helpers: parse, then read every member as each type. */
#include <stddef.h>
#include <stdint.h>

#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(ms_ctx *ctx, const cJSON *node, int depth)
{
	const cJSON *c;

	if (depth > 64)
		return;
	cJSON_ArrayForEach(c, node) {
		int i, b;
		int64_t l;
		double d;
		const char *s;
		const cJSON *o;

		if (c->string) {
			ms_json_get_int(ctx, "fuzz", node, c->string, &i);
			ms_json_get_long(ctx, "fuzz", node, c->string, &l);
			ms_json_get_double(ctx, "fuzz", node, c->string, &d);
			ms_json_get_bool(ctx, "fuzz", node, c->string, &b);
			ms_json_get_string(ctx, "fuzz", node, c->string, &s);
			ms_json_get_array(ctx, "fuzz", node, c->string, &o);
			ms_json_get_object(ctx, "fuzz", node, c->string, &o);
		}
		walk(ctx, c, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	cJSON *root;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_json_parse(ctx, "fuzz", (const char *)data, size, &root) == MS_OK) {
		char *out;
		walk(ctx, root, 0);
		if (ms_json_print(ctx, root, &out) == MS_OK)
			ms_ctx_mfree(ctx, out);
		cJSON_Delete(root);
	}
	ms_ctx_free(ctx);
	return 0;
}
