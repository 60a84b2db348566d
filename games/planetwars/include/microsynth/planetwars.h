/*
 * Planet Wars (Google AI Challenge 2010): rules, text protocol, bots,
 * matches and the forecasting bot's genetic algorithm.
 *
 * The rules are the challenge's specification; where the official engine
 * (tools/PlayGame.jar of the starter package) visibly does otherwise in
 * its playbacks, the engine wins (turn limit, growth before battles, order
 * of phases; see games/planetwars/state.c).
 *
 * A state is an opaque handle. Players are numbered 1 and 2, neutral is 0.
 * Bots never see the engine's state: they get a *view*, the state as the
 * protocol sends it to a player (that player is always 1, coordinates as
 * the engine prints them), so a bot decides the same natively and behind
 * `microsynth planetwars bot` under the official engine.
 */
#ifndef MICROSYNTH_PLANETWARS_H
#define MICROSYNTH_PLANETWARS_H

#include <stddef.h>
#include <stdint.h>

#include "microsynth/common.h"
#include "microsynth/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One planet. In a view, owner 1 is the viewing player. */
typedef struct ms_pw_planet {
	double x, y;
	int owner, ships, growth;
} ms_pw_planet;

/** One fleet in flight; it lands when `remaining` reaches 0. */
typedef struct ms_pw_fleet {
	int owner, ships, source, dest, total, remaining;
} ms_pw_fleet;

typedef struct ms_pw_state ms_pw_state;

/**
 * Parses a map or a protocol state: lines `P x y owner ships growth` and
 * `F owner ships source dest total remaining`, blank lines, `#` comments.
 * `what` names the input in errors ("maps/map1.txt:3: ..."). Rejects
 * unknown lines, wrong field counts, bad numbers, owners outside 0..2,
 * negative ships or growth, fleets naming missing planets, no planets, more
 * than 1000 planets, two planets at one position.
 */
MS_EXTERN int ms_pw_state_parse(ms_ctx *ctx, ms_pw_state **out, const char *text, const char *what);
/** Reads and parses a file (errors name the path and line). */
MS_EXTERN int ms_pw_state_load(ms_ctx *ctx, ms_pw_state **out, const char *path);
/** A deep copy. */
MS_EXTERN int ms_pw_state_clone(ms_ctx *ctx, ms_pw_state **out, const ms_pw_state *s);
/** Frees a state; NULL is ignored. */
MS_EXTERN void ms_pw_state_free(ms_pw_state *s);

MS_EXTERN int ms_pw_num_planets(const ms_pw_state *s);
MS_EXTERN const ms_pw_planet *ms_pw_planet_at(const ms_pw_state *s, int i);
MS_EXTERN int ms_pw_num_fleets(const ms_pw_state *s);
MS_EXTERN const ms_pw_fleet *ms_pw_fleet_at(const ms_pw_state *s, int i);
/** Time steps played so far. */
MS_EXTERN int ms_pw_turn(const ms_pw_state *s);
/** Trip length between planets: ceil of the Euclidean distance (a view's own coordinates). */
MS_EXTERN int ms_pw_distance(const ms_pw_state *s, int a, int b);
/** Ships of `player` on planets and in fleets. */
MS_EXTERN int ms_pw_ships(const ms_pw_state *s, int player);
/** Growth of the planets `player` owns. */
MS_EXTERN int ms_pw_production(const ms_pw_state *s, int player);
/** 1 if `player` owns a planet or a fleet. */
MS_EXTERN int ms_pw_alive(const ms_pw_state *s, int player);

/**
 * Departure: checks and carries out one order of `player` (1 or 2) at once,
 * as the engine does when it reads the line. MS_EILLEGAL (with the reason)
 * when the source is not the player's, the destination is the source
 * (the specification's rule; the 2010 engine let it pass), ships are
 * negative or more than the source holds; MS_ERANGE for a planet outside
 * the map. Zero ships are legal (the engine launches an empty fleet).
 */
MS_EXTERN int ms_pw_issue(ms_ctx *ctx, ms_pw_state *s, int player, int source, int dest, int ships);
/** Advancement and arrival: growth, fleets one step, battles; turn + 1. */
MS_EXTERN void ms_pw_step(ms_pw_state *s);
/** The official game length (the turn limit the engine is run with). */
#define MS_PW_MAX_TURNS 200

