/* The (size, error) front of a GP run's last generation as reported models, with the run's
 * printed model (gp_front.c). */
#ifndef GLEVO_CLI_GP_FRONT_H
#define GLEVO_CLI_GP_FRONT_H

#include "cli.h"
#include "glevo/gp.h"

typedef struct gp_front_entry {
    int nodes;
    double error;
    char *sexpr, *infix; /* malloc'd */
} gp_front_entry;

typedef struct gp_front {
    gp_front_entry *entries; /* smallest first, each of less error than the one before */
    int count;
} gp_front;

/* reported (may be NULL): the run's printed model, which joins the front where no model of
 * the last generation beats it. */
glevo_status gp_front_build(const glevo_gp *gp, const glevo_gp_data *data,
                            const glevo_gp_result *reported, gp_front *out);
void gp_front_free(gp_front *f);
/* "front": [{nodes, error, program, infix}, ...] */
void gp_front_json(json_writer *w, const gp_front *f);

#endif
