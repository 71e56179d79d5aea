/* 2-D ±J Ising spin-glass instances on an L×L torus (Li & Yu 2017 §6.2.4): loading, saving,
 * random generation and energy. Fitness is -E with E = -Σ_<ij> J_ij s_i s_j, s = 2x - 1.
 * File format: data/spin/README.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_file.h"
#include "dsmga_internal.h"
#include "core/args.h"

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
    glevo_clear_error();
    ARG_NOT_NULL(out);
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
    ARG_NOT_NULL_OR(s, -1);
    ARG_NOT_NULL_OR(bits, -1);
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

/* The instance text, read token by token; `line` counts newlines for error messages. */
typedef struct spin_reader {
    const char *at, *end, *source;
    int line;
} spin_reader;

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

/* Reads the next non-comment token into tok (NUL-terminated); returns its length, 0 at the
 * end of the text, or -1 when the token does not fit (a number that long is no number we
 * accept, and truncating it would turn "L 4294967300" into something else). */
static int next_token(spin_reader *r, char *tok, size_t size)
{
    for (;;) {
        if (r->at == r->end) return 0;
        char ch = *r->at;
        if (ch == '#') {
            while (r->at < r->end && *r->at != '\n') ++r->at;
        } else if (is_space(ch)) {
            if (ch == '\n') ++r->line;
            ++r->at;
        } else {
            break;
        }
    }
    size_t n = 0;
    while (r->at < r->end && !is_space(*r->at) && *r->at != '#') {
        if (n + 1 >= size) {
            tok[n] = '\0';
            return -1;
        }
        tok[n++] = *r->at++;
    }
    tok[n] = '\0';
    return (int)n;
}

/* A whole token as a decimal int in [lo, hi]: no trailing text, no overflow. */
static bool parse_int(const char *tok, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (!tok[0] || *end || errno || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static glevo_status read_couplings(spin_reader *r, int8_t *J, int count)
{
    char tok[64];
    for (int i = 0; i < count; ++i) {
        int n = next_token(r, tok, sizeof tok);
        if (n == 0)
            return glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: expected %d couplings, file ends after %d",
                              r->source, r->line, count, i);
        if (n > 0 && (!strcmp(tok, "1") || !strcmp(tok, "+1"))) J[i] = 1;
        else if (n > 0 && !strcmp(tok, "-1")) J[i] = -1;
        else
            return glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: coupling '%.20s' is not +1 or -1",
                              r->source, r->line, n > 0 ? tok : "(too long)");
    }
    return GLEVO_OK;
}

/* Every ±J energy is a sum of 2L² terms ±1, so it is even and in [-2L², 2L²]; the ground
 * state is at most the mean over all configurations, 0. */
static glevo_status check_ground_range(const char *source, int L, int ground)
{
    if (ground < -2 * L * L || ground > 0 || ground % 2)
        return glevo_fail(GLEVO_ERR_INVALID,
                          "%s: ground energy %d is impossible for L = %d (it must be even and in "
                          "[%d, 0])", source, ground, L, -2 * L * L);
    return GLEVO_OK;
}

glevo_status glevo_spin_parse(const char *text, size_t length, const char *source,
                              glevo_spin_instance *out)
{
    memset(out, 0, sizeof *out);
    spin_reader r = {.at = text, .end = text + length, .source = source ? source : "spin glass", .line = 1};
    char tok[64];
    int L = 0, ground = 0, n;
    bool has_ground = false;
    glevo_status st = GLEVO_OK;
    int8_t *right = NULL, *down = NULL;
    while (st == GLEVO_OK && (n = next_token(&r, tok, sizeof tok)) != 0) {
        int line = r.line;
        if (n < 0) {
            st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: token '%.20s...' is too long", r.source,
                            line, tok);
        } else if (!strcmp(tok, "L")) {
            /* One size per file: the couplings are read into arrays of that size. */
            if (L != 0) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: a second 'L' line", r.source, line);
                break;
            }
            n = next_token(&r, tok, sizeof tok);
            if (n <= 0 || !parse_int(tok, 2, 64, &L)) {
                L = 0;
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: size L '%.20s' is not an integer in 2..64",
                                r.source, line, n > 0 ? tok : "");
            }
        } else if (!strcmp(tok, "ground")) {
            if (has_ground) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: a second 'ground' line", r.source, line);
                break;
            }
            n = next_token(&r, tok, sizeof tok);
            if (n <= 0 || !parse_int(tok, -2 * 64 * 64, 2 * 64 * 64, &ground))
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: bad ground energy '%.20s'", r.source,
                                line, n > 0 ? tok : "");
            has_ground = true;
        } else if (!strcmp(tok, "right") || !strcmp(tok, "down")) {
            bool is_right = tok[0] == 'r';
            if (L == 0) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: couplings before the 'L' line", r.source, line);
                break;
            }
            if (is_right ? right != NULL : down != NULL) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: a second '%s' section", r.source, line, tok);
                break;
            }
            int8_t *J = malloc((size_t)L * L);
            if (!J) { st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", r.source); break; }
            if (is_right) right = J;
            else down = J;
            st = read_couplings(&r, J, L * L);
        } else {
            st = glevo_fail(GLEVO_ERR_INVALID, "%s: line %d: unexpected '%s'", r.source, line, tok);
        }
    }
    if (st == GLEVO_OK && L == 0) st = glevo_fail(GLEVO_ERR_INVALID, "%s: no 'L' line", r.source);
    if (st == GLEVO_OK && (!right || !down))
        st = glevo_fail(GLEVO_ERR_INVALID, "%s: missing the '%s' couplings", r.source, right ? "down" : "right");
    if (st == GLEVO_OK && has_ground) st = check_ground_range(r.source, L, ground);
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

glevo_status glevo_spin_load(const char *path, glevo_spin_instance *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    char *text;
    size_t length;
    glevo_status st = input_read_text(path, "spin-glass file", INPUT_MAX_SPIN, &text, &length);
    if (st != GLEVO_OK) return st;
    st = glevo_spin_parse(text, length, path, out);
    free(text);
    return st;
}

glevo_status glevo_spin_save(const char *path, const glevo_spin_instance *s)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL_AS(s, "in");
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
