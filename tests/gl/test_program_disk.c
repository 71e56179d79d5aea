/* The disk cache of linked programs (src/gl/program_disk.c): a build leaves an entry, a later
 * build of the same text loads it (and draws what the compiled one drew), a corrupt or
 * foreign entry is ignored and replaced, a folder that cannot be written costs one warning
 * and no failure, the driver's cache turned off turns ours off (glevo_program_cache says so),
 * and past its size the least recently used entries go first. Each test runs in a process of its own (Check's fork) with
 * a context of its own, after setting the environment the cache reads. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>
#include <zlib.h>

#include "gl/gpgpu.h"
#include "testutil.h"

#define SHADER "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.125, 0.25, 0.5, 1.0); }\n"

static char cache[64], src_dir[64], src[128];
static int warnings;

static void count_warnings(void *user, glevo_log_level level, const char *message)
{
    (void)user;
    if (level == GLEVO_LOG_WARNING && strstr(message, "program cache")) warnings++;
}

/* A context whose cache is `folder`, the driver's caches left on; the shader file written. */
static glevo_context *setup(const char *folder)
{
    unsetenv("__GL_SHADER_DISK_CACHE");
    unsetenv("MESA_SHADER_CACHE_DISABLE");
    unsetenv("GLEVO_PROGRAM_CACHE_MB");
    setenv("GLEVO_PROGRAM_CACHE", folder, 1);
    snprintf(src_dir, sizeof src_dir, "/tmp/glevo-disk-src-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(src_dir));
    snprintf(src, sizeof src, "%s/disk.glsl", src_dir);
    FILE *f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fputs(SHADER, f);
    fclose(f);
    glevo_context *ctx = NULL;
    glevo_context_params p = {.log = count_warnings};
    ck_assert_msg(glevo_context_create(&p, &ctx) == GLEVO_OK, "%s", glevo_last_error());
    return ctx;
}

static char *new_cache(void)
{
    snprintf(cache, sizeof cache, "/tmp/glevo-disk-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(cache));
    return cache;
}

/* The cache's folder and the shader's, emptied and removed (no test leaves files behind). */
static void cleanup(glevo_context *ctx)
{
    glevo_context_destroy(ctx);
    const char *dirs[2] = {cache, src_dir};
    for (int i = 0; i < 2; ++i) {
        DIR *d = opendir(dirs[i]);
        char path[512];
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name);
            unlink(path);
        }
        if (d) closedir(d);
        rmdir(dirs[i]);
    }
}

/* The build of the test's program, drawn into a 1x1 target and checked, then let go. */
static void build_and_draw(void)
{
    gpu_program prog;
    glevo_status st = gpu_program_build(&prog, &(gpu_program_desc){.name = "test.disk",
                                                                   .fragment = src});
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    gpu_texture t;
    ck_assert_int_eq(gpu_texture_create(&t, 1, 1, GPU_RGBA32F, NULL), GLEVO_OK);
    gpu_pass p = {.name = "test.disk", .program = &prog, .targets = {&t}, .target_count = 1};
    ck_assert_msg(gpu_pass_draw(&p) == GLEVO_OK, "%s", glevo_last_error());
    float px[4];
    ck_assert_int_eq(gpu_texture_read(&t, px), GLEVO_OK);
    ck_assert(px[0] == 0.125f && px[1] == 0.25f && px[2] == 0.5f && px[3] == 1.0f);
    gpu_texture_destroy(&t);
    gpu_program_destroy(&prog); /* its last user: the next build is a build again */
}

/* The entry of test.disk in the cache (its path into path); false when there is none. */
static bool entry(char *path, size_t n)
{
    DIR *d = opendir(cache);
    bool found = false;
    for (struct dirent *e; d && (e = readdir(d));)
        if (!strncmp(e->d_name, "test.disk-", 10)) {
            snprintf(path, n, "%s/%s", cache, e->d_name);
            found = true;
        }
    if (d) closedir(d);
    return found;
}

static time_t mtime(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    return sb.st_mtime;
}

static ino_t inode(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    return sb.st_ino;
}

