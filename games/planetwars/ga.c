/*
 * The seed report's genetic algorithm over the forecasting bot's 32
 * parameters (section 3.2), and games of parameter vectors in parallel.
 *
 * One generation: `champions` times, draw `players` distinct individuals
 * and `maps_per_pair` maps, every pair plays on each map (the first of the
 * pair is player 1 on even map slots, player 2 on odd ones), rank by wins
 * (draw order breaks ties), tournament selection: rank r is taken with
 * probability p_champion unless an earlier rank was, the last rank when no
 * rank is; then `crossovers` uniform crossovers of two champions drawn at
 * random (two complementary children each), per-gene mutation (a new
 * uniform value), and `population` of the children drawn without
 * replacement form the next generation. The report produces 120 children
 * and then speaks of "these hundred"; we keep 120.
 *
 * Every random draw happens on the calling thread in a fixed order and each
 * game's result lands in its own slot, so a run is the same for any thread
 * count.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/arena.h"
#include "games/planetwars/pw_internal.h"
#include "core/hash.h"
#include "core/pool.h"
#include "core/opts.h"
#include "core/clock.h"

/* ---- xoshiro256** with splitmix64 seeding ---- */

void ms_pw_ga_seed(uint64_t rng[4], uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		rng[i] = ms_splitmix64_next(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next64(uint64_t s[4])
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static double uniform(uint64_t s[4])
{
	return (double)(next64(s) >> 11) * 0x1.0p-53;
}

static int below(uint64_t s[4], int n)
{
	return (int)(((next64(s) >> 32) * (uint64_t)n) >> 32);
}

int ms_pw_ga_options_init(ms_pw_ga_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_PW_GA_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->population = 60;
	o->players = 6;
	o->maps_per_pair = 10;
	o->p_champion = 0.7;
	o->champions = 20;
	o->crossovers = 60;
	o->mutation = 0.04;
	o->init_range = 1.0;
	o->max_turns = MS_PW_MAX_TURNS;
	o->threads = 1;
	o->eval_maps = 20;
	o->seed = 1;
	return MS_OK;
}

void ms_pw_ga_init_population(const ms_pw_ga_options *opts, uint64_t rng[4], double *population)
{
	for (int i = 0; i < opts->population * MS_PW_FORECAST_PARAMS; i++)
		population[i] = (2 * uniform(rng) - 1) * opts->init_range;
}

/* ---- games in parallel ---- */

typedef struct pool {
	const ms_pw_state *const *maps;
	const int *map;
	const double *const *a, *const *b;
	int max_turns;
	int *winner;
} pool;

/* Game i (core/pool.h's job): its winner into its own slot. */
static int play_one(void *ud, ms_ctx *ctx, long i, int worker)
{
	pool *p = ud;
	ms_pw_bot x, y;
	int k = (int)i, rc = pw_forecast_new(ctx, &x, p->a[k]);
	(void)worker;
	if (rc)
		return ms_ctx_error(ctx, rc, "game %d: %s", k, ms_ctx_last_error(ctx));
	if ((rc = pw_forecast_new(ctx, &y, p->b[k]))) {
		ms_pw_bot_release(ctx, &x);
		return ms_ctx_error(ctx, rc, "game %d: %s", k, ms_ctx_last_error(ctx));
	}
	ms_pw_result r;
	rc = ms_pw_play(ctx, p->maps[p->map[k]], &x, &y, p->max_turns, NULL, NULL, &r);
	if (!rc)
		p->winner[k] = r.winner;
	ms_pw_bot_release(ctx, &x);
	ms_pw_bot_release(ctx, &y);
	return rc ? ms_ctx_error(ctx, rc, "game %d: %s", k, ms_ctx_last_error(ctx)) : MS_OK;
}

int ms_pw_play_many(ms_ctx *ctx, const ms_pw_state *const *maps, const int *map, const double *const *a,
		    const double *const *b, int n, int max_turns, int threads, int *out_winner)
{
	pool p = { .maps = maps, .map = map, .a = a, .b = b, .max_turns = max_turns, .winner = out_winner };
	/* the lowest failed game's error, whatever the threads (core/pool.h) */
	return n > 0 ? ms_pool_for(ctx, n, threads < 1 ? 1 : threads > 256 ? 256 : threads, play_one, &p, NULL) : MS_OK;
}

/* ---- the GA ---- */

static int check_options(ms_ctx *ctx, const ms_pw_ga_options *o, int nmaps)
{
	if (o->version != MS_PW_GA_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars GA: options version %u, expected %d", o->version,
				    MS_PW_GA_OPTIONS_VERSION);
	if (o->population < 2 || o->players < 2 || o->players > o->population || o->players > 64)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars GA: players (%d) must be in 2..min(population %d, 64)",
				    o->players, o->population);
	if (o->maps_per_pair < 1 || o->maps_per_pair > nmaps)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars GA: maps per pair %d, %d maps available",
				    o->maps_per_pair, nmaps);
	if (o->champions < 1 || o->crossovers < 1 || 2 * o->crossovers < o->population)
		return ms_ctx_error(ctx, MS_EINVAL,
				    "planetwars GA: %d crossovers give %d children, fewer than the population %d",
				    o->crossovers, 2 * o->crossovers, o->population);
	if (!(o->p_champion > 0 && o->p_champion <= 1) || !(o->mutation >= 0 && o->mutation <= 1) ||
	    !(o->init_range > 0))
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars GA: p_champion in (0, 1], mutation in [0, 1], init range > 0");
	if (o->eval_maps < 0 || o->eval_maps > nmaps || o->max_turns < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars GA: eval maps %d of %d, max turns %d", o->eval_maps,
				    nmaps, o->max_turns);
	return MS_OK;
}

