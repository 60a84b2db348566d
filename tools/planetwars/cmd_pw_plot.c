/*
 * microsynth planetwars plot: the GA's CSV (planetwars evolve) as an SVG.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "microsynth/planetwars.h"
#include "cli.h"
#include "pw_common.h"
#include "svg.h"

int cmd_pw_plot(int argc, char **argv)
{
	const char *csv = NULL, *out = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "plot: unknown option '%s'", argv[i]);
		else
			csv = argv[i];
	}
	if (!csv || !out)
		return cli_usage_error(CMD, "plot needs CSV and -o FILE.svg");
	FILE *f = fopen(csv, "r");
	if (!f) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, csv, strerror(errno));
		return CLI_USAGE;
	}
	int cap = 256, n = 0, lineno = 0;
	double *gx = malloc((size_t)cap * sizeof *gx), *vs = malloc((size_t)cap * sizeof *vs),
	       *br = malloc((size_t)cap * sizeof *br);
	char line[512];
	while (gx && vs && br && fgets(line, sizeof line, f)) {
		lineno++;
		if (lineno == 1 && !strncmp(line, "generation,", 11))
			continue;
		int g, best;
		long games;
		double rate, v, div, secs;
		if (sscanf(line, "%d,%ld,%d,%lf,%lf,%lf,%lf", &g, &games, &best, &rate, &v, &div, &secs) != 7) {
			fprintf(stderr, "microsynth %s: %s:%d: not a line of evolve.csv\n", CMD, csv, lineno);
			fclose(f);
			free(gx);
			free(vs);
			free(br);
			return CLI_USAGE;
		}
		if (n == cap) {
			const ms_vec_col cols[] = {MS_VEC_COL(gx), MS_VEC_COL(vs), MS_VEC_COL(br)};
			if (ms_vec_grow_cols(NULL, &cap, n + 1, cols, 3) < 0) {
				free(gx), free(vs), free(br);
				gx = vs = br = NULL;
				break;
			}
		}
		gx[n] = g;
		vs[n] = v;
		br[n] = rate;
		n++;
	}
	fclose(f);
	if (!gx || !vs || !br) {
		free(gx);
		free(vs);
		free(br);
		return pw_out_of_memory("the generations of the CSV");
	}
	svg_chart ch = { NULL, 0, gx[n > 0 ? n - 1 : 0] > 1 ? gx[n - 1] : 1, 70, 560, 50, 280 };
	int bad = n == 0 || svg_chart_open(&ch, out, 660, 440, "Planet Wars GA");
	if (!bad) {
		svg_chart_axes(&ch, 4, 2, "generation", "win rate");
		svg_chart_series(&ch, gx, vs, n, "#1f5fbf", 0, "");
		svg_chart_series(&ch, gx, br, n, "#888", 0, " stroke-dasharray=\"4 3\"");
		svg_chart_legend(&ch, 0, "#1f5fbf", "best of each generation vs the original", NULL);
		svg_chart_legend(&ch, 1, "#888", "its tournament win rate", NULL);
		bad = svg_chart_close(&ch);
	}
	free(gx);
	free(vs);
	free(br);
	if (bad) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, n ? "cannot write the SVG" : "no generations in the CSV");
		return CLI_USAGE;
	}
	printf("generations=%d svg=%s\n", n, out);
	return CLI_OK;
}
