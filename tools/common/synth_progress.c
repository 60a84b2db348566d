/* synth --progress-json (tools/common/synth_progress.h). */
#include "synth_progress.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "core/json.h"
#include "synth_mpi.h"

#define MAX_RANKS SYNTH_MPI_MAX_RANKS

/* The first line: the budget, maps and opponents (cJSON writes the strings). */
static int write_head(synth_progress *p, const synth_progress_head *h)
{
	/* cJSON makes no array of no strings */
	cJSON *o = cJSON_CreateObject(), *maps = h->n_maps ? cJSON_CreateStringArray(h->maps, h->n_maps) : cJSON_CreateArray(),
	      *opps = h->n_opponents ? cJSON_CreateStringArray(h->opponents, h->n_opponents) : cJSON_CreateArray();
	char *text = NULL;
	int rc = MS_ENOMEM;

	if (o && maps && opps && cJSON_AddNumberToObject(o, "progress", 1) &&
	    cJSON_AddStringToObject(o, "game", h->game) && cJSON_AddStringToObject(o, "algo", h->algo) &&
	    cJSON_AddNumberToObject(o, "seed", (double)h->seed) &&
	    cJSON_AddNumberToObject(o, "budget_evals", (double)h->evals) &&
	    cJSON_AddNumberToObject(o, "budget_seconds", h->seconds)) {
		cJSON_AddItemToObject(o, "maps", maps);
		cJSON_AddItemToObject(o, "opponents", opps);
		maps = opps = NULL;
		if (!(rc = ms_json_print(p->ctx, o, &text)))
			fprintf(p->f, "%s\n", text);
	}
	ms_ctx_mfree(p->ctx, text);
	cJSON_Delete(maps);
	cJSON_Delete(opps);
	cJSON_Delete(o);
	return rc;
}

/* Under MPI, rank 0's account of each serving rank: [rank, tasks, seconds evaluating]. */
static void write_ranks(FILE *f)
{
	long long tasks[MAX_RANKS];
	double secs[MAX_RANKS];
	int n = synth_mpi_rank_work(tasks, secs, MAX_RANKS);

	if (n <= 0)
		return;
	fputs(",\"ranks\":[", f);
	for (int r = 0; r < n; r++)
		fprintf(f, "%s[%d,%lld,%.3f]", r ? "," : "", r + 1, tasks[r], secs[r]);
	fputs("]", f);
}

static int write_line(void *ud, const ms_synth_stats *st)
{
	synth_progress *p = ud;
	int stop = p->next ? p->next(p->next_ud, st) : 0;
	const ms_dsl_prog *best = *p->s ? ms_synth_best(*p->s, MS_SYNTH_PSI) : NULL;

	p->pending |= st->improved && st->last_kind == MS_SYNTH_PSI;
	if (!p->pending || st->replaying || !best)
		return stop;
	p->pending = 0;
	fprintf(p->f, "{\"t\":%.3f,\"evals\":%lld,\"fraction\":%.6f,\"best\":%.6f,\"vs\":[", st->elapsed,
		st->evals_psi, st->fraction, st->best_psi);
	for (int k = 0; p->vs && k < p->n_vs; k++) {
		int wdl[3];
		if (p->vs(p->vs_ud, best, k, wdl) < 0)
			fprintf(p->f, "%snull", k ? "," : "");
		else
			fprintf(p->f, "%s[%d,%d,%d]", k ? "," : "", wdl[0], wdl[1], wdl[2]);
	}
	fputs("]", p->f);
	write_ranks(p->f);
	fputs("}\n", p->f);
	fflush(p->f);
	return stop;
}

int synth_progress_open(synth_progress *p, const char *cmd, const char *path, const synth_progress_head *h,
			ms_synth_options *so, ms_synth *const *s)
{
	memset(p, 0, sizeof *p);
	p->vs = h->vs, p->vs_ud = h->vs_ud, p->n_vs = h->vs ? h->n_opponents : 0;
	if (!path || synth_mpi_rank() > 0)
		return CLI_OK;
	if (ms_ctx_new(&p->ctx, NULL))
		return CLI_FAIL;
	if (!(p->f = fopen(path, "a"))) {
		fprintf(stderr, "microsynth %s: --progress-json %s: cannot open for appending\n", cmd, path);
		return CLI_USAGE;
	}
	if (ftell(p->f) == 0) {
		if (write_head(p, h)) {
			fprintf(stderr, "microsynth %s: --progress-json: out of memory\n", cmd);
			return CLI_FAIL;
		}
		fflush(p->f);
	}
	p->s = s;
	p->next = so->progress;
	p->next_ud = so->progress_ud;
	so->progress = write_line;
	so->progress_ud = p;
	return CLI_OK;
}

void synth_progress_close(synth_progress *p)
{
	if (p->f)
		fclose(p->f);
	p->f = NULL;
	ms_ctx_free(p->ctx);
	p->ctx = NULL;
}
