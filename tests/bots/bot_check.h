/* Helpers of the native bots' bad-state tests (test_coac.c, test_mayari.c):
 * maps built from a unit list, and a match that checks each decision. */
#ifndef MS_TESTS_BOT_CHECK_H
#define MS_TESTS_BOT_CHECK_H

#include "support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

/* A map XML of w x h; `wall` fills the terrain with walls but for the unit
 * cells; units are given as "type,player,x,y" lines in `units`. */
static char *bot_test_map(int w, int h, int wall, const char *const *units, int n)
{
	size_t cap = (size_t)w * h + 400 + (size_t)n * 200;
	char *xml = malloc(cap), *p = xml;
	char *terrain = malloc((size_t)w * h + 1);

	for (int c = 0; c < w * h; c++)
		terrain[c] = wall ? '1' : '0';
	terrain[w * h] = 0;
	for (int k = 0; k < n; k++) {
		char type[32];
		int pl, x, y;
		sscanf(units[k], "%31[^,],%d,%d,%d", type, &pl, &x, &y);
		terrain[x + y * w] = '0';
	}
	p += sprintf(p,
		     "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
		     "<rts.Player ID=\"0\" resources=\"20\"></rts.Player><rts.Player ID=\"1\" resources=\"20\">"
		     "</rts.Player></players><units>",
		     w, h, terrain);
	for (int k = 0; k < n; k++) {
		char type[32];
		int pl, x, y;
		sscanf(units[k], "%31[^,],%d,%d,%d", type, &pl, &x, &y);
		p += sprintf(p,
			     "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" resources=\"%d\" "
			     "hitpoints=\"%d\"></rts.units.Unit>",
			     type, k + 1, pl, x, y, pl < 0 ? 20 : 0, type[0] == 'B' && type[1] == 'a' ? 10 : 1);
	}
	sprintf(p, "</units></rts.PhysicalGameState>");
	free(terrain);
	return xml;
}

/* Plays `bot` (player 0) against `opp` for at most `cycles`, checking every
 * decision of `bot` returns and every action it gives is for an idle unit of
 * its own and legal (or accepted by `also_ok`, NULL for none); returns the
 * winner. */
static int bot_play_checked(const char *bot, const char *xml, const char *opp, int cycles,
			    int (*also_ok)(const ms_rts_state *, const ms_rts_unit *, const ms_rts_action *))
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b[2];
	ms_rts_pair *pa[2];
	int n[2], gameover = 0, cells, winner;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", xml, strlen(xml), 0), MS_OK);
	cells = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	pa[0] = malloc(sizeof(ms_rts_pair) * (size_t)cells);
	pa[1] = malloc(sizeof(ms_rts_pair) * (size_t)cells);
	assert_int_equal(ms_bot_new(ctx, &b[0], bot, utt, 1), MS_OK);
	assert_int_equal(ms_bot_new(ctx, &b[1], opp, utt, 2), MS_OK);
	for (int t = 0; t < cycles && !gameover; t++) {
		for (int p = 0; p < 2; p++)
			assert_int_equal(ms_bot_decide(b[p], p, s, pa[p], cells, &n[p]), MS_OK);
		for (int k = 0; k < n[0]; k++) {
			int ui = ms_rts_state_find_unit(s, pa[0][k].unit.id);
			ms_rts_unit u;
			assert_true(ui >= 0);
			ms_rts_state_unit(s, ui, &u);
			assert_int_equal(u.player, 0);
			assert_true(ms_rts_state_unit_idle(s, ui));
			assert_true(ms_rts_action_legal(s, &u, &pa[0][k].action) ||
				    (also_ok && also_ok(s, &u, &pa[0][k].action)));
		}
		for (int p = 0; p < 2; p++)
			if (n[p])
				assert_int_equal(ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL), MS_OK);
		assert_int_equal(ms_rts_cycle(ctx, s, &gameover), MS_OK);
	}
	winner = ms_rts_winner(s);
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	free(pa[0]);
	free(pa[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return winner;
}

/* A random legal map for match m (draws from rand(): seed it with srand):
 * 4..16 wide and high, up to 11 units on distinct cells; with walls_every
 * k > 0, every k-th map wider than 6 is walled but for the unit cells. */
static char *bot_random_map(int m, int walls_every)
{
	static const char *const types[] = { "Base", "Worker", "Barracks", "Light", "Heavy", "Ranged", "Resource" };
	int w = 4 + rand() % 13, h = 4 + rand() % 13, n = rand() % 12;
	char buf[12][40];
	const char *units[12];
	char used[16 * 16] = { 0 };
	int k = 0;

	for (int i = 0; i < n; i++) {
		int x = rand() % w, y = rand() % h, t = rand() % 7;
		if (used[x + y * w])
			continue;
		used[x + y * w] = 1;
		snprintf(buf[k], sizeof(buf[k]), "%s,%d,%d,%d", types[t], t == 6 ? -1 : rand() % 2, x, y);
		units[k] = buf[k];
		k++;
	}
	return bot_test_map(w, h, walls_every > 0 && m % walls_every == 0 && w > 6, units, k);
}

#endif
