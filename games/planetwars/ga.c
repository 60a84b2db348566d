/* placeholder */
#include "games/planetwars/pw_internal.h"
