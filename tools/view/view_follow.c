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
 * and three more a run may be asked to write:
 *
 *  - synth's --progress-json: a first line with the budget, maps and
 *    opponents, then per new best its W/D/L against each opponent and
 *    under MPI each serving rank's tasks and seconds; with the evaluation
 *    rate, the budget gives the ETA;
 *  - selfplay's --csv: "iteration,seconds,search_psi,vs_fixed,evals_psi,
 *    population", one line per iteration;
 *  - a program file (its first line a '#' header: selfplay's -o, rewritten
 *    each iteration): read whole again whenever its size or time changes.
 *
 * A file is told apart by its first line; one that does not exist yet is
 * waited for. Lines are taken only once complete (ended by a newline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json.h"
#include "core/vec.h"
#include "microsynth/rts_dsl.h"
#include "view.h"

#define RATE_MAX 600 /* evaluation-rate samples kept (older ones thinned) */
#define OPP_MAX 64   /* opponents a --progress-json names (synth's own limit) */
#define RANK_MAX 1024 /* MPI ranks a --progress-json line accounts for (synth_progress.c's limit) */
#define TEXT_MAX (1 << 20)

enum { F_WAIT, F_CSV, F_CKPT, F_OTHER, F_PROGRESS, F_SELFPLAY, F_TEXT };

typedef struct ff_file {
	char *path;
	int kind;
	long offset;
	ms_buf part; /* an incomplete last line */
	int in_body; /* checkpoint: past "begin" */
	char *text;  /* a program file's whole text */
	long long size, mtime_ns;
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
	/* --progress-json: the budget (0: none), the opponents, the best's W/D/L against each (-1: unknown) */
	int have_progress, n_opp;
	double budget_evals, budget_seconds, fraction;
	char *opp[OPP_MAX];
	int vs[OPP_MAX][3];
	/* under MPI, per serving rank: its number, tasks answered, seconds evaluating */
	int n_ranks;
	double ranks[RANK_MAX][3];
	/* selfplay --csv: per iteration [iteration, seconds, search_psi, vs_fixed, evals_psi] */
	MS_VEC(struct { double v[5]; }) iters;
	char *population; /* the last iteration's */
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
		ms_ctx_mfree(f->ctx, f->f[i].text);
	}
	for (int i = 0; i < f->n_opp; i++)
		ms_ctx_mfree(f->ctx, f->opp[i]);
	ms_vec_dispose(f->ctx, &f->iters);
	ms_ctx_mfree(f->ctx, f->population);
	free(f->f);
	free(f->pts[0]);
	free(f->pts[1]);
	free(f->rate);
	free(f->program);
	free(f);
}

static int add_point(view_follow *f, int k, double t, double best, double evals)
{
	if (ms_vec_grow(NULL, (void **)&f->pts[k], &f->cap_pts[k], (long long)f->n_pts[k] + 1, sizeof *f->pts[k]) < 0)
		return MS_ENOMEM;
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

static double jnum(const cJSON *o, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static double jnum_at(const cJSON *a, int i)
{
	const cJSON *x = cJSON_GetArrayItem(a, i);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

/* The first line (budget, opponents) or one per new best: {"t","evals","fraction","best","vs":[[w,d,l]|null...]}. */
static int progress_line(view_follow *f, const char *l)
{
	cJSON *m = NULL, *v;
	int rc = 0, k = 0;

	if (ms_json_parse(f->ctx, "progress", l, strlen(l), &m) || !cJSON_IsObject(m)) {
		cJSON_Delete(m);
		return 0; /* not ours to judge: skipped */
	}
	f->changed = 1;
	if (cJSON_GetObjectItemCaseSensitive(m, "progress")) {
		f->have_progress = 1;
		f->budget_evals = jnum(m, "budget_evals", 0);
		f->budget_seconds = jnum(m, "budget_seconds", 0);
		for (int i = 0; i < f->n_opp; i++)
			ms_ctx_mfree(f->ctx, f->opp[i]);
		f->n_opp = 0;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(m, "opponents"))
		{
			if (f->n_opp == OPP_MAX || !cJSON_IsString(v))
				continue;
			if (!(f->opp[f->n_opp] = ms_ctx_strdup(f->ctx, v->valuestring))) {
				rc = MS_ENOMEM;
				break;
			}
			memset(f->vs[f->n_opp++], -1, sizeof(f->vs[0]));
		}
		cJSON_Delete(m);
		return rc;
	}
	double t = jnum(m, "t", 0), e = jnum(m, "evals", 0), best = jnum(m, "best", -1);
	f->fraction = jnum(m, "fraction", f->fraction);
	f->seconds = t > f->seconds ? t : f->seconds;
	f->evals = (long long)e > f->evals ? (long long)e : f->evals;
	f->best = best > f->best ? best : f->best;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(m, "vs"))
	{
		if (k >= f->n_opp)
			break;
		for (int j = 0; j < 3; j++) {
			const cJSON *x = cJSON_GetArrayItem(v, j);
			f->vs[k][j] = cJSON_GetArraySize(v) == 3 && cJSON_IsNumber(x) ? (int)x->valuedouble : -1;
		}
		k++;
	}
	k = 0;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(m, "ranks"))
	{
		if (k == RANK_MAX || cJSON_GetArraySize(v) != 3)
			continue;
		for (int j = 0; j < 3; j++)
			f->ranks[k][j] = jnum_at(v, j);
		k++;
	}
	if (k)
		f->n_ranks = k;
	cJSON_Delete(m);
	return 0;
}

