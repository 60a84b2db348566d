/*
 * MicroRTS as a synthesis problem (rts_synth.h), on native opponents.
 * Arguments: the harness's maps folder, a program file.
 */
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/rts_synth.h"

static const char *maps_dir, *program_file;

typedef struct fixture {
	ms_ctx *ctx;
	char map8[2100], map16[2100], oracle[2200];
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f || ms_ctx_new(&f->ctx, NULL))
		return -1;
	snprintf(f->map8, sizeof f->map8, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
	snprintf(f->map16, sizeof f->map16, "%s/16x16/basesWorkers16x16A.xml", maps_dir);
	snprintf(f->oracle, sizeof f->oracle, "program:%s", program_file);
	if (ms_rts_dsl_grammar_new(f->ctx, &f->g, 0) || ms_dsl_prog_new(f->ctx, &f->p, f->g) ||
	    ms_rts_dsl_parse_file(f->p, program_file, 0))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_dsl_prog_free(f->p);
	ms_dsl_grammar_free(f->g);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static double match_score(fixture *f, const char *map, const char *opp, int seat)
{
	ms_match_options o = { .version = MS_MATCH_OPTIONS_VERSION, .map = map, .max_cycles = strstr(map, "8x8/") ? 3000 : 4000 };
	ms_match *m;
	ms_match_player pl[2];
	ms_match_result r;

	assert_int_equal(ms_match_new(f->ctx, &m, &o), MS_OK);
	pl[seat] = ms_match_player_program(f->p);
	pl[1 - seat] = ms_match_player_spec(opp);
	assert_int_equal(ms_match_play(m, pl, NULL, &r), MS_OK);
	ms_match_free(m);
	return r.winner < 0 ? 0.5 : r.winner == seat ? 1 : 0;
}

/*
 * Psi of a program is its mean score over both seats on every map against
 * each opponent of the population, as single matches say; the cycle limit
 * follows the map's size.
 */
static void test_rts_synth__psi_is_the_mean_score_of_its_matches(void **state)
{
	fixture *f = *state;
	const char *maps[2] = { f->map8, f->map16 }, *opps[2] = { "WorkerRush", "LightRush" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 2,
				   .opponents = opps, .n_opponents = 2 };
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	uint64_t seed = 1;
	double psi[3], want[2] = { 0, 0 };

	if (!ms_test_have_maps(maps_dir))
		skip();
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_int_equal(ms_rts_synth_max_cycles(rs, 0), 3000);
	assert_int_equal(ms_rts_synth_max_cycles(rs, 1), 4000);
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < 2; m++)
			for (int seat = 0; seat < 2; seat++)
				want[k] += match_score(f, maps[m], opps[k], seat) / 4;
	/* the problem's programs are of its own grammar */
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse_file(p, program_file, 0), MS_OK);
	const ms_dsl_prog *progs[1] = { p };
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs), 2, NULL), MS_OK);
	for (int k = 0; k < 2; k++) {
		ms_synth_population one = { 1, &k, NULL };
		assert_int_equal(ms_synth_eval_set_population(ev, &one), MS_OK);
		assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &psi[k], NULL, NULL, NULL),
				 MS_OK);
		assert_true(psi[k] == want[k]);
	}
	assert_int_equal(ms_synth_eval_set_population(ev, NULL), MS_OK);
	assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &psi[2], NULL, NULL, NULL), MS_OK);
	assert_true(fabs(psi[2] - (want[0] + want[1]) / 2) < 1e-12);
	ms_synth_eval_free(ev);
	{
		ms_rts_synth_result r;
		assert_int_equal(ms_rts_synth_score(f->ctx, rs, f->p, 0, &r), MS_OK);
		assert_int_equal(r.wins + r.draws + r.losses, 8);
		assert_true(fabs(r.psi - (want[0] + want[1]) / 2) < 1e-12);
	}
	print_message("psi vs WorkerRush %.3f, vs LightRush %.3f\n", psi[0], psi[1]);
	ms_dsl_prog_free(p);
	ms_rts_synth_free(rs);
}

/*
 * The O score of the oracle itself is 1; another program scores below 1;
 * with tie-breaking, Psi moves by less than half a match.
 */
