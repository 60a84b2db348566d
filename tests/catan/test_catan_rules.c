/* Catan engine: boards (tc2 decoding, catanatron's tile table), invariants
 * over random games under both profiles, and the replay's comparisons
 * (they must catch damaged recordings). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "microsynth/catan.h"
#include <cjson/cJSON.h>
#include "support/testutil.h"
#include "games/catan/catan_agents.h"
#include "core/file.h"

static ms_ctx *new_ctx(void)
{
	ms_ctx *ctx = NULL;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	return ctx;
}

/* README: 0x37 brick 11 is the first land hex in layout order; 0x55 the desert. */
static void test_catan_board__tc2_decodes_as_the_thesis_board(void **st)
{
	(void)st;
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	int res, num, counts[6] = { 0 }, nums[13] = { 0 }, ports = 0, three = 0;
	assert_int_equal(ms_catan_board_tc2(ctx, &b), MS_OK);
	for (int h = 0; h < MS_CATAN_HEXES; h++) {
		ms_catan_board_hex(b, h, &res, &num, NULL);
		counts[res + 1]++;
		nums[num]++;
	}
	assert_int_equal(counts[0], 1);                       /* desert */
	assert_int_equal(counts[1 + MS_CATAN_WOOD], 4);
	assert_int_equal(counts[1 + MS_CATAN_BRICK], 3);
	assert_int_equal(counts[1 + MS_CATAN_SHEEP], 4);
	assert_int_equal(counts[1 + MS_CATAN_WHEAT], 4);
	assert_int_equal(counts[1 + MS_CATAN_ORE], 3);
	assert_int_equal(nums[2] + nums[12], 2);
	assert_int_equal(nums[6] + nums[8], 4);
	ms_catan_board_hex(b, 0, &res, &num, NULL);
	assert_int_equal(res, MS_CATAN_BRICK);
	assert_int_equal(num, 11);
	ms_catan_board_hex(b, 8, &res, &num, NULL);          /* 0x55 */
	assert_int_equal(res, -1);
	for (int n = 0; n < MS_CATAN_NODES; n++) {
		ports += ms_catan_board_port(b, n) >= 0;
		three += ms_catan_board_port(b, n) == 5;
	}
	assert_int_equal(ports, 18);
	assert_int_equal(three, 8);
	ms_catan_board_free(b);
	ms_ctx_free(ctx);
}

static void test_catan_board__bad_layouts_are_named_errors(void **st)
{
	(void)st;
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	const char *bad[] = { "1014|x,1,2,3", "no comma", "1014|g," , "1014|TestGame,9,6,10,6,6,1,3,3,67,8,3,5,4,1,6,6,2,0,2,3,4,85,8,4,5,1,5,6,6,2,4,5,97,18,6,100,6,-1,-1,-1,-1,-1,8,9,6,-1,-1,2,1,4,7,-1,-1,5,-1,8,3,5,-1,-1,7,6,2,1,-1,-1,3,0,4,-1,-1,-1,-1,-1,86" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(ms_catan_board_from_layout(ctx, &b, bad[i], strlen(bad[i])), MS_EPARSE);
		assert_null(b);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "BOARDLAYOUT"));
	}
	assert_int_equal(ms_catan_board_from_json(ctx, &b, "{\"tiles\":3}", 11), MS_EPARSE);
	assert_int_equal(ms_catan_board_from_json(ctx, &b, "{", 1), MS_EPARSE);
	ms_ctx_free(ctx);
}

/* Plays one random game, checking the conservation invariants after every action. */
static int random_game(ms_ctx *ctx, const ms_catan_board *b, int profile, int n, uint64_t seed)
{
	ms_catan_rules rules;
	ms_catan_state s;
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	uint64_t rng = seed;
	int steps = 0;
	ms_catan_rules_profile(&rules, profile);
	assert_int_equal(ms_catan_init(ctx, &s, b, &rules, n, NULL, &rng), MS_OK);
	while (!ms_catan_over(&s)) {
		int k = ms_catan_legal(&s, acts);
		assert_true(k > 0);
		assert_int_equal(ms_catan_apply(ctx, &s, &acts[ms_catan_rand(&rng, (uint32_t)k)], &rng, NULL), MS_OK);
		steps++;
		int cards = s.deck_len;
		for (int r = 0; r < 5; r++) {
			int total = s.bank[r];
			for (int p = 0; p < n; p++) {
				assert_true(s.p[p].res[r] >= 0);
				total += s.p[p].res[r];
			}
			if (profile == MS_CATAN_PROFILE_CATANATRON) {
				assert_int_equal(total, 19);
				assert_true(s.bank[r] >= 0);
			}
		}
		for (int p = 0; p < n; p++) {
			int roads = 0, sett = 0, cities = 0;
			for (int c = 0; c < 5; c++)
				cards += s.p[p].dev[c] + s.p[p].played[c];
			for (int e = 0; e < MS_CATAN_EDGES; e++)
				roads += s.edge_owner[e] == p + 1;
			for (int v = 0; v < MS_CATAN_NODES; v++)
				if (s.node_owner[v] == p + 1) {
					cities += s.node_city[v];
					sett += !s.node_city[v];
				}
			assert_int_equal(roads + s.p[p].roads_left, 15);
			assert_int_equal(sett + cities + s.p[p].settlements_left, 5 + cities);
			assert_int_equal(cities + s.p[p].cities_left, 4);
			assert_true(s.p[p].settlements_left <= 5);
		}
		assert_int_equal(cards, 25);
	}
	return steps;
}

