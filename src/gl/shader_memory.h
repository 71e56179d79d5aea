/* Shader files held in memory under a name instead of on disk: what a front end registers
 * when its user gives GLSL as text (glevo_problem_from_glsl_source). The composer looks a
 * name up here before the disk, and errors name it like a file. */
#ifndef GLEVO_SHADER_MEMORY_H
#define GLEVO_SHADER_MEMORY_H

#include "glevo/status.h"

/* Registers text under a name derived from `name`: `name` itself when it is free or already
 * holds the same text, else "name#2", "name#3", ... so that two live problems never share a
 * name. The registered name (owned by the registry, valid until the process ends) is
 * written to *key. */
glevo_status shader_memory_register(const char *name, const char *text, const char **key);
/* A malloc'd copy of the text registered under key, or NULL when there is none. */
char *shader_memory_text(const char *key);

#endif
