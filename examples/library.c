/* glevo as a library: a cellular GA on the six-hump camel function, every status checked.
 * The README shows this file; tests/install/test_library_snippet.sh builds it against an
 * installed glevo through pkg-config and runs it. */
#include <stdio.h>

#include <glevo/glevo.h>

int main(void)
{
    glevo_context *ctx = NULL;
    glevo_cga *ga = NULL;
    glevo_cga_best best;
    glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = 64, .height = 64};
    glevo_status st = glevo_context_create(&(glevo_context_params){0}, &ctx);
    if (st == GLEVO_OK) st = glevo_cga_create(&p, &ga); /* runs on the current context */
    if (st == GLEVO_OK) st = glevo_cga_step(ga, 100);
    if (st == GLEVO_OK) st = glevo_cga_best_get(ga, &best);
    if (st == GLEVO_OK)
        printf("best %.6f at (%.4f, %.4f)\n", best.fitness, best.x[0], best.x[1]);
    else
        fprintf(stderr, "glevo: %s\n", glevo_last_error());
    glevo_cga_destroy(ga);
    glevo_context_destroy(ctx);
    return st == GLEVO_OK ? 0 : 1;
}
