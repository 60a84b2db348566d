/*
 * Agents by spec, one template for every game. A game names its players
 * "NAME" or "NAME:ARG", ARG being the rest of the text, colons and all (a
 * file path, a nested spec, the game's own options). Each game exports a
 * table of agent rows, a struct whose first member is an ms_spec_form (the
 * name, whether it takes an argument, how help writes it, one line of help)
 * and whose next is the maker of the agent from the spec, its argument and a
 * seed (Pachi's engine table): ms_X_agents(&n) in the game's header.
 * ms_spec_find is the one decoder of specs, and the command line's help and
 * the games' "unknown agent" messages are written from the same rows
 * (ms_spec_list), so a new row is a new agent everywhere at once.
 */
#ifndef MICROSYNTH_SPEC_H
#define MICROSYNTH_SPEC_H

#include <stddef.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	MS_SPEC_NONE,     /**< NAME alone */
	MS_SPEC_NEEDED,   /**< NAME:ARG */
	MS_SPEC_OPTIONAL, /**< either */
};

/** What a row's spec looks like. */
typedef struct ms_spec_form {
	const char *name;
	int arg;           /**< MS_SPEC_NONE, MS_SPEC_NEEDED or MS_SPEC_OPTIONAL */
	const char *usage; /**< the form as lists write it ("mcts:N[:mean]"); NULL: the name */
	const char *help;  /**< one line: what the agent is (NULL: none) */
} ms_spec_form;

/**
 * The index of the row `spec` names among `n` rows `stride` bytes apart
 * (each starting with an ms_spec_form), with *arg the text after the first
 * ':' (NULL without one). -1 when no row has spec's NAME; -2 when one has
 * but the argument is missing (MS_SPEC_NEEDED) or unexpected (MS_SPEC_NONE).
 */
MS_EXTERN int ms_spec_find(const void *rows, int n, size_t stride, const char *spec, const char **arg);

/**
 * The rows' usages (their names where NULL) into `out`, `sep` between two
 * and `last_sep` (NULL: sep) before the last: "a, b or c". Returns the
 * length the whole list needs, as snprintf does (cut to size - 1).
 */
MS_EXTERN int ms_spec_list(char *out, size_t size, const void *rows, int n, size_t stride, const char *sep,
			   const char *last_sep);

/** Row i of `n` rows `stride` bytes apart. */
static inline const ms_spec_form *ms_spec_row(const void *rows, size_t stride, int i)
{
	return (const ms_spec_form *)(const void *)((const char *)rows + (size_t)i * stride);
}

#ifdef __cplusplus
}
#endif
#endif
