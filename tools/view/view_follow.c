/*
 * The synthesis dashboard: follows the files a running `microsynth synth`
 * already writes, reading only what they gained since the last poll, so
 * the synthesis does nothing more than it did (no socket, no lock, no
 * extra write).
 *
 *  - its CSV log (--csv): one line per improvement, "seconds,best_psi,
 *    best_c,evals_psi,evals_c,phase": the best score over time;
 *  - its checkpoint (--checkpoint): one line per evaluation ("e ... MS")
 *    and one per new best ("b ... TOKENS"): evaluations, evals/s and the
 *    best program, printed in the indented form when its grammar is the
 *    MicroRTS DSL's.
 *
 * A file is told apart by its first line; one that does not exist yet is
 * waited for. Lines are taken only once complete (ended by a newline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/rts_dsl.h"
#include "view.h"

#define RATE_MAX 600 /* evaluation-rate samples kept (older ones thinned) */

enum { F_WAIT, F_CSV, F_CKPT, F_OTHER };

typedef struct ff_file {
	char *path;
	int kind;
	long offset;
	ms_buf part; /* an incomplete last line */
	int in_body; /* checkpoint: past "begin" */
} ff_file;

struct view_follow {
	ms_ctx *ctx;
	ff_file *f;
	int n;
	/* what the files told so far */
	/* best over time (seconds, best Psi, evaluations): [0] from the CSV, [1] from the checkpoint */
	double (*pts[2])[3];
	int n_pts[2], cap_pts[2];
	double (*rate)[2]; /* seconds, evaluations */
	int n_rate;
	long long evals, ckpt_evals;
	double seconds, best, ckpt_best;
	char *program; /* the best program's text */
	char grammar[64], algo[64], problem[256], seed[32];
	int start_nt;
	int changed;
};

int view_follow_new(ms_ctx *ctx, view_follow **out, const char *const *files, int n)
{
	view_follow *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f || !(f->f = calloc((size_t)n + 1, sizeof(ff_file)))) {
		free(f);
		return ms_ctx_error(ctx, MS_ENOMEM, "follow: out of memory");
	}
	f->ctx = ctx;
	f->n = n;
	f->best = f->ckpt_best = -1;
	f->start_nt = -1;
	for (int i = 0; i < n; i++) {
		ms_buf_init(&f->f[i].part, ctx);
		if (!(f->f[i].path = strdup(files[i]))) {
			view_follow_free(f);
			return ms_ctx_error(ctx, MS_ENOMEM, "follow: out of memory");
		}
	}
	*out = f;
	return MS_OK;
}

void view_follow_free(view_follow *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++) {
		free(f->f[i].path);
		ms_buf_dispose(&f->f[i].part);
	}
	free(f->f);
	free(f->pts[0]);
	free(f->pts[1]);
	free(f->rate);
	free(f->program);
	free(f);
}

static int add_point(view_follow *f, int k, double t, double best, double evals)
{
	if (f->n_pts[k] == f->cap_pts[k]) {
		int cap = f->cap_pts[k] ? 2 * f->cap_pts[k] : 64;
		double(*v)[3] = realloc(f->pts[k], sizeof(*v) * (size_t)cap);
		if (!v)
			return MS_ENOMEM;
		f->pts[k] = v;
		f->cap_pts[k] = cap;
	}
	f->pts[k][f->n_pts[k]][0] = t;
	f->pts[k][f->n_pts[k]][1] = best;
	f->pts[k][f->n_pts[k]][2] = evals;
	f->n_pts[k]++;
	return 0;
}

/* A rate sample at most every second; past RATE_MAX, every other one is dropped. */
static int add_rate(view_follow *f, double t, double evals)
{
	if (!f->rate && !(f->rate = calloc(RATE_MAX, sizeof(*f->rate))))
		return MS_ENOMEM;
	if (f->n_rate && t - f->rate[f->n_rate - 1][0] < 1.0)
		return 0;
	if (f->n_rate == RATE_MAX) {
		for (int i = 0; i < RATE_MAX / 2; i++)
			memcpy(f->rate[i], f->rate[2 * i + 1], sizeof(f->rate[i]));
		f->n_rate = RATE_MAX / 2;
	}
	f->rate[f->n_rate][0] = t;
	f->rate[f->n_rate][1] = evals;
	f->n_rate++;
	return 0;
}

