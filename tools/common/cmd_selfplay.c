/*
 * microsynth selfplay: the self-play loops of synth.h (iterated best
 * response, fictitious play, 2L) with any search as the best response, on
 * any game whose row (synth_games()) offers self-play: the game's fixed
 * opponents first, then earlier iterations' programs. Each iteration's
 * program is written simplified by the game's row, proved on the matches
 * its reported score plays; the loop itself goes on with the search's
 * programs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/synth.h"
#include "cli.h"
#include "synth_front.h"
#include "synth_mpi.h"

#define CMD "selfplay"

void cmd_selfplay_usage(FILE *out)
{
	size_t n;
	const synth_game *const *games = synth_games(&n);
	char names[256];
	synth_game_names(names, sizeof names, 1);
	fprintf(out,
		"Usage: microsynth selfplay --game GAME --loop ibr|fp|2l --br sa|hss|sketch-sa|uct|...\n"
		"                           [--iterations N] (--time T | --evals E) --seed S [--threads K]\n"
		"                           -o OUT [--csv FILE] [--checkpoint DIR [--resume]] [--fixed-weight W]\n"
		"                           [--keep-raw] [--no-simplify] [--no-progress] [game options]\n"
		"\n"
		"Learns a program by self-play (GAME: %s): iteration 0 answers the game's fixed\n"
		"opponents (Can't Stop: GA; MicroRTS: the --opponent list); iteration i > 0 answers earlier\n"
		"iterations' programs:\n"
		"ibr the previous one, fp all of them (uniform), 2l the subset that scores programs of the\n"
		"previous search as the whole pool does (synth.h). --fixed-weight W > 0 keeps the fixed\n"
		"opponents in every population with weight W each. Each best response is a search of\n"
		"--br with seed S + i and budget --evals E\n"
		"per iteration, or --time T for the whole loop (split evenly; not reproducible).\n"
		"--iterations N (5).\n\n"
		"Output: OUT is the last iteration's program, OUT.iter-I each iteration's (written as it\n"
		"ends, with a '#' header). Can't Stop reports each program's win rate against GA over\n"
		"--final-matches fresh matches (10000, seed 777), MicroRTS its Psi against the --opponent\n"
		"list (both seats, every map, native engine). Programs are written simplified (as\n"
		"`microsynth cantstop simplify` and `dsl simplify` do it), proved on the matches of that\n"
		"score (MicroRTS: and on those against the earlier programs the iteration answered): the\n"
		"header gives the proof's figures, stdout a line simplified: iteration=I lines_before=...\n"
		"before the iteration's; the loop goes on with the search's programs. --keep-raw also\n"
		"writes the search's text beside each file (Can't Stop: FILE.raw.txt, MicroRTS:\n"
		"FILE.raw.ms); --no-simplify writes that text (docs/readable-programs.md).\n"
		"--csv FILE appends one line per iteration (iteration,seconds,search_psi,vs_fixed,\n"
		"evals_psi,population). --checkpoint DIR keeps each iteration's search log there\n"
		"(DIR/iter-NNN.log); the same command with --resume replays them and continues.\n\n",
		names);
	for (size_t i = 0; i < n; i++)
		if (games[i]->selfplay)
			games[i]->selfplay->usage(out);
	fprintf(out, "\n");
	synth_knobs_usage(out);
}

typedef struct sp_args {
	synth_search_args s; /* s.algo is --br */
	const char *loop;
	const synth_game *game;
	void *g; /* the game's state (its row's size) */
	long iterations;
	double fixed_weight;
	int keep_raw, no_simplify;
} sp_args;

static int parse(int argc, char **argv, sp_args *a)
{
	const synth_selfplay_row *row = a->game->selfplay;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = synth_search_option(CMD, "--br", argc, argv, &i, &a->s);
		if (rc == SYNTH_OPT_OTHER)
			rc = row->option(a->g, argc, argv, &i);
		if (rc != SYNTH_OPT_OTHER) {
			if (rc)
				return rc;
			continue;
		}
		if (!strcmp(o, "--keep-raw") || !strcmp(o, "--no-simplify")) {
			*(o[2] == 'k' ? &a->keep_raw : &a->no_simplify) = 1;
			continue;
		}
		if (!v)
			return cli_usage_error(CMD, "%s needs a value (or is unknown)", o);
		i++;
		if (!strcmp(o, "--loop"))
			a->loop = v;
		else if (!strcmp(o, "--fixed-weight")) {
			if (cli_parse_real(CMD, o, v, 0, 1e9, 0, &a->fixed_weight))
				return CLI_USAGE;
		} else if (!strcmp(o, "--iterations")) {
			if (cli_parse_int(CMD, o, v, 1, 10000, &a->iterations))
				return CLI_USAGE;
		} else if (strcmp(o, "--game"))
			return cli_usage_error(CMD, "unknown option '%s'", o);
	}
	return CLI_OK;
}

