/*
 * A game-agnostic Monte Carlo tree search: UCT (UCB1) or Max-child
 * selection, one expansion per iteration, reward vectors with one entry per
 * player, chance nodes, priors for new nodes, playout and cut-off hooks, and
 * a node pool owned by the search. Games plug in as a struct of callbacks
 * (ms_mcts_game); Catan's MCTS/UCT agents and General Game Playing use it.
 *
 * The tree. Each node keeps the state reached by its move (so a chance
 * outcome sampled when the node was created stays fixed in that node: one
 * determinisation per node), the player to move there, its visit count N
 * and the sum Q of the reward vectors backed up through it. An iteration
 * descends from the root: at a node with untried moves it expands one,
 * chosen uniformly, and stops there; at a fully expanded node it follows
 * the selection rule for the player to move at that node; at a chance node
 * it samples an outcome by the game's weights (creating that child if new).
 * A playout runs from the new node's state, and its reward vector is added
 * to Q (and 1 to N) of every node from the new one up to the root.
 *
 * Selection for player p at a node with N visits, child j with n_j, Q_j:
 *   MS_MCTS_UCB1:      Q_j[p] / n_j + c * sqrt(2 ln N / n_j)   (c = 0: Max child)
 *   MS_MCTS_MAX_CHILD: Q_j[p] / n_j
 *   MS_MCTS_MAX_SUM:   Q_j[p]   (the sum: with positive rewards the child
 *                      ahead after each child's first playout keeps every
 *                      later visit, so the choice rests on one playout per
 *                      move; TC2's MCTS agent as its thesis experiments ran)
 * Ties go to the earliest created child. A game's `select` callback replaces
 * the rule (e.g. per-role decoupled statistics at joint-move nodes: the
 * callback can walk the children with ms_mcts_child_first/next and read
 * their moves and statistics).
 *
 * Simultaneous moves: with a `choose` callback the game picks the move to
 * follow at every non-chance node (e.g. decoupled UCT, where each player
 * picks its own part of a joint move by UCB1 on its own statistics); the
 * core follows the child with that move, or creates it and stops there.
 *
 * Between searches the tree can be kept: ms_mcts_advance keeps the subtree
 * below a move of the root and ms_mcts_search_more runs iterations on it.
 *
 * Not provided: transpositions (the tree is a tree), open-loop search
 * (chance is either a chance node or frozen at expansion).
 *
 * Nothing here is global; every random draw comes from the search's own
 * SplitMix64 generator, seeded from the options and handed to callbacks.
 */
#ifndef MICROSYNTH_MCTS_H
#define MICROSYNTH_MCTS_H

#include <stddef.h>
#include <stdint.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_MCTS_MAX_PLAYERS 16
#define MS_MCTS_MAX_MOVE_SIZE 64
#define MS_MCTS_MAX_MOVES 1024

/** Returned by to_move for a chance node (outcomes sampled by weight). */
#define MS_MCTS_CHANCE (-1)
/** Returned by to_move for a joint-move node of simultaneous players. */
#define MS_MCTS_SIMULTANEOUS (-2)
/** Returned by `choose` after ms_mcts_choose_own: follow that move. */
#define MS_MCTS_CHOSE_OWN 0x7fffffff

typedef struct ms_mcts ms_mcts;

/**
 * A game. States are `state_size` bytes, copied with memcpy unless `copy`
 * is given; moves are `move_size` bytes (at most MS_MCTS_MAX_MOVE_SIZE),
 * compared with memcmp. `ud` is passed back to every callback. Required:
 * legal, apply, terminal, rewards, to_move. The others may be NULL.
 */
