/*
 * Options structs start one way (libgit2's git_X_options_init): every
 * public ms_X_opts / ms_X_options has `version`, MS_X_..._VERSION and
 * `int ms_X_opts_init(ms_X_opts *opts, unsigned int version)` (the struct's
 * own name and `_init`), which fills the defaults and keeps the caller's
 * version; a version of 0 or newer than this build's is MS_EINVAL, as
 * libgit2's GIT_ERROR_CHECK_VERSION. These are the two halves every init
 * function shares; tools/structure.sh checks the spelling (opts_init=).
 * An older caller's struct is shorter than this build's: ms_opts_size says
 * how much of it there is to read.
 */
#ifndef MS_CORE_OPTS_H
#define MS_CORE_OPTS_H

#include <string.h>

#include "microsynth/common.h"

/* A version a caller may ask for: 1 up to this build's current one. */
#define MS_OPTS_VERSION_OK(version, current) ((version) >= 1 && (version) <= (unsigned int)(current))

/* The init of options whose defaults are all zero: 0, or MS_EINVAL for a bad version. */
#define MS_OPTS_INIT_ZERO(o, version, current)                                               \
	(!MS_OPTS_VERSION_OK((version), (current))                                           \
		 ? MS_EINVAL                                                                 \
		 : (memset((o), 0, sizeof *(o)), (o)->version = (version), MS_OK))

/*
 * The bytes a struct of `version` holds, the fields past them being a later
 * version's: ends[v - 1] is where version v ended (offsetof the first field
 * the next version added), for v = 1 to n_ends; any other version holds all
 * `full` bytes. A caller keeps its table of offsets beside its struct and
 * copies this many bytes over its defaults.
 */
static inline size_t ms_opts_size(unsigned int version, const size_t *ends, size_t n_ends, size_t full)
{
	return version >= 1 && version <= n_ends ? ends[version - 1] : full;
}

#endif
