/*
 * microsynth dsl: the MicroRTS strategy DSL from the command line.
 *   check FILE...            parse, print the Java one-line and the indented form
 *   convert --to FORM FILE   print in java, pretty or salve form
 *   random --seed S --count N [--budget B] [--form FORM]
 *   mutate --seed S --count N FILE   print N successive SA neighbours
 *   simplify FILE --map M --opponent B [-o OUT]   the program simplified, proved on the matches
 *   equal A B --map M --opponent B                 whether two programs play every match alike
 *   explain FILE --map M --opponent B [--html OUT] actions issued per line, opponent and seat
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/rts_dsl.h"
#include "cli.h"
#include "edition.h"
#include "svg.h"

void cmd_dsl_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth dsl check [--not] [--lld] [--holes] [--unbound] FILE...\n"
		"       microsynth dsl convert --to java|pretty|salve|salve-lld [--not] [--lld] [--holes] [--unbound] FILE\n"
		"       microsynth dsl random [--seed S] [--count N] [--budget B] [--form FORM]\n"
		"       microsynth dsl mutate [--seed S] [--count N] FILE\n"
		"       microsynth dsl simplify FILE --map MAP... --opponent BOT... [MATCH OPTIONS] [-o OUT] [--verbose]\n"
		"       microsynth dsl simplify --static FILE [--utt U] [-o OUT]\n"
		"       microsynth dsl equal A B --map MAP... --opponent BOT... [MATCH OPTIONS]\n"
		"       microsynth dsl explain FILE --map MAP... --opponent BOT... [MATCH OPTIONS] [--html OUT]\n\n"
		"The MicroRTS strategy DSL (dialect A of spec/dsl.md). Programs are read in\n"
		"any text form: the Java one-line form, the indented form, the paper form\n"
		"(for(u){...}, if(B) S, ';') or the salve token form (S;For_S;...).\n"
		"check prints each program's Java one-line form and indented form, or the\n"
		"error with its line and column. --not accepts the `not B` extension (not\n"
		"runnable by the Java reference); --holes accepts sketch holes (S, C, B, T, N,\n"
		"D, Op, Tp); --unbound accepts commands outside any for loop (the reference\n"
		"interpreter throws there at run time). --lld reads LLD Synthesis2's\n"
		"commands without a cap (build(T,D), train(T,D), harvest(), and their salve\n"
		"tokens without N) as the N value inf; --to salve-lld prints the tokens LLD's\n"
		"Control.load reads: no N after Build, Train and Harvest, whatever it was\n"
		"(docs/dsl-reference.md).\n"
		"random prints N programs of the reference sampler (budget B, default drawn\n"
		"in 1..9 per program, as the synthesizers do); mutate prints N successive\n"
		"simulated-annealing neighbours of FILE (SL's mutation).\n"
		"Last line: check: ok=N failed=M; the others: programs=N.\n\n"
		"simplify, equal and explain replay the matches `synth --game microrts` plays for one\n"
		"evaluation with the same options: every --map (repeatable) against every --opponent\n"
		"(repeatable; native bots or program:FILE), the program as player 0 and as player 1.\n"
		"MATCH OPTIONS: --max-cycles N (default: the competition's length for the map's size),\n"
		"--edition 2022|2023 (default: the harness's), --opponent-seeds K (CoacAI and mayari play\n"
		"seeds 1..K drawing as their jars do), --utt 1|2|3 (2), --conflict 1|2|3 (1).\n"
		"simplify removes statements, branches and loops and folds conditions, keeping a change\n"
		"only when every match issues the same unit actions on every cycle and ends the same;\n"
		"rules that need no match (commands no unit type there can carry out, conditions on u's\n"
		"type its enclosing conditions decide, counts of 0, e) go first. It prints the program\n"
		"(indented form; -o OUT writes it under a '#' header with the proof's figures; --verbose\n"
		"prints every refused change with the first cycle, unit and the two actions) and last\n"
		"  lines_before=L lines_after=L nodes_before=N nodes_after=N matches=M cycles_compared=C ...\n"
		"simplify --static applies only the rules that need no match: exact by the DSL's semantics,\n"
		"the program then issues the same unit actions as before in every state of any map against\n"
		"any opponent (the unit type table --utt aside); last line lines_before= lines_after=\n"
		"nodes_before= nodes_after= static=1.\n"
		"equal plays A's matches, then B's, comparing the actions at every cycle: exit 0 and\n"
		"equal=1 when every match is the same, exit 1 with the first cycle, unit and the two\n"
		"actions where they differ (equal=0 last).\n"
		"explain prints the program with, per line, the actions it issued against each opponent\n"
		"as player 0 and player 1 (summed over maps and seeds) and their total; a loop or an if\n"
		"shows what its body issued; 'never' marks lines that issued nothing. Last line:\n"
		"lines=L fired=F never=N matches=M actions=A. --html OUT also writes the table as a\n"
		"self-contained HTML page (lines that never fired greyed and struck through).\n"
		"Exit 2 for usage errors and bad input (a malformed program, an unknown map or opponent).\n");
}

static int form_of(const char *s)
{
	if (!strcmp(s, "java"))
		return MS_RTS_DSL_FORM_JAVA;
	if (!strcmp(s, "pretty") || !strcmp(s, "indented"))
		return MS_RTS_DSL_FORM_PRETTY;
	if (!strcmp(s, "salve") || !strcmp(s, "tokens"))
		return MS_RTS_DSL_FORM_SALVE;
	if (!strcmp(s, "salve-lld"))
		return MS_RTS_DSL_FORM_SALVE_LLD;
	return -1;
}

typedef struct dsl_args {
	unsigned flags;
	int lld; /* --lld: the grammar with LLD's inf */
	long seed, count, budget;
	int form;
	int first; /* first operand */
} dsl_args;

