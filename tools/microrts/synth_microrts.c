/*
 * microsynth synth --game microrts: searches for a MicroRTS strategy (the
 * DSL of rts_dsl.h) that beats the given opponents on the given maps, with
 * the searches of synth.h on the problem of rts_synth.h, simplifies the best
 * program with a proof on the evaluation's matches (ms_rts_simplify), then
 * replays it in the official harness (harness_psi).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/rts_synth.h"
#include "microsynth/synth.h"
#include "core/json.h"
#include "cli.h"
#include "edition.h"
#include "synth_front.h"
#include "synth_mpi.h"
#include "synth_progress.h"

#define CMD "synth"
#define MAX_LIST 64

static void synth_microrts_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth synth --game microrts --map MAP [--map MAP ...] --opponent AI [--opponent AI ...]\n"
		"                        --algo sa|uct|sketch-sa|sketch-uct|random|hss [--score O|A --oracle BOT]\n"
		"                        (--evals N | --time T) --seed S [--threads K] -o FILE [--csv FILE]\n"
		"                        [--checkpoint FILE [--resume]] [more options below]\n"
		"\n"
		"Searches for a MicroRTS program maximising Psi: its mean score (win 1, draw 0.5, loss 0)\n"
		"against every --opponent in both seats on every --map, each map with the competition's\n"
		"cycle limit for its size (8x8 3000, 16x16 4000, 24x24 5000, 32x32 6000, larger 8000;\n"
		"--max-cycles N overrides). An opponent is a native bot (WorkerRush, LightRush, HeavyRush,\n"
		"RangedRush, PassiveAI, RandomBiasedAI, CoacAI, mayari) or program:FILE, played in-process, or\n"
		"any other Java class of the harness (GNS.Droplet, ...), played in the official engine\n"
		"through the hosted JVM with the candidate passed from memory.\n\n"
		"Sketch searches first search on the cloning score C (--score O, the observable outcome:\n"
		"units trained per type, resources harvested, units destroyed and lost, compared with the\n"
		"matches of --oracle, a native bot or program:FILE, against --c-opponent, default the\n"
		"first native opponent, else WorkerRush), then on Psi. Ties in Psi are broken (never\n"
		"outweighing a better result) by --tiebreak o|a|length|material|none: o (the default with an\n"
		"oracle) by O as in the paper; length (the default without) by match length, a loss later\n"
		"and a win sooner being better, which also works against Java opponents; material as\n"
		"length, and a draw against a native opponent by the share of the material left (each\n"
		"unit's cost times its hit points left, plus the stockpile), for maps where every game\n"
		"reaches the limit. --score A instead compares actions: the oracle's matches against the\n"
		"C opponent are recorded once (the states where it issued unit actions, and those\n"
		"actions), and C(p) is the share of them p issues alike when run on those states;\n"
		"--tiebreak a (with --score A) breaks ties in Psi by it.\n"
		"--save-dataset FILE writes that record (JSON lines, gzip for .gz: each state and the\n"
		"oracle's actions, the official JSON); --dataset FILE reads one instead of --oracle.\n\n"
		"Budget: --evals N (reproducible: the same seed gives the same program for any --threads)\n"
		"or --time T (90, 90s, 15m, 2h; not reproducible).\n\n"
		"-o FILE receives the best program (indented form) under a '#' header: the command, maps,\n"
		"opponents, seed, evaluations, elapsed, psi (our engine; Java opponents in the JVM) and\n"
		"harness_psi (every match replayed in the official harness through the drop-in bot;\n"
		"--no-harness skips it). The program is written simplified, as `microsynth dsl simplify`\n"
		"does it, with the proof's figures in the header: every match of the evaluation replayed\n"
		"with it issues the same unit actions on every cycle (docs/readable-programs.md); Java\n"
		"opponents and --prefix leave it as found. --keep-raw also writes the search's own text\n"
		"to FILE.raw.ms; --no-simplify writes that text to FILE. Last stdout line:\n"
		"psi=X harness_psi=Y evals=N seconds=T faults=F\n"
		"(F: matches an opponent lost by failing: a Java AI that threw or timed out, a native bot whose\n"
		"decision failed; each scored as the harness scores a crash).\n\n"
		"More options: --utt 1|2|3 (2), --conflict 1|2|3 (1), --edition 2022|2023 (native bots'\n"
		"path finding; default: the harness's), --initial FILE (sa, uct: start from a program),\n"
		"--opponent-seeds K (native CoacAI and mayari draw where the jars draw unseeded numbers:\n"
		"K matches per seat with seeds 1..K, Psi their mean; reproducible),\n"
		"--prefix FILE --switch-cycle K (a case of an opponent switch: FILE plays cycles < K, the\n"
		"candidate the rest; native opponents; no harness replay; docs/switch.md),\n"
		"--match-memo on|off|check|no-replay (native matches answered from earlier ones that the\n"
		"program would play alike: it agrees wherever they read, or decides alike, replayed, where\n"
		"it differs; exact: check plays them too and fails on a difference; on),\n"
		"--no-progress. MicroRTS's own knob defaults: --neighbours 20 (as the MicroRTS references),\n"
		"--hss-confirm 0 (matches are deterministic). Sketch-SA's 5 x 10 passes on C (the reference's)\n"
		"can take the whole budget on large maps: --sketch-share bounds them under --time.\n\n"
		"HSS (hierarchical synthesis search over behavioural features, docs/hss-selfplay.md): the\n"
		"features (units trained per type, buildings built, resources harvested, units lost and\n"
		"destroyed, attacks, cycle of the first attack) come from native matches against\n"
		"--feature-opponent K (the K-th --opponent, 1 by default; a Java one is replaced by the first\n"
		"native opponent, else WorkerRush).\n"
		"--java-hang-ms MS: a Java opponent's decision still running after MS ms loses its match as\n"
		"timed out, counted in faults (default 10000).\n"
		"--progress-json FILE appends JSON lines for `microsynth view --follow`: the budget, maps and\n"
		"opponents first, then per new best program its wins, draws and losses against each opponent\n"
		"(its matches played once more, per opponent; docs/view.md).\n");
}

typedef struct args {
	synth_search_args s;
	const char *maps[MAX_LIST], *opps[MAX_LIST];
	int n_maps, n_opps;
	const char *score, *oracle, *c_opp, *prefix, *progress_json, *dataset, *save_dataset;
	long max_cycles, utt, conflict, feature_opp, switch_cycle, opp_seeds, java_hang_ms;
	int edition, harness, tiebreak, keep_raw, no_simplify, match_memo;
} args;

/* One of MicroRTS's own options at argv[*i]; CLI_OK or the exit code after a usage error. */
static int rts_option(void *g, int argc, char **argv, int *i)
{
	args *a = g;
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!strcmp(o, "--no-harness")) {
		a->harness = 0;
		return CLI_OK;
	}
	if (!strcmp(o, "--keep-raw") || !strcmp(o, "--no-simplify")) {
		*(o[2] == 'k' ? &a->keep_raw : &a->no_simplify) = 1;
		return CLI_OK;
	}
	if (!v)
		return cli_usage_error(CMD, "%s needs a value", o);
	++*i;
	static const char *const texts[] = { "--game", "--score", "--oracle", "--c-opponent", "--progress-json",
					     "--dataset", "--save-dataset", "--prefix" };
	const char *ignored, **text_dst[] = { &ignored, &a->score, &a->oracle, &a->c_opp, &a->progress_json,
					      &a->dataset, &a->save_dataset, &a->prefix };
	for (size_t k = 0; k < sizeof texts / sizeof *texts; k++)
		if (!strcmp(o, texts[k])) {
			*text_dst[k] = v;
			return CLI_OK;
		}
	if (!strcmp(o, "--map") || !strcmp(o, "--opponent")) {
		int is_map = o[2] == 'm';
		int *n = is_map ? &a->n_maps : &a->n_opps;
		if (*n == MAX_LIST)
			return cli_usage_error(CMD, "more than %d %s options", MAX_LIST, o);
		(is_map ? a->maps : a->opps)[(*n)++] = v;
	} else if (!strcmp(o, "--tiebreak")) {
		static const char *const names[] = { "none", "o", "O", "a", "A", "length", "material" };
		static const int rules[] = { MS_RTS_TIEBREAK_NONE, MS_RTS_TIEBREAK_O,	   MS_RTS_TIEBREAK_O,
					     MS_RTS_TIEBREAK_A,	   MS_RTS_TIEBREAK_A,	   MS_RTS_TIEBREAK_LENGTH,
					     MS_RTS_TIEBREAK_MATERIAL };
		size_t k = 0;
		while (k < sizeof names / sizeof *names && strcmp(v, names[k]))
			k++;
		if (k == sizeof names / sizeof *names)
			return cli_usage_error(CMD, "--tiebreak: '%s' is not o, a, length, material or none", v);
		a->tiebreak = rules[k];
	} else if (!strcmp(o, "--match-memo")) {
		if (!strcmp(v, "on") || !strcmp(v, "off") || !strcmp(v, "check") || !strcmp(v, "no-replay"))
			a->match_memo = v[1] == 'n' ? MS_RTS_MATCH_MEMO_ON
				      : v[1] == 'f' ? MS_RTS_MATCH_MEMO_OFF
				      : v[0] == 'c' ? MS_RTS_MATCH_MEMO_CHECK : MS_RTS_MATCH_MEMO_NO_REPLAY;
		else
			return cli_usage_error(CMD, "--match-memo: '%s' is not on, off, check or no-replay", v);
	} else if (!strcmp(o, "--edition")) {
		if (edition_arg(CMD, v, &a->edition))
			return CLI_USAGE;
	} else {
		static const char *const names[] = { "--max-cycles", "--utt", "--conflict", "--feature-opponent",
						     "--switch-cycle", "--opponent-seeds", "--java-hang-ms" };
		static const long lo[] = { 1, 1, 1, 1, 0, 1, 1 };
		static const long hi[] = { 100000000L, 3, 3, MAX_LIST, 100000000L, 1000, 86400000L };
		long *dst[] = { &a->max_cycles, &a->utt, &a->conflict, &a->feature_opp, &a->switch_cycle,
				&a->opp_seeds, &a->java_hang_ms };
		size_t k = 0;
		while (k < sizeof names / sizeof *names && strcmp(o, names[k]))
			k++;
		if (k == sizeof names / sizeof *names)
			return cli_usage_error(CMD, "unknown option '%s'", o);
		if (cli_parse_int(CMD, o, v, lo[k], hi[k], dst[k]))
			return CLI_USAGE;
	}
	return CLI_OK;
}

