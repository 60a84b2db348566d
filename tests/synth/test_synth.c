/* The synthesis core on a toy problem (tests/synth/toy.h). */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "toy.h"

typedef struct fixture {
	ms_ctx *ctx;
	toy t;
	ms_synth_problem pb;
	char dir[256];
	char path[512];
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f || ms_ctx_new(&f->ctx, NULL) != MS_OK)
		return -1;
	f->t.noisy = 1;
	f->t.points = 8;
	if (toy_problem(f->ctx, &f->t, &f->pb) != 0)
		return -1;
	const char *tmp = getenv("TMPDIR");
	snprintf(f->dir, sizeof f->dir, "%s/ms_synth_XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	ms_dsl_grammar_free(f->t.g);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static const char *file_in(fixture *f, const char *name)
{
	snprintf(f->path, sizeof f->path, "%s/%s", f->dir, name);
	return f->path;
}

/* What a run leaves behind, and a digest of every evaluation it reported, in order. */
typedef struct outcome {
	int rc;
	char best[2048];
	double psi, c;
	ms_synth_stats st;
	uint64_t trace;         /* hash of (kind, score bits) of every evaluation reported */
	long long reported;
	long long kinds[2];
	long long c_after_psi;   /* C evaluations reported after the first Psi one */
	long long psi_in_sketch; /* Psi evaluations reported during the sketch phase */
	long long stop_after;   /* the progress callback stops the search after this many (0: never) */
	int stop_in_br;         /* ... counted from the first report of the BR search */
	long long br_from;
	long long trace_n;      /* trace_at: the trace after this many reports */
	uint64_t trace_at;
	int saw_br;
	long long c_in_br;
} outcome;

static int record_progress(void *ud, const ms_synth_stats *st)
{
	outcome *o = ud;
	uint64_t bits;
	memcpy(&bits, &st->last_score, sizeof bits);
	o->trace = (o->trace ^ (bits + (uint64_t)st->last_kind)) * 1099511628211ULL;
	o->reported++;
	o->kinds[st->last_kind]++;
	if (st->last_kind == MS_SYNTH_C && o->kinds[MS_SYNTH_PSI] > 0)
		o->c_after_psi++;
	if (st->last_kind == MS_SYNTH_PSI && st->phase == MS_SYNTH_PHASE_SKETCH)
		o->psi_in_sketch++;
	if (st->phase == MS_SYNTH_PHASE_BR) {
		if (!o->saw_br)
			o->br_from = o->reported;
		o->saw_br = 1;
		o->c_in_br += st->last_kind == MS_SYNTH_C;
	}
	if (o->reported == o->trace_n)
		o->trace_at = o->trace;
	if (o->stop_in_br)
		return o->saw_br && o->reported - o->br_from + 1 >= o->stop_after;
	return o->stop_after > 0 && o->reported >= o->stop_after;
}

static ms_synth_options base_opts(int algo, uint64_t seed, long long evals)
{
	ms_synth_options o;
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.algo = algo;
	o.seed = seed;
	o.max_evals = evals;
	o.sketch_passes = 2;
	o.sketch_evals = 600;
	return o;
}

static void run(fixture *f, ms_synth_options *o, outcome *out)
{
	ms_synth *s;
	long long stop = out->stop_after, trace_n = out->trace_n;
	int in_br = out->stop_in_br;
	memset(out, 0, sizeof *out);
	out->stop_after = stop;
	out->stop_in_br = in_br;
	out->trace_n = trace_n;
	o->progress = record_progress;
	o->progress_ud = out;
	int rc = ms_synth_new(f->ctx, &s, &f->pb, o);
	if (rc < 0)
		fail_msg("ms_synth_new: %s", ms_ctx_last_error(f->ctx));
	out->rc = ms_synth_run(s);
	if (out->rc < 0)
		fail_msg("ms_synth_run: %s", ms_ctx_last_error(f->ctx));
	const ms_dsl_prog *b = ms_synth_best(s, MS_SYNTH_PSI);
	if (b) {
		char *tok;
		assert_int_equal(ms_dsl_print_tokens(b, ' ', &tok, NULL), 0);
		snprintf(out->best, sizeof out->best, "%s", tok);
		ms_ctx_mfree(f->ctx, tok);
	}
	out->psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	out->c = ms_synth_best_score(s, MS_SYNTH_C);
	ms_synth_get_stats(s, &out->st);
	ms_synth_free(s);
}

static void assert_same_outcome(const outcome *a, const outcome *b)
{
	assert_string_equal(a->best, b->best);
	assert_memory_equal(&a->psi, &b->psi, sizeof a->psi);
	assert_memory_equal(&a->c, &b->c, sizeof a->c);
	assert_int_equal(a->st.evals_psi, b->st.evals_psi);
	assert_int_equal(a->st.evals_c, b->st.evals_c);
	assert_int_equal(a->st.cache_hits, b->st.cache_hits);
}

/* ---- evaluator ---- */

static int failing_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int shard,
			uint64_t seed, double *sum, double *weight)
{
	if (shard == 2 && ms_dsl_prog_nodes(p)[0] == TOY_X)
		return ms_ctx_error(ctx, MS_EIO, "toy: cannot read shard %d", shard);
	return toy_eval(user, state, ctx, p, kind, shard, seed, sum, weight);
}

