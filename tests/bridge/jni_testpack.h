/*
 * The JNI bot's array formats written from a native table and state, as
 * MicrosynthAI.java writes them from Java objects (see
 * games/microrts/bridge/jni/jni_ai.h), so the native half is tested without a JVM.
 */
#ifndef MS_TESTS_JNI_TESTPACK_H
#define MS_TESTS_JNI_TESTPACK_H

#include <stdint.h>
#include <stdlib.h>

#include "microsynth/microrts.h"
#include "games/microrts/bridge/jni/jni_ai.h"

/* The table as ints (malloc'd, *len ints) and its names (pointers into utt). */
static inline int32_t *jt_pack_table(const ms_rts_utt *utt, int *len, const char **names)
{
	int n = ms_rts_utt_count(utt), at = 0, cap = 3;
	int32_t *p;

	for (int i = 0; i < n; i++) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, i);
		cap += 20 + t->n_produces + t->n_produced_by;
	}
	p = malloc((size_t)cap * sizeof(*p));
	if (!p)
		return NULL;
	p[at++] = MS_JNI_PACK_VERSION;
	p[at++] = ms_rts_utt_conflict_policy(utt);
	p[at++] = n;
	for (int i = 0; i < n; i++) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, i);
		const int v[18] = { t->id, t->cost, t->hp, t->min_damage, t->max_damage, t->attack_range,
				    t->produce_time, t->move_time, t->attack_time, t->harvest_time, t->return_time,
				    t->harvest_amount, t->sight_radius, t->is_resource, t->is_stockpile, t->can_harvest,
				    t->can_move, t->can_attack };
		for (int k = 0; k < 18; k++)
			p[at++] = v[k];
		p[at++] = t->n_produces;
		for (int k = 0; k < t->n_produces; k++)
			p[at++] = t->produces[k];
		p[at++] = t->n_produced_by;
		for (int k = 0; k < t->n_produced_by; k++)
			p[at++] = t->produced_by[k];
		names[i] = t->name;
	}
	*len = at;
	return p;
}

/* The terrain as the Java side sends it (w*h bytes, malloc'd). */
static inline int8_t *jt_pack_terrain(const ms_rts_state *s)
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s);
	int8_t *t = malloc((size_t)w * (size_t)h);

	for (int y = 0; t && y < h; y++)
		for (int x = 0; x < w; x++)
			t[x + y * w] = (int8_t)ms_rts_state_terrain(s, x, y);
	return t;
}

/* The state as ints into `p` (room for `cap`); returns the length, -1 if short. */
static inline int jt_pack_state(const ms_rts_state *s, int32_t *p, int cap)
{
	int nu = ms_rts_state_unit_count(s), np = ms_rts_state_assignment_count(s);
	int len = MS_JNI_STATE_HEADER + nu * MS_JNI_UNIT_INTS + np * MS_JNI_PENDING_INTS, at = MS_JNI_STATE_HEADER;

	if (len > cap)
		return -1;
	p[0] = ms_rts_state_time(s);
	p[1] = ms_rts_state_resources(s, 0);
	p[2] = ms_rts_state_resources(s, 1);
	p[3] = nu;
	p[4] = np;
	p[5] = 0;
	for (int i = 0; i < nu; i++, at += MS_JNI_UNIT_INTS) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		p[at] = u.type;
		p[at + 1] = u.player;
		p[at + 2] = (int32_t)(uint32_t)((uint64_t)u.id & 0xffffffffu);
		p[at + 3] = (int32_t)(uint32_t)((uint64_t)u.id >> 32);
		p[at + 4] = u.x;
		p[at + 5] = u.y;
		p[at + 6] = u.resources;
		p[at + 7] = u.hitpoints;
	}
	for (int k = 0; k < np; k++, at += MS_JNI_PENDING_INTS) {
		ms_rts_action a;
		ms_rts_unit u;
		int ui, t;
		ms_rts_state_assignment(s, k, &ui, &a, &t);
		ms_rts_state_unit(s, ui, &u);
		p[at] = u.x;
		p[at + 1] = u.y;
		p[at + 2] = (int32_t)(uint32_t)((uint64_t)u.id & 0xffffffffu);
		p[at + 3] = (int32_t)(uint32_t)((uint64_t)u.id >> 32);
		p[at + 4] = t;
		p[at + 5] = a.type;
		p[at + 6] = a.parameter;
		p[at + 7] = a.x;
		p[at + 8] = a.y;
		p[at + 9] = a.unit_type;
	}
	return len;
}

#endif