/**
 * The engine's end test after a step: -1 while the game goes on; 1 or 2 a
 * winner; 0 a draw. Over after more than `max_turns` steps (the engine's
 * test, so 200 means 201 steps, as the official playbacks show) by ships,
 * or when at most one player owns planets or fleets.
 */
MS_EXTERN int ms_pw_winner(const ms_pw_state *s, int max_turns);

/**
 * The text the engine sends player `pov` (1 or 2) each turn: planets as
 * `P %f %f owner ships growth` with players swapped so `pov` reads 1, the
 * fleets, then `go`. Writes at most `size` bytes (NUL included); returns
 * the length the full text needs, as snprintf does.
 */
MS_EXTERN size_t ms_pw_format_view(const ms_pw_state *s, int pov, char *buf, size_t size);
/**
 * The view of player `pov` as a state (what parsing ms_pw_format_view's
 * text gives), written into `*view`, which is allocated on first use and
 * reused while the map is the same.
 */
MS_EXTERN int ms_pw_make_view(ms_ctx *ctx, const ms_pw_state *s, int pov, ms_pw_state **view);

/* ---- orders ---- */

typedef struct ms_pw_order {
	int source, dest, ships;
} ms_pw_order;

/** A growable list of orders; it remembers its context, so it is freed without one. */
typedef struct ms_pw_orders ms_pw_orders;
MS_EXTERN int ms_pw_orders_new(ms_ctx *ctx, ms_pw_orders **out);
MS_EXTERN void ms_pw_orders_free(ms_pw_orders *o);
MS_EXTERN void ms_pw_orders_clear(ms_pw_orders *o);
MS_EXTERN int ms_pw_orders_add(ms_pw_orders *o, int source, int dest, int ships);
MS_EXTERN int ms_pw_orders_count(const ms_pw_orders *o);
MS_EXTERN const ms_pw_order *ms_pw_orders_at(const ms_pw_orders *o, int i);
/**
 * Parses one line a bot sends: `source dest ships`, or `go` (sets *go).
 * Surrounding blanks are ignored; errors name `what` and the text.
 */
MS_EXTERN int ms_pw_order_parse(ms_ctx *ctx, const char *line, const char *what, ms_pw_order *out, int *go);

/* ---- bots ---- */

/**
 * A bot: `turn` reads a view (it is player 1) and appends its orders.
 * A negative return is an error that ends the match. `release` frees `ud`.
 */
typedef struct ms_pw_bot {
	const char *name;
	void *ud;
	int (*turn)(ms_ctx *ctx, void *ud, const ms_pw_state *view, ms_pw_orders *out);
	void (*release)(ms_ctx *ctx, void *ud);
} ms_pw_bot;

/** Parameters of the forecasting bot: p[k][i][j] at index 16k + 4i + j. */
#define MS_PW_FORECAST_PARAMS 32

/**
 * Bots by name: BullyBot, DualBot, ProspectorBot, RageBot (the starter
 * package's examples, decision for decision), RandomBot (seeded by `seed`),
 * Forecast (the seed report's bot with its hand-weighted parameters).
 * MS_ENOTFOUND for other names. Free with ms_pw_bot_release.
 */
MS_EXTERN int ms_pw_bot_by_name(ms_ctx *ctx, ms_pw_bot *out, const char *name, uint64_t seed);

/** A row of Planet Wars' agent table (microsynth/spec.h): the form, and its maker from the whole spec,
 *  its argument and a seed. */
typedef struct ms_pw_agent_row {
	ms_spec_form form;
	int (*make)(ms_ctx *ctx, ms_pw_bot *out, const char *spec, const char *arg, uint64_t seed);
} ms_pw_agent_row;

/** The agents' rows (*n of them): the named bots of ms_pw_bot_by_name (Forecast also as Forecast:FILE,
 *  32 parameters), then program:FILE (a gain program, planetwars_synth.h; one in memory is a bot through
 *  ms_pw_bot_program). */
