/*
 * microsynth selfplay: the self-play loops of synth.h (iterated best
 * response, fictitious play, 2L) with any search as the best response, on
 * Can't Stop (opponents: GA and earlier programs) or MicroRTS (the given
 * opponents and earlier programs, passed as program text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/cantstop_synth.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/rts_synth.h"
#include "microsynth/synth.h"
#include "cli.h"
#include "synth_front.h"
#include "synth_mpi.h"

#define CMD "selfplay"
#define MAX_LIST 32

void cmd_selfplay_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth selfplay --game cantstop|microrts --loop ibr|fp|2l --br sa|hss|sketch-sa|uct|...\n"
		"                           [--iterations N] (--time T | --evals E) --seed S [--threads K]\n"
		"                           -o OUT [--csv FILE] [--checkpoint DIR [--resume]] [--fixed-weight W]\n"
		"                           [--no-progress] [game options]\n"
		"\n"
		"Learns a program by self-play: iteration 0 answers the game's fixed opponents (Can't Stop:\n"
		"GA; MicroRTS: the --opponent list); iteration i > 0 answers earlier iterations' programs:\n"
		"ibr the previous one, fp all of them (uniform), 2l the subset that scores programs of the\n"
		"previous search as the whole pool does (synth.h). --fixed-weight W > 0 keeps the fixed\n"
		"opponents in every population with weight W each. Each best response is a search of\n"
		"--br with seed S + i and budget --evals E\n"
		"per iteration, or --time T for the whole loop (split evenly; not reproducible).\n"
		"--iterations N (5).\n\n"
		"Output: OUT is the last iteration's program, OUT.iter-I each iteration's (written as it\n"
		"ends, with a '#' header). Can't Stop reports each program's win rate against GA over\n"
		"--final-matches fresh matches (10000, seed 777), MicroRTS its Psi against the --opponent\n"
		"list (both seats, every map, native engine). --csv FILE appends one line per\n"
		"iteration (iteration,seconds,search_psi,vs_fixed,evals_psi,population). --checkpoint DIR\n"
		"keeps each iteration's search log there (DIR/iter-NNN.log); the same command with\n"
		"--resume replays them and continues.\n\n"
		"Can't Stop options: --matches N (1000), --final-matches N (10000), --feature-matches N (20),\n"
		"--hss-library FILE (hss: one library shared by every iteration, read and rewritten by each),\n"
		"--probe-matches N (generation and mutation keep programs that play N matches without error).\n"
		"MicroRTS options: --map MAP (repeatable, required), --opponent AI (repeatable, required: the\n"
		"fixed opponents, native bots or program:FILE), --neighbours K (SA mutations per step, 20),\n"
		"--max-cycles N, --hss-library FILE (as for Can't Stop). With --br hss, behavioural features\n"
		"are measured against the population's first opponent, from the counts of its Psi matches.\n");
}

typedef struct sp_args {
	char command[1024];
	const char *game, *loop, *br, *out, *csv, *checkpoint, *hss_library;
	const char *maps[MAX_LIST], *opps[MAX_LIST];
	int n_maps, n_opps;
	long iterations, evals, seed, threads, matches, final_matches, feature_matches, neighbours, max_cycles, probe_matches;
	double seconds, fixed_weight;
	int have_seed, resume, progress;
} sp_args;

static int parse(int argc, char **argv, sp_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--resume")) {
			a->resume = 1;
			continue;
		}
		if (!strcmp(o, "--no-progress")) {
			a->progress = 0;
			continue;
		}
		if (!v)
			return cli_usage_error(CMD, "%s needs a value (or is unknown)", o);
		i++;
		if (!strcmp(o, "--game"))
			a->game = v;
		else if (!strcmp(o, "--loop"))
			a->loop = v;
		else if (!strcmp(o, "--br"))
			a->br = v;
		else if (!strcmp(o, "-o"))
			a->out = v;
		else if (!strcmp(o, "--csv"))
			a->csv = v;
		else if (!strcmp(o, "--checkpoint"))
			a->checkpoint = v;
		else if (!strcmp(o, "--hss-library"))
			a->hss_library = v;
		else if (!strcmp(o, "--map") || !strcmp(o, "--opponent")) {
			int is_map = !strcmp(o, "--map");
			int *n = is_map ? &a->n_maps : &a->n_opps;
			if (*n >= MAX_LIST)
				return cli_usage_error(CMD, "more than %d %s options", MAX_LIST, o);
			(is_map ? a->maps : a->opps)[(*n)++] = v;
		} else if (!strcmp(o, "--time")) {
			if (synth_parse_duration(v, &a->seconds))
				return CLI_USAGE;
		} else if (!strcmp(o, "--fixed-weight")) {
			if (cli_parse_real(CMD, o, v, 0, 1e9, 0, &a->fixed_weight))
				return CLI_USAGE;
		} else {
			static const char *const names[] = { "--iterations", "--evals", "--seed", "--threads", "--matches",
							     "--final-matches", "--feature-matches", "--neighbours",
							     "--max-cycles", "--probe-matches" };
			long *dst[] = { &a->iterations, &a->evals, &a->seed, &a->threads, &a->matches, &a->final_matches,
					&a->feature_matches, &a->neighbours, &a->max_cycles, &a->probe_matches };
			static const long lo[] = { 1, 1, 0, 1, 1, 1, 1, 1, 1, 1 };
			static const long hi[] = { 10000, 1000000000L, 0x7fffffffffffffffL, 256, 100000000L, 100000000L,
						   100000, 65536, 100000000L, 1000 };
			size_t k;
			for (k = 0; k < sizeof names / sizeof *names; k++)
				if (!strcmp(o, names[k]))
					break;
			if (k == sizeof names / sizeof *names)
				return cli_usage_error(CMD, "unknown option '%s'", o);
			if (cli_parse_int(CMD, o, v, lo[k], hi[k], dst[k]))
				return CLI_USAGE;
			if (dst[k] == &a->seed)
				a->have_seed = 1;
		}
	}
	if (!a->game || (strcmp(a->game, "cantstop") && strcmp(a->game, "microrts")))
		return cli_usage_error(CMD, "--game is required: cantstop or microrts");
	if (!a->loop || ms_synth_loop_from_name(a->loop) < 0)
		return cli_usage_error(CMD, "--loop is required: ibr, fp or 2l");
	if (!a->br || ms_synth_algo_from_name(a->br) < 0)
		return cli_usage_error(CMD, "--br is required: an algorithm of `microsynth synth` (sa, hss, sketch-sa, ...)");
	if (!a->have_seed)
		return cli_usage_error(CMD, "--seed is required");
	if (!a->evals && !(a->seconds > 0))
		return cli_usage_error(CMD, "a budget is required: --evals E (per iteration) or --time T (whole loop)");
	if (!a->out)
		return cli_usage_error(CMD, "-o OUT is required");
	if (a->resume && !a->checkpoint)
		return cli_usage_error(CMD, "--resume needs --checkpoint DIR");
	if (!strcmp(a->game, "microrts") && (!a->n_maps || !a->n_opps))
		return cli_usage_error(CMD, "microrts needs --map and --opponent (the fixed opponents)");
	if (!strcmp(a->game, "cantstop") && (a->n_maps || a->n_opps || a->neighbours || a->max_cycles))
		return cli_usage_error(CMD, "--map, --opponent, --neighbours and --max-cycles are MicroRTS options");
	if (!strcmp(a->game, "microrts") && (a->matches || a->final_matches || a->feature_matches || a->probe_matches))
		return cli_usage_error(CMD, "--matches, --final-matches, --feature-matches and --probe-matches are Can't Stop "
				       "options");
	if (a->hss_library && ms_synth_algo_from_name(a->br) != MS_SYNTH_HSS)
		return cli_usage_error(CMD, "--hss-library applies to --br hss only");
	if (a->hss_library && a->resume)
		return cli_usage_error(CMD, "--resume cannot replay iterations whose shared --hss-library has changed since "
				       "(each iteration rewrites it); resume without --hss-library is not possible either");
	return CLI_OK;
}

/* An error's message on stderr; bad input is a usage error, the rest a failure. */
static int sp_fail(ms_ctx *ctx, const char *what)
{
	int st = ms_ctx_last_status(ctx);
	fprintf(stderr, "microsynth selfplay: %s: %s\n", what, ms_ctx_last_error(ctx));
	return st == MS_EINVAL || st == MS_EPARSE || st == MS_EIO || st == MS_ENOTFOUND ? CLI_USAGE : CLI_FAIL;
}

