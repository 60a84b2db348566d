/*
 * The match observer of the MicroRTS synthesis problem: units trained per
 * type, resources harvested, units lost and destroyed, and (for HSS) the
 * seat's attacks, counted from the states after each cycle.
 */
#include <math.h>
#include <string.h>

#include "games/microrts/synth/rts_observe.h"

void rts_observer_start(rts_observer *o, const ms_rts_state *s, int seat)
{
	ms_rts_unit u;
	memset(o, 0, sizeof *o);
	o->seat = seat;
	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_state_unit(s, i, &u);
		if (u.id > o->max_id)
			o->max_id = u.id;
		if (u.player == 0 || u.player == 1)
			o->alive[u.player]++;
	}
	o->res = ms_rts_state_resources(s, seat);
	o->first_attack = -1;
}

/*
 * Attack actions issued in the cycle just played: the state keeps an action
 * from its issue until it completes, and an attack takes attack_time >= 2
 * cycles in every official table, so each one is still pending (issued at
 * time - 1) when the observer first sees it. An attack of a single cycle
 * would be missed; no official table has one.
 */
static void count_attacks(rts_observer *o, const ms_rts_state *s)
{
	int now = ms_rts_state_time(s), n = ms_rts_state_assignment_count(s);
	for (int i = 0; i < n; i++) {
		int ui, at;
		ms_rts_action a;
		ms_rts_unit u;
		if (ms_rts_state_assignment(s, i, &ui, &a, &at) != MS_OK || a.type != MS_RTS_ATTACK || at != now - 1 ||
		    ms_rts_state_unit(s, ui, &u) != MS_OK || u.player != o->seat)
			continue;
		o->attacks++;
		if (o->first_attack < 0)
			o->first_attack = at;
	}
}

/* After every cycle: new ids are units trained (ids only grow), vanished ones were destroyed. */
int rts_observe(void *ud, const ms_rts_state *s)
{
	rts_observer *o = ud;
	ms_rts_unit u;
	int alive[2] = { 0, 0 }, born[2] = { 0, 0 };
	int64_t max_id = o->max_id;

	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_state_unit(s, i, &u);
		if (u.player != 0 && u.player != 1)
			continue;
		alive[u.player]++;
		if (u.id > o->max_id) {
			born[u.player]++;
			if (u.player == o->seat && u.type >= 0 && u.type < MS_RTS_MAX_TYPES)
				o->f[u.type] += 1;
			if (u.id > max_id)
				max_id = u.id;
		}
	}
	o->max_id = max_id;
	o->f[F_LOST] += o->alive[o->seat] + born[o->seat] - alive[o->seat];
	o->f[F_DESTROYED] += o->alive[1 - o->seat] + born[1 - o->seat] - alive[1 - o->seat];
	o->alive[0] = alive[0];
	o->alive[1] = alive[1];
	int r = ms_rts_state_resources(s, o->seat);
	if (r > o->res)
		o->f[F_HARVESTED] += r - o->res;
	o->res = r;
	if (o->count_attacks)
		count_attacks(o, s);
	return 0;
}

/* 1 - sum|a - b| / sum(a + b): 1 for identical outcomes, 0 for disjoint ones. */
double rts_similarity(const double *a, const double *b)
{
	double diff = 0, tot = 0;
	for (int i = 0; i < N_FEATURES; i++) {
		diff += fabs(a[i] - b[i]);
		tot += a[i] + b[i];
	}
	return tot > 0 ? 1 - diff / tot : 1;
}

/* The behavioural counts of one observed match (features()); first-attack is -1 without an attack. */
void rts_match_counts(const rts_observer *o, const int types[RF_TYPES], double c[RF_COUNT])
{
	for (int k = 0; k < RF_TYPES; k++)
		c[RF_WORKER + k] = types[k] >= 0 ? o->f[types[k]] : 0;
	c[RF_HARVESTED] = o->f[F_HARVESTED];
	c[RF_LOST] = o->f[F_LOST];
	c[RF_DESTROYED] = o->f[F_DESTROYED];
	c[RF_ATTACKS] = o->attacks;
	c[RF_FIRST_ATTACK] = o->first_attack;
}