/* One run's sizes and buffers (all from one arena, released together). */
typedef struct ga_run {
	ms_ctx *ctx;
	const ms_pw_ga_options *o;
	const ms_pw_state *const *maps;
	int nmaps, P, K, M, G, nchild, neval;
	long ngames;
	double *population;
	uint64_t *rng;
	int *part, *tmaps, *gmap, *gw, *idx, *champ, *mapidx; /* tournaments' players and maps, games, scratch */
	const double **ga, **gb;                               /* the games' two parameter vectors */
	double *children, *best;
	long *played, *won;
} ga_run;

static int ga_buffers(ga_run *r, ms_arena *a)
{
	const ms_pw_ga_options *o = r->o;
	long nall = r->ngames > r->neval ? r->ngames : r->neval;
	size_t ni = sizeof(int), nd = sizeof(double);
	r->part = ms_arena_alloc(a, (size_t)o->champions * (size_t)r->K * ni);
	r->tmaps = ms_arena_alloc(a, (size_t)o->champions * (size_t)r->M * ni);
	r->gmap = ms_arena_alloc(a, (size_t)nall * ni);
	r->ga = ms_arena_alloc(a, (size_t)nall * sizeof(double *));
	r->gb = ms_arena_alloc(a, (size_t)nall * sizeof(double *));
	r->gw = ms_arena_alloc(a, (size_t)nall * ni);
	r->idx = ms_arena_alloc(a, (size_t)(r->P > r->nchild ? r->P : r->nchild) * ni);
	r->champ = ms_arena_alloc(a, (size_t)o->champions * ni);
	r->children = ms_arena_alloc(a, (size_t)r->nchild * (size_t)r->G * nd);
	r->played = ms_arena_alloc(a, (size_t)r->P * sizeof(long));
	r->won = ms_arena_alloc(a, (size_t)r->P * sizeof(long));
	r->best = ms_arena_alloc(a, (size_t)r->G * nd);
	r->mapidx = ms_arena_alloc(a, (size_t)r->nmaps * ni);
	if (!r->part || !r->tmaps || !r->gmap || !r->ga || !r->gb || !r->gw || !r->idx || !r->champ || !r->children ||
	    !r->played || !r->won || !r->best || !r->mapidx)
		return ms_ctx_error(r->ctx, MS_ENOMEM, "planetwars GA: out of memory");
	return MS_OK;
}

