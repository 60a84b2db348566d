/*
 * microsynth pregame: the drop-in bot's pre-game search (ms_rts_pregame)
 * from the command line, on a map file: the same stages, field and
 * switch as in a tournament's preGameAnalysis, so a user can see what the
 * bot would make of a map, and keep it, without the Java harness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/microrts.h"
#include "microsynth/rts_synth.h"
#include "microsynth/buf.h"
#include "cli.h"
#include "edition.h"

#define CMD "pregame"
#define MAX_FILES 256
#define MAX_FIELD 16

void cmd_pregame_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth pregame --map MAP (--seconds S | --evals N) [--threads K] [--seed S]\n"
		"                          [--candidate FILE ...] [--index FILE] [--field BOT,BOT,...]\n"
		"                          [--max-cycles N] [--edition 2022|2023] [--stochastic X]\n"
		"                          [--cases X] [--max-cases N] [--switch-cycle K] [--opponent-seeds K]\n"
		"                          [--archetypes 0|1] [-o OUT]\n\n"
		"Runs the drop-in bot's pre-game search on MAP (docs/competition.md): the candidates\n"
		"(program or switch files; --index adds every program: line of a program index, as\n"
		"the bot screens them), then the library's plain rushes (--archetypes 1, the default;\n"
		"start=I counts them after the candidates) are scored against the native field (default: CoacAI, mayari,\n"
		"TMA and the four rushes), SA starts from the best, a stochastic stage (--stochastic,\n"
		"share of the budget, default 0.2) lets CoacAI and mayari draw (--opponent-seeds per\n"
		"seat, default 2; also the check's), and the opponents the\n"
		"program still loses to get case programs (--cases, default 0.3; --max-cases 4,\n"
		"--switch-cycle 150), kept as an opponent switch when it wins more of the check games.\n"
		"--evals N is reproducible for any --threads; --seconds is the bot's budget. -o OUT\n"
		"receives the switch or the program (play it as switch:OUT or program:OUT). Last line:\n"
		"psi=X stochastic_psi=Y start=I start_psi=Z evals=N case_evals=M seconds=T\n"
		"check_games=G check_program=A check_switch=B switch=0|1 cases=C switch_cycle=K\n");
}

/* Adds every `program:PATH` of an index (paths relative to its folder) to files[]. */
static int index_programs(const char *index, char **files, int *n)
{
	char *text = cli_read_text(CMD, index, NULL), *line, *save = NULL;
	const char *slash = strrchr(index, '/');
	int dir = slash ? (int)(slash - index) : -1;
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(line, "program:"), *hash = strchr(line, '#');
		if (!p || (hash && hash < p))
			continue;
		p += strlen("program:");
		size_t len = strcspn(p, " \t\r");
		if (*n == MAX_FILES) {
			free(text);
			return cli_usage_error(CMD, "more than %d candidates", MAX_FILES);
		}
		int need = snprintf(NULL, 0, "%.*s/%.*s", dir, index, (int)len, p);
		if (!(files[*n] = malloc((size_t)need + 1))) {
			free(text);
			return -1;
		}
		if (dir >= 0)
			snprintf(files[*n], (size_t)need + 1, "%.*s/%.*s", dir, index, (int)len, p);
		else
			snprintf(files[*n], (size_t)need + 1, "%.*s", (int)len, p);
		(*n)++;
	}
	free(text);
	return 0;
}

typedef struct pg_args {
	const char *map, *out, *field[MAX_FIELD];
	char *files[MAX_FILES], *field_copy;
	int n_files, n_field, edition;
	long evals, threads, seed, cycles, max_cases, sw_cycle, seeds, archetypes;
	double seconds, stochastic, cases;
} pg_args;

static void free_args(pg_args *a)
{
	for (int i = 0; i < a->n_files; i++)
		free(a->files[i]);
	free(a->field_copy);
}