static int check(const args *a, const int *algo)
{
	if (!a->n_maps)
		return cli_usage_error(CMD, "--map is required");
	if (!a->n_opps)
		return cli_usage_error(CMD, "--opponent is required");
	if (a->feature_opp && *algo != MS_SYNTH_HSS)
		return cli_usage_error(CMD, "--feature-opponent applies to hss only");
	if (a->feature_opp > a->n_opps)
		return cli_usage_error(CMD, "--feature-opponent %ld: there are %d --opponent options", a->feature_opp,
				       a->n_opps);
	if (a->score && strcmp(a->score, "O") && strcmp(a->score, "A"))
		return cli_usage_error(CMD, "--score %s: O (observable outcome) or A (action agreement)", a->score);
	int score_a = a->score && !strcmp(a->score, "A");
	if ((a->dataset || a->save_dataset) && !score_a)
		return cli_usage_error(CMD, "--dataset and --save-dataset are the action score's (--score A)");
	if (a->dataset && a->save_dataset)
		return cli_usage_error(CMD, "--save-dataset writes what --oracle plays, not a --dataset read back");
	if (a->save_dataset && !a->oracle)
		return cli_usage_error(CMD, "--save-dataset needs --oracle");
	if (a->score && !a->oracle && !(score_a && a->dataset))
		return cli_usage_error(CMD, "--score %s needs --oracle (a native bot or program:FILE)%s", a->score,
				       score_a ? " or --dataset FILE" : "");
	int sketch = *algo == MS_SYNTH_SKETCH_SA || *algo == MS_SYNTH_SKETCH_UCT;
	if (sketch && !a->oracle && !(score_a && a->dataset))
		return cli_usage_error(CMD, "%s needs --oracle (a native bot or program:FILE)", a->s.algo);
	if (a->tiebreak == MS_RTS_TIEBREAK_O && !a->oracle)
		return cli_usage_error(CMD, "--tiebreak o needs --oracle");
	if (a->tiebreak == MS_RTS_TIEBREAK_A && !score_a)
		return cli_usage_error(CMD, "--tiebreak a needs --score A");
	if (a->s.initial && sketch)
		return cli_usage_error(CMD, "--initial: %s starts from its sketch", a->s.algo);
	return CLI_OK;
}

