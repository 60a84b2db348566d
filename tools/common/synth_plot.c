/*
 * microsynth synth plot: an SVG of the best Psi (solid) and C (dashed) over
 * time or evaluations, one colour per CSV log of any game's search; or, per
 * --group of logs (independent runs of one method), the mean best Psi and a
 * band of one standard deviation, as the sketch-learning paper's figures.
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

/* The best Psi of run `se` at x (its last improvement at or before x; 0 before any), rounded down to `q`. */
static double psi_at(const series *se, double x, double q)
{
	double v = 0;
	for (int i = 0; i < se->n && se->x[i] <= x; i++)
		if (se->psi[i] >= 0)
			v = se->psi[i];
	return q > 0 ? floor(v / q + 1e-9) * q : v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * Group g's runs se[0..n-1] as a mean line over a band of +-1 standard
 * deviation (of the runs, population), evaluated at every x where a run
 * improved: each run holds its best until the chart's end. Its legend row
 * gives the runs and the final mean and deviation.
 */
static int draw_group(svg_chart *ch, const series *se, int n, double q, const char *label, const char *col, int row)
{
	int m = 1, cap = 0, ret = CLI_OK;
	double *x = NULL, *mean = NULL, *lo = NULL, *hi = NULL;
	for (int k = 0; k < n; k++)
		m += se[k].n;
	const ms_vec_col cols[] = {MS_VEC_COL(x), MS_VEC_COL(mean), MS_VEC_COL(lo), MS_VEC_COL(hi)};
	if (ms_vec_grow_cols(NULL, &cap, m, cols, 4) < 0) {
		fprintf(stderr, "microsynth synth plot: out of memory\n");
		ret = CLI_FAIL;
		goto done;
	}
	x[0] = ch->x0;
	for (int k = 0, j = 1; k < n; k++)
		for (int i = 0; i < se[k].n; i++)
			x[j++] = se[k].x[i];
	qsort(x, m, sizeof *x, cmp_double);
	for (int i = 0; i < m; i++) {
		double s1 = 0, s2 = 0;
		for (int k = 0; k < n; k++) {
			double v = psi_at(&se[k], x[i], q);
			s1 += v;
			s2 += v * v;
		}
		mean[i] = s1 / n;
		double sd = sqrt(fmax(0, s2 / n - mean[i] * mean[i]));
		lo[i] = fmax(0, mean[i] - sd);
		hi[i] = fmin(1, mean[i] + sd);
		x[i] = fmin(x[i], ch->x1); /* a run's last line may come a moment past the budget */
	}
	svg_chart_band(ch, x, lo, hi, m, col, 0.2);
	svg_chart_series(ch, x, mean, m, col, 1, "");
	char note[80];
	snprintf(note, sizeof note, " (%d runs; at the end mean %.3f, band %.3f-%.3f)", n, mean[m - 1], lo[m - 1],
		 hi[m - 1]);
	svg_chart_legend(ch, row, col, label, note);
done:
	free(x);
	free(mean);
	free(lo);
	free(hi);
	return ret;
}
enum { MAX_LOGS = 64, MAX_GROUPS = 8 };

typedef struct plot_args {
	const char *csvs[MAX_LOGS], *out, *title, *label[MAX_GROUPS];
	int ncsv, nlogs, use_evals, ngroups; /* ncsv: the groups' logs; nlogs: all */
	int first[MAX_GROUPS], count[MAX_GROUPS]; /* a group's logs: csvs[first..first+count-1] */
	char *owned[MAX_GROUPS];		  /* the --group values, split in place */
	double until, step;
} plot_args;

/* --group LABEL=A.csv,B.csv,...: the logs follow the plain --csv ones in csvs[] (moved there at the end). */
static int add_group(plot_args *a, const char *val)
{
	const char *eq = strchr(val, '=');
	if (!eq || eq == val || !eq[1])
		return cli_usage_error(CMD " plot", "--group wants LABEL=A.csv,B.csv,..., not '%s'", val);
	if (a->ngroups == MAX_GROUPS)
		return cli_usage_error(CMD " plot", "at most %d --group options", MAX_GROUPS);
	char *v = strdup(val);
	if (!v)
		return cli_usage_error(CMD " plot", "out of memory");
	int g = a->ngroups++;
	a->owned[g] = v;
	v[eq - val] = 0;
	a->label[g] = v;
	a->count[g] = 0;
	for (char *f = v + (eq - val) + 1; f; ) {
		char *next = strchr(f, ',');
		if (next)
			*next++ = 0;
		if (*f) {
			if (a->ncsv == MAX_LOGS)
				return cli_usage_error(CMD " plot", "at most %d logs", MAX_LOGS);
			a->csvs[a->ncsv++] = f;
			a->count[g]++;
		}
		f = next;
	}
	if (!a->count[g])
		return cli_usage_error(CMD " plot", "--group %s: no log", a->label[g]);
	return CLI_OK;
}

static int parse_plot(int argc, char **argv, plot_args *a)
{
	int ret = CLI_OK, plain = 0;
	const char *plain_csv[MAX_LOGS];
	for (int i = 2; i < argc && ret == CLI_OK; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(opt, "--csv") && strcmp(opt, "-o") && strcmp(opt, "--title") && strcmp(opt, "--x") &&
		    strcmp(opt, "--group") && strcmp(opt, "--until") && strcmp(opt, "--step"))
			return cli_usage_error(CMD " plot", "unknown option '%s'", opt);
		if (!val)
			return cli_usage_error(CMD " plot", "%s needs a value", opt);
		i++;
		if (!strcmp(opt, "--csv")) {
			if (plain == MAX_LOGS)
				return cli_usage_error(CMD " plot", "at most %d --csv logs", MAX_LOGS);
			plain_csv[plain++] = val;
		} else if (!strcmp(opt, "--group")) {
			ret = add_group(a, val);
		} else if (!strcmp(opt, "-o")) {
			a->out = val;
		} else if (!strcmp(opt, "--title")) {
			a->title = val;
		} else if (!strcmp(opt, "--until") || !strcmp(opt, "--step")) {
			if (cli_parse_real(CMD " plot", opt, val, 0, HUGE_VAL, 1, opt[2] == 'u' ? &a->until : &a->step))
				return CLI_USAGE;
		} else if (!strcmp(val, "seconds") || !strcmp(val, "evals")) {
			a->use_evals = !strcmp(val, "evals");
		} else {
			return cli_usage_error(CMD " plot", "--x is seconds or evals, not '%s'", val);
		}
	}
	if (ret != CLI_OK)
		return ret;
	if (plain + a->ncsv > MAX_LOGS)
		return cli_usage_error(CMD " plot", "at most %d logs", MAX_LOGS);
	if ((!plain && !a->ncsv) || !a->out)
		return cli_usage_error(CMD " plot", "--csv FILE (or --group) and -o FILE.svg are required");
	/* plain logs after the groups' */
	for (int k = 0; k < plain; k++)
		a->csvs[a->ncsv + k] = plain_csv[k];
	a->nlogs = a->ncsv + plain;
	for (int g = 0, at = 0; g < a->ngroups; g++) {
		a->first[g] = at;
		at += a->count[g];
	}
	return CLI_OK;
}