static int parse_args(int argc, char **argv, dsl_args *a)
{
	a->flags = 0;
	a->lld = 0;
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
		else if (!strcmp(o, "--lld"))
			a->lld = 1;
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
				cli_usage_error("dsl", "%s expects java, pretty, salve or salve-lld", o);
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

/* ---- simplify, equal, explain: programs on the evaluation's matches -------- */

#define MAX_LIST 64

typedef struct proof_args {
	const char *maps[MAX_LIST], *opps[MAX_LIST], *files[2];
	int n_maps, n_opps, n_files, verbose, static_only;
	long max_cycles, seeds, utt, conflict;
	int edition;
	unsigned flags;
	const char *out, *html;
} proof_args;

static int proof_parse(int argc, char **argv, proof_args *a, int want_files)
{
	const char *sub = argv[1];
	memset(a, 0, sizeof *a);
	a->edition = -1;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--verbose") && !strcmp(sub, "simplify")) {
			a->verbose = 1;
			continue;
		}
		if (!strcmp(o, "--static") && !strcmp(sub, "simplify")) {
			a->static_only = 1;
			continue;
		}
		if (!strcmp(o, "--not")) {
			a->flags |= MS_RTS_DSL_PARSE_NOT;
			continue;
		}
		if (!strcmp(o, "--unbound")) {
			a->flags |= MS_RTS_DSL_PARSE_UNBOUND;
			continue;
		}
		if (o[0] != '-' || !o[1]) {
			if (a->n_files == want_files)
				return cli_usage_error("dsl", "%s takes %s ('%s')", sub,
						       want_files == 1 ? "one program file" : "two program files", o);
			a->files[a->n_files++] = o;
			continue;
		}
		if (!v)
			return cli_usage_error("dsl", "%s needs a value", o);
		i++;
		if (!strcmp(o, "--map") || !strcmp(o, "--opponent")) {
			int is_map = o[2] == 'm';
			int *n = is_map ? &a->n_maps : &a->n_opps;
			if (*n == MAX_LIST)
				return cli_usage_error("dsl", "more than %d %s options", MAX_LIST, o);
			(is_map ? a->maps : a->opps)[(*n)++] = v;
		} else if (!strcmp(o, "-o") && !strcmp(sub, "simplify")) {
			a->out = v;
		} else if (!strcmp(o, "--html") && !strcmp(sub, "explain")) {
			a->html = v;
		} else if (!strcmp(o, "--edition")) {
			if (edition_arg("dsl", v, &a->edition))
				return CLI_USAGE;
		} else if (!strcmp(o, "--max-cycles")) {
			if (cli_parse_int("dsl", o, v, 1, 100000000L, &a->max_cycles))
				return CLI_USAGE;
		} else if (!strcmp(o, "--opponent-seeds")) {
			if (cli_parse_int("dsl", o, v, 1, 1000, &a->seeds))
				return CLI_USAGE;
		} else if (!strcmp(o, "--utt") || !strcmp(o, "--conflict")) {
			if (cli_parse_int("dsl", o, v, 1, 3, o[2] == 'u' ? &a->utt : &a->conflict))
				return CLI_USAGE;
		} else {
			return cli_usage_error("dsl", "%s: unknown option '%s'", sub, o);
		}
	}
	if (a->n_files != want_files)
		return cli_usage_error("dsl", "%s takes %s", sub, want_files == 1 ? "one program file" : "two program files");
	if (a->static_only) {
		/* no matches: nothing but the unit type table may be given */
		if (a->n_maps || a->n_opps || a->max_cycles || a->seeds || a->conflict || a->edition >= 0 || a->verbose)
			return cli_usage_error("dsl", "simplify --static plays no match: it takes no --map, --opponent, "
						      "--max-cycles, --opponent-seeds, --conflict, --edition or --verbose");
		return CLI_OK;
	}
	if (!a->n_maps)
		return cli_usage_error("dsl", "%s needs --map (the evaluation's maps)", sub);
	if (!a->n_opps)
		return cli_usage_error("dsl", "%s needs --opponent (the evaluation's opponents)", sub);
	if (a->edition < 0)
		a->edition = edition_of_harness(NULL);
	return CLI_OK;
}

