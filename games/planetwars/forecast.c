/*
 * The seed report's forecasting bot (../shared/papers/004_planetwars.txt,
 * section 3.1) and its 32 parameters.
 *
 * Each turn, with horizon H = 3/2 x the mean distance between my planets
 * and the others + 10 (truncated to an integer, at most 400):
 *  1. Forecast(q, t), t = 0..H, for every planet: its ships after the fleets
 *     in flight land (growth and battles as the rules), positive if mine,
 *     negative otherwise. A planet's spare ships are the least forecast over
 *     0..H, within [0, ships]; 0 if it is lost at some t.
 *  2. For each of my planets p in id order: defend each other planet q of
 *     mine lost first at t (Forecast(q, t) = -n < 0): if spare(p) > n and
 *     distance(p, q) < t, send n (a tie keeps the planet), as the report.
 *  3. Then attack: among the planets q not mine within H of p with
 *     residue = -Forecast(q, H) >= 0 and residue + 1 <= spare(p), pick the
 *     best gain = (w0 + w1) residue + (w2 + w3) (H - d) growth(q) (first on
 *     ties) and send residue + 1 ships. The report sends `residue`, which
 *     only ties and takes nothing; one more ship takes the planet.
 *  Every fleet sent is added to the forecast of its target at once, so the
 *  next planets do not send what is already on its way.
 * w_i = p[k][i][0] + p[k][i][1] f1 + p[k][i][2] f2 + p[k][i][3] f3, k = 0 for
 * a neutral target, 1 for an enemy one; f1 = mean distance from q to the
 * enemy planets / mean distance from q to all planets (q itself left out of
 * both; 1 with no enemy planet), f2 = enemy growth / growth of all planets,
 * f3 = enemy ships / ships of both players (planets and fleets); 0 for 0/0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "games/planetwars/pw_internal.h"
#include "core/vec.h"

/*
 * The hand-weighted original (ours; the report's weights are not given).
 * Index 16k + 4i + j. Both kinds of target: w0 = -1 per ship spent (-0.5 on
 * an enemy planet, whose ships die too), w1 = -f3 (ships cost more while
 * the enemy has more of them), w2 = 1 per ship of growth won (1.5 on an
 * enemy planet: the enemy loses it too) + 0.5 f1 on neutral planets (safer
 * far from the enemy), w3 = 0.5 f2 (growth matters more when the enemy
 * out-produces us).
 */
static const double original[MS_PW_FORECAST_PARAMS] = {
	/* k = 0, neutral targets: w0, w1, w2, w3 as (const, f1, f2, f3) */
	-1.0, 0.0, 0.0, 0.0,
	0.0, 0.0, 0.0, -1.0,
	1.0, 0.5, 0.0, 0.0,
	0.0, 0.0, 0.5, 0.0,
	/* k = 1, enemy targets */
	-0.5, 0.0, 0.0, 0.0,
	0.0, 0.0, 0.0, -1.0,
	1.5, 0.0, 0.0, 0.0,
	0.0, 0.0, 0.5, 0.0,
};

const double *ms_pw_forecast_original(void)
{
	return original;
}

#define FC_MAX_H 400

typedef struct fc_bot {
	double p[MS_PW_FORECAST_PARAMS];
	pw_gain_fn gain; /* NULL: the weights of p */
	void *gain_ud;
	int cap_np, cap_h;
	int cap_arr, cap_fc, cap_spare; /* ms_vec_grow's, in ints */
	int *arr;   /* arrivals: [(q * (H + 1) + t) * 3 + owner] */
	int *fc;    /* forecast: [q * (H + 1) + t] */
	int *spare;
} fc_bot;

static void forecast_planet(const ms_pw_state *v, const fc_bot *b, int H, int q, int *fc)
{
	const ms_pw_planet *pl = &v->planets[q];
	int owner = pl->owner, ships = pl->ships;
	fc[0] = owner == 1 ? ships : -ships;
	const int *a = &b->arr[(size_t)q * (H + 1) * 3];
	for (int t = 1; t <= H; t++) {
		if (owner > 0)
			ships = pw_sat_add(ships, pl->growth);
		const int *at = &a[t * 3];
		if (at[0] | at[1] | at[2]) {
			long long forces[3] = { at[0], at[1], at[2] };
			forces[owner] = pw_sat_add(at[owner], ships);
			pw_battle(forces, &owner, &ships);
		}
		fc[t] = owner == 1 ? ships : -ships;
	}
}

