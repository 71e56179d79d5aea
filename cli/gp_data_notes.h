/* What glevo gp says about a training set before its run (gp_data_notes.c). */
#ifndef GLEVO_CLI_GP_DATA_NOTES_H
#define GLEVO_CLI_GP_DATA_NOTES_H

#include "glevo/gp.h"

/* Columns that hold one value, said once on stderr. */
void note_constant_columns(const char *cmd, const glevo_gp_data *d);

#endif
