/*
 * The cells the DSL layer's path search may not enter for terrain, a unit
 * or a pending action, as one byte per cell kept from decision to decision
 * (`blk`), so the search's inner loop reads one array instead of three.
 * Between two updates only the cells of units that moved and of pending
 * actions that started or ended change: `bk_occ` lists the cells blocked
 * for another reason than the terrain at the last update, and the update
 * compares them with the cells of the new state's units and pending
 * actions. It runs at a decision's first search (most decisions of most
 * programs search nothing). A new map (size or terrain) starts over.
 * `bk_hash` is a Zobrist digest of the blocked cells, kept with them: the
 * path memo's key (rts_dsl_layer.c).
 */
#include <string.h>

#include "rts_dsl_internal.h"

/* The cells of units and pending actions: i < n_units + n_assign, or -1. */
static int occupied(const rd_layer *L, const rts_assign *as, int i)
{
	int c;

	if (i < L->n_units)
		return L->units[i].u.x + L->units[i].u.y * L->w;
	/* pending actions passed the engine's rules: their cells are on the map */
	c = as[i - L->n_units].use_cell;
	return c >= 0 && c < L->cells ? c : -1;
}

/* blk[c] = v, the digest of the blocked cells following it. */
static inline void set_blk(rd_layer *L, int c, uint8_t v)
{
	if (L->blk[c] != v) {
		L->blk[c] = v;
		rd_zobrist_flip(L->bk_hash, c, 0);
	}
}

/* bk_flag: 1 for the cells of bk_occ; 2 marks a cell of the new state while
 * the lists are compared. */
static void mark_new(rd_layer *L, const rts_assign *as, int n_assign)
{
	int n = L->n_units + n_assign;

	for (int i = 0; i < n; i++) {
		int c = occupied(L, as, i);
		if (c >= 0)
			L->bk_flag[c] = 2;
	}
	for (int k = 0; k < L->bk_n_occ; k++) {
		int c = L->bk_occ[k];
		if (L->bk_flag[c] == 1) { /* freed */
			L->bk_flag[c] = 0;
			set_blk(L, c, L->terrain[c] ? RD_BLK_BLOCKED : 0);
		}
	}
	L->bk_n_occ = 0;
	for (int i = 0; i < n; i++) {
		int c = occupied(L, as, i);
		if (c >= 0 && L->bk_flag[c] == 2) {
			L->bk_flag[c] = 1;
			set_blk(L, c, RD_BLK_BLOCKED);
			L->bk_occ[L->bk_n_occ++] = c;
		}
	}
}

static void start_over(rd_layer *L)
{
	L->bk_hash[0] = L->bk_hash[1] = 0;
	for (int y = 0, c = 0; y < L->h; y++)
		for (int x = 0; x < L->w; x++, c++) {
			L->cx[c] = (uint16_t)x;
			L->cy[c] = (uint16_t)y;
			L->blk[c] = L->terrain[c] ? RD_BLK_BLOCKED : 0;
			L->bk_flag[c] = 0;
			if (L->blk[c])
				rd_zobrist_flip(L->bk_hash, c, 0);
		}
	memcpy(L->bk_terrain, L->terrain, (size_t)L->cells);
	L->bk_n_occ = 0;
	L->bk_w = L->w;
	L->bk_h = L->h;
	L->bk_ok = 1;
}

/* Every cell as the state has it: 0, or -1. */
static int verify(const rd_layer *L)
{
	for (int c = 0; c < L->cells; c++) {
		int want = (L->terrain[c] || L->grid[c] || L->pend[c] == L->tick) ? RD_BLK_BLOCKED : 0;
		if (L->blk[c] != want || L->cx[c] != c % L->w || L->cy[c] != c / L->w)
			return -1;
	}
	return 0;
}

void rd_cells_update(rd_layer *L)
{
	if (L->bk_tick == L->tick && L->bk_ok)
		return;
	if (!L->bk_ok || L->bk_w != L->w || L->bk_h != L->h || memcmp(L->bk_terrain, L->terrain, (size_t)L->cells))
		start_over(L);
	mark_new(L, rts_cassigns(L->s), L->s->n_assign);
	L->bk_tick = L->tick;
	if (L->check_cells && verify(L))
		L->cells_wrong = 1;
}
