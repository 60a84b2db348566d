/*
 * Regions of the DSL layer's path search: the 4-connected components of the
 * cells a search may enter, so that a search whose goal cells all lie
 * outside the start's regions is known to fail without running (it is
 * charged the expansions it would have made: the size of the start's
 * regions).
 *
 * The labels outlive a decision. From one cycle to the next only the cells
 * of units that moved, of pending actions that started or ended, and of the
 * last decision's claims change, so a decision brings the labels up to date
 * cell by cell (a blocked cell splits its region, a freed one joins its
 * neighbours') instead of labelling the map again: `occ` lists every cell
 * the labels hold blocked for another reason than the terrain, and the
 * cells that may have changed are those and the cells blocked now.
 */
#include <string.h>

#include "rts_dsl_internal.h"

/* Goal ranges the region test handles (a disk of (2R+1)^2 cells at most). */
#define RD_REGION_RANGE 16

static int root_of(int *par, int i)
{
	while (par[i] != i)
		i = par[i] = par[par[i]];
	return i;
}

/* 1 when a search of this decision may not enter in-map cell c (claims count with `ru`). */
static int blocked(const rd_layer *L, int c, int ru)
{
	return L->terrain[c] || L->grid[c] || L->pend[c] == L->tick || (ru && L->ru[c] == L->tick);
}

/* Labels the regions from scratch: one pass over the rows joining each
 * cell to its left and upper neighbours, one numbering the roots; then the
 * list of cells blocked by units, pending actions and claims. */
static void label_full(rd_layer *L, int ru)
{
	int w = L->w, h = L->h, n = 0, nr = 0;
	int *lab = L->lab, *par = L->lab_queue, *id = L->lab_queue + L->cap_cells;

	for (int y = 0, c = 0; y < h; y++)
		for (int x = 0; x < w; x++, c++) {
			int l, u;
			if (blocked(L, c, ru)) {
				lab[c] = -1;
				continue;
			}
			l = x > 0 ? lab[c - 1] : -1;
			u = y > 0 ? lab[c - w] : -1;
			if (l < 0 && u < 0) {
				par[n] = n;
				lab[c] = n++;
			} else if (l < 0 || u < 0 || l == u) {
				lab[c] = l < 0 ? u : l;
			} else {
				int a = root_of(par, l), b = root_of(par, u);
				if (a < b)
					par[b] = a;
				else
					par[a] = b;
				lab[c] = l;
			}
		}
	for (int i = 0; i < n; i++) {
		int r = root_of(par, i);
		if (r == i) {
			id[i] = nr;
			L->lab_size[nr++] = 0;
		}
	}
	L->n_occ = 0;
	for (int c = 0; c < L->cells; c++) {
		if (lab[c] >= 0) {
			int r = id[root_of(par, lab[c])];
			lab[c] = r;
			L->lab_size[r]++;
		} else if (!L->terrain[c]) {
			L->occ[L->n_occ++] = c;
		}
	}
	memcpy(L->lab_terrain, L->terrain, (size_t)L->cells);
	L->lab_w = w;
	L->lab_h = h;
	L->n_lab = nr;
	L->lab_ok = 1;
}

/*
 * Cell x becomes blocked: its region loses it and may fall apart. Searches
 * from x's neighbours in the region, taking turns, find the pieces:
 * searches that meet join, and one that runs out of cells apart from every
 * other has found a piece, which gets a new label. It stops when one group
 * is left (which keeps the old label), so a split costs about the size of
 * the pieces cut off. -1 when out of region ids (the caller labels afresh).
 */