/* selfplay --csv: "iteration,seconds,search_psi,vs_fixed,evals_psi,population". */
static int selfplay_line(view_follow *f, const char *l)
{
	double v[5];
	int at = 0;

	if (sscanf(l, "%lf,%lf,%lf,%lf,%lf,%n", &v[0], &v[1], &v[2], &v[3], &v[4], &at) != 5 || at <= 0)
		return 0;
	double *row = ms_vec_reserve(f->ctx, &f->iters, f->iters.n + 1) ? NULL : f->iters.v[f->iters.n++].v;
	if (!row)
		return MS_ENOMEM;
	memcpy(row, v, sizeof(v));
	ms_ctx_mfree(f->ctx, f->population);
	f->population = ms_ctx_strdup(f->ctx, l + at);
	f->changed = 1;
	return f->population ? 0 : MS_ENOMEM;
}

/* A program file, read whole again when its size or time changed (it is rewritten, not appended to). */
static int poll_text(view_follow *f, ff_file *ff)
{
	struct stat st;
	FILE *fp;
	char *text;
	size_t got;

	if (stat(ff->path, &st))
		return 0;
	long long mt = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	if ((long long)st.st_size == ff->size && mt == ff->mtime_ns && ff->text)
		return 0;
	if (!(fp = fopen(ff->path, "rb")))
		return 0;
	if (!(text = ms_ctx_malloc(f->ctx, TEXT_MAX + 1))) {
		fclose(fp);
		return MS_ENOMEM;
	}
	got = fread(text, 1, TEXT_MAX, fp);
	fclose(fp);
	text[got] = '\0';
	ms_ctx_mfree(f->ctx, ff->text);
	ff->text = ms_ctx_strdup(f->ctx, text);
	ms_ctx_mfree(f->ctx, text);
	ff->size = (long long)st.st_size;
	ff->mtime_ns = mt;
	f->changed = 1;
	return ff->text ? 0 : MS_ENOMEM;
}