/* "seconds,best_psi,best_c,evals_psi,evals_c,phase"; a score is empty until there is one. */
static int csv_line(view_follow *f, const char *l)
{
	const char *field[6];
	int n = 0;
	char *end;
	double t, psi;
	long long ep;

	for (const char *c = l; n < 6; c++) {
		field[n++] = c;
		if (!(c = strchr(c, ',')))
			break;
	}
	if (n < 4)
		return 0;
	t = strtod(field[0], &end);
	if (end == field[0])
		return 0; /* the header */
	psi = *field[1] == ',' ? f->best : strtod(field[1], NULL);
	ep = strtoll(field[3], NULL, 10);
	f->changed = 1;
	if (t > f->seconds)
		f->seconds = t;
	if (ep > f->evals)
		f->evals = ep;
	if (psi > f->best)
		f->best = psi;
	return add_point(f, 0, t, psi, (double)ep);
}

/* The best program from its tokens, in the indented form when the grammar is the MicroRTS DSL's. */
static int ckpt_program(view_follow *f, const char *tokens)
{
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;
	char *text = NULL;

	free(f->program);
	f->program = NULL;
	if (!strncmp(f->grammar, "microrts-A", 10) && f->start_nt >= 0 &&
	    !ms_rts_dsl_grammar_new(f->ctx, &g, strstr(f->grammar, "not") ? MS_RTS_DSL_GRAMMAR_NOT : 0) &&
	    !ms_dsl_prog_new(f->ctx, &p, g) && !ms_dsl_parse_tokens(p, tokens, strlen(tokens), ' ', f->start_nt) &&
	    !ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &text, NULL)) {
		f->program = strdup(text);
		ms_ctx_mfree(f->ctx, text);
	} else
		f->program = strdup(tokens);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	return f->program ? 0 : MS_ENOMEM;
}

/* One checkpoint line: the settings, then "e", "b" and "t" records (native/synth/ckpt.c). */
static int ckpt_line(view_follow *f, ff_file *ff, const char *l)
{
	long long index;
	char kind;
	unsigned long long bits;
	long long ms;
	int at = 0;

	if (!ff->in_body) {
		if (!strcmp(l, "begin"))
			ff->in_body = 1;
		else if (!strncmp(l, "grammar ", 8))
			snprintf(f->grammar, sizeof(f->grammar), "%s", l + 8);
		else if (!strncmp(l, "algo ", 5))
			snprintf(f->algo, sizeof(f->algo), "%s", l + 5);
		else if (!strncmp(l, "problem ", 8))
			snprintf(f->problem, sizeof(f->problem), "%s", l + 8);
		else if (!strncmp(l, "seed ", 5))
			snprintf(f->seed, sizeof(f->seed), "%s", l + 5);
		else if (!strncmp(l, "start ", 6))
			f->start_nt = atoi(l + 6);
		return 0;
	}
	f->changed = 1;
	if (l[0] == 'e' && sscanf(l, "e %*s %lld %c %*s %llx %*d %lld", &index, &kind, &bits, &ms) == 4) {
		double score, t = (double)ms / 1000.0;
		memcpy(&score, &bits, sizeof(score));
		if (kind != 'P')
			return 0;
		f->ckpt_evals++;
		f->evals = f->ckpt_evals > f->evals ? f->ckpt_evals : f->evals;
		f->seconds = t > f->seconds ? t : f->seconds;
		if (score > f->best)
			f->best = score;
		if (score > f->ckpt_best) {
			f->ckpt_best = score;
			if (add_point(f, 1, t, score, (double)f->evals))
				return MS_ENOMEM;
		}
		return add_rate(f, t, (double)f->evals);
	}
	if (l[0] == 'b' && sscanf(l, "b %*s %lld %c %n", &index, &kind, &at) == 2 && at > 0 && kind == 'P')
		return ckpt_program(f, l + at);
	return 0;
}