typedef struct ms_mcts_game {
	size_t state_size;
	size_t move_size;
	int n_players; /**< length of every reward vector (1..MS_MCTS_MAX_PLAYERS) */
	void *ud;

	/** Writes up to `max` moves (or chance outcomes) of `state`; returns how many, or < 0 on error. */
	int (*legal)(void *ud, const void *state, void *moves, int max);
	/** Applies `move` to `state` in place, drawing any chance from *rng. Returns 0 or < 0. */
	int (*apply)(void *ud, void *state, const void *move, uint64_t *rng);
	/** Non-zero when the game is over (no moves are asked of a terminal state). */
	int (*terminal)(void *ud, const void *state);
	/** The reward vector of a state: at the end of a playout, or a cut-off evaluation. Returns 0 or < 0. */
	int (*rewards)(void *ud, const void *state, double *r);
	/** Player to move (0..n_players-1), MS_MCTS_CHANCE or MS_MCTS_SIMULTANEOUS. */
	int (*to_move)(void *ud, const void *state);

	/** Chance nodes: the probability (any positive weights) of each outcome listed by legal. 0 or < 0. */
	int (*chance_weights)(void *ud, const void *state, const void *moves, int n, double *w);
	/**
	 * A new child's prior: writes its initial Q vector (zeros on entry) and
	 * may set *visits (0 on entry) for virtual visits. `player` is the player
	 * to move at the parent; `child` is the state after the move. 0 or < 0.
	 */
	int (*prior)(void *ud, const void *parent, const void *child, const void *move, int player, double *q,
		     int *visits);
	/**
	 * The playout: plays from `state` (a scratch copy it may change) and
	 * writes the reward vector. NULL: uniform random moves until terminal or
	 * `max_playout_steps`, then `rewards` (the cut-off evaluation).
	 */
	int (*playout)(void *ud, void *state, uint64_t *rng, double *r);
	/** Replaces the selection rule at a fully expanded node; returns the chosen child. */
	int (*select)(void *ud, ms_mcts *m, int node, int player, double c, uint64_t *rng);
	/** Called after each backup with the new node and the reward vector (history heuristics). 0 or < 0. */
	int (*on_backup)(void *ud, ms_mcts *m, int leaf, const double *r);
	/** Copies a state (NULL: memcpy). 0 or < 0 (then dst owns nothing). */
	int (*copy)(void *ud, void *dst, const void *src);
	/** Frees what a state owns (NULL: nothing). Cannot fail. */
	void (*release)(void *ud, void *state);
	/**
	 * Replaces both expansion order and selection at every non-chance node
	 * that is not terminal: `moves` holds the node's `n` legal moves (as
	 * legal() listed them, never consumed); returns the index of the move
	 * to follow (< 0: error). A new move's child is created and ends the
	 * descent; an existing one is descended into. A move outside the list
	 * (a joint move of a space too large to list, of which `legal` gave a
	 * sample) is followed when the callback passes it to
	 * ms_mcts_choose_own and returns MS_MCTS_CHOSE_OWN.
	 */
	int (*choose)(void *ud, ms_mcts *m, int node, const void *moves, int n, uint64_t *rng);
} ms_mcts_game;

/** Selection rules. */
enum { MS_MCTS_UCB1 = 0, MS_MCTS_MAX_CHILD = 1, MS_MCTS_MAX_SUM = 2 };

/* Version 2: the game's callbacks that compute (rewards, chance_weights, prior, on_backup, copy)
 * return int, 0 or a negative status that ends the search with that status and its message. */
#define MS_MCTS_OPTIONS_VERSION 2

typedef struct ms_mcts_options {
	unsigned int version;  /**< MS_MCTS_OPTIONS_VERSION */
	long iterations;       /**< playouts per search */
	int rule;              /**< MS_MCTS_UCB1, MS_MCTS_MAX_CHILD or MS_MCTS_MAX_SUM */
	double c;              /**< UCB1 exploration constant */
	int max_playout_steps; /**< cut-off of the default playout; 0: none */
	uint64_t seed;         /**< seeds the search's generator at ms_mcts_new */
} ms_mcts_options;