/* Errors of bad input (files, maps, opponents, programs) exit 2; the rest 1. */
static int proof_fail(ms_ctx *ctx)
{
	int st = ms_ctx_last_status(ctx);
	fprintf(stderr, "microsynth dsl: %s\n", ms_ctx_last_error(ctx));
	return st == MS_EIO || st == MS_ENOTFOUND || st == MS_EPARSE || st == MS_EINVAL ? CLI_USAGE : CLI_FAIL;
}

static int proof_open(ms_ctx *ctx, const proof_args *a, ms_rts_proof **pr)
{
	ms_rts_proof_options o = { .version = MS_RTS_PROOF_OPTIONS_VERSION,
				.maps = a->maps,
				.n_maps = a->n_maps,
				.opponents = a->opps,
				.n_opponents = a->n_opps,
				.utt = (int)a->utt,
				.conflict = (int)a->conflict,
				.max_cycles = (int)a->max_cycles,
				.edition = a->edition,
				.opponent_seeds = (int)a->seeds };
	return ms_rts_proof_new(ctx, pr, &o);
}

/* One line naming the proof's matches, for headers and summaries. */
static void proof_describe(const ms_rts_proof *pr, const proof_args *a, char *buf, size_t size)
{
	size_t n = 0;
	ms_rts_proof_match mi;
	n += (size_t)snprintf(buf + n, size - n, "%d matches: maps", ms_rts_proof_count(pr));
	for (int i = 0; i < a->n_maps && n < size; i++) {
		int cycles = 0;
		for (int k = 0; k < ms_rts_proof_count(pr); k++)
			if (!ms_rts_proof_match_info(pr, k, &mi) && mi.map_index == i)
				cycles = mi.max_cycles;
		n += (size_t)snprintf(buf + n, size - n, "%s %s (%d cycles)", i ? "," : "", a->maps[i], cycles);
	}
	for (int k = 0; k < a->n_opps && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s %s", k ? "," : "; opponents", a->opps[k]);
	if (n < size)
		snprintf(buf + n, size - n, "; both seats; edition %s%s", edition_name(a->edition),
			 a->seeds >= 2 ? "; opponent seeds" : "");
}

/* The Java one-line form of statement `at`, cut to `size`. */
static void statement_text(const ms_dsl_prog *p, int at, char *buf, size_t size)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	ms_dsl_prog *t = NULL;
	char *s = NULL;
	int rc = ms_dsl_prog_new(ctx, &t, ms_dsl_prog_grammar(p));

	snprintf(buf, size, "node %d", at);
	for (int k = at; !rc && k < ms_dsl_prog_ends(p)[at]; k++)
		rc = ms_dsl_prog_push(t, ms_dsl_prog_nodes(p)[k]);
	if (!rc && !ms_dsl_prog_finish(t, ms_dsl_node_nt(p, at)) && !ms_dsl_print(t, &s, NULL)) {
		if (strlen(s) >= size && size > 4)
			snprintf(buf, size, "%.*s...", (int)size - 4, s);
		else
			snprintf(buf, size, "%s", s);
	}
	ms_ctx_mfree(ctx, s);
	ms_dsl_prog_free(t);
}

