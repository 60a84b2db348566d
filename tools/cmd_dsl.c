/*
 * microsynth dsl: the MicroRTS strategy DSL from the command line.
 *   check FILE...            parse, print the Java one-line and the indented form
 *   convert --to FORM FILE   print in java, pretty or salve form
 *   random --seed S --count N [--budget B] [--form FORM]
 *   mutate --seed S --count N FILE   print N successive SA neighbours
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/rts_dsl.h"
#include "cli.h"

void cmd_dsl_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth dsl check [--not] [--holes] [--unbound] FILE...\n"
		"       microsynth dsl convert --to java|pretty|salve [--not] [--holes] [--unbound] FILE\n"
		"       microsynth dsl random [--seed S] [--count N] [--budget B] [--form FORM]\n"
		"       microsynth dsl mutate [--seed S] [--count N] FILE\n\n"
		"The MicroRTS strategy DSL (dialect A of spec/dsl.md). Programs are read in\n"
		"any text form: the Java one-line form, the indented form, the paper form\n"
		"(for(u){...}, if(B) S, ';') or the salve token form (S;For_S;...).\n"
		"check prints each program's Java one-line form and indented form, or the\n"
		"error with its line and column. --not accepts the `not B` extension (not\n"
		"runnable by the Java reference); --holes accepts sketch holes (S, C, B, T, N,\n"
		"D, Op, Tp); --unbound accepts commands outside any for loop (the reference\n"
		"interpreter throws there at run time).\n"
		"random prints N programs of the reference sampler (budget B, default drawn\n"
		"in 1..9 per program, as the synthesizers do); mutate prints N successive\n"
		"simulated-annealing neighbours of FILE (SL's mutation).\n"
		"Last line: check: ok=N failed=M; the others: programs=N.\n");
}

static int form_of(const char *s)
{
	if (!strcmp(s, "java"))
		return MS_RTS_DSL_FORM_JAVA;
	if (!strcmp(s, "pretty") || !strcmp(s, "indented"))
		return MS_RTS_DSL_FORM_PRETTY;
	if (!strcmp(s, "salve") || !strcmp(s, "tokens"))
		return MS_RTS_DSL_FORM_SALVE;
	return -1;
}

typedef struct dsl_args {
	unsigned flags;
	long seed, count, budget;
	int form;
	int first; /* first operand */
} dsl_args;

static int parse_args(int argc, char **argv, dsl_args *a)
{
	a->flags = 0;
	a->seed = 0;
	a->count = 10;
	a->budget = 0;
	a->form = MS_RTS_DSL_FORM_JAVA;
	a->first = argc;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--not"))
			a->flags |= MS_RTS_DSL_PARSE_NOT;
		else if (!strcmp(o, "--holes"))
			a->flags |= MS_RTS_DSL_PARSE_HOLES;
		else if (!strcmp(o, "--unbound"))
			a->flags |= MS_RTS_DSL_PARSE_UNBOUND;
		else if (!strcmp(o, "--seed")) {
			if (cli_parse_int("dsl", o, i + 1 < argc ? argv[++i] : NULL, -2147483647L, 2147483647L, &a->seed))
				return -1;
		} else if (!strcmp(o, "--count")) {
			if (cli_parse_int("dsl", o, i + 1 < argc ? argv[++i] : NULL, 0, 100000000L, &a->count))
				return -1;
		} else if (!strcmp(o, "--budget")) {
			if (cli_parse_int("dsl", o, i + 1 < argc ? argv[++i] : NULL, 0, 1000, &a->budget))
				return -1;
		} else if (!strcmp(o, "--to") || !strcmp(o, "--form")) {
			if (i + 1 >= argc || (a->form = form_of(argv[++i])) < 0) {
				cli_usage_error("dsl", "%s expects java, pretty or salve", o);
				return -1;
			}
		} else if (o[0] == '-' && o[1]) {
			cli_usage_error("dsl", "unknown option '%s'", o);
			return -1;
		} else {
			a->first = i;
			for (int j = i + 1; j < argc; j++)
				if (argv[j][0] == '-' && argv[j][1]) {
					cli_usage_error("dsl", "options go before the files ('%s')", argv[j]);
					return -1;
				}
			break;
		}
	}
	return 0;
}