static const char *tiebreak_name(int t)
{
	return t == MS_RTS_TIEBREAK_O	     ? "O"
	       : t == MS_RTS_TIEBREAK_A	     ? "A"
	       : t == MS_RTS_TIEBREAK_LENGTH   ? "match length"
	       : t == MS_RTS_TIEBREAK_MATERIAL ? "match length, draws by material"
					       : "none";
}

/* The program under a '#' header, in the indented form. */
static int write_program(const ms_dsl_prog *p, const char *path, const char *header)
{
	ms_ctx *ctx = ms_dsl_prog_ctx(p);
	char *text = NULL;
	FILE *f;
	int ok;

	if (ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &text, NULL))
		return -1;
	if (!(f = fopen(path, "w"))) {
		ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
		return ms_ctx_error(ctx, MS_EIO, "-o %s: cannot write", path);
	}
	for (const char *l = header; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		fprintf(f, "# %.*s\n", (int)n, l);
		l += n + (e != NULL);
	}
	fprintf(f, "%s\n", text);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	return ok ? 0 : ms_ctx_error(ctx, MS_EIO, "-o %s: write failed", path);
}

/*
 * --progress-json (synth_progress.h): the W/D/L of each new best against
 * each opponent, which the search's score (one mean) does not keep. Its
 * own problems (one per opponent) and context, so the search's caches,
 * fault counts and errors are untouched.
 */
typedef struct rts_progress {
	synth_progress base;
	ms_ctx *ctx;
	ms_rts_synth *rs[MAX_LIST];
} rts_progress;

/* What a run holds: the problem, the programs it starts from, the search. */
typedef struct rts_run {
	args a; /* first: synth_main's */
	ms_ctx *ctx;
	int algo, have_jar;
	char jar[4096];
	ms_rts_synth *rs;
	ms_dsl_prog *initial, *prefix;
	ms_dsl_grammar *prefix_g;
	ms_synth *s;
	ms_synth_stats st;
	rts_progress pj;
} rts_run;

static void rts_defaults(void *g)
{
	args *a = g;
	a->harness = 1;
	a->tiebreak = -1;
	a->edition = -1;
}

/* The command line checked, then the defaults that depend on it; CLI_OK or the exit code. */
static int rts_check(void *g, int algo)
{
	args *a = g;
	int rc;
	((rts_run *)g)->algo = algo;
	if ((rc = check(a, &algo)))
		return rc;
	if (a->edition < 0)
		a->edition = edition_of_harness(NULL);
	if (a->tiebreak < 0)
		a->tiebreak = a->oracle ? MS_RTS_TIEBREAK_O : MS_RTS_TIEBREAK_LENGTH;
	return CLI_OK;
}