/* ---- the games ---- */

static int cs_make(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		   void **handle)
{
	ms_cs_synth_vs *v;
	int rc = ms_cs_synth_vs_new(ctx, ud, progs, n, &v);
	if (rc < 0)
		return rc;
	*pb = ms_cs_synth_vs_problem(v);
	*handle = v;
	return 0;
}

static void cs_release(void *ud, void *handle)
{
	(void)ud;
	ms_cs_synth_vs_free(handle);
}

typedef struct rts_game {
	const sp_args *a;
	ms_rts_synth_options base;
} rts_game;

/* A new problem: the fixed opponents, then each program as "program-text:" in its exact-tree form. */
static int rts_make(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		    void **handle)
{
	rts_game *g = ud;
	int nf = g->a->n_opps, rc = 0;
	const char **opp = calloc((size_t)(nf + n), sizeof *opp);
	char **text = calloc((size_t)(n ? n : 1), sizeof *text);
	ms_rts_synth *rs = NULL;
	if (!opp || !text) {
		free(opp);
		free(text);
		return ms_ctx_error(ctx, MS_ENOMEM, "selfplay: out of memory");
	}
	for (int i = 0; i < nf; i++)
		opp[i] = g->a->opps[i];
	for (int j = 0; j < n && rc == 0; j++) {
		char *salve = NULL;
		size_t len = 0;
		if ((rc = ms_rts_dsl_print(progs[j], MS_RTS_DSL_FORM_SALVE, &salve, &len)) < 0)
			break;
		text[j] = malloc(len + 16);
		if (!text[j])
			rc = ms_ctx_error(ctx, MS_ENOMEM, "selfplay: out of memory");
		else
			snprintf(text[j], len + 16, "program-text:%s", salve);
		ms_ctx_mfree(ms_dsl_prog_ctx(progs[j]), salve);
		opp[nf + j] = text[j];
	}
	if (rc == 0) {
		ms_rts_synth_options o = g->base;
		o.opponents = opp;
		o.n_opponents = nf + n;
		rc = ms_rts_synth_new(ctx, &rs, &o);
	}
	for (int j = 0; j < n; j++)
		free(text[j]);
	free(text);
	free(opp);
	if (rc < 0)
		return rc;
	*pb = ms_rts_synth_problem(rs);
	*handle = rs;
	return 0;
}