static void run_random_games(int games)
{
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	long wins = 0;
	for (int g = 0; g < games; g++) {
		assert_int_equal(ms_catan_board_random(ctx, &b, (uint64_t)g), MS_OK);
		int profile = g % 2, n = 2 + g % 3;
		random_game(ctx, b, profile, n, 1000u + (uint64_t)g);
		ms_catan_board_free(b);
		wins++;
	}
	assert_int_equal(wins, games);
	ms_ctx_free(ctx);
}

static void test_catan_rules__random_games_keep_cards_and_pieces(void **st)
{
	(void)st;
	const char *env = getenv("MS_CATAN_GAMES");
	run_random_games(env ? atoi(env) : 200);
}

static void count_line(void *ud, const char *line)
{
	(void)line;
	(*(int *)ud)++;
}

/* A copy of a recording with one die changed must diverge at that step. */
static void test_catan_replay__a_changed_die_diverges(void **st)
{
	(void)st;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	char path[1024], out[] = "catan_damaged.jsonl";
	snprintf(path, sizeof path, "%s/data/catan/catanatron-3.2.1/R2_s2001.jsonl.gz", ms_test_shared());
	ms_ctx *ctx = new_ctx();
	char *text;
	size_t len;
	assert_int_equal(ms_read_file(ctx, path, "recording", (size_t)1 << 30, &text, &len), MS_OK);
	/* the first roll that is not a 7 becomes 3+4: the robber must move */
	static const char key[] = "\"act\":[\"RED\",\"ROLL\",[";
	for (char *roll = strstr(text, key); roll; roll = strstr(roll + 1, key)) {
		char *d = roll + strlen(key);
		if ((d[0] - '0') + (d[2] - '0') != 7) {
			d[0] = '3';
			d[2] = '4';
			break;
		}
	}
	FILE *o = fopen(out, "w");
	assert_non_null(o);
	assert_int_equal(fwrite(text, 1, len, o), len);
	fclose(o);
	ms_ctx_mfree(ctx, text);
	ms_catan_replay_stats stats = { 0, 0, 0, 0 };
	int lines = 0;
	assert_int_equal(ms_catan_replay_file(ctx, path, &stats, count_line, &lines), MS_OK);
	assert_int_equal(stats.divergences + stats.legal_mismatches, 0);
	assert_int_equal(lines, 0);
	memset(&stats, 0, sizeof stats);
	assert_int_equal(ms_catan_replay_file(ctx, out, &stats, count_line, &lines), MS_OK);
	assert_int_equal(stats.divergences, 1);
	assert_true(lines >= 1);
	remove(out);
	ms_ctx_free(ctx);
}


/* Our decoding of tc2 gives every node the producing hexes and port that
 * tc2-board.json lists for TC2's own nodes (compared as a histogram, since
 * the numberings differ). */
static void test_catan_board__tc2_nodes_match_the_thesis_code(void **st)
{
	(void)st;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	static const char *const port_names[6] = { "LumberHarbor", "BrickHarbor", "WoolHarbor", "GrainHarbor",
						   "OreHarbor", "3for1" };
	char path[1024];
	snprintf(path, sizeof path, "%s/data/catan/tc2-board.json", ms_test_shared());
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = 0;
	cJSON *root = cJSON_Parse(text), *n;
	assert_non_null(root);
	int want[4][7], got[4][7];
	memset(want, 0, sizeof want);
	memset(got, 0, sizeof got);
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(root, "nodes"))
	{
		const cJSON *port = cJSON_GetObjectItemCaseSensitive(n, "port");
		int prod = cJSON_GetObjectItemCaseSensitive(n, "adjacent_producing_hexes")->valueint, kind = 6;
		for (int k = 0; cJSON_IsString(port) && k < 6; k++)
			if (!strcmp(port->valuestring, port_names[k]))
				kind = k;
		want[prod][kind]++;
	}
	cJSON_Delete(root);
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	assert_int_equal(ms_catan_board_tc2(ctx, &b), MS_OK);
	for (int v = 0; v < MS_CATAN_NODES; v++) {
		int hexes[3], k = ms_catan_board_node_hexes(b, v, hexes), prod = 0, res;
		for (int i = 0; i < k; i++) {
			ms_catan_board_hex(b, hexes[i], &res, NULL, NULL);
			prod += res >= 0;
		}
		int port = ms_catan_board_port(b, v);
		got[prod][port < 0 ? 6 : port]++;
	}
	assert_memory_equal(want, got, sizeof want);
	ms_catan_board_free(b);
	ms_ctx_free(ctx);
}

