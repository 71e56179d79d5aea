/* The shader library for front ends that compile their own programs (the demo): the text of a
 * library file, composed exactly as glevo's passes get it (#version, #include expanded, #line
 * numbers), embedded or from GLEVO_SHADER_DIR. */
#ifndef GLEVO_SHADER_H
#define GLEVO_SHADER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Composed source of `file` (e.g. "demo/panel.glsl"), or NULL with glevo_last_error set.
 * The caller frees it with free(). */
char *glevo_shader_text(const char *file);

#ifdef __cplusplus
}
#endif
#endif
