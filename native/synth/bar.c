/* A one-line progress bar for terminals (stderr), redrawn at most 5 times a second. */
#include <stdio.h>

#include "microsynth/synth.h"

static void hms(char *buf, size_t n, double s)
{
	if (!(s >= 0) || s >= 360000) {
		snprintf(buf, n, "--:--:--");
		return;
	}
	int t = (int)(s + 0.5) % 360000;
	snprintf(buf, n, "%02d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
}

static void score(char *buf, size_t n, double v)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.4f", v);
}

int ms_synth_progress_bar(void *ud, const ms_synth_stats *st)
{
	static const char *const phase[] = { "search", "sketch", "br" };
	ms_synth_bar *bar = ud;
	if (!bar || !bar->out)
		return 0;
	if (bar->drawn && st->elapsed - bar->last < 0.2 && st->fraction < 1)
		return 0;
	bar->last = st->elapsed;
	bar->drawn = 1;
	enum { WIDTH = 24 };
	char cells[WIDTH + 1], el[16], eta[16], psi[16], c[16];
	int filled = (int)(st->fraction * WIDTH + 0.5);
	for (int i = 0; i < WIDTH; i++)
		cells[i] = i < filled ? '#' : '.';
	cells[WIDTH] = 0;
	hms(el, sizeof el, st->elapsed);
	hms(eta, sizeof eta, st->fraction > 0 ? st->elapsed * (1 - st->fraction) / st->fraction : -1);
	score(psi, sizeof psi, st->best_psi);
	score(c, sizeof c, st->best_c);
	fprintf(bar->out, "\r[%s] %3.0f%% %s ETA %s %-6s psi %s C %s evals %lld+%lld%s", cells, st->fraction * 100, el,
		eta, phase[st->phase >= 0 && st->phase <= 2 ? st->phase : 0], psi, c, st->evals_psi, st->evals_c,
		st->replaying ? " replaying" : "");
	fflush(bar->out);
	return 0;
}

void ms_synth_bar_end(ms_synth_bar *bar)
{
	if (bar && bar->out && bar->drawn) {
		fputc('\n', bar->out);
		fflush(bar->out);
	}
	if (bar)
		bar->drawn = 0;
}
