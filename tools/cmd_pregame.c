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
#include "core/buf.h"
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
		"                          [--cases X] [--max-cases N] [--switch-cycle K] [-o OUT]\n\n"
		"Runs the drop-in bot's pre-game search on MAP (docs/competition.md): the candidates\n"
		"(program or switch files; --index adds every program: line of a program index, as\n"
		"the bot screens them) are scored against the native field (default: CoacAI, mayari,\n"
		"TMA and the four rushes), SA starts from the best, a stochastic stage (--stochastic,\n"
		"share of the budget, default 0.2) lets CoacAI and mayari draw, and the opponents the\n"
		"program still loses to get case programs (--cases, default 0.3; --max-cases 4,\n"
		"--switch-cycle 150), kept as an opponent switch when it wins more of the check games.\n"
		"--evals N is reproducible for any --threads; --seconds is the bot's budget. -o OUT\n"
		"receives the switch or the program (play it as switch:OUT or program:OUT). Last line:\n"
		"psi=X stochastic_psi=Y start=I start_psi=Z evals=N case_evals=M seconds=T\n"
		"check_games=G check_program=A check_switch=B switch=0|1 cases=C switch_cycle=K\n");
}

/* A file's text on the heap (NUL-terminated), or NULL with a message. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *t = NULL;
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (16L << 20) || fseek(f, 0, SEEK_SET) ||
	    !(t = malloc((size_t)n + 1)) || fread(t, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: cannot read %s\n", CMD, path);
		free(t);
		t = NULL;
	} else
		t[n] = 0;
	if (f)
		fclose(f);
	return t;
}

/* Adds every `program:PATH` of an index (paths relative to its folder) to files[]. */
static int index_programs(const char *index, char **files, int *n)
{
	char *text = read_text(index), *line, *save = NULL;
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

int cmd_pregame(int argc, char **argv)
{
	const char *map = NULL, *out = NULL, *field[MAX_FIELD];
	char *files[MAX_FILES], *texts[MAX_FILES], *field_copy = NULL, path[4096];
	int n_files = 0, n_field = 0, ret = CLI_FAIL, edition = -1;
	long evals = 0, threads = 1, seed = 1, cycles = 0, max_cases = 4, sw_cycle = 150;
	double seconds = 0, stochastic = 0.2, cases = 0.3;
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_rts_state *first = NULL;
	ms_rts_pregame_opts o;
	ms_rts_pregame_result r;

	memset(texts, 0, sizeof texts);
	memset(&r, 0, sizeof r);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v) {
			ret = cli_usage_error(CMD, "%s needs a value", a);
			goto done;
		}
		i++;
		if (!strcmp(a, "--map"))
			map = v;
		else if (!strcmp(a, "-o"))
			out = v;
		else if (!strcmp(a, "--candidate")) {
			if (n_files == MAX_FILES) {
				ret = cli_usage_error(CMD, "more than %d candidates", MAX_FILES);
				goto done;
			}
			if (!(files[n_files++] = strdup(v)))
				goto done;
		} else if (!strcmp(a, "--index")) {
			if ((ret = index_programs(v, files, &n_files)) != 0) {
				ret = ret < 0 ? CLI_FAIL : ret;
				goto done;
			}
			ret = CLI_FAIL;
		} else if (!strcmp(a, "--field")) {
			free(field_copy);
			n_field = 0;
			if (!(field_copy = strdup(v)))
				goto done;
			for (char *s = NULL, *t = strtok_r(field_copy, ",", &s); t; t = strtok_r(NULL, ",", &s)) {
				if (n_field == MAX_FIELD) {
					ret = cli_usage_error(CMD, "--field: more than %d bots", MAX_FIELD);
					goto done;
				}
				field[n_field++] = t;
			}
		} else if (!strcmp(a, "--seconds")) {
			if (cli_parse_real(CMD, a, v, 0, 1e7, 1, &seconds))
				goto usage;
		} else if (!strcmp(a, "--stochastic")) {
			if (cli_parse_real(CMD, a, v, 0, 1, 0, &stochastic))
				goto usage;
		} else if (!strcmp(a, "--cases")) {
			if (cli_parse_real(CMD, a, v, 0, 1, 0, &cases))
				goto usage;
		} else if (!strcmp(a, "--edition")) {
			if (edition_arg(CMD, v, &edition))
				goto usage;
		} else {
			long *dst = !strcmp(a, "--evals")	     ? &evals
				    : !strcmp(a, "--threads")	     ? &threads
				    : !strcmp(a, "--seed")	     ? &seed
				    : !strcmp(a, "--max-cycles")   ? &cycles
				    : !strcmp(a, "--max-cases")    ? &max_cases
				    : !strcmp(a, "--switch-cycle") ? &sw_cycle
								   : NULL;
			if (!dst) {
				ret = cli_usage_error(CMD, "unknown option '%s'", a);
				goto done;
			}
			if (cli_parse_int(CMD, a, v, 0, 100000000L, dst)) {
				ret = CLI_USAGE;
				goto done;
			}
		}
	}
	if (!map || (!(seconds > 0) && evals <= 0)) {
		ret = cli_usage_error(CMD, "--map and a budget (--seconds or --evals) are required");
		goto done;
	}
	if (cli_resolve_map(map, path, sizeof path)) {
		ret = cli_usage_error(CMD, "map '%s' not found (as a path or in the harness cache)", map);
		goto done;
	}
	for (int i = 0; i < n_files; i++)
		if (!(texts[i] = read_text(files[i])))
			goto done;
	if (edition < 0)
		edition = edition_of_harness(NULL);
	if (ms_ctx_new(&ctx, NULL))
		goto done;
	if (ms_rts_utt_new(ctx, &utt, 2, 1) || ms_rts_state_load_map(ctx, &first, utt, path, 0)) {
		fprintf(stderr, "%s: %s\n", CMD, ms_ctx_last_error(ctx));
		goto done;
	}
	ms_rts_pregame_opts_init(&o);
	o.seconds = seconds;
	o.max_evals = evals;
	o.threads = (int)threads;
	o.seed = (uint64_t)seed;
	o.max_cycles = (int)cycles;
	o.edition = edition;
	o.stochastic_share = stochastic;
	o.case_share = cases;
	o.max_cases = (int)max_cases;
	o.switch_cycle = (int)sw_cycle;
	o.candidates = (const char *const *)texts;
	o.n_candidates = n_files;
	if (n_field) {
		o.field = field;
		o.n_field = n_field;
	}
	if (ms_rts_pregame(ctx, first, &o, &r)) {
		fprintf(stderr, "%s: %s\n", CMD, ms_ctx_last_error(ctx));
		goto done;
	}
	for (int k = 0; k < MS_RTS_PREGAME_BOTS; k++)
		if (r.bot[k].games)
			printf("check %s: %d games, program %g, case %s%g%s\n", r.bot[k].name, r.bot[k].games,
			       r.bot[k].program, r.bot[k].case_score < 0 ? "none " : "", r.bot[k].case_score,
			       r.bot[k].in_switch ? " (in the switch)" : "");
	const char *answer = r.switch_text ? r.switch_text : r.program;
	if (out) {
		FILE *f = fopen(out, "wb");
		if (!f || fprintf(f, "# microsynth pregame: map %s, %s, psi %.6g, check %d games: program %g, switch %g\n%s\n",
				  map, r.switch_text ? "an opponent switch" : "a program", r.psi, r.check_games,
				  r.check_program, r.check_switch, answer) < 0 || fclose(f)) {
			fprintf(stderr, "%s: cannot write %s\n", CMD, out);
			goto done;
		}
	} else
		printf("%s\n", answer);
	printf("psi=%.6f stochastic_psi=%.6f start=%d start_psi=%.6f evals=%lld case_evals=%lld seconds=%.1f "
	       "check_games=%d check_program=%g check_switch=%g switch=%d cases=%d switch_cycle=%d\n",
	       r.psi, r.stochastic_psi, r.start, r.start_psi, r.evals, r.case_evals, r.seconds, r.check_games,
	       r.check_program, r.check_switch, r.switch_text != NULL, r.cases, r.switch_cycle);
	ret = CLI_OK;
	goto done;
usage:
	ret = CLI_USAGE;
done:
	if (ctx) {
		ms_ctx_mfree(ctx, r.program);
		ms_ctx_mfree(ctx, r.switch_text);
	}
	for (int i = 0; i < n_files; i++) {
		free(files[i]);
		free(texts[i]);
	}
	free(field_copy);
	ms_rts_state_free(ctx, first);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return ret;
}
