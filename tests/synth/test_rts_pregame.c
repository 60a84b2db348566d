/*
 * Pre-game synthesis (rts_synth.h, ms_rts_pregame) and the problem on a
 * first state held in memory, the form the drop-in bot has.
 * Arguments: the harness's maps folder, a program file.
 */
#include "support/testutil.h"

#include <stdio.h>
#include <string.h>

#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/rts_synth.h"

static const char *maps_dir, *program_file;

typedef struct fixture {
	ms_ctx *ctx;
	char map8[2100];
	ms_rts_utt *utt;
	ms_rts_state *first;
	char *program; /* program_file's text */
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	size_t len;
	if (!f || ms_ctx_new(&f->ctx, NULL))
		return -1;
	snprintf(f->map8, sizeof f->map8, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
	if (ms_rts_utt_new(f->ctx, &f->utt, 2, 1) || ms_rts_state_load_map(f->ctx, &f->first, f->utt, f->map8, 0))
		return -1;
	FILE *in = fopen(program_file, "rb");
	if (!in || !(f->program = calloc(1, 1 << 16)))
		return -1;
	len = fread(f->program, 1, (1 << 16) - 1, in);
	fclose(in);
	f->program[len] = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_rts_state_free(f->first);
	ms_rts_utt_free(f->utt);
	ms_ctx_free(f->ctx);
	free(f->program);
	free(f);
	return 0;
}

/* Psi of `text` on a problem over the map file (states NULL) or the state in memory. */
static double psi_of(fixture *f, const char *text, int in_memory)
{
	const char *maps[1] = { f->map8 }, *opps[3] = { "WorkerRush", "LightRush", "CoacAI" };
	const ms_rts_state *states[1] = { f->first };
	ms_rts_synth_options o = { .version = MS_RTS_SYNTH_OPTIONS_VERSION, .maps = maps, .n_maps = 1,
				   .opponents = opps, .n_opponents = 3, .edition = MS_PATH_EDITION_2023,
				   .tiebreak = MS_RTS_TIEBREAK_LENGTH, .states = in_memory ? states : NULL };
	ms_rts_synth *rs;
	ms_synth_eval *ev;
	ms_dsl_prog *p;
	const ms_dsl_prog *ps[1];
	uint64_t seed = 1;
	double score = -1;

	assert_int_equal(ms_rts_synth_new(f->ctx, &rs, &o), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_rts_synth_grammar(rs)), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(p, "test", text, strlen(text), 0), MS_OK);
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_rts_synth_problem(rs), 2, NULL), MS_OK);
	ps[0] = p;
	assert_int_equal(ms_synth_eval_programs(ev, ps, 1, MS_SYNTH_PSI, &seed, &score, NULL, NULL, NULL), MS_OK);
	/* the state's content enters the fingerprint in place of the file's name */
	assert_non_null(strstr(ms_rts_synth_fingerprint(rs), in_memory ? "=" : "basesWorkers8x8A.xml:3000"));
	ms_synth_eval_free(ev);
	ms_dsl_prog_free(p);
	ms_rts_synth_free(rs);
	return score;
}

/* The same program scores the same from the map file and from its first state in memory. */
static void test_rts_pregame__a_state_in_memory_plays_as_its_map_file(void **state)
{
	fixture *f = *state;
	double file = psi_of(f, f->program, 0), memory = psi_of(f, f->program, 1);
	assert_true(file >= 0);
	assert_true(file == memory);
}

/* Defaults, then a field, an evaluation budget, SA's neighbours and the candidates. */
static void opts(ms_rts_pregame_options *o, const char *const *field, int n_field, long long evals, int neighbours,
		 const char *const *cands, int n_cands)
{
	ms_rts_pregame_options_init(o, MS_RTS_PREGAME_OPTIONS_VERSION);
	o->field = field;
	o->n_field = n_field;
	o->max_evals = evals;
	o->neighbours = neighbours;
	o->candidates = cands;
	o->n_candidates = n_cands;
	o->archetypes = 0; /* the tests that screen them say so */
}

static void run(fixture *f, ms_rts_pregame_options *o, ms_rts_pregame_result *res)
{
	int rc = ms_rts_pregame(f->ctx, f->first, o, res);
	if (rc)
		fprintf(stderr, "# %s\n", ms_ctx_last_error(f->ctx));
	assert_int_equal(rc, MS_OK);
	assert_non_null(res->program);
}