/* Reads what `ff` gained: complete lines only, the rest kept for the next poll. */
static int poll_file(view_follow *f, ff_file *ff)
{
	FILE *fp = fopen(ff->path, "rb");
	char chunk[65536];
	size_t got;
	int rc = 0;

	if (!fp)
		return 0; /* not there yet */
	if (fseek(fp, 0, SEEK_END) == 0 && ftell(fp) < ff->offset) {
		/* the file was started afresh */
		ff->offset = 0;
		ff->part.len = 0;
		ff->in_body = 0;
		ff->kind = F_WAIT;
	}
	fseek(fp, ff->offset, SEEK_SET);
	while (!rc && (got = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		ff->offset += (long)got;
		for (size_t i = 0; i < got && !rc; i++) {
			if (chunk[i] != '\n') {
				rc = ms_buf_append(&ff->part, chunk + i, 1);
				continue;
			}
			if (!ff->part.data && (rc = ms_buf_append(&ff->part, "", 0)))
				break;
			if (ff->part.len && ff->part.data[ff->part.len - 1] == '\r')
				ff->part.data[--ff->part.len] = '\0';
			if (ff->kind == F_WAIT)
				ff->kind = !strncmp(ff->part.data, "seconds,", 8)                   ? F_CSV
					   : !strncmp(ff->part.data, "microsynth-synth-checkpoint", 27) ? F_CKPT
													: F_OTHER;
			else if (ff->kind == F_CSV)
				rc = csv_line(f, ff->part.data);
			else if (ff->kind == F_CKPT)
				rc = ckpt_line(f, ff, ff->part.data);
			ff->part.len = 0;
			ff->part.data[0] = '\0';
		}
	}
	fclose(fp);
	return rc;
}

static int put_series(ms_buf *b, const char *key, const double *v, int n, int width)
{
	int rc = ms_buf_printf(b, ",\"%s\":[", key);
	for (int i = 0; i < n && !rc; i++) {
		rc = ms_buf_puts(b, i ? ",[" : "[");
		for (int k = 0; k < width && !rc; k++)
			rc = ms_buf_printf(b, "%s%.6g", k ? "," : "", v[i * width + k]);
		if (!rc)
			rc = ms_buf_puts(b, "]");
	}
	return rc ? rc : ms_buf_puts(b, "]");
}

/* evals/s over the last samples (about the last 10 s), else over the whole run. */
static double recent_rate(const view_follow *f)
{
	if (f->n_rate >= 2) {
		int i = f->n_rate - 1, j = i;
		while (j > 0 && f->rate[i][0] - f->rate[j][0] < 10.0)
			j--;
		if (f->rate[i][0] > f->rate[j][0])
			return (f->rate[i][1] - f->rate[j][1]) / (f->rate[i][0] - f->rate[j][0]);
	}
	return f->seconds > 0 ? (double)f->evals / f->seconds : 0;
}

int view_follow_poll(view_follow *f, int force, ms_buf *b, int *changed)
{
	static const char *const kinds[] = { "waiting", "csv", "checkpoint", "unknown" };
	int rc = 0;

	*changed = 0;
	f->changed = 0;
	for (int i = 0; i < f->n && !rc; i++)
		rc = poll_file(f, &f->f[i]);
	if (rc)
		return ms_ctx_error(f->ctx, rc, "follow: out of memory");
	if (!f->changed && !force)
		return 0;
	rc = ms_buf_puts(b, "{\"type\":\"synth\",\"files\":[");
	for (int i = 0; i < f->n && !rc; i++) {
		rc = ms_buf_puts(b, i ? ",{\"path\":" : "{\"path\":");
		if (!rc)
			rc = view_json_str(b, f->f[i].path);
		if (!rc)
			rc = ms_buf_printf(b, ",\"kind\":\"%s\"}", kinds[f->f[i].kind]);
	}
	if (!rc)
		rc = ms_buf_printf(b, "],\"evals\":%lld,\"seconds\":%.3f,\"evals_per_s\":%.3f,\"best\":%.6f", f->evals,
				   f->seconds, recent_rate(f), f->best);
	const char *keys[] = { "algo", "problem", "seed" }, *vals[] = { f->algo, f->problem, f->seed };
	for (int k = 0; k < 3 && !rc; k++) {
		rc = ms_buf_printf(b, ",\"%s\":", keys[k]);
		if (!rc)
			rc = view_json_str(b, *vals[k] ? vals[k] : NULL);
	}
	if (!rc)
		rc = put_series(b, "points", f->pts[0] ? &f->pts[0][0][0] : NULL, f->n_pts[0], 3);
	if (!rc)
		rc = put_series(b, "ckpt_points", f->pts[1] ? &f->pts[1][0][0] : NULL, f->n_pts[1], 3);
	if (!rc)
		rc = put_series(b, "rate", f->rate ? &f->rate[0][0] : NULL, f->n_rate, 2);
	if (!rc)
		rc = ms_buf_puts(b, ",\"program\":");
	if (!rc)
		rc = view_json_str(b, f->program);
	if (!rc)
		rc = ms_buf_puts(b, "}");
	if (rc)
		return ms_ctx_error(f->ctx, rc, "follow: out of memory");
	*changed = 1;
	return 0;
}
