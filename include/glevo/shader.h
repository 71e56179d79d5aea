/* The shader library for front ends that draw with their own programs (the demo): programs
 * built from library files exactly as glevo's passes are (#include, file:line errors, embedded
 * or from GLEVO_SHADER_DIR). */
#ifndef GLEVO_SHADER_H
#define GLEVO_SHADER_H

#include "glevo/export.h"

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds a GL program on the current context from two library files (vertex_file NULL: the
 * full-screen triangle every pass uses), with glevo's compile errors naming file and line.
 * *program_id is the GL program name; the caller deletes it with glDeleteProgram. */
GLEVO_API glevo_status glevo_shader_program(const char *vertex_file, const char *fragment_file,
                                  unsigned *program_id);

#ifdef __cplusplus
}
#endif
#endif
