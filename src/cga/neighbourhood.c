/* Selection neighbourhoods on the torus (paper §2.5: "3x3 neighbourhood, its size can be
 * configured"). The order is the roulette's order, mirrored in shaders/cga/select.glsl. */
#include "cga/passes.h"

int cga_neighbourhood_offsets(glevo_cga_neighbourhood n, int offsets[][2])
{
    int count = 0;
    if (n == GLEVO_NEIGHBOURHOOD_VON_NEUMANN) {
        static const int vn[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int i = 0; i < 5; ++i) offsets[count][0] = vn[i][0], offsets[count++][1] = vn[i][1];
        return count;
    }
    int r = n == GLEVO_NEIGHBOURHOOD_MOORE5 ? 2 : 1;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) offsets[count][0] = dx, offsets[count++][1] = dy;
    return count;
}
