/*
 * Settlers of Catan (spec/catan.md): the base game for 2-4 players under two
 * rule profiles, `catanatron` (the PyPI engine catanatron 3.2.1, proven by
 * replaying its recorded games) and `thesis` (the TC2 simulator of Paz &
 * Rubin's thesis); boards from catanatron's tile table (JSON), from a
 * JSettlers v1 BOARDLAYOUT message, or shuffled from a seed.
 *
 * A board is immutable and shared by every state played on it. A state is a
 * flat struct (a clone is an assignment) pointing at its board. Actions are
 * small values; chance outcomes (dice, card drawn, card stolen, cards
 * discarded) are fields of the action, so an action can be applied with a
 * forced outcome (a replay) or with the outcome left open (-1) and drawn
 * from the caller's generator.
 *
 * Conventions. Seats 0..n-1. Resources in catanatron's order: wood, brick,
 * sheep, wheat, ore (0-4). Development cards: knight, year of plenty,
 * monopoly, road building, victory point (0-4). Land hexes 0-18 in the
 * board's order, nodes 0-53, edges 0-71 (a board names an edge by its two
 * nodes). Functions that can fail return 0 or a negative MS_E* code and
 * leave a message naming what and where in the context.
 */
#ifndef MICROSYNTH_CATAN_H
#define MICROSYNTH_CATAN_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "microsynth/common.h"
#include "microsynth/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_CATAN_HEXES 19
#define MS_CATAN_NODES 54
#define MS_CATAN_EDGES 72
#define MS_CATAN_MAX_PLAYERS 4
#define MS_CATAN_MAX_ACTIONS 320 /**< bound on a legal list (largest seen: 54) */
#define MS_CATAN_MAX_COMPONENTS 24

enum { MS_CATAN_WOOD, MS_CATAN_BRICK, MS_CATAN_SHEEP, MS_CATAN_WHEAT, MS_CATAN_ORE };
enum { MS_CATAN_KNIGHT, MS_CATAN_YOP, MS_CATAN_MONOPOLY, MS_CATAN_ROAD_BUILDING, MS_CATAN_VP_CARD };

/** Prompts, as catanatron names them. */
enum {
	MS_CATAN_P_INITIAL_SETTLEMENT,
	MS_CATAN_P_INITIAL_ROAD,
	MS_CATAN_P_PLAY_TURN,
	MS_CATAN_P_DISCARD,
	MS_CATAN_P_MOVE_ROBBER,
	MS_CATAN_P_OVER
};

/** Action types. */
enum {
	MS_CATAN_ROLL,
	MS_CATAN_MOVE_ROBBER,
	MS_CATAN_DISCARD,
	MS_CATAN_BUILD_ROAD,
	MS_CATAN_BUILD_SETTLEMENT,
	MS_CATAN_BUILD_CITY,
	MS_CATAN_BUY_DEV,
	MS_CATAN_PLAY_KNIGHT,
	MS_CATAN_PLAY_YOP,
	MS_CATAN_PLAY_MONOPOLY,
	MS_CATAN_PLAY_ROAD_BUILDING,
	MS_CATAN_MARITIME_TRADE,
	MS_CATAN_END_TURN,
	MS_CATAN_BANK_TRADE, /**< thesis agents' offers: give v[0..4], receive w[0..4]; never in a legal list */
	MS_CATAN_ACTION_TYPES
};

/**
 * An action. `v` by type (-1 = none / outcome not chosen yet):
 * ROLL: v0, v1 the dice. MOVE_ROBBER: v0 land hex, v1 victim seat, v2 the
 * stolen resource. DISCARD: v0..v4 cards discarded per resource (v0 = -1:
 * not chosen). BUILD_ROAD: v0 edge. BUILD_SETTLEMENT, BUILD_CITY: v0 node.
 * BUY_DEV: v0 the card drawn. PLAY_YOP: v0, v1 resources (v1 = -1: one card).
 * PLAY_MONOPOLY: v0 resource. MARITIME_TRADE: v0 resource given, v1 how many
 * (4, 3 or 2), v2 resource received. BANK_TRADE: v[] given, w[] received
 * per resource. Other types: none.
 */
