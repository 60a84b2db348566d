/*
 * Planet Wars as a synthesis problem: a small DSL whose programs compute
 * the forecasting bot's target gain from the forecast's quantities, and
 * the problem the game-agnostic searches of synth.h optimise (Psi: the win
 * rate against an opponent bot over maps, both seats).
 *
 * A program is `gain = E`, E an arithmetic expression (+, -, *, max,
 * enemy ? E : E) over features of a source p and a target q (residue,
 * growth, dist, horizon, horizon - dist, ships, spare, f1, f2, f3: see
 * games/planetwars/forecast.c) and constants. The bot around it is the
 * forecasting bot (forecast, defence, one attack per planet of residue + 1
 * ships) with the program choosing the target. Programs are stored in the
 * generic token form (ms_dsl_print_tokens with ' ').
 */
#ifndef MICROSYNTH_PLANETWARS_SYNTH_H
#define MICROSYNTH_PLANETWARS_SYNTH_H

#include "microsynth/dsl.h"
#include "microsynth/planetwars.h"
#include "microsynth/synth.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The grammar (one per context user; free with ms_dsl_grammar_free). */
MS_EXTERN int ms_pw_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out);
/** The forecasting bot's original gain, -residue + (horizon - dist) * growth, as a program. */
MS_EXTERN const char *ms_pw_dsl_original_tokens(void);
/** A bot whose target gain is `prog` (not copied: it must outlive the bot). */
MS_EXTERN int ms_pw_bot_program(ms_ctx *ctx, ms_pw_bot *out, const ms_dsl_prog *prog);
/** Reads a program file: token form, `#` comment lines ignored; errors name the file. */
MS_EXTERN int ms_pw_dsl_load(ms_ctx *ctx, ms_dsl_prog *prog, const char *path);

typedef struct ms_pw_synth ms_pw_synth;

#define MS_PW_SYNTH_OPTIONS_VERSION 1

typedef struct ms_pw_synth_options {
	unsigned int version;                /**< MS_PW_SYNTH_OPTIONS_VERSION */
	const ms_pw_state *const *maps;      /**< the maps Psi plays (one shard each, both seats); kept */
	int nmaps;
	const double *opponent;              /**< the opponent's 32 parameters (NULL: the original) */
	int max_turns;                       /**< 200 */
	const char *maps_label;              /**< recorded in the fingerprint (e.g. "1,11,21") */
} ms_pw_synth_options;

/**
 * Zero-initialises `opts` and sets its version (MS_PW_SYNTH_OPTIONS_VERSION): 0, or MS_EINVAL for
 * a version this build does not know.
 */
MS_EXTERN int ms_pw_synth_options_init(ms_pw_synth_options *opts, unsigned int version);

/** The problem: Psi = (wins + draws / 2) / games against the opponent. */
MS_EXTERN int ms_pw_synth_new(ms_ctx *ctx, ms_pw_synth **out, const ms_pw_synth_options *o);
MS_EXTERN const ms_synth_problem *ms_pw_synth_problem(const ms_pw_synth *s);
MS_EXTERN const ms_dsl_grammar *ms_pw_synth_grammar(const ms_pw_synth *s);
MS_EXTERN void ms_pw_synth_free(ms_pw_synth *s);

/** Bots of the final check: the original forecasting bot, then the five example bots. */
#define MS_PW_FINAL_FIELD 6
/** Their names (ms_pw_bot_by_name), MS_PW_FINAL_FIELD of them. */
MS_EXTERN const char *const *ms_pw_final_field(void);
/**
 * The final check of a program, as `synth --game planetwars` reports it:
 * against each bot of the final field on each of the `n` maps, both seats,
 * MS_PW_MAX_TURNS; the opponent on map m is seeded with m. Adds wins, draws
 * and losses against field bot o to wdl[o][0..2].
 */
MS_EXTERN int ms_pw_synth_final(ms_ctx *ctx, const ms_dsl_prog *prog, const ms_pw_state *const *maps, int n,
				int wdl[MS_PW_FINAL_FIELD][3]);

#ifdef __cplusplus
}
#endif
#endif
