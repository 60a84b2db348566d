/* microsynth: the whole public API. */
#ifndef MICROSYNTH_H
#define MICROSYNTH_H

#include "microsynth/common.h"
#include "microsynth/arena.h"
#include "microsynth/jrandom.h"

#endif