static void rts_problem_opts(const rts_run *r, ms_rts_synth_options *out);

/* The switch case's opening (--prefix), the problem and --initial; a CLI code. */
static int rts_problem(void *g, ms_ctx *ctx, int algo, const ms_synth_problem **pb)
{
	rts_run *r = g;
	args *a = &r->a;
	(void)algo;
	r->ctx = ctx;
	r->have_jar = cli_find_tools_jar(r->jar, sizeof r->jar) == 0;
	if (a->prefix) {
		/* a switch case: the official harness cannot play an opening then the candidate */
		a->harness = 0;
		if (ms_rts_dsl_grammar_new(ctx, &r->prefix_g, 0) || ms_dsl_prog_new(ctx, &r->prefix, r->prefix_g) ||
		    ms_rts_dsl_parse_file(r->prefix, a->prefix, 0))
			return synth_fail(ctx, "--prefix");
	}
	ms_rts_synth_options po;
	rts_problem_opts(r, &po);
	if (ms_rts_synth_new(ctx, &r->rs, &po))
		return synth_fail(ctx, "problem");
	*pb = ms_rts_synth_problem(r->rs);
	if (a->save_dataset && synth_mpi_rank() <= 0 && ms_rts_synth_dataset_save(r->rs, a->save_dataset))
		return synth_fail(ctx, "--save-dataset");
	if (a->s.initial && (ms_dsl_prog_new(ctx, &r->initial, ms_rts_synth_grammar(r->rs)) ||
			   ms_rts_dsl_parse_file(r->initial, a->s.initial, 0)))
		return synth_fail(ctx, "--initial");
	return CLI_OK;
}

/* The problem's options: every map and opponent of the command line. */
static void rts_problem_opts(const rts_run *r, ms_rts_synth_options *out)
{
	const args *a = &r->a;
	ms_rts_synth_options po = { .version = MS_RTS_SYNTH_OPTIONS_VERSION,
				    .maps = a->maps,
				    .n_maps = a->n_maps,
				    .opponents = a->opps,
				    .n_opponents = a->n_opps,
				    .utt = (int)a->utt,
				    .conflict = (int)a->conflict,
				    .max_cycles = (int)a->max_cycles,
				    .edition = a->edition,
				    .harness_jar = r->have_jar ? r->jar : NULL,
				    .oracle = a->oracle,
				    .c_opponent = a->c_opp,
				    .java_hang_ms = (int)a->java_hang_ms,
				    .tiebreak = a->tiebreak,
				    .prefix = r->prefix,
				    .switch_cycle = (int)a->switch_cycle,
				    .opponent_seeds = (int)a->opp_seeds,
				    .match_memo = a->match_memo,
				    .c_score = a->score && !strcmp(a->score, "A") ? MS_RTS_C_SCORE_A : MS_RTS_C_SCORE_O,
				    .dataset = a->dataset };
	*out = po;
}

/* MicroRTS's own knob defaults, for synth's search and selfplay's best responses alike (the command
 * line's knobs are applied after them): 20 neighbours as the MicroRTS references; matches are
 * deterministic, so a program seen before scores as it did and re-scoring a best confirms nothing. */
static void rts_knob_defaults(ms_synth_options *o)
{
	o->sa_neighbours = 20;
	o->sa_cache = 1;
	o->hss_confirm = 0;
}

static void rts_search(void *g, ms_synth_options *so, synth_run_ud *ud)
{
	const rts_run *r = g;
	const args *a = &r->a;
	(void)ud;
	rts_knob_defaults(so);
	so->initial = r->initial;
	so->hss_feature_opponent = a->feature_opp ? (int)a->feature_opp - 1 : 0;
}

/* The final scores: ours without tie-breaks, the official harness's (if played), the opponents' faults. */
typedef struct rts_final {
	ms_rts_synth_result ours, off;
	int harness, final_faults;
	double harness_seconds;
	ms_rts_synth_faults fc;
	long faults;
	int simplified;           /* 1: the program is the simplified one */
	char not_simplified[512]; /* why not, when not */
	ms_rts_simplify_stats ss;
	double simplify_seconds;
} rts_final;

