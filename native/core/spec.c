/* Agent specs (core/spec.h). */
#include "core/spec.h"

#include <string.h>

int ms_spec_find(const void *forms, int n, size_t stride, const char *spec, const char **arg)
{
	const char *colon = spec ? strchr(spec, ':') : NULL;
	size_t len = colon ? (size_t)(colon - spec) : spec ? strlen(spec) : 0;

	*arg = NULL;
	if (!spec)
		return -1;
	for (int i = 0; i < n; i++) {
		const ms_spec_form *f = (const ms_spec_form *)(const void *)((const char *)forms + (size_t)i * stride);
		if (strlen(f->name) != len || strncmp(f->name, spec, len))
			continue;
		if ((f->arg == MS_SPEC_NEEDED && !colon) || (f->arg == MS_SPEC_NONE && colon))
			return -2;
		*arg = colon ? colon + 1 : NULL;
		return i;
	}
	return -1;
}