/* 1. every tournament's players and maps, then its games */
static int ga_tournaments(ga_run *r)
{
	const int P = r->P, K = r->K, M = r->M, G = r->G;
	for (int c = 0; c < r->o->champions; c++) {
		for (int i = 0; i < P; i++)
			r->idx[i] = i;
		for (int i = 0; i < K; i++) {
			int j = i + below(r->rng, P - i);
			int t = r->idx[i];
			r->idx[i] = r->idx[j];
			r->idx[j] = t;
			r->part[c * K + i] = r->idx[i];
		}
		for (int i = 0; i < r->nmaps; i++)
			r->mapidx[i] = i;
		for (int i = 0; i < M; i++) {
			int j = i + below(r->rng, r->nmaps - i);
			int t = r->mapidx[i];
			r->mapidx[i] = r->mapidx[j];
			r->mapidx[j] = t;
			r->tmaps[c * M + i] = r->mapidx[i];
		}
	}
	long g = 0;
	for (int c = 0; c < r->o->champions; c++)
		for (int i = 0; i < K; i++)
			for (int j = i + 1; j < K; j++)
				for (int m = 0; m < M; m++, g++) {
					const double *x = &r->population[(size_t)r->part[c * K + i] * G];
					const double *y = &r->population[(size_t)r->part[c * K + j] * G];
					r->gmap[g] = r->tmaps[c * M + m];
					r->ga[g] = m % 2 ? y : x;
					r->gb[g] = m % 2 ? x : y;
				}
	return ms_pw_play_many(r->ctx, r->maps, r->gmap, r->ga, r->gb, (int)r->ngames, r->o->max_turns, r->o->threads,
			       r->gw);
}

