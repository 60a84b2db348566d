/*
 * The board as the page draws it: the map's constants once ("map"), then
 * each shown cycle's stocks and units with the action each has in
 * progress. Plain text building; the keys are documented in docs/view.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

int view_json_strn(ms_buf *b, const char *s, size_t n)
{
	int rc = ms_buf_append(b, "\"", 1);
	for (size_t i = 0; i < n && !rc; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			rc = ms_buf_append(b, e, 2);
		} else if (c == '\n')
			rc = ms_buf_append(b, "\\n", 2);
		else if (c == '\t')
			rc = ms_buf_append(b, "\\t", 2);
		else if (c < 0x20)
			rc = ms_buf_printf(b, "\\u%04x", c);
		else
			rc = ms_buf_append(b, s + i, 1);
	}
	return rc ? rc : ms_buf_append(b, "\"", 1);
}

int view_json_str(ms_buf *b, const char *s)
{
	return s ? view_json_strn(b, s, strlen(s)) : ms_buf_puts(b, "null");
}

/* The unit types the page needs to draw and label units. */
static int frame_types(ms_buf *b, const ms_rts_utt *utt)
{
	int rc = ms_buf_puts(b, "\"types\":[");
	for (int i = 0; i < ms_rts_utt_count(utt) && !rc; i++) {
		const ms_rts_unit_type *t = ms_rts_utt_type(utt, i);
		rc = ms_buf_printf(b, "%s{\"id\":%d,\"name\":", i ? "," : "", t->id);
		if (!rc)
			rc = view_json_str(b, t->name);
		if (!rc)
			rc = ms_buf_printf(b, ",\"hp\":%d,\"resource\":%d,\"stockpile\":%d,\"mobile\":%d,\"range\":%d}", t->hp,
					   t->is_resource, t->is_stockpile, t->can_move, t->attack_range);
	}
	return rc ? rc : ms_buf_puts(b, "]");
}

int view_frame_map(ms_buf *b, const ms_rts_state *s, const char *mode, const char *const names[2])
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s), rc;

	rc = ms_buf_printf(b, "{\"type\":\"map\",\"mode\":\"%s\",\"width\":%d,\"height\":%d,\"terrain\":\"", mode, w, h);
	for (int y = 0; y < h && !rc; y++)
		for (int x = 0; x < w && !rc; x++)
			rc = ms_buf_append(b, ms_rts_state_terrain(s, x, y) ? "1" : "0", 1);
	if (!rc)
		rc = ms_buf_puts(b, "\",");
	if (!rc)
		rc = frame_types(b, ms_rts_state_utt(s));
	if (!rc)
		rc = ms_buf_puts(b, ",\"players\":[");
	for (int p = 0; p < 2 && !rc; p++) {
		rc = p ? ms_buf_puts(b, ",") : 0;
		if (!rc)
			rc = view_json_str(b, names[p]);
	}
	return rc ? rc : ms_buf_puts(b, "]");
}

/* One action in progress: kind, direction or target, type produced, when issued and how long it takes. */
static int frame_action(ms_buf *b, const ms_rts_state *s, const ms_rts_unit *u, const ms_rts_action *a, int at)
{
	static const char *const kinds[] = { "none", "move", "harvest", "return", "produce", "attack" };
	const char *k = a->type >= 0 && a->type <= 5 ? kinds[a->type] : "none";
	int eta = ms_rts_action_duration(ms_rts_state_utt(s), a, u->type);
	int rc = ms_buf_printf(b, ",\"a\":{\"k\":\"%s\",\"at\":%d,\"eta\":%d", k, at, eta);

	if (rc)
		return rc;
	if (a->type == MS_RTS_ATTACK)
		rc = ms_buf_printf(b, ",\"x\":%d,\"y\":%d", a->x, a->y);
	else if (a->type != MS_RTS_NONE)
		rc = ms_buf_printf(b, ",\"d\":%d", a->parameter);
	if (!rc && a->type == MS_RTS_PRODUCE)
		rc = ms_buf_printf(b, ",\"ut\":%d", a->unit_type);
	return rc ? rc : ms_buf_puts(b, "}");
}

int view_frame_units(ms_buf *b, const ms_rts_state *s)
{
	int n = ms_rts_state_unit_count(s), na = ms_rts_state_assignment_count(s), rc;
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
	rc = ms_buf_printf(b, "\"time\":%d,\"resources\":[%d,%d],\"units\":[", ms_rts_state_time(s),
			   ms_rts_state_resources(s, 0), ms_rts_state_resources(s, 1));
	for (int i = 0; i < n && !rc; i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		rc = ms_buf_printf(b, "%s{\"id\":%lld,\"type\":%d,\"p\":%d,\"x\":%d,\"y\":%d,\"hp\":%d,\"r\":%d", i ? "," : "",
				   (long long)u.id, u.type, u.player, u.x, u.y, u.hitpoints, u.resources);
		if (!rc && act[i] >= 0) {
			int ui, at;
			ms_rts_action a;
			ms_rts_state_assignment(s, act[i], &ui, &a, &at);
			rc = frame_action(b, s, &u, &a, at);
		}
		if (!rc)
			rc = ms_buf_puts(b, "}");
	}
	free(act);
	return rc ? rc : ms_buf_puts(b, "]");
}
