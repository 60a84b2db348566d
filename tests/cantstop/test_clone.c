/*
 * Behavioural-cloning data sets and scores (spec section 6): hand-made data
 * sets with scores computed by hand in the comments, recorded data sets
 * (oracles: GA and random self-play), and the text form.
 */
#include "cs_testutil.h"

#include <stdio.h>

/*
 * Match 0: player 1 advances (2,2) then stops; player 2 plays a turn; then
 * player 1 plays (4,4), 'y', (6,6), 'n'. The oracle's final board has
 * player 1 on cell 1 of columns 2, 4 and 6: progress 2 + 2 + 2 = 6
 * (column 4's cell also holds player 2's marker: two markers count).
 * Match 1: player 1 climbs column 2 and claims it: progress h + 1 = 4.
 */
static const char tiny[] =
	"cantstop-dataset 1\n"
	"# match 0\n"
	"0 1 0 2,2 p=1 phase=column roll=1,1,1,1\n"
	"0 1 0 n p=1 phase=yesno neutral=2:1\n"
	"0 2 0 4,4 p=2 phase=column roll=2,2,2,2 m1=2:1\n"
	"0 2 0 n p=2 phase=yesno neutral=4:1 m1=2:1\n"
	"0 1 1 4,4 p=1 phase=column roll=2,2,2,2 m1=2:1 m2=4:1\n"
	"0 1 1 y p=1 phase=yesno neutral=4:1 m1=2:1 m2=4:1\n"
	"0 1 1 6,6 p=1 phase=column roll=3,3,3,3 neutral=4:1 m1=2:1 m2=4:1\n"
	"0 1 1 n p=1 phase=yesno neutral=4:1,6:1 m1=2:1 m2=4:1\n"
	"\n"
	"1 1 0 2,2 p=1 phase=column roll=1,1,1,1\n"
	"1 1 0 y p=1 phase=yesno neutral=2:1\n"
	"1 1 0 2,2 p=1 phase=column roll=1,1,1,1 neutral=2:1\n"
	"1 1 0 n p=1 phase=yesno neutral=2:2 won=2\n";

/* A claim left pending by a round without a stop carries over (spec 6.2). */
static const char carry[] =
	"cantstop-dataset 1\n"
	"0 1 0 2,2 p=1 phase=column roll=1,1,1,1\n"
	"0 1 0 y p=1 phase=yesno neutral=2:1\n"
	"0 1 0 2,2 p=1 phase=column roll=1,1,1,1 neutral=2:1\n"
	"0 1 0 n p=1 phase=yesno neutral=2:2 won=2\n"
	"0 1 1 4,4 p=1 phase=column roll=2,2,2,2 fin=2:1\n"
	"0 1 1 n p=1 phase=yesno neutral=4:1 fin=2:1\n";

/* Test policies: the first action, and a fixed yes/no rule. */
enum { ALWAYS_STOP, ALWAYS_ROLL, STOP_AFTER_A_CLAIM, FAIL };

static int policy_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	int kind = *(const int *)ud;

	if (kind == FAIL)
		return ms_ctx_error(ctx, MS_ERANGE, "policy failed");
	if (kind == ALWAYS_STOP)
		*answer = MS_CS_MOVE_NO;
	else if (kind == ALWAYS_ROLL)
		*answer = MS_CS_MOVE_YES;
	else
		*answer = s->finished[1] ? MS_CS_MOVE_NO : MS_CS_MOVE_YES;
	return MS_OK;
}

static int policy_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
			 ms_cs_rng *rng, int *choice)
{
	*choice = 0;
	return MS_OK;
}

static ms_cs_player policy(const int *kind)
{
	ms_cs_player p = { policy_yes_no, policy_column, (void *)kind, "test" };
	return p;
}

