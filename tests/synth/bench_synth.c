/*
 * Evaluations per second of the synthesis core on the toy problem, with 1
 * and 2 evaluation threads measured side by side in one run: SA with a
 * cheap evaluation (the core's own cost per evaluation) and with an
 * evaluation made to cost about as much as a small Psi. Also checks the
 * two runs found the same program (the thread count must not matter).
 *
 * usage: bench_synth [EVALS [WORK]]   (defaults 2000 and 250: about 1 ms per evaluation,
 * spent in 4 shards of fixed cost, so that SA and UCT evaluations cost alike)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "toy.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int measure(ms_ctx *ctx, const ms_synth_problem *pb, int algo, int threads, long long evals, double *rate,
		   uint64_t *best_hash, const char *checkpoint)
{
	ms_synth_options o;
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.algo = algo;
	o.seed = 1;
	o.threads = threads;
	o.max_evals = evals;
	o.sketch_evals = evals;
	o.checkpoint = checkpoint;
	o.resume = 1;
	ms_synth *s;
	if (ms_synth_new(ctx, &s, pb, &o) < 0)
		return -1;
	double t0 = now();
	int rc = ms_synth_run(s);
	double t = now() - t0;
	ms_synth_stats st;
	ms_synth_get_stats(s, &st);
	*rate = (double)(st.evals_psi + st.evals_c) / t;
	*best_hash = ms_dsl_hash(ms_synth_best(s, MS_SYNTH_PSI));
	ms_synth_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	long long evals = argc > 1 ? atoll(argv[1]) : 2000;
	int work = argc > 2 ? atoi(argv[2]) : 250;
	ms_ctx *ctx;
	if (ms_ctx_new(&ctx, NULL) != MS_OK)
		return 2;
	toy t = { 0 };
	t.noisy = 1;
	t.points = 16;
	ms_synth_problem pb;
	if (toy_problem(ctx, &t, &pb) < 0) {
		fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
		return 2;
	}
	static const int algos[] = { MS_SYNTH_SA, MS_SYNTH_UCT };
	int same = 1;
	printf("%-5s %-6s %12s %12s %8s\n", "algo", "work", "1 thread/s", "2 threads/s", "ratio");
	for (int w = 0; w < 2; w++) {
		t.work = w ? work : 0;
		for (int a = 0; a < 2; a++) {
			double r1, r2;
			uint64_t h1, h2;
			long long n = w ? evals : evals * 50; /* cheap evaluations: enough of them to time */
			if (measure(ctx, &pb, algos[a], 1, n, &r1, &h1, NULL) < 0 ||
			    measure(ctx, &pb, algos[a], 2, n, &r2, &h2, NULL) < 0) {
				fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
				return 2;
			}
			same &= h1 == h2;
			printf("%-5s %-6d %12.0f %12.0f %8.2f\n", ms_synth_algo_name(algos[a]), t.work, r1, r2, r2 / r1);
		}
	}
	/* resuming replays the log: how fast, against evaluating (cheap toy evaluations) */
	t.work = 0;
	char path[256];
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/bench_synth_%ld.ckpt", tmp && *tmp ? tmp : "/tmp", (long)clock());
	for (int a = 0; a < 2; a++) {
		double live, replay;
		uint64_t h1, h2;
		remove(path);
		if (measure(ctx, &pb, algos[a], 1, evals * 10, &live, &h1, path) < 0 ||
		    measure(ctx, &pb, algos[a], 1, evals * 10, &replay, &h2, path) < 0) {
			fprintf(stderr, "%s\n", ms_ctx_last_error(ctx));
			return 2;
		}
		same &= h1 == h2;
		printf("%-5s live with checkpoint %.0f evals/s, replay %.0f evals/s\n", ms_synth_algo_name(algos[a]), live,
		       replay);
	}
	remove(path);
	printf("same_result=%d\n", same);
	ms_dsl_grammar_free(t.g);
	ms_ctx_free(ctx);
	return same ? 0 : 1;
}
