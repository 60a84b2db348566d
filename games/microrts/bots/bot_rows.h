/*
 * The native bots, one row each (an X-macro): name, the Java class it
 * reproduces, its constructor and the constructor's argument, and whether
 * the jar draws unseeded numbers (CoacAI's and mayari's shuffles; TMA draws
 * none). bot.c expands the registry from it and the factory the native rows
 * of MicroRTS's agent table (ms_rts_agents), so both are one table.
 */
#ifndef MS_BOT_ROWS_H
#define MS_BOT_ROWS_H

#define BOT_ROWS(X)                                                              \
	X("WorkerRush", "ai.abstraction.WorkerRush", bot_rush_new, NULL, 0)      \
	X("LightRush", "ai.abstraction.LightRush", bot_rush_new, "Light", 0)     \
	X("HeavyRush", "ai.abstraction.HeavyRush", bot_rush_new, "Heavy", 0)     \
	X("RangedRush", "ai.abstraction.RangedRush", bot_rush_new, "Ranged", 0)  \
	X("PassiveAI", "ai.PassiveAI", bot_passive_new, NULL, 0)                 \
	X("RandomBiasedAI", "ai.RandomBiasedAI", bot_random_biased_new, NULL, 0) \
	X("RandomAI", "ai.RandomAI", bot_random_new, NULL, 0)                    \
	X("CoacAI", "ai.coac.CoacAI", bot_coac_new, NULL, 1)                     \
	X("mayari", "mayariBot.mayari", bot_mayari_new, NULL, 1)                 \
	X("TMA", "ai.tma.TMA", bot_tma_new, NULL, 0)

#endif