static ms_cs_dataset *read_text(ms_ctx *ctx, const char *text)
{
	ms_cs_dataset *ds = NULL;

	if (ms_cs_dataset_read(ctx, &ds, text, strlen(text), "fixture") != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	return ds;
}

static void scores(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *p, double *obs, double *act)
{
	assert_int_equal(ms_cs_score_observation(ctx, ds, p, 1, obs), MS_OK);
	assert_int_equal(ms_cs_score_action(ctx, ds, p, 1, act), MS_OK);
}

static void test_score__hand_made_data_set(void **state)
{
	static const int stop = ALWAYS_STOP, roll = ALWAYS_ROLL;
	ms_ctx *ctx;
	ms_cs_dataset *ds;
	ms_cs_player p, ga;
	double obs, act;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ds = read_text(ctx, tiny);
	assert_int_equal(ms_cs_dataset_matches(ds), 2);
	assert_int_equal(ms_cs_dataset_size(ds), 12);
	/*
	 * Always stop: match 0 reaches columns 2 and 4 (2 + 2 of 6), match 1
	 * stops below the claim (2 of 4): (4/6 + 2/4) / 2 = 7/12. It agrees
	 * with 5 of 6 and 3 of 4 of player 1's moves: 8/10.
	 */
	p = policy(&stop);
	scores(ctx, ds, &p, &obs, &act);
	assert_float_equal(obs, 7.0 / 12.0, 1e-12);
	assert_float_equal(act, 0.8, 1e-12);
	/* Never stopping keeps nothing (the claim of match 1 stays pending): 0; moves 4/6 + 3/4: 7/10. */
	p = policy(&roll);
	scores(ctx, ds, &p, &obs, &act);
	assert_float_equal(obs, 0.0, 1e-12);
	assert_float_equal(act, 0.7, 1e-12);
	/* GA keeps rolling with fewer than three neutrals: the same answers. */
	ms_cs_player_ga(&ga, NULL, 0);
	scores(ctx, ds, &ga, &obs, &act);
	assert_float_equal(obs, 0.0, 1e-12);
	assert_float_equal(act, 0.7, 1e-12);
	ms_cs_dataset_free(ds);
	ms_ctx_free(ctx);
}

static void test_score__pending_claim_carries_over_to_the_next_stop(void **state)
{
	static const int rule = STOP_AFTER_A_CLAIM;
	ms_ctx *ctx;
	ms_cs_dataset *ds;
	ms_cs_player p = policy(&rule);
	double obs, act;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ds = read_text(ctx, carry);
	/*
	 * Round 0 claims column 2 but rolls on (no 'n'); round 1 stops after
	 * (4,4): the pending claim is finished then. Learner 4 + 2 = oracle 6.
	 * Moves: all but round 0's final 'n' agree: 5/6.
	 */
	scores(ctx, ds, &p, &obs, &act);
	assert_float_equal(obs, 1.0, 1e-12);
	assert_float_equal(act, 5.0 / 6.0, 1e-12);
	ms_cs_dataset_free(ds);
	ms_ctx_free(ctx);
}

static void test_score__errors_score_zero(void **state)
{
	static const int failing = FAIL, stop = ALWAYS_STOP;
	ms_ctx *ctx;
	ms_cs_dataset *ds;
	ms_cs_player p = policy(&failing), s = policy(&stop);
	double score = 1;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ds = read_text(ctx, tiny);
	assert_int_equal(ms_cs_score_observation(ctx, ds, &p, 1, &score), MS_ERANGE);
	assert_float_equal(score, 0.0, 0);
	score = 1;
	assert_int_equal(ms_cs_score_action(ctx, ds, &p, 1, &score), MS_ERANGE);
	assert_float_equal(score, 0.0, 0);
	ms_cs_dataset_free(ds);
	ds = read_text(ctx, "cantstop-dataset 1\n0 2 0 n p=2 phase=yesno neutral=3:0\n");
	assert_int_equal(ms_cs_score_observation(ctx, ds, &s, 1, &score), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "no recorded turn of player 1"));
	assert_int_equal(ms_cs_score_action(ctx, ds, &s, 1, &score), MS_EINVAL);
	ms_cs_dataset_free(ds);
	ds = read_text(ctx, "cantstop-dataset 1\n0 1 0 n p=1 phase=yesno\n");
	assert_int_equal(ms_cs_score_observation(ctx, ds, &s, 1, &score), MS_ERANGE);
	assert_float_equal(score, 0.0, 0);
	ms_cs_dataset_free(ds);
	ms_ctx_free(ctx);
}

