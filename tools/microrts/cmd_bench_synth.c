/*
 * microsynth bench synth: what a synthesis evaluation costs. Per map, in one
 * run: matches per second of a program against WorkerRush natively and the
 * same matches in the official engine through the hosted JVM (the program
 * from memory; both must end alike), matches per second against CoacAI in
 * the JVM, and the JNI path's overhead: the drop-in bot playing native
 * LightRush against the Java LightRush class in the same match (identical
 * decisions, so the time difference is the bridge's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "cli.h"

#define CMD "bench synth"

/* A candidate an annealing search on the big maps met (units chasing targets they often cannot reach). */
static const char paths_program[] =
	"for(Unit u){u.attack(Weakest) for(Unit u){u.harvest(2) u.train(Ranged,EnemyDir,6)} for(Unit u){u.moveAway()} "
	"for(Unit u){if(u.isBuilder()) then {u.build(Barracks,Up,15)}} u.train(Worker,Down,100) "
	"if(u.HasUnitWithinDistanceFromOpponent(10)) then {e} if(u.HasUnitInOpponentRange()) then "
	"{if(u.OpponentHasUnitInPlayerRange()) then {for(Unit u){u.moveToUnit(Enemy,Closest)}} else { u.harvest(20)}}}";

static const char default_program[] =
	"for(Unit u){u.train(Worker,Up,3) u.build(Barracks,EnemyDir,1) u.train(Light,Right,6) u.harvest(2) "
	"u.attack(Closest)}";

void cmd_bench_synth_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth bench synth [--program FILE] [--repeat N] [MAP ...]\n\n"
		     "Matches per second of a program (default: a fixed worker-and-light program) against\n"
		     "WorkerRush natively and in the official engine through the hosted JVM (program passed\n"
		     "from memory), against CoacAI in the JVM, and the JNI path's overhead (drop-in LightRush\n"
		     "vs the Java LightRush, same match). Maps default to 16x16/basesWorkers16x16A.xml and\n"
		     "BroodWar/(4)BloodBath.scmB.xml (64x64); --repeat N matches per measure (5), after one\n"
		     "warm-up. Last line: ratio=X (native / official matches per second, median over maps)\n"
		     "jvm_overhead=Y (drop-in / Java time, median) coac_mps=Z (median).\n\n"
		     "microsynth bench synth --paths [--evals N] [--program FILE] [MAP ...]\n"
		     "Evaluations per second on the native engine, the DSL's path search run in full and every\n"
		     "decision made afresh (old) and with its region test, repeated views and a memo of path\n"
		     "answers kept from evaluation to evaluation by the program and its opponents (new) in the same\n"
		     "run: N mutations of the program (default: a\n"
		     "candidate of a search on the big maps) as annealing draws its neighbours (N 40), each played in both seats against CoacAI, then against the native field\n"
		     "(CoacAI, mayari and the four rushes); every match must end alike both ways. Maps default\n"
		     "to 8x8, 16x16, 24x24 and 32x32 maps of the harness and (4)BloodBath.scmB. Last line:\n"
		     "speedup=X (new / old evaluations per second against CoacAI, smallest over maps).\n");
}

/* Plays program p (old: every path search in full, every decision afresh, no memo; new: the region test,
 * repeated views and `memo`, kept from evaluation to evaluation as a synthesis's worker keeps it) in both
 * seats against each opponent; adds winners and cycles to *sig. */
static int eval_paths(ms_ctx *ctx, ms_match *m, const ms_dsl_prog *p, int full, const char *const *opp, int n_opp,
		      ms_memo *memo, long *sig)
{
	const ms_rts_state *init = ms_match_initial_state(m);
	const ms_rts_utt *utt = ms_match_utt(m);
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .full_paths = full, .every_decision = full,
			      .path_memo = full ? NULL : memo };
	int w, h;

	ms_match_map_size(m, &w, &h);
	for (int k = 0; k < n_opp; k++)
		for (int seat = 0; seat < 2; seat++) {
			ms_bot *b[2] = { NULL, NULL };
			ms_rts_state *s = NULL;
			int winner = -1, rc;
			rc = ms_rts_dsl_bot_new_options(ctx, &b[seat], p, utt, 0, &o);
			if (!rc && !(rc = ms_bot_make(ctx, &b[1 - seat], opp[k], utt, 0)))
				rc = ms_bot_set_memo(b[1 - seat], o.path_memo);
			if (!rc)
				rc = ms_rts_state_clone(ctx, &s, init);
			if (!rc)
				rc = ms_bot_play(ctx, s, b, ms_match_competition_cycles(w, h), 0, NULL, &winner);
			if (!rc)
				*sig = *sig * 31 + winner * 7 + ms_rts_state_time(s);
			ms_rts_state_free(s);
			ms_bot_free(b[0]);
			ms_bot_free(b[1]);
			if (rc)
				return rc;
		}
	return 0;
}