/* x^(2^k) as a full tree of Times */
static void push_power(ms_dsl_prog *p, int k)
{
	if (k == 0) {
		assert_int_equal(ms_dsl_prog_push(p, TOY_X), 0);
		return;
	}
	assert_int_equal(ms_dsl_prog_push(p, TOY_TIMES), 0);
	push_power(p, k - 1);
	push_power(p, k - 1);
}

static void test_synth_eval__any_thread_count_gives_the_same_scores(void **state)
{
	fixture *f = *state;
	enum { N = 40 };
	ms_dsl_prog *p[N];
	uint64_t seeds[N];
	double sc[3][N];
	int failed[3][N];
	ms_jrandom r;
	ms_jrandom_init(&r, 5);
	for (int i = 0; i < N; i++) {
		assert_int_equal(ms_dsl_prog_new(f->ctx, &p[i], f->t.g), 0);
		assert_int_equal(ms_dsl_generate(p[i], TOY_E, &r, NULL), 0);
		seeds[i] = ms_synth_eval_seed(99, (uint64_t)i);
	}
	/* x^16 overflows the toy's range at |x| = 8: a run-time failure, scored 0 */
	ms_dsl_prog_clear(p[7]);
	push_power(p[7], 4);
	assert_int_equal(ms_dsl_prog_finish(p[7], TOY_E), 0);
	f->t.points = 17; /* 4^16 > 1e9: any point with |x| >= 4 makes it fail */
	const int threads[3] = { 1, 2, 5 };
	for (int k = 0; k < 3; k++) {
		ms_synth_eval *ev;
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, threads[k], NULL), 0);
		assert_int_equal(ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)p, N, MS_SYNTH_PSI, seeds, sc[k],
							failed[k], NULL, NULL),
				 0);
		ms_synth_eval_free(ev);
	}
	int n_distinct = 0;
	for (int i = 0; i < N; i++) {
		assert_memory_equal(&sc[0][i], &sc[1][i], sizeof(double));
		assert_memory_equal(&sc[0][i], &sc[2][i], sizeof(double));
		assert_int_equal(failed[0][i], failed[2][i]);
		assert_true(sc[0][i] >= 0 && sc[0][i] <= 1);
		n_distinct += i > 0 && sc[0][i] != sc[0][i - 1];
		if (failed[0][i])
			assert_true(sc[0][i] == 0);
	}
	assert_true(n_distinct > N / 2); /* the scores do depend on the programs */
	assert_true(failed[0][7] && sc[0][7] == 0);
	/* a different seed draws different points */
	ms_synth_eval *ev;
	double other[N];
	for (int i = 0; i < N; i++)
		seeds[i] = ms_synth_eval_seed(100, (uint64_t)i);
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, 2, NULL), 0);
	assert_int_equal(ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)p, N, MS_SYNTH_PSI, seeds, other, NULL,
						NULL, NULL),
			 0);
	int differ = 0;
	for (int i = 0; i < N; i++)
		differ += other[i] != sc[0][i];
	assert_true(differ > 0);
	ms_synth_eval_free(ev);

	/* a problem's error stops the batch and is reported with the program and shard */
	ms_synth_problem bad = f->pb;
	bad.eval = failing_eval;
	ms_dsl_prog *x;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &x, f->t.g), 0);
	assert_int_equal(ms_dsl_prog_push(x, TOY_X), 0);
	assert_int_equal(ms_dsl_prog_finish(x, TOY_E), 0);
	const ms_dsl_prog *two[2] = { p[0], x };
	for (int k = 1; k <= 2; k++) {
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &bad, k, NULL), 0);
		assert_int_equal(ms_synth_eval_programs(ev, two, 2, MS_SYNTH_PSI, seeds, other, NULL, NULL, NULL), MS_EIO);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "program 1 of the batch (psi, shard 2)"));
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "cannot read shard 2"));
		ms_synth_eval_free(ev);
	}
	ms_dsl_prog_free(x);
	for (int i = 0; i < N; i++)
		ms_dsl_prog_free(p[i]);
}

/* ---- search quality ---- */

/* The exact (noise-free) toy: mean of the best Psi over seeds 1..n. */
static double mean_best(fixture *f, int algo, long long evals, int n)
{
	double sum = 0;
	for (int seed = 1; seed <= n; seed++) {
		ms_synth_options o = base_opts(algo, (uint64_t)seed, evals);
		outcome out = { 0 };
		run(f, &o, &out);
		assert_int_equal(out.rc, 0);
		assert_int_equal(out.st.evals_psi, evals); /* the whole budget, and not one more */
		sum += out.psi;
	}
	return sum / n;
}