typedef struct ms_catan_action {
	uint8_t type;
	uint8_t seat;
	int8_t v[5];
	int8_t w[5];
} ms_catan_action;

/* ---- rule profiles ------------------------------------------------------ */

/** The two named profiles (spec 3). */
enum { MS_CATAN_PROFILE_CATANATRON = 0, MS_CATAN_PROFILE_THESIS = 1 };

#define MS_CATAN_RULES_VERSION 1

/** Every rule difference between the profiles; fill with ms_catan_rules_profile. */
typedef struct ms_catan_rules {
	unsigned int version;   /**< MS_CATAN_RULES_VERSION */
	int profile;            /**< the profile these options started from */
	int bank_limit;         /**< 19 per resource, or 0: unlimited bank */
	int win_every_action;   /**< 1: win at once after any action; 0: at end of turn */
	int vps_to_win;         /**< 10 */
	int discard_limit;      /**< 7 */
	int turns_limit;        /**< 1000: the game stops without a winner */
	int deck_shuffled;      /**< 1: a shuffled list drawn from its end; 0: uniform draws */
	int dev_same_turn;      /**< 1: a card may be played in the turn it was bought */
	int road_lr_from_vp;    /**< Longest Road evaluated only once someone ended a turn with this many VP (0: always) */
	int discard_by_roller;  /**< thesis local quirk: the roller discards n times, nobody else */
	int monopoly_quirk;     /**< thesis: monopoly on resource r takes JSettlers index r+1 */
	int yop_quirk;          /**< thesis: year of plenty gives resource[count of brick]... (spec 3.2) */
	int knight_before_roll_only; /**< thesis action generator: no knight after the roll */
} ms_catan_rules;

/** Fills `r` with a profile's options. Returns MS_OK or MS_EINVAL. */
MS_EXTERN int ms_catan_rules_profile(ms_catan_rules *r, int profile);
/** Profile by name ("catanatron", "thesis"); -1 if unknown. */
MS_EXTERN int ms_catan_profile_by_name(const char *name);

/* ---- boards ------------------------------------------------------------- */

typedef struct ms_catan_board ms_catan_board;

/**
 * Reads catanatron's tile table: a JSON object with "tiles" (37 hexes in
 * catanatron's topology order, with coordinates, types, resources, numbers,
 * port directions and corner ids), as in a recording's header line. The
 * robber starts on the desert. Node ids are catanatron's.
 */
MS_EXTERN int ms_catan_board_from_json(ms_ctx *ctx, ms_catan_board **out, const char *text, size_t len);

/**
 * Reads a JSettlers v1 BOARDLAYOUT message ("1014|game,37 hexes,37 numbers,
 * robber"), e.g. the thesis board tc2. Node ids are this library's.
 */
MS_EXTERN int ms_catan_board_from_layout(ms_ctx *ctx, ms_catan_board **out, const char *text, size_t len);

/** The thesis's fixed board (tc2-board.json's message). */
MS_EXTERN int ms_catan_board_tc2(ms_ctx *ctx, ms_catan_board **out);

/** A standard board with terrains, numbers and ports shuffled from `seed`. */
MS_EXTERN int ms_catan_board_random(ms_ctx *ctx, ms_catan_board **out, uint64_t seed);

MS_EXTERN void ms_catan_board_free(ms_catan_board *b);

/** Hex facts: resource (-1 desert), dice number (0 desert), cube coordinate. */
MS_EXTERN int ms_catan_board_hex(const ms_catan_board *b, int hex, int *resource, int *number, int cube[3]);
/** The two nodes of an edge. */
MS_EXTERN void ms_catan_board_edge(const ms_catan_board *b, int edge, int *a, int *c);
/** Edge joining nodes a and c, or -1. */
MS_EXTERN int ms_catan_board_edge_of(const ms_catan_board *b, int a, int c);
/** Port of a node: -1 none, 0-4 a 2:1 port of that resource, 5 a 3:1 port. */
MS_EXTERN int ms_catan_board_port(const ms_catan_board *b, int node);
/** Land hexes around a node (1-3); writes their indices to hexes[]. */
MS_EXTERN int ms_catan_board_node_hexes(const ms_catan_board *b, int node, int hexes[3]);