static void test_rts_synth__o_score_of_the_oracle_is_one(void **state)
{
	fixture *f = *state;
	const char *maps[1] = { f->map8 }, *opps[1] = { "WorkerRush" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 1, .oracle = f->oracle, .tiebreak = 1 };
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	ms_dsl_prog *other;
	uint64_t seeds[2] = { 1, 1 };
	double c[2], psi[2];

	if (!ms_test_have_maps(maps_dir))
		skip();
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	ms_dsl_prog *p;
	static const char text[] = "for(Unit u){u.harvest(1) u.train(Worker,Up,5)}";
	assert_int_equal(ms_dsl_prog_new(f->ctx, &other, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(other, NULL, text, sizeof text - 1, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse_file(p, program_file, 0), MS_OK);
	const ms_dsl_prog *progs[2] = { p, other };
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs), 1, NULL), MS_OK);
	assert_int_equal(ms_synth_eval_programs(ev, progs, 2, MS_SYNTH_C, seeds, c, NULL, NULL, NULL), MS_OK);
	assert_true(c[0] == 1.0);
	assert_true(c[1] < 1.0 && c[1] >= 0);
	assert_int_equal(ms_synth_eval_programs(ev, progs, 2, MS_SYNTH_PSI, seeds, psi, NULL, NULL, NULL), MS_OK);
	{
		double raw = (match_score(f, f->map8, "WorkerRush", 0) + match_score(f, f->map8, "WorkerRush", 1)) / 2;
		assert_true(psi[0] > raw && psi[0] - raw < 0.25);
	}
	print_message("C: oracle %.4f, other %.4f\n", c[0], c[1]);
	ms_synth_eval_free(ev);
	ms_dsl_prog_free(other);
	ms_dsl_prog_free(p);
	ms_rts_synth_free(rs);
}

/*
 * The action score A (issue 45): the oracle reproduces every action it
 * issued, a program that differs reproduces fewer (but not none: both
 * harvest alike at first), and a program whose units only idle fewer still
 * (Idle attacks an enemy in range, as the oracle's units do at times).
 */
static void test_rts_synth__a_score_of_the_oracle_is_one(void **state)
{
	fixture *f = *state;
	const char *maps[1] = { f->map8 }, *opps[1] = { "WorkerRush" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 1, .oracle = f->oracle,
				   .c_score = MS_RTS_C_SCORE_A };
	static const char *const texts[] = { "for(Unit u){u.harvest(1) u.train(Worker,Up,5)}", "for(Unit u){u.idle()}" };
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	ms_dsl_prog *p[3];
	uint64_t seeds[3] = { 1, 1, 1 };
	double c[3];

	if (!ms_test_have_maps(maps_dir))
		skip();
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p[0], ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse_file(p[0], program_file, 0), MS_OK);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(ms_dsl_prog_new(f->ctx, &p[k + 1], ms_rts_synth_grammar(rs)), MS_OK);
		assert_int_equal(ms_rts_dsl_parse(p[k + 1], NULL, texts[k], strlen(texts[k]), 0), MS_OK);
	}
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs), 1, NULL), MS_OK);
	assert_int_equal(ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)p, 3, MS_SYNTH_C, seeds, c, NULL, NULL,
						NULL), MS_OK);
	print_message("A: oracle %.4f, harvester %.4f, idler %.4f\n", c[0], c[1], c[2]);
	assert_true(c[0] == 1.0);
	assert_true(c[1] > 0 && c[1] < 1.0);
	assert_true(c[2] >= 0 && c[2] < c[1]);
	ms_synth_eval_free(ev);
	/* the record written to a file and read back gives every program the same A */
	assert_int_equal(ms_rts_synth_dataset_save(rs, "a_score.jsonl.gz"), MS_OK);
	ms_rts_synth_options o2 = o;
	ms_rts_synth *rs2;
	double c2[3];
	o2.oracle = NULL;
	o2.dataset = "a_score.jsonl.gz";
	if (ms_rts_synth_new(f->ctx, &rs2, &o2))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs2), 1, NULL), MS_OK);
	ms_dsl_prog *q[3]; /* the same programs in the second problem's grammar */
	assert_int_equal(ms_dsl_prog_new(f->ctx, &q[0], ms_rts_synth_grammar(rs2)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse_file(q[0], program_file, 0), MS_OK);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(ms_dsl_prog_new(f->ctx, &q[k + 1], ms_rts_synth_grammar(rs2)), MS_OK);
		assert_int_equal(ms_rts_dsl_parse(q[k + 1], NULL, texts[k], strlen(texts[k]), 0), MS_OK);
	}
	if (ms_synth_eval_programs(ev, (const ms_dsl_prog *const *)q, 3, MS_SYNTH_C, seeds, c2, NULL, NULL, NULL))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	for (int k = 0; k < 3; k++)
		ms_dsl_prog_free(q[k]);
	print_message("A from the file: oracle %.4f, harvester %.4f, idler %.4f\n", c2[0], c2[1], c2[2]);
	for (int k = 0; k < 3; k++)
		assert_true(c2[k] == c[k]);
	ms_synth_eval_free(ev);
	ms_rts_synth_free(rs2);
	remove("a_score.jsonl.gz");
	for (int k = 0; k < 3; k++)
		ms_dsl_prog_free(p[k]);
	ms_rts_synth_free(rs);
	/* A without an oracle, and an unknown score, are refused */
	o.oracle = NULL;
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	o.oracle = f->oracle;
	o.c_score = 7;
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
}

