/* glevo cga --islands: the cellular GA's engine and JSON fields for the islands front end. */
#include <math.h>

#include "islands.h"

typedef struct cga_island {
    glevo_cga_params params, changes;
    glevo_cga *cga;
    double optimum, tolerance;
} cga_island;

#ifdef GLEVO_HAVE_MPI
static glevo_status create(void *user, uint32_t seed, const char *resume, glevo_island *out)
{
    cga_island *ci = user;
    ci->params.seed = seed;
    /* A typed --seed is the job's: this island's is seed + rank, as in its checkpoint. */
    if (ci->changes.seed) ci->changes.seed = seed ? seed : (uint32_t)GLEVO_ZERO;
    glevo_status st = resume ? glevo_cga_load(resume, &ci->changes, &ci->cga)
                             : glevo_cga_create(&ci->params, &ci->cga);
    if (!st) *out = glevo_island_cga(ci->cga);
    return st;
}
#else
static const island_create_fn create = islands_create_unavailable;
#endif

static void destroy(void *user)
{
    cga_island *ci = user;
    glevo_cga_destroy(ci->cga);
    ci->cga = NULL;
}

static void json(void *user, json_writer *w, double best_fitness, const double *best_x)
{
    (void)best_x;
    const cga_island *ci = user;
    const glevo_cga_params *p = glevo_cga_params_of(ci->cga);
    json_string(w, "problem", p->problem->name);
    json_int(w, "dim", p->dim);
    json_int(w, "grid_width", p->width);
    json_int(w, "grid_height", p->height);
    json_int(w, "bits", p->bits);
    json_number(w, "pc", p->pc);
    json_number(w, "pm", p->pm);
    json_string(w, "rng", p->rng == GLEVO_RNG_TEXTURE ? "texture" : "philox");
    json_string(w, "mutation", glevo_cga_mutation_name(p->mutation));
    if (p->problem->has_optimum) {
        json_number(w, "optimum", ci->optimum);
        json_bool(w, "reached_optimum", fabs(best_fitness - ci->optimum) <= ci->tolerance);
    }
}

int islands_cga(const glevo_cga_params *params, const glevo_cga_params *changes,
                long long generations, bool has_target, double target, double tolerance,
                const common_opts *c, const island_opts *o, const char *trace, run_control *ctl)
{
    glevo_cga_params p = glevo_cga_params_defaults(params);
    cga_island ci = {.params = *params, .changes = *changes};
    ci.optimum = p.problem->has_optimum ? glevo_problem_optimum(p.problem, p.dim) : NAN;
    ci.tolerance = !isnan(tolerance) ? tolerance : 1e-4 * fmax(1.0, fabs(ci.optimum));
    island_family f = {.command = "cga", .population = p.width * p.height,
                       .generations = generations, .has_target = has_target, .target = target,
                       .report_every = p.report_every, .create = create, .destroy = destroy,
                       .json = json, .user = &ci};
    return islands_main(&f, c, o, trace, ctl);
}
