/*
 * microsynth synth plot: an SVG of the best Psi (solid) and C (dashed) over
 * time or evaluations, one colour per CSV log of any game's search.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
			int cap = se->cap ? 2 * se->cap : 64;
			double *x = realloc(se->x, sizeof *x * (size_t)cap), *ps, *cs;
			if (x)
				se->x = x;
			ps = x ? realloc(se->psi, sizeof *ps * (size_t)cap) : NULL;
			if (ps)
				se->psi = ps;
			cs = ps ? realloc(se->c, sizeof *cs * (size_t)cap) : NULL;
			if (!cs) {
				fclose(f);
				fprintf(stderr, "microsynth synth plot: out of memory\n");
				return CLI_FAIL;
			}
			se->c = cs;
			se->cap = cap;
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

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks over `span`. */
static double tick_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A step line of values[] (skipping -1s) as an SVG path, extended to xmax. */
static void step_path(FILE *f, const series *se, const double *v, double xmax, double (*X)(double, const void *),
		      double (*Y)(double, const void *), const void *ax, const char *color, const char *dash)
{
	int started = 0;
	double last = -1;

	for (int i = 0; i < se->n; i++) {
		if (v[i] < 0)
			continue;
		if (!started) {
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s d=\"M%.1f %.1f", color, dash,
				X(se->x[i], ax), Y(v[i], ax));
			started = 1;
		} else {
			fprintf(f, " H%.1f V%.1f", X(se->x[i], ax), Y(v[i], ax));
		}
		last = v[i];
	}
	if (started)
		fprintf(f, " H%.1f\"/>\n", X(xmax, ax));
	(void)last;
}

typedef struct axes {
	double x0, x1, left, width, top, height;
} axes;

static double ax_x(double x, const void *ud)
{
	const axes *a = ud;
	return a->left + (a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0) * a->width;
}

static double ax_y(double y, const void *ud)
{
	const axes *a = ud;
	return a->top + (1 - y) * a->height;
}

/* The grid, the ticks, the frame and the axis labels. */
static void draw_axes(FILE *f, const axes *a, double xmax, const char *xlabel)
{
	const axes ax = *a;
	for (int t = 0; t <= 10; t++) {
		double y = t / 10.0;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ax.left,
			ax.left + ax.width, ax_y(y, &ax), ax_y(y, &ax));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", ax.left - 6,
			ax_y(y, &ax) + 4, y);
	}
	double step = tick_step(xmax, 8);
	for (double x = 0; x <= xmax * (1 + 1e-9); x += step) {
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", ax_x(x, &ax),
			ax_x(x, &ax), ax.top, ax.top + ax.height);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", ax_x(x, &ax),
			ax.top + ax.height + 16, x);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
		ax.left, ax.top, ax.width, ax.height);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", ax.left + ax.width / 2,
		ax.top + ax.height + 34, xlabel);
	fprintf(f, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">"
		   "best score (solid: win rate vs GA, dashed: cloning score)</text>\n",
		ax.top + ax.height / 2, ax.top + ax.height / 2);
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

	FILE *f = fopen(out, "w");
	if (!f) {
		ret = cli_usage_error(CMD " plot", "%s: cannot create: %s", out, strerror(errno));
		goto done;
	}
	const int W = 760, H = 440 + 18 * ncsv;
	axes ax = { 0, xmax, 70, 660, 50, 320 };
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"28\" font-size=\"16\" "
		   "text-anchor=\"middle\">",
		W, H, W, H, W, H, W / 2);
	xml_text(f, title);
	fputs("</text>\n", f);
	draw_axes(f, &ax, xmax, xlabel);
	for (int k = 0; k < ncsv; k++) {
		const char *col = colors[k % 8];
		step_path(f, &se[k], se[k].psi, xmax, ax_x, ax_y, &ax, col, "");
		step_path(f, &se[k], se[k].c, xmax, ax_x, ax_y, &ax, col, " stroke-dasharray=\"5 4\" opacity=\"0.7\"");
		double ly = ax.top + ax.height + 56 + 18 * k;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			ax.left, ax.left + 24, ly - 4, ly - 4, col);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", ax.left + 30, ly);
		xml_text(f, se[k].name);
		double last = -1;
		for (int i = 0; i < se[k].n; i++)
			if (se[k].psi[i] >= 0)
				last = se[k].psi[i];
		if (last >= 0)
			fprintf(f, " (best Psi %.3f)", last);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	if (fclose(f) != 0) {
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