/* spec 5.3.c on tc2 and Eq 4.1 (spec 5.3 step 7: 3.5 and 0.7). */
static void test_catan_agents__estimate_and_reward_rows(void **st)
{
	(void)st;
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	ms_catan_rules rules;
	ms_catan_state s;
	int three = -1, port3 = -1;
	assert_int_equal(ms_catan_board_tc2(ctx, &b), MS_OK);
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_THESIS);
	assert_int_equal(ms_catan_init(ctx, &s, b, &rules, 4, NULL, NULL), MS_OK);
	for (int v = 0; v < MS_CATAN_NODES; v++) {
		int hexes[3], k = ms_catan_board_node_hexes(b, v, hexes), prod = 0, res;
		for (int i = 0; i < k; i++) {
			ms_catan_board_hex(b, hexes[i], &res, NULL, NULL);
			prod += res >= 0;
		}
		if (prod == 3 && ms_catan_board_port(b, v) < 0 && three < 0)
			three = v;
		if (prod == 2 && ms_catan_board_port(b, v) == 5 && port3 < 0)
			port3 = v;
	}
	assert_true(three >= 0 && port3 >= 0);
	ms_catan_action a;
	memset(&a, 0, sizeof a);
	a.type = MS_CATAN_BUILD_SETTLEMENT, a.v[0] = (int8_t)three;
	assert_int_equal(ms_catan_estimate(&s, &a), 10); /* (4 + 6) / 20 = 0.5 */
	a.v[0] = (int8_t)port3;
	assert_int_equal(ms_catan_estimate(&s, &a), 14); /* 4 + 4 + 3 x 2: 0.7 */
	a.type = MS_CATAN_BUILD_CITY, a.v[0] = (int8_t)three;
	assert_int_equal(ms_catan_estimate(&s, &a), 20);
	a.type = MS_CATAN_BUILD_ROAD;
	s.p[0].roads_left = 12; /* the third road, this one included */
	assert_int_equal(ms_catan_estimate(&s, &a), 1);
	s.p[0].roads_left = 14;
	assert_int_equal(ms_catan_estimate(&s, &a), 2);
	a.type = MS_CATAN_BUY_DEV;
	assert_int_equal(ms_catan_estimate(&s, &a), 2);
	s.p[0].has_army = 1;
	assert_int_equal(ms_catan_estimate(&s, &a), 1);
	a.type = MS_CATAN_BANK_TRADE;
	assert_int_equal(ms_catan_estimate(&s, &a), 10);
	s.p[0].res[MS_CATAN_WOOD] = s.p[0].res[MS_CATAN_BRICK] = 1;
	assert_int_equal(ms_catan_estimate(&s, &a), 1); /* a road became affordable */
	double r[4];
	s.winner = 0;
	s.p[0].actual_vp = 10;
	s.p[1].actual_vp = 7;
	s.turns = (int16_t)(80 + 2 * 3); /* t = 80 end-of-turns after the setup */
	catan__reward(&s, r);
	assert_true(r[0] > 3.4999 && r[0] < 3.5001);
	assert_true(r[1] > 0.6999 && r[1] < 0.7001);
	ms_catan_board_free(b);
	ms_ctx_free(ctx);
}

static void test_catan_apply__out_of_range_actions_are_refused(void **st)
{
	(void)st;
	ms_ctx *ctx = new_ctx();
	ms_catan_board *b = NULL;
	ms_catan_rules rules;
	ms_catan_state s;
	ms_catan_action a;
	uint64_t rng = 1;
	assert_int_equal(ms_catan_board_tc2(ctx, &b), MS_OK);
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_CATANATRON);
	assert_int_equal(ms_catan_init(ctx, &s, b, &rules, 4, NULL, &rng), MS_OK);
	memset(&a, -1, sizeof a);
	a.type = MS_CATAN_BUILD_SETTLEMENT, a.seat = 0, a.v[0] = 60;
	assert_int_equal(ms_catan_apply(ctx, &s, &a, &rng, NULL), MS_EILLEGAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "out of range"));
	a.v[0] = 3;
	assert_int_equal(ms_catan_apply(ctx, &s, &a, &rng, NULL), MS_OK);
	a.seat = 1;
	assert_int_equal(ms_catan_apply(ctx, &s, &a, &rng, NULL), MS_EILLEGAL); /* not seat 1's turn */
	ms_catan_board_free(b);
	ms_ctx_free(ctx);
}