int synth_plot_main(int argc, char **argv)
{
	static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
					      "#8c564b", "#e377c2", "#17becf" };
	plot_args a = { .title = "Best win rate against GA" };
	int ret = parse_plot(argc, argv, &a), grouped = a.ncsv, ncsv = 0;
	series se[MAX_LOGS];

	memset(se, 0, sizeof se);
	if (ret != CLI_OK)
		goto done;
	ncsv = a.nlogs;
	double xmax = 0;
	for (int k = 0; k < ncsv && ret == CLI_OK; k++) {
		ret = read_csv(a.csvs[k], a.use_evals, &se[k]);
		for (int i = 0; ret == CLI_OK && i < se[k].n; i++)
			if (se[k].x[i] > xmax)
				xmax = se[k].x[i];
	}
	if (ret != CLI_OK)
		goto done;
	if (a.until > 0)
		xmax = a.until; /* the budget: each run holds its best until then */

	/* seconds beyond two hours read better in hours, beyond two minutes in minutes */
	double unit = 1;
	const char *xlabel = a.use_evals ? "Psi evaluations" : "seconds";
	if (!a.use_evals && xmax > 7200) {
		unit = 3600;
		xlabel = "hours";
	} else if (!a.use_evals && xmax > 120) {
		unit = 60;
		xlabel = "minutes";
	}
	for (int k = 0; k < ncsv; k++)
		for (int i = 0; i < se[k].n; i++)
			se[k].x[i] /= unit;
	xmax /= unit;
	if (!(xmax > 0))
		xmax = 1;

	int rows = a.ngroups + ncsv - grouped;
	svg_chart ch = { NULL, 0, xmax, 70, 660, 50, 320 };
	if (svg_chart_open(&ch, a.out, 760, 440 + 18 * rows, a.title)) {
		ret = cli_usage_error(CMD " plot", "%s: cannot create: %s", a.out, strerror(errno));
		goto done;
	}
	svg_chart_axes(&ch, 10, 1, xlabel,
		       a.ngroups ? "best win rate (line: mean of the runs, band: +-1 std)"
				 : "best score (solid: win rate vs GA, dashed: cloning score)");
	for (int g = 0; g < a.ngroups && ret == CLI_OK; g++)
		ret = draw_group(&ch, se + a.first[g], a.count[g], a.step, a.label[g], colors[g % 8], g);
	for (int k = grouped; k < ncsv; k++) {
		const char *col = colors[(a.ngroups + k - grouped) % 8];
		char note[40] = "";
		svg_chart_series(&ch, se[k].x, se[k].psi, se[k].n, col, 1, "");
		svg_chart_series(&ch, se[k].x, se[k].c, se[k].n, col, 1, " stroke-dasharray=\"5 4\" opacity=\"0.7\"");
		double last = -1;
		for (int i = 0; i < se[k].n; i++)
			if (se[k].psi[i] >= 0)
				last = se[k].psi[i];
		if (last >= 0)
			snprintf(note, sizeof note, " (best Psi %.3f)", last);
		svg_chart_legend(&ch, a.ngroups + k - grouped, col, se[k].name, note);
	}
	if (svg_chart_close(&ch) && ret == CLI_OK)
		ret = cli_usage_error(CMD " plot", "%s: write failed", a.out);
	if (ret == CLI_OK)
		printf("plot=%s logs=%d groups=%d xmax=%g %s\n", a.out, ncsv, a.ngroups, xmax, xlabel);
done:
	for (int k = 0; k < ncsv; k++) {
		free(se[k].x);
		free(se[k].psi);
		free(se[k].c);
	}
	for (int g = 0; g < a.ngroups; g++)
		free(a.owned[g]);
	return ret;
}