static int print_form(ms_ctx *ctx, const ms_dsl_prog *p, int form)
{
	char *s = NULL;

	if (ms_rts_dsl_print(p, form, &s, NULL)) {
		fprintf(stderr, "microsynth dsl: %s\n", ms_ctx_last_error(ctx));
		return -1;
	}
	printf("%s\n", s);
	ms_ctx_mfree(ctx, s);
	return 0;
}

int cmd_dsl(int argc, char **argv)
{
	dsl_args a;
	ms_ctx *ctx = NULL;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;
	const char *sub = argc >= 2 ? argv[1] : NULL;
	int rc = CLI_OK;

	if (!sub)
		return cli_usage_error("dsl", "expected check, convert, random or mutate");
	if (strcmp(sub, "check") && strcmp(sub, "convert") && strcmp(sub, "random") && strcmp(sub, "mutate"))
		return cli_usage_error("dsl", "unknown subcommand '%s'", sub);
	if (parse_args(argc, argv, &a))
		return CLI_USAGE;
	if ((!strcmp(sub, "check") || !strcmp(sub, "convert") || !strcmp(sub, "mutate")) && a.first >= argc)
		return cli_usage_error("dsl", "%s needs a program file", sub);
	if ((!strcmp(sub, "convert") || !strcmp(sub, "mutate")) && argc - a.first != 1)
		return cli_usage_error("dsl", "%s takes one program file", sub);
	if (!strcmp(sub, "random") && a.first < argc)
		return cli_usage_error("dsl", "random takes no file");
	if (ms_ctx_new(&ctx, NULL) ||
	    ms_rts_dsl_grammar_new(ctx, &g, (a.flags & MS_RTS_DSL_PARSE_NOT) ? MS_RTS_DSL_GRAMMAR_NOT : 0) ||
	    ms_dsl_prog_new(ctx, &p, g)) {
		fprintf(stderr, "microsynth dsl: %s\n", ctx ? ms_ctx_last_error(ctx) : "out of memory");
		rc = CLI_FAIL;
		goto done;
	}
	if (!strcmp(sub, "check")) {
		int ok = 0, failed = 0;
		for (int i = a.first; i < argc; i++) {
			if (ms_rts_dsl_parse_file(p, argv[i], a.flags)) {
				int st = ms_ctx_last_status(ctx);
				fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
				if (st == MS_EIO)
					rc = CLI_USAGE;
				failed++;
				continue;
			}
			ok++;
			printf("# %s\n", argv[i]);
			if (print_form(ctx, p, MS_RTS_DSL_FORM_JAVA) || print_form(ctx, p, MS_RTS_DSL_FORM_PRETTY)) {
				rc = CLI_FAIL;
				goto done;
			}
		}
		printf("ok=%d failed=%d\n", ok, failed);
		if (rc == CLI_OK && failed)
			rc = CLI_FAIL;
	} else if (!strcmp(sub, "convert")) {
		if (ms_rts_dsl_parse_file(p, argv[a.first], a.flags)) {
			fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
			rc = ms_ctx_last_status(ctx) == MS_EIO ? CLI_USAGE : CLI_FAIL;
			goto done;
		}
		if (print_form(ctx, p, a.form))
			rc = CLI_FAIL;
		else
			printf("programs=1\n");
	} else {
		ms_jrandom rng;
		ms_jrandom_init(&rng, a.seed);
		if (!strcmp(sub, "mutate") && ms_rts_dsl_parse_file(p, argv[a.first], a.flags)) {
			fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
			rc = ms_ctx_last_status(ctx) == MS_EIO ? CLI_USAGE : CLI_FAIL;
			goto done;
		}
		for (long k = 0; k < a.count; k++) {
			int r = !strcmp(sub, "random") ? ms_rts_dsl_generate(p, &rng, (int)a.budget)
						       : ms_rts_dsl_mutate(p, &rng, NULL);
			if (r || print_form(ctx, p, a.form)) {
				if (r)
					fprintf(stderr, "microsynth dsl: %s\n", ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
				goto done;
			}
		}
		printf("programs=%ld\n", a.count);
	}
done:
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
	return rc;
}