MS_EXTERN const ms_pw_agent_row *ms_pw_agents(int *n);
/** A bot from any spec of the table; MS_ENOTFOUND (naming the bots) for others. Free with ms_pw_bot_release. */
MS_EXTERN int ms_pw_bot_make(ms_ctx *ctx, ms_pw_bot *out, const char *spec, uint64_t seed);
/** The forecasting bot with parameters `p` (copied). */
MS_EXTERN int ms_pw_bot_forecast(ms_ctx *ctx, ms_pw_bot *out, const double p[MS_PW_FORECAST_PARAMS]);
/** The hand-weighted parameters ("original"; documented in games/planetwars/forecast.c). */
MS_EXTERN const double *ms_pw_forecast_original(void);
/** Reads 32 numbers (blanks, newlines and `#` comments between them) from a file. */
MS_EXTERN int ms_pw_forecast_load(ms_ctx *ctx, const char *path, double p[MS_PW_FORECAST_PARAMS]);
MS_EXTERN void ms_pw_bot_release(ms_ctx *ctx, ms_pw_bot *bot);
/** The names ms_pw_bot_by_name knows, NULL-terminated. */
MS_EXTERN const char *const *ms_pw_bot_names(void);

/* ---- matches ---- */

typedef struct ms_pw_result {
	int winner;     /**< 1, 2, or 0 for a draw */
	int turns;      /**< time steps played */
	int forfeit;    /**< bit 1: player 1 gave an illegal order, bit 2: player 2 */
	int ships[3];   /**< ships of players 1 and 2 at the end (index 0 unused) */
} ms_pw_result;

/**
 * Observer called after each step with the state (may be NULL). A nonzero
 * return stops the match with that status.
 */
typedef int (*ms_pw_observer)(void *ud, const ms_pw_state *s);

/**
 * Plays a match from `map` (not modified) between two bots: each turn both
 * bots see their view of the same state, player 1's orders are issued, then
 * player 2's, then the step. An illegal order forfeits (the other player
 * wins; both: a draw) and its reason stays in ctx's message, status MS_OK.
 * `max_turns` as in ms_pw_winner (MS_PW_MAX_TURNS is the official setting).
 */
MS_EXTERN int ms_pw_play(ms_ctx *ctx, const ms_pw_state *map, const ms_pw_bot *p1, const ms_pw_bot *p2,
			 int max_turns, ms_pw_observer obs, void *obs_ud, ms_pw_result *out);

/* ---- official playbacks (games/planetwars/playback.c) ---- */

/** The turns of one official game as the engine's playback shows them. */
typedef struct ms_pw_playback ms_pw_playback;

/**
 * Reads a playback's text (`len` bytes; a NUL ends it early): after the
 * first '|', one entry per turn separated by ':', each the `np` planets as
 * owner.ships then the fleets as owner.ships.source.dest.total.remaining,
 * separated by ','. Errors (MS_EPARSE) name `what` and the turn.
 */
MS_EXTERN int ms_pw_playback_parse(ms_ctx *ctx, ms_pw_playback **out, const char *text, size_t len, int np,
				   const char *what);
MS_EXTERN void ms_pw_playback_free(ms_pw_playback *pb);
/** Turns the playback holds. */
MS_EXTERN int ms_pw_playback_turns(const ms_pw_playback *pb);
/**
 * Compares state `s` with turn `k` (0-based) of the playback: 0 alike; 1
 * with the first difference in `msg` (a planet, the fleets compared as
 * sorted lists, or a turn past the playback's end); a negative status if
 * `s` has another planet count or memory runs out.
 */
MS_EXTERN int ms_pw_playback_check(ms_ctx *ctx, const ms_pw_playback *pb, int k, const ms_pw_state *s, char *msg,
				   size_t size);

/* ---- the genetic algorithm of the seed report ---- */

#define MS_PW_GA_OPTIONS_VERSION 1