/* --verbose: each change replayed, with where it played differently */
static void verbose_log(void *ud, const ms_dsl_prog *p, int at, int keep, const ms_rts_proof_diff *diff)
{
	char what[96], into[96];
	(void)ud;
	statement_text(p, at, what, sizeof what);
	if (keep >= 0)
		statement_text(p, keep, into, sizeof into);
	if (keep < 0)
		fprintf(stderr, "%s: removing %s%s%s\n", diff ? "refused" : "kept", what, diff ? ": " : "",
			diff ? diff->message : "");
	else
		fprintf(stderr, "%s: %s in place of %s%s%s\n", diff ? "refused" : "kept", into, what, diff ? ": " : "",
			diff ? diff->message : "");
}

static int write_simplified(ms_ctx *ctx, const ms_dsl_prog *p, const char *path, const char *header)
{
	char *text = NULL;
	FILE *f;
	int ok;

	if (ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &text, NULL))
		return -1;
	if (!(f = fopen(path, "w"))) {
		ms_ctx_mfree(ctx, text);
		return ms_ctx_error(ctx, MS_EIO, "-o %s: cannot write", path);
	}
	for (const char *l = header; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		fprintf(f, "# %.*s\n", (int)n, l);
		l += n + (e != NULL);
	}
	fprintf(f, "%s\n", text);
	ms_ctx_mfree(ctx, text);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	return ok ? 0 : ms_ctx_error(ctx, MS_EIO, "-o %s: write failed", path);
}

/* The simplified program: to -o's file under its header, then on stdout; a CLI code. */
static int emit_simplified(ms_ctx *ctx, const ms_dsl_prog *p, const char *out, const char *header)
{
	if (out && write_simplified(ctx, p, out, header))
		return proof_fail(ctx);
	return print_form(ctx, p, MS_RTS_DSL_FORM_PRETTY) ? CLI_FAIL : CLI_OK;
}

/* simplify --static: the rules that need no match, on the unit type table alone. */
static int cmd_simplify_static(ms_ctx *ctx, ms_dsl_prog *p, const proof_args *a)
{
	ms_rts_utt *utt = NULL;
	int lines_before = 0, lines_after = 0, nodes_before, utt_v = a->utt ? (int)a->utt : 2, rc = CLI_OK;
	char header[2048];

	if (ms_rts_dsl_parse_file(p, a->files[0], a->flags) || ms_rts_utt_new(ctx, &utt, utt_v, 1) ||
	    ms_rts_dsl_line_map(p, NULL, &lines_before))
		return proof_fail(ctx);
	nodes_before = ms_dsl_prog_len(p);
	if (ms_rts_dsl_simplify_static(p, utt) || ms_rts_dsl_line_map(p, NULL, &lines_after)) {
		rc = proof_fail(ctx);
		goto done;
	}
	snprintf(header, sizeof header,
		 "simplified by microsynth dsl simplify --static from %s: %d of %d program lines, %d of %d nodes\n"
		 "proof: only the rules that need no match (docs/readable-programs.md), exact by the DSL's semantics:\n"
		 "the same unit actions as the original in every state of any map against any opponent (unit type table %d)",
		 a->files[0], lines_after, lines_before, ms_dsl_prog_len(p), nodes_before, utt_v);
	if ((rc = emit_simplified(ctx, p, a->out, header)))
		goto done;
	printf("lines_before=%d lines_after=%d nodes_before=%d nodes_after=%d static=1\n", lines_before, lines_after,
	       nodes_before, ms_dsl_prog_len(p));
done:
	ms_rts_utt_free(utt);
	return rc;
}