static void rts_release(void *ud, void *handle)
{
	(void)ud;
	ms_rts_synth_free(handle);
}

/* ---- per iteration ---- */

typedef struct sp_run {
	const sp_args *a;
	ms_ctx *ctx;
	ms_cs_synth *cs;       /* Can't Stop: for the final win rates */
	ms_rts_synth *rts;     /* MicroRTS: the fixed opponents' problem, for Psi against them */
	int cantstop;
	FILE *csv;
	double t0;
	double best_fixed;     /* best win rate against GA (MicroRTS: Psi against the fixed opponents) so far */
	int best_it;
	synth_run_ud bar;
} sp_run;

static int write_program(sp_run *r, const ms_dsl_prog *p, const char *path, const char *header)
{
	if (r->cantstop)
		return ms_cs_dsl_save(p, path, header);
	char *text = NULL;
	int rc = ms_rts_dsl_print(p, MS_RTS_DSL_FORM_PRETTY, &text, NULL);
	if (rc < 0)
		return rc;
	FILE *f = fopen(path, "w");
	if (!f) {
		ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
		return ms_ctx_error(r->ctx, MS_EIO, "%s: cannot write", path);
	}
	for (const char *h = header; *h;) {
		const char *e = strchr(h, '\n');
		size_t l = e ? (size_t)(e - h) : strlen(h);
		fprintf(f, "# %.*s\n", (int)l, h);
		h += l + (e ? 1 : 0);
	}
	fprintf(f, "%s\n", text);
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	if (fclose(f) != 0)
		return ms_ctx_error(r->ctx, MS_EIO, "%s: write failed", path);
	return 0;
}

