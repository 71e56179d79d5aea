/* Program build: syntax errors are reported with our .glsl file and line (through #include
 * and overrides), GLEVO_SHADER_DIR overrides embedded files, and pass errors name the pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gl/gpgpu.h"
#include "gl/shader_compose.h"
#include "testutil.h"

static char dir_template[] = "/tmp/glevo-shaders-XXXXXX";

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", dir, name), (int)sizeof path);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(syntax_error_names_file_and_line)
{
    testutil_context();
    char *dir = mkdtemp(dir_template);
    ck_assert_ptr_nonnull(dir);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/user", dir);
    /* Error on line 4 of the included file, seen through an include in the main file. */
    write_file(dir, "inc.glsl", "// helper\nfloat helper(float x)\n{\n    return x +* 2.0;\n}\n");
    char main_text[1024];
    snprintf(main_text, sizeof main_text,
             "layout(location = 0) out vec4 o;\n#include \"%s/inc.glsl\"\nvoid main() { o = "
             "vec4(helper(1.0)); }\n", dir);
    write_file(dir, "main.glsl", main_text);
    char main_path[600];
    snprintf(main_path, sizeof main_path, "%s/main.glsl", dir);
    gpu_program p;
    glevo_status st = gpu_program_build(&p, &(gpu_program_desc){.fragment = main_path});
    ck_assert_int_eq(st, GLEVO_ERR_GL);
    char want[700];
    snprintf(want, sizeof want, "%s/inc.glsl:4", dir);
    ck_assert_msg(strstr(glevo_last_error(), want), "error '%s' does not name %s",
                  glevo_last_error(), want);
    ck_assert_msg(strchr(glevo_last_error(), '\n') == NULL, "error is more than one line");
}
END_TEST

START_TEST(log_rewrite_understands_mesa_and_nvidia)
{
    shader_text t = {.file_count = 3};
    strcpy(t.files[0], "<defines>");
    strcpy(t.files[1], "cga/select.glsl");
    strcpy(t.files[2], "rng/philox.glsl");
    char *mesa = shader_log_rewrite(&t, "2:17(9): error: syntax error\n");
    ck_assert_str_eq(mesa, "rng/philox.glsl:17:9: error: syntax error\n");
    char *nv = shader_log_rewrite(&t, "1(42) : error C0000: syntax error, unexpected '*'\n");
    ck_assert_str_eq(nv, "cga/select.glsl:42: error C0000: syntax error, unexpected '*'\n");
    char *other = shader_log_rewrite(&t, "warning without location\n");
    ck_assert_str_eq(other, "warning without location\n");
    free(mesa), free(nv), free(other);
    /* A library file a user's file included: the user's #include line is named too. */
    shader_text u = {.file_count = 3, .parent = {-1, 0, 1}, .parent_line = {-1, -1, 7}};
    strcpy(u.files[0], "<defines>");
    strcpy(u.files[1], "/home/me/fit.glsl");
    strcpy(u.files[2], "rng/philox.glsl");
    char *inc = shader_log_rewrite(&u, "2:5(1): error: x\n");
    ck_assert_str_eq(inc, "rng/philox.glsl:5:1: error: x (included from /home/me/fit.glsl:7)\n");
    free(inc);
}
END_TEST

/* Faults of a user's text are named at the user's line: an unterminated comment (Mesa put
 * it past the end of the composed text), a main() in a file included into a pass (blamed on
 * the pass's main), and an error in a library file the user's file included. */