/* 2. rank each tournament, pick its champion; the best win rate of the generation into *bi, *brate */
static void ga_select(ga_run *r, int *bi, double *brate)
{
	const int P = r->P, K = r->K, M = r->M;
	long g = 0;
	memset(r->played, 0, (size_t)P * sizeof(long));
	memset(r->won, 0, (size_t)P * sizeof(long));
	for (int c = 0; c < r->o->champions; c++) {
		int wins[64] = { 0 }, order[64];
		for (int i = 0; i < K; i++)
			for (int j = i + 1; j < K; j++)
				for (int m = 0; m < M; m++, g++) {
					int w = r->gw[g];
					int first_is_1 = m % 2 == 0;
					if (w == 1)
						wins[first_is_1 ? i : j]++;
					else if (w == 2)
						wins[first_is_1 ? j : i]++;
					r->played[r->part[c * K + i]]++;
					r->played[r->part[c * K + j]]++;
				}
		for (int i = 0; i < K; i++) {
			r->won[r->part[c * K + i]] += wins[i];
			order[i] = i;
		}
		for (int i = 1; i < K; i++) /* stable insertion sort by wins, descending */
			for (int j = i; j > 0 && wins[order[j]] > wins[order[j - 1]]; j--) {
				int t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		int pick = order[K - 1];
		for (int q = 0; q < K - 1; q++)
			if (uniform(r->rng) < r->o->p_champion) {
				pick = order[q];
				break;
			}
		r->champ[c] = r->part[c * K + pick];
	}
	*bi = -1;
	*brate = -1;
	for (int i = 0; i < P; i++)
		if (r->played[i] && (double)r->won[i] / (double)r->played[i] > *brate) {
			*brate = (double)r->won[i] / (double)r->played[i];
			*bi = i;
		}
	memcpy(r->best, &r->population[(size_t)*bi * r->G], (size_t)r->G * sizeof(double));
}

/* 3. crossover, mutation, next generation */
static void ga_breed(ga_run *r)
{
	const int G = r->G, nchild = r->nchild;
	const ms_pw_ga_options *o = r->o;
	for (int x = 0; x < o->crossovers; x++) {
		const double *A = &r->population[(size_t)r->champ[below(r->rng, o->champions)] * G];
		const double *B = &r->population[(size_t)r->champ[below(r->rng, o->champions)] * G];
		double *c1 = &r->children[(size_t)(2 * x) * G], *c2 = &r->children[(size_t)(2 * x + 1) * G];
		for (int k = 0; k < G; k++) {
			int swap = uniform(r->rng) < 0.5;
			c1[k] = swap ? B[k] : A[k];
			c2[k] = swap ? A[k] : B[k];
		}
	}
	for (int i = 0; i < nchild * G; i++)
		if (uniform(r->rng) < o->mutation)
			r->children[i] = (2 * uniform(r->rng) - 1) * o->init_range;
	for (int i = 0; i < nchild; i++)
		r->idx[i] = i;
	for (int i = 0; i < r->P; i++) {
		int j = i + below(r->rng, nchild - i);
		int t = r->idx[i];
		r->idx[i] = r->idx[j];
		r->idx[j] = t;
		memcpy(&r->population[(size_t)i * G], &r->children[(size_t)r->idx[i] * G], (size_t)G * sizeof(double));
	}
}

/* 4. the generation's best against the original, both seats: its score into *vs (0 without eval maps) */
static int ga_vs_original(ga_run *r, double *vs)
{
	int rc;
	*vs = 0;
	if (!r->neval)
		return MS_OK;
	for (int e = 0; e < r->o->eval_maps; e++) {
		int m = (int)((long)e * r->nmaps / r->o->eval_maps);
		r->gmap[2 * e] = r->gmap[2 * e + 1] = m;
		r->ga[2 * e] = r->best;
		r->gb[2 * e] = ms_pw_forecast_original();
		r->ga[2 * e + 1] = ms_pw_forecast_original();
		r->gb[2 * e + 1] = r->best;
	}
	if ((rc = ms_pw_play_many(r->ctx, r->maps, r->gmap, r->ga, r->gb, r->neval, r->o->max_turns, r->o->threads,
				  r->gw)))
		return rc;
	for (int e = 0; e < r->neval; e++) {
		int mine = e % 2 ? 2 : 1;
		*vs += r->gw[e] == mine ? 1 : r->gw[e] == 0 ? 0.5 : 0;
	}
	*vs /= r->neval;
	return MS_OK;
}

/* The mean over parameters of the population's standard deviation. */
static double ga_diversity(const ga_run *r)
{
	double div = 0;
	for (int k = 0; k < r->G; k++) {
		double m = 0, s2 = 0;
		for (int i = 0; i < r->P; i++)
			m += r->population[(size_t)i * r->G + k];
		m /= r->P;
		for (int i = 0; i < r->P; i++) {
			double d = r->population[(size_t)i * r->G + k] - m;
			s2 += d * d;
		}
		div += sqrt(s2 / r->P);
	}
	return div / r->G;
}

int ms_pw_ga_run(ms_ctx *ctx, const ms_pw_ga_options *o, const ms_pw_state *const *maps, int nmaps,
		 double *population, uint64_t rng[4], int first_generation, int generations, ms_pw_ga_callback cb,
		 void *cb_ud)
{
	ms_arena *a = NULL;
	ga_run r;
	int rc = check_options(ctx, o, nmaps);
	if (rc)
		return rc;
	if (!(rng[0] | rng[1] | rng[2] | rng[3]))
		ms_pw_ga_seed(rng, o->seed);
	r = (ga_run){ .ctx = ctx, .o = o, .maps = maps, .nmaps = nmaps, .P = o->population, .K = o->players,
		      .M = o->maps_per_pair, .G = MS_PW_FORECAST_PARAMS, .nchild = 2 * o->crossovers,
		      .neval = 2 * o->eval_maps, .population = population, .rng = rng };
	r.ngames = (long)o->champions * (r.K * (r.K - 1) / 2) * r.M;
	if ((rc = ms_arena_new(&a, ctx, 0)) || (rc = ga_buffers(&r, a)))
		goto done;
	for (int gen = first_generation; gen < first_generation + generations; gen++) {
		double t0 = ms_now(), brate, vs;
		int bi;
		if ((rc = ga_tournaments(&r)))
			goto done;
		ga_select(&r, &bi, &brate);
		ga_breed(&r);
		if ((rc = ga_vs_original(&r, &vs)))
			goto done;
		ms_pw_ga_generation info = { .generation = gen, .games = r.ngames + r.neval, .best = bi,
					     .best_rate = brate, .best_params = r.best, .vs_original = vs,
					     .diversity = ga_diversity(&r), .seconds = ms_now() - t0,
					     .population = population, .rng = rng };
		if (cb && (rc = cb(cb_ud, &info)))
			goto done;
	}
done:
	ms_arena_free(a);
	return rc;
}
