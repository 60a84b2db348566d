#include "core/json.h"

#include <math.h>
#include <string.h>

#include "core/internal.h"

/* Line and column (1-based) of byte `off` in `text`. */
static void position(const char *text, size_t off, int *line, int *col)
{
	int l = 1, c = 1;

	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

int ms_json_parse(ms_ctx *ctx, const char *what, const char *text, size_t len, cJSON **out)
{
	const char *end = NULL;
	cJSON *root;

	*out = NULL;
	if (!text)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: no text", what);
	/* The _Opts form reports the error position through `end`; the
	 * global cJSON_GetErrorPtr would not be thread-safe. */
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
		int line, col;
		char near[24];
		size_t n = 0;

		position(text, off, &line, &col);
		while (off + n < len && n < sizeof(near) - 1 && text[off + n] != '\n' && text[off + n] != '\0') {
			near[n] = text[off + n];
			n++;
		}
		near[n] = '\0';
		if (off >= len)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d, column %d: unexpected end of JSON", what, line, col);
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d, column %d: invalid JSON near '%s'", what, line, col, near);
	}
	*out = root;
	return MS_OK;
}

static int member(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const cJSON **out)
{
	const cJSON *item = NULL;

	if (!cJSON_IsObject(obj))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: expected an object holding '%s'", what, key);
	item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!item)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: missing field '%s'", what, key);
	*out = item;
	return MS_OK;
}

int ms_json_as_int(ms_ctx *ctx, const char *what, const char *field, const cJSON *item, int *out)
{
	double d;

	if (!cJSON_IsNumber(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not a number", what, field);
	d = item->valuedouble;
	if (!isfinite(d) || d != floor(d) || d < -2147483648.0 || d > 2147483647.0)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: field '%s' is not a 32-bit integer (%g)", what, field, d);
	*out = (int)d;
	return MS_OK;
}

int ms_json_get_int(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int *out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	return rc ? rc : ms_json_as_int(ctx, what, key, item, out);
}

int ms_json_get_long(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int64_t *out)
{
	const cJSON *item = NULL;
	double d;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsNumber(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not a number", what, key);
	d = item->valuedouble;
	/* cJSON keeps numbers as doubles: only integers up to 2^53 are exact. */
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: field '%s' is not an exact integer (%g)", what, key, d);
	*out = (int64_t)d;
	return MS_OK;
}

int ms_json_get_double(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, double *out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsNumber(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not a number", what, key);
	*out = item->valuedouble;
	return MS_OK;
}

int ms_json_get_bool(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, int *out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsBool(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not a boolean", what, key);
	*out = cJSON_IsTrue(item);
	return MS_OK;
}

int ms_json_get_string(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const char **out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsString(item) || !item->valuestring)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not a string", what, key);
	*out = item->valuestring;
	return MS_OK;
}

int ms_json_get_array(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const cJSON **out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsArray(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not an array", what, key);
	*out = item;
	return MS_OK;
}

int ms_json_get_object(ms_ctx *ctx, const char *what, const cJSON *obj, const char *key, const cJSON **out)
{
	const cJSON *item = NULL;
	int rc = member(ctx, what, obj, key, &item);

	if (rc)
		return rc;
	if (!cJSON_IsObject(item))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: field '%s' is not an object", what, key);
	*out = item;
	return MS_OK;
}

int ms_json_print(ms_ctx *ctx, const cJSON *item, char **out)
{
	char *s = cJSON_PrintUnformatted(item);

	*out = NULL;
	if (!s)
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory printing JSON");
	*out = ms_ctx_strdup(ctx, s);
	cJSON_free(s);
	return *out ? MS_OK : MS_ENOMEM;
}