START_TEST(user_faults_name_the_users_line)
{
    testutil_context();
    char dir[] = "/tmp/glevo-user-XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "open.glsl", "float f(float x)\n{\n    return x; /* half\n}\n");
    write_file(dir, "mains.glsl", "float f(float x) { return x; }\nvoid main () {}\n");
    /* 24 macros, each naming the one before twice: 2^24 copies for the preprocessor. */
    char bomb[4096] = "#define A0 x\n";
    for (int i = 1; i < 24; ++i)
        snprintf(bomb + strlen(bomb), sizeof bomb - strlen(bomb), "#define A%d (A%d+A%d)\n", i,
                 i - 1, i - 1);
    strcat(bomb, "float f(float x) { return A23; }\n");
    write_file(dir, "bomb.glsl", bomb);
    write_file(dir, "lib.glsl", "// uses the library\n#include \"gp/interp.glsl\"\n"
                                "float f(float x) { return x; }\n");
    const char *cases[][2] = {{"open.glsl", "open.glsl:3:15: unterminated comment"},
                              {"mains.glsl", "mains.glsl:2:6: defines main()"},
                              {"bomb.glsl", "bomb.glsl:18: #define A17 expands to more than"},
                              {"lib.glsl", "(included from "}};
    for (int k = 0; k < 4; ++k) {
        char main_text[512];
        snprintf(main_text, sizeof main_text, "layout(location = 0) out vec4 o;\n#include "
                 "\"%s/%s\"\nvoid main() { o = vec4(f(1.0)); }\n", dir, cases[k][0]);
        write_file(dir, "main.glsl", main_text);
        snprintf(path, sizeof path, "%s/main.glsl", dir);
        gpu_program p;
        glevo_status st = gpu_program_build(&p, &(gpu_program_desc){.fragment = path});
        ck_assert_int_eq(st, k < 3 ? GLEVO_ERR_INVALID : GLEVO_ERR_GL);
        ck_assert_msg(strstr(glevo_last_error(), cases[k][1]), "'%s' lacks '%s'",
                      glevo_last_error(), cases[k][1]);
        if (k == 3) {
            char want[160];
            snprintf(want, sizeof want, "(included from %s/lib.glsl:2)", dir);
            ck_assert_msg(strstr(glevo_last_error(), want), "'%s' lacks '%s'",
                          glevo_last_error(), want);
        }
        snprintf(path, sizeof path, "%s/%s", dir, cases[k][0]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/main.glsl", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(shader_dir_overrides_embedded_files)
{
    testutil_context();
    char tmpl[] = "/tmp/glevo-override-XXXXXX";
    char *dir = mkdtemp(tmpl);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/bits", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    write_file(sub, "fbits.glsl", "float fbit_get(float v, int i) { return 42.0; }\n");
    setenv("GLEVO_SHADER_DIR", dir, 1);
    char *text = gpu_shader_source("bits/fbits.glsl");
    unsetenv("GLEVO_SHADER_DIR");
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "42.0"), "override not used");
    free(text);
    text = gpu_shader_source("bits/fbits.glsl");
    ck_assert_msg(strstr(text, "mod(floor("), "embedded copy not used without override");
    free(text);
    ck_assert_ptr_null(gpu_shader_source("no/such.glsl"));
    ck_assert_msg(strstr(glevo_last_error(), "no/such.glsl"), "%s", glevo_last_error());
}
END_TEST

START_TEST(pass_errors_name_the_pass)
{
    testutil_context();
    gpu_pass p = {.name = "test.no_target"};
    ck_assert_int_eq(gpu_pass_draw(&p), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "test.no_target"), "%s", glevo_last_error());
}
END_TEST

/* Two builds of one composed text share a program (built, and recorded, once); another
 * define makes another program; the shared one lives until its last user lets it go. */
START_TEST(same_text_builds_once)
{
    testutil_context();
    char dir[] = "/tmp/glevo-share-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "share.glsl", "layout(location = 0) out vec4 o;\n"
                                  "void main() { o = vec4(1.0); }\n");
    snprintf(path, sizeof path, "%s/share.glsl", dir);
    int before = glevo_context_builds(NULL, NULL, 0);
    gpu_program a, b, c;
    gpu_program_desc d = {.name = "test.share", .fragment = path};
    glevo_status st = gpu_program_build(&a, &d);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(gpu_program_build(&b, &d), GLEVO_OK);
    ck_assert_uint_eq(a.id, b.id);
    ck_assert_int_eq(glevo_context_builds(NULL, NULL, 0), before + 1);
    d.defines = "#define TEST_SHARE_OTHER 1\n";
    ck_assert_int_eq(gpu_program_build(&c, &d), GLEVO_OK);
    ck_assert_uint_ne(a.id, c.id);
    ck_assert_int_eq(glevo_context_builds(NULL, NULL, 0), before + 2);
    glevo_program_build rec[64];
    int n = glevo_context_builds(NULL, rec, 64);
    ck_assert_str_eq(rec[n - 1].name, "test.share");
    ck_assert(rec[n - 1].seconds >= 0);
    GLuint id = a.id;
    gpu_program_destroy(&a);
    ck_assert(glIsProgram(id)); /* b still uses it */
    gpu_program_destroy(&b);
    gpu_program_destroy(&c);
    while (glGetError() != GL_NO_ERROR) {
    }
    ck_assert(!glIsProgram(id));
    unlink(path);
    rmdir(dir);
}
END_TEST

