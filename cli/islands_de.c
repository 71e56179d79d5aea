/* glevo de --islands: differential evolution's engine and JSON fields for the islands front
 * end. Each island has the whole --pop and --max-evals; the run ends when their budgets are
 * spent or an island's error value falls below --target-efv. */
#include <math.h>
#include <stdlib.h>

#include "glevo/checkpoint.h"
#include "islands.h"

typedef struct de_island {
    glevo_de_params params, changes;
    glevo_de *de;
} de_island;

#ifdef GLEVO_HAVE_MPI
/* A float the engine used (a checkpoint stores F and CR as such), as the shortest decimal
 * that is that float: 0.3, not 0.30000001192092896. */
static double shortest(float f)
{
    char buf[32];
    for (int digits = 1; digits < 10; ++digits) {
        snprintf(buf, sizeof buf, "%.*g", digits, (double)f);
        if ((float)strtod(buf, NULL) == f) break;
    }
    return strtod(buf, NULL);
}

static glevo_status create(void *user, uint32_t seed, const char *resume, glevo_island *out)
{
    de_island *di = user;
    di->params.seed = seed;
    /* A typed --seed is the job's: this island's is seed + rank, as in its checkpoint. */
    if (di->changes.seed) di->changes.seed = seed ? seed : (uint32_t)GLEVO_ZERO;
    glevo_status st = resume ? glevo_de_load(resume, &di->changes, &di->de)
                             : glevo_de_create(&di->params, &di->de);
    /* What the JSON names comes from the checkpoint when the run was resumed. */
    char v[64];
    if (!st && resume && glevo_checkpoint_param(resume, "param.F", v, sizeof v) == GLEVO_OK)
        di->params.F = shortest(strtof(v, NULL));
    if (!st && resume && glevo_checkpoint_param(resume, "param.CR", v, sizeof v) == GLEVO_OK)
        di->params.CR = strtod(v, NULL) == 0 ? GLEVO_DE_CR_ZERO : shortest(strtof(v, NULL));
    if (!st && resume && glevo_checkpoint_param(resume, "param.strategy", v, sizeof v) == GLEVO_OK &&
        glevo_de_strategy_parse(v) >= 0)
        di->params.strategy = (glevo_de_strategy)glevo_de_strategy_parse(v);
    if (!st && resume && glevo_checkpoint_param(resume, "param.shifted", v, sizeof v) == GLEVO_OK)
        di->params.no_shift = !atoi(v);
    if (!st) *out = glevo_island_de(di->de);
    return st;
}
#else
static const island_create_fn create = islands_create_unavailable;
#endif

static void destroy(void *user)
{
    de_island *di = user;
    glevo_de_destroy(di->de);
    di->de = NULL;
}

static void json(void *user, json_writer *w, double best_fitness, const double *best_x)
{
    (void)best_x;
    const de_island *di = user;
    const glevo_problem *pr = glevo_de_problem(di->de);
    json_string(w, "strategy", glevo_de_strategy_name(di->params.strategy));
    json_string(w, "problem", pr->name);
    json_int(w, "dim", glevo_de_dim(di->de));
    json_int(w, "pop", glevo_de_pop(di->de));
    glevo_de_params p = glevo_de_params_defaults(&di->params);
    json_number(w, "F", p.F);
    json_number(w, "CR", p.CR);
    json_bool(w, "shifted", !p.no_shift && pr->cec_shift_file);
    if (p.target_efv > 0) json_number(w, "target_efv", p.target_efv);
    if (!pr->has_optimum) {
        json_null(w, "efv");
    } else {
        double e = best_fitness - glevo_problem_optimum(pr, glevo_de_dim(di->de));
        json_number(w, "efv", pr->direction == GLEVO_MAXIMIZE ? -e : e);
    }
}

int islands_de(const glevo_de_params *params, const glevo_de_params *changes,
               const common_opts *c, const island_opts *o, const char *trace, run_control *ctl)
{
    glevo_de_params p = glevo_de_params_defaults(params);
    de_island di = {.params = *params, .changes = *changes};
    island_family f = {.command = "de", .population = p.pop, .generations = 0,
                       .report_every = p.check_every, .create = create, .destroy = destroy,
                       .json = json, .user = &di};
    return islands_main(&f, c, o, trace, ctl);
}
