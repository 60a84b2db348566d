/*
 * Line charts in SVG for the commands that plot search logs (synth plot,
 * planetwars plot): one document layout, scores on a 0-1 y axis.
 */
#ifndef MS_TOOLS_SVG_H
#define MS_TOOLS_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct svg_chart {
	FILE *f;
	double x0, x1;			  /* the x range drawn */
	double left, width, top, height;  /* the plot area, in pixels */
} svg_chart;

/* Creates `path` as a width x height document with a white background and
 * `title` centred on top; the plot area is set by the caller in c. 0, or -1
 * with errno. */
int svg_chart_open(svg_chart *c, const char *path, int width, int height, const char *title);

/* The y grid (ticks + 1 lines over 0-1, labelled with `ydigits` decimals), x ticks of
 * 1, 2 or 5 times a power of ten, the frame, and both axis labels. */
void svg_chart_axes(svg_chart *c, int ticks, int ydigits, const char *xlabel, const char *ylabel);

/* A series: a step line (each value held until the next x, the last to x1)
 * or straight segments. Points with y < 0 are skipped. `extra` adds
 * attributes to the path (a dash pattern, an opacity), or is "". */
void svg_chart_series(svg_chart *c, const double *x, const double *y, int n, const char *color, int step,
		      const char *extra);

/* A filled band between lo[i] and hi[i] (a step shape: each pair held until
 * the next x, the last to x1), drawn under the lines that follow it. */
void svg_chart_band(svg_chart *c, const double *x, const double *lo, const double *hi, int n, const char *color,
		    double opacity);

/* A legend entry on row `row` below the x axis label; `note` (may be NULL)
 * follows the escaped `text` unescaped. */
void svg_chart_legend(svg_chart *c, int row, const char *color, const char *text, const char *note);

/* Ends the document and closes the file; 0, or -1 if a write failed. */
int svg_chart_close(svg_chart *c);

/* Writes s with XML's five special characters escaped (HTML's too). */
void svg_text(FILE *f, const char *s);

/* The same for the n bytes at s. */
void svg_text_n(FILE *f, const char *s, size_t n);

#endif