/* A batch of builds (gpu_program_batch_begin/end): each build returns at once; a program is
 * checked at its first use or at the batch's end; two builds of one text share one; a broken
 * one is reported at the end, naming its pass and file:line, and leaves no program; one
 * destroyed while pending is deleted. */
START_TEST(batch_checks_later)
{
    /* Built, not loaded: a program from the disk cache (program_disk.c) is never pending. */
    setenv("GLEVO_PROGRAM_CACHE", "0", 1);
    testutil_context();
    char dir[] = "/tmp/glevo-batch-XXXXXX", good[64], bad[64], other[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "good.glsl", "layout(location = 0) out vec4 o;\n"
                                 "void main() { o = vec4(0.25, 0.5, 0.75, 1.0); }\n");
    write_file(dir, "bad.glsl", "layout(location = 0) out vec4 o;\n"
                                "void main() { o = vec4(1.0) +* 2.0; }\n");
    write_file(dir, "other.glsl", "layout(location = 0) out vec4 o;\n"
                                  "void main() { o = vec4(2.0); }\n");
    snprintf(good, sizeof good, "%s/good.glsl", dir);
    snprintf(bad, sizeof bad, "%s/bad.glsl", dir);
    snprintf(other, sizeof other, "%s/other.glsl", dir);
    int before = glevo_context_builds(NULL, NULL, 0);
    gpu_program a, b, c, d;
    gpu_program_batch_begin();
    ck_assert_int_eq(gpu_program_build(&a, &(gpu_program_desc){.name = "test.batch_good",
                                                              .fragment = good}), GLEVO_OK);
    ck_assert_int_eq(gpu_program_build(&b, &(gpu_program_desc){.name = "test.batch_good",
                                                              .fragment = good}), GLEVO_OK);
    ck_assert_int_eq(gpu_program_build(&c, &(gpu_program_desc){.name = "test.batch_bad",
                                                              .fragment = bad}), GLEVO_OK);
    ck_assert_int_eq(gpu_program_build(&d, &(gpu_program_desc){.name = "test.batch_other",
                                                              .fragment = other}), GLEVO_OK);
    ck_assert(a.pending && b.pending && c.pending && d.pending);
    ck_assert_uint_eq(a.id, b.id);
    GLuint dropped = d.id;
    gpu_program_destroy(&d);
    /* Used before the batch ends: checked then, and it draws. */
    gpu_texture t;
    ck_assert_int_eq(gpu_texture_create(&t, 1, 1, GPU_RGBA32F, NULL), GLEVO_OK);
    gpu_pass p = {.name = "test.batch_draw", .program = &a, .targets = {&t}, .target_count = 1};
    ck_assert_msg(gpu_pass_draw(&p) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(!a.pending);
    float px[4];
    ck_assert_int_eq(gpu_texture_read(&t, px), GLEVO_OK);
    ck_assert(px[0] == 0.25f && px[1] == 0.5f && px[2] == 0.75f && px[3] == 1.0f);
    ck_assert_int_eq(gpu_program_batch_end(), GLEVO_ERR_GL);
    char want[80];
    snprintf(want, sizeof want, "%s/bad.glsl:2", dir);
    ck_assert_msg(strstr(glevo_last_error(), "test.batch_bad") && strstr(glevo_last_error(), want) &&
                  !strchr(glevo_last_error(), '\n'), "%s", glevo_last_error());
    ck_assert(!b.pending && !c.pending);
    ck_assert_uint_eq(b.id, a.id);
    ck_assert_uint_eq(c.id, 0);
    ck_assert_int_eq(glevo_context_builds(NULL, NULL, 0), before + 1); /* the good one, once */
    GLuint id = a.id;
    gpu_program_destroy(&a);
    ck_assert(glIsProgram(id)); /* b still uses it */
    gpu_program_destroy(&b);
    gpu_texture_destroy(&t);
    glUseProgram(0); /* a program in use is only flagged for deletion */
    while (glGetError() != GL_NO_ERROR) {
    }
    ck_assert(!glIsProgram(id));
    ck_assert(!glIsProgram(dropped));
    unlink(good), unlink(bad), unlink(other);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gl");
    TCase *tc = tcase_create("program");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, syntax_error_names_file_and_line);
    tcase_add_test(tc, log_rewrite_understands_mesa_and_nvidia);
    tcase_add_test(tc, shader_dir_overrides_embedded_files);
    tcase_add_test(tc, pass_errors_name_the_pass);
    tcase_add_test(tc, same_text_builds_once);
    tcase_add_test(tc, user_faults_name_the_users_line);
    tcase_add_test(tc, batch_checks_later);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