/* ---- state -------------------------------------------------------------- */

/** One seat's public and private counters (catanatron's player_state). */
typedef struct ms_catan_player {
	int16_t vp;            /**< public victory points */
	int16_t actual_vp;     /**< public + victory point cards */
	uint8_t roads_left, settlements_left, cities_left;
	uint8_t has_road, has_army, has_rolled, played_dev;
	uint8_t longest;       /**< longest road length as last computed */
	int16_t res[5];
	uint8_t dev[5];        /**< development cards in hand */
	uint8_t dev_new[5];    /**< of which bought this turn (thesis rule) */
	uint8_t played[5];
	uint8_t last_settlement;
	uint8_t n_settlements_built; /**< settlements placed (setup: 1st or 2nd) */
} ms_catan_player;

/** A game state. Copy by assignment; `board` is shared, not owned. */
typedef struct ms_catan_state {
	const ms_catan_board *board;
	ms_catan_rules rules;
	uint8_t n;              /**< players */
	uint8_t cur;            /**< seat that decides next */
	uint8_t turn_seat;      /**< seat whose turn it is */
	uint8_t prompt;
	uint8_t initial_phase;
	uint8_t road_building;  /**< free roads pending (Road Building) */
	uint8_t free_roads;
	uint8_t robber;         /**< land hex */
	int8_t winner;          /**< -1 none */
	int8_t road_holder;     /**< catanatron's board-level Longest Road record */
	uint8_t road_length;
	uint8_t lr_active;      /**< thesis: Longest Road is being evaluated */
	uint8_t discard_round;  /**< thesis: discard decisions made in this round */
	int16_t turns;          /**< catanatron's num_turns */
	int16_t bank[5];
	uint8_t deck_len;
	uint8_t deck[25];       /**< shuffled deck, drawn from the end (catanatron) */
	uint8_t deck_count[5];  /**< cards left per type */
	uint8_t road_len[MS_CATAN_MAX_PLAYERS]; /**< catanatron's road_lengths */
	uint8_t node_owner[MS_CATAN_NODES];     /**< 0 none, else seat+1 */
	uint8_t node_city[MS_CATAN_NODES];
	uint8_t edge_owner[MS_CATAN_EDGES];     /**< 0 none, else seat+1 */
	uint64_t buildable;     /**< nodes still open to settlements (distance rule) */
	uint8_t n_comp[MS_CATAN_MAX_PLAYERS];
	uint64_t comp[MS_CATAN_MAX_PLAYERS][MS_CATAN_MAX_COMPONENTS]; /**< road components (node sets) */
	ms_catan_player p[MS_CATAN_MAX_PLAYERS];
} ms_catan_state;

/**
 * Starts a game: `n` players (2-4), seat 0 places first, the robber on the
 * desert. With rules->deck_shuffled the deck is shuffled from *rng (a
 * SplitMix64 state) unless `deck` (25 card types, drawn from the end) is given.
 */
MS_EXTERN int ms_catan_init(ms_ctx *ctx, ms_catan_state *s, const ms_catan_board *b, const ms_catan_rules *rules,
			    int n, const uint8_t *deck, uint64_t *rng);

/** Writes the legal actions of the seat to move into out[]; returns their count (0 when over). */
MS_EXTERN int ms_catan_legal(const ms_catan_state *s, ms_catan_action *out);

/**
 * Applies `a` (which must be legal; chance fields may be forced or -1) and
 * writes the action with its outcome to `done` (may be NULL). Outcomes left
 * open are drawn from *rng. Returns MS_OK, or MS_EILLEGAL with a message if
 * a forced outcome is impossible (e.g. a stolen card the victim lacks).
 */
