/* The compute driver of gp/fitness.glsl (resident.h): after a resident evaluation, one
 * work-group turns the evaluator's results into errors and fitness, checks their run marks
 * and picks the best and the elites, all into buffers the next breed reads in place; the host
 * reads them only when it reports (src/gp/engine.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/gpu.h"
#include "gp/breed/resident.h"

#define FIT_LANES 1024
#define HEAD_BYTES sizeof(gp_fit_head)

_Static_assert(sizeof(gp_fit_head) == 4 * GP_ELITE_MAX + 16 + 8 * GP_BEST_HISTORY,
               "gp_breed_in's std430 head");

static const gpu_slot fit_samplers[] = {{0}};
static const gpu_slot fit_buffers[] = {{"gp_results", 0}, {"gp_breed_stats", 0},
                                       {"gp_breed_in", 0}, {"gp_errors", 0},
                                       {"gp_affine_ab", 0}, {0}};

/* The block of shaders/gp/fitness.glsl (std140: the doubles first). */
typedef struct fit_uniforms {
    double cases, rcases, sum_y, sum_yy, limit, one;
    int32_t pop, metric, elites, nseg;
    float marks, stamp1;
    int32_t slot;   /* best_fit's for this generation */
    int32_t scaled; /* 0, or linear scaling's pass (gp_scaled_pass) */
} fit_uniforms;

static glevo_status build(gp_resident *r)
{
    if (r->fit_prog.id) return GLEVO_OK;
    char defines[256];
    snprintf(defines, sizeof defines,
             "#define FIT_LANES %d\n#define GP_ELITE_MAX %d\n#define GP_METRIC_MSE %d\n"
             "#define GP_METRIC_ACCURACY %d\n#define GP_BEST_HISTORY %d\n"
             "#define GP_SCALING_MIN_VAR %.17glf\n",
             FIT_LANES, GP_ELITE_MAX, (int)GLEVO_GP_MSE, (int)GLEVO_GP_ACCURACY, GP_BEST_HISTORY,
             GP_SCALING_MIN_VAR);
    glevo_status st = gpu_buffer_create(&r->errs, (size_t)r->pop * 8, NULL);
    if (!st)
        st = gpu_program_build(&r->fit_prog, &(gpu_program_desc){
                                   .name = "gp.fitness", .compute = "gp/fitness.glsl",
                                   .defines = defines, .samplers = fit_samplers,
                                   .buffers = fit_buffers, .uniform_size = sizeof(fit_uniforms)});
    return st;
}

glevo_status gp_resident_fitness_prebuild(gp_resident *r) { return build(r); }

glevo_status gp_resident_fitness(gp_resident *r, const gp_gpu_results *res,
                                 glevo_gp_metric metric, int cases, int elites, int generation,
                                 const gp_scaled_pass *scaled)
{
    glevo_status st = build(r);
    if (st) return st;
    fit_uniforms u = {.cases = cases, .rcases = 1.0 / cases, .pop = r->pop, .metric = (int)metric,
                      .elites = elites, .nseg = res->nseg, .marks = res->marks,
                      .stamp1 = 1.0f + (float)res->stamp,
                      .slot = generation % GP_BEST_HISTORY, .one = 1.0,
                      .scaled = scaled ? scaled->pass : 0,
                      .sum_y = scaled ? scaled->sum_y : 0, .sum_yy = scaled ? scaled->sum_yy : 0,
                      .limit = scaled ? scaled->limit : 0};
    gpu_pass pass = {.name = "gp.fitness", .program = &r->fit_prog};
    gpu_pass_buffer(&pass, 0, res->results);
    gpu_pass_buffer(&pass, 1, &r->stats);
    gpu_pass_buffer(&pass, 2, &r->in);
    gpu_pass_buffer(&pass, 3, &r->errs);
    /* (bound to something where unread) */
    gpu_pass_buffer(&pass, 4, scaled ? scaled->affine : &r->errs);
    pass.groups[0] = pass.groups[1] = pass.groups[2] = 1;
    gpu_pass_uniforms(&pass, &u, sizeof u);
    return gpu_pass_dispatch(&pass);
}

glevo_status gp_resident_read_fitness(gp_resident *r, double *err, double *fit, gp_fit_head *head)
{
    size_t n = (size_t)r->pop * 8;
    glevo_status st = GLEVO_OK;
    if (head) st = gpu_buffer_read(&r->in, 0, HEAD_BYTES, head);
    if (!st && fit) st = gpu_buffer_read(&r->in, HEAD_BYTES, n, fit);
    if (!st && err) st = gpu_buffer_read(&r->errs, 0, n, err);
    return st;
}

glevo_status gp_resident_read_best(gp_resident *r, int *best, double *fit)
{
    size_t bytes = HEAD_BYTES + (size_t)r->pop * 8;
    unsigned char *b = malloc(bytes);
    if (!b) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = gpu_buffer_read(&r->in, 0, bytes, b);
    if (!st) {
        gp_fit_head head;
        memcpy(&head, b, sizeof head);
        *best = head.best;
        memcpy(fit, b + HEAD_BYTES + (size_t)head.best * 8, sizeof *fit);
    }
    free(b);
    return st;
}

glevo_status gp_resident_read_best_history(gp_resident *r, int first, int n, double *fit)
{
    double ring[GP_BEST_HISTORY];
    glevo_status st = gpu_buffer_read(&r->in, offsetof(gp_fit_head, best_fit), sizeof ring, ring);
    for (int k = 0; k < n && !st; ++k) fit[k] = ring[(first + k) % GP_BEST_HISTORY];
    return st;
}

glevo_status gp_resident_put_fitness(gp_resident *r, const double *fit, const int32_t *elite,
                                     int elites)
{
    glevo_status st = elites ? gpu_buffer_upload(&r->in, 0, sizeof(int32_t) * (size_t)elites, elite)
                             : GLEVO_OK;
    return st ? st : gpu_buffer_upload(&r->in, HEAD_BYTES, (size_t)r->pop * 8, fit);
}