static int bench_paths(ms_ctx *ctx, ms_dsl_prog *start, const char **maps, int n_maps, long evals)
{
	static const char *const field[] = { "CoacAI", "mayari", "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };
	double worst = 0;
	ms_dsl_prog *p = NULL;

	if (ms_dsl_prog_clone(&p, start))
		return -1;
	printf("map opponents old_evals_s new_evals_s speedup evals memo_hits\n");
	for (int i = 0; i < n_maps; i++)
		for (int f = 0; f < 2; f++) {
			ms_match_options no = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .map = maps[i] };
			ms_match *m = NULL;
			ms_memo *memo = NULL;
			ms_memo_stats st;
			ms_jrandom rng;
			double t[2] = { 0, 0 };
			long done = 0;
			if (ms_match_new(ctx, &m, &no))
				goto fail;
			if (ms_memo_new(ctx, &memo, 0)) {
				ms_match_free(m);
				goto fail;
			}
			ms_jrandom_init(&rng, 28);
			ms_dsl_prog_free(p);
			p = NULL;
			if (ms_dsl_prog_clone(&p, start)) {
				ms_match_free(m);
				ms_memo_free(memo);
				goto fail;
			}
			for (long e = 0; e < evals; e++) {
				long sig[2] = { 0, 0 };
				/* a neighbour of the start, as an annealing step draws them */
				ms_dsl_prog_free(p);
				p = NULL;
				if (ms_dsl_prog_clone(&p, start)) {
					ms_match_free(m);
					ms_memo_free(memo);
					goto fail;
				}
				if (ms_rts_dsl_mutate(p, &rng, NULL))
					break;
				/* alternate which runs first so that the machine's drift falls on both */
				for (int r = 0; r < 2; r++) {
					int full = (int)((e + r) % 2);
					double t0 = cli_now();
					int rc = eval_paths(ctx, m, p, full, field, f ? 6 : 1, memo, &sig[full]);
					t[full] += cli_now() - t0;
					if (rc == MS_EINVAL || rc == MS_EILLEGAL)
						break; /* a candidate the interpreter refuses: both refuse it */
					if (rc) {
						ms_match_free(m);
						ms_memo_free(memo);
						goto fail;
					}
				}
				if (sig[0] != sig[1]) {
					fprintf(stderr, "microsynth %s: %s: the path searches disagree on evaluation %ld\n", CMD,
						maps[i], e);
					ms_match_free(m);
					ms_memo_free(memo);
					ms_dsl_prog_free(p);
					return -1;
				}
				done++;
			}
			ms_match_free(m);
			ms_memo_get_stats(memo, &st);
			ms_memo_free(memo);
			if (t[0] > 0 && t[1] > 0) {
				double sp = t[1] / t[0];
				printf("%s %s %.2f %.2f %.2f %ld %.3f\n", maps[i], f ? "field" : "CoacAI", done / t[1], done / t[0],
				       sp, done, st.lookups ? (double)st.hits / (double)st.lookups : 0.0);
				if (!f && (worst == 0 || sp < worst))
					worst = sp;
			}
			fflush(stdout);
		}
	ms_dsl_prog_free(p);
	printf("speedup=%.2f maps=%d evals=%ld\n", worst, n_maps, evals);
	return 0;
fail:
	fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
	ms_dsl_prog_free(p);
	return -1;
}

typedef struct timing {
	double mps;
	ms_match_result last;
} timing;

static int measure(ms_ctx *ctx, ms_match *m, const ms_match_player pl[2], int repeat, timing *t)
{
	double t0;
	if (ms_match_play(m, pl, NULL, &t->last)) /* warm-up */
		return -1;
	t0 = cli_now();
	for (int i = 0; i < repeat; i++)
		if (ms_match_play(m, pl, NULL, &t->last))
			return -1;
	t->mps = repeat / (cli_now() - t0);
	(void)ctx;
	return 0;
}

