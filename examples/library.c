#include <stdio.h>
#include <glevo/glevo.h>

int main(void) /* a cellular GA on the six-hump camel function, every status checked */
{
    glevo_context *ctx = NULL;
    glevo_cga *ga = NULL;
    glevo_cga_best best;
    glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = 64, .height = 64};
    glevo_status st = glevo_context_create(&(glevo_context_params){0}, &ctx);
    if (!st) st = glevo_cga_create(&p, &ga); /* GPU backends run on the current context */
    if (!st) st = glevo_cga_step(ga, 100);
    if (!st) st = glevo_cga_best_get(ga, &best);
    if (!st) printf("best %.6f at (%.4f, %.4f)\n", best.fitness, best.x[0], best.x[1]);
    else fprintf(stderr, "glevo: %s\n", glevo_last_error());
    glevo_cga_destroy(ga);
    glevo_context_destroy(ctx);
    return st ? 1 : 0;
}
