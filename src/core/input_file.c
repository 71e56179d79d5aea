/* Whole-file reads with a size cap and a binary check (see input_file.h). Reads in chunks
 * rather than trusting the size stat reports: FIFOs, /dev/zero and /proc files report 0. */
#include "core/input_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

glevo_status input_read_text(const char *path, const char *what, size_t max_bytes, char **text,
                             size_t *length)
{
    *text = NULL;
    if (length) *length = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return glevo_fail(GLEVO_ERR_INVALID, "cannot open %s '%s': %s", what, path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return glevo_fail(GLEVO_ERR_INVALID, "%s '%s' is a directory", what, path);
    }
    size_t cap = max_bytes + 2 < (1 << 16) ? max_bytes + 2 : (1 << 16), len = 0;
    char *buf = malloc(cap);
    glevo_status st = buf ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading '%s'", path);
    while (st == GLEVO_OK) {
        if (cap - len < 2) {
            /* Grow to at most one byte past the cap: enough to know the file is too long. */
            size_t grown_cap = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
            char *grown = grown_cap > cap ? realloc(buf, grown_cap) : NULL;
            if (!grown) {
                st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading '%s'", path);
                break;
            }
            buf = grown;
            cap = grown_cap;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0) {
            if (ferror(f))
                st = glevo_fail(GLEVO_ERR_IO, "cannot read %s '%s': %s", what, path, strerror(errno));
            break;
        }
        const char *nul = memchr(buf + len, '\0', n);
        if (nul) {
            st = glevo_fail(GLEVO_ERR_INVALID, "%s '%s' is binary (a NUL byte at offset %zu), not text",
                            what, path, (size_t)(nul - buf));
            break;
        }
        len += n;
        if (len > max_bytes)
            st = glevo_fail(GLEVO_ERR_INVALID, "%s '%s' is longer than %zu MiB, the limit for such files",
                            what, path, max_bytes >> 20);
    }
    fclose(f);
    if (st != GLEVO_OK) {
        free(buf);
        return st;
    }
    buf[len] = '\0';
    *text = buf;
    if (length) *length = len;
    return GLEVO_OK;
}