static int on_iteration(void *ud, const ms_synth_selfplay_iter *it)
{
	sp_run *r = ud;
	const sp_args *a = r->a;
	char pop[512] = "", path[1100], header[2048];
	size_t at = 0;
	double vs_fixed = -1;
	int failed = 0;

	if (r->bar.bar_on)
		ms_synth_bar_end(&r->bar.bar);
	for (int i = 0; i < it->pop->n && at < sizeof pop - 40; i++) {
		int id = it->pop->opponents[i], nf = r->cantstop ? 1 : a->n_opps;
		at += (size_t)snprintf(pop + at, sizeof pop - at, "%s%s%d:%g", i ? " " : "", id < nf ? "fixed" : "iter",
				       id < nf ? id : id - nf, it->pop->weights ? it->pop->weights[i] : 1.0);
	}
	if (r->cantstop) {
		if (ms_cs_synth_final_psi(r->ctx, r->cs, it->prog, (int)a->threads, 777, &vs_fixed, &failed) < 0)
			return 1;
	} else if (r->rts) {
		ms_rts_synth_result res;
		if (ms_rts_synth_score(r->ctx, r->rts, it->prog, 0, &res) < 0) {
			fprintf(stderr, "microsynth selfplay: Psi against the fixed opponents: %s\n", ms_ctx_last_error(r->ctx));
			return 1;
		}
		vs_fixed = res.psi;
	}
	if (vs_fixed > r->best_fixed) {
		r->best_fixed = vs_fixed;
		r->best_it = it->iteration;
	}
	double t = cli_now() - r->t0;
	snprintf(header, sizeof header,
		 "microsynth selfplay: iteration %d's best response\ncommand: %s\nloop: %s; best response: %s; seed %ld\n"
		 "population: %s\nsearch psi against it: %.4f; evaluations %lld; search seconds %.1f%s\n"
		 "",
		 it->iteration, a->command, a->loop, a->br, a->seed + it->iteration, pop, it->psi, it->stats.evals_psi,
		 it->stats.elapsed, it->stats.timed ? " (budgeted by time: not reproducible)" : "");
	if (vs_fixed >= 0 && r->cantstop) {
		size_t hl = strlen(header);
		snprintf(header + hl, sizeof header - hl, "win rate vs GA: %.4f over %ld fresh matches (seed 777)",
			 vs_fixed, a->final_matches ? a->final_matches : 10000L);
	} else if (vs_fixed >= 0) {
		size_t hl = strlen(header);
		snprintf(header + hl, sizeof header - hl, "psi vs the fixed opponents: %.4f (both seats, every map)",
			 vs_fixed);
	}
	snprintf(path, sizeof path, "%s.iter-%d", a->out, it->iteration);
	if (write_program(r, it->prog, path, header) < 0 || write_program(r, it->prog, a->out, header) < 0) {
		fprintf(stderr, "microsynth selfplay: output: %s\n", ms_ctx_last_error(r->ctx));
		return 1;
	}
	printf("iteration=%d search_psi=%.4f", it->iteration, it->psi);
	if (r->cantstop)
		printf(" vs_ga=%.4f", vs_fixed);
	else
		printf(" vs_fixed=%.4f", vs_fixed);
	printf(" evals=%lld seconds=%.1f population=[%s]\n", it->stats.evals_psi, t, pop);
	fflush(stdout);
	if (r->csv) {
		fprintf(r->csv, "%d,%.3f,%.6f,", it->iteration, t, it->psi);
		if (vs_fixed >= 0)
			fprintf(r->csv, "%.6f", vs_fixed);
		fprintf(r->csv, ",%lld,%s\n", it->stats.evals_psi, pop);
		fflush(r->csv);
	}
	return 0;
}