static int cmd_simplify(ms_ctx *ctx, ms_dsl_prog *p, const proof_args *a)
{
	ms_rts_proof *pr = NULL;
	ms_rts_simplify_stats st;
	ms_rts_simplify_options so = { .version = MS_RTS_SIMPLIFY_OPTIONS_VERSION };
	char desc[2048], header[4096];
	double t0 = cli_now();
	int rc = CLI_OK;

	if (ms_rts_dsl_parse_file(p, a->files[0], a->flags) || proof_open(ctx, a, &pr))
		return proof_fail(ctx);
	if (a->verbose) {
		so.log = verbose_log;
	}
	if (ms_rts_simplify(pr, p, &so, &st)) {
		rc = proof_fail(ctx);
		goto done;
	}
	proof_describe(pr, a, desc, sizeof desc);
	snprintf(header, sizeof header,
		 "simplified by microsynth dsl simplify from %s: %d of %d program lines, %d of %d nodes\n"
		 "proof: every match replayed with this program issues the same unit actions on every cycle and ends\n"
		 "the same (%ld cycles compared); %s",
		 a->files[0], st.lines_after, st.lines_before, st.nodes_after, st.nodes_before, st.cycles_compared, desc);
	if ((rc = emit_simplified(ctx, p, a->out, header)))
		goto done;
	printf("lines_before=%d lines_after=%d nodes_before=%d nodes_after=%d matches=%d cycles_compared=%ld "
	       "static_nodes=%d candidates=%ld kept=%ld seconds=%.1f\n",
	       st.lines_before, st.lines_after, st.nodes_before, st.nodes_after, st.matches, st.cycles_compared,
	       st.static_nodes, st.candidates, st.kept, cli_now() - t0);
done:
	ms_rts_proof_free(pr);
	return rc;
}

static int cmd_equal(ms_ctx *ctx, ms_dsl_prog *p, ms_dsl_prog *q, const proof_args *a)
{
	ms_rts_proof *pr = NULL;
	ms_rts_proof_diff d;
	ms_rts_proof_match mi;
	int equal = 0, rc = CLI_OK;

	if (ms_rts_dsl_parse_file(p, a->files[0], a->flags) || ms_rts_dsl_parse_file(q, a->files[1], a->flags) ||
	    proof_open(ctx, a, &pr))
		return proof_fail(ctx);
	if (ms_rts_proof_record(pr, p) || ms_rts_proof_compare(pr, q, &equal, &d)) {
		rc = proof_fail(ctx);
		goto done;
	}
	if (equal) {
		printf("equal: every match, every cycle: the same unit actions and the same end\n");
		printf("equal=1 matches=%d cycles_compared=%ld\n", ms_rts_proof_count(pr), ms_rts_proof_cycles_compared(pr));
		goto done;
	}
	ms_rts_proof_match_info(pr, d.match, &mi);
	if (d.unit >= 0)
		printf("differs: map %s, opponent %s, program as player %d%s: cycle %d, unit %lld (%s at %d,%d): "
		       "A issues %s, B issues %s\n",
		       mi.map, mi.opponent, mi.seat, mi.stochastic ? " (opponent seeded)" : "", d.cycle, (long long)d.unit,
		       ms_rts_utt_type(ms_rts_proof_utt(pr), d.unit_type)->name, d.x, d.y, d.reference, d.candidate);
	else
		printf("differs: map %s, opponent %s, program as player %d: cycle %d: A: %s, B: %s\n", mi.map, mi.opponent,
		       mi.seat, d.cycle, d.reference, d.candidate);
	printf("equal=0 match=%d cycle=%d unit=%lld cycles_compared=%ld\n", d.match + 1, d.cycle, (long long)d.unit,
	       ms_rts_proof_cycles_compared(pr));
	rc = CLI_FAIL;
done:
	ms_rts_proof_free(pr);
	return rc;
}