/* Remote slots served in-process as an MPI rank serves them: the program as tokens, a server's own evaluator. */
enum { REMOTE_SLOTS = 3 };
typedef struct remote_fake {
	ms_synth_eval *server[REMOTE_SLOTS];
	ms_dsl_prog *copy[REMOTE_SLOTS];
	int tasks[REMOTE_SLOTS];
	int fail; /* every remote task ends with an error */
} remote_fake;

static int remote_fake_eval(void *user, int slot, ms_ctx *ctx, const ms_synth_task *t, double *sum, double *weight)
{
	remote_fake *r = user;
	char *text;
	size_t len;
	if (r->fail)
		return ms_ctx_error(ctx, MS_EIO, "slot %d: the rank is gone", slot);
	assert_int_equal(ms_dsl_print_tokens(t->prog, ' ', &text, &len), 0);
	assert_int_equal(ms_dsl_parse_tokens(r->copy[slot], text, len, ' ', ms_dsl_prog_nt(t->prog)), 0);
	ms_ctx_mfree(ctx, text);
	ms_synth_task mine = *t;
	mine.prog = r->copy[slot];
	r->tasks[slot]++;
	return ms_synth_eval_task(r->server[slot], &mine, sum, weight);
}

/* The toy's eval, slowed down: the remote slots surely take tasks while the caller's thread sleeps. */
static int slow_toy_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int shard,
			 uint64_t seed, double *sum, double *weight)
{
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL);
	return toy_eval(user, state, ctx, p, kind, shard, seed, sum, weight);
}

static void test_synth_eval__remote_workers_give_the_local_scores(void **state)
{
	fixture *f = *state;
	enum { N = 30 };
	ms_dsl_prog *p[N];
	uint64_t seeds[N];
	double local[N], remote[N];
	int lf[N], rf[N];
	ms_jrandom r;
	ms_jrandom_init(&r, 8);
	for (int i = 0; i < N; i++) {
		assert_int_equal(ms_dsl_prog_new(f->ctx, &p[i], f->t.g), 0);
		assert_int_equal(ms_dsl_generate(p[i], TOY_E, &r, NULL), 0);
		seeds[i] = ms_synth_eval_seed(7, (uint64_t)i);
	}
	ms_synth_problem slow = f->pb;
	slow.eval = slow_toy_eval;
	ms_synth_eval *ev;
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, 1, NULL), 0);
	assert_int_equal(ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)p, N, MS_SYNTH_PSI, seeds, local, lf,
						NULL, NULL),
			 0);
	ms_synth_eval_free(ev);

	remote_fake fake = { .fail = 0 };
	for (int k = 0; k < REMOTE_SLOTS; k++) {
		assert_int_equal(ms_synth_eval_new(f->ctx, &fake.server[k], &f->pb, 1, NULL), 0);
		assert_int_equal(ms_dsl_prog_new(f->ctx, &fake.copy[k], f->t.g), 0);
	}
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &slow, 1, NULL), 0);
		assert_int_equal(ms_synth_eval_add_remote(ev, REMOTE_SLOTS, remote_fake_eval, &fake), 0);
		assert_int_equal(ms_synth_eval_add_remote(ev, 1, remote_fake_eval, &fake), MS_EINVAL);
		int rc = ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)p, N, MS_SYNTH_PSI, seeds, remote, rf, NULL,
						NULL);
		ms_synth_eval_free(ev);
		if (pass == 1) {
			/* a remote slot's error ends the batch with its message */
			assert_int_equal(rc, MS_EIO);
			assert_non_null(strstr(ms_ctx_last_error(f->ctx), "the rank is gone"));
			break;
		}
		assert_int_equal(rc, 0);
		int remote_tasks = 0;
		for (int k = 0; k < REMOTE_SLOTS; k++)
			remote_tasks += fake.tasks[k];
		assert_true(remote_tasks > 0); /* the remote slots did take tasks */
		for (int i = 0; i < N; i++) {
			assert_memory_equal(&local[i], &remote[i], sizeof(double));
			assert_int_equal(lf[i], rf[i]);
		}
		fake.fail = 1;
	}
	for (int k = 0; k < REMOTE_SLOTS; k++) {
		ms_synth_eval_free(fake.server[k]);
		ms_dsl_prog_free(fake.copy[k]);
	}
	for (int i = 0; i < N; i++)
		ms_dsl_prog_free(p[i]);
}

static void test_synth_search__sa_and_uct_beat_random_sampling_on_the_same_budget(void **state)
{
	fixture *f = *state;
	f->t.noisy = 0;
	f->pb.fingerprint = "exact";
	const long long budget = 1500;
	double rnd = mean_best(f, MS_SYNTH_RANDOM, budget, 5);
	double sa = mean_best(f, MS_SYNTH_SA, budget, 5);
	double uct = mean_best(f, MS_SYNTH_UCT, budget, 5);
	print_message("mean best psi over 5 seeds, %lld evaluations: random %.4f, SA %.4f, UCT %.4f\n", budget, rnd, sa,
		      uct);
	assert_true(sa > rnd + 0.1);
	assert_true(uct > rnd + 0.05);
}