/* The game the loop plays: Can't Stop's problem (made here) or MicroRTS's options in rg; a CLI code. */
static int sp_game(sp_run *run, sp_args *a, int algo, rts_game *rg, ms_synth_selfplay_game *game)
{
	if (run->cantstop) {
		ms_cs_synth_options po;
		ms_cs_synth_options_init(&po);
		if (a->matches)
			po.matches = a->matches;
		if (a->final_matches)
			po.final_matches = a->final_matches;
		po.feature_matches = a->feature_matches;
		po.probe_matches = a->probe_matches;
		if (algo == MS_SYNTH_SKETCH_SA || algo == MS_SYNTH_SKETCH_UCT)
			po.oracle = MS_CS_ORACLE_GA;
		if (ms_cs_synth_new(run->ctx, &run->cs, &po) < 0)
			return sp_fail(run->ctx, "problem");
		*game = (ms_synth_selfplay_game){ run->cs, 1, cs_make, cs_release };
		return CLI_OK;
	}
	memset(rg, 0, sizeof *rg);
	rg->a = a;
	rg->base.version = MS_RTS_SYNTH_OPTIONS_VERSION;
	rg->base.maps = a->maps;
	rg->base.n_maps = a->n_maps;
	rg->base.max_cycles = (int)a->max_cycles;
	rg->base.tiebreak = MS_RTS_TIEBREAK_LENGTH;
	*game = (ms_synth_selfplay_game){ rg, a->n_opps, rts_make, rts_release };
	return CLI_OK;
}

/* --csv FILE opened for appending, with the header if it is new; a CLI code. */
static int sp_open_csv(sp_run *run, const sp_args *a)
{
	if (!a->csv)
		return CLI_OK;
	run->csv = fopen(a->csv, "a");
	if (!run->csv) {
		fprintf(stderr, "microsynth selfplay: --csv %s: cannot open for appending\n", a->csv);
		return CLI_USAGE;
	}
	if (ftell(run->csv) == 0)
		fputs("iteration,seconds,search_psi,vs_fixed,evals_psi,population\n", run->csv);
	return CLI_OK;
}

/* Under MPI: the iteration's search gets the other ranks, which make the same problem from the same programs. */
static int sp_on_search(void *ud, ms_synth *s, const ms_synth_problem *pb, const ms_dsl_prog *const *progs, int n)
{
	sp_run *r = ud;
	return synth_mpi_attach_vs(r->ctx, s, pb, progs, n);
}

/* The loop's and the best responses' options; probe is MicroRTS's first problem (scores vs_fixed). */
static void sp_options(ms_synth_selfplay_opts *so, const sp_args *a, sp_run *run, int algo, void *probe)
{
	ms_synth_selfplay_opts_init(so);
	so->loop = ms_synth_loop_from_name(a->loop);
	so->iterations = (int)a->iterations;
	so->fixed_weight = a->fixed_weight;
	so->br.algo = algo;
	so->br.seed = (uint64_t)a->seed;
	so->br.threads = (int)a->threads;
	so->br.max_evals = a->evals;
	so->br.max_seconds = a->seconds > 0 ? a->seconds / (double)a->iterations : 0;
	so->br.hss_library = a->hss_library;
	if (!run->cantstop) {
		so->br.sa_neighbours = a->neighbours ? (int)a->neighbours : 20;
		/* matches are deterministic: a program seen before scores as it did, and re-scoring confirms nothing;
		 * F(p) against the population's first opponent reuses its Psi matches (rts_synth.c), where a fixed
		 * opponent outside the population would cost two matches per map for every program scored */
		so->br.sa_cache = 1;
		so->br.hss_confirm = 0;
		run->rts = probe;
	}
	so->checkpoint_dir = a->checkpoint;
	so->resume = a->resume;
	so->on_iteration = on_iteration;
	so->on_search = sp_on_search;
	so->ud = run;
	run->bar.bar.out = stderr;
	run->bar.bar_on = a->progress;
	so->br.progress = synth_on_progress;
	so->br.progress_ud = &run->bar;
}

