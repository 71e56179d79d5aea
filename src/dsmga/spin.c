/* 2-D ±J Ising spin-glass instances on an L×L torus (Li & Yu 2017 §6.2.4): loading, saving,
 * random generation and energy. Fitness is -E with E = -Σ_<ij> J_ij s_i s_j, s = 2x - 1.
 * File format: data/spin/README.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsmga_internal.h"

void glevo_spin_free(glevo_spin_instance *s)
{
    if (!s) return;
    free(s->right);
    free(s->down);
    s->right = s->down = NULL;
}

static glevo_status spin_alloc(int L, glevo_spin_instance *out)
{
    memset(out, 0, sizeof *out);
    if (L < 2 || L > 64) return glevo_fail(GLEVO_ERR_INVALID, "spin glass size L = %d is outside 2..64", L);
    out->L = L;
    out->right = malloc((size_t)L * L);
    out->down = malloc((size_t)L * L);
    if (!out->right || !out->down) {
        glevo_spin_free(out);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a spin glass of L = %d", L);
    }
    return GLEVO_OK;
}

glevo_status glevo_spin_random(int L, uint32_t seed, glevo_spin_instance *out)
{
    glevo_status st = spin_alloc(L, out);
    if (st != GLEVO_OK) return st;
    for (int i = 0; i < L * L; ++i) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, (uint32_t)L, 0x5019u, 0u, seed, 0x1516u);
        out->right[i] = (r.v[0] >> 31) ? 1 : -1;
        out->down[i] = (r.v[1] >> 31) ? 1 : -1;
    }
    return GLEVO_OK;
}

int glevo_spin_energy(const glevo_spin_instance *s, const uint8_t *bits)
{
    int L = s->L, e = 0;
    for (int r = 0; r < L; ++r)
        for (int c = 0; c < L; ++c) {
            int i = r * L + c;
            int si = bits[i] ? 1 : -1;
            int sr = bits[r * L + (c + 1) % L] ? 1 : -1;
            int sd = bits[((r + 1) % L) * L + c] ? 1 : -1;
            e -= s->right[i] * si * sr + s->down[i] * si * sd;
        }
    return e;
}

/* Reads the next non-comment token; returns 0 at end of file. */
static int next_token(FILE *f, char *tok, size_t size, int *line)
{
    int ch;
    for (;;) {
        ch = fgetc(f);
        if (ch == EOF) return 0;
        if (ch == '\n') { ++*line; continue; }
        if (ch == '#') {
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
            if (ch == '\n') ++*line;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r') continue;
        break;
    }
    size_t n = 0;
    while (ch != EOF && ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n' && ch != '#') {
        if (n + 1 < size) tok[n++] = (char)ch;
        ch = fgetc(f);
    }
    tok[n] = '\0';
    if (ch != EOF) ungetc(ch, f);
    return 1;
}

static glevo_status read_couplings(FILE *f, const char *path, int *line, int8_t *J, int count)
{
    char tok[64];
    for (int i = 0; i < count; ++i) {
        if (!next_token(f, tok, sizeof tok, line))
            return glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: expected %d couplings, file ends after %d",
                              path, *line, count, i);
        if (!strcmp(tok, "1") || !strcmp(tok, "+1")) J[i] = 1;
        else if (!strcmp(tok, "-1")) J[i] = -1;
        else
            return glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: coupling '%s' is not +1 or -1", path,
                              *line, tok);
    }
    return GLEVO_OK;
}

glevo_status glevo_spin_load(const char *path, glevo_spin_instance *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) return glevo_fail(GLEVO_ERR_IO, "cannot open spin-glass file %s: %s", path, strerror(errno));
    char tok[64];
    int line = 1, L = 0, ground = 0;
    bool has_ground = false, have_right = false, have_down = false;
    glevo_status st = GLEVO_OK;
    int8_t *right = NULL, *down = NULL;
    while (st == GLEVO_OK && next_token(f, tok, sizeof tok, &line)) {
        if (!strcmp(tok, "L")) {
            if (!next_token(f, tok, sizeof tok, &line) || (L = atoi(tok)) < 2 || L > 64)
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: bad size L '%s'", path, line, tok);
        } else if (!strcmp(tok, "ground")) {
            char *end;
            if (!next_token(f, tok, sizeof tok, &line)) tok[0] = '\0';
            ground = (int)strtol(tok, &end, 10);
            if (!tok[0] || *end)
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: bad ground energy '%s'", path, line, tok);
            has_ground = true;
        } else if (!strcmp(tok, "right") || !strcmp(tok, "down")) {
            bool is_right = tok[0] == 'r';
            if (L == 0) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: couplings before the 'L' line", path, line);
                break;
            }
            int8_t **dst = is_right ? &right : &down;
            free(*dst);
            *dst = malloc((size_t)L * L);
            if (!*dst) { st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", path); break; }
            st = read_couplings(f, path, &line, *dst, L * L);
            if (is_right) have_right = true; else have_down = true;
        } else {
            st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: unexpected '%s'", path, line, tok);
        }
    }
    fclose(f);
    if (st == GLEVO_OK && (!have_right || !have_down))
        st = glevo_fail(GLEVO_ERR_INVALID, "%s: missing the '%s' couplings", path, have_right ? "down" : "right");
    if (st != GLEVO_OK) {
        free(right);
        free(down);
        return st;
    }
    out->L = L;
    out->right = right;
    out->down = down;
    out->has_ground = has_ground;
    out->ground = ground;
    return GLEVO_OK;
}

glevo_status glevo_spin_save(const char *path, const glevo_spin_instance *s)
{
    FILE *f = fopen(path, "w");
    if (!f) return glevo_fail(GLEVO_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "# glevo 2-D +-J Ising spin glass on an L x L torus (format: data/spin/README.md)\n");
    fprintf(f, "L %d\n", s->L);
    if (s->has_ground) fprintf(f, "ground %d\n", s->ground);
    for (int k = 0; k < 2; ++k) {
        const int8_t *J = k ? s->down : s->right;
        fprintf(f, "%s\n", k ? "down" : "right");
        for (int r = 0; r < s->L; ++r)
            for (int c = 0; c < s->L; ++c)
                fprintf(f, "%+d%c", J[r * s->L + c], c + 1 == s->L ? '\n' : ' ');
    }
    if (fclose(f) != 0) return glevo_fail(GLEVO_ERR_IO, "cannot write %s", path);
    return GLEVO_OK;
}