/*
 * With an evaluation budget the search is reproducible for any thread
 * count; it starts from the best candidate that parses (a broken one is
 * counted and skipped), never ends below it, and its program parses.
 */
static void test_rts_pregame__starts_from_the_best_candidate_and_is_reproducible(void **state)
{
	fixture *f = *state;
	const char *cands[3] = { "for(Unit u){ u.idle() }", "this is not a program", f->program };
	const char *field[2] = { "WorkerRush", "LightRush" };
	ms_rts_pregame_options o;
	ms_rts_pregame_result a, b;

	opts(&o, field, 2, 40, 5, cands, 3);
	o.threads = 1;
	run(f, &o, &a);
	o.threads = 2;
	run(f, &o, &b);
	assert_int_equal(a.screened, 2);
	assert_int_equal(a.skipped, 1);
	assert_int_equal(a.start, 2); /* the shipped program beats the idle one */
	assert_true(a.psi >= a.start_psi);
	assert_true(a.stage2_evals == 0); /* no bot of this field draws: one stage */
	assert_true(a.evals >= 40 && a.evals <= 40 + o.neighbours);
	assert_string_equal(a.program, b.program);
	assert_true(a.psi == b.psi);
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	assert_int_equal(ms_rts_dsl_grammar_new(f->ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, g), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(p, "result", a.program, strlen(a.program), 0), MS_OK);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_mfree(f->ctx, a.program);
	ms_ctx_mfree(f->ctx, b.program);
}

/* A field with a bot that draws gets the stochastic stage, from the first stage's program. */
static void test_rts_pregame__a_drawing_bot_gets_the_stochastic_stage(void **state)
{
	fixture *f = *state;
	const char *cands[1] = { f->program };
	const char *field[2] = { "CoacAI", "WorkerRush" };
	ms_rts_pregame_options o;
	ms_rts_pregame_result a;

	opts(&o, field, 2, 12, 3, cands, 1);
	o.stochastic_share = 0.5;
	run(f, &o, &a);
	assert_true(a.stage1_evals > 0);
	assert_true(a.stage2_evals > 0);
	assert_true(a.stochastic_psi >= 0);
	ms_ctx_mfree(f->ctx, a.program);
}

/*
 * A field the program loses to gets case programs; a switch comes back only
 * when it won more of the check games than the program alone, it reads as
 * a switch, and under an evaluation budget it is the same for any thread
 * count. Fed back as a candidate, its opening program is what is screened.
 */
static void test_rts_pregame__cases_make_a_switch_only_when_it_wins_more(void **state)
{
	fixture *f = *state;
	const char *cands[1] = { "for(Unit u){ u.idle() }" };
	const char *field[2] = { "WorkerRush", "HeavyRush" };
	ms_rts_pregame_options o;
	ms_rts_pregame_result a, b;

	opts(&o, field, 2, 400, 5, cands, 1);
	o.stochastic_share = 0;
	o.case_share = 0.99; /* the first stage: 4 evaluations from the idle program */
	o.switch_cycle = 200;
	o.threads = 1;
	run(f, &o, &a);
	o.threads = 2;
	run(f, &o, &b);
	assert_true(a.check_games == 4); /* no bot of this field draws: a game a seat */
	assert_true(a.check_program >= 0 && a.check_program <= a.check_games);
	assert_true(a.case_evals > 0);
	assert_true(a.evals >= a.case_evals);
	if (a.switch_text) {
		ms_bot *sw = NULL;
		assert_true(a.cases >= 1);
		assert_true(a.check_switch > a.check_program);
		assert_int_equal(ms_rts_switch_bot_new(f->ctx, &sw, "result", a.switch_text, strlen(a.switch_text),
						       f->utt, 0), MS_OK);
		ms_bot_free(sw);
		assert_non_null(b.switch_text);
		assert_string_equal(a.switch_text, b.switch_text);

		/* the switch as a candidate: its opening program is screened (and parses) */
		ms_rts_pregame_result c;
		const char *again[1] = { a.switch_text };
		opts(&o, field, 2, 1, 5, again, 1);
		o.case_share = 0;
		run(f, &o, &c);
		assert_int_equal(c.screened, 1);
		assert_int_equal(c.skipped, 0);
		ms_ctx_mfree(f->ctx, c.program);
	} else {
		assert_null(b.switch_text);
	}
	fprintf(stderr, "# check games %d: program %g, switch %g, cases %d, case evals %lld\n", a.check_games,
		a.check_program, a.check_switch, a.cases, a.case_evals);
	assert_string_equal(a.program, b.program);
	ms_ctx_mfree(f->ctx, a.program);
	ms_ctx_mfree(f->ctx, b.program);
	ms_ctx_mfree(f->ctx, a.switch_text);
	ms_ctx_mfree(f->ctx, b.switch_text);
}