/* ---- determinism ---- */

static void test_synth_search__same_seed_same_result_for_any_thread_count(void **state)
{
	fixture *f = *state;
	for (int algo = MS_SYNTH_SA; algo <= MS_SYNTH_RANDOM; algo++) {
		outcome a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
		ms_synth_options o = base_opts(algo, 42, 700);
		run(f, &o, &a);
		run(f, &o, &b);
		o.threads = 2;
		run(f, &o, &c);
		o.threads = 1;
		o.seed = 43;
		run(f, &o, &d);
		assert_same_outcome(&a, &b);
		assert_same_outcome(&a, &c);
		assert_int_equal(a.trace, b.trace);
		assert_int_equal(a.trace, c.trace);
		assert_true(a.trace != d.trace); /* the seed matters */
		assert_true(a.st.evals_psi == 700);
	}
}

/* ---- checkpoints ---- */

/* The evaluation records of a checkpoint without their times: what must match between runs. */
static char *eval_lines(const char *path)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	size_t cap = 1 << 20, n = 0;
	char *out = malloc(cap), line[4096];
	assert_non_null(out);
	out[0] = 0;
	while (fgets(line, sizeof line, fp)) {
		if (line[0] != 'e' && line[0] != 'b')
			continue;
		/* drop the checksum and, for e lines, the trailing time field */
		char *body = line + 11;
		if (line[0] == 'e')
			*strrchr(body, ' ') = 0;
		size_t l = strlen(body);
		if (n + l + 4 >= cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		out[n++] = line[0];
		out[n++] = ' ';
		memcpy(out + n, body, l);
		n += l;
		out[n++] = '\n';
		out[n] = 0;
	}
	fclose(fp);
	return out;
}

static void test_synth_checkpoint__stopped_and_resumed_ends_as_uninterrupted(void **state)
{
	fixture *f = *state;
	/* stop points: inside a pass, inside a sketch run, inside the BR search */
	static const struct {
		int algo;
		long long evals, stop[2];
	} cases[] = {
		{ MS_SYNTH_SA, 500, { 137, 333 } },
		{ MS_SYNTH_UCT, 500, { 151, 420 } },
		{ MS_SYNTH_SKETCH_SA, 300, { 250, 760 } },
		{ MS_SYNTH_SKETCH_UCT, 300, { 100, 760 } },
		{ MS_SYNTH_RANDOM, 300, { 77, 0 } },
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		char whole[512], parts[512];
		outcome ref = { 0 }, part = { 0 }, rest = { 0 };
		ms_synth_options o = base_opts(cases[k].algo, 2024, cases[k].evals);
		snprintf(whole, sizeof whole, "%s", file_in(f, "whole.ckpt"));
		snprintf(parts, sizeof parts, "%s", file_in(f, "parts.ckpt"));
		remove(whole);
		remove(parts);
		o.checkpoint = whole;
		run(f, &o, &ref);
		assert_int_equal(ref.rc, 0);

		o.checkpoint = parts;
		o.resume = 1;
		long long done = 0;
		for (int i = 0; i < 2 && cases[k].stop[i]; i++) {
			part.stop_after = cases[k].stop[i]; /* the replay reports the recorded evaluations too */
			run(f, &o, &part);
			assert_int_equal(part.rc, MS_SYNTH_STOPPED);
			/* it stops after the batch in hand (random sampling draws 8 programs at a time) */
			done = part.st.evals_psi + part.st.evals_c;
			assert_true(done >= cases[k].stop[i] && done < cases[k].stop[i] + 8);
		}
		if (cases[k].algo == MS_SYNTH_SKETCH_SA || cases[k].algo == MS_SYNTH_SKETCH_UCT)
			assert_true(part.saw_br); /* the second stop fell in the BR search */
		run(f, &o, &rest);
		assert_int_equal(rest.rc, 0);
		assert_int_equal(rest.st.replayed, done);
		assert_same_outcome(&ref, &rest);
		assert_int_equal(ref.trace, rest.trace); /* the replay reports what the first run reported */
		char *a = eval_lines(whole), *b = eval_lines(parts);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
}

/* A game's own mutation: any node, Num wrappers included (the default skips nodes of size 0). */
static int mutate_any_node(void *user, ms_dsl_prog *p, ms_jrandom *rng)
{
	return ms_dsl_mutate(p, rng, NULL, 1, NULL);
}

static void test_synth_checkpoint__cached_batches_with_duplicates_replay_exactly(void **state)
{
	fixture *f = *state;
	/* E -> x | Num | Plus: SA neighbours repeat each other within a batch; the cache must answer alike */
	static const ms_dsl_nt_def small_nts[] = { { "E", "Num x Plus" }, { "B", "Lt" }, { "N", "0 1 2" } };
	ms_dsl_grammar_def d = { MS_DSL_GRAMMAR_DEF_VERSION, "toy-small", toy_prods, 9, small_nts, 3, TOY_E };
	ms_dsl_grammar *g;
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), 0);
	f->pb.grammar = g;
	f->pb.mutate = mutate_any_node;
	char whole[512], parts[512];
	snprintf(whole, sizeof whole, "%s", file_in(f, "cw.ckpt"));
	snprintf(parts, sizeof parts, "%s", file_in(f, "cp.ckpt"));
	outcome ref = { 0 }, part = { 0 }, rest = { 0 };
	ms_synth_options o = base_opts(MS_SYNTH_SA, 31, 300);
	o.sa_neighbours = 6;
	o.sa_cache = 1;
	o.checkpoint = whole;
	run(f, &o, &ref);
	assert_int_equal(ref.st.evals_psi, 300);
	assert_true(ref.st.cache_hits > 100);
	o.checkpoint = parts;
	part.stop_after = 150;
	run(f, &o, &part);
	assert_int_equal(part.rc, MS_SYNTH_STOPPED);
	o.resume = 1;
	o.threads = 2;
	run(f, &o, &rest);
	assert_int_equal(rest.rc, 0);
	assert_same_outcome(&ref, &rest);
	assert_int_equal(ref.trace, rest.trace);
	char *a = eval_lines(whole), *b = eval_lines(parts);
	assert_string_equal(a, b);
	/* with the cache on, a program logged twice was evaluated twice within one batch: the case at stake */
	static char hashes[400][17];
	int nh = 0, repeated = 0;
	for (char *line = a; *line && nh < 400; line = strchr(line, '\n') + 1) {
		char hash[17], kind;
		long long idx;
		if (line[0] == 'e' && sscanf(line, "e %lld %c %16s", &idx, &kind, hash) == 3) {
			for (int i = 0; i < nh; i++)
				repeated += strcmp(hashes[i], hash) == 0;
			memcpy(hashes[nh++], hash, sizeof hash);
		}
	}
	assert_int_equal(nh, 300);
	assert_true(repeated > 0);
	free(a);
	free(b);
	f->pb.grammar = f->t.g;
	f->pb.mutate = NULL;
	ms_dsl_grammar_free(g);
}