/* What explain shows: the indented program and, per line, its actions per opponent and seat. */
typedef struct explain_table {
	const char *text;     /* the indented form, line 1 first */
	const long *line_sum; /* row per line (from 1) of cols + 1: p0 and p1 per opponent, then the total */
	int n_lines, cols, n_matches;
	long total;
} explain_table;

/* An action counts on its command's line and on the line of every loop and if around it; the total. */
static long explain_sum(const ms_rts_proof *pr, const ms_dsl_prog *p, const long *counts, const int *line_of,
			long *line_sum, int cols)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const int32_t *ends = ms_dsl_prog_ends(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	int len = ms_dsl_prog_len(p);
	long total = 0;

	for (int k = 0; k < ms_rts_proof_count(pr); k++) {
		ms_rts_proof_match mi;
		ms_rts_proof_match_info(pr, k, &mi);
		int c = 2 * mi.opponent_index + mi.seat;
		for (int i = 0; i < len; i++) {
			long v = counts[(size_t)k * (size_t)len + (size_t)i];
			if (!v)
				continue;
			total += v;
			for (int j = 0; j < i; j++) {
				int op = ms_dsl_prod_op(g, nodes[j]);
				if (ends[j] <= i || (op != MS_RTS_DSL_S_C && op != MS_RTS_DSL_S_FOR && op != MS_RTS_DSL_S_IF &&
						     op != MS_RTS_DSL_S_IFELSE))
					continue;
				line_sum[(size_t)line_of[j] * (size_t)(cols + 1) + (size_t)c] += v;
				line_sum[(size_t)line_of[j] * (size_t)(cols + 1) + (size_t)cols] += v;
			}
		}
	}
	return total;
}

/* '}', '} else {' and a lone 'e' issue nothing of their own: no counts, neither fired nor never. */
static int line_is_structural(const char *l, int n)
{
	const char *t = l;
	while (*t == '\t' && t < l + n)
		t++;
	return *t == '}' || (t[0] == 'e' && t + 1 == l + n);
}

/* The text table on stdout; scripts read its last line. */
static void explain_print(const proof_args *a, const char *desc, const explain_table *t)
{
	int cols = t->cols, fired = 0, never = 0, line = 1;

	printf("# actions issued by each line (a loop or an if: by its body), %s\n", desc);
	printf("# line");
	for (int o = 0; o < a->n_opps; o++)
		printf("  %.16s p0/p1", a->opps[o]);
	printf("  total\n");
	for (const char *l = t->text; *l; line++) {
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);
		const long *row = t->line_sum + (size_t)line * (size_t)(cols + 1);
		int structural = line_is_structural(l, n);
		printf("%4d ", line);
		for (int o = 0; o < a->n_opps; o++) {
			if (structural)
				printf("  %*s", (int)(strlen(a->opps[o]) < 16 ? strlen(a->opps[o]) : 16) + 6, "");
			else
				printf("  %*ld/%-*ld", (int)(strlen(a->opps[o]) < 16 ? strlen(a->opps[o]) : 16) + 2,
				       row[2 * o], 3, row[2 * o + 1]);
		}
		if (structural)
			printf("  %6s  %-5s %.*s\n", "", "", n, l);
		else {
			printf("  %6ld  %-5s %.*s\n", row[cols], row[cols] ? "" : "never", n, l);
			fired += row[cols] != 0;
			never += row[cols] == 0;
		}
		l += n + (e != NULL);
	}
	printf("lines=%d fired=%d never=%d matches=%d actions=%ld\n", t->n_lines, fired, never, t->n_matches, t->total);
}

