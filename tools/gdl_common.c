/*
 * Helpers shared by the gdl commands: the options of StatGUCT's statistics,
 * read by `gdl features` and by `gdl play` for its guct and sguct players.
 */
#include <string.h>

#include "microsynth/gdl.h"
#include "cli.h"

#define CMD "gdl"

int gdl_stat_option(ms_gdl_stat_options *o, const char *opt, const char *val)
{
	static const struct {
		const char *name;
		long lo, hi;
	} opts[] = { { "--sequences", 3, 100000 }, { "--positions", 1, 1000 },	 { "--gap", 1, 1000 },
		     { "--playouts", 1, 100000 },   { "--keep", 0, 256 },	 { "--differences", 0, 1 },
		     { "--max-features", 1, 10000000 }, { "--stability-k", 0, 1000000 } };
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		if (strcmp(opt, opts[i].name))
			continue;
		long v;
		if (!val)
			return cli_usage_error(CMD, "%s needs a value", opt), -1;
		if (cli_parse_int(CMD, opt, val, opts[i].lo, opts[i].hi, &v))
			return -1;
		int *dst[] = { &o->sequences, &o->positions, &o->gap, &o->playouts, &o->keep, &o->differences };
		if (i < sizeof dst / sizeof *dst)
			*dst[i] = (int)v;
		else if (!strcmp(opt, "--max-features"))
			o->max_features = v;
		else
			o->stability_k = (double)v;
		return 1;
	}
	return 0;
}