static void rts_header(char *header, size_t size, const rts_run *r, const rts_final *f)
{
	const args *a = &r->a;
	const ms_synth_stats *st = &r->st;
	char hp[64], list[2048], simp[1024];
	size_t ul = 0;
	list[0] = 0;
	for (int i = 0; i < a->n_maps && ul < sizeof list; i++)
		ul += (size_t)snprintf(list + ul, sizeof list - ul, "%s%s (%d cycles)", i ? ", " : "", a->maps[i],
				       ms_rts_synth_max_cycles(r->rs, i));
	if (f->harness)
		snprintf(hp, sizeof hp, "%.4f (%dW %dD %dL)", f->off.psi, f->off.wins, f->off.draws, f->off.losses);
	else
		snprintf(hp, sizeof hp, "not measured");
	if (f->simplified)
		snprintf(simp, sizeof simp,
			 "simplified: %d of %d program lines, %d of %d nodes (docs/readable-programs.md); proof: the %d\n"
			 "matches of the evaluation replayed with this program issue the same unit actions on all %ld cycles\n"
			 "and end the same; the search's own text: %s",
			 f->ss.lines_after, f->ss.lines_before, f->ss.nodes_after, f->ss.nodes_before, f->ss.matches,
			 f->ss.cycles_compared, a->keep_raw ? "beside this file (.raw.ms)" : "not kept (--keep-raw keeps it)");
	else
		snprintf(simp, sizeof simp, "simplified: no, the search's own text (%s)", f->not_simplified);
	snprintf(header, size,
		 "microsynth synth: a MicroRTS program (DSL of the sketch-learning papers, indented form)\n"
		 "command: %s\n"
		 "maps: %s\n"
		 "opponents:%s%s%s%s (both seats)\n"
		 "algorithm: %s; oracle: %s; seed: %ld; threads: %ld; edition: %s; tie-break: %s\n"
		 "evaluations: Psi %lld, C %lld, cache hits %lld; elapsed %.1f s (%s)\n"
		 "psi: %.4f (%dW %dD %dL, our engine; Java opponents in the JVM)\n"
		 "harness_psi: %s (official harness, every match)\n"
		 "%s\n"
		 "faults: %ld (opponents that failed, each match scored as the harness scores a crash: the failing "
		 "side loses; search: %ld Java crashes, %ld Java time-outs, %ld native errors; final evaluations: %d)\n"
		 "fingerprint: %s",
		 a->s.command, list, a->opps[0] ? " " : "", a->opps[0], a->n_opps > 1 ? " and " : "",
		 a->n_opps > 1 ? "others listed in the command" : "", a->s.algo, a->oracle ? a->oracle : "-", a->s.seed,
		 a->s.threads, edition_name(a->edition), tiebreak_name(a->tiebreak), st->evals_psi, st->evals_c,
		 st->cache_hits, st->elapsed,
		 st->timed ? "budgeted by time: NOT reproducible" : "reproducible for this seed and any --threads",
		 f->ours.psi, f->ours.wins, f->ours.draws, f->ours.losses, hp, simp, f->faults, f->fc.crashes,
		 f->fc.timeouts,
		 f->fc.errors, f->final_faults, ms_rts_synth_fingerprint(r->rs));
}

/*
 * The best program simplified with its proof on the evaluation's matches
 * (the problem's maps, opponents, seats, seeds, edition and lengths), in
 * place; when that cannot be done (Java opponents, a switch case, a failure)
 * `prog` keeps the search's text and f->not_simplified says why.
 */
static void rts_simplify(rts_run *r, ms_dsl_prog *prog, rts_final *f)
{
	const args *a = &r->a;
	ms_rts_proof *pr = NULL;
	ms_dsl_prog *work = NULL;
	double t0 = cli_now();
	if (a->no_simplify) {
		snprintf(f->not_simplified, sizeof f->not_simplified, "--no-simplify");
		return;
	}
	if (a->prefix) {
		snprintf(f->not_simplified, sizeof f->not_simplified, "a switch case: its matches open with --prefix");
		return;
	}
	for (int k = 0; k < a->n_opps; k++)
		if (!ms_bot_spec_native(a->opps[k])) {
			snprintf(f->not_simplified, sizeof f->not_simplified,
				 "opponent %s plays in the JVM, whose matches cannot be replayed cycle by cycle", a->opps[k]);
			return;
		}
	ms_rts_proof_options po = { .version = MS_RTS_PROOF_OPTIONS_VERSION,
				 .maps = a->maps,
				 .n_maps = a->n_maps,
				 .opponents = a->opps,
				 .n_opponents = a->n_opps,
				 .utt = (int)a->utt,
				 .conflict = (int)a->conflict,
				 .max_cycles = (int)a->max_cycles,
				 .edition = a->edition,
				 .opponent_seeds = (int)a->opp_seeds };
	if (ms_rts_proof_new(r->ctx, &pr, &po) || ms_dsl_prog_clone(&work, prog) ||
	    ms_rts_simplify(pr, work, NULL, &f->ss) || ms_dsl_prog_copy(prog, work)) {
		snprintf(f->not_simplified, sizeof f->not_simplified, "simplification failed: %s",
			 ms_ctx_last_error(r->ctx));
		fprintf(stderr, "microsynth synth: the program is written as found: %s\n", f->not_simplified);
	} else {
		f->simplified = 1;
	}
	f->simplify_seconds = cli_now() - t0;
	ms_dsl_prog_free(work);
	ms_rts_proof_free(pr);
}

