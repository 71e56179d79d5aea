/* Wrote portfolio2_gen4.ckpt and portfolio2_gen8.ckpt: a run of the two-search portfolio as
 * glevo c5e85ef (2026-11-26) ran it, saved at generations 4 and 8, for
 * tests/gp/test_gp_portfolio.c (files of two searches resume as two). Built against that
 * commit's static library:
 *   gcc -std=c11 -I include make_portfolio2_checkpoints.c build/libglevo.a -lGLEW -lOpenGL \
 *       -lEGL $(pkg-config --libs glfw3 cairo) -lz -lpthread -lm -o make_old
 *   ./make_old portfolio2_gen4.ckpt portfolio2_gen8.ckpt 0 1
 * It printed the result at generation 8:
 *   (- (+ (* x1 x1) x1) (* x1 (neg (* x1 x1)))) 1.8873791418627661e-16 1 1800
 * The data is the test's nguyen1(). */
#include <stdio.h>
#include <stdlib.h>
#include "glevo/glevo.h"
#include "glevo/gp.h"
#include "glevo/rng.h"
int main(int argc, char **argv)
{
    enum { CASES = 20 };
    float x[CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, 26, 1);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        y[c] = x[c] * x[c] * x[c] + x[c] * x[c] + x[c];
    }
    glevo_gp_data *d = NULL;
    if (glevo_gp_data_create(1, CASES, x, y, &d)) return 1;
    glevo_gp_params p = {.pop = 200, .generations = 8, .metric = GLEVO_GP_MSE, .seed = (uint32_t)atoi(argv[4]),
                         .backend = GLEVO_BACKEND_CPU, .max_size = atoi(argv[3])};
    glevo_gp *gp = NULL;
    if (glevo_gp_create(&p, d, &gp) || glevo_gp_step(gp, 4) || glevo_gp_save(gp, argv[1], NULL) ||
        glevo_gp_step(gp, 4) || glevo_gp_save(gp, argv[2], NULL)) {
        fprintf(stderr, "%s\n", glevo_last_error());
        return 1;
    }
    glevo_gp_result r;
    glevo_gp_result_get(gp, &r);
    printf("%s %.17g %d %lld\n", r.best_sexpr, r.best_error, r.best_search, r.evaluations);
    return 0;
}