/* F(p) of the program text `text` against the problem's opponent 0, with `seed`. */
static int features_of(ms_synth_eval *ev, const ms_rts_synth *rs, ms_ctx *ctx, const char *text, uint64_t seed,
		       int *out)
{
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(p, NULL, text, strlen(text), 0), MS_OK);
	int rc = ms_synth_eval_features(ev, p, 0, seed, out);
	ms_dsl_prog_free(p);
	return rc;
}

/*
 * Behavioural features (problem version 3): a worker rush trains workers
 * and attacks early, a program whose units stay idle trains nothing and
 * never attacks, so their vectors differ where the behaviours do; every
 * value is in its range; repeated calls (also after other matches on the
 * same worker) give the same vector.
 */
static void test_rts_synth__features_tell_a_rush_from_a_passive_program(void **state)
{
	fixture *f = *state;
	const char *maps[1] = { f->map16 }, *opps[1] = { "CoacAI" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 1 };
	static const char rush[] = "for(Unit u){u.train(Worker,EnemyDir,4) u.harvest(1) u.attack(Closest)}";
	static const char passive[] = "for(Unit u){u.idle()}";
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	int fr[16], fp[16], again[16], col[3] = { -1, -1, -1 };
	static const char *const want[3] = { "workers-trained", "attacks", "first-attack" };

	if (!ms_test_have_maps(maps_dir))
		skip();
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	const ms_synth_problem *pb = ms_rts_synth_problem(rs);
	assert_int_equal(pb->version, MS_SYNTH_PROBLEM_VERSION);
	assert_true(pb->n_features > 0 && pb->n_features <= 16);
	for (int j = 0; j < pb->n_features; j++)
		for (int k = 0; k < 3; k++)
			if (!strcmp(pb->feature_names[j], want[k]))
				col[k] = j;
	assert_true(col[0] >= 0 && col[1] >= 0 && col[2] >= 0);
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, pb, 1, NULL), MS_OK);
	assert_int_equal(features_of(ev, rs, f->ctx, rush, 7, fr), MS_OK);
	assert_int_equal(features_of(ev, rs, f->ctx, passive, 7, fp), MS_OK);
	for (int j = 0; j < pb->n_features; j++) {
		assert_true(fr[j] >= 0 && fr[j] < pb->feature_values[j]);
		assert_true(fp[j] >= 0 && fp[j] < pb->feature_values[j]);
	}
	/* the rush trains workers and attacks (first attack: 0 is never, higher is sooner); the passive one does not */
	for (int k = 0; k < 3; k++) {
		assert_true(fr[col[k]] > 0);
		assert_int_equal(fp[col[k]], 0);
	}
	assert_int_equal(features_of(ev, rs, f->ctx, rush, 7, again), MS_OK);
	assert_memory_equal(fr, again, sizeof(int) * (size_t)pb->n_features);
	assert_int_equal(features_of(ev, rs, f->ctx, passive, 7, again), MS_OK);
	assert_memory_equal(fp, again, sizeof(int) * (size_t)pb->n_features);
	ms_synth_eval_free(ev);
	ms_rts_synth_free(rs);

	/* a new problem whose F(rush) comes from the counts its Psi matches (2 threads) left: the same vector */
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	pb = ms_rts_synth_problem(rs);
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, pb, 2, NULL), MS_OK);
	assert_int_equal(features_of(ev, rs, f->ctx, passive, 7, again), MS_OK);
	{
		ms_dsl_prog *p;
		uint64_t seed = 1;
		double psi;
		assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
		assert_int_equal(ms_rts_dsl_parse(p, NULL, rush, strlen(rush), 0), MS_OK);
		const ms_dsl_prog *progs[1] = { p };
		assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &psi, NULL, NULL, NULL), MS_OK);
		ms_dsl_prog_free(p);
	}
	assert_int_equal(features_of(ev, rs, f->ctx, rush, 8, again), MS_OK);
	assert_memory_equal(fr, again, sizeof(int) * (size_t)pb->n_features);
	{
		char line[256];
		size_t at = 0;
		for (int j = 0; j < pb->n_features; j++)
			at += (size_t)snprintf(line + at, sizeof line - at, "%d%d ", fr[j], fp[j]);
		print_message("features (rush, passive) per feature: %s\n", line);
	}
	ms_synth_eval_free(ev);
	ms_rts_synth_free(rs);
}

