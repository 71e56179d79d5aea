/* The shader library's promises (issue 12): a malformed #include on the last line is an error
 * (defect 4, an over-read before), compile errors in a user's file name that file and line
 * even when Mesa reports them against string 0, a bare file name is a file on disk, files
 * include their neighbours, and a wrong GLEVO_SHADER_DIR is an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl/gpgpu.h"
#include "gl/shader_compose.h"
#include "testutil.h"

static char dir[64];

static const char *write_file(const char *name, const char *text)
{
    static char path[8][256];
    static int next;
    char *p = path[next++ % 8];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/glevo-shlib-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return p;
}

START_TEST(unclosed_include_on_the_last_line)
{
    /* No newline after the unclosed quote: the search for '"' ran past the file's text (ASan:
     * heap-buffer-overflow in the sanitizer build). */
    static const char *const forms[] = {"#include \"abc", "#include <abc", "#include \"",
                                        "  #include  \"a\nfloat x;\n#include \"abc"};
    for (int i = 0; i < 4; ++i) {
        const char *path = write_file("unclosed.glsl", forms[i]);
        shader_text t;
        ck_assert_int_eq(shader_compose(&t, "#version 410 core\n", path, NULL, NULL), GLEVO_ERR_INVALID);
        ck_assert_msg(strstr(glevo_last_error(), "malformed #include"), "%s", glevo_last_error());
    }
}
END_TEST

START_TEST(semantic_error_names_the_users_file)
{
    testutil_context();
    /* An undefined function is a semantic error: Mesa reported it as "0:4(15)", which read
     * "<defines>:4:15". */
    const char *path = write_file("semantic.glsl",
                                  "layout(location = 0) out vec4 o;\n"
                                  "void main()\n{\n    o = vec4(undefined_thing(1.0));\n}\n");
    gpu_program p;
    ck_assert_int_eq(gpu_program_build(&p, &(gpu_program_desc){.fragment = path, .defines = "#define UNUSED 1\n"}), GLEVO_ERR_GL);
    char want[300];
    snprintf(want, sizeof want, "%s:4:", path);
    ck_assert_msg(strstr(glevo_last_error(), want), "'%s' does not name %s", glevo_last_error(), want);
    ck_assert_msg(!strstr(glevo_last_error(), "<defines>"), "%s", glevo_last_error());
}
END_TEST

START_TEST(log_rewrite_decodes_the_file_from_the_line)
{
    shader_text t = {.file_count = 2};
    strcpy(t.files[0], "<defines>");
    strcpy(t.files[1], "my.glsl");
    char log[128];
    snprintf(log, sizeof log, "0:%d(15): error: no function\n", SHADER_LINE_STRIDE + 4);
    char *out = shader_log_rewrite(&t, log);
    ck_assert_str_eq(out, "my.glsl:4:15: error: no function\n");
    free(out);
}
END_TEST

START_TEST(log_rewrite_stays_on_its_line)
{
    /* Found by fuzz_shader_include: "0:7(" then a newline let strtol skip into the next line,
     * so the rest of the line had a negative length and sprintf wrote past the buffer. */
    shader_text t = {.file_count = 1};
    strcpy(t.files[0], "<defines>");
    char *out = shader_log_rewrite(&t, "0:7(\n 12: x\n0(3\n");
    ck_assert_str_eq(out, "<defines>:7:(\n 12: x\n0(3\n");
    free(out);
}
END_TEST

START_TEST(bare_name_and_neighbour_includes)
{
    testutil_context();
    write_file("helper.glsl", "vec4 helper() { return vec4(1.0); }\n");
    write_file("bare.glsl", "layout(location = 0) out vec4 o;\n#include \"helper.glsl\"\n"
                            "void main() { o = helper(); }\n");
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    gpu_program p;
    glevo_status st = gpu_program_build(&p, &(gpu_program_desc){.fragment = "bare.glsl"});
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    gpu_program_destroy(&p);
    /* From another folder, by path: helper.glsl is found beside bare.glsl. */
    char path[300];
    snprintf(path, sizeof path, "%s/bare.glsl", dir);
    st = gpu_program_build(&p, &(gpu_program_desc){.fragment = path});
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    gpu_program_destroy(&p);
}
END_TEST

START_TEST(cli_bare_fitness_name)
{
    write_file("fit.glsl", "vec4 problem_init() { return vec4(0.0); }\n"
                           "vec4 problem_step(vec4 a, int j, float x) { return a + vec4(x * x); }\n"
                           "float problem_finish(vec4 a, int d) { return a.x; }\n");
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "cd %s && %s cga --fitness fit.glsl --grid 6x4 --generations 2 "
             "--quiet 2>&1", dir, testutil_cli());
    ck_assert_msg(testutil_run(cmd, out, sizeof out) == 0, "%s", out);
}
END_TEST

START_TEST(cli_fitness_compile_error_is_bad_input)
{
    write_file("broken.glsl", "vec4 problem_init() { return vec4(0.0); }\n"
                              "vec4 problem_step(vec4 a, int j, float x) { return a + nope(x); }\n"
                              "float problem_finish(vec4 a, int d) { return a.x; }\n");
    char cmd[1024], out[8192];
    /* The last stderr line is the one-sentence error; it names the user's file and line. */
    snprintf(cmd, sizeof cmd, "cd %s && %s cga --fitness broken.glsl --grid 6x4 --generations 2 "
             "2>&1 >/dev/null | tail -n 1", dir, testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "broken.glsl:2:"), "%s", out);
    snprintf(cmd, sizeof cmd, "cd %s && %s cga --fitness broken.glsl --grid 6x4 --generations 2 "
             ">/dev/null 2>&1", dir, testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 2);
    snprintf(cmd, sizeof cmd, "cd %s && %s de --fitness broken.glsl --dim 2 --pop 8 --max-evals 16 "
             ">/dev/null 2>&1", dir, testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 2);
}
END_TEST

START_TEST(wrong_shader_dir_is_an_error)
{
    setenv("GLEVO_SHADER_DIR", "/nonexistent/glevo-shaders", 1);
    char *text = gpu_shader_source("bits/fbits.glsl");
    unsetenv("GLEVO_SHADER_DIR");
    ck_assert_ptr_null(text);
    ck_assert_msg(strstr(glevo_last_error(), "/nonexistent/glevo-shaders"), "%s", glevo_last_error());
    const char *file = write_file("not-a-dir", "x");
    setenv("GLEVO_SHADER_DIR", file, 1);
    text = gpu_shader_source("bits/fbits.glsl");
    unsetenv("GLEVO_SHADER_DIR");
    ck_assert_ptr_null(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shader_library");
    TCase *tc = tcase_create("shader_library");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unclosed_include_on_the_last_line);
    tcase_add_test(tc, semantic_error_names_the_users_file);
    tcase_add_test(tc, log_rewrite_decodes_the_file_from_the_line);
    tcase_add_test(tc, log_rewrite_stays_on_its_line);
    tcase_add_test(tc, bare_name_and_neighbour_includes);
    tcase_add_test(tc, cli_bare_fitness_name);
    tcase_add_test(tc, cli_fitness_compile_error_is_bad_input);
    tcase_add_test(tc, wrong_shader_dir_is_an_error);
    suite_add_tcase(s, tc);
    int rc = testutil_run_suite(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (dir[0] && system(cmd) != 0) rc = 1;
    return rc;
}
