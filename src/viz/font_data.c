/* The DejaVu faces of glevo's pictures, embedded at build time when the build machine has
 * fonts-dejavu-core (CMakeLists.txt defines GLEVO_FONT_EMBED_DIR then): a machine without
 * fonts (the GPU servers have neither /usr/share/fonts nor a fontconfig setup) drew the text
 * with cairo's fallback face, thin and unreadable, and failed test_snapshot (issue 23). The
 * DejaVu licence allows embedding and redistribution. .incbin keeps 1.8 MB out of the C
 * compiler (ccache does not cache a file holding it, so a changed font is never stale). */
#include <stddef.h>

#include "viz/viz.h"

#ifdef GLEVO_FONT_EMBED_DIR
#define FONT(sym, file)                                                                        \
    ".balign 16\n.globl " #sym "\n.hidden " #sym "\n" #sym ":\n.incbin \"" GLEVO_FONT_EMBED_DIR \
    "/" file "\"\n.globl " #sym "_end\n.hidden " #sym "_end\n" #sym "_end:\n"
__asm__(".pushsection .rodata\n" FONT(glevo_font_sans, "DejaVuSans.ttf")
            FONT(glevo_font_bold, "DejaVuSans-Bold.ttf") FONT(glevo_font_mono, "DejaVuSansMono.ttf")
                ".popsection\n");
#define HIDDEN __attribute__((visibility("hidden")))
extern const unsigned char glevo_font_sans[] HIDDEN, glevo_font_sans_end[] HIDDEN;
extern const unsigned char glevo_font_bold[] HIDDEN, glevo_font_bold_end[] HIDDEN;
extern const unsigned char glevo_font_mono[] HIDDEN, glevo_font_mono_end[] HIDDEN;

bool viz_font_embedded(viz_font f, const unsigned char **data, size_t *size)
{
    const unsigned char *const start[3] = {glevo_font_sans, glevo_font_bold, glevo_font_mono};
    const unsigned char *const end[3] = {glevo_font_sans_end, glevo_font_bold_end, glevo_font_mono_end};
    *data = start[f];
    *size = (size_t)(end[f] - start[f]);
    return true;
}
#else
bool viz_font_embedded(viz_font f, const unsigned char **data, size_t *size)
{
    (void)f;
    *data = NULL;
    *size = 0;
    return false;
}
#endif
