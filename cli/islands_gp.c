/* glevo gp --islands: genetic programming's engine and output for the islands front end. Every
 * rank loads the same --data; island i runs the plain run with seed + i, and its programs
 * travel as glevo_island_gp's blocks. Rank 0 decodes the best island's block back into the
 * program it prints (and scores on --test, with the CPU interpreter: every backend gives the
 * same bits). */
#include <math.h>
#include <stdlib.h>

#include "islands.h"

typedef struct gp_island {
    glevo_gp_params params, changes;
    const glevo_gp_data *data, *test;
    const char *data_path;
    glevo_gp *gp;
} gp_island;

#ifdef GLEVO_HAVE_MPI
static glevo_status create(void *user, uint32_t seed, const char *resume, glevo_island *out)
{
    gp_island *gi = user;
    gi->params.seed = seed;
    /* A typed --seed is the job's: this island's is seed + rank, as in its checkpoint. */
    if (gi->changes.seed) gi->changes.seed = seed ? seed : (uint32_t)GLEVO_ZERO;
    glevo_status st = resume ? glevo_gp_load(resume, &gi->changes, gi->data, &gi->gp)
                             : glevo_gp_create(&gi->params, gi->data, &gi->gp);
    if (!st) *out = glevo_island_gp(gi->gp);
    return st;
}
#else
static const island_create_fn create = islands_create_unavailable;
#endif

static void destroy(void *user)
{
    gp_island *gi = user;
    glevo_gp_destroy(gi->gp);
    gi->gp = NULL;
}

/* The best island's program from its [error, block] row: text and, with --test, its error
 * there (NaN when the block does not decode, which glevo_gp_write_programs would refuse). */
typedef struct best_program {
    char *sexpr, *infix;
    int nodes;
    double test_error;
} best_program;

static best_program decode_best(const gp_island *gi, const double *best_x)
{
    const glevo_gp_params *p = glevo_gp_params_of(gi->gp);
    best_program b = {.test_error = NAN};
    uint32_t *codes = malloc(sizeof(uint32_t) * (size_t)p->max_size);
    float *consts = malloc(sizeof(float) * (size_t)p->max_size);
    glevo_gp_programs *progs = NULL;
    glevo_gp_result model = {0};
    int len = 0;
    /* The model a plain run reports (scaled, simplified: glevo_gp_model), scored on --test. */
    if (codes && consts &&
        !glevo_gp_program_decode(best_x + 1, p->max_size, 0, 0, codes, consts, &len) &&
        !glevo_gp_programs_create(&progs) && !glevo_gp_programs_add(progs, codes, len, consts) &&
        !glevo_gp_model(p, gi->data, progs, 0, &model)) {
        b.sexpr = model.best_sexpr, b.infix = model.best_infix;
        model.best_sexpr = model.best_infix = NULL;
        b.nodes = model.best_nodes;
        glevo_gp_sums sums;
        if (gi->test && !glevo_gp_evaluate_cpu(model.best, gi->test, p->eval.threads, &sums))
            b.test_error = glevo_gp_metric_value(p->metric, &sums, glevo_gp_data_cases(gi->test));
    }
    glevo_gp_result_free(&model);
    glevo_gp_programs_destroy(progs);
    free(codes), free(consts);
    return b;
}

static void json(void *user, json_writer *w, double best_fitness, const double *best_x)
{
    (void)best_fitness;
    const gp_island *gi = user;
    const glevo_gp_params *p = glevo_gp_params_of(gi->gp);
    best_program b = decode_best(gi, best_x);
    json_string(w, "problem", gi->data_path);
    json_string(w, "function_set", p->function_set == GLEVO_GP_CLASSIFICATION ? "classification"
                                                                                : "regression");
    json_string(w, "metric", glevo_gp_metric_name(p->metric));
    json_string(w, "best_program", b.sexpr ? b.sexpr : "");
    json_string(w, "best_infix", b.infix ? b.infix : "");
    json_int(w, "best_nodes", b.nodes);
    if (gi->test) json_number(w, "test_error", b.test_error);
    json_int(w, "pop", p->pop);
    json_int(w, "max_size", p->max_size);
    free(b.sexpr), free(b.infix);
}

static void text(void *user, double best_fitness, const double *best_x)
{
    const gp_island *gi = user;
    const glevo_gp_params *p = glevo_gp_params_of(gi->gp);
    best_program b = decode_best(gi, best_x);
    printf("best_program %s\ninfix        %s\n%-12s %.9g\n", b.sexpr ? b.sexpr : "",
           b.infix ? b.infix : "", glevo_gp_metric_name(p->metric), best_fitness);
    if (gi->test) printf("test_%-7s %.9g\n", glevo_gp_metric_name(p->metric), b.test_error);
    free(b.sexpr), free(b.infix);
}

int islands_gp(const glevo_gp_params *params, const glevo_gp_params *changes,
               const glevo_gp_data *data, const char *data_path, const glevo_gp_data *test,
               const common_opts *c, const island_opts *o, const char *trace, run_control *ctl)
{
    glevo_gp_params p = glevo_gp_params_defaults(params);
    gp_island gi = {.params = *params, .changes = *changes, .data = data, .test = test,
                    .data_path = data_path};
    /* The engine ends the run (its generations or --target-error, seen at the next
     * synchronisation point); a GP generation evaluates a whole population on the data, so a
     * synchronisation every generation costs little and stops a job at the generation an
     * island reached the target. */
    island_family f = {.command = "gp", .population = p.pop, .generations = 0,
                       .report_every = 1, .create = create, .destroy = destroy, .json = json,
                       .opaque_x = true, .text = text, .user = &gi};
    return islands_main(&f, c, o, trace, ctl);
}