static void test_synth_checkpoint__a_damaged_last_line_costs_one_evaluation(void **state)
{
	fixture *f = *state;
	char path[512];
	snprintf(path, sizeof path, "%s", file_in(f, "kill.ckpt"));
	outcome ref = { 0 }, part = { 0 }, rest = { 0 };
	ms_synth_options o = base_opts(MS_SYNTH_SA, 7, 400);
	run(f, &o, &ref);

	o.checkpoint = path;
	part.stop_after = 200;
	run(f, &o, &part);
	assert_int_equal(part.rc, MS_SYNTH_STOPPED);
	/* a kill in the middle of writing the last record: cut the file inside its last line */
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	fclose(fp);
	assert_int_equal(truncate(path, len - 5), 0);

	o.resume = 1;
	run(f, &o, &rest);
	assert_int_equal(rest.rc, 0);
	assert_true(rest.st.replayed >= 198 && rest.st.replayed <= 199); /* the cut record (and its best line) */
	assert_same_outcome(&ref, &rest);

	/* garbage in the middle is refused, not skipped */
	fp = fopen(path, "r+b");
	assert_non_null(fp);
	fseek(fp, 600, SEEK_SET);
	fputc('#', fp);
	fclose(fp);
	ms_synth *s;
	assert_true(ms_synth_new(f->ctx, &s, &f->pb, &o) < 0);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "damaged"));
}

/* Options of an older layout (2 before race_*, 3 before mutation) run with the later fields at their
 * defaults, never read past their end; version 1 (the version-2 layout while it still said 1) is refused. */
static void test_synth_search__options_of_an_older_version_run_or_are_refused(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	ms_synth *s = NULL;

	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	assert_int_equal(o.version, 4);
	for (unsigned int v = 2; v <= 3; v++) {
		assert_int_equal(ms_synth_options_init(&o, v), 0);
		o.max_evals = 20;
		o.mutation = 99; /* past a version-2 or 3 struct's end: never read */
		assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
		assert_int_equal(ms_synth_run(s), 0);
		ms_synth_free(s);
		s = NULL;
	}
	o.version = 1;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_null(s);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "version"));
	assert_int_not_equal(MS_SYNTH_STOPPED, MS_SYNTH_FAILED);
}