static int kind_of(const char *first)
{
	return !strncmp(first, "seconds,", 8)				? F_CSV
	       : !strncmp(first, "microsynth-synth-checkpoint", 27) ? F_CKPT
	       : !strncmp(first, "{\"progress\"", 11)		? F_PROGRESS
	       : !strncmp(first, "iteration,seconds,", 18)	? F_SELFPLAY
	       : first[0] == '#'				? F_TEXT
								: F_OTHER;
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
	if (ff->kind == F_TEXT) {
		fclose(fp);
		return poll_text(f, ff);
	}
	if (fseek(fp, 0, SEEK_END) == 0 && ftell(fp) < ff->offset) {
		/* the file was started afresh */
		ff->offset = 0;
		ff->part.len = 0;
		ff->in_body = 0;
		ff->kind = F_WAIT;
	}
	fseek(fp, ff->offset, SEEK_SET);
	while (!rc && ff->kind != F_TEXT && (got = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
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
			if (ff->kind == F_WAIT && (ff->kind = kind_of(ff->part.data)) == F_PROGRESS)
				rc = progress_line(f, ff->part.data);
			else if (ff->kind == F_TEXT)
				break;
			else if (ff->kind == F_PROGRESS)
				rc = progress_line(f, ff->part.data);
			else if (ff->kind == F_SELFPLAY)
				rc = selfplay_line(f, ff->part.data);
			else if (ff->kind == F_CSV)
				rc = csv_line(f, ff->part.data);
			else if (ff->kind == F_CKPT)
				rc = ckpt_line(f, ff, ff->part.data);
			ff->part.len = 0;
			ff->part.data[0] = '\0';
		}
	}
	fclose(fp);
	return !rc && ff->kind == F_TEXT ? poll_text(f, ff) : rc;
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

/* The budget, the ETA and the best's W/D/L per opponent (null and [] without --progress-json). */
static int put_progress(const view_follow *f, ms_buf *b)
{
	double rate = recent_rate(f), eta = -1;
	int rc, known = 1;

	if (!f->have_progress)
		return ms_buf_puts(b, ",\"budget_evals\":null,\"budget_seconds\":null,\"eta\":null,\"opponents\":[],\"ranks\":[]");
	if (f->budget_evals > 0 && rate > 0)
		eta = ((double)f->budget_evals - (double)f->evals) / rate;
	else if (f->budget_seconds > 0)
		eta = f->budget_seconds - f->seconds;
	else
		known = 0;
	rc = ms_buf_printf(b, ",\"budget_evals\":%.0f,\"budget_seconds\":%.3f,\"fraction\":%.6f", f->budget_evals,
			   f->budget_seconds, f->fraction);
	if (!rc)
		rc = known ? ms_buf_printf(b, ",\"eta\":%.1f", eta > 0 ? eta : 0) : ms_buf_puts(b, ",\"eta\":null");
	if (!rc)
		rc = ms_buf_puts(b, ",\"opponents\":[");
	for (int k = 0; k < f->n_opp && !rc; k++) {
		rc = ms_buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
		if (!rc)
			rc = view_json_str(b, f->opp[k]);
		if (!rc && f->vs[k][0] < 0)
			rc = ms_buf_puts(b, ",\"w\":null,\"d\":null,\"l\":null}");
		else if (!rc)
			rc = ms_buf_printf(b, ",\"w\":%d,\"d\":%d,\"l\":%d}", f->vs[k][0], f->vs[k][1], f->vs[k][2]);
	}
	if (!rc)
		rc = ms_buf_puts(b, "],\"ranks\":[");
	for (int k = 0; k < f->n_ranks && !rc; k++)
		rc = ms_buf_printf(b, "%s{\"rank\":%.0f,\"tasks\":%.0f,\"eval_s\":%.3f}", k ? "," : "", f->ranks[k][0],
				   f->ranks[k][1], f->ranks[k][2]);
	return rc ? rc : ms_buf_puts(b, "]");
}

/* selfplay's iterations and the program files' texts. */
static int put_selfplay(const view_follow *f, ms_buf *b)
{
	int rc = put_series(b, "iterations", f->iters.v ? f->iters.v[0].v : NULL, f->iters.n, 5);
	if (!rc)
		rc = ms_buf_puts(b, ",\"population\":");
	if (!rc)
		rc = view_json_str(b, f->population);
	if (!rc)
		rc = ms_buf_puts(b, ",\"outputs\":[");
	for (int i = 0, k = 0; i < f->n && !rc; i++) {
		if (f->f[i].kind != F_TEXT || !f->f[i].text)
			continue;
		rc = ms_buf_puts(b, k++ ? ",{\"path\":" : "{\"path\":");
		if (!rc)
			rc = view_json_str(b, f->f[i].path);
		if (!rc)
			rc = ms_buf_puts(b, ",\"text\":");
		if (!rc)
			rc = view_json_str(b, f->f[i].text);
		if (!rc)
			rc = ms_buf_puts(b, "}");
	}
	return rc ? rc : ms_buf_puts(b, "]");
}

int view_follow_poll(view_follow *f, int force, ms_buf *b, int *changed)
{
	static const char *const kinds[] = { "waiting", "csv", "checkpoint", "unknown", "progress", "selfplay", "program" };
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
		rc = put_progress(f, b);
	if (!rc)
		rc = put_selfplay(f, b);
	if (!rc)
		rc = ms_buf_puts(b, "}");
	if (rc)
		return ms_ctx_error(f->ctx, rc, "follow: out of memory");
	*changed = 1;
	return 0;
}