/* Psi of `text` on the 8x8 map against PassiveAI under `tiebreak` (every match a draw). */
static double passive_psi(fixture *f, int tiebreak, const char *text)
{
	const char *maps[1] = { f->map8 }, *opps[1] = { "PassiveAI" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 1, .tiebreak = tiebreak };
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	uint64_t seed = 1;
	double psi = -1;

	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(p, NULL, text, strlen(text), 0), MS_OK);
	const ms_dsl_prog *progs[1] = { p };
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs), 1, NULL), MS_OK);
	assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &psi, NULL, NULL, NULL), MS_OK);
	ms_synth_eval_free(ev);
	ms_dsl_prog_free(p);
	ms_rts_synth_free(rs);
	return psi;
}

/*
 * Against PassiveAI every match is a draw at the limit. By length all draws
 * tie; by material, a program that harvests and trains ends with more than
 * one that idles, whose material stays level with PassiveAI's (the map is
 * symmetric: the middle). Neither moves Psi by a whole draw's worth.
 */
static void test_rts_synth__material_breaks_ties_between_draws(void **state)
{
	fixture *f = *state;
	static const char idle[] = "for(Unit u){u.idle()}";
	static const char grow[] = "for(Unit u){u.harvest(1) u.train(Worker,Up,5)}";

	if (!ms_test_have_maps(maps_dir))
		skip();
	double len_idle = passive_psi(f, MS_RTS_TIEBREAK_LENGTH, idle);
	double len_grow = passive_psi(f, MS_RTS_TIEBREAK_LENGTH, grow);
	double mat_idle = passive_psi(f, MS_RTS_TIEBREAK_MATERIAL, idle);
	double mat_grow = passive_psi(f, MS_RTS_TIEBREAK_MATERIAL, grow);
	double none_grow = passive_psi(f, MS_RTS_TIEBREAK_NONE, grow);
	print_message("length: idle %.6f grow %.6f; material: idle %.6f grow %.6f\n", len_idle, len_grow, mat_idle,
		      mat_grow);
	assert_true(none_grow == 0.5);
	assert_true(len_idle == len_grow && len_idle > 0.5);
	assert_true(fabs(mat_idle - len_idle) < 1e-12);
	assert_true(mat_grow > mat_idle && mat_grow < 0.75);
}

static void test_rts_synth__bad_settings_name_what_is_wrong(void **state)
{
	fixture *f = *state;
	const char *maps[1] = { f->map8 }, *opps[1] = { "NoSuchRush" }, *nomap[1] = { "no/such/map.xml" };
	const char *rush[1] = { "WorkerRush" }, *java[1] = { "GNS.Droplet" };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 1 };
	ms_rts_synth *rs;

	if (!ms_test_have_maps(maps_dir))
		skip();
	/* an unknown name is taken for a Java class: without a harness jar that is an error */
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "Java opponents"));
	o.opponents = java;
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	o.opponents = rush;
	o.maps = nomap;
	assert_int_not_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no/such/map.xml"));
	o.maps = maps;
	o.oracle = "program:/no/such/program.txt";
	assert_int_not_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "/no/such/program.txt"));
	o.oracle = NULL;
	o.tiebreak = 1;
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "oracle"));
	o.tiebreak = MS_RTS_TIEBREAK_A; /* without the action score */
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "ties by A"));
	o.tiebreak = MS_RTS_TIEBREAK_A + 1;
	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "tie-break"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rts_synth__psi_is_the_mean_score_of_its_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_synth__o_score_of_the_oracle_is_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_synth__a_score_of_the_oracle_is_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_synth__bad_settings_name_what_is_wrong, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_synth__material_breaks_ties_between_draws, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_synth__features_tell_a_rush_from_a_passive_program, setup,
						teardown),
	};
	if (argc != 3)
		return fprintf(stderr, "usage: test_rts_synth MAPS_DIR PROGRAM\n"), 2;
	maps_dir = argv[1];
	program_file = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