/* What needs the whole command line but the game's own options; a CLI code. */
static int check(const sp_args *a, int *algo)
{
	if (!a->loop || ms_synth_loop_from_name(a->loop) < 0)
		return cli_usage_error(CMD, "--loop is required: ibr, fp or 2l");
	int rc = synth_search_check(CMD, "--br", &a->s, NULL, 0, algo);
	if (rc)
		return rc;
	if (a->s.initial)
		return cli_usage_error(CMD, "--initial: every iteration's search starts from scratch");
	if (synth_search_knob(&a->s, "--hss-library") && a->s.resume)
		return cli_usage_error(CMD, "--resume cannot replay iterations whose shared --hss-library has changed since "
				       "(each iteration rewrites it); resume without --hss-library is not possible either");
	return CLI_OK;
}

/* ---- per iteration ---- */

typedef struct sp_run {
	const sp_args *a;
	ms_ctx *ctx;
	void *probe; /* the loop's problem without earlier programs: scores against the fixed opponents */
	int n_fixed;
	ms_dsl_prog *const *progs; /* the loop's programs: iteration i's is progs[i] once it ended */
	FILE *csv;
	double t0;
	double best_fixed; /* best score against the fixed opponents so far */
	int best_it;
	synth_run_ud bar;
} sp_run;

/* "fixed0:1 iter2:0.5 ...": the population an iteration answered. */
static void population(const sp_run *r, const ms_synth_selfplay_iter *it, char *pop, size_t size)
{
	size_t at = 0;
	pop[0] = 0;
	for (int i = 0; i < it->pop->n && at < size - 40; i++) {
		int id = it->pop->opponents[i], nf = r->n_fixed;
		at += (size_t)snprintf(pop + at, size - at, "%s%s%d:%g", i ? " " : "", id < nf ? "fixed" : "iter",
				       id < nf ? id : id - nf, it->pop->weights ? it->pop->weights[i] : 1.0);
	}
}

/* The program the iteration writes: p (a copy of its program) simplified, unless --no-simplify. */
static void sp_simplify(sp_run *r, const ms_synth_selfplay_iter *it, ms_dsl_prog *p, synth_simplified *sim)
{
	const synth_selfplay_row *row = r->a->game->selfplay;
	const ms_dsl_prog **pop;
	int n = 0;
	if (r->a->no_simplify || !row->simplify) {
		snprintf(sim->why, sizeof sim->why, "%s",
			 r->a->no_simplify ? "--no-simplify" : "not offered for this game");
		return;
	}
	if (!(pop = calloc((size_t)it->pop->n + 1, sizeof *pop))) {
		snprintf(sim->why, sizeof sim->why, "simplification failed: out of memory");
		return;
	}
	for (int i = 0; i < it->pop->n; i++)
		if (it->pop->opponents[i] >= r->n_fixed)
			pop[n++] = r->progs[it->pop->opponents[i] - r->n_fixed];
	row->simplify(r->a->g, r->ctx, p, pop, n, sim);
	free(pop);
}

/* OUT.iter-I and OUT, and with --keep-raw the search's text beside each; 0 or -1 (the message on stderr). */
static int sp_write(const sp_run *r, int iteration, const ms_dsl_prog *p, const ms_dsl_prog *raw, const char *header,
		    int simplified)
{
	const sp_args *a = r->a;
	const synth_selfplay_row *row = a->game->selfplay;
	char path[1100], raw_path[1200], raw_header[6656];
	snprintf(path, sizeof path, "%s.iter-%d", a->s.out, iteration);
	for (int k = 0; k < 2; k++) {
		const char *f = k ? a->s.out : path;
		snprintf(raw_path, sizeof raw_path, "%s%s", f, row->raw_suffix ? row->raw_suffix : ".raw");
		snprintf(raw_header, sizeof raw_header, "the search's own text of the program %s holds%s\n%s", f,
			 simplified ? " simplified (the same play on every match of its proof)" : "", header);
		if (row->save(p, f, header) < 0 || (a->keep_raw && row->save(raw, raw_path, raw_header) < 0)) {
			synth_fail_as(CMD, ms_dsl_prog_ctx(p), "output");
			return -1;
		}
	}
	return 0;
}

