/* glevo bench compile: every GL program a first run of each family builds on this device,
 * with the time its compile and link took, the driver's shader cache off (as on a fresh
 * server, a container or after a driver update), so that a regression in what a cold start
 * costs shows up in one command. The runs are tiny: a cGA, DE and DSMGA-II of a few
 * generations and a GP run at its defaults (portfolio, fitting, enumeration) on 40 cases, on
 * the fragment and, where the device has it, the compute backend; each program is listed
 * once (a context builds a composed text once, src/gl/program_cache.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/dsmga.h"
#include "glevo/gp.h"

static glevo_status run_cga(glevo_backend b)
{
    glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = 16, .height = 16,
                          .backend = b, .seed = 1};
    glevo_cga *cga = NULL;
    glevo_status st = glevo_cga_create(&p, &cga);
    if (!st) st = glevo_cga_step(cga, 3);
    glevo_cga_destroy(cga);
    return st;
}

static glevo_status run_de(glevo_backend b)
{
    glevo_de_params p = {.dim = 10, .pop = 32, .max_evals = 32 * 4, .backend = b, .seed = 1};
    glevo_de_result r;
    return glevo_de_run(&p, &r);
}

static glevo_status run_dsmga(glevo_backend b)
{
    glevo_dsmga_problem *problem = NULL;
    glevo_dsmga_params p = {.pop = 40, .max_generations = 2, .backend = b, .seed = 1};
    glevo_dsmga *e = NULL;
    glevo_dsmga_result r;
    glevo_status st = glevo_dsmga_problem_create("trap", 20, NULL, 1, &problem);
    if (!st) st = glevo_dsmga_create(problem, &p, &e);
    if (!st) st = glevo_dsmga_run(e, &r);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(problem);
    return st;
}

/* y = x1 x2 + sin x3 on 40 cases: a GP run at the CLI's defaults, generations 2. */
static glevo_status run_gp(glevo_backend b)
{
    enum { CASES = 40, VARS = 3 };
    float x[VARS * CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        for (int v = 0; v < VARS; ++v) x[v * CASES + c] = (float)((c * (v + 3)) % 17) / 8.0f - 1.0f;
        y[c] = x[c] * x[CASES + c] + sinf(x[2 * CASES + c]);
    }
    glevo_gp_data *data = NULL;
    glevo_status st = glevo_gp_data_create(VARS, CASES, x, y, &data);
    /* The CLI's defaults for this data: mse with linear scaling and constant fitting. */
    glevo_gp_params p = {.pop = 200, .generations = 2, .metric = GLEVO_GP_MSE, .backend = b,
                         .seed = 1};
    glevo_gp_result r;
    if (!st) st = glevo_gp_run(&p, data, &r);
    if (!st) glevo_gp_result_free(&r);
    glevo_gp_data_destroy(data);
    return st;
}

int bench_compile(int argc, char **argv)
{
    const char *cmd = "bench compile";
    common_opts c = BENCH_OPTS_DEFAULT;
    bool warm = false, help = false;
    opt_spec specs[] = {{"warm", OPT_FLAG, &warm, "keep the driver's shader disk cache (a second run)"},
                        COMMON_OPT_SPECS(c),
                        {0}};
    int rc = opt_parse(cmd, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench compile [--warm] [--device N]",
                       "Lists every GL program a first run of each family builds, with its "
                       "compile and link time, the shader cache off (NVIDIA's and Mesa's).", specs);
        return 0;
    }
    if (!warm) {
        /* Read when the driver loads, so before the first context. */
        setenv("__GL_SHADER_DISK_CACHE", "0", 1);
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    }
    c.backend = "fragment";
    glevo_context *ctx = NULL;
    if ((rc = common_context_create(cmd, &c, &ctx))) return rc;
    glevo_features f;
    glevo_context_features(ctx, &f);
    static const struct { const char *family; glevo_status (*run)(glevo_backend); } runs[] = {
        {"cga", run_cga}, {"de", run_de}, {"dsmga", run_dsmga}, {"gp", run_gp}};
    printf("# Programs built cold on %s (%s shader cache)\n\n", glevo_context_renderer(ctx),
           warm ? "with the" : "without the");
    printf("| family | backend | program | seconds |\n|---|---|---|---:|\n");
    double total = 0;
    int seen = 0;
    glevo_program_build *b = NULL;
    for (int k = 0; k < 2 && !rc; ++k) {
        glevo_backend be = k ? GLEVO_BACKEND_COMPUTE : GLEVO_BACKEND_FRAGMENT;
        if (k && !f.compute) break;
        for (size_t i = 0; i < sizeof runs / sizeof runs[0] && !rc; ++i) {
            glevo_status st = runs[i].run(be);
            if (st) {
                rc = cli_fail(cmd, st);
                break;
            }
            int n = glevo_context_builds(ctx, NULL, 0);
            glevo_program_build *more = realloc(b, (size_t)(n > 0 ? n : 1) * sizeof *b);
            if (!more) {
                rc = cli_fail(cmd, GLEVO_ERR_NOMEM);
                break;
            }
            b = more;
            n = glevo_context_builds(ctx, b, n);
            for (; seen < n; ++seen) {
                printf("| %s | %s | %s | %.3f |\n", runs[i].family, glevo_backend_name(be),
                       b[seen].name, b[seen].seconds);
                total += b[seen].seconds;
            }
        }
    }
    if (!rc)
        printf("| all | | %d programs | %.3f |\n\nA GP run builds its programs together "
               "(gpu_program_batch_begin): each one's seconds run from its start to its check, "
               "so they overlap, and the longest is about what the run waits.\n", seen, total);
    free(b);
    glevo_context_destroy(ctx);
    return rc;
}
