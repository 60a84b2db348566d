/* microsynth: the whole public API. */
#ifndef MICROSYNTH_H
#define MICROSYNTH_H

#include "microsynth/common.h"
#include "microsynth/arena.h"
#include "microsynth/jrandom.h"
#include "microsynth/rng.h"
#include "microsynth/spec.h"
#include "microsynth/microrts.h"
#include "microsynth/bots.h"
#include "microsynth/dsl.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/cantstop.h"
#include "microsynth/cantstop_dsl.h"
#include "microsynth/jvm.h"
#include "microsynth/synth.h"

#endif