/* Scores and writes the iteration's program, prints its lines; nonzero stops the loop. */
static int on_iteration(void *ud, const ms_synth_selfplay_iter *it)
{
	sp_run *r = ud;
	const sp_args *a = r->a;
	const synth_selfplay_row *row = a->game->selfplay;
	char pop[512], header[6144], line[256], simp[2048], tag[32];
	double vs_fixed = -1;
	synth_simplified sim;
	ms_dsl_prog *p = NULL;
	int stop = 1;

	if (r->bar.bar_on)
		ms_synth_bar_end(&r->bar.bar);
	memset(&sim, 0, sizeof sim);
	if (ms_dsl_prog_clone(&p, it->prog) < 0) {
		synth_fail_as(CMD, ms_dsl_prog_ctx(it->prog), "output");
		return 1;
	}
	sp_simplify(r, it, p, &sim);
	population(r, it, pop, sizeof pop);
	if (row->vs_fixed(a->g, r->ctx, r->probe, p, (int)a->s.threads, &vs_fixed) < 0) {
		synth_fail_as(CMD, r->ctx, "score against the fixed opponents");
		goto done;
	}
	if (vs_fixed > r->best_fixed) {
		r->best_fixed = vs_fixed;
		r->best_it = it->iteration;
	}
	double t = cli_now() - r->t0;
	row->describe(a->g, vs_fixed, line, sizeof line);
	synth_simplified_header(&sim, a->keep_raw, row->raw_suffix ? row->raw_suffix : ".raw", simp, sizeof simp);
	snprintf(header, sizeof header,
		 "microsynth selfplay: iteration %d's best response\ncommand: %s\nloop: %s; best response: %s; seed %ld\n"
		 "population: %s\nsearch psi against it: %.4f; evaluations %lld; search seconds %.1f%s\n%s\n%s",
		 it->iteration, a->s.command, a->loop, a->s.algo, a->s.seed + it->iteration, pop, it->psi,
		 it->stats.evals_psi, it->stats.elapsed, it->stats.timed ? " (budgeted by time: not reproducible)" : "",
		 line, simp);
	if (sp_write(r, it->iteration, p, it->prog, header, sim.done) < 0)
		goto done;
	snprintf(tag, sizeof tag, "iteration=%d ", it->iteration);
	synth_simplified_print(&sim, tag);
	printf("iteration=%d search_psi=%.4f %s=%.4f evals=%lld seconds=%.1f population=[%s]\n", it->iteration, it->psi,
	       row->key, vs_fixed, it->stats.evals_psi, t, pop);
	fflush(stdout);
	if (r->csv) {
		fprintf(r->csv, "%d,%.3f,%.6f,%.6f,%lld,%s\n", it->iteration, t, it->psi, vs_fixed, it->stats.evals_psi,
			pop);
		fflush(r->csv);
	}
	stop = 0;
done:
	ms_dsl_prog_free(p);
	return stop;
}

