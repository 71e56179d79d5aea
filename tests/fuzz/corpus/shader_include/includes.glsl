vec4 problem_init() { return vec4(0.0); }
#include <problem>
#include "rng/philox.glsl"
float f() { return 1.0; }
