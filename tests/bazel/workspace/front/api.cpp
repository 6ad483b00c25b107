#include "fast/kernel.hpp"

#ifndef FRONT_SCALE
#error "the target's copts reach emberlint"
#endif

float api_scale(float x) { return fast::twice(x) * FRONT_SCALE; }