static void test_score__progress_profile_counts_two_markers_or_player_one(void **state)
{
	ms_cs_state s = cs_state("m1=7:4,3:0 m2=7:2,5:3,9:1 neutral=9:1 fin=12:1,2:2");
	int x[MS_CS_COLUMNS];

	(void)state;
	assert_int_equal(ms_cs_progress_profile(&s, x), 5 + 1 + 2 + 4);
	assert_int_equal(x[7], 5); /* player 2 alone on cell 2 does not count */
	assert_int_equal(x[3], 1);
	assert_int_equal(x[5], 0);
	assert_int_equal(x[9], 2); /* a neutral and player 2's marker: two markers */
	assert_int_equal(x[12], 4);
	assert_int_equal(x[2], 0);
}

static int record_equal(const ms_cs_record *a, const ms_cs_record *b)
{
	return !memcmp(&a->state, &b->state, sizeof(a->state)) && ms_cs_move_equal(&a->action, &b->action) &&
	       a->match == b->match && a->round == b->round && a->player == b->player;
}

/* Checks what the recorder promises (spec 6.1) on a generated data set. */
static void check_recorded(const ms_cs_dataset *ds, int matches)
{
	int next_round[3] = { 0, 0, 0 }, match = -1, in_turn = 0, player = 0;

	assert_int_equal(ms_cs_dataset_matches(ds), matches);
	for (size_t i = 0; i < ms_cs_dataset_size(ds); i++) {
		const ms_cs_record *r = ms_cs_dataset_get(ds, i);
		ms_cs_move acts[MS_CS_MAX_ACTIONS];
		int n = ms_cs_legal_actions(&r->state, acts), legal = 0;

		if (r->match != match) {
			assert_int_equal(r->match, match + 1);
			assert_false(in_turn);
			match = r->match;
			next_round[1] = next_round[2] = 0;
		}
		assert_int_equal(r->player, r->state.player);
		if (in_turn) {
			assert_int_equal(r->player, player);
		} else {
			player = r->player;
			assert_int_equal(r->round, next_round[player]);
			in_turn = 1;
		}
		assert_int_equal(r->round, next_round[player]);
		for (int k = 0; k < n; k++)
			legal |= ms_cs_move_equal(&acts[k], &r->action);
		assert_true(legal);
		if (r->action.kind == MS_CS_MOVE_NO) {
			in_turn = 0;
			next_round[player]++;
		}
	}
	assert_false(in_turn); /* every recorded turn ends with a stop */
	assert_int_equal(match, matches - 1);
}

static void test_dataset__recorded_from_oracles(void **state)
{
	ms_ctx *ctx;
	ms_cs_dataset *rnd = NULL, *again = NULL, *gads = NULL;
	ms_cs_player ga, random;
	double obs, act;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_random(&random);
	assert_int_equal(ms_cs_dataset_generate(ctx, &rnd, &random, &random, 3, MS_CS_ERA_A, 21), MS_OK);
	assert_int_equal(ms_cs_dataset_generate(ctx, &again, &random, &random, 3, MS_CS_ERA_A, 21), MS_OK);
	check_recorded(rnd, 3);
	assert_int_equal(ms_cs_dataset_size(rnd), ms_cs_dataset_size(again));
	for (size_t i = 0; i < ms_cs_dataset_size(rnd); i++)
		assert_true(record_equal(ms_cs_dataset_get(rnd, i), ms_cs_dataset_get(again, i)));
	assert_int_equal(ms_cs_dataset_generate(ctx, &gads, &ga, &ga, 3, MS_CS_ERA_A, 22), MS_OK);
	check_recorded(gads, 3);
	/* GA replays its own turns exactly: both scores are 1. */
	scores(ctx, gads, &ga, &obs, &act);
	assert_float_equal(obs, 1.0, 1e-12);
	assert_float_equal(act, 1.0, 1e-12);
	/* GA imitates the random oracle only in part. */
	scores(ctx, rnd, &ga, &obs, &act);
	assert_true(obs > 0 && obs < 1);
	assert_true(act > 0.2 && act < 0.9);
	ms_cs_dataset_free(rnd);
	ms_cs_dataset_free(again);
	ms_cs_dataset_free(gads);
	ms_ctx_free(ctx);
}