/**
 * Default options: 1000 iterations, UCB1, c = 1, no cut-off, seed 1 (version:
 * MS_MCTS_OPTIONS_VERSION); 0, or MS_EINVAL for a version this build does not know.
 */
MS_EXTERN int ms_mcts_options_init(ms_mcts_options *opts, unsigned int version);

/** Creates a search for `game` (copied). Returns MS_OK, MS_EINVAL or MS_ENOMEM. */
MS_EXTERN int ms_mcts_new(ms_ctx *ctx, ms_mcts **out, const ms_mcts_game *game, const ms_mcts_options *o);
MS_EXTERN void ms_mcts_free(ms_mcts *m);

/**
 * Builds a new tree from `root` and runs the iterations. Afterwards the tree
 * can be read (below) until the next search. Returns MS_OK or the first
 * error of a callback or allocation (with a message in the context).
 */
MS_EXTERN int ms_mcts_search(ms_mcts *m, const void *root);

/**
 * Keeps the subtree below the root's child reached by `move` as the tree
 * (renumbered from 0; the rest is freed). Returns 1 if that child existed,
 * 0 if it did not (the tree is then empty).
 */
MS_EXTERN int ms_mcts_advance(ms_mcts *m, const void *move);

/** 1 if a tree exists (after a search, or an advance that kept a subtree). */
MS_EXTERN int ms_mcts_has_tree(const ms_mcts *m);

/**
 * Runs the iterations on the current tree (kept by ms_mcts_advance), its
 * statistics included. MS_EINVAL if there is no tree.
 */
MS_EXTERN int ms_mcts_search_more(ms_mcts *m);

/** The generator (callbacks and agents may draw from it between searches, with microsynth/rng.h). */
MS_EXTERN uint64_t *ms_mcts_rng(ms_mcts *m);

/* ---- reading the tree (node ids; the root is 0; -1 = none) -------------- */

MS_EXTERN int ms_mcts_node_count(const ms_mcts *m);
MS_EXTERN int ms_mcts_parent(const ms_mcts *m, int node);
MS_EXTERN int ms_mcts_child_first(const ms_mcts *m, int node);
MS_EXTERN int ms_mcts_child_next(const ms_mcts *m, int child);
/** The move that led to the node (NULL for the root). */
MS_EXTERN const void *ms_mcts_move(const ms_mcts *m, int node);
/** The state at the node. */
MS_EXTERN const void *ms_mcts_state(const ms_mcts *m, int node);
MS_EXTERN int ms_mcts_player(const ms_mcts *m, int node);
MS_EXTERN int ms_mcts_visits(const ms_mcts *m, int node);
/** The sum of backed-up reward vectors (n_players entries). */
MS_EXTERN const double *ms_mcts_q(const ms_mcts *m, int node);
MS_EXTERN int ms_mcts_terminal(const ms_mcts *m, int node);
/** From inside `choose`: the move to follow when it returns MS_MCTS_CHOSE_OWN (move_size bytes). */
MS_EXTERN void ms_mcts_choose_own(ms_mcts *m, const void *move);
/** Untried moves left at the node (with `choose`: legal moves without a child). */
MS_EXTERN int ms_mcts_untried(const ms_mcts *m, int node);
/**
 * The node's move list: its untried moves (with `choose`: all its legal
 * moves; at chance nodes: the outcomes). Valid until the tree changes.
 */
MS_EXTERN const void *ms_mcts_node_moves(const ms_mcts *m, int node, int *n);
/**
 * The child of `node` the UCB1 rule picks for the node's player with
 * constant c (c = 0: highest mean, the final choice; under MS_MCTS_MAX_SUM
 * the highest sum, whatever c); -1 without children.
 */
MS_EXTERN int ms_mcts_best_child(const ms_mcts *m, int node, double c);
/** The child with most visits (ties: earliest); -1 without children. */
MS_EXTERN int ms_mcts_most_visited(const ms_mcts *m, int node);

#ifdef __cplusplus
}
#endif
#endif