typedef struct ms_pw_ga_options {
	unsigned int version;        /**< MS_PW_GA_OPTIONS_VERSION */
	int population;              /**< 60 */
	int players;                 /**< players per tournament: 6 */
	int maps_per_pair;           /**< maps each pair plays: 10 */
	double p_champion;           /**< tournament selection: 0.7 */
	int champions;               /**< tournaments (champions) per generation: 20 */
	int crossovers;              /**< uniform crossovers, two children each: 60 */
	double mutation;             /**< per-gene probability: 0.04 */
	double init_range;           /**< genes uniform in [-r, r], mutation redraws there: 1 */
	int max_turns;               /**< 200 */
	int threads;                 /**< games in parallel (results do not depend on it) */
	int eval_maps;               /**< maps for the per-generation check vs the original (both seats): 20 */
	uint64_t seed;
} ms_pw_ga_options;

/**
 * Fills the seed report's settings (version: MS_PW_GA_OPTIONS_VERSION); 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_pw_ga_options_init(ms_pw_ga_options *opts, unsigned int version);

/** What one generation produced (handed to the callback). */
typedef struct ms_pw_ga_generation {
	int generation;         /**< 0-based index of the generation that was played */
	long games;             /**< games played in it (tournaments and the check against the original) */
	int best;               /**< index in the population of its best player (wins / games) */
	double best_rate;       /**< that player's tournament win rate */
	const double *best_params;
	double vs_original;     /**< win rate of `best` against the original (eval_maps, both seats; draws 1/2) */
	double diversity;       /**< mean over genes of the population's standard deviation */
	double seconds;         /**< wall time of the generation */
	const double *population; /**< the NEXT generation, population x 32 */
	const uint64_t *rng;    /**< generator state after it (for the checkpoint) */
} ms_pw_ga_generation;

typedef int (*ms_pw_ga_callback)(void *ud, const ms_pw_ga_generation *g);

/**
 * Runs `generations` generations from `population` (population x 32
 * values, updated in place) and generator state `rng` (4 words; seeded
 * from opts->seed when all zero). `maps` are the candidate maps. Deterministic
 * for a seed whatever the thread count. The callback runs after each
 * generation; a nonzero return stops with that status.
 */
MS_EXTERN int ms_pw_ga_run(ms_ctx *ctx, const ms_pw_ga_options *opts, const ms_pw_state *const *maps,
			   int nmaps, double *population, uint64_t rng[4], int first_generation,
			   int generations, ms_pw_ga_callback cb, void *cb_ud);
/** Random initial population (population x 32) from the generator. */
MS_EXTERN void ms_pw_ga_init_population(const ms_pw_ga_options *opts, uint64_t rng[4], double *population);
/** Seeds the GA's generator (xoshiro256**, splitmix64 seeding). */
MS_EXTERN void ms_pw_ga_seed(uint64_t rng[4], uint64_t seed);

/* ---- the GA's checkpoints (games/planetwars/ga_checkpoint.c) ---- */

/**
 * Writes the population (`population` rows of MS_PW_FORECAST_PARAMS) at
 * the start of generation `gen` and the random state it starts from to
 * `path`, whole or not at all (written to path.tmp, then renamed).
 */
MS_EXTERN int ms_pw_ga_checkpoint_write(ms_ctx *ctx, const char *path, int gen, int population, const double *pop,
					const uint64_t rng[4]);
/**
 * Reads a checkpoint's text (`len` bytes) of a population of `population`
 * into *gen, pop and rng, which change only on success. Errors (MS_EPARSE,
 * MS_EINVAL for another population size) name `what` and the line.
 */
MS_EXTERN int ms_pw_ga_checkpoint_parse(ms_ctx *ctx, const char *text, size_t len, const char *what,
					int population, int *gen, double *pop, uint64_t rng[4]);
/** ms_pw_ga_checkpoint_parse on the file at `path`. */
MS_EXTERN int ms_pw_ga_checkpoint_load(ms_ctx *ctx, const char *path, int population, int *gen, double *pop,
				       uint64_t rng[4]);

/**
 * Plays games in parallel: game k is params a[k] vs b[k] on maps[map[k]]
 * (a is player 1); winners into out_winner[k]. Results do not depend on
 * `threads`.
 */
MS_EXTERN int ms_pw_play_many(ms_ctx *ctx, const ms_pw_state *const *maps, const int *map,
			      const double *const *a, const double *const *b, int n, int max_turns,
			      int threads, int *out_winner);

#ifdef __cplusplus
}
#endif
#endif
