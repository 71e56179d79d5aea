/* Program text for glevo-demo's GP view, wrapped to a panel's width at token boundaries: a line
 * breaks only at a space, so a number or a name is never cut (unless it alone is wider than a
 * line). Plain C with no GL, so tests/viz/test_wrap.c checks it directly. */
#include <string.h>

#include "demo.h"

int demo_wrap(const char *text, int cols, char *out, size_t size)
{
    size_t n = 0;
    int col = 0, lines = 1;
    if (cols < 1) cols = 1;
    for (const char *p = text; *p && n + 2 < size;) {
        if (*p == '\n') {
            out[n++] = *p++, col = 0, ++lines;
            continue;
        }
        if (*p == ' ' && col == 0) { /* no space at the start of a wrapped line */
            ++p;
            continue;
        }
        size_t len = strcspn(p, " \n"); /* a token: a name, a number, brackets */
        if (col > 0 && col + (int)len > cols) {
            if (n > 0 && out[n - 1] == ' ') --n;
            out[n++] = '\n', col = 0, ++lines;
            continue;
        }
        for (size_t k = 0; k < len && n + 2 < size; ++k) { /* longer than a line: cut it */
            if (col == cols) out[n++] = '\n', col = 0, ++lines;
            out[n++] = p[k], ++col;
        }
        p += len;
        if (*p == ' ' && n + 2 < size) out[n++] = ' ', ++col, ++p;
    }
    out[n] = '\0';
    return lines;
}