/* Runs the loop and prints the summary line; a CLI code. */
static int sp_loop(sp_run *run, const sp_args *a, const ms_synth_selfplay_game *game,
		   const ms_synth_selfplay_opts *so, ms_dsl_prog **progs)
{
	run->t0 = cli_now();
	synth_signals_catch();
	int rc = ms_synth_selfplay(run->ctx, game, so, progs);
	synth_signals_release();
	if (rc < 0)
		return sp_fail(run->ctx, "selfplay");
	if (rc == MS_SYNTH_STOPPED) {
		fprintf(stderr, "microsynth selfplay: stopped%s\n",
			a->checkpoint ? "; continue with the same command and --resume" : "");
		return CLI_FAIL;
	}
	if (run->cantstop)
		printf("best_iteration=%d best_vs_ga=%.4f final_matches=%ld seconds=%.1f\n", run->best_it,
		       run->best_fixed, a->final_matches ? a->final_matches : 10000L, cli_now() - run->t0);
	else
		printf("best_iteration=%d best_vs_fixed=%.4f seconds=%.1f\n", run->best_it, run->best_fixed,
		       cli_now() - run->t0);
	return CLI_OK;
}

int cmd_selfplay(int argc, char **argv)
{
	sp_args a;
	memset(&a, 0, sizeof a);
	size_t used = (size_t)snprintf(a.command, sizeof a.command, "microsynth");
	for (int i = 0; i < argc && used < sizeof a.command; i++)
		used += (size_t)snprintf(a.command + used, sizeof a.command - used, " %s", argv[i]);
	a.threads = 1;
	a.progress = 1;
	a.iterations = 5;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmd_selfplay_usage(stdout);
			return CLI_OK;
		}
	int ret = parse(argc, argv, &a);
	if (ret != CLI_OK)
		return ret;

	ms_ctx *ctx = NULL;
	sp_run run;
	rts_game rg;
	ms_synth_selfplay_game game;
	ms_synth_selfplay_opts so;
	ms_dsl_prog **progs = NULL;
	const ms_synth_problem *probe_pb = NULL;
	void *probe = NULL;
	int algo = ms_synth_algo_from_name(a.br);

	memset(&run, 0, sizeof run);
	memset(&game, 0, sizeof game);
	if (ms_ctx_new(&ctx, NULL) != MS_OK) {
		fprintf(stderr, "microsynth selfplay: out of memory\n");
		return CLI_FAIL;
	}
	run.a = &a;
	run.ctx = ctx;
	run.best_fixed = -1;
	run.cantstop = !strcmp(a.game, "cantstop");
	struct stat st;
	int rank = synth_mpi_rank(); /* > 0: a rank that serves rank 0's searches (only rank 0 writes) */
	if (a.checkpoint && rank <= 0 && stat(a.checkpoint, &st) != 0 && mkdir(a.checkpoint, 0777) != 0) {
		fprintf(stderr, "microsynth selfplay: --checkpoint %s: cannot create the directory\n", a.checkpoint);
		ret = CLI_USAGE;
		goto done;
	}
	if ((ret = sp_game(&run, &a, algo, &rg, &game)))
		goto done;
	/* the programs that receive the iterations' results: of the grammar of a first problem */
	if (game.make(game.ud, ctx, NULL, 0, &probe_pb, &probe) < 0) {
		ret = sp_fail(ctx, "problem");
		goto done;
	}
	if (rank > 0) {
		ret = synth_mpi_serve_games(ctx, probe_pb->grammar, (int)a.threads, game.make, game.release, game.ud);
		goto done;
	}
	ret = CLI_FAIL;
	progs = calloc((size_t)a.iterations, sizeof *progs);
	if (!progs)
		goto done;
	for (long i = 0; i < a.iterations; i++)
		if (ms_dsl_prog_new(ctx, &progs[i], probe_pb->grammar) < 0) {
			ret = sp_fail(ctx, "programs");
			goto done;
		}
	if ((ret = sp_open_csv(&run, &a)))
		goto done;
	sp_options(&so, &a, &run, algo, probe);
	ret = sp_loop(&run, &a, &game, &so, progs);
done:
	if (run.csv)
		fclose(run.csv);
	for (long i = 0; progs && i < a.iterations; i++)
		ms_dsl_prog_free(progs[i]);
	free(progs);
	if (probe)
		game.release(game.ud, probe);
	ms_cs_synth_free(run.cs);
	ms_ctx_free(ctx);
	return ret;
}
