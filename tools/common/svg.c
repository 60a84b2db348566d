/* Line charts in SVG (svg.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

void svg_text_n(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break; /* HTML 4 lacks &apos; (explain --html pages use this too) */
		default: fputc(s[i], f); break;
		}
	}
}

void svg_text(FILE *f, const char *s)
{
	svg_text_n(f, s, strlen(s));
}

static double px(const svg_chart *c, double x)
{
	return c->left + (c->x1 > c->x0 ? (x - c->x0) / (c->x1 - c->x0) : 0) * c->width;
}

static double py(const svg_chart *c, double y)
{
	return c->top + (1 - y) * c->height;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks over `span`. */
static double tick_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

int svg_chart_open(svg_chart *c, const char *path, int width, int height, const char *title)
{
	c->f = fopen(path, "w");
	if (!c->f)
		return -1;
	fprintf(c->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		      "font-family=\"sans-serif\" font-size=\"12\">\n"
		      "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"28\" font-size=\"16\" "
		      "text-anchor=\"middle\">",
		width, height, width, height, width, height, width / 2);
	svg_text(c->f, title);
	fputs("</text>\n", c->f);
	return 0;
}

void svg_chart_axes(svg_chart *c, int ticks, int ydigits, const char *xlabel, const char *ylabel)
{
	FILE *f = c->f;

	for (int t = 0; t <= ticks; t++) {
		double y = (double)t / ticks;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", c->left,
			c->left + c->width, py(c, y), py(c, y));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n", c->left - 6, py(c, y) + 4,
			ydigits, y);
	}
	double step = tick_step(c->x1 - c->x0, 8);
	for (double x = c->x0; x <= c->x1 * (1 + 1e-9); x += step) {
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", px(c, x),
			px(c, x), c->top, c->top + c->height);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", px(c, x),
			c->top + c->height + 16, x);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
		c->left, c->top, c->width, c->height);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", c->left + c->width / 2,
		c->top + c->height + 34);
	svg_text(f, xlabel);
	fprintf(f, "</text>\n<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">",
		c->top + c->height / 2, c->top + c->height / 2);
	svg_text(f, ylabel);
	fputs("</text>\n", f);
}

void svg_chart_series(svg_chart *c, const double *x, const double *y, int n, const char *color, int step,
		      const char *extra)
{
	int started = 0;

	for (int i = 0; i < n; i++) {
		if (y[i] < 0)
			continue;
		if (!started)
			fprintf(c->f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s d=\"M%.1f %.1f", color,
				extra, px(c, x[i]), py(c, y[i]));
		else if (step)
			fprintf(c->f, " H%.1f V%.1f", px(c, x[i]), py(c, y[i]));
		else
			fprintf(c->f, " L%.1f %.1f", px(c, x[i]), py(c, y[i]));
		started = 1;
	}
	if (started && step)
		fprintf(c->f, " H%.1f", px(c, c->x1));
	if (started)
		fputs("\"/>\n", c->f);
}

void svg_chart_band(svg_chart *c, const double *x, const double *lo, const double *hi, int n, const char *color,
		    double opacity)
{
	if (n < 1)
		return;
	/* along hi left to right, then back along lo: one closed path */
	fprintf(c->f, "<path fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"none\" d=\"M%.1f %.1f", color, opacity,
		px(c, x[0]), py(c, hi[0]));
	for (int i = 1; i < n; i++)
		fprintf(c->f, " H%.1f V%.1f", px(c, x[i]), py(c, hi[i]));
	fprintf(c->f, " H%.1f V%.1f", px(c, c->x1), py(c, lo[n - 1]));
	for (int i = n - 1; i > 0; i--)
		fprintf(c->f, " H%.1f V%.1f", px(c, x[i]), py(c, lo[i - 1]));
	fprintf(c->f, " H%.1f Z\"/>\n", px(c, x[0]));
}

void svg_chart_legend(svg_chart *c, int row, const char *color, const char *text, const char *note)
{
	double ly = c->top + c->height + 56 + 18 * row;

	fprintf(c->f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		c->left, c->left + 24, ly - 4, ly - 4, color);
	fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\">", c->left + 30, ly);
	svg_text(c->f, text);
	if (note)
		fputs(note, c->f);
	fputs("</text>\n", c->f);
}

int svg_chart_close(svg_chart *c)
{
	int bad;

	fputs("</svg>\n", c->f);
	bad = ferror(c->f);
	bad |= fclose(c->f);
	c->f = NULL;
	return bad ? -1 : 0;
}
