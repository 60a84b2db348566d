/*
 * The board as the page draws it: the map's constants once ("map"), then
 * each shown cycle's stocks and units with the action each has in
 * progress. Plain text building; the keys are documented in docs/view.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Appends without checking each step: ms_buf's error is sticky, and each
 * function returns it once, at its end. */
int view_json_strn(ms_buf *b, const char *s, size_t n)
{
	ms_buf_append(b, "\"", 1);
	for (size_t i = 0; i < n && !ms_buf_status(b); i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			ms_buf_append(b, e, 2);
		} else if (c == '\n')
			ms_buf_append(b, "\\n", 2);
		else if (c == '\t')
			ms_buf_append(b, "\\t", 2);
		else if (c < 0x20)
			ms_buf_printf(b, "\\u%04x", c);
		else
			ms_buf_append(b, s + i, 1);
	}
	return ms_buf_append(b, "\"", 1);
}

int view_json_str(ms_buf *b, const char *s)
{
	return s ? view_json_strn(b, s, strlen(s)) : ms_buf_puts(b, "null");
}

/* The unit types the page needs to draw and label units. */
static void frame_types(ms_buf *b, const ms_rts_utt *utt)
{
	ms_buf_puts(b, "\"types\":[");
	for (int i = 0; i < ms_rts_utt_count(utt); i++) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, i);
		ms_buf_printf(b, "%s{\"id\":%d,\"name\":", i ? "," : "", t->id);
		view_json_str(b, t->name);
		ms_buf_printf(b, ",\"hp\":%d,\"resource\":%d,\"stockpile\":%d,\"mobile\":%d,\"range\":%d}", t->hp,
			      t->is_resource, t->is_stockpile, t->can_move, t->attack_range);
	}
	ms_buf_puts(b, "]");
}

int view_frame_map(ms_buf *b, const ms_rts_state *s, const char *mode, const char *const names[2])
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s);

	ms_buf_printf(b, "{\"type\":\"map\",\"mode\":\"%s\",\"width\":%d,\"height\":%d,\"terrain\":\"", mode, w, h);
	for (int y = 0; y < h && !ms_buf_status(b); y++)
		for (int x = 0; x < w; x++)
			ms_buf_append(b, ms_rts_state_terrain(s, x, y) ? "1" : "0", 1);
	ms_buf_puts(b, "\",");
	frame_types(b, ms_rts_state_utt(s));
	ms_buf_puts(b, ",\"players\":[");
	for (int p = 0; p < 2; p++) {
		if (p)
			ms_buf_puts(b, ",");
		view_json_str(b, names[p]);
	}
	return ms_buf_puts(b, "]");
}

/* One action in progress: kind, direction or target, type produced, when issued and how long it takes. */
static void frame_action(ms_buf *b, const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a, int at)
{
	static const char *const kinds[] = { "none", "move", "harvest", "return", "produce", "attack" };
	const char *k = a->type >= 0 && a->type <= 5 ? kinds[a->type] : "none";
	int eta = ms_rts_action_duration(ms_rts_state_utt(s), a, u->type);

	ms_buf_printf(b, ",\"a\":{\"k\":\"%s\",\"at\":%d,\"eta\":%d", k, at, eta);
	if (a->type == MS_RTS_ATTACK)
		ms_buf_printf(b, ",\"x\":%d,\"y\":%d", a->x, a->y);
	else if (a->type != MS_RTS_NONE)
		ms_buf_printf(b, ",\"d\":%d", a->parameter);
	if (a->type == MS_RTS_PRODUCE)
		ms_buf_printf(b, ",\"ut\":%d", a->unit_type);
	ms_buf_puts(b, "}");
}

int view_frame_units(ms_buf *b, const ms_rts_state *s)
{
	int n = ms_rts_state_unit_count(s), na = ms_rts_state_assignment_count(s);
	int *act = n ? malloc(sizeof(int) * (size_t)n) : NULL;

	if (n && !act)
		return MS_ENOMEM;
	/* the assignment of each unit, by unit index */
	for (int i = 0; i < n; i++)
		act[i] = -1;
	for (int i = 0; i < na; i++) {
		int ui = -1, at;
		ms_rts_action a;
		if (!ms_rts_state_assignment(s, i, &ui, &a, &at) && ui >= 0 && ui < n)
			act[ui] = i;
	}
	ms_buf_printf(b, "\"time\":%d,\"resources\":[%d,%d],\"units\":[", ms_rts_state_time(s),
		      ms_rts_state_resources(s, 0), ms_rts_state_resources(s, 1));
	for (int i = 0; i < n && !ms_buf_status(b); i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		ms_buf_printf(b, "%s{\"id\":%lld,\"type\":%d,\"p\":%d,\"x\":%d,\"y\":%d,\"hp\":%d,\"r\":%d", i ? "," : "",
			      (long long)u.id, u.type, u.player, u.x, u.y, u.hitpoints, u.resources);
		if (act[i] >= 0) {
			int ui, at;
			ms_rts_action a;
			ms_rts_state_assignment(s, act[i], &ui, &a, &at);
			frame_action(b, s, &u, &a, at);
		}
		ms_buf_puts(b, "}");
	}
	free(act);
	return ms_buf_puts(b, "]");
}
