/* GP's one number grammar, for data files (csv.c) and programs (parse_program.c): a decimal
 * number as strtod reads it, but not C's hexadecimal floats (0x10 is a typo to a reader),
 * infinities or NaNs, and within float32's range, where every value is stored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/gp_internal.h"

const char *gp_number_parse(const char *text, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    /* Hexadecimal, "inf" and "nan" all hold an x or an n; decimal numbers never do. */
    if (!*text || end == text || *end || strpbrk(text, "xXnN")) return "is not a finite number";
    if (!isfinite(v) || !isfinite((float)v)) return GP_NUMBER_RANGE;
    *out = v;
    return NULL;
}