static void age(const char *path, time_t seconds)
{
    time_t t = time(NULL) - seconds;
    struct utimbuf u = {t, t};
    ck_assert_int_eq(utime(path, &u), 0);
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

START_TEST(second_build_loads_the_entry)
{
    glevo_context *ctx = setup(new_cache());
    char path[600];
    build_and_draw();
    ck_assert_msg(entry(path, sizeof path), "no entry written in %s", cache);
    /* Loaded, not compiled: a load marks the entry used (its time now) and leaves the file
     * (a compile would have stored a new one in its place). */
    age(path, 3600);
    ino_t before = inode(path);
    build_and_draw();
    ck_assert_int_ge(mtime(path), time(NULL) - 60);
    ck_assert_int_eq(inode(path), before);
    ck_assert_int_eq(warnings, 0);
    cleanup(ctx);
}
END_TEST

/* Bytes of an entry: "GLVPBIN1", five uint32 (driver bytes, key bytes, format, binary bytes,
 * CRC of what follows), then the driver's strings. */
START_TEST(corrupt_and_foreign_entries_are_replaced)
{
    glevo_context *ctx = setup(new_cache());
    char path[600];
    build_and_draw();
    ck_assert(entry(path, sizeof path));
    long good = file_size(path);
    /* Truncated: ignored, compiled again, written whole again. */
    ck_assert_int_eq(truncate(path, good / 2), 0);
    age(path, 3600);
    build_and_draw();
    ck_assert_int_eq(file_size(path), good);
    /* Another driver's (its vendor string changed, the CRC made right): the same. */
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    unsigned char *buf = malloc((size_t)good);
    ck_assert_int_eq(fread(buf, 1, (size_t)good, f), good);
    buf[28] ^= 0x20; /* the first byte of the vendor string */
    uint32_t crc = (uint32_t)crc32(0L, buf + 28, (uInt)(good - 28));
    memcpy(buf + 24, &crc, 4);
    rewind(f);
    ck_assert_int_eq(fwrite(buf, 1, (size_t)good, f), good);
    fclose(f);
    build_and_draw();
    f = fopen(path, "rb");
    ck_assert_int_eq(fread(buf, 1, (size_t)good, f), good);
    fclose(f);
    ck_assert_int_eq(buf[28], ((const char *)glGetString(GL_VENDOR))[0]);
    free(buf);
    ck_assert_int_eq(warnings, 0);
    cleanup(ctx);
}
END_TEST

START_TEST(unwritable_folder_warns_once)
{
    /* A folder below a regular file can never be made. */
    char file[64];
    snprintf(file, sizeof file, "%s/plain", new_cache());
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    char folder[96];
    snprintf(folder, sizeof folder, "%s/below", file);
    glevo_context *ctx = setup(folder);
    build_and_draw();
    gpu_program other;
    ck_assert_int_eq(gpu_program_build(&other, &(gpu_program_desc){
                                           .name = "test.disk_other", .fragment = src,
                                           .defines = "#define OTHER 1\n"}),
                     GLEVO_OK);
    gpu_program_destroy(&other);
    ck_assert_int_eq(warnings, 1);
    ck_assert_str_eq(glevo_last_error(), "");
    cleanup(ctx);
}
END_TEST

START_TEST(driver_cache_off_turns_it_off)
{
    glevo_context *ctx = setup(new_cache());
    char folder[256];
    ck_assert(glevo_program_cache(ctx, folder, sizeof folder));
    ck_assert_str_eq(folder, cache);
    setenv("__GL_SHADER_DISK_CACHE", "0", 1);
    ck_assert(!glevo_program_cache(ctx, folder, sizeof folder));
    ck_assert_str_eq(folder, cache); /* where it would be */
    char path[600];
    build_and_draw();
    ck_assert(!entry(path, sizeof path));
    unsetenv("__GL_SHADER_DISK_CACHE");
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    build_and_draw();
    ck_assert(!entry(path, sizeof path));
    unsetenv("MESA_SHADER_CACHE_DISABLE");
    setenv("GLEVO_PROGRAM_CACHE", "0", 1);
    ck_assert(!glevo_program_cache(ctx, folder, sizeof folder));
    ck_assert_str_eq(folder, "");
    build_and_draw();
    ck_assert(!entry(path, sizeof path));
    cleanup(ctx);
}
END_TEST

START_TEST(least_recently_used_go_first)
{
    glevo_context *ctx = setup(new_cache());
    setenv("GLEVO_PROGRAM_CACHE_MB", "1", 1);
    char old[128], recent[128], path[600];
    snprintf(old, sizeof old, "%s/old-0000000000000000.bin", cache);
    snprintf(recent, sizeof recent, "%s/recent-0000000000000000.bin", cache);
    ck_assert_int_eq(fclose(fopen(old, "w")), 0);
    ck_assert_int_eq(truncate(old, 700 << 10), 0);
    ck_assert_int_eq(fclose(fopen(recent, "w")), 0);
    ck_assert_int_eq(truncate(recent, 500 << 10), 0);
    age(old, 7200);
    age(recent, 3600);
    build_and_draw(); /* 1.2 MiB and the new entry: the oldest goes */
    ck_assert_int_eq(file_size(old), -1);
    ck_assert_int_eq(file_size(recent), 500 << 10);
    ck_assert(entry(path, sizeof path));
    cleanup(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gl");
    TCase *tc = tcase_create("program_disk");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, second_build_loads_the_entry);
    tcase_add_test(tc, corrupt_and_foreign_entries_are_replaced);
    tcase_add_test(tc, unwritable_folder_warns_once);
    tcase_add_test(tc, driver_cache_off_turns_it_off);
    tcase_add_test(tc, least_recently_used_go_first);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