/* A thesis-rules state where the player to move must discard from over 7
 * cards (random play from a seed). */
static ms_catan_board *discard_state(ms_ctx *ctx, ms_catan_state *s)
{
	ms_catan_board *b = NULL;
	ms_catan_rules rules;
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	uint64_t rng = 11;
	assert_int_equal(ms_catan_board_tc2(ctx, &b), MS_OK);
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_THESIS);
	assert_int_equal(ms_catan_init(ctx, s, b, &rules, 4, NULL, &rng), MS_OK);
	for (int steps = 0; !(s->prompt == MS_CATAN_P_DISCARD && ms_catan_hand(s, s->cur) > 7); steps++) {
		assert_true(steps < 100000 && !ms_catan_over(s));
		int k = ms_catan_legal(s, acts);
		assert_int_equal(ms_catan_apply(ctx, s, &acts[ms_catan_rand(&rng, (uint32_t)k)], &rng, NULL), MS_OK);
	}
	return b;
}

/* spec 5.3.b: a discard node of the tree holds up to 100 sampled halves;
 * with one sample the engine's single random half needs no search. */
static void test_catan_search__discard_nodes_sample_up_to_100_halves(void **st)
{
	(void)st;
	ms_ctx *ctx = new_ctx();
	ms_catan_state s;
	ms_catan_board *b = discard_state(ctx, &s);
	ms_catan_action out;
	catan__search cs;
	int seat = s.cur, half = ms_catan_hand(&s, seat) / 2, children = 0, multisets = 0;
	memset(&cs, 0, sizeof cs);
	assert_int_equal(catan__search_init(ctx, &cs, 300, MS_MCTS_UCB1, 1.0, 5), MS_OK);
	assert_int_equal(catan__search_act(&cs, &s, &out), MS_OK);
	assert_int_equal(cs.searches, 1);
	int counts[CATAN_DISCARD_SAMPLES][5];
	for (int ch = ms_mcts_child_first(cs.m, 0); ch >= 0; ch = ms_mcts_child_next(cs.m, ch), children++) {
		const ms_catan_action *a = ms_mcts_move(cs.m, ch);
		int sum = 0, seen = 0;
		assert_int_equal(a->type, MS_CATAN_DISCARD);
		assert_int_equal(a->seat, seat);
		for (int r = 0; r < 5; r++) {
			assert_true(a->v[r] >= 0 && a->v[r] <= s.p[seat].res[r]);
			sum += a->v[r];
		}
		assert_int_equal(sum, half);
		for (int i = 0; i < multisets && !seen; i++)
			seen = counts[i][0] == a->v[0] && counts[i][1] == a->v[1] && counts[i][2] == a->v[2] &&
			       counts[i][3] == a->v[3] && counts[i][4] == a->v[4];
		for (int r = 0; r < 5 && !seen; r++)
			counts[multisets][r] = a->v[r];
		multisets += !seen;
	}
	assert_true(children > 1 && children <= CATAN_DISCARD_SAMPLES);
	assert_true(multisets > 1 && multisets <= children);
	assert_int_equal(out.type, MS_CATAN_DISCARD);
	ms_mcts_free(cs.m);
	memset(&cs, 0, sizeof cs);
	assert_int_equal(catan__search_init(ctx, &cs, 300, MS_MCTS_UCB1, 1.0, 5), MS_OK);
	cs.discard_samples = 1;
	assert_int_equal(catan__search_act(&cs, &s, &out), MS_OK);
	assert_int_equal(cs.searches, 0);
	assert_true(out.type == MS_CATAN_DISCARD && out.v[0] == -1);
	ms_mcts_free(cs.m);
	ms_catan_board_free(b);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catan_search__discard_nodes_sample_up_to_100_halves),
		cmocka_unit_test(test_catan_board__tc2_decodes_as_the_thesis_board),
		cmocka_unit_test(test_catan_board__bad_layouts_are_named_errors),
		cmocka_unit_test(test_catan_rules__random_games_keep_cards_and_pieces),
		cmocka_unit_test(test_catan_replay__a_changed_die_diverges),
		cmocka_unit_test(test_catan_board__tc2_nodes_match_the_thesis_code),
		cmocka_unit_test(test_catan_agents__estimate_and_reward_rows),
		cmocka_unit_test(test_catan_apply__out_of_range_actions_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