MS_EXTERN int ms_catan_apply(ms_ctx *ctx, ms_catan_state *s, const ms_catan_action *a, uint64_t *rng,
			     ms_catan_action *done);

/** 1 when the game is over (a winner or the turn limit). */
MS_EXTERN int ms_catan_over(const ms_catan_state *s);
/** Resource cards in a seat's hand. */
MS_EXTERN int ms_catan_hand(const ms_catan_state *s, int seat);
/** Uniform integer in [0, n) from a SplitMix64 state; n >= 1. */
MS_EXTERN uint32_t ms_catan_rand(uint64_t *rng, uint32_t n);

/* ---- agents ------------------------------------------------------------- */

/**
 * The Simple agent's quirks (spec 5.1), each on by default as in the thesis
 * code: the port clause of the setup filter, Year of Plenty's "2 lumber"
 * choice when one resource is scarcest, the Largest-Army checks that stop
 * buying and using cards, the forced Knight before the roll.
 */
#define MS_CATAN_SIMPLE_OPTIONS_VERSION 1

typedef struct ms_catan_simple_options {
	unsigned int version; /**< MS_CATAN_SIMPLE_OPTIONS_VERSION */
	int port_clause;
	int yop_lumber_bug;
	int army_blocks_cards;
	int forced_knight;
	/** Playouts of a searching agent's own seat (spec 5.3.d): its bank trade is the first
	 *  tree trade, Monopoly and Year of Plenty uniform among the tree's 5 and 25 options. */
	int tree_variants;
} ms_catan_simple_options;

/**
 * Every quirk on, tree_variants off (version: MS_CATAN_SIMPLE_OPTIONS_VERSION); 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_catan_simple_options_init(ms_catan_simple_options *opts, unsigned int version);

/**
 * The Simple agent's choice for the seat to move (spec 5.1), drawing from
 * *rng. `self_has_army`: whether the searching agent holds Largest Army (in
 * a Simple agent's own games: the seat itself; -1 means "the seat itself").
 */
MS_EXTERN void ms_catan_simple_act(const ms_catan_state *s, const ms_catan_simple_options *o, int self_has_army,
				   uint64_t *rng, ms_catan_action *out);

/** The thesis's fast estimate E of an action (spec 5.3.c), from the state after it. */
MS_EXTERN int ms_catan_estimate(const ms_catan_state *after, const ms_catan_action *a);

typedef struct ms_catan_agent ms_catan_agent;

/**
 * An agent by name: "random", "simple[:-port][:-yop][:-army][:-knight]",
 * "mcts:N[:all]", "uct:N[:c][:all]" (":all": the thesis's preSelect = False,
 * cities and settlements listed beside the other actions), "alphabeta[:depth]"
 * (2 players; default depth 2; 20,000 nodes per decision at most). Seeded
 * and deterministic. Returns MS_OK or MS_EINVAL with a message.
 */
MS_EXTERN int ms_catan_agent_new(ms_ctx *ctx, ms_catan_agent **out, const char *spec, uint64_t seed);

/** A row of Catan's agent table (microsynth/spec.h): the form, and its maker from the whole spec, its
 *  argument and a seed (what ms_catan_agent_new calls). */
typedef struct ms_catan_agent_row {
	ms_spec_form form;
	int (*make)(ms_ctx *ctx, ms_catan_agent **out, const char *spec, const char *arg, uint64_t seed);
} ms_catan_agent_row;

/** The agents' rows (*n of them): random, simple, mcts, uct, alphabeta. */
MS_EXTERN const ms_catan_agent_row *ms_catan_agents(int *n);
MS_EXTERN void ms_catan_agent_free(ms_catan_agent *a);
/** The agent's action for the seat to move in `s`. */
MS_EXTERN int ms_catan_agent_act(ms_ctx *ctx, ms_catan_agent *a, const ms_catan_state *s, ms_catan_action *out);
/** Decisions that ran a search, and tree nodes built, since creation. */
MS_EXTERN void ms_catan_agent_counters(const ms_catan_agent *a, long *searches, long *nodes);

