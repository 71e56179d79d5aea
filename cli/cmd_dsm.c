/* glevo dsm: the mutual-information matrix (DSM) of a population file, from FastCounting rows,
 * in a BuildDSM pass (--backend fragment), a compute dispatch (--backend compute) or its C twin
 * (--backend cpu). */
#include <stdlib.h>

#include "cli.h"
#include "glevo/dsmga.h"

int cmd_dsm(int argc, char **argv)
{
    common_opts c = COMMON_OPTS_DEFAULT;
    const char *path = NULL;
    bool help = false;
    opt_spec specs[] = {{"population", OPT_STRING, &path, "file: one individual per line as 0/1"},
                        COMMON_OPT_SPECS(c),
                        {0}};
    int rc = opt_parse("dsm", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo dsm --population FILE [--backend fragment|compute|cpu] [--json]",
                       "Prints the ell x ell mutual-information matrix (natural log), one row per line.\n"
                       "With --json: algorithm, problem (the file), backend, renderer, seed, n, ell,\n"
                       "seconds, mi (rows of the matrix); nothing evolves, so no best_fitness,\n"
                       "evaluations, generations or best_x.",
                       specs);
        return 0;
    }
    if ((rc = common_check_backend("dsm", &c))) return rc;
    if (!path) return cli_bad_input("dsm", "--population FILE is required");
    uint8_t *bits;
    int n, ell;
    glevo_status st = glevo_dsm_population_read(path, &bits, &n, &ell);
    if (st != GLEVO_OK) return cli_bad_input("dsm", "%s", glevo_last_error());
    uint32_t *rows = malloc((size_t)ell * glevo_dsm_words(n) * sizeof *rows);
    float *mi = malloc((size_t)ell * ell * sizeof *mi);
    if (!rows || !mi) {
        free(bits); free(rows); free(mi);
        return cli_fail("dsm", glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %d-gene DSM", ell));
    }
    glevo_dsm_pack(bits, n, ell, rows);
    free(bits);
    glevo_context *ctx = NULL;
    const char *renderer = "cpu";
    double t0 = cli_seconds_now();
    if (common_is_gpu(&c)) {
        if ((rc = common_context_create("dsm", &c, &ctx))) {
            free(rows); free(mi);
            return rc;
        }
        renderer = glevo_context_renderer(ctx);
        glevo_dsm_gpu *g = NULL;
        st = glevo_dsm_gpu_create(ell, n, common_backend(&c), &g);
        if (st == GLEVO_OK) st = glevo_dsm_gpu_build(g, rows);
        if (st == GLEVO_OK) st = glevo_dsm_gpu_read(g, mi);
        glevo_dsm_gpu_destroy(g);
        if (st != GLEVO_OK) {
            rc = cli_fail("dsm", st);
            glevo_context_destroy(ctx);
            free(rows); free(mi);
            return rc;
        }
    } else {
        glevo_dsm_mi_cpu(rows, n, ell, mi);
    }
    double seconds = cli_seconds_now() - t0;
    if (c.json) {
        json_writer w = {0};
        json_begin_object(&w, NULL);
        json_string(&w, "algorithm", "dsm");
        json_string(&w, "problem", path);
        json_string(&w, "backend", glevo_backend_name(common_backend(&c)));
        json_string(&w, "renderer", renderer);
        json_int(&w, "seed", c.seed);
        json_int(&w, "n", n);
        json_int(&w, "ell", ell);
        json_number(&w, "seconds", seconds);
        json_begin_array(&w, "mi");
        for (int i = 0; i < ell; ++i) {
            json_begin_array(&w, NULL);
            for (int j = 0; j < ell; ++j) json_number(&w, NULL, mi[(size_t)i * ell + j]);
            json_end_array(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
    } else {
        for (int i = 0; i < ell; ++i)
            for (int j = 0; j < ell; ++j)
                printf("%.9g%c", mi[(size_t)i * ell + j], j + 1 == ell ? '\n' : ' ');
    }
    if (c.profile && ctx) glevo_context_print_profile(ctx, stderr);
    glevo_context_destroy(ctx);
    free(rows);
    free(mi);
    return 0;
}