static int split_at(rd_layer *L, int x)
{
	int w = L->w, h = L->h, k = L->lab[x], m = 0, grp[4], qh[4], qt[4], *q[4];
	int xx = x % w, xy = x / w, groups;

	if (k < 0)
		return 0;
	if (L->n_lab + 4 > 2 * L->cells)
		return -1;
	L->lab[x] = -1;
	L->lab_size[k]--;
	L->occ[L->n_occ++] = x;
	if (++L->lab_stamp == 0) {
		memset(L->lab_vis, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		L->lab_stamp = 1;
	}
	for (int d = 0; d < 4; d++) {
		int nx = xx + rts_dx[d], ny = xy + rts_dy[d], c;
		if (nx < 0 || ny < 0 || nx >= w || ny >= h || L->lab[c = nx + ny * w] != k)
			continue;
		q[m] = L->lab_queue + (size_t)m * (size_t)L->cap_cells;
		q[m][0] = c;
		qh[m] = 0;
		qt[m] = 1;
		grp[m] = m;
		L->lab_vis[c] = L->lab_stamp;
		L->lab_own[c] = (uint8_t)m;
		m++;
	}
	groups = m;
	while (groups > 1) {
		for (int i = 0; i < m && groups > 1; i++) {
			int p, px, py, g = grp[i], open = 0;
			if (qh[i] == qt[i])
				continue;
			p = q[i][qh[i]++];
			px = p % w;
			py = p / w;
			for (int d = 0; d < 4; d++) {
				int nx = px + rts_dx[d], ny = py + rts_dy[d], c;
				if (nx < 0 || ny < 0 || nx >= w || ny >= h || L->lab[c = nx + ny * w] != k)
					continue;
				if (L->lab_vis[c] != L->lab_stamp) {
					L->lab_vis[c] = L->lab_stamp;
					L->lab_own[c] = (uint8_t)i;
					q[i][qt[i]++] = c;
				} else if (grp[L->lab_own[c]] != g) { /* two groups meet */
					int o = grp[L->lab_own[c]];
					for (int j = 0; j < m; j++)
						if (grp[j] == o)
							grp[j] = g;
					groups--;
				}
			}
			/* group g is finished when all its searches are: a piece */
			for (int j = 0; j < m; j++)
				if (grp[j] == g && qh[j] < qt[j])
					open = 1;
			if (!open && groups > 1) {
				int r = L->n_lab++, n = 0;
				for (int j = 0; j < m; j++) {
					if (grp[j] != g)
						continue;
					for (int t = 0; t < qt[j]; t++)
						L->lab[q[j][t]] = r;
					n += qt[j];
					grp[j] = -1 - j; /* out of every group */
				}
				L->lab_size[r] = n;
				L->lab_size[k] -= n;
				groups--;
			}
		}
	}
	return 0;
}

/* Cell x (blocked in the labels, not by the terrain) becomes free: it joins
 * its neighbours' regions, the smaller ones relabelled into the largest
 * (a flood over their cells). -1 when out of region ids. */
static int join_at(rd_layer *L, int x)
{
	int w = L->w, h = L->h, xx = x % w, xy = x / w, regs[4], n = 0, keep = -1, *q = L->lab_queue;

	for (int d = 0; d < 4; d++) {
		int nx = xx + rts_dx[d], ny = xy + rts_dy[d], r, k;
		if (nx < 0 || ny < 0 || nx >= w || ny >= h || (r = L->lab[nx + ny * w]) < 0)
			continue;
		for (k = 0; k < n && regs[k] != r; k++)
			;
		if (k == n)
			regs[n++] = r;
		if (keep < 0 || L->lab_size[r] > L->lab_size[keep])
			keep = r;
	}
	if (keep < 0) {
		if (L->n_lab + 1 > 2 * L->cells)
			return -1;
		keep = L->n_lab++;
		L->lab_size[keep] = 0;
	}
	L->lab[x] = keep;
	L->lab_size[keep]++;
	for (int k = 0; k < n; k++) {
		int r = regs[k], head = 0, tail = 0;
		if (r == keep)
			continue;
		/* the freed cell touches r: flood r from it */
		q[tail++] = x;
		while (head < tail) {
			int p = q[head++], px = p % w, py = p / w;
			for (int d = 0; d < 4; d++) {
				int nx = px + rts_dx[d], ny = py + rts_dy[d], c;
				if (nx < 0 || ny < 0 || nx >= w || ny >= h || L->lab[c = nx + ny * w] != r)
					continue;
				L->lab[c] = keep;
				q[tail++] = c;
			}
		}
		L->lab_size[keep] += L->lab_size[r];
		L->lab_size[r] = 0;
	}
	return 0;
}

/* Pushes c on the list of cells to block when the labels hold it free. */
static void want_blocked(rd_layer *L, int c, int *list, int *n)
{
	if (c >= 0 && c < L->cells && L->lab[c] >= 0 && L->lab_vis[c] != L->lab_stamp) {
		L->lab_vis[c] = L->lab_stamp;
		list[(*n)++] = c;
	}
}

/*
 * Brings labels made for an earlier state of the same map up to date: -1
 * (nothing changed) when they are not for this map or too much moved, and
 * a fresh labelling is cheaper. The labels hold blocked exactly the terrain
 * and the cells in occ, so the cells to free are in occ and the cells to
 * block are the units', the pending actions' and (with `ru`) the claims'.
 */
static int label_update(rd_layer *L, int ru)
{
	const rts_assign *as = rts_cassigns(L->s);
	int *unblock = L->occ + L->cap_cells, *block = L->occ + 2 * (size_t)L->cap_cells, nu = 0, nb = 0, keep = 0;

	if (!L->lab_ok || L->lab_w != L->w || L->lab_h != L->h || memcmp(L->lab_terrain, L->terrain, (size_t)L->cells))
		return -1;
	for (int k = 0; k < L->n_occ; k++)
		if (!blocked(L, L->occ[k], ru))
			unblock[nu++] = L->occ[k];
	if (++L->lab_stamp == 0) {
		memset(L->lab_vis, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		L->lab_stamp = 1;
	}
	for (int i = 0; i < L->n_units; i++)
		want_blocked(L, L->units[i].u.x + L->units[i].u.y * L->w, block, &nb);
	for (int k = 0; k < L->s->n_assign; k++)
		want_blocked(L, as[k].use_cell, block, &nb);
	for (int k = 0; ru && k < L->n_claims; k++)
		want_blocked(L, L->claims[k], block, &nb);
	/* a split or join costs a little flood; a whole labelling one pass */
	if (nu + nb > L->cells / 16 + 8)
		return -1;
	/* occ keeps the cells that stay blocked; split_at appends the new ones */
	for (int k = 0; k < L->n_occ; k++)
		if (blocked(L, L->occ[k], ru))
			L->occ[keep++] = L->occ[k];
	L->n_occ = keep;
	for (int k = 0; k < nb; k++)
		if (split_at(L, block[k]))
			return -2;
	for (int k = 0; k < nu; k++)
		if (join_at(L, unblock[k]))
			return -2;
	return 0;
}

/* The labels as a fresh labelling would make them (same partition, same
 * sizes): 0, or -1 after a mismatch (tests: the options' check_regions). */
static int label_verify(rd_layer *L, int ru)
{
	size_t cells = (size_t)L->cap_cells;
	int *old, *old_size, *to, n_old = L->n_lab;

	if (!L->lab_check && !(L->lab_check = ms_ctx_malloc(L->ctx, sizeof(int) * 5 * cells)))
		return -1;
	old = L->lab_check;
	old_size = old + cells;
	to = old + 3 * cells;
	memcpy(old, L->lab, sizeof(int) * (size_t)L->cells);
	memcpy(old_size, L->lab_size, sizeof(int) * (size_t)n_old);
	for (int r = 0; r < n_old; r++)
		to[r] = -1;
	label_full(L, ru);
	for (int c = 0; c < L->cells; c++) {
		int o = old[c], r = L->lab[c];
		if ((o < 0) != (r < 0))
			return -1;
		if (o < 0)
			continue;
		if (to[o] < 0 && old_size[o] != L->lab_size[r])
			return -1;
		if (to[o] >= 0 && to[o] != r)
			return -1;
		to[o] = r;
		old_size[o]--; /* left at 0 when the old size counted the old label's cells */
	}
	for (int r = 0; r < n_old; r++)
		if (to[r] >= 0 && old_size[r])
			return -1;
	return 0;
}

void rd_regions_label(rd_layer *L, int ru)
{
	int rc = label_update(L, ru);

	if (rc == 0 && L->check_regions && label_verify(L, ru))
		L->regions_wrong = 1;
	if (rc)
		label_full(L, ru);
	L->lab_tick = L->tick;
	L->lab_ru = ru;
}

void rd_regions_claim(rd_layer *L, int x)
{
	L->lab_ru = 1;
	if (split_at(L, x))
		label_full(L, 1);
}

/* The regions a search from `start` enters (its own when it may enter it,
 * and its neighbours'), at most 5, and the cells it would expand. */
static int start_regions(const rd_layer *L, int start, int regs[5], long *size)
{
	int w = L->w, sx = start % w, sy = start / w, n = 0;

	*size = L->lab[start] >= 0 ? 0 : 1;
	for (int d = -1; d < 4; d++) {
		int c = start, r, k;
		if (d >= 0) {
			int nx = sx + rts_dx[d], ny = sy + rts_dy[d];
			if (nx < 0 || ny < 0 || nx >= w || ny >= L->h)
				continue;
			c = nx + ny * w;
		}
		if ((r = L->lab[c]) < 0)
			continue;
		for (k = 0; k < n && regs[k] != r; k++)
			;
		if (k == n) {
			regs[n++] = r;
			*size += L->lab_size[r];
		}
	}
	return n;
}

long rd_regions_unreachable(rd_layer *L, int sx, int sy, int tx, int ty, int range, int use_ru)
{
	int w = L->w, h = L->h, start = sx + sy * w, regs[5], n;
	long size, r2 = (long)range * range;

	if (range < 0 || range > RD_REGION_RANGE)
		return 0;
	/* labels made before any claim serve both kinds of search; claims
	 * then make them leave claimed cells out */
	if (L->lab_tick != L->tick || (L->n_claims > 0 && L->lab_ru != !!use_ru))
		rd_regions_label(L, !!use_ru);
	n = start_regions(L, start, regs, &size);
	for (long dy = -range; dy <= range; dy++) {
		long y = ty + dy;
		if (y < 0 || y >= h)
			continue;
		for (long dx = -range; dx <= range; dx++) {
			long x = tx + dx;
			int r;
			if (x < 0 || x >= w || dx * dx + dy * dy > r2 || (r = L->lab[x + y * w]) < 0)
				continue;
			for (int k = 0; k < n; k++)
				if (regs[k] == r)
					return 0;
		}
	}
	return size;
}