/*
 * The archetypes parse, come after the candidates (start counts past them)
 * and win the screening over a program that only idles; options of version
 * 2 screen none.
 */
static void test_rts_pregame__archetypes_are_screened_after_the_candidates(void **state)
{
	fixture *f = *state;
	const char *cands[1] = { "for(Unit u){ u.idle() }" };
	const char *field[2] = { "WorkerRush", "LightRush" };
	ms_rts_pregame_options o;
	ms_rts_pregame_result a, b;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	int n = 0;

	assert_int_equal(ms_rts_dsl_grammar_new(f->ctx, &g, 0), MS_OK);
	for (const char *t; (t = ms_rts_archetype(n)); n++) {
		assert_int_equal(ms_dsl_prog_new(f->ctx, &p, g), MS_OK);
		assert_int_equal(ms_rts_dsl_parse(p, "archetype", t, strlen(t), 0), MS_OK);
		ms_dsl_prog_free(p);
	}
	ms_dsl_grammar_free(g);
	assert_true(n >= 4);
	assert_null(ms_rts_archetype(-1));

	opts(&o, field, 2, 1 + n, 5, cands, 1);
	o.archetypes = 1;
	o.case_share = 0;
	run(f, &o, &a);
	assert_int_equal(a.screened, 1 + n);
	assert_int_equal(a.skipped, 0);
	assert_true(a.start >= 1 && a.start <= n); /* an archetype, numbered after the one candidate */
	o.version = 2;
	run(f, &o, &b);
	assert_int_equal(b.screened, 1);
	assert_int_equal(b.start, 0);
	assert_true(a.start_psi > b.start_psi);
	ms_ctx_mfree(f->ctx, a.program);
	ms_ctx_mfree(f->ctx, b.program);
}

static void test_rts_pregame__bad_settings_name_what_is_wrong(void **state)
{
	fixture *f = *state;
	ms_rts_pregame_options o;
	ms_rts_pregame_result r;

	ms_rts_pregame_options_init(&o, MS_RTS_PREGAME_OPTIONS_VERSION);
	assert_int_equal(ms_rts_pregame(f->ctx, f->first, &o, &r), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no budget"));
	o.max_evals = 5;
	o.threads = 0;
	assert_int_equal(ms_rts_pregame(f->ctx, f->first, &o, &r), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "threads"));
	o.threads = 1;
	o.archetypes = 2;
	assert_int_equal(ms_rts_pregame(f->ctx, f->first, &o, &r), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "archetypes"));
	o.archetypes = 1;
	assert_int_equal(ms_rts_pregame(f->ctx, NULL, &o, &r), MS_EINVAL);
	const char *field[1] = { "NoSuchBot" };
	o.field = field;
	o.n_field = 1;
	assert_true(ms_rts_pregame(f->ctx, f->first, &o, &r) < 0);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "NoSuchBot"));
	assert_null(r.program);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rts_pregame__a_state_in_memory_plays_as_its_map_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_pregame__starts_from_the_best_candidate_and_is_reproducible, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rts_pregame__a_drawing_bot_gets_the_stochastic_stage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rts_pregame__cases_make_a_switch_only_when_it_wins_more, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rts_pregame__archetypes_are_screened_after_the_candidates, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rts_pregame__bad_settings_name_what_is_wrong, setup, teardown),
	};
	if (argc < 3) {
		fprintf(stderr, "usage: %s MAPS_DIR PROGRAM\n", argv[0]);
		return 2;
	}
	maps_dir = argv[1];
	program_file = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