/** One finished game, per seat where it applies. */
typedef struct ms_catan_result {
	int winner;    /**< seat, -1 none */
	int turns;     /**< end-of-turn count after the setup (the thesis's t) */
	int steps;     /**< actions applied */
	int vp[MS_CATAN_MAX_PLAYERS], roads[MS_CATAN_MAX_PLAYERS], settlements[MS_CATAN_MAX_PLAYERS];
	int cities[MS_CATAN_MAX_PLAYERS], knights[MS_CATAN_MAX_PLAYERS];
	int longest_road[MS_CATAN_MAX_PLAYERS], largest_army[MS_CATAN_MAX_PLAYERS];
} ms_catan_result;

/** Plays one game, agents[i] in seat i, chance from `seed`. */
MS_EXTERN int ms_catan_play(ms_ctx *ctx, const ms_catan_board *b, const ms_catan_rules *rules, int n,
			    ms_catan_agent **agents, uint64_t seed, ms_catan_result *out);

/* ---- replay of catanatron recordings ------------------------------------ */

/** Totals of a replay. */
typedef struct ms_catan_replay_stats {
	long games, steps, divergences, legal_mismatches;
} ms_catan_replay_stats;

/**
 * Replays one recorded game (catanatron-3.2.1-steps/1, gzip or plain JSON
 * lines): at every step compares the legal set and the state digest with the
 * recording, applies the recorded action with its outcome, and checks the end
 * line. A game stops at its first divergence; `report` (may be NULL) gets one
 * line per mismatch. Adds to *stats. Returns MS_OK (mismatches are counted,
 * not errors) or an error for unreadable or malformed input.
 */
MS_EXTERN int ms_catan_replay_file(ms_ctx *ctx, const char *path, ms_catan_replay_stats *stats,
				   void (*report)(void *ud, const char *line), void *ud);

/**
 * The bridge's engine side: reads JSON lines from `in`, each
 * {"start": header (first), "actions": [new logged actions with outcomes],
 * "legal": [catanatron's legal actions]}, keeps a replica of the game by
 * applying the actions with their outcomes, asks the agent, and writes
 * {"pick": index into legal}. *fallbacks counts decisions whose action had no
 * legal equivalent (index 0 was sent). Returns at end of input.
 */
MS_EXTERN int ms_catan_serve(ms_ctx *ctx, const char *agent_spec, uint64_t seed, FILE *in, FILE *out,
			     long *fallbacks);

/* ---- a JSettlers server's games (tools/catan_jsettlers.py) ---------------- */

/**
 * The engine side of the JSettlers client: reads JSON lines from `in`. A line
 * {"layout": "1014|game,37 hexes,37 numbers,robber"} (JSettlers v1
 * BOARDLAYOUT) sets the board and is answered with {"nodes": [the JSettlers
 * coordinate of each node]}. Every other line is a snapshot of the game at
 * one of our decisions, in JSettlers's terms: "first" (its first player),
 * "me", "current", "state" (SOCGame's), "rolled", "played_dev", "robber"
 * (hex coordinate), "turns" (turns ended after the setup), "longest" and
 * "largest" (seats or -1), "last_settlement" (setup roads), "deck" (cards left
 * by our type order), and "players": per seat "settlements", "cities" (node
 * coordinates), "roads" (edge coordinates), "res" (clay, ore, sheep, wheat,
 * wood), "dev", "dev_new" (bought this turn), "played" (by our type order).
 * Cards the client cannot see must be filled in (determinized) by it. The
 * answer: {"do": roll|end|buy|road|settlement|city|robber|discard|knight|yop|
 * monopoly|roadbuilding|trade|none, "coord", "victim", "res", "give", "get"}
 * with coordinates, seats and resources in JSettlers's terms ("res" of
 * monopoly: its resource code 1-5). The state is played under the thesis
 * profile with each player over the limit discarding (the server asks each)
 * and Longest Road from the first road on (as the server awards it).
 */
MS_EXTERN int ms_catan_js_serve(ms_ctx *ctx, const char *agent_spec, uint64_t seed, FILE *in, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
