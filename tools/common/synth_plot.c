/*
 * microsynth synth plot: an SVG of the best Psi (solid) and C (dashed) over
 * time or evaluations, one colour per CSV log of any game's search.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "cli.h"
#include "svg.h"
#include "synth_front.h"

#define CMD "synth"

/* ---- plot ------------------------------------------------------------------- */

typedef struct series {
	const char *name;
	double *x, *psi, *c;
	int n, cap;
} series;

static int read_csv(const char *path, int use_evals, series *se)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0;

	if (!f)
		return cli_usage_error(CMD " plot", "%s: cannot open: %s", path, strerror(errno));
	se->name = path;
	while (fgets(line, sizeof line, f)) {
		double t, p = -1, c = -1;
		long long ep = 0, ec = 0;
		char *fields[6], *q = line;
		int nf = 0;

		lineno++;
		if (lineno == 1 && !strncmp(line, "seconds,", 8))
			continue;
		line[strcspn(line, "\r\n")] = 0;
		if (!*line)
			continue;
		while (nf < 6) {
			fields[nf++] = q;
			q = strchr(q, ',');
			if (!q)
				break;
			*q++ = 0;
		}
		if (nf < 5) {
			fclose(f);
			return cli_usage_error(CMD " plot", "%s: line %d: expected seconds,best_psi,best_c,evals_psi,"
					       "evals_c,phase", path, lineno);
		}
		t = atof(fields[0]);
		if (*fields[1])
			p = atof(fields[1]);
		if (*fields[2])
			c = atof(fields[2]);
		ep = atoll(fields[3]);
		ec = atoll(fields[4]);
		(void)ec;
		if (se->n == se->cap) {
			const ms_vec_col cols[] = {MS_VEC_COL(se->x), MS_VEC_COL(se->psi), MS_VEC_COL(se->c)};
			if (ms_vec_grow_cols(NULL, &se->cap, se->n + 1, cols, 3) < 0) {
				fclose(f);
				fprintf(stderr, "microsynth synth plot: out of memory\n");
				return CLI_FAIL;
			}
		}
		se->x[se->n] = use_evals ? (double)ep : t;
		se->psi[se->n] = p;
		se->c[se->n] = c;
		se->n++;
	}
	fclose(f);
	if (se->n == 0)
		return cli_usage_error(CMD " plot", "%s: no data lines", path);
	return CLI_OK;
}

int synth_plot_main(int argc, char **argv)
{
	static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
					      "#8c564b", "#e377c2", "#17becf" };
	const char *csvs[64], *out = NULL, *title = "Best win rate against GA";
	int ncsv = 0, use_evals = 0, ret = CLI_OK;
	series se[64];

	for (int i = 2; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(opt, "--csv") || !strcmp(opt, "-o") || !strcmp(opt, "--title") || !strcmp(opt, "--x")) {
			if (!val)
				return cli_usage_error(CMD " plot", "%s needs a value", opt);
			if (!strcmp(opt, "--csv")) {
				if (ncsv == 64)
					return cli_usage_error(CMD " plot", "at most 64 --csv logs");
				csvs[ncsv++] = val;
			} else if (!strcmp(opt, "-o")) {
				out = val;
			} else if (!strcmp(opt, "--title")) {
				title = val;
			} else if (!strcmp(val, "seconds") || !strcmp(val, "evals")) {
				use_evals = !strcmp(val, "evals");
			} else {
				return cli_usage_error(CMD " plot", "--x is seconds or evals, not '%s'", val);
			}
			i++;
		} else {
			return cli_usage_error(CMD " plot", "unknown option '%s'", opt);
		}
	}
	if (!ncsv || !out)
		return cli_usage_error(CMD " plot", "--csv FILE and -o FILE.svg are required");
	memset(se, 0, sizeof se);
	double xmax = 0;
	for (int k = 0; k < ncsv && ret == CLI_OK; k++) {
		ret = read_csv(csvs[k], use_evals, &se[k]);
		for (int i = 0; ret == CLI_OK && i < se[k].n; i++)
			if (se[k].x[i] > xmax)
				xmax = se[k].x[i];
	}
	if (ret != CLI_OK)
		goto done;

	/* seconds beyond two hours read better in hours, beyond two minutes in minutes */
	double unit = 1;
	const char *xlabel = use_evals ? "Psi evaluations" : "seconds";
	if (!use_evals && xmax > 7200) {
		unit = 3600;
		xlabel = "hours";
	} else if (!use_evals && xmax > 120) {
		unit = 60;
		xlabel = "minutes";
	}
	for (int k = 0; k < ncsv; k++)
		for (int i = 0; i < se[k].n; i++)
			se[k].x[i] /= unit;
	xmax /= unit;
	if (!(xmax > 0))
		xmax = 1;

	svg_chart ch = { NULL, 0, xmax, 70, 660, 50, 320 };
	if (svg_chart_open(&ch, out, 760, 440 + 18 * ncsv, title)) {
		ret = cli_usage_error(CMD " plot", "%s: cannot create: %s", out, strerror(errno));
		goto done;
	}
	svg_chart_axes(&ch, 10, 1, xlabel, "best score (solid: win rate vs GA, dashed: cloning score)");
	for (int k = 0; k < ncsv; k++) {
		const char *col = colors[k % 8];
		char note[40] = "";
		svg_chart_series(&ch, se[k].x, se[k].psi, se[k].n, col, 1, "");
		svg_chart_series(&ch, se[k].x, se[k].c, se[k].n, col, 1, " stroke-dasharray=\"5 4\" opacity=\"0.7\"");
		double last = -1;
		for (int i = 0; i < se[k].n; i++)
			if (se[k].psi[i] >= 0)
				last = se[k].psi[i];
		if (last >= 0)
			snprintf(note, sizeof note, " (best Psi %.3f)", last);
		svg_chart_legend(&ch, k, col, se[k].name, note);
	}
	if (svg_chart_close(&ch)) {
		ret = cli_usage_error(CMD " plot", "%s: write failed", out);
		goto done;
	}
	printf("plot=%s logs=%d xmax=%g %s\n", out, ncsv, xmax, xlabel);
done:
	for (int k = 0; k < ncsv; k++) {
		free(se[k].x);
		free(se[k].psi);
		free(se[k].c);
	}
	return ret;
}