/* The page: self-contained (inline style only), one row per program line as in the text table. */
static void explain_html_page(FILE *f, const proof_args *a, const char *desc, const explain_table *t)
{
	int cols = t->cols, fired = 0, never = 0, line = 1;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>explain ", f);
	svg_text(f, a->files[0]);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	      "h1{font-size:1.2em}\n"
	      "table{border-collapse:collapse}\n"
	      "th,td{padding:1px .6em;text-align:right;border-bottom:1px solid #e4e4e4;vertical-align:top}\n"
	      "th{background:#f2f2f2;font-weight:600}\n"
	      "td.code{text-align:left;font-family:monospace;white-space:pre;tab-size:4;-moz-tab-size:4}\n"
	      "tr.never td{color:#a33;background:#fbeeee}\n"
	      "tr.never td.code{color:#999;text-decoration:line-through}\n"
	      "tr.structural td{color:#888}\n"
	      "</style>\n</head>\n<body>\n<h1>microsynth dsl explain: ",
	      f);
	svg_text(f, a->files[0]);
	fputs("</h1>\n<p>Actions issued by each line (a loop or an if: by its body) against each opponent, the "
	      "program as player 0 / player 1, summed over maps and seeds; <em>never</em>: lines that issued none.</p>\n"
	      "<p class=\"matches\">",
	      f);
	svg_text(f, desc);
	fputs("</p>\n<table>\n<thead><tr><th>line</th>", f);
	for (int o = 0; o < a->n_opps; o++) {
		fputs("<th>", f);
		svg_text(f, a->opps[o]);
		fputs("<br>p0/p1</th>", f);
	}
	fputs("<th>total</th><th></th><th class=\"code\">program</th></tr></thead>\n<tbody>\n", f);
	for (const char *l = t->text; *l; line++) {
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);
		const long *row = t->line_sum + (size_t)line * (size_t)(cols + 1);
		int structural = line_is_structural(l, n);
		fprintf(f, "<tr%s><td>%d</td>",
			structural ? " class=\"structural\"" : row[cols] ? "" : " class=\"never\"", line);
		for (int o = 0; o < a->n_opps; o++)
			if (structural)
				fputs("<td></td>", f);
			else
				fprintf(f, "<td>%ld/%ld</td>", row[2 * o], row[2 * o + 1]);
		if (structural)
			fputs("<td></td><td></td>", f);
		else
			fprintf(f, "<td>%ld</td><td>%s</td>", row[cols], row[cols] ? "" : "never");
		fputs("<td class=\"code\">", f);
		svg_text_n(f, l, (size_t)n);
		fputs("</td></tr>\n", f);
		fired += !structural && row[cols] != 0;
		never += !structural && row[cols] == 0;
		l += n + (e != NULL);
	}
	fprintf(f, "</tbody>\n</table>\n<p class=\"summary\">lines=%d fired=%d never=%d matches=%d actions=%ld</p>\n"
		   "</body>\n</html>\n",
		t->n_lines, fired, never, t->n_matches, t->total);
}

/* --html FILE: written to FILE.tmp and renamed, so a failure leaves no partial page. */
static int explain_html(ms_ctx *ctx, const proof_args *a, const char *desc, const explain_table *t)
{
	size_t n = strlen(a->html);
	char *tmp = malloc(n + 5);
	FILE *f;
	int ok;

	if (!tmp)
		return ms_ctx_error(ctx, MS_ENOMEM, "--html %s: out of memory", a->html);
	memcpy(tmp, a->html, n);
	memcpy(tmp + n, ".tmp", 5);
	if (!(f = fopen(tmp, "w"))) {
		int err = errno;
		free(tmp);
		return ms_ctx_error(ctx, MS_EIO, "--html %s: cannot write (%s)", a->html, strerror(err));
	}
	explain_html_page(f, a, desc, t);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (ok && rename(tmp, a->html)) {
		int err = errno;
		remove(tmp);
		free(tmp);
		return ms_ctx_error(ctx, MS_EIO, "--html %s: cannot write (%s)", a->html, strerror(err));
	}
	if (!ok)
		remove(tmp);
	free(tmp);
	return ok ? 0 : ms_ctx_error(ctx, MS_EIO, "--html %s: write failed", a->html);
}

