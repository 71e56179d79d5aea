/* Lexicographic parsimony pressure (Luke & Panait 2002, "Lexicographic parsimony pressure",
 * GECCO): in a tournament, fitness decides first and size breaks ties, so that bloat is held
 * back without a size-error weight to tune. Float errors rarely tie exactly, and scaled errors
 * carry rounding (src/gp/eval/scaling.c), so two fitnesses within a relative tolerance count as a
 * tie (Luke & Panait's "bucketed" variant buckets by rank; a relative band is its analogue for
 * continuous errors). Tolerance 0 is the engine's old rule exactly: strictly lower wins. */
#include <math.h>

#include "gp/breed/parsimony.h"

bool gp_tournament_beats(double tolerance, double fc, int len_c, double fw, int len_w)
{
    if (tolerance > 0) {
        double band = tolerance * fmax(fabs(fc), fabs(fw));
        if (fc == fw || (isfinite(band) && fabs(fc - fw) <= band)) return len_c < len_w;
    }
    return fc < fw;
}