static void test_synth_checkpoint__other_settings_are_refused(void **state)
{
	fixture *f = *state;
	char path[512];
	snprintf(path, sizeof path, "%s", file_in(f, "settings.ckpt"));
	outcome out = { 0 };
	ms_synth_options o = base_opts(MS_SYNTH_SA, 7, 50);
	o.checkpoint = path;
	run(f, &o, &out);

	ms_synth *s;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL); /* exists, no resume */
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "exists"));
	o.resume = 1;
	o.seed = 8;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "'seed 7' but this search has 'seed 8'"));
	o.seed = 7;
	o.sa_beta = 100;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "'sa 100 0.90000000000000002 200"));
	o.sa_beta = 200;
	f->pb.fingerprint = "something else";
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "fingerprint"));
	f->pb.fingerprint = "noisy";
	/* a larger budget extends the recorded run: the first 50 evaluations are replayed */
	o.max_evals = 80;
	o.threads = 2;
	run(f, &o, &out);
	assert_int_equal(out.rc, 0);
	assert_int_equal(out.st.replayed, 50);
	assert_int_equal(out.st.evals_psi, 80);
}

static void test_synth_checkpoint__time_shares_replay_where_they_ended(void **state)
{
	fixture *f = *state;
	char path[512];
	snprintf(path, sizeof path, "%s", file_in(f, "timed.ckpt"));
	/* Sketch-UCT's runs end on the clock: where they ended is logged, and a resume ends them there again */
	outcome part = { 0 }, rest = { 0 };
	ms_synth_options o = base_opts(MS_SYNTH_SKETCH_UCT, 17, 0);
	o.max_seconds = 0.6;
	o.sketch_evals = 0;
	o.sketch_share = 0.5;
	o.checkpoint = path;
	o.resume = 1;
	part.stop_after = 40;
	part.stop_in_br = 1;
	run(f, &o, &part);
	assert_int_equal(part.rc, MS_SYNTH_STOPPED);
	assert_true(part.saw_br);
	long long done = part.reported;
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char line[4096];
	int events = 0;
	while (fgets(line, sizeof line, fp))
		events += line[0] == 't';
	fclose(fp);
	assert_int_equal(events, 3); /* one per sketch run */

	rest.trace_n = done;
	o.max_seconds = 0.6;
	run(f, &o, &rest);
	assert_int_equal(rest.rc, 0);
	assert_int_equal(rest.st.replayed, done);
	assert_int_equal(rest.trace_at, part.trace); /* the same evaluations, reported in the same order */
	assert_true(rest.saw_br && rest.br_from == part.br_from);
}

/* ---- sketch learning ---- */

static void test_synth_sketch__clones_with_c_then_searches_psi(void **state)
{
	fixture *f = *state;
	for (int algo = MS_SYNTH_SKETCH_SA; algo <= MS_SYNTH_SKETCH_UCT; algo++) {
		outcome code = { 0 }, paper = { 0 };
		ms_synth_options o = base_opts(algo, 3, 400);
		run(f, &o, &code);
		int runs = algo == MS_SYNTH_SKETCH_SA ? 5 : 3;
		/* all C evaluations first (the sketch phase), none in the BR search */
		assert_true(code.kinds[MS_SYNTH_C] > 0);
		assert_int_equal(code.c_in_br, 0);
		assert_true(code.saw_br);
		/* as the code: one Psi evaluation per sketch run, of its best program by C */
		assert_int_equal(code.psi_in_sketch, runs);
		assert_true(code.c > 0.5);           /* 5x is easy to clone */
		assert_int_equal(code.st.evals_c, 600); /* sketch_evals, split over the runs */
		assert_int_equal(code.st.evals_psi, 400);

		o.sketch_psi = MS_SYNTH_SKETCH_PSI_IMPROVEMENTS;
		run(f, &o, &paper);
		/* as the paper: Psi for every improvement of a run's best C */
		assert_true(paper.psi_in_sketch > runs);
		assert_int_equal(paper.c_in_br, 0);
	}
}

static void test_synth_sketch__the_sketch_helps_the_br_search(void **state)
{
	fixture *f = *state;
	f->t.noisy = 0;
	f->pb.fingerprint = "exact";
	/* the sketch (5x) is most of the target (5x + 11): BR search from it beats plain SA on a tiny budget */
	double sketch = 0, plain = 0;
	for (int seed = 1; seed <= 5; seed++) {
		outcome a = { 0 }, b = { 0 };
		ms_synth_options o = base_opts(MS_SYNTH_SKETCH_SA, (uint64_t)seed, 120);
		o.sketch_evals = 1500;
		run(f, &o, &a);
		o.algo = MS_SYNTH_SA;
		run(f, &o, &b);
		sketch += a.psi;
		plain += b.psi;
	}
	print_message("mean best psi over 5 seeds, 120 psi evaluations: SA %.4f, Sketch-SA %.4f\n", plain / 5, sketch / 5);
	assert_true(sketch > plain);
}