/* --field's comma-separated bots into a->field (pointing into a copy). */
static int parse_field(pg_args *a, const char *v)
{
	free(a->field_copy);
	a->n_field = 0;
	if (!(a->field_copy = strdup(v)))
		return CLI_FAIL;
	for (char *s = NULL, *t = strtok_r(a->field_copy, ",", &s); t; t = strtok_r(NULL, ",", &s)) {
		if (a->n_field == MAX_FIELD)
			return cli_usage_error(CMD, "--field: more than %d bots", MAX_FIELD);
		a->field[a->n_field++] = t;
	}
	return CLI_OK;
}

/* One option and its value; CLI_OK, CLI_USAGE or CLI_FAIL. */
static int parse_option(pg_args *a, const char *o, const char *v)
{
	if (!strcmp(o, "--map"))
		a->map = v;
	else if (!strcmp(o, "-o"))
		a->out = v;
	else if (!strcmp(o, "--candidate")) {
		if (a->n_files == MAX_FILES)
			return cli_usage_error(CMD, "more than %d candidates", MAX_FILES);
		if (!(a->files[a->n_files++] = strdup(v)))
			return CLI_FAIL;
	} else if (!strcmp(o, "--index")) {
		int rc = index_programs(v, a->files, &a->n_files);
		return rc < 0 ? CLI_FAIL : rc;
	} else if (!strcmp(o, "--field"))
		return parse_field(a, v);
	else if (!strcmp(o, "--seconds"))
		return cli_parse_real(CMD, o, v, 0, 1e7, 1, &a->seconds) ? CLI_USAGE : CLI_OK;
	else if (!strcmp(o, "--stochastic"))
		return cli_parse_real(CMD, o, v, 0, 1, 0, &a->stochastic) ? CLI_USAGE : CLI_OK;
	else if (!strcmp(o, "--cases"))
		return cli_parse_real(CMD, o, v, 0, 1, 0, &a->cases) ? CLI_USAGE : CLI_OK;
	else if (!strcmp(o, "--edition"))
		return edition_arg(CMD, v, &a->edition) ? CLI_USAGE : CLI_OK;
	else {
		long *dst = !strcmp(o, "--evals")	     ? &a->evals
			    : !strcmp(o, "--threads")	     ? &a->threads
			    : !strcmp(o, "--seed")	     ? &a->seed
			    : !strcmp(o, "--max-cycles")   ? &a->cycles
			    : !strcmp(o, "--max-cases")    ? &a->max_cases
			    : !strcmp(o, "--switch-cycle") ? &a->sw_cycle
			    : !strcmp(o, "--opponent-seeds") ? &a->seeds
			    : !strcmp(o, "--archetypes")   ? &a->archetypes
							   : NULL;
		if (!dst)
			return cli_usage_error(CMD, "unknown option '%s'", o);
		return cli_parse_int(CMD, o, v, 0, dst == &a->archetypes ? 1 : 100000000L, dst) ? CLI_USAGE : CLI_OK;
	}
	return CLI_OK;
}

static int parse_args(int argc, char **argv, pg_args *a)
{
	int rc;
	memset(a, 0, sizeof *a);
	a->edition = -1;
	a->threads = 1;
	a->seed = 1;
	a->max_cases = 4;
	a->sw_cycle = 150;
	a->seeds = 2;
	a->archetypes = 1;
	a->stochastic = 0.2;
	a->cases = 0.3;
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			return cli_usage_error(CMD, "%s needs a value", argv[i]);
		if ((rc = parse_option(a, argv[i], argv[i + 1])))
			return rc;
	}
	if (!a->map || (!(a->seconds > 0) && a->evals <= 0))
		return cli_usage_error(CMD, "--map and a budget (--seconds or --evals) are required");
	return CLI_OK;
}

