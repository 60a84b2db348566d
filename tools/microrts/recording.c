#include "recording.h"

#include <stdio.h>
#include <string.h>

long rec_read_line(gzFile f, ms_buf *b)
{
	char chunk[65536];

	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	while (gzgets(f, chunk, sizeof(chunk))) {
		size_t n = strlen(chunk);
		if (ms_buf_append(b, chunk, n))
			return -1;
		if (n && chunk[n - 1] == '\n') {
			b->data[--b->len] = '\0';
			return (long)b->len;
		}
	}
	return b->len ? (long)b->len : -1;
}

void rec_put_action(ms_buf *b, const ms_rts_action *a)
{
	if (a->type == MS_RTS_ATTACK)
		ms_buf_printf(b, "%d:%d:%d", a->type, a->x, a->y);
	else
		ms_buf_printf(b, "%d:%d:%d", a->type, a->parameter, a->unit_type);
}

int rec_parse_pair(const char *tok, ms_rts_pair *p)
{
	long long id;
	int t, a, b;

	if (sscanf(tok, "%lld,%d,%d,%d,%d,%d,%d,%d:%d:%d", &id, &p->unit.type, &p->unit.player, &p->unit.x,
		   &p->unit.y, &p->unit.resources, &p->unit.hitpoints, &t, &a, &b) != 10)
		return -1;
	p->unit.id = id;
	p->action.type = t;
	p->action.parameter = t == MS_RTS_ATTACK ? -1 : a;
	p->action.unit_type = t == MS_RTS_ATTACK ? -1 : b;
	p->action.x = t == MS_RTS_ATTACK ? a : -1;
	p->action.y = t == MS_RTS_ATTACK ? b : -1;
	return 0;
}

int rec_apply_r(ms_rts_state *s, const char *line)
{
	long long next_id, dmg, conf;

	if (sscanf(line + 1, "%lld %lld %lld", &next_id, &dmg, &conf) != 3)
		return -1;
	ms_rts_state_set_next_id(s, next_id);
	ms_rts_state_set_rng(s, MS_RTS_RNG_DAMAGE, dmg);
	ms_rts_state_set_rng(s, MS_RTS_RNG_CONFLICT, conf);
	return 0;
}

int rec_parse_p(char *line, ms_rts_pair *const pairs[2], int np[2], int max)
{
	int p, n;
	char *save, *tok;

	if (sscanf(line + 1, "%d %d", &p, &n) != 2 || p < 0 || p > 1 || n < 0 || n > max)
		return -1;
	strtok_r(line, " ", &save);
	strtok_r(NULL, " ", &save);
	strtok_r(NULL, " ", &save);
	np[p] = 0;
	while ((tok = strtok_r(NULL, " ", &save)) && np[p] < n)
		if (rec_parse_pair(tok, &pairs[p][np[p]]) == 0)
			np[p]++;
	return np[p] == n ? p : -1;
}

int rec_issue(ms_ctx *ctx, ms_rts_state *s, ms_rts_pair *pairs, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (ms_rts_state_unit_at(s, pairs[i].unit.x, pairs[i].unit.y) >= 0)
			pairs[k++] = pairs[i];
	return ms_rts_issue_safe(ctx, s, pairs, k, NULL);
}