/* The final program, scored without tie-breaks, then in the official harness; a CLI code. */
static int rts_final_scores(rts_run *r, const ms_dsl_prog *best, rts_final *f)
{
	double t0;
	if (ms_rts_synth_score(r->ctx, r->rs, best, 0, &f->ours))
		return synth_fail(r->ctx, "final evaluation");
	f->harness = r->a.harness && r->have_jar;
	if (f->harness) {
		t0 = cli_now();
		if (ms_rts_synth_score(r->ctx, r->rs, best, 1, &f->off))
			return synth_fail(r->ctx, "harness evaluation");
		f->harness_seconds = cli_now() - t0;
	}
	/* opponents that failed: the search's matches (on every rank), then the final ones */
	ms_rts_synth_fault_counts(r->rs, &f->fc);
	int64_t remote[SYNTH_MPI_COUNTS] = { 0 };
	synth_mpi_sum_counts(remote);
	f->fc.crashes += (long)remote[0];
	f->fc.timeouts += (long)remote[1];
	f->fc.errors += (long)remote[2];
	f->final_faults = f->ours.opponent_crashes + f->ours.opponent_timeouts +
			  (f->harness ? f->off.opponent_crashes + f->off.opponent_timeouts : 0);
	f->faults = f->fc.crashes + f->fc.timeouts + f->fc.errors + f->final_faults;
	return CLI_OK;
}

/* Scores the best program, writes -o and prints the summary; a CLI code. */
static int rts_report(void *g, ms_ctx *ctx, ms_synth *s, const ms_synth_stats *stats)
{
	rts_run *r = g;
	(void)ctx;
	r->s = s;
	r->st = *stats;
	const args *a = &r->a;
	const ms_synth_stats *st = &r->st;
	const ms_dsl_prog *raw = ms_synth_best(r->s, MS_SYNTH_PSI);
	ms_dsl_prog *best = NULL;
	rts_final f;
	char header[8192];
	int rc;
	memset(&f, 0, sizeof f);
	if (ms_dsl_prog_clone(&best, raw))
		return synth_fail(r->ctx, "output");
	rts_simplify(r, best, &f);
	if ((rc = rts_final_scores(r, best, &f)))
		goto done;
	rts_header(header, sizeof header, r, &f);
	if (write_program(best, a->s.out, header)) {
		rc = synth_fail(r->ctx, "output");
		goto done;
	}
	if (a->keep_raw) {
		char path[4096], raw_header[8192 + 512];
		snprintf(path, sizeof path, "%s.raw.ms", a->s.out);
		snprintf(raw_header, sizeof raw_header, "the search's own text of the program %s holds%s\n%s", a->s.out,
			 f.simplified ? " simplified (the same actions on every cycle of the evaluation's matches)" : "",
			 header);
		if (write_program(raw, path, raw_header)) {
			rc = synth_fail(r->ctx, "output");
			goto done;
		}
	}
	char *text = NULL;
	if (!ms_rts_dsl_print(best, MS_RTS_DSL_FORM_PRETTY, &text, NULL)) {
		printf("%s\n", text);
		ms_ctx_mfree(ms_dsl_prog_ctx(best), text);
	}
	if (f.simplified)
		printf("simplified: lines_before=%d lines_after=%d nodes_before=%d nodes_after=%d matches=%d "
		       "cycles_compared=%ld seconds=%.1f\n",
		       f.ss.lines_before, f.ss.lines_after, f.ss.nodes_before, f.ss.nodes_after, f.ss.matches,
		       f.ss.cycles_compared, f.simplify_seconds);
	ms_rts_synth_memo_stats ms;
	ms_rts_synth_memo_counts(r->rs, &ms);
	printf("match_memo: lookups=%ld hits=%ld replays=%ld replay_hits=%ld\n", ms.lookups, ms.hits, ms.replays,
	       ms.replay_hits);
	printf("algo=%s seed=%ld evals_psi=%lld evals_c=%lld wins=%d draws=%d losses=%d harness_seconds=%.1f%s\n",
	       a->s.algo, a->s.seed, st->evals_psi, st->evals_c, f.ours.wins, f.ours.draws, f.ours.losses, f.harness_seconds,
	       st->timed ? " reproducible=no" : " reproducible=yes");
	if (f.harness)
		printf("psi=%.4f harness_psi=%.4f evals=%lld seconds=%.1f faults=%ld\n", f.ours.psi, f.off.psi,
		       st->evals_psi, st->elapsed, f.faults);
	else
		printf("psi=%.4f harness_psi=- evals=%lld seconds=%.1f faults=%ld\n", f.ours.psi, st->evals_psi,
		       st->elapsed, f.faults);
done:
	ms_dsl_prog_free(best);
	return rc;
}

static int rts_progress_vs(void *ud, const ms_dsl_prog *best, int k, int wdl[3])
{
	rts_progress *p = ud;
	ms_rts_synth_result res = { 0 };

	if (ms_rts_synth_score(p->ctx, p->rs[k], best, 0, &res))
		return -1;
	wdl[0] = res.wins, wdl[1] = res.draws, wdl[2] = res.losses;
	return 0;
}

/* A serving rank's opponent faults, for rank 0's header (synth_mpi_sum_counts). */
static void rts_fault_counts(void *user, int64_t out[SYNTH_MPI_COUNTS])
{
	ms_rts_synth_faults fc;
	ms_rts_synth_fault_counts(user, &fc);
	out[0] = fc.crashes;
	out[1] = fc.timeouts;
	out[2] = fc.errors;
}