/* --csv FILE opened for appending, with the header if it is new; a CLI code. */
static int sp_open_csv(sp_run *run, const sp_args *a)
{
	if (!a->s.csv)
		return CLI_OK;
	run->csv = fopen(a->s.csv, "a");
	if (!run->csv) {
		fprintf(stderr, "microsynth selfplay: --csv %s: cannot open for appending\n", a->s.csv);
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

/* The loop's and the best responses' options. */
static void sp_options(ms_synth_selfplay_options *so, const sp_args *a, sp_run *run, int algo)
{
	ms_synth_selfplay_options_init(so, MS_SYNTH_SELFPLAY_OPTIONS_VERSION);
	so->loop = ms_synth_loop_from_name(a->loop);
	so->iterations = (int)a->iterations;
	so->fixed_weight = a->fixed_weight;
	so->br.algo = algo;
	so->br.seed = (uint64_t)a->s.seed;
	so->br.threads = (int)a->s.threads;
	so->br.max_evals = a->s.evals;
	so->br.max_seconds = a->s.seconds > 0 ? a->s.seconds / (double)a->iterations : 0;
	if (a->game->selfplay->br_options)
		a->game->selfplay->br_options(a->g, &so->br);
	synth_search_knobs(&so->br, &a->s);
	so->checkpoint_dir = a->s.checkpoint;
	so->resume = a->s.resume;
	so->on_iteration = on_iteration;
	so->on_search = sp_on_search;
	so->ud = run;
	run->bar.bar.out = stderr;
	run->bar.bar_on = a->s.progress;
	so->br.progress = synth_on_progress;
	so->br.progress_ud = &run->bar;
}

/* Runs the loop and prints the summary line; a CLI code. */
static int sp_loop(sp_run *run, const sp_args *a, const ms_synth_selfplay_game *game,
		   const ms_synth_selfplay_options *so, ms_dsl_prog **progs)
{
	char extra[256];
	run->t0 = cli_now();
	synth_signals_catch();
	int rc = ms_synth_selfplay(run->ctx, game, so, progs);
	synth_signals_release();
	if (rc < 0)
		return synth_fail_as(CMD, run->ctx, "selfplay");
	if (rc == MS_SYNTH_STOPPED) {
		fprintf(stderr, "microsynth selfplay: stopped%s\n",
			a->s.checkpoint ? "; continue with the same command and --resume" : "");
		return CLI_FAIL;
	}
	a->game->selfplay->summary(a->g, extra, sizeof extra);
	printf("best_iteration=%d best_%s=%.4f%s seconds=%.1f\n", run->best_it, a->game->selfplay->key, run->best_fixed,
	       extra, cli_now() - run->t0);
	return CLI_OK;
}

/* The game's row and state from --game; a CLI code. */
static int sp_game_row(int argc, char **argv, sp_args *a)
{
	const char *name = NULL;
	char names[256];
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--game"))
			name = argv[i + 1];
	a->game = synth_game_find(name);
	synth_game_names(names, sizeof names, 1);
	if (!name)
		return cli_usage_error(CMD, "--game is required: %s", names);
	if (!a->game)
		return cli_usage_error(CMD, "--game: unknown game '%s' (%s)", name, names);
	if (!a->game->selfplay)
		return cli_usage_error(CMD, "--game: %s has no self-play (%s)", name, names);
	if (!(a->g = calloc(1, a->game->selfplay->size))) {
		fprintf(stderr, "microsynth selfplay: out of memory\n");
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* The loop over the game's problems, on rank 0 (another rank serves rank 0's searches); a CLI code. */
static int sp_main(sp_args *a, sp_run *run, int algo, ms_synth_selfplay_game *game, ms_dsl_prog ***progs)
{
	ms_ctx *ctx = run->ctx;
	ms_synth_selfplay_options so;
	const ms_synth_problem *probe_pb = NULL;
	struct stat st;
	int ret, rank = synth_mpi_rank(); /* > 0: a rank that serves rank 0's searches (only rank 0 writes) */

	if ((ret = a->game->selfplay->game(a->g, ctx, algo, game)))
		return ret;
	if (a->s.checkpoint && rank <= 0 && stat(a->s.checkpoint, &st) != 0 && mkdir(a->s.checkpoint, 0777) != 0) {
		fprintf(stderr, "microsynth selfplay: --checkpoint %s: cannot create the directory\n", a->s.checkpoint);
		return CLI_USAGE;
	}
	/* the programs that receive the iterations' results: of the grammar of a first problem */
	if (game->make(game->ud, ctx, NULL, 0, &probe_pb, &run->probe) < 0)
		return synth_fail_as(CMD, ctx, "problem");
	run->n_fixed = game->n_fixed;
	if (rank > 0)
		return synth_mpi_serve_games(ctx, probe_pb->grammar, (int)a->s.threads, game->make, game->release,
					     game->ud);
	if (!(*progs = calloc((size_t)a->iterations, sizeof **progs)))
		return CLI_FAIL;
	for (long i = 0; i < a->iterations; i++)
		if (ms_dsl_prog_new(ctx, &(*progs)[i], probe_pb->grammar) < 0)
			return synth_fail_as(CMD, ctx, "programs");
	run->progs = *progs;
	if ((ret = sp_open_csv(run, a)))
		return ret;
	sp_options(&so, a, run, algo);
	return sp_loop(run, a, game, &so, *progs);
}

int cmd_selfplay(int argc, char **argv)
{
	sp_args a;
	sp_run run;
	ms_synth_selfplay_game game;
	ms_dsl_prog **progs = NULL;
	int algo, ret;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmd_selfplay_usage(stdout);
			return CLI_OK;
		}
	memset(&a, 0, sizeof a);
	memset(&run, 0, sizeof run);
	memset(&game, 0, sizeof game);
	synth_search_args_init(&a.s, argc, argv);
	a.iterations = 5;
	if ((ret = sp_game_row(argc, argv, &a)) || (ret = parse(argc, argv, &a)) || (ret = check(&a, &algo)))
		goto done;
	if (ms_ctx_new(&run.ctx, NULL) != MS_OK) {
		fprintf(stderr, "microsynth selfplay: out of memory\n");
		ret = CLI_FAIL;
		goto done;
	}
	run.a = &a;
	run.best_fixed = -1;
	ret = sp_main(&a, &run, algo, &game, &progs);
done:
	if (run.csv)
		fclose(run.csv);
	for (long i = 0; progs && i < a.iterations; i++)
		ms_dsl_prog_free(progs[i]);
	free(progs);
	if (run.probe)
		game.release(game.ud, run.probe);
	if (a.g)
		a.game->selfplay->release_state(a.g);
	free(a.g);
	ms_ctx_free(run.ctx);
	return ret;
}
