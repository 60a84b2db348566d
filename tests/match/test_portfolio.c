/*
 * Portfolio bots (games/microrts/match/portfolio.c): the text form's errors
 * name the line; a decision simulates no more than its slice; the bot
 * names the field bot it plays and plays the candidate that does best
 * against it, as separate matches of each candidate show; the same seed
 * gives the same game. Maps from the harness cache (argument 1).
 */
#include "support/testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"

static const char *maps_dir;

#define HARVEST "for(Unit u){u.harvest(4) if(u.canAttack()) then {u.attack(Closest)}}\n"
#define ATTACK "for(Unit u){u.train(Worker,EnemyDir,8) u.attack(Closest)}\n"
#define IDLE "for(Unit u){u.idle()}\n"

static void need_maps(void)
{
	struct stat st;
	if (!maps_dir || stat(maps_dir, &st) != 0) {
		if (getenv("CI"))
			fail_msg("the harness maps are absent but CI is set");
		print_message("skipped: harness maps absent (tools/setup.sh)\n");
		skip();
	}
}

static ms_rts_state *load(ms_ctx *ctx, const ms_rts_utt *utt)
{
	ms_rts_state *s;
	char map[2100];
	snprintf(map, sizeof map, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
	if (ms_rts_state_load_map(ctx, &s, utt, map, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	return s;
}

/* One match on 8x8/basesWorkers8x8A, `me` in seat `seat` against the native bot `opp`; the winner's seat. */
static int play(ms_ctx *ctx, const ms_rts_utt *utt, ms_bot *me, int seat, const char *opp, int cycles)
{
	ms_rts_state *s = load(ctx, utt);
	ms_bot *o, *bots[2];
	int w = -1;
	if (ms_bot_make(ctx, &o, opp, utt, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	bots[seat] = me;
	bots[1 - seat] = o;
	if (ms_bot_reset(me) || ms_bot_reset(o) || ms_bot_play(ctx, s, bots, cycles, 0, NULL, &w))
		fail_msg("%s", ms_ctx_last_error(ctx));
	ms_bot_free(o);
	ms_rts_state_free(s);
	return w;
}

static void test_portfolio__bad_text_is_an_error_naming_the_line(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "expected 'microsynth-portfolio 1'" },
		{ "microsynth-portfolio 2\n", "line 1: expected 'microsynth-portfolio 1'" },
		{ "microsynth-portfolio 1\ncycle -3\n", "line 2: expected 'cycle N' with 0 <= N" },
		{ "microsynth-portfolio 1\nseeds 99\n", "line 2: expected 'seeds N' with 1 <= N <= 16" },
		{ "microsynth-portfolio 1\nedition 2024\n", "line 2: expected 'edition N'" },
		{ "microsynth-portfolio 1\nmax-seeds 0\n", "line 2: expected 'max-seeds N' with 1 <= N <= 16" },
		{ "microsynth-portfolio 1\nbudget-ms x\n", "line 2: expected 'budget-ms X'" },
		{ "microsynth-portfolio 1\n# c\ncycle 10\nwhat 3\n", "line 4: unknown item 'what'" },
		{ "microsynth-portfolio 1\nfield CoacAI Nobody\n", "line 2: field bot Nobody" },
		{ "microsynth-portfolio 1\nfield\n", "line 2: 'field' names no bot" },
		{ "microsynth-portfolio 1\nprogram a\n" HARVEST, "line 2: program a has no 'end'" },
		{ "microsynth-portfolio 1\nprogram a\nfor(Unit u){u.nope()}\nend\n", "program a (from line 3)" },
		{ "microsynth-portfolio 1\nprogram a\n" HARVEST "end\nprogram a\n" HARVEST "end\n",
		  "line 5: program a defined twice" },
		{ "microsynth-portfolio 1\nprogram a\n" HARVEST "end\nbefore b\n", "'before b': no such program" },
		{ "microsynth-portfolio 1\narchetypes 2\nprogram a\n" HARVEST "end\n", "line 2: expected 'archetypes N'" },
		{ "microsynth-portfolio 1\ncycle 10\n", "no program" },
	};
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b = (ms_bot *)&b;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = ms_rts_portfolio_bot_new(ctx, &b, "t.portfolio", bad[i].text, strlen(bad[i].text), utt, 0);
		assert_int_not_equal(rc, MS_OK);
		assert_null(b);
		if (!strstr(ms_ctx_last_error(ctx), bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, ms_ctx_last_error(ctx), bad[i].msg);
	}
	assert_int_equal(ms_bot_make(ctx, &b, "portfolio:/no/such/file.portfolio", utt, 0), MS_EIO);
	assert_null(b);
	assert_true(ms_bot_spec_native("portfolio:x") && ms_bot_spec_native("portfolio-text:x"));
	assert_int_equal(ms_rts_portfolio_bot_info(NULL, NULL), MS_EINVAL);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_portfolio__a_decision_simulates_no_more_than_its_slice(void **state)
{
	static const char text[] = "microsynth-portfolio 1\nbudget-cycles 250\nfield WorkerRush LightRush\n"
				   "program h\n" HARVEST "end\nprogram a\n" ATTACK "end\n";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b;
	ms_rts_pair out[64];
	ms_rts_portfolio_info in;
	int n;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	s = load(ctx, utt);
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", text, strlen(text), utt, 7), MS_OK);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_int_equal(in.cycles, 0);
	assert_null(in.opponent);
	assert_string_equal(in.program, "h"); /* the first program opens by default */
	for (int k = 0; k <= 3; k++) {
		assert_int_equal(ms_bot_decide(b, 1, s, out, 64, &n), MS_OK);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_int_equal(in.cycles, 250 * k); /* the first decision only starts the game */
	}
	/* one bot, one seat per game */
	assert_int_equal(ms_bot_decide(b, 0, s, out, 64, &n), MS_EINVAL);
	/* reset starts over */
	assert_int_equal(ms_bot_reset(b), MS_OK);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_int_equal(in.cycles, 0);
	assert_int_equal(ms_bot_decide(b, 0, s, out, 64, &n), MS_OK);
	ms_bot_free(b);
	/* no slice from the stop cycle on */
	{
		static const char stop[] = "microsynth-portfolio 1\nbudget-cycles 10\nstop-cycle 2\nfield WorkerRush\n"
					   "program h\n" HARVEST "end\n";
		assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", stop, strlen(stop), utt, 7), MS_OK);
		play(ctx, utt, b, 0, "WorkerRush", 10);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_int_equal(in.cycles, 1 * 10); /* cycle 1 only: cycle 0 starts the game */
		ms_bot_free(b);
	}
	/* the identification cycle capped at 5 cycles per side of the 8x8 map: 40 */
	{
		static const char cap[] = "microsynth-portfolio 1\ncycle 150\ncycle-per-side 5\nbudget-cycles 10\n"
					  "field WorkerRush\nprogram h\n" HARVEST "end\n";
		assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", cap, strlen(cap), utt, 7), MS_OK);
		play(ctx, utt, b, 0, "WorkerRush", 40);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_null(in.opponent);
		play(ctx, utt, b, 0, "WorkerRush", 41);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_non_null(in.opponent);
		ms_bot_free(b);
	}
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/* The winner of the opening h for `cycle` cycles, then `prog`, in `seat` against `opp`. */
static int prefix_result(ms_ctx *ctx, const ms_rts_utt *utt, const char *prog, int cycle, int seat, const char *opp)
{
	char text[1024];
	ms_bot *b;
	int w;
	snprintf(text, sizeof text, "microsynth-switch 1\ncycle %d\nprogram h\n" HARVEST "end\nprogram p\n%send\nbefore h\n"
		 "default p\n", cycle, prog);
	assert_int_equal(ms_rts_switch_bot_new(ctx, &b, "prefix", text, strlen(text), utt, 0), MS_OK);
	w = play(ctx, utt, b, seat, opp, 3000);
	ms_bot_free(b);
	return w;
}

static void test_portfolio__plays_the_candidate_that_beats_the_bot_it_sees(void **state)
{
	static const char *const progs[3] = { HARVEST, ATTACK, IDLE };
	static const char *const names[3] = { "h", "a", "i" };
	static const char *const opps[2] = { "WorkerRush", "LightRush" };
	char text[2048];
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	snprintf(text, sizeof text,
		 "microsynth-portfolio 1\ncycle 100\nbudget-cycles 4000\nmax-cycles 3000\nchoose-opening 0\n"
		 "field WorkerRush LightRush\n"
		 "program i\n" IDLE "end\nprogram h\n" HARVEST "end\nprogram a\n" ATTACK "end\nbefore h\n");
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", text, strlen(text), utt, 3), MS_OK);
	for (int o = 0; o < 2; o++)
		for (int seat = 0; seat < 2; seat++) {
			ms_rts_portfolio_info in;
			int w, w2, best = -1, got = -1;
			char chosen[16];
			w = play(ctx, utt, b, seat, opps[o], 3000);
			assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
			assert_non_null(in.opponent);
			assert_string_equal(in.opponent, opps[o]);
			assert_int_equal(in.jobs_left, 0);
			assert_int_equal(in.failures, 0);
			snprintf(chosen, sizeof chosen, "%s", in.program);
			/* the choice's simulated score is what its own match gives ... */
			for (int c = 0; c < 3; c++) {
				int r = prefix_result(ctx, utt, progs[c], 100, seat, opps[o]);
				int score = r == seat ? 2 : r < 0 ? 1 : 0;
				if (!strcmp(chosen, names[c]))
					got = score;
				if (score > best)
					best = score;
			}
			print_message("%s seat %d: %s (score %d of 2)\n", opps[o], seat, chosen, got);
			/* ... and no candidate does better */
			assert_int_equal(got, best);
			assert_true(in.chosen_score * 2 == got);
			/* the same seed, the same game */
			w2 = play(ctx, utt, b, seat, opps[o], 3000);
			assert_int_equal(w, w2);
			assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
			assert_string_equal(in.program, chosen);
		}
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_portfolio__more_seeds_against_the_identified_bot_only(void **state)
{
	static const char text[] = "microsynth-portfolio 1\ncycle 60\nbudget-cycles 20000\nseeds 1\nmax-seeds 3\nchoose-opening 0\n"
				   "field CoacAI LightRush\nprogram h\n" HARVEST "end\nprogram a\n" ATTACK "end\n";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	ms_rts_portfolio_info in;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", text, strlen(text), utt, 5), MS_OK);
	/* the second decision plays one seed of each: 2 programs x 2 bots; the rest wait */
	play(ctx, utt, b, 0, "CoacAI", 2);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_int_equal(in.games, 4);
	assert_int_equal(in.jobs_left, 4); /* CoacAI draws: two more seeds for each program */
	play(ctx, utt, b, 0, "CoacAI", 3000);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_string_equal(in.opponent, "CoacAI");
	assert_int_equal(in.games, 4 + 4);
	assert_int_equal(in.chosen_games, 3);
	assert_int_equal(in.jobs_left, 0);
	/* LightRush never draws: no more seeds once it is identified */
	play(ctx, utt, b, 1, "LightRush", 3000);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_string_equal(in.opponent, "LightRush");
	assert_int_equal(in.games, 4);
	assert_int_equal(in.chosen_games, 1);
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_portfolio__opens_with_the_candidate_best_over_the_field(void **state)
{
	static const char *const progs[3] = { IDLE, HARVEST, ATTACK };
	static const char *const names[3] = { "i", "h", "a" };
	static const char *const opps[2] = { "WorkerRush", "LightRush" };
	static const char text[] = "microsynth-portfolio 1\ncycle 200\nbudget-cycles 30000\nmax-cycles 3000\n"
				   "field WorkerRush LightRush\nprogram i\n" IDLE "end\nprogram h\n" HARVEST
				   "end\nprogram a\n" ATTACK "end\n";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", text, strlen(text), utt, 3), MS_OK);
	for (int seat = 0; seat < 2; seat++) {
		ms_rts_portfolio_info in;
		int best = -1, got = -1;
		play(ctx, utt, b, seat, "WorkerRush", 2);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_int_equal(in.opening_final, 0); /* 6 whole games fit in one slice ... */
		assert_int_equal(in.games, 6);
		play(ctx, utt, b, seat, "WorkerRush", 3);
		assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
		assert_int_equal(in.opening_final, 1); /* ... and the next decision takes the best */
		/* its whole games against the field, one by one */
		for (int c = 0; c < 3; c++) {
			char spec[256];
			int sum = 0;
			snprintf(spec, sizeof spec, "program-text:%s", progs[c]);
			for (int o = 0; o < 2; o++) {
				ms_bot *p;
				int r;
				assert_int_equal(ms_bot_make(ctx, &p, spec, utt, 0), MS_OK);
				r = play(ctx, utt, p, seat, opps[o], 3000);
				sum += r == seat ? 2 : r < 0 ? 1 : 0;
				ms_bot_free(p);
			}
			if (!strcmp(in.opening, names[c]))
				got = sum;
			if (sum > best)
				best = sum;
		}
		print_message("seat %d opens with %s (%d of 4 against the field)\n", seat, in.opening, got);
		assert_int_equal(got, best);
	}
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/*
 * `archetypes 1` adds the library's archetypes after the text's programs,
 * named archetypeK: every one plays its whole games against the field, and
 * against a program that idles the opening chosen is one of them.
 */
static void test_portfolio__archetypes_join_the_candidates(void **state)
{
	static const char text[] = "microsynth-portfolio 1\ncycle 200\nbudget-cycles 400000\nmax-cycles 3000\n"
				   "field WorkerRush LightRush\narchetypes 1\nprogram i\n" IDLE "end\n";
	static const char twice[] = "microsynth-portfolio 1\narchetypes 1\nprogram archetype0\n" IDLE "end\n";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	ms_rts_portfolio_info in;
	int n = 0;
	(void)state;
	need_maps();
	while (ms_rts_archetype(n))
		n++;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", twice, strlen(twice), utt, 3), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "archetype0 defined twice"));
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &b, "t", text, strlen(text), utt, 3), MS_OK);
	play(ctx, utt, b, 0, "WorkerRush", 2);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_int_equal(in.games, 2 * (1 + n)); /* each candidate against each of the two bots */
	play(ctx, utt, b, 0, "WorkerRush", 3);
	assert_int_equal(ms_rts_portfolio_bot_info(b, &in), MS_OK);
	assert_int_equal(in.opening_final, 1);
	assert_true(!strncmp(in.opening, "archetype", 9));
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_portfolio__simulations_leave_the_played_programs_generators_alone(void **state)
{
#define RANDOM "for(Unit u){u.train(Worker,EnemyDir,8) u.attack(Random) u.harvest(2)}\n"
	static const char text[] = "microsynth-portfolio 1\nbudget-cycles 3000\nfield WorkerRush LightRush\n"
				   "program r\n" RANDOM "end\n";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *pf, *plain;
	ms_rts_portfolio_info in;
	int w0, w1;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	/* one program draws Random targets: the portfolio must play it as the program alone does */
	assert_int_equal(ms_rts_portfolio_bot_new(ctx, &pf, "t", text, strlen(text), utt, 9), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &plain, "program-text:" RANDOM, utt, 9), MS_OK);
	for (int seat = 0; seat < 2; seat++) {
		ms_rts_state *s0 = load(ctx, utt), *s1 = load(ctx, utt);
		ms_bot *o0, *o1, *b0[2], *b1[2];
		assert_int_equal(ms_bot_make(ctx, &o0, "LightRush", utt, 0), MS_OK);
		assert_int_equal(ms_bot_make(ctx, &o1, "LightRush", utt, 0), MS_OK);
		b0[seat] = pf, b0[1 - seat] = o0;
		b1[seat] = plain, b1[1 - seat] = o1;
		assert_int_equal(ms_bot_reset(pf), MS_OK);
		assert_int_equal(ms_bot_play(ctx, s0, b0, 3000, 0, NULL, &w0), MS_OK);
		assert_int_equal(ms_bot_play(ctx, s1, b1, 3000, 0, NULL, &w1), MS_OK);
		assert_int_equal(ms_rts_portfolio_bot_info(pf, &in), MS_OK);
		assert_true(in.games > 0); /* it did simulate */
		assert_int_equal(w0, w1);
		assert_int_equal(ms_rts_state_time(s0), ms_rts_state_time(s1));
		assert_int_equal(ms_rts_state_unit_count(s0), ms_rts_state_unit_count(s1));
		ms_bot_free(o0);
		ms_bot_free(o1);
		ms_rts_state_free(s0);
		ms_rts_state_free(s1);
	}
	ms_bot_free(pf);
	ms_bot_free(plain);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
#undef RANDOM
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_portfolio__bad_text_is_an_error_naming_the_line),
		cmocka_unit_test(test_portfolio__a_decision_simulates_no_more_than_its_slice),
		cmocka_unit_test(test_portfolio__plays_the_candidate_that_beats_the_bot_it_sees),
		cmocka_unit_test(test_portfolio__more_seeds_against_the_identified_bot_only),
		cmocka_unit_test(test_portfolio__opens_with_the_candidate_best_over_the_field),
		cmocka_unit_test(test_portfolio__archetypes_join_the_candidates),
		cmocka_unit_test(test_portfolio__simulations_leave_the_played_programs_generators_alone),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