/* --progress-json FILE with a problem per opponent for the W/D/L, and the serving ranks' fault counts; a CLI code. */
static int rts_attach(void *g, ms_synth_options *so, ms_synth *const *s)
{
	rts_run *r = g;
	const args *a = &r->a;
	rts_progress *p = &r->pj;
	ms_rts_synth_options po;
	synth_progress_head h = { "microrts", a->s.algo, a->s.seed, a->s.evals, a->s.seconds,
				  a->maps, a->opps, a->n_maps, a->n_opps, rts_progress_vs, p };

	synth_mpi_set_counts(rts_fault_counts, r->rs);
	if (!a->progress_json || synth_mpi_rank() > 0)
		return CLI_OK;
	if (ms_ctx_new(&p->ctx, NULL))
		return CLI_FAIL;
	rts_problem_opts(r, &po);
	for (int k = 0; k < a->n_opps; k++) {
		po.opponents = &a->opps[k];
		po.n_opponents = 1;
		if (ms_rts_synth_new(p->ctx, &p->rs[k], &po))
			return synth_fail(p->ctx, "--progress-json");
	}
	return synth_progress_open(&p->base, "synth", a->progress_json, &h, so, s);
}

static void rts_progress_close(rts_progress *p)
{
	synth_progress_close(&p->base);
	for (int k = 0; k < MAX_LIST; k++)
		ms_rts_synth_free(p->rs[k]);
	ms_ctx_free(p->ctx);
}

static void rts_release(void *g)
{
	rts_run *r = g;
	rts_progress_close(&r->pj);
	ms_dsl_prog_free(r->initial);
	ms_rts_synth_free(r->rs);
	ms_dsl_prog_free(r->prefix);
	ms_dsl_grammar_free(r->prefix_g);
}

static const synth_row rts_row = {
	sizeof(rts_run), synth_microrts_usage, rts_defaults, rts_option, NULL,	     0,
	rts_check,	 rts_problem,	       rts_search,   rts_attach, rts_report, rts_release,
};

/* ---- self-play: MicroRTS against the given opponents and earlier programs -- */

typedef struct rts_sp {
	const char *maps[MAX_LIST], *opps[MAX_LIST];
	int n_maps, n_opps;
	long max_cycles;
	ms_rts_synth_options base;
} rts_sp;

static void rts_sp_usage(FILE *out)
{
	fprintf(out, "MicroRTS options: --map MAP (repeatable, required), --opponent AI (repeatable, required: the\n"
		     "fixed opponents, native bots or program:FILE), --max-cycles N; the knobs' MicroRTS defaults\n"
		     "are synth's (--neighbours 20, --hss-confirm 0). With --br hss, behavioural features\n"
		     "are measured against the population's first opponent, from the counts of its Psi matches.\n");
}

static int rts_sp_option(void *g, int argc, char **argv, int *i)
{
	rts_sp *r = g;
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	int is_map = !strcmp(o, "--map"), is_opp = !strcmp(o, "--opponent");
	int is_mc = !strcmp(o, "--max-cycles");
	if (!is_map && !is_opp && !is_mc)
		return SYNTH_OPT_OTHER;
	if (!v)
		return cli_usage_error("selfplay", "%s needs a value", o);
	++*i;
	if (is_mc)
		return cli_parse_int("selfplay", o, v, 1, 100000000L, &r->max_cycles) ? CLI_USAGE : CLI_OK;
	int *n = is_map ? &r->n_maps : &r->n_opps;
	if (*n >= MAX_LIST)
		return cli_usage_error("selfplay", "more than %d %s options", MAX_LIST, o);
	(is_map ? r->maps : r->opps)[(*n)++] = v;
	return CLI_OK;
}

/* The opponents as players (n_opps + n, free()d by the caller): the fixed opponents, then each program
 * as it is in memory. */
static int rts_sp_players(const rts_sp *g, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, ms_match_player **out)
{
	int nf = g->n_opps;
	ms_match_player *pl = calloc((size_t)(nf + n), sizeof *pl);
	*out = pl;
	if (!pl)
		return ms_ctx_error(ctx, MS_ENOMEM, "selfplay: out of memory");
	for (int i = 0; i < nf; i++)
		pl[i] = ms_match_player_spec(g->opps[i]);
	for (int j = 0; j < n; j++)
		pl[nf + j] = ms_match_player_program(progs[j]);
	return 0;
}

/* A new problem: the fixed opponents, then each program. */
static int rts_sp_make(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		       void **handle)
{
	rts_sp *g = ud;
	ms_match_player *pl;
	ms_rts_synth *rs = NULL;
	int rc = rts_sp_players(g, ctx, progs, n, &pl);
	if (rc == 0) {
		ms_rts_synth_options o = g->base;
		o.players = pl;
		o.n_opponents = g->n_opps + n;
		rc = ms_rts_synth_new(ctx, &rs, &o);
	}
	free(pl);
	if (rc < 0)
		return rc;
	*pb = ms_rts_synth_problem(rs);
	*handle = rs;
	return 0;
}

static void rts_sp_release(void *ud, void *handle)
{
	(void)ud;
	ms_rts_synth_free(handle);
}

