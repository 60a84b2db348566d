/* Agent specs (microsynth/spec.h). */
#include "microsynth/spec.h"

#include <stdio.h>
#include <string.h>

int ms_spec_find(const void *rows, int n, size_t stride, const char *spec, const char **arg)
{
	const char *colon = spec ? strchr(spec, ':') : NULL;
	size_t len = colon ? (size_t)(colon - spec) : spec ? strlen(spec) : 0;

	*arg = NULL;
	if (!spec)
		return -1;
	for (int i = 0; i < n; i++) {
		const ms_spec_form *f = ms_spec_row(rows, stride, i);
		if (strlen(f->name) != len || strncmp(f->name, spec, len))
			continue;
		if ((f->arg == MS_SPEC_NEEDED && !colon) || (f->arg == MS_SPEC_NONE && colon))
			return -2;
		*arg = colon ? colon + 1 : NULL;
		return i;
	}
	return -1;
}

int ms_spec_list(char *out, size_t size, const void *rows, int n, size_t stride, const char *sep, const char *last_sep)
{
	size_t len = 0;

	if (size)
		out[0] = '\0';
	for (int i = 0; i < n; i++) {
		const ms_spec_form *f = ms_spec_row(rows, stride, i);
		const char *before = i == 0 ? "" : i == n - 1 && last_sep ? last_sep : sep;
		int w = snprintf(len < size ? out + len : NULL, len < size ? size - len : 0, "%s%s", before,
				 f->usage ? f->usage : f->name);
		if (w < 0)
			return w;
		len += (size_t)w;
	}
	return (int)len;
}
