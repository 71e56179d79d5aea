/* What glevo gp says about a training set before its run. */
#include <stdio.h>

#include "gp_data_notes.h"

/* Columns that hold one value, said once: the target's model is then that constant, and an
 * input that never changes carries nothing a program could use. */
void note_constant_columns(const char *cmd, const glevo_gp_data *d)
{
    int cases = glevo_gp_data_cases(d), vars = glevo_gp_data_vars(d);
    for (int v = 0; v <= vars; ++v) {
        const float *x = v < vars ? glevo_gp_data_row(d, v) : glevo_gp_data_target(d);
        int c = 1;
        while (c < cases && x[c] == x[0]) ++c;
        if (c < cases || cases < 2) continue;
        if (v == vars)
            fprintf(stderr, "glevo %s: the target '%s' is %g in every row: its model is that "
                    "constant\n", cmd, glevo_gp_data_target_name(d), (double)x[0]);
        else
            fprintf(stderr, "glevo %s: column '%s' is %g in every row: no program can use it\n",
                    cmd, glevo_gp_data_var_name(d, v), (double)x[0]);
    }
}