static int fc_reserve(ms_ctx *ctx, fc_bot *b, int np, int H)
{
	if (np <= b->cap_np && H <= b->cap_h)
		return MS_OK;
	int cn = np > b->cap_np ? np : b->cap_np, ch = H > b->cap_h ? H : b->cap_h;
	/* the three tables' contents are made anew every turn: only their room is kept */
	if (ms_vec_grow(ctx, (void **)&b->arr, &b->cap_arr, (long long)cn * (ch + 1) * 3, sizeof *b->arr) < 0 ||
	    ms_vec_grow(ctx, (void **)&b->fc, &b->cap_fc, (long long)cn * (ch + 1), sizeof *b->fc) < 0 ||
	    ms_vec_grow(ctx, (void **)&b->spare, &b->cap_spare, cn, sizeof *b->spare) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory for the forecast");
	b->cap_np = cn;
	b->cap_h = ch;
	return MS_OK;
}

/* The horizon H, or 0 when there is nothing to do (no planet of mine, or no other planet). */
static int fc_horizon(const ms_pw_state *v)
{
	int np = v->np;
	long dsum = 0, dn = 0;
	int mine = 0;
	for (int i = 0; i < np; i++) {
		if (v->planets[i].owner != 1)
			continue;
		mine++;
		for (int j = 0; j < np; j++)
			if (v->planets[j].owner != 1) {
				dsum += pw_dist(v, i, j);
				dn++;
			}
	}
	if (!mine || !dn)
		return 0;
	double hh = 1.5 * ((double)dsum / (double)dn) + 10;
	return hh > FC_MAX_H ? FC_MAX_H : (int)hh;
}

/* One turn's horizon and the features shared by all targets. */
typedef struct fc_turn_ctx {
	const ms_pw_state *v;
	int H, W;
	double f2, f3;
} fc_turn_ctx;

/* Arrivals of the fleets in flight, every planet's forecast, f2 and f3. */
static void fc_forecast_all(fc_bot *b, fc_turn_ctx *tc)
{
	const ms_pw_state *v = tc->v;
	int np = v->np, H = tc->H, W = tc->W;
	memset(b->arr, 0, (size_t)np * W * 3 * sizeof(int));
	long my_ships = 0, en_ships = 0, en_growth = 0, all_growth = 0;
	for (int i = 0; i < v->nf; i++) {
		const ms_pw_fleet *f = &v->fleets[i];
		int t = f->remaining > 0 ? f->remaining : 1;
		if (f->owner == 1)
			my_ships += f->ships;
		else
			en_ships += f->ships;
		if (t <= H) {
			int *c = &b->arr[((size_t)f->dest * W + t) * 3 + f->owner];
			*c = pw_sat_add(*c, f->ships);
		}
	}
	for (int i = 0; i < np; i++) {
		const ms_pw_planet *p = &v->planets[i];
		all_growth += p->growth;
		if (p->owner == 1)
			my_ships += p->ships;
		else if (p->owner == 2) {
			en_ships += p->ships;
			en_growth += p->growth;
		}
		forecast_planet(v, b, H, i, &b->fc[(size_t)i * W]);
	}
	tc->f2 = all_growth ? (double)en_growth / (double)all_growth : 0;
	tc->f3 = my_ships + en_ships ? (double)en_ships / (double)(my_ships + en_ships) : 0;
}

/* Spare ships of each of my planets: the least forecast over 0..H, within [0, ships]. */
static void fc_spare_all(fc_bot *b, const fc_turn_ctx *tc)
{
	const ms_pw_state *v = tc->v;
	for (int i = 0; i < v->np; i++) {
		if (v->planets[i].owner != 1)
			continue;
		const int *fc = &b->fc[(size_t)i * tc->W];
		int m = fc[0];
		for (int t = 1; t <= tc->H; t++)
			if (fc[t] < m)
				m = fc[t];
		b->spare[i] = m < 0 ? 0 : m > v->planets[i].ships ? v->planets[i].ships : m;
	}
}

/* Sends n ships from p to q and adds them to q's forecast at once. */
static int fc_send(fc_bot *b, const fc_turn_ctx *tc, ms_pw_orders *out, int p, int q, int n)
{
	int rc = ms_pw_orders_add(out, p, q, n);
	if (rc)
		return rc;
	int d = pw_dist(tc->v, p, q);
	b->spare[p] -= n;
	b->arr[((size_t)q * tc->W + d) * 3 + 1] += n;
	forecast_planet(tc->v, b, tc->H, q, &b->fc[(size_t)q * tc->W]);
	return MS_OK;
}

static int fc_defend(fc_bot *b, const fc_turn_ctx *tc, ms_pw_orders *out, int p)
{
	const ms_pw_state *v = tc->v;
	for (int q = 0; q < v->np; q++) {
		if (q == p || v->planets[q].owner != 1)
			continue;
		const int *fc = &b->fc[(size_t)q * tc->W];
		int t = 1;
		while (t <= tc->H && fc[t] >= 0)
			t++;
		if (t > tc->H)
			continue;
		int n = -fc[t], d = pw_dist(v, p, q);
		if (b->spare[p] > n && d < t) {
			int rc = fc_send(b, tc, out, p, q, n);
			if (rc)
				return rc;
		}
	}
	return MS_OK;
}

/* f1 of target q: mean distance to the enemy planets / mean distance to all (q left out). */
static double fc_f1(const ms_pw_state *v, int q)
{
	double se = 0, sa = 0;
	int ne = 0, na = 0;
	for (int j = 0; j < v->np; j++) {
		if (j == q)
			continue;
		int dj = pw_dist(v, q, j);
		sa += dj;
		na++;
		if (v->planets[j].owner == 2) {
			se += dj;
			ne++;
		}
	}
	return ne && na && sa > 0 ? (se / ne) / (sa / na) : 1;
}

static double fc_gain(const fc_bot *b, const fc_turn_ctx *tc, int p, int q, int residue)
{
	const ms_pw_planet *t = &tc->v->planets[q];
	int d = pw_dist(tc->v, p, q), k = t->owner == 2, H = tc->H;
	double f1 = fc_f1(tc->v, q), f2 = tc->f2, f3 = tc->f3;
	if (b->gain) {
		pw_gain_in in = { residue, t->growth, d, H, k, t->ships, b->spare[p], f1, f2, f3 };
		return b->gain(b->gain_ud, &in);
	}
	double w[4];
	for (int i = 0; i < 4; i++) {
		const double *pp = &b->p[16 * k + 4 * i];
		w[i] = pp[0] + pp[1] * f1 + pp[2] * f2 + pp[3] * f3;
	}
	return (w[0] + w[1]) * residue + (w[2] + w[3]) * (double)(H - d) * t->growth;
}

static int fc_attack(fc_bot *b, const fc_turn_ctx *tc, ms_pw_orders *out, int p)
{
	const ms_pw_state *v = tc->v;
	int best = -1, bres = 0;
	double bgain = 0;
	for (int q = 0; q < v->np; q++) {
		if (v->planets[q].owner == 1 || pw_dist(v, p, q) > tc->H)
			continue;
		int residue = -b->fc[(size_t)q * tc->W + tc->H];
		if (residue < 0 || residue + 1 > b->spare[p])
			continue;
		double gain = fc_gain(b, tc, p, q, residue);
		if (best < 0 || gain > bgain) {
			best = q;
			bgain = gain;
			bres = residue;
		}
	}
	return best >= 0 ? fc_send(b, tc, out, p, best, bres + 1) : MS_OK;
}

static int fc_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	fc_bot *b = ud;
	fc_turn_ctx tc = { v, fc_horizon(v), 0, 0, 0 };
	if (!tc.H)
		return MS_OK;
	int rc = fc_reserve(ctx, b, v->np, tc.H);
	if (rc)
		return rc;
	tc.W = tc.H + 1;
	fc_forecast_all(b, &tc);
	fc_spare_all(b, &tc);
	for (int p = 0; p < v->np; p++) {
		if (v->planets[p].owner != 1)
			continue;
		if ((rc = fc_defend(b, &tc, out, p)) || (rc = fc_attack(b, &tc, out, p)))
			return rc;
	}
	return MS_OK;
}