static void test_dataset__text_round_trip(void **state)
{
	ms_ctx *ctx;
	ms_cs_dataset *ds = NULL, *back = NULL;
	ms_cs_player random, ga;
	char *text;
	size_t len;
	FILE *f;
	double o1, a1, o2, a2;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_cs_player_random(&random);
	ms_cs_player_ga(&ga, NULL, 0);
	assert_int_equal(ms_cs_dataset_generate(ctx, &ds, &random, &random, 3, MS_CS_ERA_B, 5), MS_OK);
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(ms_cs_dataset_write(ctx, ds, f), MS_OK);
	len = (size_t)ftell(f);
	rewind(f);
	text = malloc(len + 1);
	assert_int_equal(fread(text, 1, len, f), len);
	fclose(f);
	assert_int_equal(ms_cs_dataset_read(ctx, &back, text, len, "round trip"), MS_OK);
	free(text);
	assert_int_equal(ms_cs_dataset_size(back), ms_cs_dataset_size(ds));
	for (size_t i = 0; i < ms_cs_dataset_size(ds); i++) {
		ms_cs_record a = *ms_cs_dataset_get(ds, i);

		a.state.dice = ms_cs_dataset_get(back, i)->state.dice; /* the generator is not written */
		assert_true(record_equal(&a, ms_cs_dataset_get(back, i)));
	}
	scores(ctx, ds, &ga, &o1, &a1);
	scores(ctx, back, &ga, &o2, &a2);
	assert_float_equal(o1, o2, 0);
	assert_float_equal(a1, a2, 0);
	ms_cs_dataset_free(ds);
	ms_cs_dataset_free(back);
	ms_ctx_free(ctx);
}

static void test_dataset__read_errors_name_the_line(void **state)
{
	ms_ctx *ctx;
	ms_cs_dataset *ds = (ms_cs_dataset *)0x1;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_cs_dataset_read(ctx, &ds, "0 1 0 n p=1\n", 12, "d"), MS_EPARSE);
	assert_null(ds);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "header"));
	assert_int_equal(ms_cs_dataset_read(ctx, &ds, "cantstop-dataset 1\nx 1 0 n p=1\n", 31, "d"), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "d: line 2"));
	assert_int_equal(ms_cs_dataset_read(ctx, &ds, "cantstop-dataset 1\n0 1 0 7,13 p=1\n", 34, "d"), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "bad move"));
	assert_int_equal(ms_cs_dataset_read(ctx, &ds, "cantstop-dataset 1\n0 1 0 n p=1 roll=7,1,1,1\n", 43, "d"),
			 MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "d: line 2: state: column"));
	assert_int_equal(ms_cs_dataset_read(ctx, &ds, "cantstop-dataset 1\n1 1 0 n p=1\n0 1 0 n p=1\n", 42, "d"),
			 MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "line 3"));
	ms_ctx_free(ctx);
}

static void test_dataset__allocation_failures_are_reported(void **state)
{
	ms_cs_player random;
	int failed = 0, passed = 0;

	(void)state;
	ms_cs_player_random(&random);
	for (long fail_at = 1; fail_at < 40; fail_at++) {
		ms_test_alloc t = { 0, 0, 0 };
		ms_allocator a;
		ms_ctx *ctx = ms_test_ctx_with(&t, &a);
		ms_cs_dataset *ds = NULL;
		int rc;

		t.fail_at = fail_at;
		rc = ms_cs_dataset_generate(ctx, &ds, &random, &random, 3, MS_CS_ERA_A, 1);
		assert_true(rc == MS_OK || rc == MS_ENOMEM);
		if (rc == MS_OK)
			assert_non_null(ds);
		else
			assert_null(ds);
		failed += rc != MS_OK;
		passed += rc == MS_OK;
		ms_cs_dataset_free(ds);
		ms_ctx_free(ctx);
		assert_int_equal(t.live, 0);
	}
	assert_true(failed > 0 && passed > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_score__hand_made_data_set),
		cmocka_unit_test(test_score__pending_claim_carries_over_to_the_next_stop),
		cmocka_unit_test(test_score__errors_score_zero),
		cmocka_unit_test(test_score__progress_profile_counts_two_markers_or_player_one),
		cmocka_unit_test(test_dataset__recorded_from_oracles),
		cmocka_unit_test(test_dataset__text_round_trip),
		cmocka_unit_test(test_dataset__read_errors_name_the_line),
		cmocka_unit_test(test_dataset__allocation_failures_are_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