static int cmd_explain(ms_ctx *ctx, ms_dsl_prog *p, const proof_args *a)
{
	ms_rts_proof *pr = NULL;
	long *counts = NULL, *line_sum = NULL;
	int *line_of = NULL, len, rc = CLI_OK;
	char *text = NULL, desc[2048];
	explain_table t = { .cols = 2 * a->n_opps };

	if (ms_rts_dsl_parse_file(p, a->files[0], a->flags) || proof_open(ctx, a, &pr))
		return proof_fail(ctx);
	len = ms_dsl_prog_len(p);
	t.n_matches = ms_rts_proof_count(pr);
	counts = calloc((size_t)len * (size_t)t.n_matches, sizeof *counts);
	line_of = calloc((size_t)len, sizeof *line_of);
	if (!counts || !line_of) {
		fprintf(stderr, "microsynth dsl: out of memory\n");
		rc = CLI_FAIL;
		goto done;
	}
	if (ms_rts_dsl_line_map(p, line_of, &t.n_lines) || ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &text, NULL) ||
	    ms_rts_proof_explain(pr, p, counts)) {
		rc = proof_fail(ctx);
		goto done;
	}
	if (!(line_sum = calloc((size_t)(t.n_lines + 1) * (size_t)(t.cols + 1), sizeof *line_sum))) {
		fprintf(stderr, "microsynth dsl: out of memory\n");
		rc = CLI_FAIL;
		goto done;
	}
	t.total = explain_sum(pr, p, counts, line_of, line_sum, t.cols);
	t.text = text;
	t.line_sum = line_sum;
	proof_describe(pr, a, desc, sizeof desc);
	/* the page first, as simplify writes -o first: a failure leaves stdout without a last line */
	if (a->html && explain_html(ctx, a, desc, &t)) {
		rc = proof_fail(ctx);
		goto done;
	}
	explain_print(a, desc, &t);
done:
	if (text)
		ms_ctx_mfree(ctx, text);
	free(counts);
	free(line_of);
	free(line_sum);
	ms_rts_proof_free(pr);
	return rc;
}

static int cmd_dsl_proof(const char *sub, int argc, char **argv)
{
	proof_args a;
	ms_ctx *ctx = NULL;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL, *q = NULL;
	int rc = proof_parse(argc, argv, &a, !strcmp(sub, "equal") ? 2 : 1);

	if (rc)
		return rc;
	if (ms_ctx_new(&ctx, NULL) ||
	    ms_rts_dsl_grammar_new(ctx, &g, (a.flags & MS_RTS_DSL_PARSE_NOT) ? MS_RTS_DSL_GRAMMAR_NOT : 0) ||
	    ms_dsl_prog_new(ctx, &p, g) || ms_dsl_prog_new(ctx, &q, g)) {
		fprintf(stderr, "microsynth dsl: %s\n", ctx ? ms_ctx_last_error(ctx) : "out of memory");
		rc = CLI_FAIL;
	} else if (!strcmp(sub, "simplify"))
		rc = a.static_only ? cmd_simplify_static(ctx, p, &a) : cmd_simplify(ctx, p, &a);
	else if (!strcmp(sub, "equal"))
		rc = cmd_equal(ctx, p, q, &a);
	else
		rc = cmd_explain(ctx, p, &a);
	ms_dsl_prog_free(p);
	ms_dsl_prog_free(q);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
	return rc;
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
		return cli_usage_error("dsl", "expected check, convert, random, mutate, simplify, equal or explain");
	if (!strcmp(sub, "simplify") || !strcmp(sub, "equal") || !strcmp(sub, "explain"))
		return cmd_dsl_proof(sub, argc, argv);
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
	    ms_rts_dsl_grammar_new(ctx, &g,
				   ((a.flags & MS_RTS_DSL_PARSE_NOT) ? MS_RTS_DSL_GRAMMAR_NOT : 0) |
					   (a.lld ? MS_RTS_DSL_GRAMMAR_LLD : 0)) ||
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