/* The per-bot check and the summary line; the answer to a->out (else stdout). */
static int report(const pg_args *a, const ms_rts_pregame_result *r)
{
	for (int k = 0; k < MS_RTS_PREGAME_BOTS; k++)
		if (r->bot[k].games)
			printf("check %s: %d games, program %g, case %s%g%s\n", r->bot[k].name, r->bot[k].games,
			       r->bot[k].program, r->bot[k].case_score < 0 ? "none " : "", r->bot[k].case_score,
			       r->bot[k].in_switch ? " (in the switch)" : "");
	const char *answer = r->switch_text ? r->switch_text : r->program;
	if (a->out) {
		FILE *f = fopen(a->out, "wb");
		if (!f || fprintf(f, "# microsynth pregame: map %s, %s, psi %.6g (stochastic stage %.6g), %lld evaluations "
				  "in %.0f s, check %d games: program %g, switch %g\n%s\n", a->map,
				  r->switch_text ? "an opponent switch" : "a program", r->psi, r->stochastic_psi, r->evals,
				  r->seconds, r->check_games, r->check_program, r->check_switch, answer) < 0 || fclose(f)) {
			fprintf(stderr, "%s: cannot write %s\n", CMD, a->out);
			return CLI_FAIL;
		}
	} else
		printf("%s\n", answer);
	printf("psi=%.6f stochastic_psi=%.6f start=%d start_psi=%.6f evals=%lld case_evals=%lld seconds=%.1f "
	       "check_games=%d check_program=%g check_switch=%g switch=%d cases=%d switch_cycle=%d\n",
	       r->psi, r->stochastic_psi, r->start, r->start_psi, r->evals, r->case_evals, r->seconds, r->check_games,
	       r->check_program, r->check_switch, r->switch_text != NULL, r->cases, r->switch_cycle);
	return CLI_OK;
}

int cmd_pregame(int argc, char **argv)
{
	pg_args a;
	char *texts[MAX_FILES], path[4096];
	int ret = CLI_FAIL;
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_rts_state *first = NULL;
	ms_rts_pregame_options o;
	ms_rts_pregame_result r;

	memset(texts, 0, sizeof texts);
	memset(&r, 0, sizeof r);
	if ((ret = parse_args(argc, argv, &a)))
		goto done;
	ret = CLI_FAIL;
	if (cli_resolve_map(a.map, path, sizeof path)) {
		ret = cli_usage_error(CMD, "map '%s' not found (as a path or in the harness cache)", a.map);
		goto done;
	}
	for (int i = 0; i < a.n_files; i++)
		if (!(texts[i] = cli_read_text(CMD, a.files[i], NULL)))
			goto done;
	if (a.edition < 0)
		a.edition = edition_of_harness(NULL);
	if (ms_ctx_new(&ctx, NULL))
		goto done;
	if (ms_rts_utt_new(ctx, &utt, 2, 1) || ms_rts_state_load_map(ctx, &first, utt, path, 0)) {
		fprintf(stderr, "%s: %s\n", CMD, ms_ctx_last_error(ctx));
		goto done;
	}
	ms_rts_pregame_options_init(&o, MS_RTS_PREGAME_OPTIONS_VERSION);
	o.seconds = a.seconds;
	o.max_evals = a.evals;
	o.threads = (int)a.threads;
	o.seed = (uint64_t)a.seed;
	o.max_cycles = (int)a.cycles;
	o.edition = a.edition;
	o.stochastic_share = a.stochastic;
	o.case_share = a.cases;
	o.max_cases = (int)a.max_cases;
	o.switch_cycle = (int)a.sw_cycle;
	o.opponent_seeds = (int)a.seeds;
	o.archetypes = (int)a.archetypes;
	o.candidates = (const char *const *)texts;
	o.n_candidates = a.n_files;
	if (a.n_field) {
		o.field = a.field;
		o.n_field = a.n_field;
	}
	if (ms_rts_pregame(ctx, first, &o, &r)) {
		fprintf(stderr, "%s: %s\n", CMD, ms_ctx_last_error(ctx));
		goto done;
	}
	ret = report(&a, &r);
done:
	if (ctx) {
		ms_ctx_mfree(ctx, r.program);
		ms_ctx_mfree(ctx, r.switch_text);
	}
	for (int i = 0; i < MAX_FILES; i++)
		free(texts[i]);
	free_args(&a);
	ms_rts_state_free(first);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return ret;
}