static void test_synth_search__every_variant_is_deterministic_and_spends_its_budget(void **state)
{
	fixture *f = *state;
	for (int v = 0; v < 10; v++) {
		ms_synth_options o = base_opts(v < 4 ? MS_SYNTH_UCT : v < 8 ? MS_SYNTH_SA : MS_SYNTH_SKETCH_SA, 23, 400);
		switch (v) {
		case 0: o.uct_ucb = MS_SYNTH_UCB_PAPER; break;
		case 1: o.uct_hole = MS_SYNTH_HOLE_LEFTMOST; break;
		case 2: o.uct_completion = MS_SYNTH_COMPLETE_GENERATOR; break;
		case 3: o.uct_rollout_sa = 0; o.uct_c = 0.5; break;
		case 4: o.sa_restart = MS_SYNTH_RESTART_PASS; break;
		case 5: o.sa_restart = MS_SYNTH_RESTART_BEST; break;
		case 6: o.sa_neighbours = 5; break;
		case 7: o.sa_cache = 1; break;
		case 8: o.sa_restart = MS_SYNTH_RESTART_BEST; break;
		default: o.sketch_psi = MS_SYNTH_SKETCH_PSI_IMPROVEMENTS; o.sa_restart = MS_SYNTH_RESTART_PASS; break;
		}
		outcome a = { 0 }, b = { 0 };
		run(f, &o, &a);
		o.threads = 3;
		run(f, &o, &b);
		assert_int_equal(a.rc, 0);
		assert_same_outcome(&a, &b);
		assert_int_equal(a.trace, b.trace);
		assert_int_equal(a.st.evals_psi, 400);
		assert_true(a.psi > 0);
		if (v == 7 || v < 4)
			assert_true(a.st.cache_hits > 0);
	}
}

static void test_synth_uct__a_finite_space_explored_ends_the_search(void **state)
{
	fixture *f = *state;
	/* E -> x | Num, N -> 0 | 1 | 2: four programs in all */
	static const ms_dsl_nt_def small_nts[] = { { "E", "Num x" }, { "B", "Lt" }, { "N", "0 1 2" } };
	ms_dsl_grammar_def d = { MS_DSL_GRAMMAR_DEF_VERSION, "toy-small", toy_prods, 9, small_nts, 3, TOY_E };
	ms_dsl_grammar *g;
	assert_int_equal(ms_dsl_grammar_new(f->ctx, &g, &d), 0);
	f->pb.grammar = g;
	for (int algo = MS_SYNTH_UCT; algo <= MS_SYNTH_SKETCH_UCT; algo += 2) {
		outcome out = { 0 };
		ms_synth_options o = base_opts(algo, 1, 1000);
		o.sketch_evals = 100;
		run(f, &o, &out);
		assert_int_equal(out.rc, 0);
		/* each run evaluates the four programs once, then only meets its cache */
		assert_int_equal(out.st.evals_psi, algo == MS_SYNTH_UCT ? 4 : 4 + 3);
		assert_int_equal(out.st.evals_c, algo == MS_SYNTH_UCT ? 0 : 3 * 4);
	}
	f->pb.grammar = f->t.g;
	ms_dsl_grammar_free(g);
}

/* ---- options, budgets, outputs ---- */

static void test_synth_opts__bad_settings_are_refused_with_a_message(void **state)
{
	fixture *f = *state;
	ms_synth *s;
	ms_synth_options o = base_opts(MS_SYNTH_SA, 1, 0);
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no budget"));
	o.max_evals = 10;
	o.algo = 9;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "unknown algorithm"));
	o.algo = MS_SYNTH_SKETCH_UCT;
	f->pb.has_c = 0;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "needs a cloning score"));
	f->pb.has_c = 1;
	o.algo = MS_SYNTH_SA;
	ms_dsl_prog *h;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &h, f->t.g), 0);
	assert_int_equal(ms_dsl_prog_push(h, ms_dsl_hole(TOY_E)), 0);
	assert_int_equal(ms_dsl_prog_finish(h, TOY_E), 0);
	o.initial = h;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "initial program"));
	ms_dsl_prog_free(h);
	o.initial = NULL;
	o.sa_eps = 0;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
	assert_int_equal(ms_synth_algo_from_name("sketch-uct"), MS_SYNTH_SKETCH_UCT);
	assert_int_equal(ms_synth_algo_from_name("ga"), MS_ENOTFOUND);
	assert_string_equal(ms_synth_algo_name(MS_SYNTH_SKETCH_SA), "sketch-sa");
}