static void fc_release(ms_ctx *ctx, void *ud)
{
	fc_bot *b = ud;
	if (!b)
		return;
	ms_ctx_mfree(ctx, b->arr);
	ms_ctx_mfree(ctx, b->fc);
	ms_ctx_mfree(ctx, b->spare);
	ms_ctx_mfree(ctx, b);
}

int pw_forecast_new(ms_ctx *ctx, ms_pw_bot *out, const double *p)
{
	fc_bot *b = ms_ctx_calloc(ctx, 1, sizeof *b);
	if (!b)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	memcpy(b->p, p, sizeof b->p);
	*out = (ms_pw_bot){ "Forecast", b, fc_turn, fc_release };
	return MS_OK;
}

int pw_forecast_new_gain(ms_ctx *ctx, ms_pw_bot *out, pw_gain_fn gain, void *gain_ud, const char *name)
{
	fc_bot *b = ms_ctx_calloc(ctx, 1, sizeof *b);
	if (!b)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	b->gain = gain;
	b->gain_ud = gain_ud;
	*out = (ms_pw_bot){ name, b, fc_turn, fc_release };
	return MS_OK;
}

int ms_pw_bot_forecast(ms_ctx *ctx, ms_pw_bot *out, const double p[MS_PW_FORECAST_PARAMS])
{
	return pw_forecast_new(ctx, out, p);
}

int ms_pw_forecast_load(ms_ctx *ctx, const char *path, double p[MS_PW_FORECAST_PARAMS])
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "%s: cannot open: %s", path, strerror(errno));
	char line[4096];
	int n = 0, lineno = 0, rc = MS_OK;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		char *q = line;
		for (;;) {
			while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == ',')
				q++;
			if (!*q)
				break;
			char *e;
			double x = strtod(q, &e);
			if (e == q || !isfinite(x)) {
				rc = ms_ctx_error(ctx, MS_EPARSE, "%s:%d: '%.20s' is not a number", path, lineno, q);
				break;
			}
			if (n == MS_PW_FORECAST_PARAMS) {
				rc = ms_ctx_error(ctx, MS_EPARSE, "%s:%d: more than %d parameters", path, lineno,
						  MS_PW_FORECAST_PARAMS);
				break;
			}
			p[n++] = x;
			q = e;
		}
	}
	fclose(f);
	if (!rc && n != MS_PW_FORECAST_PARAMS)
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: %d parameters, expected %d", path, n, MS_PW_FORECAST_PARAMS);
	return rc;
}
