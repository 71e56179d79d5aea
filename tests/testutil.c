/* Shared test helpers (see testutil.h). */
#include "testutil.h"

#include "glevo/rng.h"

#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static glevo_context *shared_context;

glevo_context *testutil_context(void)
{
    if (!shared_context) {
        glevo_context_params params = {0};
        glevo_status st = glevo_context_create(&params, &shared_context);
        ck_assert_msg(st == GLEVO_OK, "no GL context: %s", glevo_last_error());
    }
    return shared_context;
}

const char *testutil_data_path(const char *relative)
{
    static char path[4096];
    const char *root = getenv("GLEVO_TEST_DATA");
    snprintf(path, sizeof path, "%s/%s", root ? root : "data", relative);
    return path;
}

const char *testutil_cli(void)
{
    const char *cli = getenv("GLEVO_CLI");
    return cli ? cli : "glevo";
}

int testutil_run(const char *command, char *out, size_t out_size)
{
    FILE *pipe = popen(command, "r");
    if (!pipe) return -1;
    size_t used = 0;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) {
        if (out && used + 1 < out_size) {
            size_t take = n < out_size - 1 - used ? n : out_size - 1 - used;
            memcpy(out + used, chunk, take);
            used += take;
        }
    }
    if (out && out_size) out[used] = '\0';
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int testutil_glevo(const char *dir, char *out, size_t out_size, const char *fmt, ...)
{
    char args[2048], cmd[2800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s%s%stimeout 120 %s %s 2>&1", dir ? "cd " : "", dir ? dir : "",
             dir ? " && " : "", testutil_cli(), args);
    return testutil_run(cmd, out, out_size);
}

int testutil_lines(const char *s)
{
    int n = 0;
    for (; *s; ++s) n += *s == '\n';
    return n;
}

int testutil_run_suite(Suite *s)
{
    SRunner *runner = srunner_create(s);
    /* No fork: one GL context serves every case of the process. */
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int testutil_large(void)
{
    const char *v = getenv("GLEVO_TEST_LARGE");
    return v && *v == '1';
}

const char *testutil_write_tmp(const char *text)
{
    static char paths[8][64];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "/tmp/glevo-test-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "cannot create a temporary file");
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

unsigned char *testutil_png_load(const char *path, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_RGB;
    unsigned char *rgb = malloc(PNG_IMAGE_SIZE(img));
    if (!rgb || !png_image_finish_read(&img, NULL, rgb, 0, NULL)) {
        free(rgb);
        png_image_free(&img);
        return NULL;
    }
    *w = (int)img.width, *h = (int)img.height;
    return rgb;
}

glevo_gp_data *testutil_gp_data(int vars, int cases, uint32_t seed)
{
    float *x = malloc((size_t)vars * cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    ck_assert(x && y);
    for (int i = 0; i < vars * cases; ++i) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 1, 0, 0, seed, 7);
        x[i] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        if (r.v[1] % 7 == 0) x[i] = 0.0f;
        if (r.v[1] % 11 == 0) x[i] = 0.5f;
    }
    for (int c = 0; c < cases; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 2, 0, 0, seed, 7);
        y[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(vars, cases, x, y, &d), GLEVO_OK);
    free(x);
    free(y);
    return d;
}

double *testutil_gp_cpu_errors(const glevo_gp_data *d, const glevo_gp_programs *p,
                               glevo_gp_metric metric)
{
    double *errors = malloc((size_t)glevo_gp_programs_count(p) * sizeof *errors);
    ck_assert_ptr_nonnull(errors);
    glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU, .threads = 2};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&cp, d, &ev), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, metric, errors), GLEVO_OK);
    glevo_gp_evaluator_destroy(ev);
    return errors;
}

int testutil_run_suite_in_tmp(Suite *s, char *dir, size_t size, const char *name)
{
    snprintf(dir, size, "/tmp/glevo-%s-XXXXXX", name);
    if (!mkdtemp(dir)) return 1;
    int rc = testutil_run_suite(s);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) != 0 ? 1 : rc;
}