static int rts_sp_game(void *g, ms_ctx *ctx, int algo, ms_synth_selfplay_game *out)
{
	rts_sp *r = g;
	(void)ctx;
	(void)algo;
	if (!r->n_maps || !r->n_opps)
		return cli_usage_error("selfplay", "microrts needs --map and --opponent (the fixed opponents)");
	r->base.version = MS_RTS_SYNTH_OPTIONS_VERSION;
	r->base.maps = r->maps;
	r->base.n_maps = r->n_maps;
	r->base.max_cycles = (int)r->max_cycles;
	r->base.tiebreak = MS_RTS_TIEBREAK_LENGTH;
	*out = (ms_synth_selfplay_game){ r, r->n_opps, rts_sp_make, rts_sp_release };
	return CLI_OK;
}

/* F(p) against the population's first opponent reuses its Psi matches (rts_synth.c), where a fixed
 * opponent outside the population would cost two matches per map for every program scored. */
static void rts_sp_br_options(void *g, ms_synth_options *br)
{
	(void)g;
	rts_knob_defaults(br);
}

static int rts_sp_vs_fixed(void *g, ms_ctx *ctx, void *probe, const ms_dsl_prog *p, int threads, double *out)
{
	ms_rts_synth_result res;
	(void)g;
	(void)threads;
	int rc = ms_rts_synth_score(ctx, probe, p, 0, &res);
	if (rc < 0)
		return rc;
	*out = res.psi;
	return 0;
}

static void rts_sp_describe(void *g, double vs, char *out, size_t size)
{
	(void)g;
	snprintf(out, size, "psi vs the fixed opponents: %.4f (both seats, every map)", vs);
}

static void rts_sp_summary(void *g, char *out, size_t size)
{
	(void)g;
	snprintf(out, size, "%s", "");
}

static void rts_sp_release_state(void *g)
{
	(void)g;
}

/*
 * Proved on the matches the iteration's scores play: every map against the
 * fixed opponents (vs_fixed) and the earlier programs it answered (its
 * search's Psi), both seats, the loop's edition and lengths.
 */
static void rts_sp_simplify(void *g, ms_ctx *ctx, ms_dsl_prog *p, const ms_dsl_prog *const *pop, int n_pop,
			    synth_simplified *out)
{
	rts_sp *r = g;
	ms_match_player *pl;
	char earlier[96] = "";
	ms_rts_proof *pr = NULL;
	ms_dsl_prog *work = NULL;
	ms_rts_simplify_stats ss;
	ms_rts_proof_options po = { .version = MS_RTS_PROOF_OPTIONS_VERSION, .maps = r->maps, .n_maps = r->n_maps,
				 .n_opponents = r->n_opps + n_pop, .utt = r->base.utt, .conflict = r->base.conflict,
				 .max_cycles = (int)r->max_cycles, .edition = r->base.edition };
	double t0 = cli_now();
	int rc = rts_sp_players(r, ctx, pop, n_pop, &pl);
	po.players = pl;
	for (int k = 0; k < r->n_opps && !out->why[0]; k++)
		if (!ms_bot_spec_native(r->opps[k]))
			snprintf(out->why, sizeof out->why,
				 "opponent %s plays in the JVM, whose matches cannot be replayed cycle by cycle", r->opps[k]);
	if (out->why[0])
		goto done;
	if (rc || ms_rts_proof_new(ctx, &pr, &po) || ms_dsl_prog_clone(&work, p) ||
	    ms_rts_simplify(pr, work, NULL, &ss) || ms_dsl_prog_copy(p, work)) {
		snprintf(out->why, sizeof out->why, "simplification failed: %s", ms_ctx_last_error(ctx));
		fprintf(stderr, "microsynth selfplay: the program is written as found: %s\n", out->why);
		ms_ctx_clear_error(ctx);
		goto done;
	}
	out->done = 1;
	out->seconds = cli_now() - t0;
	out->lines_before = ss.lines_before;
	out->lines_after = ss.lines_after;
	out->nodes_before = ss.nodes_before;
	out->nodes_after = ss.nodes_after;
	if (n_pop)
		snprintf(earlier, sizeof earlier, " and the %d earlier program%s the iteration answered", n_pop,
			 n_pop > 1 ? "s" : "");
	snprintf(out->proof, sizeof out->proof,
		 "proof: the %d matches against\nthe fixed opponents%s (both seats, every map),\n"
		 "replayed with this program, issue the same unit actions on all %ld cycles and end the same",
		 ss.matches, earlier, ss.cycles_compared);
	snprintf(out->fields, sizeof out->fields, "matches=%d cycles_compared=%ld", ss.matches, ss.cycles_compared);
done:
	ms_dsl_prog_free(work);
	ms_rts_proof_free(pr);
	free(pl);
}

static const synth_selfplay_row rts_selfplay = {
	sizeof(rts_sp),	 rts_sp_usage,	 rts_sp_option,	  rts_sp_game,	  rts_sp_br_options, rts_sp_vs_fixed,
	write_program,	 "vs_fixed",	 rts_sp_describe, rts_sp_summary, rts_sp_release_state,
	rts_sp_simplify, ".raw.ms",
};

const synth_game synth_game_microrts = { "microrts", &rts_row, &rts_selfplay };