int cmd_bench_synth(int argc, char **argv)
{
	static const char *const default_maps[] = { "16x16/basesWorkers16x16A.xml", "BroodWar/(4)BloodBath.scmB.xml" };
	const char *program = NULL, *maps[16];
	static const char *const path_maps[] = { "8x8/basesWorkers8x8A.xml", "16x16/basesWorkers16x16A.xml",
						  "24x24/basesWorkers24x24A.xml", "BWDistantResources32x32.xml",
						  "BroodWar/(4)BloodBath.scmB.xml" };
	long repeat = 5, evals = 40;
	int n_maps = 0, rc = CLI_FAIL, paths = 0;
	char jar[4096];
	double ratio[16], overhead[16], coac[16];
	ms_ctx *ctx = NULL;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmd_bench_synth_usage(stdout);
			return CLI_OK;
		}
		if (!strcmp(argv[i], "--program") && i + 1 < argc)
			program = argv[++i];
		else if (!strcmp(argv[i], "--paths"))
			paths = 1;
		else if (!strcmp(argv[i], "--evals") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--evals", argv[++i], 1, 1000000, &evals))
				return CLI_USAGE;
		}
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--repeat", argv[++i], 1, 100000, &repeat))
				return CLI_USAGE;
		} else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else if (n_maps < 16)
			maps[n_maps++] = argv[i];
		else
			return cli_usage_error(CMD, "at most 16 maps");
	}
	if (!n_maps)
		for (; n_maps < (paths ? 5 : 2); n_maps++)
			maps[n_maps] = paths ? path_maps[n_maps] : default_maps[n_maps];
	if (!paths && cli_find_tools_jar(jar, sizeof jar)) {
		fprintf(stderr, "microsynth %s: needs microsynth-harness.jar (build the project) and the harness\n", CMD);
		return CLI_FAIL;
	}
	if (ms_ctx_new(&ctx, NULL) || ms_rts_dsl_grammar_new(ctx, &g, 0) || ms_dsl_prog_new(ctx, &p, g))
		goto done;
	if (program ? ms_rts_dsl_parse_file(p, program, 0)
	    : paths ? ms_rts_dsl_parse(p, "default program", paths_program, sizeof paths_program - 1, 0)
		    : ms_rts_dsl_parse(p, "default program", default_program, sizeof default_program - 1, 0)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		rc = CLI_USAGE;
		goto done;
	}
	if (paths) {
		rc = bench_paths(ctx, p, maps, n_maps, evals) ? CLI_FAIL : CLI_OK;
		goto done;
	}
	printf("map native_mps official_mps ratio coac_mps dropin_s java_s jvm_overhead cycles\n");
	for (int i = 0; i < n_maps; i++) {
		ms_match_options no = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .map = maps[i] };
		ms_match_options oo = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_OFFICIAL, .map = maps[i],
				     .harness_jar = jar };
		ms_match *nat = NULL, *off = NULL;
		ms_match_player vs_rush[2] = { ms_match_player_program(p), ms_match_player_spec("WorkerRush") };
		ms_match_player vs_coac[2] = { ms_match_player_program(p), ms_match_player_spec("CoacAI") };
		ms_match_player dropin[2] = { ms_match_player_spec("microsynth:LightRush"),
					      ms_match_player_spec("WorkerRush") };
		ms_match_player java[2] = { ms_match_player_spec("LightRush"), ms_match_player_spec("WorkerRush") };
		timing tn, to, tc, td, tj;

		if (ms_match_new(ctx, &nat, &no) || ms_match_new(ctx, &off, &oo) ||
		    measure(ctx, nat, vs_rush, (int)repeat, &tn) || measure(ctx, off, vs_rush, (int)repeat, &to) ||
		    measure(ctx, off, vs_coac, (int)repeat, &tc) || measure(ctx, off, dropin, (int)repeat, &td) ||
		    measure(ctx, off, java, (int)repeat, &tj)) {
			fprintf(stderr, "microsynth %s: %s: %s\n", CMD, maps[i], ms_ctx_last_error(ctx));
			ms_match_free(nat);
			ms_match_free(off);
			goto done;
		}
		ms_match_free(nat);
		ms_match_free(off);
		if (tn.last.winner != to.last.winner || tn.last.cycles != to.last.cycles ||
		    td.last.winner != tj.last.winner || td.last.cycles != tj.last.cycles) {
			fprintf(stderr,
				"microsynth %s: %s: the engines disagree (native %d@%d, official %d@%d; drop-in %d@%d, "
				"Java %d@%d)\n",
				CMD, maps[i], tn.last.winner, tn.last.cycles, to.last.winner, to.last.cycles, td.last.winner,
				td.last.cycles, tj.last.winner, tj.last.cycles);
			goto done;
		}
		ratio[i] = tn.mps / to.mps;
		overhead[i] = tj.mps / td.mps;
		coac[i] = tc.mps;
		printf("%s %.1f %.2f %.1f %.2f %.4f %.4f %.3f %d\n", maps[i], tn.mps, to.mps, ratio[i], tc.mps, 1 / td.mps,
		       1 / tj.mps, overhead[i], tn.last.cycles);
		fflush(stdout);
	}
	printf("ratio=%.1f jvm_overhead=%.3f coac_mps=%.2f maps=%d repeat=%ld\n", cli_median(ratio, n_maps),
	       cli_median(overhead, n_maps), cli_median(coac, n_maps), n_maps, repeat);
	rc = CLI_OK;
done:
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
	return rc;
}
