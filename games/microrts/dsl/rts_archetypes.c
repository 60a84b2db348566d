/*
 * The archetypes (rts_dsl.h, ms_rts_archetype): plain rushes in the DSL,
 * screened by the pre-game search after the shipped programs, and
 * candidates of portfolios that ask for them. On a map
 * unlike every map of the index, the shipped programs can all lose to the
 * rushes (chambers32x32: the best of them scored 0.18 against the field),
 * while a six-line light rush beats all four in both seats; SA from there
 * beats SA from the best shipped program in the same time.
 *
 * Each harvests with one to three workers, keeps one more worker than it
 * harvests with (for the barracks), builds one barracks toward the enemy
 * and sends every unit at the closest enemy.
 */
#include <stddef.h>

#include "microsynth/rts_dsl.h"

#define RUSH(unit, harvest, workers)                                                                       \
	"for(Unit u){\n"                                                                                   \
	"\tu.harvest(" #harvest ")\n"                                                                      \
	"\tu.build(Barracks,EnemyDir,1)\n"                                                                 \
	"\tu.train(" #unit ",EnemyDir,100)\n"                                                              \
	"\tu.train(Worker,EnemyDir," #workers ")\n"                                                        \
	"\tu.attack(Closest)\n"                                                                            \
	"}\n"

static const char *const archetypes[] = {
	RUSH(Light, 2, 3),  RUSH(Light, 1, 2),  RUSH(Light, 3, 4),  RUSH(Ranged, 2, 3), RUSH(Ranged, 1, 2),
	RUSH(Heavy, 2, 3),  RUSH(Heavy, 1, 2),
	/* the worker rush: every worker but one harvester fights */
	"for(Unit u){\n"
	"\tu.harvest(1)\n"
	"\tu.train(Worker,EnemyDir,100)\n"
	"\tu.attack(Closest)\n"
	"}\n",
};

const char *ms_rts_archetype(int i)
{
	return i >= 0 && i < (int)(sizeof archetypes / sizeof *archetypes) ? archetypes[i] : NULL;
}
