/* glevo: evolutionary algorithms as GLSL render passes (render-to-texture GPGPU).
 * The umbrella header: every public header of the library, so that a program needs one
 * #include <glevo/glevo.h>. The headers can also be included one by one. */
#ifndef GLEVO_GLEVO_H
#define GLEVO_GLEVO_H

#include "glevo/status.h"
#include "glevo/backend.h"
#include "glevo/context.h"
#include "glevo/shader.h"
#include "glevo/rng.h"
#include "glevo/rng_source.h"
#include "glevo/bits.h"
#include "glevo/problem.h"
#include "glevo/checkpoint.h"
#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/gp.h"
#include "glevo/dsmga.h"
#include "glevo/snapshot.h"
#include "glevo/sheet.h"
#include "glevo/output.h"

#endif