static void test_synth_search__initial_program_starts_sa_and_uct(void **state)
{
	fixture *f = *state;
	f->t.noisy = 0;
	f->pb.fingerprint = "exact";
	/* the target itself: (2 + 2) * (x + 2) + (x + 2) + 1, i.e. 5x + 11 */
	const ms_dsl_sym target[] = { TOY_PLUS, TOY_PLUS, TOY_TIMES, TOY_PLUS, TOY_NUM, TOY_N2, TOY_NUM, TOY_N2, TOY_PLUS,
				      TOY_X, TOY_NUM, TOY_N2, TOY_PLUS, TOY_X, TOY_NUM, TOY_N2, TOY_NUM, TOY_N1 };
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, f->t.g), 0);
	for (size_t i = 0; i < sizeof target / sizeof *target; i++)
		assert_int_equal(ms_dsl_prog_push(p, target[i]), 0);
	assert_int_equal(ms_dsl_prog_finish(p, TOY_E), 0);
	for (int algo = MS_SYNTH_SA; algo <= MS_SYNTH_UCT; algo++) {
		outcome out = { 0 };
		ms_synth_options o = base_opts(algo, 11, 60);
		o.initial = p;
		run(f, &o, &out);
		assert_true(out.psi == 1.0);
		assert_string_equal(out.best, "Plus Plus Times Plus Num 2 Num 2 Plus x Num 2 Plus x Num 2 Num 1");
	}
	ms_dsl_prog_free(p);
}

static void test_synth_search__time_budget_ends_and_says_so(void **state)
{
	fixture *f = *state;
	for (int algo = MS_SYNTH_SA; algo <= MS_SYNTH_SKETCH_UCT; algo++) {
		outcome out = { 0 };
		ms_synth_options o = base_opts(algo, 5, 0);
		o.max_seconds = 0.3;
		o.sketch_evals = 0;
		o.threads = 2;
		run(f, &o, &out);
		assert_int_equal(out.rc, 0);
		assert_true(out.st.timed);
		assert_true(out.st.elapsed >= 0.3 && out.st.elapsed < 30);
		assert_true(out.st.evals_psi > 0);
	}
}

static void test_synth_outputs__csv_log_and_progress_bar(void **state)
{
	fixture *f = *state;
	char csv[512], bar_path[512];
	snprintf(csv, sizeof csv, "%s", file_in(f, "log.csv"));
	snprintf(bar_path, sizeof bar_path, "%s", file_in(f, "bar.txt"));
	ms_synth_options o = base_opts(MS_SYNTH_SKETCH_SA, 9, 300);
	o.csv = csv;
	ms_synth_bar bar = { 0 };
	bar.out = fopen(bar_path, "w");
	assert_non_null(bar.out);
	o.progress = ms_synth_progress_bar;
	o.progress_ud = &bar;
	ms_synth *s;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
	assert_int_equal(ms_synth_run(s), 0);
	ms_synth_bar_end(&bar);
	fclose(bar.out);
	ms_synth_free(s);

	FILE *fp = fopen(csv, "r");
	assert_non_null(fp);
	char line[256];
	assert_non_null(fgets(line, sizeof line, fp));
	assert_string_equal(line, "seconds,best_psi,best_c,evals_psi,evals_c,phase\n");
	int lines = 0, sketch = 0, br = 0;
	double last_psi = -1, t_prev = -1;
	long long last_evals = -1;
	while (fgets(line, sizeof line, fp)) {
		double t, psi = -1, c = -1;
		long long ep, ec;
		char phase[16];
		char *q = line;
		t = strtod(q, &q);
		q++;
		if (*q != ',')
			psi = strtod(q, &q);
		q++;
		if (*q != ',')
			c = strtod(q, &q);
		assert_int_equal(sscanf(q, ",%lld,%lld,%15s", &ep, &ec, phase), 3);
		assert_true(t >= t_prev);
		assert_true(psi >= last_psi);
		assert_true(ep + ec >= last_evals);
		t_prev = t, last_psi = psi, last_evals = ep + ec;
		sketch += strcmp(phase, "sketch") == 0;
		br += strcmp(phase, "br") == 0;
		(void)c;
		lines++;
	}
	fclose(fp);
	assert_true(lines >= 3 && sketch > 0 && br > 0);
	assert_true(last_psi > 0 && last_evals == 300 + 600);

	fp = fopen(bar_path, "r");
	assert_non_null(fp);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, fp);
	text[n] = 0;
	fclose(fp);
	assert_non_null(strstr(text, "100%"));
	assert_non_null(strstr(text, "psi 0."));
	assert_non_null(strstr(text, "ETA"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_synth_eval__any_thread_count_gives_the_same_scores, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_eval__remote_workers_give_the_local_scores, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__options_of_an_older_version_run_or_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__sa_and_uct_beat_random_sampling_on_the_same_budget, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__same_seed_same_result_for_any_thread_count, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_checkpoint__stopped_and_resumed_ends_as_uninterrupted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_checkpoint__cached_batches_with_duplicates_replay_exactly, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_checkpoint__a_damaged_last_line_costs_one_evaluation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_checkpoint__other_settings_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_checkpoint__time_shares_replay_where_they_ended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_sketch__clones_with_c_then_searches_psi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_sketch__the_sketch_helps_the_br_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__every_variant_is_deterministic_and_spends_its_budget, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_uct__a_finite_space_explored_ends_the_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_opts__bad_settings_are_refused_with_a_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__initial_program_starts_sa_and_uct, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_search__time_budget_ends_and_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_outputs__csv_log_and_progress_bar, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
